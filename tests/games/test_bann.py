"""Bann engine and computer player (docs/rules/bann.md, the contract in games/base.py)."""

from __future__ import annotations

import itertools
import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import GAMES, IllegalAction
from games.bann import BannState, bot_action, from_code, new_game
from games.base import Rng
from texts import bann as bann_text

START_CODE = "BN1:...dba/....ec/.....f/6...../35..../124...|1,1|0"


def position(pieces: str, dice: tuple[int, int] = (1, 1), turn: int = 0) -> BannState:
    """A state from readable pieces: "3@a2 c@b3" puts seat 0's knight 3 on a2 and seat
    1's knight 3 (letter c) on b3."""
    ranks = [["."] * 6 for _ in range(6)]
    for piece in pieces.split():
        knight, square = piece.split("@")
        ranks[6 - int(square[1])]["abcdef".index(square[0])] = knight
    board = "/".join("".join(rank) for rank in ranks)
    return from_code(f"BN1:{board}|{dice[0]},{dice[1]}|{turn}")


def knights(state: BannState) -> dict[str, tuple[int, int]]:
    return {k["square"]: (k["seat"], k["number"]) for k in state.view(None)["knights"]}


def roundtrip(state: BannState) -> BannState:
    return GAMES["bann"].from_dict(json.loads(json.dumps(state.to_dict())))


# --- setup and start ------------------------------------------------------------------


def test_spec_is_registered_for_two_players() -> None:
    spec = GAMES["bann"]
    assert (spec.key, spec.title, spec.min_players, spec.max_players) == ("bann", "Bann", 2, 2)
    assert spec.options == ()
    with pytest.raises(IllegalAction):
        spec.new_game(players=3, seed=1)


def test_setup_places_both_armies_as_the_rules_say() -> None:
    state = new_game(seed=0)
    assert knights(state) == {
        "a1": (0, 1), "b1": (0, 2), "a2": (0, 3), "c1": (0, 4), "b2": (0, 5), "a3": (0, 6),
        "f6": (1, 1), "e6": (1, 2), "f5": (1, 3), "d6": (1, 4), "e5": (1, 5), "f4": (1, 6),
    }  # fmt: skip
    view = state.view(None)
    assert view["dice"] == [1, 1]
    assert view["castles"] == ["a1", "f6"]
    assert view["captured_count"] == [0, 0]
    assert state.code().split("|")[0] == START_CODE.split("|")[0]


@pytest.mark.parametrize("seed", range(40))
def test_opening_roll_higher_die_moves_first_and_ties_are_rerolled(seed: int) -> None:
    state = new_game(seed=seed)
    first, second = state.opening_roll
    assert first != second
    assert state.current_player == (0 if first > second else 1)
    # the roll comes from the state's own source: replaying it gives the same dice
    rng = Rng(seed)
    roll = (rng.die(), rng.die())
    while roll[0] == roll[1]:
        roll = (rng.die(), rng.die())
    assert roll == state.opening_roll
    assert state.to_dict()["rng"] == rng.to_dict()


def test_opening_rolls_include_ties_and_both_starting_seats() -> None:
    states = [new_game(seed=seed) for seed in range(40)]
    assert any(state.rng.draws > 2 for state in states), "no seed exercised a re-roll"
    assert {state.current_player for state in states} == {0, 1}
    assert new_game(seed=5).to_dict() == new_game(seed=5).to_dict()


def test_start_code_with_seat_zero_to_move() -> None:
    state = next(s for s in (new_game(seed=n) for n in range(20)) if s.current_player == 0)
    assert state.code() == START_CODE
    assert from_code(START_CODE).code() == START_CODE


# --- tips and bans ----------------------------------------------------------------------


def test_only_side_faces_can_be_tipped_to() -> None:
    state = position("3@c3 6@d5 a@f6", dice=(1, 4))
    tips = {int(action[0]) for action in state.legal_actions() if ">" in action}
    assert tips == {2, 3, 4, 5}
    with pytest.raises(IllegalAction, match=r"cannot tip from 1 to 6: tip to a side face \(2, 3"):
        state.apply("6>3:N")
    with pytest.raises(IllegalAction, match="cannot tip from 1 to 1"):
        state.apply("1>3:N")
    after = state.apply("5>3:N")
    assert after.view(None)["dice"] == [5, 4]


def test_own_tip_bans_own_knight_of_that_number() -> None:
    state = position("3@c3 a@f6", dice=(1, 4))
    assert not any(action.startswith("3>3") for action in state.legal_actions())
    with pytest.raises(IllegalAction, match=r"Knight 3 is banned: a die shows 3\."):
        state.apply("3>3:N")


def test_opponent_die_bans_the_knight_of_that_number() -> None:
    state = position("3@c3 4@d4 a@f6", dice=(1, 3))
    assert all(":" not in action or action[2] == "4" for action in state.legal_actions())
    with pytest.raises(IllegalAction, match=r"Knight 3 is banned: a die shows 3\."):
        state.apply("2>3:N")


def test_banned_lists_both_dice_for_both_sides() -> None:
    state = position("3@c3 a@f6 b@e5", dice=(1, 4))
    assert state.view(None)["banned"] == [1, 4]
    after = state.apply("2>3:N")
    assert after.view(None)["banned"] == [2, 4]
    # seat 1's knight 2 is banned by seat 0's die, so only knight 1 may move
    assert {action[2] for action in after.legal_actions() if ">" in action} == {"1"}


# --- moving ------------------------------------------------------------------------------


def test_a_knight_steps_one_square_orthogonally() -> None:
    state = position("3@c3 a@f6", dice=(1, 4))
    targets = {
        state.move_details(action)["to"] for action in state.legal_actions() if ">" in action
    }
    assert targets == {"c4", "d3", "c2", "b3"}
    after = state.apply("2>3:E")
    assert knights(after)["d3"] == (0, 3)
    assert "c3" not in knights(after)


def test_seat_one_directions_are_seen_from_seat_zero() -> None:
    state = position("2@a1 c@c3", dice=(1, 1), turn=1)
    assert knights(state.apply("2>3:N"))["c4"] == (1, 3)
    assert knights(state.apply("2>3:W"))["b3"] == (1, 3)


def test_no_move_off_the_board() -> None:
    state = position("3@a1 4@b2 f@f6", dice=(1, 1))
    with pytest.raises(IllegalAction, match="knight 3 on a1 cannot go S, off the board"):
        state.apply("2>3:S")
    with pytest.raises(IllegalAction, match="It is not a legal move"):
        state.apply("2>3:W")


def test_no_move_onto_an_occupied_square() -> None:
    state = position("3@c3 4@c4 a@d3 f@f6", dice=(1, 2))
    with pytest.raises(IllegalAction, match="c4 is occupied by your knight 4"):
        state.apply("2>3:N")
    with pytest.raises(IllegalAction, match="d3 is occupied by the opponent's knight 1"):
        state.apply("2>3:E")
    assert not any(":N" in a or ":E" in a for a in state.legal_actions() if a[2] == "3")


@pytest.mark.parametrize("action", ["", "3:N", "4>3:X", "4>7:N", "0>3:N", "4>3:NE", "resign"])
def test_malformed_notation_is_explained(action: str) -> None:
    with pytest.raises(IllegalAction, match="is not a Bann action: write tip>knight:direction"):
        new_game(seed=0).apply(action)


def test_captured_knight_cannot_move() -> None:
    with pytest.raises(IllegalAction, match="Your knight 5 has been captured"):
        position("3@c3 a@f6").apply("2>5:N")


# --- captures ------------------------------------------------------------------------------


def test_single_capture_removes_the_adjacent_enemy() -> None:
    state = position("3@d3 a@e4 d@f6", dice=(1, 2))
    after = state.apply("4>3:N")  # d4 touches e4
    assert "e4" not in knights(after)
    assert knights(after)["f6"] == (1, 4)
    assert after.last_move is not None and after.last_move["captured"] == ["e4"]
    assert after.view(None)["captured_count"] == [5, 5]


def test_double_capture() -> None:
    state = position("3@c2 a@b3 b@d3 f@f6", dice=(1, 2))
    after = state.apply("4>3:N")
    assert set(after.last_move["captured"]) == {"b3", "d3"}
    assert set(knights(after)) == {"c3", "f6"}


def test_triple_capture() -> None:
    state = position("3@c2 a@b3 b@d3 c@c4 f@f6", dice=(1, 2))
    details = state.move_details("4>3:N")
    assert sorted(details["captured"]) == ["b3", "c4", "d3"]
    assert not details["wins"]
    after = state.apply("4>3:N")
    assert after.view(None)["captured_count"] == [5, 5]
    assert set(knights(after)) == {"c3", "f6"}


def test_only_the_mover_captures() -> None:
    # seat 0's knight 4 stands next to seat 1's knight 1 (possible in a set-up position):
    # neither is captured when some other knight moves
    state = position("3@c3 4@e4 a@e5 b@b5 f@f6", dice=(5, 1), turn=1)
    after = state.apply("3>2:S")
    assert knights(after)["b4"] == (1, 2)
    assert knights(after)["c3"] == (0, 3)  # b4 is diagonal to c3
    assert knights(after)["e5"] == (1, 1) and knights(after)["e4"] == (0, 4)
    # the mover's knight survives next to the enemy it captures
    after = position("3@c3 4@e4 a@e5 b@b4 f@f6", dice=(5, 1), turn=1).apply("3>2:S")
    assert knights(after)["b3"] == (1, 2)
    assert "c3" not in knights(after)
    assert knights(after)["e4"] == (0, 4) and knights(after)["e5"] == (1, 1)


def test_captures_happen_after_the_move_only_around_the_destination() -> None:
    state = position("3@c3 a@b3 f@f6", dice=(1, 2))
    after = state.apply("4>3:N")  # leaves b3's side; c4 does not touch b3
    assert knights(after)["b3"] == (1, 1)


# --- winning ---------------------------------------------------------------------------------


def test_seat_zero_wins_on_reaching_f6() -> None:
    state = position("3@e6 a@a6 b@a5", dice=(1, 2))
    assert state.move_details("4>3:E")["wins"]
    after = state.apply("4>3:E")
    assert (after.is_over, after.winner, after.result) == (True, 0, "castle")
    assert after.returns() == [1, -1]
    assert after.current_player is None and after.legal_actions() == []
    assert after.view(None)["turn"] is None


def test_seat_one_wins_on_reaching_a1() -> None:
    state = position("3@c3 4@f5 b@b1", dice=(4, 1), turn=1)
    after = state.apply("3>2:W")
    assert (after.is_over, after.winner, after.result) == (True, 1, "castle")
    assert after.returns() == [-1, 1]
    with pytest.raises(IllegalAction, match="The game is over"):
        after.apply("2>3:N")


def test_a_knight_may_step_onto_its_own_castle() -> None:
    state = position("3@a2 f@f6", dice=(1, 1))
    after = state.apply("2>3:S")
    assert knights(after)["a1"] == (0, 3)
    assert not after.is_over


def test_capturing_the_last_enemy_knight_wins() -> None:
    state = position("3@c2 4@a1 a@c4", dice=(1, 2))
    assert state.move_details("4>3:N")["wins"]
    after = state.apply("4>3:N")
    assert (after.winner, after.result) == (0, "last-knight")


def test_no_move_loses_when_no_tip_leaves_a_move() -> None:
    # seat 1 only has knight 1; seat 0 tips to 1 and bans it on seat 1's turn
    state = position("3@c3 a@f6", dice=(2, 4))
    after = state.apply("1>3:N")
    assert (after.is_over, after.winner, after.result) == (True, 0, "no-move")
    assert state.move_details("1>3:N")["wins"]
    assert not state.move_details("4>3:N")["wins"]
    assert not state.apply("4>3:N").is_over


def test_no_move_loses_when_every_knight_is_blocked() -> None:
    # enemies never end up side by side in play (the mover captures), but a set-up
    # position may wall seat 1's knights in
    walled = position("3@a5 4@c6 5@b5 a@a6 b@b6", dice=(3, 1), turn=1)
    assert (walled.is_over, walled.winner, walled.result) == (True, 0, "no-move")


def test_not_lost_when_some_tip_still_leaves_a_move() -> None:
    # seat 1 has knights 1 and 2; seat 0's die bans 1; tipping to 2 would ban 2 as well,
    # but seat 1 may tip elsewhere, so he is not lost and must not tip to 2
    state = position("3@c3 a@f6 b@e5", dice=(1, 3), turn=1)
    assert not state.is_over
    moves = [action for action in state.legal_actions() if ">" in action]
    assert moves and all(action[0] != "2" and action[2] == "2" for action in moves)
    assert {action[0] for action in moves} == {"1", "5", "6"}


def test_a_code_position_without_moves_is_already_lost() -> None:
    state = position("3@c3 a@f6", dice=(1, 1), turn=1)
    assert (state.is_over, state.winner, state.result) == (True, 0, "no-move")


# --- draws -------------------------------------------------------------------------------------


def test_offer_then_accept_draws() -> None:
    state = position("3@c3 a@f6 b@e5", dice=(1, 4))
    assert state.legal_actions()[-1] == "offer"
    offered = state.apply("offer")
    assert offered.current_player == 1
    assert offered.legal_actions() == ["accept", "decline"]
    assert offered.view(None)["draw_offer"] == 0
    with pytest.raises(IllegalAction, match="Answer the draw offer first"):
        offered.apply("2>1:S")
    drawn = offered.apply("accept")
    assert (drawn.is_over, drawn.winner, drawn.result) == (True, None, "agreement")
    assert drawn.returns() == [0, 0]


def test_decline_returns_the_turn_and_forbids_a_second_offer() -> None:
    state = position("3@c3 a@f6 b@e5", dice=(1, 4))
    declined = state.apply("offer").apply("decline")
    assert declined.current_player == 0
    assert declined.view(None)["draw_offer"] is None
    assert "offer" not in declined.legal_actions()
    with pytest.raises(IllegalAction, match="already offered a draw this turn"):
        declined.apply("offer")
    moved = declined.apply("2>3:N")
    assert moved.legal_actions()[-1] == "offer"
    with pytest.raises(IllegalAction, match="no draw offer"):
        moved.apply("accept")


def test_third_repetition_draws() -> None:
    state = position("3@b2 a@f6 c@e5", dice=(1, 1))
    shuffle = ["2>3:N", "2>3:S", "1>3:S", "1>3:N"]  # both knights step out and back
    for _ in range(2):
        for action in shuffle:
            assert not state.is_over
            state = state.apply(action)
    assert (state.is_over, state.winner, state.result) == (True, None, "repetition")
    assert state.returns() == [0, 0]
    assert state.code() == "BN1:.....a/....c./....../....../.3..../......|1,1|0"


def test_second_repetition_does_not_draw() -> None:
    state = position("3@b2 a@f6 c@e5", dice=(1, 1))
    for action in ["2>3:N", "2>3:S", "1>3:S", "1>3:N"]:
        state = state.apply(action)
    assert not state.is_over
    assert state.history[state.code()] == 2


# --- codes, snapshots, immutability -------------------------------------------------------


def test_code_round_trip_and_fresh_history() -> None:
    code = "BN1:.....a/..b.../....c./.3..../....../1.....|4,2|1"
    state = from_code(code)
    assert state.code() == code
    assert state.history == {code: 1}
    assert state.rng.to_dict() == {"seed": 0, "draws": 0}
    assert state.view(None)["opening_roll"] is None


@pytest.mark.parametrize(
    "code",
    [
        "BN1:....../....../....../....../....../......|1,1|2",
        "BN1:.....a/....../....../....../....../......|7,1|0",
        "BN1:.....a/....../....../....../....../1.....|1,1",
        "BN1:.....a/....../....../....../....../11....|1,1|0",
        "BN2:.....a/....../....../....../....../1.....|1,1|0",
    ],
)
def test_bad_codes_are_refused(code: str) -> None:
    with pytest.raises(IllegalAction):
        from_code(code)


def test_to_dict_round_trip_keeps_everything() -> None:
    state = new_game(seed=11)
    for action in state.legal_actions()[:1]:
        state = state.apply(action)
    state = state.apply("offer")
    copy = roundtrip(state)
    assert copy.to_dict() == state.to_dict()
    assert copy.view(None) == state.view(None)
    assert copy.legal_actions() == ["accept", "decline"]
    assert copy.apply("decline").to_dict() == state.apply("decline").to_dict()


def test_apply_does_not_change_the_state() -> None:
    state = new_game(seed=3)
    before = json.dumps(state.to_dict())
    for action in state.legal_actions():
        state.apply(action)
    state.apply("offer").apply("accept")
    assert json.dumps(state.to_dict()) == before


def test_view_schema() -> None:
    state = new_game(seed=0)
    state = state.apply(state.legal_actions()[0])
    view = state.view(None)
    assert set(view) == {
        "game", "knights", "dice", "banned", "turn", "castles", "last_move", "captured_count",
        "opening_roll", "draw_offer", "over", "winner", "result",
    }  # fmt: skip
    assert view == state.view(0) == state.view(1)
    assert set(view["last_move"]) == {"seat", "action", "knight", "from", "to", "captured"}
    assert json.loads(json.dumps(view)) == view


def test_move_details_and_descriptions() -> None:
    state = position("3@c2 a@b3 b@d3 f@f6", dice=(1, 2))
    assert state.move_details("4>3:N") == {
        "tip": 4, "knight": 3, "from": "c2", "to": "c3", "captured": ["b3", "d3"], "wins": False,
    }  # fmt: skip
    assert state.describe("4>3:N") == "Tip to 4, knight 3 c2→c3, captures b3 and d3."
    assert state.describe("offer") == "Offers a draw."
    assert state.apply("offer").describe("decline") == "Declines the draw."
    assert state.apply("offer").describe("accept") == "Accepts the draw."
    with pytest.raises(IllegalAction):
        state.describe("6>3:N")


# --- properties of random play ---------------------------------------------------------------


def random_game(seed: int, max_plies: int = 300) -> list[BannState]:
    chooser = random.Random(seed)
    states = [new_game(seed=seed)]
    while not states[-1].is_over and len(states) <= max_plies:
        states.append(states[-1].apply(chooser.choice(states[-1].legal_actions())))
    return states


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=10**9))
def test_random_play_ends_or_repeats_and_round_trips(seed: int) -> None:
    states = random_game(seed)
    final = states[-1]
    assert final.is_over or max(final.history.values()) >= 2
    for state in states:
        assert roundtrip(state).to_dict() == state.to_dict()
        assert from_code(state.code()).code() == state.code()
    if final.is_over:
        assert sorted(final.returns()) in ([-1, 1], [0, 0])


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=10**9))
def test_captures_remove_only_enemies_next_to_the_destination(seed: int) -> None:
    states = random_game(seed)
    for before, after in itertools.pairwise(states):
        move = after.last_move
        if move is None or after.turn == before.turn:  # an offer or its answer
            continue
        mover = move["seat"]
        was, now = knights(before), knights(after)
        lost = set(was) - set(now) - {move["from"]}
        destination = move["to"]
        for square in lost:
            assert was[square][0] != mover
            distance = abs(ord(square[0]) - ord(destination[0])) + abs(
                int(square[1]) - int(destination[1])
            )
            assert distance == 1
        assert sorted(lost) == sorted(move["captured"])
        adjacent_enemies = {
            square for square, (seat, _) in now.items() if seat != mover
        } & _neighbours(destination)
        assert not adjacent_enemies


def _neighbours(square: str) -> set[str]:
    file, rank = "abcdef".index(square[0]), int(square[1])
    steps = [(0, 1), (1, 0), (0, -1), (-1, 0)]
    return {
        f"{'abcdef'[file + df]}{rank + dr}"
        for df, dr in steps
        if 0 <= file + df < 6 and 1 <= rank + dr <= 6
    }


@settings(max_examples=10, deadline=None)
@given(st.integers(min_value=0, max_value=10**9))
def test_every_legal_action_is_accepted(seed: int) -> None:
    for state in random_game(seed, max_plies=60)[::3]:
        for action in state.legal_actions():
            after = state.apply(action)
            assert after.to_dict() != state.to_dict()


# --- the computer player -------------------------------------------------------------------


def test_bot_returns_legal_deterministic_actions() -> None:
    for state in random_game(7, max_plies=40)[::5]:
        if state.is_over:
            continue
        action = bot_action(state, seed=1)
        assert action in state.legal_actions()
        assert action != "offer"
        assert bot_action(state, seed=1) == action
        assert GAMES["bann"].bot_action(state, seed=1) == action


def test_bot_takes_an_immediate_castle_win() -> None:
    state = position("3@e6 4@a1 a@a6 b@a5 c@b6", dice=(1, 2))
    assert state.apply(bot_action(state)).result == "castle"


def test_bot_answers_offers_by_the_position() -> None:
    losing_for_bot = position("1@c1 2@d1 3@e1 4@a4 5@b4 a@f6", dice=(1, 2)).apply("offer")
    assert bot_action(losing_for_bot) == "accept"
    winning_for_bot = position("1@a1 a@f6 b@e6 c@d6 d@c6 e@f5", dice=(1, 2)).apply("offer")
    assert bot_action(winning_for_bot) == "decline"


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 10_000))
def test_a_menu_describes_each_move_as_playing_it_turns_out(seed: int, chooser_seed: int) -> None:
    chooser = random.Random(chooser_seed)
    state = new_game(seed=seed)
    for _turn in range(80):
        if state.is_over:
            break
        moves = [action for action in state.legal_actions() if ">" in action]
        for action in moves:
            details = state.move_details(action)
            after = state.apply(action)
            assert after.last_move is not None
            shown = (details["from"], details["to"])
            assert shown == (after.last_move["from"], after.last_move["to"])
            assert details["captured"] == after.last_move["captured"]
            assert details["wins"] == (after.winner == state.turn)
        state = state.apply(chooser.choice(moves))


def test_every_notation_example_shown_to_players_is_a_legal_first_move() -> None:
    """A newcomer tries the example he was shown first: in the rules, the command's help,
    the README and the rule book, each written example must be a legal opening move for
    one of the two players (`4>5:N` from a1, `4>5:S` from f6)."""
    root = Path(__file__).resolve().parents[2]
    shown = [
        bann_text.RULES,
        bann_text.MOVE_HELP,
        bann_text.NOTATION_HELP,
        (root / "README.md").read_text(),
        (root / "docs/rules/bann.md").read_text(),
        (root / "docs/rules/de/bann.md").read_text(),
    ]
    examples = {example for text in shown for example in re.findall(r"\b\d>\d:[NESW]\b", text)}
    openings = [from_code(START_CODE), from_code(START_CODE[:-1] + "1")]
    assert examples, "the texts show examples"
    for example in examples:
        assert any(example in start.legal_actions() for start in openings), example
