"""The learned evaluation behind Gul Bara's hard computer player."""

from __future__ import annotations

import argparse
import runpy
from pathlib import Path

from bench.train_gulbara import write_module
from games.gulbara import (
    bot_action,
    from_code,
    learned_score,
    new_game,
    perspective,
    position_features,
)
from games.gulbara_weights import WEIGHTS


def _score(code: str) -> float:
    """The learned log-odds for seat 0, who has just moved (seat 1 rolls next)."""
    state = from_code(code)
    mine, theirs = perspective(state.board, state.off, 0)
    return learned_score(position_features(mine, theirs, True, True), WEIGHTS)


def test_weights_fit_the_features() -> None:
    state = new_game(seed=1)
    mine, theirs = perspective(state.board, state.off, 0)
    assert len(WEIGHTS) == len(position_features(mine, theirs, False, False))


def test_a_race_far_ahead_is_worth_more_than_one_far_behind() -> None:
    ahead = "GB1:3,3,3,3,3,,,,,,,,-3,-3,-3,-3,-3,,,,,,,|0,0|1||9,9"
    behind = "GB1:,,,,,3,3,3,3,3,,,-3,-3,-3,-3,-3,,,,,,,|0,0|1||9,9"
    assert _score(ahead) > _score(behind)


def test_more_checkers_borne_off_is_better() -> None:
    more = "GB1:2,2,,,,,,,,,,,-3,-3,-3,-3,-3,,,,,,,|11,0|1||9,9"
    fewer = "GB1:2,2,2,2,,,,,,,,,-3,-3,-3,-3,-3,,,,,,,|7,0|1||9,9"
    assert _score(more) > _score(fewer)


def test_hard_ignores_the_hidden_dice() -> None:
    # the same position with different random sources: the future dice differ, the play may not
    for seed in range(20):
        state = new_game(seed=seed)
        other = new_game(seed=seed)
        other.rng = other.rng.copy()
        other.rng.seed += 1
        assert bot_action(state, seed=7, level="hard") == bot_action(other, seed=7, level="hard")


def test_hard_is_deterministic_for_a_seed() -> None:
    state = new_game(seed=11)
    for _ in range(60):
        if state.is_over:
            break
        action = bot_action(state, seed=3, level="hard")
        assert action == bot_action(state, seed=3, level="hard")
        state = state.apply(action)


def test_weights_module_is_what_the_generator_writes(tmp_path: Path) -> None:
    path = tmp_path / "weights.py"
    arguments = argparse.Namespace(rounds=1, games=2, jobs=1, seed=4)
    write_module(path, (0.5, -1.25, 3.0), arguments)
    assert runpy.run_path(str(path))["WEIGHTS"] == (0.5, -1.25, 3.0)
    header = Path("games/gulbara_weights.py").read_text().split("WEIGHTS")[0]
    assert "python -m bench.train_gulbara" in header
