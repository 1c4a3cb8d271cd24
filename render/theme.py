"""The palette every board shares: its colours, the seats' colours and contrast checks.

- Colours are ``(r, g, b)`` tuples.
- Seat colours are the Okabe–Ito colour-blind-safe hues; never rely on colour alone for
  meaning that matters (banned, captured): add a shape (ring, strike, cross) too.

The drawing helpers that use this palette live in ``render.toolkit``.
"""

from __future__ import annotations

from dataclasses import dataclass

Colour = tuple[int, int, int]

BACKGROUND: Colour = (30, 33, 40)
PANEL: Colour = (44, 48, 58)
PANEL_EDGE: Colour = (70, 76, 90)
BOARD_LIGHT: Colour = (240, 228, 204)
BOARD_DARK: Colour = (205, 184, 152)
BOARD_FRAME: Colour = (92, 70, 52)
TEXT: Colour = (236, 238, 242)
TEXT_MUTED: Colour = (158, 165, 178)
TEXT_DARK: Colour = (30, 32, 38)
HIGHLIGHT: Colour = (247, 208, 70)
DANGER: Colour = (214, 39, 40)
DISABLED: Colour = (128, 132, 140)
WHITE: Colour = (255, 255, 255)
CARD_FACE: Colour = (252, 250, 245)
CARD_BACK: Colour = (38, 70, 120)
SUIT_RED: Colour = (200, 30, 45)
SUIT_BLACK: Colour = (25, 25, 30)


@dataclass(frozen=True)
class SeatColour:
    """The colours of one seat: ``fill`` for its pieces, ``edge`` for outlines, ``text``
    for labels drawn on ``fill`` (contrast ≥ 4.5:1), ``tint`` for pale areas it owns."""

    name: str
    fill: Colour
    edge: Colour
    text: Colour
    tint: Colour


SEAT_COLOURS: tuple[SeatColour, ...] = (
    SeatColour("blue", (0, 114, 178), (0, 64, 102), WHITE, (190, 220, 240)),
    SeatColour("orange", (230, 159, 0), (140, 92, 0), (0, 0, 0), (250, 225, 170)),
    SeatColour("green", (0, 158, 115), (0, 92, 66), (0, 0, 0), (185, 232, 214)),
    SeatColour("pink", (204, 121, 167), (128, 58, 98), (0, 0, 0), (240, 208, 226)),
)


def mix(a: Colour, b: Colour, amount: float) -> Colour:
    """``a`` moved ``amount`` (0..1) of the way towards ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * amount),
        round(a[1] + (b[1] - a[1]) * amount),
        round(a[2] + (b[2] - a[2]) * amount),
    )


def relative_luminance(colour: Colour) -> float:
    """WCAG relative luminance, 0 (black) .. 1 (white)."""

    def linear(channel: int) -> float:
        value = channel / 255
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4

    red, green, blue = (linear(channel) for channel in colour)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast_ratio(a: Colour, b: Colour) -> float:
    """WCAG contrast ratio, 1 .. 21; text wants at least 4.5."""
    light, dark = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)
