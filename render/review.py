"""The pictures of ``/game review``: the value of the game for each player over its
decisions with the marked ones on it, and a costly decision's position after the move
played and after the better one, side by side.

Chart view::

    {"title": "Bann game #12", "unit": "win",
     "seats": [{"name": "Alice", "values": [[3, 0.55], [5, 0.61], ...]}, ...],
     "marks": [{"index": 14, "seat": 0, "mark": "blunder", "value": 0.31}, ...],
     "last": 58}

``values`` hold (move number, that seat's value after it) in the game's unit: the chance
to win (0..1) for ``"win"``, expected points for ``"points"``; ``marks`` the marked
decisions at the value their mover had after playing them (a mistake or blunder as a disc
with its symbol, ? or ??; an inaccuracy as a small dot); ``last`` the game's last move
number, the chart's right end.

Drawn 900 px wide with no text under 22 px, so it stays 11 px tall at a phone's 450 px.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import pairwise
from typing import Any

from games.review.model import MARKS
from render.replay import replay_picture
from render.theme import (
    DANGER,
    HIGHLIGHT,
    PANEL_EDGE,
    SEAT_COLOURS,
    TEXT,
    TEXT_DARK,
    TEXT_MUTED,
    Colour,
)
from render.toolkit.png import encode_png, new_canvas
from render.toolkit.shapes import draw_line, draw_panel, fill_disc
from render.toolkit.text import Label, clean_name, draw_text, draw_text_centred, fit_text, font
from texts.i18n import N_, t
from texts.reviews import symbol

WIDTH = 900
MARGIN = 24
TEXT_SIZE = 22
"""The smallest text: 11 px at a phone's 450 px."""
HEADER_HEIGHT = 70
PLOT_LEFT = 100
PLOT_RIGHT = WIDTH - MARGIN - 30
PLOT_TOP = HEADER_HEIGHT + 30
PLOT_HEIGHT = 320
AXIS_ROOM = 46
LEGEND_ROW = 40
MARK_RADIUS = 17
INACCURACY_RADIUS = 7
MARK_COLOURS: dict[str, Colour] = {
    "inaccuracy": (120, 190, 240),
    "mistake": (240, 150, 40),
    "blunder": DANGER,
}
MOVE_AXIS = N_("move")
WIN_AXIS = N_("chance to win")
POINTS_AXIS = N_("expected points")
PLAYED = N_("Played: {move}")
BETTER = N_("Better: {move}")
GAP = 16


def labels(language: str) -> list[Label]:
    """The chart's fixed words and the room each has."""
    return [
        Label(t(language, MOVE_AXIS), font(TEXT_SIZE), 180),
        Label(t(language, WIN_AXIS), font(TEXT_SIZE), 330),
        Label(t(language, POINTS_AXIS), font(TEXT_SIZE), 330),
    ]


def render_review_chart(view: dict[str, Any], language: str) -> bytes:
    seats = view["seats"]
    legend_rows = math.ceil(len(seats) / 2)
    height = PLOT_TOP + PLOT_HEIGHT + AXIS_ROOM + legend_rows * LEGEND_ROW + MARGIN
    image, draw = new_canvas(WIDTH, height)
    draw_panel(draw, (MARGIN, 12, WIDTH - MARGIN, HEADER_HEIGHT - 6))
    title_font = font(28, "Bold")
    title = fit_text(clean_name(view["title"]), title_font, WIDTH - 2 * MARGIN - 48)
    draw_text(draw, (MARGIN + 24, (12 + HEADER_HEIGHT - 6) / 2), title, title_font, TEXT, "lm")

    low, high, grid = _scale(view)
    first, last = 0, max(1, int(view["last"]))

    def x_of(index: float) -> float:
        return PLOT_LEFT + (PLOT_RIGHT - PLOT_LEFT) * (index - first) / (last - first)

    def y_of(value: float) -> float:
        return PLOT_TOP + PLOT_HEIGHT * (high - value) / (high - low)

    axis_name = WIN_AXIS if view["unit"] == "win" else POINTS_AXIS
    axis = t(language, axis_name)
    draw_text(draw, (PLOT_LEFT, PLOT_TOP - 8), axis, font(TEXT_SIZE), TEXT_MUTED, "ld")
    for value in grid:
        y = y_of(value)
        draw_line(draw, (PLOT_LEFT, y), (PLOT_RIGHT, y), PANEL_EDGE, 1)
        shown = f"{round(value * 100)} %" if view["unit"] == "win" else _number(value)
        draw_text(draw, (PLOT_LEFT - 10, y), shown, font(TEXT_SIZE), TEXT_MUTED, "rm")
    bottom = PLOT_TOP + PLOT_HEIGHT
    draw_text(draw, (PLOT_LEFT, bottom + 10), "1", font(TEXT_SIZE), TEXT_MUTED, "la")
    draw_text(draw, (PLOT_RIGHT, bottom + 10), str(last), font(TEXT_SIZE), TEXT_MUTED, "ra")
    move_axis = fit_text(t(language, MOVE_AXIS), font(TEXT_SIZE), 180)
    draw_text(
        draw,
        ((PLOT_LEFT + PLOT_RIGHT) / 2, bottom + 10),
        move_axis,
        font(TEXT_SIZE),
        TEXT_MUTED,
        "ma",
    )

    for seat, entry in enumerate(seats):
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)].fill
        points = [(x_of(index), y_of(value)) for index, value in entry["values"]]
        for start, end in pairwise(points):
            draw_line(draw, start, end, colour, 4)
        if len(points) == 1:
            fill_disc(draw, points[0], 5, colour)
    # The heavier marks are drawn last, over the lighter ones; an inaccuracy is a small
    # dot without its symbol, so a long game's many of them leave the line readable.
    for mark in sorted(view["marks"], key=lambda mark: MARKS.index(mark["mark"])):
        centre = (x_of(mark["index"]), y_of(mark["value"]))
        if mark["mark"] == "inaccuracy":
            fill_disc(draw, centre, INACCURACY_RADIUS, MARK_COLOURS["inaccuracy"])
            continue
        fill_disc(draw, centre, MARK_RADIUS, MARK_COLOURS[mark["mark"]])
        draw_text_centred(draw, centre, symbol(mark["mark"]), font(TEXT_SIZE, "Bold"), TEXT_DARK)

    legend_top = bottom + AXIS_ROOM
    column = (WIDTH - 2 * MARGIN) / 2
    for seat, entry in enumerate(seats):
        left = MARGIN + (seat % 2) * column
        y = legend_top + (seat // 2) * LEGEND_ROW + LEGEND_ROW / 2
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)].fill
        draw_line(draw, (left + 8, y), (left + 44, y), colour, 6)
        name = fit_text(clean_name(entry["name"]), font(TEXT_SIZE, "SemiBold"), column - 70)
        draw_text(draw, (left + 56, y), name, font(TEXT_SIZE, "SemiBold"), TEXT, "lm")
    return encode_png(image)


def _scale(view: dict[str, Any]) -> tuple[float, float, list[float]]:
    """The plot's lowest and highest value and its grid lines."""
    if view["unit"] == "win":
        return 0.0, 1.0, [0.0, 0.25, 0.5, 0.75, 1.0]
    values = [value for entry in view["seats"] for _, value in entry["values"]]
    low, high = min(values, default=0.0), max(values, default=0.0)
    if high - low < 1:
        low, high = low - 1, high + 1
    step = _nice_step((high - low) / 4)
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    count = round((high - low) / step)
    return low, high, [low + step * line for line in range(count + 1)]


def _nice_step(rough: float) -> float:
    power = 10.0 ** math.floor(math.log10(rough))
    for factor in (1, 2, 2.5, 5, 10):
        if factor * power >= rough:
            return factor * power
    return 10 * power


def _number(value: float) -> str:
    return f"{value:g}".replace("-", "−")


def render_decision(
    kind: str,
    played: tuple[Any, str],
    better: tuple[Any, str],
    names: Sequence[str],
    language: str,
) -> bytes:
    """A decision's two outcomes, one above the other: the board after the move played and
    after the better one, each drawn by the game's replay picture with its caption. Stacked
    rather than side by side, so each board keeps its own width and stays as readable on a
    phone as the game's board."""
    drawer = replay_picture(kind)
    top = drawer(played[0], names, clean_name(t(language, PLAYED, move=played[1])), language)
    below = drawer(better[0], names, clean_name(t(language, BETTER, move=better[1])), language)
    width = max(top.width, below.width)
    image, draw = new_canvas(width, top.height + GAP + below.height)
    image.paste(top.convert("RGB"), ((width - top.width) // 2, 0))
    image.paste(below.convert("RGB"), ((width - below.width) // 2, top.height + GAP))
    middle = top.height + GAP / 2
    draw_line(draw, (0, middle), (width, middle), HIGHLIGHT, 3)
    return encode_png(image)
