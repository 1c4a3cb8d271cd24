"""What the Barbu pictures share: the seats' names, the card faces, the seat discs and
the size of the smallest text."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from render.theme import CARD_FACE, SEAT_COLOURS, Colour
from render.toolkit.cards import card_radius, draw_card
from render.toolkit.shapes import fill_disc, rounded_mask
from render.toolkit.text import clean_name, draw_text, draw_text_centred, font
from texts.barbu import rank_label
from texts.i18n import t

TEXT_SIZE = 18  # the smallest text: 11 px at a phone's 450 px
WIDTH = 720
SUIT_ORDER = "SHCD"
RANK_ORDER = "23456789TJQKA"


def player_names(names: Sequence[str], language: str) -> list[str]:
    """The four seats' names as drawn: cleaned of what the font lacks, "Seat 3" for a
    seat without one."""
    return [
        clean_name(names[seat])
        if seat < len(names)
        else t(language, "Seat {number}", number=seat + 1)
        for seat in range(4)
    ]


def signed_score(value: int) -> str:
    """A score with its sign, negatives with a true minus sign: "+12", "0", "−26"."""
    return f"+{value}" if value > 0 else ("0" if value == 0 else f"−{-value}")


# --- text --------------------------------------------------------------------------


def put_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    *,
    font: ImageFont.FreeTypeFont,
    fill: Colour,
    anchor: str = "la",
) -> None:
    """``draw_text`` with the font and colour by keyword; an empty ``text`` draws nothing."""
    if text:
        draw_text(draw, xy, text, font, fill, anchor)


def draw_seat_number(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float, seat: int, size: int
) -> None:
    """A disc in the seat's colour with its number, so colour is never the only cue."""
    colour = SEAT_COLOURS[seat]
    fill_disc(draw, centre, radius, colour.fill)
    draw_text_centred(draw, centre, str(seat + 1), font(size, "Bold"), colour.text)


def paste_card(
    image: Image.Image,
    top_left: tuple[float, float],
    card: str,
    size: tuple[int, int],
    language: str,
    *,
    dim: bool = False,
    highlighted: bool = False,
) -> None:
    """A card face of ``size`` at ``top_left``: greyed when ``dim`` (not playable now),
    framed when ``highlighted`` (playable, or winning the trick)."""
    tile, mask = _card_tile(rank_label(language, card[0]), card[1], size, dim, highlighted)
    image.paste(tile, (round(top_left[0]), round(top_left[1])), mask)


@lru_cache(maxsize=256)
def _card_tile(
    rank: str, suit: str, size: tuple[int, int], dim: bool, highlighted: bool
) -> tuple[Image.Image, Image.Image]:
    """A card drawn once and the mask of its rounded shape: hands and Domino rows paste
    up to 52 of them per picture, overlapping. ``rank`` is as the corner shows it
    ("10", "D" for a German queen)."""
    width, height = size
    tile = Image.new("RGB", size, CARD_FACE)
    draw_card(
        ImageDraw.Draw(tile),
        (0, 0, width, height),
        rank,
        suit,
        highlighted=highlighted,
        dimmed=dim,
    )
    return tile, rounded_mask(width, height, card_radius(width))
