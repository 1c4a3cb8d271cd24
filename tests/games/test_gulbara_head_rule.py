"""Gul Bara's head rule option (``head_rule``): ``reach`` (the default) frees the other
fourteen checkers once the first stands on your 12 or lower, ``pass`` only once it has
passed your 12 and stands on 11 or lower. Random play under either reading never lets a
second checker leave the start early; the computer players keep to the table's reading;
a game under the default keeps the snapshot it always had.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import LEVELS, IllegalAction
from games.gulbara import (
    HEAD_RULES,
    SPEC,
    GulbaraState,
    bot_action,
    evaluate,
    from_code,
    from_dict,
    new_game,
    perspective,
)

FREED_AT = {"reach": 12, "pass": 11}
"""Written from the rule book: the highest of your points on which the first checker
frees the others."""
RULES = sorted(FREED_AT)


def early_leavers(state: GulbaraState, seat: int, rule: str) -> int:
    """How many checkers beyond the first have left ``seat``'s start while the rule still
    binds them (0 when nothing is wrong)."""
    mine, _theirs = perspective(state.board, state.off, seat)
    freed = mine[0] > 0 or any(mine[1 : FREED_AT[rule] + 1])
    left_start = 15 - mine[24]
    return 0 if freed else max(0, left_start - 1)


def play_randomly(
    state: GulbaraState, rule: str, rng: random.Random, steps: int, seats: tuple[int, ...]
) -> int:
    """Random legal steps (never ``undo``), checking ``seats`` after each; the number of
    steps played."""
    played = 0
    while not state.is_over and played < steps:
        legal = state.legal_steps()
        state = state.apply(rng.choice(legal))
        played += 1
        for seat in seats:
            assert early_leavers(state, seat, rule) == 0, (rule, state.code())
    return played


@pytest.mark.parametrize("rule", RULES)
@given(seed=st.integers(0, 10_000))
@settings(max_examples=15, deadline=None)
def test_random_games_never_free_a_second_checker_early(rule, seed):
    state = new_game(seed=seed, head_rule=rule)
    assert state.head_rule == rule
    assert play_randomly(state, rule, random.Random(seed), 5_000, seats=(0, 1)) > 0


@st.composite
def head_bound_codes(draw) -> str:
    """Seat 0 to move with fourteen checkers on its 24 and the first one on 13..23 (or
    none out yet), and seat 1's fifteen anywhere else, its start often empty (seat 1's
    own head rule is not what these positions test)."""
    runner = draw(st.sampled_from([24, *range(13, 24)]))
    board = [0] * 24
    board[23] = 14 if runner != 24 else 15
    if runner != 24:
        board[runner - 1] = 1
    free = [point for point in range(1, 24) if point != runner]
    for _ in range(15):
        board[draw(st.sampled_from(free)) - 1] -= 1
    first, second = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    dice = [first] * 4 if first == second else [max(first, second), min(first, second)]
    points = ",".join(str(value) if value else "" for value in board)
    return f"GB1:{points}|0,0|0|{','.join(map(str, dice))}|5,5"


@pytest.mark.parametrize("rule", RULES)
@given(code=head_bound_codes(), seed=st.integers(0, 1_000))
@settings(max_examples=120, deadline=None)
def test_a_start_still_bound_frees_nobody_early(rule, code, seed):
    state = from_code(code, seed=seed, head_rule=rule)
    play_randomly(state, rule, random.Random(seed), 60, seats=(0,))


# Seat 0: fourteen on its 24, the first checker on its 13; seat 1 has left its start (seat
# 0's 12) for seat 0's 8. Seat 0 plays 2-1.
CORNER_FREE = "GB1:,,,,,,,-15,,,,,1,,,,,,,,,,,14|0,0|0|2,1|5,5"


def test_landing_on_12_frees_the_others_only_under_reach():
    reach, passing = (from_code(CORNER_FREE, head_rule=rule) for rule in ("reach", "pass"))
    assert reach.legal_steps() == passing.legal_steps() == ["13/11", "13/12"]
    assert reach.apply("13/12").legal_steps() == ["24/22", "12/10"]
    landed = passing.apply("13/12")
    assert landed.legal_steps() == ["12/10"]
    with pytest.raises(IllegalAction, match="passed 12 and stands on 11 or lower"):
        landed.apply("24/22")


def test_jumping_over_12_frees_the_others_under_both_readings():
    for rule in RULES:
        moved = from_code(CORNER_FREE, head_rule=rule).apply("13/11")
        assert moved.legal_steps() == ["24/23", "11/10"], rule


def test_the_reading_is_kept_by_saves_and_only_pass_is_written():
    passing = new_game(seed=4, head_rule="pass")
    assert passing.to_dict()["head_rule"] == "pass"
    assert from_dict(passing.to_dict()).to_dict() == passing.to_dict()
    assert from_dict(passing.to_dict()).head_rule == "pass"
    reach = new_game(seed=4)
    assert "head_rule" not in reach.to_dict(), "a game under today's rule saves as it did"
    assert from_dict(reach.to_dict()).head_rule == "reach"
    assert reach.view(None) == new_game(seed=4, head_rule="reach").view(None)


def test_the_option_offers_exactly_the_two_readings():
    option = next(option for option in SPEC.options if option.name == "head_rule")
    assert option.default == "reach"
    assert [choice.value for choice in option.choices] == ["reach", "pass"]
    assert set(HEAD_RULES) == set(FREED_AT)
    assert option.accepts("pass") and not option.accepts("sideways")
    with pytest.raises(IllegalAction):
        new_game(head_rule="sideways")


@pytest.mark.parametrize("level", LEVELS)
def test_computers_at_every_level_play_a_pass_game_to_its_end(level):
    state = new_game(seed=21, head_rule="pass")
    moves = 0
    while not state.is_over:
        state = state.apply(bot_action(state, seed=moves, level=level))
        moves += 1
        for seat in (0, 1):
            assert early_leavers(state, seat, "pass") == 0
        assert moves < 4_000
    assert sorted(state.returns())[0] == 0.0


def test_the_computer_counts_a_first_checker_on_12_as_still_bound_under_pass():
    landed = from_code(CORNER_FREE).apply("13/12")
    mine, theirs = perspective(landed.board, landed.off, 0)
    assert evaluate(mine, theirs, HEAD_RULES["pass"]) < evaluate(mine, theirs, HEAD_RULES["reach"])
