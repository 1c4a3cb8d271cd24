"""The leaderboard and profile pictures, from hand-written views in the documented schema."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image, ImageChops

from render.league import (
    COLUMN_HEADER_HEIGHT,
    FALL,
    HEADER_HEIGHT,
    MARGIN,
    MEDALS,
    OUTCOME_COLOURS,
    PROFILE_PANEL_HEIGHT,
    RANK_X,
    RATING_RIGHT,
    RECENT_CHIP,
    RECENT_OFFSET,
    RISE,
    ROW_HEIGHT,
    TREND_RIGHT,
    WIDTH,
    render_profile,
    render_standings,
)


def standings_view(rows: int, **changes: Any) -> dict[str, Any]:
    view: dict[str, Any] = {
        "title": "Bann",
        "season": "Season 1",
        "page": 1,
        "pages": 1,
        "rows": [
            {
                "rank": index + 1,
                "name": f"Player {index + 1}",
                "rating": 1200 - 25 * index,
                "games": 10 - index,
                "win_rate": 0.5,
                "trend": 0,
            }
            for index in range(rows)
        ],
    }
    view.update(changes)
    return view


def game_entry(title: str, **changes: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "title": title,
        "rating": 1136,
        "rank": 1,
        "games": 4,
        "wins": 3,
        "losses": 1,
        "draws": 0,
        "points": 2.0,
        "streak": 2,
        "recent": [],
    }
    entry.update(changes)
    return entry


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.convert("RGB")


def colours_in(image: Image.Image, box: tuple[int, int, int, int]) -> set[tuple[int, int, int]]:
    return {colour for _, colour in image.crop(box).getcolors(maxcolors=100_000) or []}


def close_to(colour: tuple[int, int, int], found: set[tuple[int, int, int]]) -> bool:
    return any(sum(abs(a - b) for a, b in zip(colour, other, strict=True)) < 24 for other in found)


def row_box(index: int, left: int, right: int) -> tuple[int, int, int, int]:
    top = HEADER_HEIGHT + COLUMN_HEADER_HEIGHT + index * ROW_HEIGHT
    return (left, top, right, top + ROW_HEIGHT)


def test_the_leaderboard_grows_with_its_rows_and_decodes():
    short, long = (
        decode(render_standings(standings_view(3), "en")),
        decode(render_standings(standings_view(10), "en")),
    )
    assert short.width == long.width == WIDTH
    assert long.height - short.height == 7 * ROW_HEIGHT


def test_an_empty_leaderboard_still_renders():
    image = decode(render_standings(standings_view(0), "en"))
    assert image.width == WIDTH and image.height > HEADER_HEIGHT + COLUMN_HEADER_HEIGHT


def test_the_top_three_get_medals_and_the_rest_do_not():
    image = decode(render_standings(standings_view(4), "en"))
    for index, rank in enumerate((1, 2, 3)):
        medal_area = colours_in(image, row_box(index, RANK_X - 20, RANK_X + 20))
        assert close_to(MEDALS[rank], medal_area), f"rank {rank} wears its medal"
    fourth = colours_in(image, row_box(3, RANK_X - 20, RANK_X + 20))
    assert not any(close_to(medal, fourth) for medal in MEDALS.values())


def test_a_rising_trend_is_green_and_a_falling_one_red():
    view = standings_view(3)
    view["rows"][0]["trend"] = 42
    view["rows"][1]["trend"] = -17
    image = decode(render_standings(view, "en"))
    rising = colours_in(image, row_box(0, TREND_RIGHT - 100, TREND_RIGHT + 2))
    falling = colours_in(image, row_box(1, TREND_RIGHT - 100, TREND_RIGHT + 2))
    flat = colours_in(image, row_box(2, TREND_RIGHT - 100, TREND_RIGHT + 2))
    assert close_to(RISE, rising) and not close_to(FALL, rising)
    assert close_to(FALL, falling) and not close_to(RISE, falling)
    assert not close_to(RISE, flat) and not close_to(FALL, flat)


def test_long_and_emoji_names_stay_out_of_the_rating_column():
    plain = standings_view(1)
    messy = standings_view(1)
    messy["rows"][0]["name"] = "🎲 " + "Extraordinarily Long Display Name " * 4
    before, after = (decode(render_standings(view, "en")) for view in (plain, messy))
    rating_column = row_box(0, RATING_RIGHT - 60, WIDTH)
    difference = ImageChops.difference(before.crop(rating_column), after.crop(rating_column))
    # Each picture learns its own palette, so equal pixels may differ by a rounding step.
    assert max(high for _, high in difference.getextrema()) < 24


def test_the_same_view_gives_the_same_picture():
    view = standings_view(5, page=2, pages=3)
    assert render_standings(view, "en") == render_standings(view, "en")


def test_a_profile_has_one_panel_per_game_and_shows_results_by_colour():
    recent = [
        {"outcome": "win", "change": 40},
        {"outcome": "loss", "change": -25},
        {"outcome": "draw", "change": None},
    ]
    one = decode(
        render_profile({"name": "Alice", "season": "S1", "games": [game_entry("Bann")]}, "en")
    )
    games = [game_entry("Bann", recent=recent), game_entry("Barbu", rating=None, rank=None)]
    two = decode(render_profile({"name": "Alice", "season": "S1", "games": games}, "en"))
    assert one.width == two.width == WIDTH
    assert two.height > one.height + PROFILE_PANEL_HEIGHT
    first_panel = colours_in(two, (0, HEADER_HEIGHT, WIDTH, HEADER_HEIGHT + PROFILE_PANEL_HEIGHT))
    for colour in OUTCOME_COLOURS.values():
        assert close_to(colour, first_panel)
    no_results = colours_in(one, (0, HEADER_HEIGHT, WIDTH, HEADER_HEIGHT + PROFILE_PANEL_HEIGHT))
    assert not close_to(OUTCOME_COLOURS["win"], no_results)


def test_an_unrated_result_is_a_hollow_chip_beside_a_record_of_rated_games():
    """A newcomer's three unrated losses must not pass for rated ones: their chips are
    outlines (the panel shows through), a rated loss's is filled."""
    recent = [{"outcome": "loss", "change": None}, {"outcome": "loss", "change": -18}]
    game = game_entry("Bann", rating=None, rank=None, games=0, wins=0, losses=0, recent=recent)
    image = decode(render_profile({"name": "Alice", "season": "S1", "games": [game]}, "en"))
    chip_top = HEADER_HEIGHT + 122
    first_left = MARGIN + 20 + RECENT_OFFSET
    centres = [
        (first_left + index * (RECENT_CHIP + 30) + RECENT_CHIP // 2 - 9, chip_top + 4)
        for index in range(2)
    ]
    unrated, rated = (image.getpixel(centre) for centre in centres)
    assert close_to(FALL, {rated}), "a rated loss is a filled red chip"
    assert not close_to(FALL, {unrated}), "an unrated loss is only an outline"
    edge = image.getpixel((first_left + 1, chip_top + RECENT_CHIP // 2))
    assert close_to(FALL, {edge}), "drawn in the loss colour"
