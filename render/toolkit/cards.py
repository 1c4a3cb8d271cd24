"""Playing cards: vector suit pips, card faces and card backs."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from render.theme import (
    CARD_BACK,
    CARD_FACE,
    DISABLED,
    HIGHLIGHT,
    SUIT_BLACK,
    SUIT_RED,
    Colour,
    mix,
)
from render.toolkit.geometry import Box, Point
from render.toolkit.masks import blit, supersampled_mask
from render.toolkit.shapes import draw_panel
from render.toolkit.text import draw_text, font

# --- suits --------------------------------------------------------------------------

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

    return supersampled_mask(size, size, paint)


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
    blit(draw, (centre[0] - size / 2, centre[1] - size / 2), mask, colour or suit_colour(suit))


# --- playing cards ------------------------------------------------------------------

CARD_EDGE: Colour = (150, 150, 158)
CARD_RATIO = 1.4  # height / width of a playing card: size card boxes with it
RANK_LABELS = {"T": "10"}


def card_radius(width: int) -> int:
    """The corner radius ``draw_card`` and ``draw_card_back`` give a card ``width`` wide."""
    return max(3, width // 10)


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

    return supersampled_mask(width, height, paint)


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
    blit(draw, (left, top), pattern, mix(colour, CARD_FACE, 0.55))
