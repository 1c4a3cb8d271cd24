"""The rating history chart of `/league profile`: a member's displayed rating over one
game's season, game by game, with marked moments (a tournament's start, say) as numbered
flags on the chart and a legend below it.

History view::

    {"start": 1000,
     "games": [{"at": 1772539200.0, "rating": 1042}, ...],
     "marks": [{"at": 1772625600.0, "label": "Spring Cup"}, ...]}

``start`` is his rating before his first rated game of the season; ``games`` hold his
rating after each rated game, oldest first, with the moment it ended; ``marks`` the
moments to mark, each with its label. The chart's steps are games, not days: a mark
stands where the first game that ended at or after its moment begins (at the end of the
line when none did yet), so a tournament's games follow its flag.

Drawn into another picture (the profile's panel of the game) at 660 px width: no text
under 17 px, so it stays 11 px tall at a phone's 450 px.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from itertools import pairwise
from typing import Any

from PIL import ImageDraw

from render.theme import HIGHLIGHT, PANEL_EDGE, TEXT, TEXT_DARK, TEXT_MUTED, Colour
from render.toolkit.shapes import draw_disc, draw_line, fill_disc
from render.toolkit.text import Label, clean_name, draw_text, fit_text, font
from texts.common import short_date
from texts.i18n import N_, t

TEXT_SIZE = 17
HEADING = N_("RATING THIS SEASON")
BEST = N_("best {rating}")
START = N_("start")
GAME = N_("game {number}")
HEADING_HEIGHT = 46
"""The heading's row, and room below it for the top grid line's rating."""
PLOT_HEIGHT = 150
AXIS_WIDTH = 58
"""Room left of the plot for the ratings of its grid lines."""
RIGHT_ROOM = 40
"""Room right of the plot, so the last game's dot and the axis label under it fit."""
X_LABELS_HEIGHT = 40
AXIS_LABEL_ROOM = 150
"""The width the words under the plot's first and last game may take."""
LEGEND_ROW = 30
BADGE_RADIUS = 12
LANE_HEIGHT = 2 * BADGE_RADIUS + 6
"""One row of mark flags above the plot; flags too close for one row take the next."""
GRID_STEPS = 5
"""At most this many steps between the lowest and the highest grid line."""
STEPS = (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000)
DOT_SPACING = 10
"""Below this many pixels between games, the games are a line without dots."""

LINE: Colour = (86, 150, 220)
RISE: Colour = (0, 158, 115)
FALL: Colour = (214, 39, 40)


def labels(language: str) -> list[Label]:
    """The chart's fixed words in ``language`` with the room each has, at the width the
    profile gives it."""
    heading = font(TEXT_SIZE, "SemiBold")
    return [
        Label(t(language, HEADING), heading, 380),
        Label(t(language, BEST, rating=8888), font(TEXT_SIZE, "Medium"), 180),
        Label(t(language, START), font(TEXT_SIZE), AXIS_LABEL_ROOM),
        Label(t(language, GAME, number=888), font(TEXT_SIZE), AXIS_LABEL_ROOM),
    ]


def history_height(history: dict[str, Any], width: float) -> int:
    """The height the chart takes at ``width``: heading, flags, plot, axis labels and
    legend."""
    return (
        HEADING_HEIGHT
        + LANE_HEIGHT * len(set(_lanes(history, width)))
        + PLOT_HEIGHT
        + X_LABELS_HEIGHT
        + LEGEND_ROW * len(history["marks"])
    )


def draw_history(
    draw: ImageDraw.ImageDraw,
    origin: tuple[float, float],
    width: float,
    history: dict[str, Any],
    language: str,
) -> None:
    """The chart with its top left corner at ``origin``, ``width`` wide (at least one game)."""
    left, top = origin
    ratings = [int(history["start"]), *(int(game["rating"]) for game in history["games"])]
    _draw_heading(draw, left, top, width, max(ratings[1:]), language)
    plot_left, plot_right = left + AXIS_WIDTH, left + width - RIGHT_ROOM
    places = _mark_places(history)
    lanes = _lanes(history, width)
    flags_top = top + HEADING_HEIGHT
    plot_top = flags_top + LANE_HEIGHT * len(set(lanes))
    plot = _Plot(plot_left, plot_right, plot_top, ratings)
    plot.draw_grid(draw)
    for number, (place, lane) in enumerate(zip(places, lanes, strict=True), start=1):
        centre = (plot.x(place), flags_top + lane * LANE_HEIGHT + LANE_HEIGHT / 2)
        _draw_mark(draw, centre, plot, number)
    plot.draw_line(draw)
    _draw_game_numbers(draw, plot, plot.bottom + X_LABELS_HEIGHT / 2 + 2, language)
    legend_top = plot.bottom + X_LABELS_HEIGHT
    for number, mark in enumerate(history["marks"], start=1):
        middle = legend_top + (number - 0.5) * LEGEND_ROW
        _draw_legend_entry(draw, (left, middle), width, number, mark, language)


class _Plot:
    """Where each game and rating lies in the plot's box."""

    def __init__(self, left: float, right: float, top: float, ratings: list[int]) -> None:
        self.left, self.right, self.top = left, right, top
        self.bottom = top + PLOT_HEIGHT
        self.ratings = ratings
        self.step, self.low, self.high = _grid(min(ratings), max(ratings))

    def x(self, game: float) -> float:
        return self.left + (self.right - self.left) * game / max(1, len(self.ratings) - 1)

    def y(self, rating: float) -> float:
        share = (rating - self.low) / (self.high - self.low)
        return self.bottom - share * PLOT_HEIGHT

    def draw_grid(self, draw: ImageDraw.ImageDraw) -> None:
        label_font = font(TEXT_SIZE)
        for level in range(self.low, self.high + 1, self.step):
            y = self.y(level)
            draw.line((self.left, y, self.right, y), fill=PANEL_EDGE, width=2)
            draw_text(draw, (self.left - 10, y), str(level), label_font, TEXT_MUTED, "rm")

    def draw_line(self, draw: ImageDraw.ImageDraw) -> None:
        points = [(self.x(game), self.y(rating)) for game, rating in enumerate(self.ratings)]
        for start, end in pairwise(points):
            draw_line(draw, start, end, LINE, 3)
        if self.x(1) - self.x(0) >= DOT_SPACING:
            for game, point in enumerate(points):
                fill_disc(draw, point, 4.5, _dot_colour(self.ratings, game))
        fill_disc(draw, points[-1], 7, TEXT)
        fill_disc(draw, points[-1], 5, _dot_colour(self.ratings, len(points) - 1))


def _dot_colour(ratings: list[int], game: int) -> Colour:
    """A game's dot: green where it raised the rating, red where it lowered it."""
    if game == 0 or ratings[game] == ratings[game - 1]:
        return TEXT_MUTED
    return RISE if ratings[game] > ratings[game - 1] else FALL


def _grid(lowest: int, highest: int) -> tuple[int, int, int]:
    """(step, bottom, top) of grid lines at a round step that spans the ratings in at
    most GRID_STEPS steps."""
    for step in STEPS:
        low = math.floor(lowest / step) * step
        high = max(math.ceil(highest / step) * step, low + step)
        if (high - low) // step <= GRID_STEPS:
            return step, low, high
    step = STEPS[-1]
    return step, math.floor(lowest / step) * step, math.ceil(highest / step) * step + step


def _mark_places(history: dict[str, Any]) -> list[int]:
    """Each mark's place on the chart: the number of games that ended before it."""
    ended = [float(game["at"]) for game in history["games"]]
    return [bisect_left(ended, float(mark["at"])) for mark in history["marks"]]


def _lanes(history: dict[str, Any], width: float) -> list[int]:
    """Each mark's row of flags at the chart's ``width``: the first row where it keeps
    clear of the flags before it."""
    game_width = (width - AXIS_WIDTH - RIGHT_ROOM) / max(1, len(history["games"]))
    lanes: list[int] = []
    taken: list[float] = []
    for place in _mark_places(history):
        x = place * game_width
        lane = next(
            (row for row, last in enumerate(taken) if x - last >= 2 * BADGE_RADIUS + 4),
            len(taken),
        )
        if lane == len(taken):
            taken.append(x)
        else:
            taken[lane] = x
        lanes.append(lane)
    return lanes


def _draw_heading(
    draw: ImageDraw.ImageDraw, left: float, top: float, width: float, best: int, language: str
) -> None:
    middle = top + 17
    heading = font(TEXT_SIZE, "SemiBold")
    draw_text(draw, (left, middle), t(language, HEADING), heading, TEXT_MUTED, "lm")
    best_text = t(language, BEST, rating=best)
    draw_text(draw, (left + width, middle), best_text, font(TEXT_SIZE, "Medium"), TEXT, "rm")


def _draw_mark(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], plot: _Plot, number: int
) -> None:
    """A numbered flag, and a dashed line from it down through the plot."""
    x, y = centre
    dash, gap = 6, 5
    position = y + BADGE_RADIUS
    while position < plot.bottom:
        draw.line((x, position, x, min(position + dash, plot.bottom)), fill=HIGHLIGHT, width=2)
        position += dash + gap
    draw_disc(
        draw,
        centre,
        BADGE_RADIUS,
        HIGHLIGHT,
        label=str(number),
        label_colour=TEXT_DARK,
        label_size=TEXT_SIZE,
    )


def _draw_game_numbers(
    draw: ImageDraw.ImageDraw, plot: _Plot, middle: float, language: str
) -> None:
    """Under the plot: where the season started, and the number of the last game."""
    label_font = font(TEXT_SIZE)
    games = len(plot.ratings) - 1
    draw_text(draw, (plot.left - 4, middle), t(language, START), label_font, TEXT_MUTED, "lm")
    last = t(language, GAME, number=games)
    draw_text(draw, (plot.right + 8, middle), last, label_font, TEXT_MUTED, "rm")


def _draw_legend_entry(
    draw: ImageDraw.ImageDraw,
    origin: tuple[float, float],
    width: float,
    number: int,
    mark: dict[str, Any],
    language: str,
) -> None:
    left, middle = origin
    draw_disc(
        draw,
        (left + BADGE_RADIUS, middle),
        BADGE_RADIUS,
        HIGHLIGHT,
        label=str(number),
        label_colour=TEXT_DARK,
        label_size=TEXT_SIZE,
    )
    text_left = left + 2 * BADGE_RADIUS + 10
    entry = f"{clean_name(str(mark['label']))} · {short_date(language, float(mark['at']))}"
    shown = fit_text(entry, font(TEXT_SIZE), left + width - text_left)
    draw_text(draw, (text_left, middle), shown, font(TEXT_SIZE), TEXT, "lm")
