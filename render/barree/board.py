"""The Barree board: the network of 48 numbered fields on their grid lines and four
diagonals, number row 1 at the top, the blockaded row crossed by a striped barrier; then
what changes, drawn on it: the cards of the player to move, the walk just made, the
pieces driven out and the pieces."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from games.barree import COLUMNS, DIAGONALS, FIELDS, LINES, ROWS, BarreeView, row_of
from render.barree.layout import (
    BLOCKED_FILL,
    BOARD_BOX,
    BOARD_FILL,
    CLUSTER_OFFSETS,
    FIELD_RADIUS,
    GRID_TOP,
    HEIGHT,
    LABEL_COLOUR,
    LINE_COLOUR,
    PIECE_RADIUS,
    SMALL_PIECE_RADIUS,
    TEXT_SIZE,
    WIDTH,
    field_centre,
)
from render.barree.tiles import BLOCKED, PLAIN, FieldLook, paste_field, paste_piece
from render.theme import (
    BACKGROUND,
    BOARD_FRAME,
    DANGER,
    SEAT_COLOURS,
    TEXT_DARK,
    TEXT_MUTED,
    WHITE,
    SeatColour,
    mix,
)
from render.toolkit.geometry import Point
from render.toolkit.shapes import (
    draw_arrow,
    draw_line,
    draw_panel,
    draw_ring,
    fill_polygon,
    fill_rounded,
)
from render.toolkit.text import draw_text_centred, font


def draw_board(image: Image.Image, view: BarreeView, piece_labels: Sequence[str]) -> None:
    """The board of ``view`` pasted into its box on ``image``, everything on it drawn;
    ``piece_labels[seat]`` marks each seat's piece."""
    image.paste(_board(view["blockade"]), BOARD_BOX[:2])
    draw = ImageDraw.Draw(image)
    _draw_highlights(image, view)
    _draw_last_walk(image, draw, view)
    _draw_sendings(draw, view)
    _draw_pieces(image, view, piece_labels)


# --- the static layer (cached) ------------------------------------------------------


@lru_cache(maxsize=ROWS)
def _board(blockade: int) -> Image.Image:
    """The board panel with lines, row labels, the barrier and plain fields."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw_panel(draw, BOARD_BOX, fill=BOARD_FILL, edge=BOARD_FRAME, radius=16, edge_width=4)
    _draw_labels(draw, blockade)
    for a, b in LINES:
        width = 4 if (a, b) in DIAGONALS else 3
        draw_line(draw, field_centre(a), field_centre(b), LINE_COLOUR, width)
    _draw_barrier(draw, blockade)
    for field in FIELDS:
        paste_field(image, field, BLOCKED if row_of(field) == blockade else PLAIN)
    return image.crop(BOARD_BOX)


def _draw_labels(draw: ImageDraw.ImageDraw, blockade: int) -> None:
    """Number rows down the left (the blockaded one in red), places along the top."""
    label_font = font(TEXT_SIZE, "SemiBold")
    x = BOARD_BOX[0] + 20
    for row in range(1, ROWS + 1):
        y = field_centre(row * 10 + 1)[1]
        colour = DANGER if row == blockade else LABEL_COLOUR
        draw_text_centred(draw, (x, y), str(row), label_font, colour)
    y = GRID_TOP - FIELD_RADIUS - 16
    for column in range(1, COLUMNS + 1):
        x = field_centre(10 + column)[0]
        draw_text_centred(draw, (x, y), str(column), label_font, LABEL_COLOUR)


def _draw_barrier(draw: ImageDraw.ImageDraw, blockade: int) -> None:
    """A red-and-white striped boom along the blockaded row, like a road barrier."""
    left_x, y = field_centre(blockade * 10 + 1)
    right_x, _ = field_centre(blockade * 10 + COLUMNS)
    half = FIELD_RADIUS + 6
    box = (left_x - FIELD_RADIUS - 14, y - half, right_x + FIELD_RADIUS + 14, y + half)
    fill_rounded(draw, box, 10, DANGER)
    inner = (box[0] + 3, box[1] + 3, box[2] - 3, box[3] - 3)
    fill_rounded(draw, inner, 8, mix(DANGER, WHITE, 0.82))
    stripe, slant = 22, 2 * half - 6
    x = inner[0] + 6
    while x + stripe / 2 + slant < inner[2]:
        points = (
            (x, inner[3] - 1),
            (x + stripe / 2, inner[3] - 1),
            (x + stripe / 2 + slant, inner[1] + 1),
            (x + slant, inner[1] + 1),
        )
        fill_polygon(draw, points, mix(DANGER, WHITE, 0.25))
        x += stripe


# --- the board's dynamic layers -----------------------------------------------------


def highlighted_seat(view: BarreeView) -> int | None:
    """The seat whose cards and panel are marked: the player to move, none once over."""
    return None if view["phase"] == "over" else view["current"]


def _field_look(view: BarreeView, field: int) -> FieldLook:
    """Plain, blockaded, or ringed in the colour of the player to move if it is his card."""
    blocked = row_of(field) == view["blockade"]
    seat = highlighted_seat(view)
    if seat is None or field not in view["cards"][seat]:
        return BLOCKED if blocked else PLAIN
    colour = SEAT_COLOURS[seat]
    if blocked:
        return FieldLook(BLOCKED_FILL, colour.fill, TEXT_MUTED, 4)
    return FieldLook(colour.tint, colour.fill, TEXT_DARK, 4, "Bold")


def _draw_highlights(image: Image.Image, view: BarreeView) -> None:
    """The face-up cards of the player to move, ringed in his colour on the board."""
    seat = highlighted_seat(view)
    if seat is None:
        return
    for card in view["cards"][seat]:
        paste_field(image, card, _field_look(view, card))


def _draw_last_walk(image: Image.Image, draw: ImageDraw.ImageDraw, view: BarreeView) -> None:
    """The path of the last walk; the cards it discarded tinted in the mover's colour."""
    walk = view.get("last_walk")
    if not walk:
        return
    colour = SEAT_COLOURS[walk["seat"]]
    path = walk["path"]
    for a, b in itertools.pairwise(path):
        draw_line(draw, field_centre(a), field_centre(b), colour.edge, 9)
    for a, b in itertools.pairwise(path):
        draw_line(draw, field_centre(a), field_centre(b), colour.fill, 5)
    discarded = set(walk["discarded"])
    tinted = FieldLook(mix(colour.fill, WHITE, 0.55), colour.edge, TEXT_DARK, 4, "Bold")
    for field in dict.fromkeys(path):
        paste_field(image, field, tinted if field in discarded else _field_look(view, field))
    draw_ring(draw, field_centre(path[0]), FIELD_RADIUS + 5, 3, colour.edge)
    if len(path) > 1:
        _draw_arrival_arrow(draw, path[-2], path[-1], colour)


def _draw_sendings(draw: ImageDraw.ImageDraw, view: BarreeView) -> None:
    """An arrow from where a piece was driven out to where it was sent, in its colour."""
    for event in view["events"]:
        if event["type"] == "send":
            start = field_centre(view["pieces"][event["seat"]])
            _draw_arrow_between(draw, start, field_centre(event["field"]), event["target"])


def _direction(start: Point, end: Point) -> Point:
    """The unit vector from ``start`` towards ``end``."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = max(1.0, (dx * dx + dy * dy) ** 0.5)
    return dx / length, dy / length


def _draw_arrow_between(draw: ImageDraw.ImageDraw, start: Point, end: Point, seat: int) -> None:
    ux, uy = _direction(start, end)
    gap = FIELD_RADIUS + 4
    tail = (start[0] + ux * gap, start[1] + uy * gap)
    tip = (end[0] - ux * gap, end[1] - uy * gap)
    draw_arrow(draw, tail, tip, SEAT_COLOURS[seat].edge, width=4, head=16)


def _draw_arrival_arrow(draw: ImageDraw.ImageDraw, before: int, end: int, seat: SeatColour) -> None:
    """An arrow head touching the end field, so the direction of the last step shows."""
    centre = field_centre(end)
    ux, uy = _direction(field_centre(before), centre)
    tip = (centre[0] - ux * (FIELD_RADIUS + 2), centre[1] - uy * (FIELD_RADIUS + 2))
    start = (tip[0] - ux * 26, tip[1] - uy * 26)
    draw_arrow(draw, start, tip, seat.edge, width=5, head=16)


def _draw_pieces(image: Image.Image, view: BarreeView, labels: Sequence[str]) -> None:
    by_field: dict[int, list[int]] = {}
    for seat, field in enumerate(view["pieces"]):
        by_field.setdefault(field, []).append(seat)
    for field, seats in by_field.items():
        x, y = field_centre(field)
        if len(seats) == 1:
            paste_piece(image, (x, y), PIECE_RADIUS, seats[0], labels[seats[0]])
            continue
        for seat, (dx, dy) in zip(seats, CLUSTER_OFFSETS, strict=False):
            paste_piece(image, (x + dx, y + dy), SMALL_PIECE_RADIUS, seat, labels[seat])
