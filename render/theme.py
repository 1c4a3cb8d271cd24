"""The shared look of every board: palette, fonts, anti-aliased shapes and the PNG encoder.

How a renderer uses this module::

    image, draw = new_canvas(720, 860)
    draw_panel(draw, (16, 16, 704, 100))
    draw_text(draw, (40, 40), fit_text(clean_name(name), font(24, "Bold"), 300),
              font(24, "Bold"), TEXT)
    draw_disc(draw, (100, 200), 30, SEAT_COLOURS[0].fill, label="3",
              label_colour=SEAT_COLOURS[0].text, edge=SEAT_COLOURS[0].edge)
    return encode_png(image)

Conventions:

- Colours are ``(r, g, b)`` tuples. Boxes are ``(left, top, right, bottom)`` in pixels,
  right/bottom exclusive-ish like Pillow's own; centres are ``(x, y)``.
- Every drawing helper takes an ``ImageDraw.ImageDraw`` on an RGB image. Pillow's own
  shapes are not anti-aliased, so the helpers here paint cached, supersampled greyscale
  masks with ``draw.bitmap`` (one flat colour per mask, blended at the edges). Masks are
  cached by geometry only, so repeated renders cost a few blits.
- Player names come from Discord and may hold emoji or be very long: pass them through
  ``clean_name`` (drops characters Noto Sans cannot draw) and ``fit_text`` (ellipsis).
- Seat colours are the Okabe–Ito colour-blind-safe hues; never rely on colour alone for
  meaning that matters (banned, captured): add a shape (ring, strike, cross) too.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Literal

from PIL import Image, ImageDraw, ImageFilter, ImageFont

Colour = tuple[int, int, int]
Box = tuple[int, int, int, int]
Rect = tuple[float, float, float, float]  # a box in any coordinates, rounded when drawn
Point = tuple[float, float]

# --- palette ------------------------------------------------------------------------

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


# --- fonts and text -----------------------------------------------------------------

Weight = Literal["Regular", "Medium", "SemiBold", "Bold"]

FONT_FILE = resources.files("fontpkg_noto_sans") / "files" / "NotoSans[wdth,wght].ttf"
ELLIPSIS = "…"
# A private-use code point: no font ships a glyph for it, so it renders as .notdef.
MISSING_GLYPH_PROBE = "\ue000"


@lru_cache(maxsize=64)
def font(size: int, weight: Weight = "Regular") -> ImageFont.FreeTypeFont:
    """Noto Sans at ``size`` pixels; the variable font's named instance ``weight``.

    Uses Pillow's basic layout rather than Raqm: about three times faster per string and
    identical for the Latin/German text we draw (names pass through ``clean_name``)."""
    loaded = ImageFont.truetype(str(FONT_FILE), size, layout_engine=ImageFont.Layout.BASIC)
    if weight != "Regular":
        loaded.set_variation_by_name(weight)
    return loaded


def _glyph_pixels(char: str) -> bytes:
    probe = font(24)
    image = Image.new("L", (48, 48), 0)
    ImageDraw.Draw(image).text((8, 4), char, font=probe, fill=255)
    return image.tobytes()


@lru_cache(maxsize=4096)
def has_glyph(char: str) -> bool:
    """Whether Noto Sans draws ``char`` as itself rather than the missing-glyph box."""
    return _glyph_pixels(char) != _glyph_pixels(MISSING_GLYPH_PROBE)


def clean_name(name: str, fallback: str = "?") -> str:
    """``name`` without characters Noto Sans cannot draw (emoji, symbols), whitespace
    collapsed, so a Discord display name never shows as a row of boxes."""
    kept = "".join(char if char.isprintable() and has_glyph(char) else " " for char in name)
    return " ".join(kept.split()) or fallback


@lru_cache(maxsize=1024)
def fit_text(text: str, text_font: ImageFont.FreeTypeFont, max_width: float) -> str:
    """``text`` cut with an ellipsis so it is at most ``max_width`` pixels wide (cached:
    the same names are fitted into the same strips on every board and replay frame)."""
    if text_font.getlength(text) <= max_width:
        return text
    low, high = 0, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        if text_font.getlength(text[:middle].rstrip() + ELLIPSIS) <= max_width:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + ELLIPSIS


@lru_cache(maxsize=512)
def wrap_text(
    text: str, text_font: ImageFont.FreeTypeFont, max_width: float, max_lines: int = 2
) -> tuple[str, ...]:
    """``text`` broken at spaces into at most ``max_lines`` lines of at most ``max_width``
    pixels; what does not fit ends the last line with an ellipsis. Cached: footers repeat
    from render to render and measuring is the costly part."""
    if text_font.getlength(text) <= max_width:
        # Most lines fit whole: one measurement instead of one per word.
        return (text,)
    lines: list[str] = []
    words = text.split(" ")
    while words and len(lines) < max_lines - 1:
        taken = 1
        while taken < len(words) and text_font.getlength(" ".join(words[: taken + 1])) <= max_width:
            taken += 1
        lines.append(fit_text(" ".join(words[:taken]), text_font, max_width))
        words = words[taken:]
    if words:
        lines.append(fit_text(" ".join(words), text_font, max_width))
    return tuple(lines)


@lru_cache(maxsize=1024)
def _text_mask(
    text: str, text_font: ImageFont.FreeTypeFont, anchor: str
) -> tuple[Image.Image, int, int]:
    """The coverage mask of ``text`` and its top-left offset from the anchor point."""
    # whole pixels at run time; Pillow's stubs declare floats
    left, top, right, bottom = map(int, text_font.getbbox(text, anchor=anchor))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=text_font, fill=255, anchor=anchor)
    return mask, left, top


# (font size, text) of every string drawn while ``recording_text_sizes`` is active.
_text_log: list[tuple[int, str]] | None = None


@contextmanager
def recording_text_sizes() -> Iterator[list[tuple[int, str]]]:
    """Collects ``(font size, text)`` for every string drawn inside the ``with`` block,
    so a test can check that each picture's smallest text is readable on a phone.
    Renderers cache tiles and static backgrounds: clear those caches first to see all."""
    global _text_log
    log: list[tuple[int, str]] = []
    previous, _text_log = _text_log, log
    try:
        yield log
    finally:
        _text_log = previous


def _record(text: str, text_font: ImageFont.FreeTypeFont) -> None:
    if _text_log is not None:
        _text_log.append((int(text_font.size), text))


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: Point,
    text: str,
    text_font: ImageFont.FreeTypeFont,
    fill: Colour,
    anchor: str = "la",
) -> None:
    """Like ``draw.text`` (same anchors) but rasterized once per (text, font, anchor) and
    cached: Pillow has no glyph cache, and names, labels and numbers repeat every render."""
    _record(text, text_font)
    mask, left, top = _text_mask(text, text_font, anchor)
    _blit(draw, (xy[0] + left, xy[1] + top), mask, fill)


def draw_text_centred(
    draw: ImageDraw.ImageDraw,
    centre: Point,
    text: str,
    text_font: ImageFont.FreeTypeFont,
    fill: Colour,
) -> None:
    """``text`` centred on ``centre``, using the glyphs' ink box so digits sit truly in
    the middle of discs and dice (Pillow's "mm" anchor centres the line box instead)."""
    _record(text, text_font)
    mask, _, _ = _text_mask(text, text_font, "la")
    _blit(draw, (centre[0] - mask.width / 2, centre[1] - mask.height / 2), mask, fill)


# --- anti-aliased masks -------------------------------------------------------------

SUPERSAMPLE = 4


def _supersampled_mask(
    width: int, height: int, paint: Callable[[ImageDraw.ImageDraw, int], None]
) -> Image.Image:
    """A greyscale coverage mask: ``paint`` draws at ``SUPERSAMPLE``× with scale given."""
    big = Image.new("L", (width * SUPERSAMPLE, height * SUPERSAMPLE), 0)
    paint(ImageDraw.Draw(big), SUPERSAMPLE)
    return big.reduce(SUPERSAMPLE)


@lru_cache(maxsize=512)
def _rounded_mask(width: int, height: int, radius: int) -> Image.Image:
    def paint(draw: ImageDraw.ImageDraw, scale: int) -> None:
        draw.rounded_rectangle(
            (0, 0, width * scale - 1, height * scale - 1), radius=radius * scale, fill=255
        )

    return _supersampled_mask(width, height, paint)


@lru_cache(maxsize=512)
def _disc_mask(diameter: int) -> Image.Image:
    def paint(draw: ImageDraw.ImageDraw, scale: int) -> None:
        draw.ellipse((0, 0, diameter * scale - 1, diameter * scale - 1), fill=255)

    return _supersampled_mask(diameter, diameter, paint)


@lru_cache(maxsize=512)
def _ring_mask(diameter: int, width: int) -> Image.Image:
    def paint(draw: ImageDraw.ImageDraw, scale: int) -> None:
        draw.ellipse(
            (0, 0, diameter * scale - 1, diameter * scale - 1), outline=255, width=width * scale
        )

    return _supersampled_mask(diameter, diameter, paint)


@lru_cache(maxsize=256)
def _segment_mask(dx: int, dy: int, width: int, head: int) -> tuple[Image.Image, int, int]:
    """A line from (0, 0) to (dx, dy), optionally ending in an arrow head ``head`` px
    long; returns the mask and the offset of the start point inside it."""
    margin = width + head + 2
    left, top = min(0, dx) - margin, min(0, dy) - margin
    size_x, size_y = abs(dx) + 2 * margin, abs(dy) + 2 * margin
    length = max(1.0, (dx * dx + dy * dy) ** 0.5)
    ux, uy = dx / length, dy / length

    def paint(draw: ImageDraw.ImageDraw, scale: int) -> None:
        def at(x: float, y: float) -> tuple[float, float]:
            return ((x - left) * scale, (y - top) * scale)

        shaft_end = (dx - ux * head * 0.8, dy - uy * head * 0.8) if head else (dx, dy)
        draw.line((at(0, 0), at(*shaft_end)), fill=255, width=width * scale)
        for end in ((0, 0), shaft_end):
            cx, cy = at(*end)
            radius = width * scale / 2
            draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=255)
        if head:
            base_x, base_y = dx - ux * head, dy - uy * head
            spread = head * 0.6
            draw.polygon(
                (
                    at(dx, dy),
                    at(base_x - uy * spread, base_y + ux * spread),
                    at(base_x + uy * spread, base_y - ux * spread),
                ),
                fill=255,
            )

    return _supersampled_mask(size_x, size_y, paint), -left, -top


def _blit(draw: ImageDraw.ImageDraw, top_left: Point, mask: Image.Image, colour: Colour) -> None:
    draw.bitmap((round(top_left[0]), round(top_left[1])), mask, fill=colour)


# --- shapes -------------------------------------------------------------------------


def rounded_mask(width: int, height: int, radius: int) -> Image.Image:
    """The cached anti-aliased coverage mask of a rounded rectangle: paste a pre-drawn
    tile (a card) through it so whatever lies below shows at its corners."""
    return _rounded_mask(width, height, radius)


def card_radius(width: int) -> int:
    """The corner radius ``draw_card`` and ``draw_card_back`` give a card ``width`` wide."""
    return max(3, width // 10)


def fill_rounded(draw: ImageDraw.ImageDraw, box: Rect, radius: int, colour: Colour) -> None:
    """A smooth rounded rectangle filling ``box``.

    Only the corners need the smooth mask: outside its four ``radius``-sized corner
    squares the mask is fully opaque, so the rest is a plain fill with the same pixels,
    many times cheaper than blending a mask as large as a panel."""
    left, top, right, bottom = (round(value) for value in box)
    width, height = right - left, bottom - top
    corner = max(0, radius)
    if width <= 0 or height <= 0:
        return  # a box that rounds to no pixel covers none
    if 2 * corner > min(width, height):
        _blit(draw, (left, top), _rounded_mask(width, height, radius), colour)
        return
    _fill_box(draw, (left, top + corner, right, bottom - corner), colour)
    if not corner:
        return
    _fill_box(draw, (left + corner, top, right - corner, top + corner), colour)
    _fill_box(draw, (left + corner, bottom - corner, right - corner, bottom), colour)
    corners = _rounded_corners(width, height, corner)
    for (x, y), mask in zip(_corner_places(width, height, corner), corners, strict=True):
        _blit(draw, (left + x, top + y), mask, colour)


def _fill_box(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], colour: Colour) -> None:
    """Fill the pixels from (left, top) up to but not including (right, bottom)."""
    left, top, right, bottom = box
    if right > left and bottom > top:
        draw.rectangle((left, top, right - 1, bottom - 1), fill=colour)


def _corner_places(width: int, height: int, corner: int) -> list[tuple[int, int]]:
    return [(0, 0), (width - corner, 0), (0, height - corner), (width - corner, height - corner)]


@lru_cache(maxsize=512)
def _rounded_corners(width: int, height: int, corner: int) -> tuple[Image.Image, ...]:
    mask = _rounded_mask(width, height, corner)
    return tuple(
        mask.crop((x, y, x + corner, y + corner))
        for x, y in _corner_places(width, height, corner)
    )


def draw_panel(
    draw: ImageDraw.ImageDraw,
    box: Rect,
    fill: Colour = PANEL,
    edge: Colour | None = PANEL_EDGE,
    radius: int = 14,
    edge_width: int = 2,
) -> None:
    """A rounded panel with an optional outline of ``edge_width`` pixels."""
    if edge is None:
        fill_rounded(draw, box, radius, fill)
        return
    left, top, right, bottom = box
    fill_rounded(draw, box, radius, edge)
    inner = (left + edge_width, top + edge_width, right - edge_width, bottom - edge_width)
    fill_rounded(draw, inner, max(0, radius - edge_width), fill)


def fill_disc(draw: ImageDraw.ImageDraw, centre: Point, radius: float, colour: Colour) -> None:
    """A smooth filled circle."""
    diameter = max(1, round(radius * 2))
    _blit(draw, (centre[0] - diameter / 2, centre[1] - diameter / 2), _disc_mask(diameter), colour)


def draw_ring(
    draw: ImageDraw.ImageDraw, centre: Point, radius: float, width: int, colour: Colour
) -> None:
    """A circle outline whose outer edge has ``radius``."""
    diameter = max(1, round(radius * 2))
    mask = _ring_mask(diameter, width)
    _blit(draw, (centre[0] - diameter / 2, centre[1] - diameter / 2), mask, colour)


def draw_disc(
    draw: ImageDraw.ImageDraw,
    centre: Point,
    radius: float,
    fill: Colour,
    *,
    edge: Colour | None = None,
    edge_width: int = 3,
    label: str | None = None,
    label_colour: Colour = TEXT_DARK,
    label_size: int | None = None,
    shadow: bool = False,
) -> None:
    """A disc (a piece, a counter) with an optional outline, a bold centred label and a
    soft drop shadow that lifts it off the board."""
    if shadow:
        drop_shadow(draw, centre, radius)
    if edge is not None:
        fill_disc(draw, centre, radius, edge)
        fill_disc(draw, centre, radius - edge_width, fill)
    else:
        fill_disc(draw, centre, radius, fill)
    if label:
        size = label_size or max(8, round(radius * 1.05))
        draw_text_centred(draw, centre, label, font(size, "Bold"), label_colour)


SHADOW: Colour = (0, 0, 0)
SHADOW_OPACITY = 0.35


@lru_cache(maxsize=64)
def _shadow_mask(diameter: int, blur: int) -> Image.Image:
    disc = Image.new("L", (diameter + 4 * blur, diameter + 4 * blur), 0)
    disc.paste(_disc_mask(diameter), (2 * blur, 2 * blur))
    blurred = disc.filter(ImageFilter.GaussianBlur(blur))
    return blurred.point(lambda value: round(value * SHADOW_OPACITY))


def drop_shadow(draw: ImageDraw.ImageDraw, centre: Point, radius: float) -> None:
    """A soft shadow below and right of a disc of ``radius`` centred on ``centre``."""
    diameter = max(1, round(radius * 2))
    blur = max(1, round(radius / 10))
    mask = _shadow_mask(diameter, blur)
    offset = max(1, radius / 14)
    top_left = (centre[0] + offset - mask.width / 2, centre[1] + offset * 1.5 - mask.height / 2)
    _blit(draw, top_left, mask, SHADOW)


def draw_line(
    draw: ImageDraw.ImageDraw, start: Point, end: Point, colour: Colour, width: int = 4
) -> None:
    """A smooth straight line with round caps."""
    _draw_segment(draw, start, end, colour, width, head=0)


def draw_arrow(
    draw: ImageDraw.ImageDraw,
    start: Point,
    end: Point,
    colour: Colour,
    width: int = 6,
    head: int | None = None,
) -> None:
    """A smooth arrow from ``start`` whose tip touches ``end``."""
    _draw_segment(draw, start, end, colour, width, head=head or width * 3)


def _draw_segment(
    draw: ImageDraw.ImageDraw, start: Point, end: Point, colour: Colour, width: int, head: int
) -> None:
    dx, dy = round(end[0] - start[0]), round(end[1] - start[1])
    mask, offset_x, offset_y = _segment_mask(dx, dy, width, head)
    _blit(draw, (start[0] - offset_x, start[1] - offset_y), mask, colour)


def draw_cross(
    draw: ImageDraw.ImageDraw, centre: Point, size: float, colour: Colour, width: int = 6
) -> None:
    """An X whose arms span ``size`` pixels: "captured", "removed", "not allowed"."""
    half = size / 2
    x, y = centre
    draw_line(draw, (x - half, y - half), (x + half, y + half), colour, width)
    draw_line(draw, (x - half, y + half), (x + half, y - half), colour, width)


def draw_turn_marker(draw: ImageDraw.ImageDraw, centre: Point, size: float, colour: Colour) -> None:
    """A right-pointing triangle ("▶", which Noto Sans lacks) marking whose turn it is."""
    x, y = centre
    half = size / 2
    points = ((x - half * 0.7, y - half), (x + half, y), (x - half * 0.7, y + half))
    fill_polygon(draw, points, colour)


def fill_polygon(draw: ImageDraw.ImageDraw, points: Sequence[Point], colour: Colour) -> None:
    """A smooth filled polygon (icons, arrow heads, markers)."""
    left = math.floor(min(px for px, _ in points)) - 1
    top = math.floor(min(py for _, py in points)) - 1
    width = math.ceil(max(px for px, _ in points)) - left + 2
    height = math.ceil(max(py for _, py in points)) - top + 2
    relative = tuple((round(px - left, 2), round(py - top, 2)) for px, py in points)
    _blit(draw, (left, top), _cached_polygon_mask(relative, width, height), colour)


@lru_cache(maxsize=256)
def _cached_polygon_mask(
    points: tuple[tuple[float, float], ...], width: int, height: int
) -> Image.Image:
    def paint(draw: ImageDraw.ImageDraw, scale: int) -> None:
        draw.polygon([(px * scale, py * scale) for px, py in points], fill=255)

    return _supersampled_mask(width, height, paint)


# --- dice ---------------------------------------------------------------------------


@dataclass(frozen=True)
class DieColours:
    """Colours of a die: ``face``, ``pip`` (also used for a text label) and ``edge``."""

    face: Colour = CARD_FACE
    pip: Colour = TEXT_DARK
    edge: Colour = (110, 110, 118)


DEFAULT_DIE = DieColours()

# Pip positions on a 3×3 grid (column, row), 0..2.
PIP_LAYOUT: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
}


def draw_die(
    draw: ImageDraw.ImageDraw,
    box: Box,
    value: int,
    colours: DieColours = DEFAULT_DIE,
    label: str | None = None,
) -> None:
    """A die face showing ``value`` (1–6) as pips. ``label`` replaces the pips with text,
    for special faces such as Barree's bar (value 0)."""
    left, top, right, bottom = box
    size = min(right - left, bottom - top)
    radius = max(2, size // 6)
    draw_panel(draw, box, fill=colours.face, edge=colours.edge, radius=radius, edge_width=2)
    centre = ((left + right) / 2, (top + bottom) / 2)
    if label is not None or value not in PIP_LAYOUT:
        text = label if label is not None else str(value)
        text_font = font(max(8, round(size * 0.42)), "Bold")
        draw_text_centred(
            draw, centre, fit_text(text, text_font, size * 0.85), text_font, colours.pip
        )
        return
    step = size * 0.27
    pip_radius = size * 0.095
    for column, row in PIP_LAYOUT[value]:
        pip_centre = (centre[0] + (column - 1) * step, centre[1] + (row - 1) * step)
        fill_disc(draw, pip_centre, pip_radius, colours.pip)


# --- card suits ---------------------------------------------------------------------

RED_SUITS = frozenset({"H", "D"})


def suit_colour(suit: str) -> Colour:
    return SUIT_RED if suit in RED_SUITS else SUIT_BLACK


@lru_cache(maxsize=128)
def _suit_mask(suit: str, size: int) -> Image.Image:
    def paint(draw: ImageDraw.ImageDraw, scale: int) -> None:
        s = size * scale
        if suit == "D":
            draw.polygon(
                ((s * 0.5, 0), (s * 0.88, s * 0.5), (s * 0.5, s), (s * 0.12, s * 0.5)), fill=255
            )
        elif suit == "H":
            _paint_heart(draw, s, pointing_down=True)
        elif suit == "S":
            _paint_heart(draw, s * 0.86, pointing_down=False)
            _paint_stem(draw, s)
        elif suit == "C":
            lobe = s * 0.24
            for cx, cy in ((s * 0.5, s * 0.27), (s * 0.26, s * 0.56), (s * 0.74, s * 0.56)):
                draw.ellipse((cx - lobe, cy - lobe, cx + lobe, cy + lobe), fill=255)
            draw.rectangle((s * 0.4, s * 0.35, s * 0.6, s * 0.62), fill=255)
            _paint_stem(draw, s)
        else:
            raise ValueError(f"unknown suit {suit!r}")

    return _supersampled_mask(size, size, paint)


def _paint_heart(draw: ImageDraw.ImageDraw, s: float, *, pointing_down: bool) -> None:
    """A heart in the square (0, 0)–(s, s); flipped vertically for the spade's blade."""

    def y(value: float) -> float:
        return value if pointing_down else s - value

    lobe = s * 0.26
    for cx in (s * 0.27, s * 0.73):
        cy = y(s * 0.3)
        draw.ellipse((cx - lobe, cy - lobe, cx + lobe, cy + lobe), fill=255)
    draw.polygon(((s * 0.04, y(s * 0.4)), (s * 0.96, y(s * 0.4)), (s * 0.5, y(s * 0.95))), fill=255)
    draw.rectangle(
        (s * 0.27, min(y(s * 0.3), y(s * 0.42)), s * 0.73, max(y(s * 0.3), y(s * 0.42))), fill=255
    )


def _paint_stem(draw: ImageDraw.ImageDraw, s: float) -> None:
    draw.polygon(((s * 0.5, s * 0.55), (s * 0.68, s), (s * 0.32, s)), fill=255)


def draw_suit(
    draw: ImageDraw.ImageDraw,
    suit: str,
    centre: Point,
    size: int,
    colour: Colour | None = None,
) -> None:
    """A vector suit pip ("S", "H", "D", "C") ``size`` px tall centred on ``centre``;
    Noto Sans has no ♠♥♦♣. ``colour`` defaults to red for hearts/diamonds, else black."""
    mask = _suit_mask(suit, size)
    _blit(draw, (centre[0] - size / 2, centre[1] - size / 2), mask, colour or suit_colour(suit))


# --- playing cards ------------------------------------------------------------------

CARD_EDGE: Colour = (150, 150, 158)
CARD_RATIO = 1.4  # height / width of a playing card: size card boxes with it
RANK_LABELS = {"T": "10"}


def draw_card(
    draw: ImageDraw.ImageDraw,
    box: Box,
    rank: str,
    suit: str,
    highlighted: bool = False,
    dimmed: bool = False,
) -> None:
    """A card face: rank and suit pip in the top-left corner, a large pip in the middle.

    ``rank`` is one of 2–9, "T" (drawn as 10), J, Q, K, A; ``suit`` "S", "H", "D", "C".
    ``highlighted`` (a playable or chosen card) gets a thick ``HIGHLIGHT`` border;
    ``dimmed`` (a card that may not be played now) is drawn faded."""
    left, top, right, bottom = box
    width = right - left
    face = mix(CARD_FACE, DISABLED, 0.45) if dimmed else CARD_FACE
    ink = suit_colour(suit)
    if dimmed:
        ink = mix(ink, face, 0.55)
    radius = card_radius(width)
    if highlighted:
        draw_panel(
            draw, box, fill=face, edge=HIGHLIGHT, radius=radius, edge_width=max(3, width // 16)
        )
    else:
        draw_panel(draw, box, fill=face, edge=CARD_EDGE, radius=radius, edge_width=1)
    index_font = font(max(9, round(width * 0.26)), "Bold")
    label = RANK_LABELS.get(rank, rank)
    corner_x = left + width * 0.2
    index_top = top + width * 0.09
    draw_text(draw, (corner_x, index_top), label, index_font, ink, anchor="mt")
    pip_size = max(6, round(width * 0.2))
    index_bottom = index_top + index_font.getbbox(label, anchor="mt")[3]
    draw_suit(draw, suit, (corner_x, index_bottom + pip_size * 0.75), pip_size, ink)
    centre = ((left + right) / 2 + width * 0.08, top + (bottom - top) * 0.58)
    draw_suit(draw, suit, centre, max(8, round(width * 0.5)), ink)


@lru_cache(maxsize=32)
def _card_back_pattern(width: int, height: int, inset: int) -> Image.Image:
    """A diagonal lattice inside the card's inner frame."""

    def paint(draw: ImageDraw.ImageDraw, scale: int) -> None:
        low_x, low_y = inset * scale, inset * scale
        high_x, high_y = (width - inset) * scale, (height - inset) * scale
        step = max(6, width // 7) * scale
        line_width = max(1, scale * max(1, width // 60))
        span = high_y - low_y
        for start in range(low_x - span, high_x + step, step):
            draw.line((start, low_y, start + span, high_y), fill=255, width=line_width)
            draw.line((start, high_y, start + span, low_y), fill=255, width=line_width)
        # Clear what spilled outside the inner frame, then draw the frame itself.
        draw.rectangle((0, 0, width * scale, low_y - 1), fill=0)
        draw.rectangle((0, high_y + 1, width * scale, height * scale), fill=0)
        draw.rectangle((0, 0, low_x - 1, height * scale), fill=0)
        draw.rectangle((high_x + 1, 0, width * scale, height * scale), fill=0)
        draw.rectangle((low_x, low_y, high_x, high_y), outline=255, width=line_width * 2)

    return _supersampled_mask(width, height, paint)


def draw_card_back(draw: ImageDraw.ImageDraw, box: Box, colour: Colour = CARD_BACK) -> None:
    """The back of a card: ``colour`` with a white frame and lattice, same for every card."""
    left, top, right, bottom = (round(value) for value in box)
    width, height = right - left, bottom - top
    radius = max(3, width // 10)
    draw_panel(
        draw,
        (left, top, right, bottom),
        fill=colour,
        edge=CARD_FACE,
        radius=radius,
        edge_width=max(2, width // 25),
    )
    pattern = _card_back_pattern(width, height, max(5, width // 9))
    _blit(draw, (left, top), pattern, mix(colour, CARD_FACE, 0.55))


# --- player strip -------------------------------------------------------------------


def draw_player_strip(
    draw: ImageDraw.ImageDraw,
    box: Box,
    name: str,
    colour: SeatColour,
    *,
    active: bool,
    detail: str | None = None,
    reserve_right: int = 0,
    detail_size: int | None = None,
) -> None:
    """A panel naming one player: turn marker (when ``active``), colour swatch, name and
    an optional muted ``detail`` line below it. The right ``reserve_right`` pixels are
    left free for the caller (a die, a score). ``name`` should come from ``clean_name``;
    ``detail_size`` sets the detail line's font size (default: about ⅔ of the name's)."""
    left, top, right, bottom = box
    height = bottom - top
    if active:
        draw_panel(draw, box, fill=mix(PANEL, colour.fill, 0.16), edge=colour.fill, edge_width=3)
    else:
        draw_panel(draw, box)
    middle = top + height / 2
    marker_x = left + 18
    if active:
        draw_turn_marker(draw, (marker_x, middle), 16, colour.fill)
    swatch_radius = min(16, height * 0.22)
    swatch_x = marker_x + 14 + swatch_radius
    draw_disc(draw, (swatch_x, middle), swatch_radius, colour.fill, edge=colour.edge, edge_width=2)
    text_left = swatch_x + swatch_radius + 12
    text_width = right - reserve_right - 12 - text_left
    name_font = font(max(12, min(23, round(height * 0.27))), "Bold")
    name_colour = TEXT if active else mix(TEXT, TEXT_MUTED, 0.5)
    if detail:
        detail_font = font(detail_size or max(10, round(name_font.size * 0.68)))
        draw_text(
            draw,
            (text_left, middle - 2),
            fit_text(name, name_font, text_width),
            name_font,
            name_colour,
            anchor="ls",
        )
        draw_text(
            draw,
            (text_left, middle + 6),
            fit_text(detail, detail_font, text_width),
            detail_font,
            TEXT_MUTED,
            anchor="lt",
        )
    else:
        draw_text(
            draw,
            (text_left, middle),
            fit_text(name, name_font, text_width),
            name_font,
            name_colour,
            anchor="lm",
        )


# --- canvas and encoding ------------------------------------------------------------

PALETTE_COLOURS = 256
PNG_COMPRESS_LEVEL = 1
# The palette is learned from every fourth pixel of every fourth row: a picture's flat
# colours and most edge blends survive that sampling, and octree-quantizing 1/16 of the
# pixels is what makes the two-pass encode faster than quantizing the full image.
# Nearest-pixel sampling, unlike a box average, only ever sees colours the picture really
# has (bench/bench_render.py: 0.6-1.7 ms faster per board, mean error no higher).
PALETTE_SAMPLE_SHRINK = 4
SMALL_IMAGE_PIXELS = 160_000


def new_canvas(
    width: int, height: int, background: Colour = BACKGROUND
) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", (width, height), background)
    return image, ImageDraw.Draw(image)


def encode_png(image: Image.Image) -> bytes:
    """PNG bytes of ``image``, tuned for speed (the budget: render + encode ≤ 15 ms).

    Measured on the 720×860 Bann board (bench/bench_render.py): a full-colour PNG at zlib
    level 1 takes about twice as long as quantizing to a 256-colour palette first, because
    zlib and PNG's row filters dominate and a palette image has a third of the bytes. The
    palette comes from a fast-octree pass over a 1/4-scale sample and the full image is
    mapped onto it without dithering (dithering would speckle flat areas); anti-aliased
    text and edges stay clean (error ≤ ~32/255 on a few edge pixels, mean < 1). Caveat:
    a colour used only in specks under ~4 px may shift to the nearest palette colour, so
    give meaningful marks some area. Images under ``SMALL_IMAGE_PIXELS`` skip the sample.
    Higher zlib levels cost several ms for a few KB a chat upload does not need."""
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    if rgb.width * rgb.height < SMALL_IMAGE_PIXELS:
        paletted = rgb.quantize(PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE)
    else:
        sample = rgb.resize(
            (rgb.width // PALETTE_SAMPLE_SHRINK, rgb.height // PALETTE_SAMPLE_SHRINK),
            Image.Resampling.NEAREST,
        )
        palette = sample.quantize(PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE)
        paletted = rgb.quantize(palette=palette, dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    paletted.save(buffer, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buffer.getvalue()
