"""Gul Bara rules (docs/rules/gulbara.md): every rule with a position code.

Codes are built by ``code()`` from seat 0's numbering for both colours, so a position
reads like the GB1 code itself: white (seat 0) moves 24 → 1, black (seat 1) starts on
white's 12 and moves 12 → 1, 24 → 13.
"""

from __future__ import annotations

import json

import pytest

from games.base import IllegalAction
from games.gulbara import (
    SPEC,
    GulbaraState,
    from_code,
    from_dict,
    new_game,
    split_steps,
    to_seat0,
)


def code(
    white: dict[int, int],
    black: dict[int, int],
    off: tuple[int, int] = (0, 0),
    turn: int = 0,
    dice: str = "6,5",
    rolls: tuple[int, int] = (5, 5),
) -> str:
    """A GB1 code; ``white`` and ``black`` map seat 0's point numbers to counts."""
    points = [0] * 24
    for point, count in white.items():
        points[point - 1] = count
    for point, count in black.items():
        points[point - 1] = -count
    text = ",".join(str(value) if value else "" for value in points)
    return f"GB1:{text}|{off[0]},{off[1]}|{turn}|{dice}|{rolls[0]},{rolls[1]}"


def play_turn(state: GulbaraState, *steps: str) -> GulbaraState:
    for step in steps:
        state = state.apply(step)
    return state


# -- start and opening roll ----------------------------------------------------------


def test_start_position_has_fifteen_each_on_their_own_24() -> None:
    state = new_game(seed=1)
    assert state.board[to_seat0(24, 0) - 1] == 15
    assert state.board[to_seat0(24, 1) - 1] == -15
    assert to_seat0(24, 1) == 12, "seat 1's 24 is the diagonally opposite corner"


@pytest.mark.parametrize("seed", range(30))
def test_opening_roll_higher_die_starts_and_plays_both_numbers(seed: int) -> None:
    state = new_game(seed=seed)
    first, second = state.opening
    assert first != second, "ties are re-rolled"
    starter = 0 if first > second else 1
    assert state.current_player == starter
    assert sorted(state.dice) == sorted([first, second])
    assert state.rolls[starter] == 1 and state.rolls[1 - starter] == 0


def test_new_game_is_reproducible_from_its_seed() -> None:
    assert new_game(seed=5).to_dict() == new_game(seed=5).to_dict()


# -- blocking --------------------------------------------------------------------------


def test_cannot_land_on_a_point_holding_a_single_opponent_checker() -> None:
    state = from_code(code({24: 15}, {12: 14, 18: 1}))
    assert state.legal_actions() == ["24/19"]
    with pytest.raises(IllegalAction):
        state.apply("24/18")
    assert play_turn(state, "24/19").legal_actions() == ["19/13", "undo"]


def test_cannot_touch_blocked_points_on_the_way_so_the_turn_passes() -> None:
    state = from_code(code({24: 15}, {12: 13, 18: 1, 19: 1}))
    assert state.current_player == 1
    assert state.recent[-1]["seat"] == 0 and state.recent[-1]["passed"]
    assert state.board[23] == 15


# -- head rule --------------------------------------------------------------------------


def test_head_rule_only_the_runner_moves_before_it_reaches_the_quarter() -> None:
    state = from_code(code({24: 14, 16: 1}, {12: 15}))
    assert state.legal_steps() == ["16/10", "16/11"]


def test_head_rule_lifts_once_the_runner_reaches_the_quarter() -> None:
    state = from_code(code({24: 14, 16: 1}, {12: 15})).apply("16/10")
    assert set(state.legal_steps()) == {"24/19", "10/5"}


def test_head_rule_reaching_the_quarter_is_enough_mid_double() -> None:
    state = from_code(code({24: 14, 15: 1}, {12: 15}, dice="2,2,2,2", rolls=(2, 2)))
    assert state.legal_steps() == ["15/13"]
    state = play_turn(state, "15/13")
    assert state.legal_steps() == ["13/11"], "13 is not yet in the quarter"
    state = play_turn(state, "13/11")
    assert set(state.legal_steps()) == {"24/22", "11/9"}


# -- no blocking prime ------------------------------------------------------------------


def test_six_point_prime_with_no_opponent_checker_past_is_refused() -> None:
    white = {2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 9: 1, 24: 9}
    state = from_code(code(white, {12: 14, 8: 1}, dice="2,1"))
    assert "9/7" not in state.legal_steps()
    assert "24/22" in state.legal_steps()


def test_six_point_prime_is_allowed_when_an_opponent_checker_is_past_it() -> None:
    white = {2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 9: 1, 24: 9}
    state = from_code(code(white, {12: 13, 8: 1, 13: 1}, dice="2,1"))
    assert "9/7" in state.legal_steps()
    assert state.apply("9/7").board[6] == 1


def test_prime_counts_along_the_opponents_path_across_white_1_and_24() -> None:
    # black's path runs white 12 … 1, 24 … 13, so white 2, 1, 24, 23, 22 and 21 are
    # six consecutive points for black
    white = {2: 1, 1: 1, 24: 8, 23: 1, 22: 2, 20: 2}
    state = from_code(code(white, {12: 15}, dice="1", rolls=(5, 5)))
    assert "22/21" not in state.legal_steps()
    assert state.legal_steps() == ["24/23", "23/22", "20/19", "2/1"]


# -- dice rules --------------------------------------------------------------------------


def test_higher_die_must_be_played_when_only_one_die_can_be_played() -> None:
    state = from_code(code({24: 14, 20: 1}, {12: 15}, dice="6,2"))
    assert state.legal_steps() == ["20/14"]
    assert play_turn(state, "20/14").current_player == 1


def test_lower_die_is_played_when_the_higher_one_cannot_be() -> None:
    state = from_code(code({24: 14, 20: 1}, {12: 14, 14: 1}, dice="6,2"))
    assert state.legal_steps() == ["20/18"]


def test_a_step_after_which_the_other_die_is_lost_is_refused() -> None:
    # 9/4 would leave the 6 unplayable (24/18 blocked, no bear-off yet)
    state = from_code(code({24: 14, 9: 1}, {12: 14, 18: 1}, dice="6,5"))
    assert set(state.legal_steps()) == {"24/19", "9/3"}
    with pytest.raises(IllegalAction):
        state.apply("9/4")


def test_a_double_is_played_four_times_in_the_grace_period_and_then_stops() -> None:
    state = from_code(code({24: 15}, {12: 15}, dice="2,2,2,2", rolls=(3, 1)))
    state = play_turn(state, "24/22", "22/20", "20/18", "18/16")
    assert state.current_player == 1
    assert state.recent[-1]["stages"] == [2]


# -- escalating doubles -------------------------------------------------------------------


def test_full_escalation_from_1_1_to_6_6_is_24_steps() -> None:
    state = from_code(code({12: 3, 11: 3, 10: 3, 9: 3, 8: 3}, {13: 1}, off=(0, 14), dice="1,1,1,1"))
    steps = 0
    while state.current_player == 0:
        assert state.chain_to_come() == list(range(state.dice[0] + 1, 7))
        state = state.apply(state.legal_steps()[-1])
        steps += 1
    assert steps == 24
    assert state.recent[-1]["stages"] == [1, 2, 3, 4, 5, 6]


def test_chain_stops_at_a_number_that_cannot_be_played_four_times() -> None:
    state = from_code(code({24: 15}, {12: 14, 10: 1}, dice="2,2,2,2", rolls=(4, 1)))
    state = play_turn(state, "24/22", "22/20", "20/18", "18/16")
    assert state.dice == (3, 3, 3, 3) and state.chain_to_come() == [4, 5, 6]
    state = state.apply("16/13")
    assert state.current_player == 1, "13/10 is blocked: the other 3s and the chain are lost"
    assert state.recent[-1]["stages"] == [2, 3]
    assert state.recent[-1]["steps"] == ["24/22", "22/20", "20/18", "18/16", "16/13"]


def test_grace_period_is_counted_per_player() -> None:
    position = code({10: 15}, {5: 14, 23: 1}, turn=1, dice="1,1,1,1", rolls=(9, 3))
    state = from_code(position)
    for _ in range(4):
        state = state.apply(state.legal_steps()[0])
    assert state.current_player == 0, "seat 1's third roll is still exempt"
    escalating = from_code(position.replace("|9,3", "|0,4"))
    for _ in range(4):
        escalating = escalating.apply(escalating.legal_steps()[0])
    assert escalating.current_player == 1 and escalating.dice == (2, 2, 2, 2)


def test_roll_counts_go_up_per_player_each_turn() -> None:
    state = new_game(seed=11)
    starter = state.current_player
    while state.current_player == starter:
        state = state.apply(state.legal_steps()[0])
    assert state.rolls[starter] == 1
    assert state.rolls[1 - starter] == 1
    expected = [2, 2]
    expected[1 - starter] = 3  # the roll being played still counts as exempt
    assert state.view()["grace_left"] == expected


# -- bearing off ----------------------------------------------------------------------------


def test_bear_off_with_a_higher_die_from_the_highest_point() -> None:
    state = from_code(code({3: 1, 2: 1}, {13: 1}, off=(13, 14), dice="6,5"))
    assert state.legal_steps() == ["3/off"]
    state = state.apply("3/off")
    assert state.legal_steps() == ["2/off"]


def test_higher_die_cannot_bear_off_while_a_higher_point_is_occupied() -> None:
    state = from_code(code({4: 1, 2: 1}, {13: 1}, off=(13, 14), dice="5"))
    assert state.legal_steps() == ["4/off"]


def test_no_bear_off_while_a_checker_is_outside_home() -> None:
    state = from_code(code({7: 1, 3: 1}, {13: 1}, off=(13, 14), dice="3"))
    assert state.legal_steps() == ["7/4"]


def test_inner_move_may_be_chosen_instead_of_a_bear_off() -> None:
    state = from_code(code({5: 1, 3: 1}, {13: 1}, off=(13, 14), dice="3"))
    assert set(state.legal_steps()) == {"5/2", "3/off"}
    assert state.apply("5/2").off[0] == 13


def test_a_die_whose_only_use_is_a_bear_off_must_bear_off() -> None:
    state = from_code(code({1: 3}, {13: 1}, off=(12, 14), dice="6,5"))
    assert state.legal_steps() == ["1/off"]


# -- scoring and matches ------------------------------------------------------------------


def test_win_scores_two_when_the_loser_has_borne_off_none() -> None:
    state = from_code(code({1: 1}, {13: 15}, off=(14, 0), dice="6,5")).apply("1/off")
    assert state.is_over and state.winner == 0
    assert state.returns() == [2.0, 0.0]


def test_win_scores_one_when_the_loser_has_borne_off_some() -> None:
    state = from_code(code({1: 1}, {13: 12}, off=(14, 3), dice="6,5")).apply("1/off")
    assert state.returns() == [1.0, 0.0]
    assert state.current_player is None and state.legal_actions() == []


def test_match_plays_games_until_one_side_reaches_the_target() -> None:
    state = new_game(seed=4, match_to=3)
    games_seen = {1}
    while not state.is_over:
        state = state.apply(state.legal_steps()[0])
        games_seen.add(state.game_number)
    assert max(state.score) >= 3
    assert len(games_seen) >= 2
    assert state.last_game is not None and state.last_game["winner"] == state.winner


def test_new_game_in_a_match_starts_from_the_start_position() -> None:
    state = new_game(seed=4, match_to=5)
    while state.game_number == 1:
        state = state.apply(state.legal_steps()[0])
    assert state.last_game is not None
    assert state.off == [0, 0] and state.played == []
    assert sum(state.score) == state.last_game["points"]


# -- undo -----------------------------------------------------------------------------------


def test_undo_takes_back_steps_one_at_a_time_but_never_the_roll() -> None:
    state = from_code(code({24: 14, 16: 1}, {12: 15}))
    after = state.apply("16/10")
    assert after.can_undo and "undo" in after.legal_actions()
    back = after.apply("undo")
    assert back.code() == state.code()
    assert not back.can_undo
    with pytest.raises(IllegalAction):
        back.apply("undo")


def test_undo_goes_back_across_escalation_stages() -> None:
    state = from_code(code({24: 15}, {12: 14, 10: 1}, dice="2,2,2,2", rolls=(4, 1)))
    played = play_turn(state, "24/22", "22/20", "20/18", "18/16")
    assert played.dice == (3, 3, 3, 3)
    back = played.apply("undo")
    assert back.dice == (2,) and back.played_steps() == ["24/22", "22/20", "20/18"]
    assert back.stages == [2]


def test_a_completed_turn_cannot_be_undone() -> None:
    state = from_code(code({24: 14, 20: 1}, {12: 15}, dice="6,2")).apply("20/14")
    assert state.current_player == 1 and not state.can_undo


# -- input and serialisation -----------------------------------------------------------------


@pytest.mark.parametrize("text", ["24-18", "abc", "25/19", "24/off", "", "19/13"])
def test_illegal_or_malformed_steps_raise_illegal_action(text: str) -> None:
    state = from_code(code({24: 15}, {12: 15}))
    with pytest.raises(IllegalAction):
        state.apply(text)


def test_apply_leaves_the_state_unchanged() -> None:
    state = new_game(seed=2)
    before = state.to_dict()
    state.apply(state.legal_steps()[0])
    assert state.to_dict() == before


def test_code_round_trip() -> None:
    text = code({24: 10, 20: 2, 9: 3}, {12: 11, 5: 4}, dice="3,3,3", rolls=(7, 6))
    assert from_code(text).code() == text


def test_malformed_codes_are_refused() -> None:
    with pytest.raises(ValueError):
        from_code("GB1:1,2,3|0,0|0|6,5|1,1")
    with pytest.raises(ValueError):
        from_code(code({24: 14}, {12: 15}))


def test_to_dict_is_json_and_round_trips_mid_turn() -> None:
    state = new_game(seed=9, match_to=3)
    state = state.apply(state.legal_steps()[0])
    data = json.loads(json.dumps(state.to_dict()))
    copy = from_dict(data)
    assert copy.to_dict() == state.to_dict()
    assert copy.legal_actions() == state.legal_actions()
    assert SPEC.from_dict(data).apply("undo").to_dict() == state.apply("undo").to_dict()


# -- helpers for the Discord layer ------------------------------------------------------------


def test_movable_points_and_step_choices_group_the_legal_steps() -> None:
    state = from_code(code({5: 1, 3: 1}, {13: 1}, off=(13, 14), dice="3"))
    assert state.movable_points() == [5, 3]
    assert state.step_choices(3) == [{"die": 3, "to": "off", "action": "3/off"}]
    assert state.step_choices(5) == [{"die": 3, "to": "2", "action": "5/2"}]
    assert state.step_choices(4) == []


def test_forced_step_is_offered_only_when_there_is_no_choice() -> None:
    assert from_code(code({24: 14, 20: 1}, {12: 15}, dice="6,2")).forced_step() == "20/14"
    assert from_code(code({5: 1, 3: 1}, {13: 1}, off=(13, 14), dice="3")).forced_step() is None


def test_describe_gives_a_short_sentence() -> None:
    state = from_code(code({5: 1, 3: 1}, {13: 1}, off=(13, 14), dice="3"))
    assert state.describe("3/off") == "bears off from 3 (3)"
    assert state.describe("5/2") == "moves 5/2 (3)"
    running = from_code(code({24: 14, 16: 1}, {12: 15})).apply("16/10")
    assert running.describe("undo") == "takes back 16/10"


def test_view_schema_shows_chain_grace_pips_and_steps() -> None:
    state = from_code(code({24: 15}, {12: 14, 10: 1}, dice="2,2,2,2", rolls=(4, 1)))
    view = play_turn(state, "24/22").view(None)
    assert view["turn"] == 0 and view["dice"] == [2, 2, 2]
    assert view["stage"] == 2 and view["chain"] == [3, 4, 5, 6]
    assert view["grace_left"] == [0, 2]
    assert view["pips"] == [24 * 14 + 22, 24 * 14 + 22]
    assert view["played"] == ["24/22"]
    assert json.loads(json.dumps(view)) == view


def test_spec_options_and_players() -> None:
    assert SPEC.key == "gulbara" and SPEC.min_players == SPEC.max_players == 2
    assert {option.name for option in SPEC.options} == {"match_to", "head_rule", "autoplay"}
    with pytest.raises(IllegalAction):
        new_game(players=3)


def test_split_steps_reads_typed_moves() -> None:
    assert split_steps("24/18 18/13") == ["24/18", "18/13"]
    assert split_steps("24/18/13") == ["24/18", "18/13"]
    assert split_steps("24/20(2), 6/off") == ["24/20", "24/20", "6/off"]
    assert split_steps("24/20(9)") == ["24/20(9)"]


@pytest.mark.parametrize(
    ("position", "step", "reason"),
    [
        (code({24: 15}, {12: 14, 18: 1}), "24/18", "held by your opponent"),
        (code({24: 14, 16: 1}, {12: 15}), "24/18", "Head rule"),
        (code({24: 15}, {12: 15}), "24/20", "No die"),
        (code({24: 15}, {12: 15}), "20/14", "no checker on 20"),
        (code({3: 1, 5: 1}, {13: 15}, off=(13, 0), dice="2,1"), "5/off", "No die bears off"),
        (code({24: 14, 16: 1}, {12: 15}), "16/off", "only when all your checkers"),
        (
            code({2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 9: 1, 24: 9}, {12: 14, 8: 1}, dice="2,1"),
            "9/7",
            "six points in a row",
        ),
        (code({24: 14, 9: 1}, {12: 14, 18: 1}), "9/4", "as many dice as you can"),
    ],
)
def test_illegal_steps_say_which_rule_they_break(position: str, step: str, reason: str) -> None:
    with pytest.raises(IllegalAction, match=reason):
        from_code(position).apply(step)
