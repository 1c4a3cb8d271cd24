"""Barbu pictures: the table, one player's hand and the score sheet, from views only.

A view comes from ``games.barbu`` ``view(seat)`` (the public one, ``seat=None``, for the
table and the score sheet; a seat's own view for its hand). Seats sit clockwise round the
felt's corners: seat 0 bottom left, seat 1 top left, seat 2 top right, seat 3 bottom right.

Every picture is 720 px wide and draws no text under 18 px, so every number, name and card
rank is at least 11 px tall when a phone shows the picture 450 px wide.

One module per picture: ``table`` (720×972), ``hand`` (720×236), ``seat`` (the table
above one seat's hand, 720×1208, for a puzzle) and ``sheet`` (the score sheet, as tall as
its rows); ``common`` holds what they share and ``labels`` every fixed
word with the room it has.
"""

from render.barbu.common import TEXT_SIZE
from render.barbu.hand import (
    HAND_HEIGHT,
    HAND_WIDTH,
    draw_barbu_hand,
    render_barbu_hand,
    sorted_hand,
)
from render.barbu.labels import Label, labels
from render.barbu.seat import SEAT_HEIGHT, draw_barbu_seat
from render.barbu.sheet import SHEET_PLAYER_WIDTH, SHEET_WIDTH, render_barbu_scores
from render.barbu.table import (
    TABLE_HEIGHT,
    TABLE_WIDTH,
    draw_barbu_table,
    legend_lines,
    render_barbu,
    render_barbu_table,
)

__all__ = [
    "HAND_HEIGHT",
    "HAND_WIDTH",
    "SEAT_HEIGHT",
    "SHEET_PLAYER_WIDTH",
    "SHEET_WIDTH",
    "TABLE_HEIGHT",
    "TABLE_WIDTH",
    "TEXT_SIZE",
    "Label",
    "draw_barbu_hand",
    "draw_barbu_seat",
    "draw_barbu_table",
    "labels",
    "legend_lines",
    "render_barbu",
    "render_barbu_hand",
    "render_barbu_scores",
    "render_barbu_table",
    "sorted_hand",
]

REPLAY_PICTURE = draw_barbu_table
"""The picture of one replay frame: ``render.replay`` finds it by the game's key."""
SEAT_PICTURE = draw_barbu_seat
"""The picture of what one seat saw (a puzzle's position): ``render.replay`` finds it by
the game's key, as ``REPLAY_PICTURE``."""
