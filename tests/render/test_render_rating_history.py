"""The rating history chart of `/league profile`, from hand-written views: the line goes
up and down with the games, each marked moment is a numbered flag at the game it came
before with a legend line saying what and when, in both languages, and the profile and
standings pictures make room for the chart and for who rose and fell most."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from render.league import (
    CHART_INSET,
    CHART_WIDTH,
    FALL,
    FOOTER_HEIGHT,
    MARGIN,
    MOVERS_HEIGHT,
    PROFILE_PANEL_HEIGHT,
    RISE,
    WIDTH,
    render_profile,
    render_standings,
)
from render.rating_history import (
    AXIS_WIDTH,
    HEADING_HEIGHT,
    LANE_HEIGHT,
    LEGEND_ROW,
    PLOT_HEIGHT,
    RIGHT_ROOM,
    draw_history,
    history_height,
)
from render.theme import HIGHLIGHT
from render.toolkit.png import new_canvas
from render.toolkit.text import recording_text_sizes

DAY = 86_400.0
SEASON = 1_772_000_000.0  # 25 Feb 2026, 06:13 UTC


def history(ratings: list[int], marks: list[tuple[float, str]] = ()) -> dict[str, Any]:
    """Games a day apart from SEASON on, each ending at noon's side of the day."""
    return {
        "start": 1000,
        "games": [{"at": SEASON + day * DAY, "rating": r} for day, r in enumerate(ratings)],
        "marks": [{"at": at, "label": label} for at, label in marks],
    }


def chart(view: dict[str, Any], language: str = "en", width: int = CHART_WIDTH):
    """The chart alone on a canvas of its own size, and every string drawn on it."""
    image, draw = new_canvas(width, history_height(view, width))
    with recording_text_sizes() as drawn:
        draw_history(draw, (0, 0), width, view, language)
    return image.convert("RGB"), [text for _, text in drawn]


def game_x(game: int, games: int, width: int = CHART_WIDTH) -> float:
    return AXIS_WIDTH + (width - AXIS_WIDTH - RIGHT_ROOM) * game / games


def plot_top(lanes: int) -> int:
    return HEADING_HEIGHT + lanes * LANE_HEIGHT


def close_to(colour: tuple[int, int, int], found: set[tuple[int, int, int]]) -> bool:
    return any(sum(abs(a - b) for a, b in zip(colour, other, strict=True)) < 40 for other in found)


def colours_in(image: Image.Image, box: tuple[float, float, float, float]) -> set:
    box = tuple(round(edge) for edge in box)
    return {colour for _, colour in image.crop(box).getcolors(maxcolors=1_000_000) or []}


def column(image: Image.Image, x: float, top: float, bottom: float) -> set:
    return colours_in(image, (x - 1, top, x + 2, bottom))


def test_each_game_is_a_dot_green_where_the_rating_rose_and_red_where_it_fell():
    image, _ = chart(history([1030, 1010]))
    top, bottom = plot_top(0), plot_top(0) + PLOT_HEIGHT
    rose = colours_in(image, (game_x(1, 2) - 6, top, game_x(1, 2) + 6, bottom))
    fell = colours_in(image, (game_x(2, 2) - 9, top, game_x(2, 2) + 9, bottom))
    assert close_to(RISE, rose) and not close_to(FALL, rose)
    assert close_to(FALL, fell) and not close_to(RISE, fell)


def test_the_line_climbs_with_the_rating():
    image, _ = chart(history([1100]))
    top = plot_top(0)
    first, last = game_x(0, 1), game_x(1, 1)
    line = (86, 150, 220)

    def height_of_line(x: float) -> int:
        column = range(top, top + PLOT_HEIGHT)
        return min(y for y in column if close_to(line, {image.getpixel((round(x), y))}))

    assert height_of_line(last - 12) < height_of_line(first + 12), "higher on screen later"


def test_the_heading_the_best_rating_and_the_game_numbers_are_written():
    _, drawn = chart(history([1040, 1070, 1020]))
    assert "RATING THIS SEASON" in drawn and "best 1070" in drawn
    assert "start" in drawn and "game 3" in drawn
    _, german = chart(history([1040, 1070, 1020]), "de")
    assert "best 1070" not in german and "game 3" not in german


def test_a_mark_is_a_flag_before_the_first_game_that_ended_after_it():
    games = [1010, 1020, 1030, 1040, 1050, 1060]
    spring_cup = SEASON + 2.5 * DAY  # after game 3 (day 2), before game 4 (day 3)
    image, drawn = chart(history(games, [(spring_cup, "Spring Cup")]))
    unmarked, _ = chart(history(games))

    top, bottom = plot_top(1), plot_top(1) + PLOT_HEIGHT
    assert close_to(HIGHLIGHT, column(image, game_x(3, 6), top + 8, bottom - 8))
    assert not close_to(HIGHLIGHT, column(image, game_x(1, 6) + 20, top + 8, bottom - 8))
    assert not close_to(HIGHLIGHT, colours_in(unmarked, (0, 0, *unmarked.size)))
    assert image.height - unmarked.height == LANE_HEIGHT + LEGEND_ROW
    assert "Spring Cup · Feb 27" in drawn and "1" in drawn


def test_marks_before_the_first_game_and_after_the_last_stand_at_the_ends():
    games = [1010, 1020, 1030]
    marks = [(SEASON - DAY, "Opening Cup"), (SEASON + 10 * DAY, "Closing Cup")]
    image, drawn = chart(history(games, marks))
    top, bottom = plot_top(1), plot_top(1) + PLOT_HEIGHT
    assert close_to(HIGHLIGHT, column(image, game_x(0, 3), top + 8, bottom - 8))
    assert close_to(HIGHLIGHT, column(image, game_x(3, 3), top + 8, bottom - 8))
    assert "Opening Cup · Feb 24" in drawn and "Closing Cup · Mar 7" in drawn


def test_marks_too_close_for_one_row_of_flags_take_a_second():
    close = [(SEASON + 0.5 * DAY, "Friday Swiss"), (SEASON + 0.6 * DAY, "Friday Knockout")]
    far = [(SEASON + 0.5 * DAY, "Friday Swiss"), (SEASON + 4.5 * DAY, "Tuesday Swiss")]
    games = [1000 + 5 * day for day in range(30)]
    two_rows, _ = chart(history(games, close))
    one_row, _ = chart(history(games, far))
    assert two_rows.height - one_row.height == LANE_HEIGHT


def test_the_legend_speaks_the_readers_language():
    marks = [(SEASON + 0.5 * DAY, "Frühjahrsturnier")]
    _, english = chart(history([1010, 1020], marks), "en")
    _, german = chart(history([1010, 1020], marks), "de")
    assert "Frühjahrsturnier · Feb 25" in english
    assert "Frühjahrsturnier · 25. Feb." in german


def test_a_long_label_is_cut_to_the_chart():
    label = "The Extraordinarily Long Annual Invitational Tournament of Everyone " * 3
    _, drawn = chart(history([1010, 1020], [(SEASON, label)]))
    legend = next(text for text in drawn if text.startswith("The Extra"))
    assert legend.endswith("…")


def profile_view(**game: Any) -> dict[str, Any]:
    entry = {
        "title": "Bann", "rating": 1040, "rank": 1, "games": 3, "wins": 2, "losses": 1,
        "draws": 0, "points": 1.0, "streak": 1, "recent": [], "history": None,
    }  # fmt: skip
    entry.update(game)
    return {"name": "Alice", "season": "Season 1", "games": [entry]}


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.convert("RGB")


def test_a_profile_panel_grows_by_its_chart_and_shows_its_marks():
    view = history([1040, 1020, 1060], [(SEASON + 1.5 * DAY, "Spring Cup")])
    without = decode(render_profile(profile_view(), "en"))
    with_chart = decode(render_profile(profile_view(history=view), "en"))

    assert with_chart.width == WIDTH
    assert with_chart.height - without.height == history_height(view, CHART_WIDTH) + 16
    chart_top = 96 + PROFILE_PANEL_HEIGHT
    chart_bottom = with_chart.height - FOOTER_HEIGHT
    chart_area = (MARGIN + CHART_INSET, chart_top, WIDTH - MARGIN, chart_bottom)
    assert close_to(HIGHLIGHT, colours_in(with_chart, chart_area))
    assert close_to(RISE, colours_in(with_chart, chart_area))


def standings_view(movers: dict[str, Any] | None) -> dict[str, Any]:
    rows = [{"rank": 1, "name": "Alice", "rating": 1100, "games": 4, "win_rate": 0.5, "trend": 0}]
    view: dict[str, Any] = {"title": "Bann", "season": "S1", "page": 1, "pages": 1, "rows": rows}
    if movers is not None:
        view["movers"] = movers
    return view


@pytest.mark.parametrize(
    ("language", "rose", "fell"),
    [("en", "ROSE MOST IN 7 DAYS", "FELL MOST IN 7 DAYS"), ("de", None, None)],
)
def test_the_standings_say_who_rose_and_who_fell_most(language, rose, fell):
    rose_most, fell_most = {"name": "Bob", "change": 48}, {"name": "Carol", "change": -31}
    movers = {"days": 7, "rose": rose_most, "fell": fell_most}
    plain = decode(render_standings(standings_view(None), language))
    still = {"days": 7, "rose": None, "fell": None}
    nobody = decode(render_standings(standings_view(still), language))
    with recording_text_sizes() as drawn:
        moved = decode(render_standings(standings_view(movers), language))

    assert nobody.height == plain.height, "no band when nobody moved"
    assert moved.height - plain.height == MOVERS_HEIGHT
    band_top = moved.height - FOOTER_HEIGHT - MOVERS_HEIGHT
    left = colours_in(moved, (MARGIN, band_top, WIDTH / 2, band_top + MOVERS_HEIGHT))
    right = colours_in(moved, (WIDTH / 2, band_top, WIDTH - MARGIN, band_top + MOVERS_HEIGHT))
    assert close_to(RISE, left) and not close_to(FALL, left)
    assert close_to(FALL, right) and not close_to(RISE, right)
    texts = [text for _, text in drawn]
    assert {"+48", "Bob", "−31", "Carol"} <= set(texts)
    if rose is not None:
        assert rose in texts and fell in texts
    else:
        assert "ROSE MOST IN 7 DAYS" not in texts, "the headings speak German"
