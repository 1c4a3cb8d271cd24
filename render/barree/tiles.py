"""The small pictures the Barree board is pasted together from, each drawn once and
cached: fields, pieces, cards and card backs, the die, the active panel and the key's
icons; and the text helper every part uses."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from games.barree import BAR
from render.barree.layout import (
    BLOCKED_FILL,
    CARD_HEIGHT,
    CARD_WIDTH,
    DIE_SIZE,
    FIELD_FILL,
    FIELD_RADIUS,
    MARGIN,
    PANEL_HEIGHT,
    SHADOW,
    SIDE_LEFT,
    TEXT_SIZE,
    WIDTH,
    field_centre,
)
from render.theme import (
    BACKGROUND,
    BOARD_FRAME,
    CARD_BACK,
    CARD_FACE,
    DANGER,
    DISABLED,
    PANEL,
    SEAT_COLOURS,
    TEXT_DARK,
    TEXT_MUTED,
    WHITE,
    Colour,
    mix,
)
from render.toolkit.dice import DieColours, draw_die
from render.toolkit.geometry import Point
from render.toolkit.masks import SUPERSAMPLE
from render.toolkit.shapes import (
    draw_arrow,
    draw_disc,
    draw_panel,
    fill_disc,
    fill_polygon,
    fill_rounded,
)
from render.toolkit.text import Weight, draw_text, draw_text_centred, fit_text, font


@dataclass(frozen=True)
class FieldLook:
    fill: Colour
    edge: Colour
    text: Colour
    edge_width: int = 2
    weight: Weight = "SemiBold"


PLAIN = FieldLook(FIELD_FILL, BOARD_FRAME, TEXT_DARK)
BLOCKED = FieldLook(BLOCKED_FILL, mix(DANGER, DISABLED, 0.4), TEXT_MUTED)


@lru_cache(maxsize=4096)
def _fitted(text: str, size: int, weight: Weight, width: int) -> str:
    return fit_text(text, font(size, weight), width)


def put_text(
    draw: ImageDraw.ImageDraw,
    at: Point,
    text: str,
    colour: Colour,
    *,
    size: int = TEXT_SIZE,
    weight: Weight = "Regular",
    anchor: str = "lm",
    width: int | None = None,
) -> None:
    """Text at ``at`` (Pillow ``anchor``), cut to ``width`` pixels; masks are cached."""
    shown = _fitted(text, size, weight, width) if width is not None else text
    if shown:
        draw_text(draw, at, shown, font(size, weight), colour, anchor)


# --- cached tiles -------------------------------------------------------------------


@lru_cache(maxsize=64)
def _disc_alpha(diameter: int, shadow: Point | None = None) -> Image.Image:
    """An anti-aliased disc mask, optionally with a shadow disc offset by ``shadow``."""
    scale = SUPERSAMPLE
    size = diameter + (4 if shadow else 0)
    big = Image.new("L", (size * scale, size * scale), 0)
    paint = ImageDraw.Draw(big)
    if shadow:
        dx, dy = shadow
        paint.ellipse(
            (dx * scale, dy * scale, (dx + diameter) * scale - 1, (dy + diameter) * scale - 1),
            fill=255,
        )
    paint.ellipse((0, 0, diameter * scale - 1, diameter * scale - 1), fill=255)
    return big.reduce(scale)


@lru_cache(maxsize=1024)
def _field_tile(field: int, look: FieldLook) -> Image.Image:
    # The tile's own background is the edge colour, so the paste mask alone anti-aliases.
    diameter = 2 * FIELD_RADIUS
    tile = Image.new("RGB", (diameter, diameter), look.edge)
    draw = ImageDraw.Draw(tile)
    draw_disc(draw, (FIELD_RADIUS, FIELD_RADIUS), FIELD_RADIUS - look.edge_width, look.fill)
    draw_text_centred(
        draw, (FIELD_RADIUS, FIELD_RADIUS), str(field), font(TEXT_SIZE, look.weight), look.text
    )
    return tile


def paste_field(image: Image.Image, field: int, look: FieldLook) -> None:
    x, y = field_centre(field)
    corner = (x - FIELD_RADIUS, y - FIELD_RADIUS)
    image.paste(_field_tile(field, look), corner, _disc_alpha(2 * FIELD_RADIUS))


PIECE_SHADOW: Point = (1.5, 2.5)


@lru_cache(maxsize=256)
def _piece_tile(seat: int, radius: int, label: str) -> Image.Image:
    colour = SEAT_COLOURS[seat]
    diameter = 2 * radius
    tile = Image.new("RGB", (diameter + 4, diameter + 4), SHADOW)
    draw = ImageDraw.Draw(tile)
    draw_disc(
        draw,
        (radius, radius),
        radius,
        colour.fill,
        edge=colour.edge,
        edge_width=3,
        label=label,
        label_colour=colour.text,
        label_size=max(TEXT_SIZE, round(radius * 1.05)),
    )
    return tile


def paste_piece(image: Image.Image, centre: Point, radius: int, seat: int, label: str) -> None:
    corner = (round(centre[0]) - radius, round(centre[1]) - radius)
    image.paste(_piece_tile(seat, radius, label), corner, _disc_alpha(2 * radius, PIECE_SHADOW))


@lru_cache(maxsize=1024)
def card_tile(label: str, seat: int, blocked: bool, background: Colour) -> Image.Image:
    """A face-up field card; greyed while its row is blockaded (not reachable now). The
    number sits on the left so it still shows when a long row of cards overlaps."""
    tile = Image.new("RGB", (CARD_WIDTH, CARD_HEIGHT), background)
    draw = ImageDraw.Draw(tile)
    face = mix(CARD_FACE, DISABLED, 0.45) if blocked else CARD_FACE
    box = (0, 0, CARD_WIDTH, CARD_HEIGHT)
    draw_panel(draw, box, fill=face, edge=SEAT_COLOURS[seat].fill, radius=6, edge_width=2)
    text = mix(TEXT_DARK, DISABLED, 0.5) if blocked else TEXT_DARK
    draw_text(draw, (5, CARD_HEIGHT / 2), label, font(TEXT_SIZE, "Bold"), text, anchor="lm")
    return tile


@lru_cache(maxsize=8)
def card_back_tile(background: Colour) -> Image.Image:
    tile = Image.new("RGB", (CARD_WIDTH, CARD_HEIGHT), background)
    draw = ImageDraw.Draw(tile)
    box = (0, 0, CARD_WIDTH, CARD_HEIGHT)
    draw_panel(draw, box, fill=CARD_BACK, edge=mix(CARD_BACK, WHITE, 0.5), radius=6, edge_width=2)
    inner = (7, 7, CARD_WIDTH - 7, CARD_HEIGHT - 7)
    draw_panel(draw, inner, fill=CARD_BACK, edge=mix(CARD_BACK, WHITE, 0.3), radius=4, edge_width=2)
    fill_disc(draw, (CARD_WIDTH / 2, CARD_HEIGHT / 2), 5, mix(CARD_BACK, WHITE, 0.4))
    return tile


@lru_cache(maxsize=32)
def die_tile(value: int, seat: int) -> Image.Image:
    """Pips for 1–5; the Barree face is a thick red bar across the die."""
    tile = Image.new("RGB", (DIE_SIZE, DIE_SIZE), PANEL)
    draw = ImageDraw.Draw(tile)
    box = (0, 0, DIE_SIZE, DIE_SIZE)
    colours = DieColours(edge=SEAT_COLOURS[seat].fill)
    if value != BAR:
        draw_die(draw, box, value, colours)
        return tile
    draw_die(draw, box, value, colours, label="")
    thickness = round(DIE_SIZE * 0.09)
    middle = DIE_SIZE // 2
    inset = round(DIE_SIZE * 0.16)
    bar = (inset, middle - thickness, DIE_SIZE - inset, middle + thickness)
    fill_rounded(draw, bar, 3, DANGER)
    return tile


@lru_cache(maxsize=4)
def active_panel_tile(seat: int) -> Image.Image:
    """The panel of the player to move: tinted and outlined in his colour."""
    colour = SEAT_COLOURS[seat]
    width = WIDTH - MARGIN - SIDE_LEFT
    tile = Image.new("RGB", (width, PANEL_HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(tile)
    fill = mix(PANEL, colour.fill, 0.16)
    draw_panel(draw, (0, 0, width, PANEL_HEIGHT), fill=fill, edge=colour.fill, edge_width=3)
    return tile


Icon = tuple[str, int]


@lru_cache(maxsize=128)
def icon_tile(kind: str, value: int) -> Image.Image:
    """A 44×32 key icon on the panel colour: a card back, a card, the barrier, a highlighted
    field of seat ``value`` or a walk arrow of seat ``value``."""
    tile = Image.new("RGB", (44, 32), PANEL)
    draw = ImageDraw.Draw(tile)
    x, y = 22, 16
    if kind == "back":
        box = (x - 10, y - 14, x + 10, y + 14)
        draw_panel(draw, box, fill=CARD_BACK, edge=mix(CARD_BACK, WHITE, 0.5), radius=4)
    elif kind == "card":
        draw_panel(draw, (x - 10, y - 14, x + 10, y + 14), fill=CARD_FACE, edge=DISABLED, radius=4)
    elif kind == "barrier":
        fill_rounded(draw, (x - 20, y - 7, x + 20, y + 7), 4, DANGER)
        for left in (x - 12, x, x + 12):
            stripe = ((left - 5, y + 5), (left, y + 5), (left + 5, y - 5), (left, y - 5))
            fill_polygon(draw, stripe, mix(DANGER, WHITE, 0.85))
    elif kind == "field":
        colour = SEAT_COLOURS[value]
        draw_disc(draw, (x, y), 12, colour.tint, edge=colour.fill, edge_width=3)
    else:
        draw_arrow(draw, (x - 18, y), (x + 18, y), SEAT_COLOURS[value].fill, width=5, head=12)
    return tile
