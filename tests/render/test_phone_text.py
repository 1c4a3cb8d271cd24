"""Every picture stays readable on a phone: Discord shows a picture about 450 px wide
there, so every string a renderer draws must be at least 11 px tall at that width
(font pixel size × 450 / picture width ≥ 11). The toolkit records the font size of each
string drawn during a render; the renderers' tile and background caches are cleared
first so text drawn into cached layers is measured too."""

from __future__ import annotations

import io
import random
import sys
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image
from tournament_views import bracket_views, round_views, standings_views

import render.bann
import render.barbu
import render.barbu.common
import render.barbu.sheet
import render.barbu.table
import render.barree
import render.barree.board
import render.barree.picture
import render.barree.tiles
import render.gulbara
import render.league
import render.review
import render.toolkit.cards
import render.toolkit.shapes
import render.toolkit.text
import render.tournament
from games import GAMES
from games import barbu as barbu_game
from games import gulbara as gulbara_game
from render.toolkit.text import recording_text_sizes

PHONE_WIDTH = 450
SMALLEST_TEXT = 11
NAMES = ["Maximilian Großkopf", "Bob 🎲 the very long named builder of things", "Chloé", "Dmitri"]
RENDER_MODULES = [
    render.toolkit.text,
    render.toolkit.shapes,
    render.toolkit.cards,
    render.bann,
    render.gulbara,
    render.barbu.common,
    render.barbu.table,
    render.barbu.sheet,
    render.barree.tiles,
    render.barree.board,
    render.barree.picture,
    render.league,
    render.tournament,
]


def clear_render_caches() -> None:
    for module in RENDER_MODULES:
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()


def played(game: str, moves: int, seed: int = 3, **options: Any) -> Any:
    spec = GAMES[game]
    state = spec.new_game(seed=seed, **options)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_actions()))
    return state


def played_to_end(game: str, seed: int = 3, **options: Any) -> Any:
    return played(game, 100_000, seed, **options)


def barbu_state(done: Callable[[barbu_game.BarbuState], bool]) -> barbu_game.BarbuState:
    rng = random.Random(6)
    state = barbu_game.new_game(seed=12).apply("nohearts")
    while not done(state):
        state = state.apply(rng.choice(state.legal_actions()))
    return state


def gulbara_double_chain() -> Any:
    return gulbara_game.from_code("GB1:,,,,,,,,,,,-14,,-1,,,,,,,,,,15|0,0|0|4,4,4,4|5,5")


def standings() -> dict[str, Any]:
    return {
        "title": "Gul Bara",
        "season": "Season 12",
        "page": 2,
        "pages": 3,
        "rows": [
            {
                "rank": 11 + index,
                "name": NAMES[index % 4],
                "rating": 1612 - 25 * index,
                "games": 130 - index,
                "win_rate": 0.5,
                "trend": (-1) ** index * 17 if index else None,
            }
            for index in range(10)
        ],
    }


def profile() -> dict[str, Any]:
    entry = {
        "rating": 1136, "rank": 3, "games": 41, "wins": 30, "losses": 10, "draws": 1,
        "points": 30.5, "streak": -2, "recent": [
            {"outcome": outcome, "change": change}
            for outcome, change in (("win", 12), ("loss", -9), ("draw", None), ("win", 31))
        ],
    }  # fmt: skip
    return {
        "name": NAMES[0],
        "season": "Season 12",
        "games": [{**entry, "title": title} for title in ("Bann", "Gul Bara", "Barbu", "Barree")],
    }


def season_history(games: int, marks: int) -> dict[str, Any]:
    rng = random.Random(games)
    ratings, at = [1000], 1_772_000_000.0
    for _ in range(games):
        ratings.append(ratings[-1] + rng.randint(-30, 40))
    return {
        "start": 1000,
        "games": [{"at": at + day * 86_400, "rating": r} for day, r in enumerate(ratings[1:])],
        "marks": [
            {"at": at + (3 * mark + 1.5) * 86_400, "label": f"{NAMES[mark % 4]} Cup"}
            for mark in range(marks)
        ],
    }


def profile_with_season() -> dict[str, Any]:
    view = profile()
    seasons = ((24, 3), (2, 0), (140, 1), (1, 1))
    for game, (games, marks) in zip(view["games"], seasons, strict=True):
        game["history"] = season_history(games, marks)
    return view


def standings_with_movers() -> dict[str, Any]:
    movers = {"days": 7, "rose": {"name": NAMES[1], "change": 148}}
    return {**standings(), "movers": {**movers, "fell": {"name": NAMES[0], "change": -97}}}


def review_chart(unit: str) -> dict[str, Any]:
    """Four seats' values over 60 moves with a mark of each kind."""
    rng = random.Random(4)
    seats = [
        {"name": name, "values": [[move, rng.random()] for move in range(seat + 1, 61, 4)]}
        for seat, name in enumerate(NAMES)
    ]
    marks = [
        {"index": 5, "seat": 0, "mark": "blunder", "value": 0.2},
        {"index": 30, "seat": 1, "mark": "mistake", "value": 0.6},
        {"index": 58, "seat": 2, "mark": "inaccuracy", "value": 0.9},
    ]
    return {"title": NAMES[1], "unit": unit, "last": 60, "seats": seats, "marks": marks}


PICTURES: dict[str, Callable[[], bytes]] = {
    "bann start": lambda: render.bann.render_bann(GAMES["bann"].new_game(seed=1).view(None), NAMES),
    "bann mid-game": lambda: render.bann.render_bann(played("bann", 21).view(None), NAMES),
    "bann over": lambda: render.bann.render_bann(played_to_end("bann").view(None), NAMES),
    "gulbara start": lambda: render.gulbara.render_gulbara(
        GAMES["gulbara"].new_game(seed=1).view(None), NAMES
    ),
    "gulbara mid-game": lambda: render.gulbara.render_gulbara(
        played("gulbara", 60).view(None), NAMES
    ),
    "gulbara double chain": lambda: render.gulbara.render_gulbara(
        gulbara_double_chain().view(None), NAMES
    ),
    "gulbara match over": lambda: render.gulbara.render_gulbara(
        played_to_end("gulbara", match_to=3).view(None), NAMES
    ),
    "barbu table contract": lambda: render.barbu.render_barbu_table(
        barbu_game.new_game(seed=12).view(None), NAMES
    ),
    "barbu table doubling": lambda: render.barbu.render_barbu_table(
        barbu_state(lambda s: True).view(None), NAMES
    ),
    "barbu table trick": lambda: render.barbu.render_barbu_table(
        barbu_state(lambda s: s.phase == "play" and len(s.tricks) >= 3 and bool(s.trick)).view(
            None
        ),
        NAMES,
    ),
    "barbu table domino": lambda: render.barbu.render_barbu_table(
        barbu_state(lambda s: s.contract == "domino" and len(s.domino_moves) >= 20).view(None),
        NAMES,
    ),
    "barbu table over": lambda: render.barbu.render_barbu_table(
        played_to_end("barbu", seed=5).view(None), NAMES
    ),
    "barbu hand": lambda: render.barbu.render_barbu_hand(
        (lambda s: s.view(s.current_player))(
            barbu_state(lambda s: s.phase == "play" and len(s.tricks) >= 1 and bool(s.trick))
        ),
        NAMES,
    ),
    "barbu score sheet": lambda: render.barbu.render_barbu_scores(
        played_to_end("barbu", seed=5).view(None), NAMES
    ),
    "barree 2 players": lambda: render.barree.render_barree(
        played("barree", 30, players=2).view(None), NAMES[:2]
    ),
    "barree 4 players": lambda: render.barree.render_barree(
        played("barree", 40, players=4).view(None), NAMES
    ),
    "barree walk targets": lambda: render.barree.render_barree_targets(
        played("barree", 30, players=2).view(None), NAMES[:2], list(range(11, 36))
    ),
    "league standings": lambda: render.league.render_standings(standings(), "en"),
    "league profile": lambda: render.league.render_profile(profile(), "en"),
    "league profile, season": lambda: render.league.render_profile(profile_with_season(), "de"),
    "league standings, movers": lambda: render.league.render_standings(
        standings_with_movers(), "de"
    ),
    **{
        f"tournament standings {view['format']}": (
            lambda view=view: render.tournament.render_standings(view, "de")
        )
        for view in standings_views()
    },
    **{
        f"tournament bracket {index}": lambda view=view: render.tournament.render_bracket(
            view, "de"
        )
        for index, view in enumerate(bracket_views())
    },
    **{
        f"tournament round {index}": lambda view=view: render.tournament.render_round(view, "de")
        for index, view in enumerate(round_views())
    },
    "review chart, chance to win": lambda: render.review.render_review_chart(
        review_chart("win"), "de"
    ),
    "review chart, points": lambda: render.review.render_review_chart(review_chart("points"), "en"),
    "review decision": lambda: render.review.render_decision(
        "bann",
        (played("bann", 21).view(None), "2>6:N"),
        (played("bann", 22).view(None), "3>5:N"),
        NAMES[:2],
        "de",
    ),
}


def smallest_text(picture: Callable[[], bytes]) -> tuple[float, int, str]:
    """(height at phone width, font size, text) of the smallest string in the picture."""
    clear_render_caches()
    with recording_text_sizes() as drawn:
        png = picture()
    width = Image.open(io.BytesIO(png)).width
    assert drawn, "the picture draws some text"
    size, text = min(drawn)
    return size * PHONE_WIDTH / width, size, text


@pytest.mark.parametrize("name", list(PICTURES))
def test_every_string_is_readable_at_phone_width(name: str) -> None:
    height, size, text = smallest_text(PICTURES[name])
    assert height >= SMALLEST_TEXT, f"{text!r} is {height:.1f} px tall at 450 px ({size} px font)"


if __name__ == "__main__":
    for name, picture in PICTURES.items():
        height, size, text = smallest_text(picture)
        print(f"{name:24} {height:5.1f} px  ({size} px font: {text[:40]!r})", file=sys.stdout)
