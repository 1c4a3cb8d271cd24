"""Gul Bara's hard player rolls its best stage plays out: escalation chains count in the
rollouts, the budget is a count of rolls, and every step of a stage follows one plan."""

from __future__ import annotations

import random

import pytest

from games import gulbara_search
from games.gulbara import GulbaraState, bot_action, from_code, new_game, pip_total


def chain_boards() -> list[list[int]]:
    """Seat 0 with three checkers on each of its points 11 to 7, nothing in its way;
    seat 1 with every checker on its point 1, past any wall seat 0 could build."""
    mine = [0] * 25
    for point in range(7, 12):
        mine[point] = 3
    theirs = [0] * 25
    theirs[1] = 15
    return [mine, theirs]


@pytest.mark.parametrize(("rolls", "pips"), [(2, 4 * 3), (5, 4 * (3 + 4 + 5 + 6))])
def test_rollouts_play_a_double_after_the_grace_period_as_a_whole_chain(
    rolls: int, pips: int
) -> None:
    boards = chain_boards()
    before = pip_total(boards[0])
    gulbara_search._play_roll(boards, 0, 3, 3, rolls)
    assert before - pip_total(boards[0]) == pips


def midgame(seed: int) -> GulbaraState:
    """A position after some random play where the seat to move has a choice."""
    chooser = random.Random(seed)
    state = new_game(seed=seed)
    for _ in range(40):
        state = state.apply(chooser.choice(state.legal_steps()))
    while len(state.legal_steps()) < 2 or state.played:
        state = state.apply(chooser.choice(state.legal_steps()))
    return state


def play_stage(state: GulbaraState, seeds: list[int]) -> GulbaraState:
    stage, turn = list(state.stages), state.turn
    for seed in seeds:
        if state.turn != turn or state.stages != stage or state.is_over:
            break
        state = state.apply(bot_action(state, seed=seed, level="hard"))
    return state


@pytest.mark.parametrize("seed", range(4))
def test_hard_plays_every_step_of_a_stage_towards_one_end_position(seed: int) -> None:
    state = midgame(seed)
    one = play_stage(state, [1, 2, 3, 4])
    other = play_stage(state, [90, 80, 70, 60])
    assert one.code() == other.code()


def test_a_hard_decision_plays_at_most_its_budget_of_rolls(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    played: list[int] = []
    quick_roll = gulbara_search._play_roll

    def counted(*args: object) -> None:
        played.append(1)
        quick_roll(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(gulbara_search, "_play_roll", counted)
    gulbara_search._rollout_value.cache_clear()
    state = midgame(7)
    bot_action(state, seed=1, level="hard")
    budget = gulbara_search.CANDIDATES * gulbara_search.ROLLOUTS * gulbara_search.HALF_TURNS
    assert 0 < len(played) <= budget


def test_hard_still_bears_off_its_last_checkers() -> None:
    state = from_code("GB1:,,,,1,1,,,,,,,-15,,,,,,,,,,,|13,0|0|6,5|5,5")
    state = state.apply(bot_action(state, level="hard"))
    state = state.apply(bot_action(state, level="hard"))
    assert state.is_over and state.winner == 0
