"""The strength bench's baseline players and referee: whole games with legal moves, and
results scored from the measured seat's side."""

from __future__ import annotations

import pytest

from bench.baselines import BASELINES
from bench.strength import play_one


@pytest.mark.parametrize(
    ("game", "baseline"),
    [(game, name) for game, names in BASELINES.items() for name in names],
)
def test_each_baseline_plays_a_whole_game_against_the_easy_level(game: str, baseline: str) -> None:
    players = 4 if game == "barbu" else 2
    result = play_one((game, "easy", baseline, players, 3, 1))
    assert 0.0 <= result.win_share <= 1.0
    assert result.finished, "the game was played to its end"
    assert result.deals == (7 if game == "barbu" else 1)


def test_a_player_against_itself_scores_even_on_average_over_swapped_seats() -> None:
    results = [play_one(("barree", "greedy", "greedy", 2, 5, seat)) for seat in (0, 1)]
    assert sum(result.win_share for result in results) == pytest.approx(1.0)
    assert sum(result.points for result in results) == pytest.approx(0.0)
