"""Barree rules as docs/rules/barree.md states them: the board, walks, the blockade, driving out,
the reveal, the last round, the reshuffle and match scoring."""

import itertools
import json

import pytest

from games.barree import (
    BAR,
    FIELDS,
    KEEP,
    LINES,
    NEIGHBOURS,
    PHASE_DRIVE,
    PHASE_MOVE,
    PHASE_OVER,
    PHASE_ROLL,
    SPEC,
    BarreeState,
    bot_action,
    new_game,
    send_options,
    walk_options,
)
from games.base import IllegalAction, Rng
from texts.barree import narrate


def rng_rolling(value: int) -> Rng:
    """A random source whose next die roll (bar = 0, then 1–5) is ``value``."""
    for seed in itertools.count():
        if Rng(seed).randint(BAR, 5) == value:
            return Rng(seed)
    raise AssertionError("unreachable")


def position(
    *,
    pieces: list[int],
    cards: list[list[int]],
    hidden: list[list[int]] | None = None,
    blockade: int = 1,
    current: int = 0,
    starter: int = 0,
    phase: str = PHASE_ROLL,
    die: int | None = None,
    draw_pile: list[int] | None = None,
    rng: Rng | None = None,
    revealed: bool = False,
    rounds: int = 1,
) -> BarreeState:
    """A hand-made position; every card not placed elsewhere lies in the draw pile."""
    players = len(pieces)
    hidden = hidden if hidden is not None else [[] for _ in range(players)]
    placed = {card for hand in cards + hidden for card in hand}
    if draw_pile is None:
        draw_pile = [field for field in FIELDS if field not in placed]
    discard_pile = [field for field in FIELDS if field not in placed and field not in draw_pile]
    return BarreeState(
        players=players,
        rounds=rounds,
        rng=rng or Rng(0),
        round_no=1,
        starter=starter,
        current=current,
        phase=phase,
        die=die,
        blockade=blockade,
        pieces=list(pieces),
        cards=[list(hand) for hand in cards],
        hidden=[list(hand) for hand in hidden],
        revealed=revealed,
        draw_pile=draw_pile,
        discard_pile=discard_pile,
    )


def moving(die: int, **kwargs) -> BarreeState:
    return position(phase=PHASE_MOVE, die=die, **kwargs)


def outcomes(state: BarreeState) -> set[tuple[int, tuple[int, ...]]]:
    return {(option.end, option.discards) for option in walk_options(state)}


# ----- the board ------------------------------------------------------------------------


def test_board_has_48_fields_in_eight_rows_of_six():
    assert len(FIELDS) == 48
    assert FIELDS[0] == 11 and FIELDS[-1] == 86
    assert all(1 <= field // 10 <= 8 and 1 <= field % 10 <= 6 for field in FIELDS)


def test_grid_lines_join_row_and_column_neighbours():
    assert NEIGHBOURS[11] == (12, 21)
    assert NEIGHBOURS[86] == (76, 85)
    assert NEIGHBOURS[43] == (33, 42, 44, 53)
    assert 16 not in NEIGHBOURS[21] and 17 not in NEIGHBOURS
    assert len(LINES) == 7 * 6 + 8 * 5 + 4


@pytest.mark.parametrize(("a", "b"), [(21, 32), (45, 34), (56, 65), (76, 85)])
def test_diagonals_work_in_both_directions(a, b):
    assert b in NEIGHBOURS[a] and a in NEIGHBOURS[b]
    forward = moving(1, pieces=[a, 11 if a != 11 else 12], cards=[[], []])
    backward = moving(1, pieces=[b, 11 if b != 11 else 12], cards=[[], []])
    assert f"{a}-{b}" in forward.legal_actions()
    assert f"{b}-{a}" in backward.legal_actions()


def test_diagonal_breaks_the_checkerboard_parity():
    # On a plain grid two steps never lead to a neighbour; 21-32 makes 21 -> 22 possible.
    state = moving(2, pieces=[21, 86], cards=[[], []])
    assert 22 in {option.end for option in walk_options(state)}
    plain = moving(2, pieces=[13, 86], cards=[[], []])
    assert 14 not in {option.end for option in walk_options(plain)}


# ----- walks ----------------------------------------------------------------------------


def brute_force_outcomes(start: int, steps: int, blockade: int, hand: set[int]):
    found = {}
    for tail in itertools.product(FIELDS, repeat=steps):
        path = (start, *tail)
        if any(b not in NEIGHBOURS[a] for a, b in itertools.pairwise(path)):
            continue
        if any(field // 10 == blockade for field in path):
            continue
        key = (path[-1], tuple(sorted(hand & set(tail))))
        found[key] = min(found.get(key, path), path)
    return found


def test_each_distinct_outcome_is_offered_once_as_its_smallest_walk():
    hand = [33, 35, 44, 24]
    state = moving(3, pieces=[34, 81], cards=[hand, []], blockade=6)
    expected = brute_force_outcomes(34, 3, 6, set(hand))
    offered = {(o.end, o.discards): o.path for o in walk_options(state)}
    assert offered == expected
    assert len(state.legal_actions()) == len(set(state.legal_actions())) == len(expected)


def test_options_are_best_first_and_labelled():
    state = moving(2, pieces=[34, 81], cards=[[35, 36, 11], []], blockade=6)
    best = walk_options(state)[0]
    assert best.action == "34-35-36"
    assert best.label() == "ends on 36, discards 35, 36"
    assert state.legal_actions()[0] == "34-35-36"


def test_walk_may_turn_back_and_return_to_the_start():
    state = moving(2, pieces=[34, 81], cards=[[35], []], blockade=6)
    assert (34, (35,)) in outcomes(state)
    after = state.apply("34-35-34")
    assert after.pieces[0] == 34
    assert after.cards[0] == []


def test_every_card_passed_or_reached_is_discarded_but_not_the_start():
    state = moving(3, pieces=[33, 81], cards=[[33, 34, 35, 36, 11], []], blockade=6)
    after = state.apply("33-34-35-36")
    assert sorted(after.cards[0]) == [11, 33]
    assert after.discard_pile[-3:] == [34, 35, 36]
    assert after.last_walk == {"seat": 0, "path": [33, 34, 35, 36], "discarded": [34, 35, 36]}
    back = state.apply("33-34-33-34")
    assert sorted(back.cards[0]) == [11, 35, 36]


def test_opponents_cards_on_the_way_are_not_discarded():
    state = moving(1, pieces=[33, 81], cards=[[11, 12, 13], [34, 15, 16]], blockade=6)
    after = state.apply("33-34")
    assert 34 in after.cards[1]


def test_a_walk_other_than_the_canonical_one_is_accepted_with_the_same_result():
    state = moving(3, pieces=[34, 81], cards=[[35, 11, 12], []], blockade=6)
    canonical = state.apply("34-35-36-35")
    other = state.apply("34-35-34-35")
    assert canonical.cards == other.cards
    assert canonical.pieces == other.pieces


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        ("33-34", "Your piece stands on 34"),
        ("34-35", "walk exactly 2 steps"),
        ("34-36-35", "No line joins 34 and 36"),
        ("34-44-45", "blockaded"),
        ("34-35-99", "no field 99"),
        ("roll", "not a walk"),
        ("keep", "not a walk"),
    ],
)
def test_wrong_walks_are_refused_with_a_reason(action, reason):
    state = moving(2, pieces=[34, 81], cards=[[11, 12, 13], []], blockade=4)
    with pytest.raises(IllegalAction, match=reason):
        state.apply(action)


# ----- the die and the blockade ---------------------------------------------------------


def test_roll_of_one_to_five_asks_for_a_walk_of_that_length():
    state = position(pieces=[34, 81], cards=[[11], [12]], blockade=6, rng=rng_rolling(4))
    after = state.apply("roll")
    assert (after.phase, after.die, after.current_player) == (PHASE_MOVE, 4, 0)
    assert all(len(action.split("-")) == 5 for action in after.legal_actions())
    assert after.view(None)["events"] == [{"type": "roll", "seat": 0, "die": 4}]


def test_bar_moves_the_blockade_to_the_drawn_cards_row_and_ends_the_turn():
    draw = [field for field in FIELDS if field not in (11, 12)]
    draw.remove(63)
    draw.append(63)
    state = position(
        pieces=[34, 81], cards=[[11], [12]], blockade=2, draw_pile=draw, rng=rng_rolling(BAR)
    )
    after = state.apply("roll")
    assert after.blockade == 6
    assert after.discard_pile[-1] == 63
    assert after.pieces == [34, 81]
    assert (after.current_player, after.phase) == (1, PHASE_ROLL)
    assert {"type": "bar", "seat": 0, "card": 63, "row": 6} in after.events


def test_no_walk_enters_or_crosses_the_blockaded_row():
    state = moving(5, pieces=[34, 81], cards=[[11, 12], []], blockade=4)
    for option in walk_options(state):
        assert all(field // 10 != 4 for field in option.path)
    assert all(option.end // 10 < 4 for option in walk_options(state))


def test_trapped_piece_cannot_move_on_a_number_and_the_turn_passes():
    state = position(pieces=[43, 81], cards=[[11], [12]], blockade=4, rng=rng_rolling(3))
    after = state.apply("roll")
    assert after.pieces[0] == 43
    assert (after.current_player, after.phase) == (1, PHASE_ROLL)
    assert {"type": "trapped", "seat": 0, "die": 3} in after.view(None)["events"]


def test_trapped_piece_is_freed_by_a_bar_and_moves_next_turn():
    draw = [field for field in FIELDS if field not in (11, 12, 73)] + [73]
    state = position(
        pieces=[43, 81], cards=[[11], [12]], blockade=4, draw_pile=draw, rng=rng_rolling(BAR)
    )
    after = state.apply("roll")
    assert after.blockade == 7
    after.current, after.phase, after.die = 0, PHASE_MOVE, 1
    assert set(after.legal_actions()) == {"43-33", "43-42", "43-44", "43-53"}


# ----- driving out ----------------------------------------------------------------------


def test_landing_on_an_opponent_offers_sending_it_with_a_face_up_card():
    state = moving(1, pieces=[34, 35, 81], cards=[[11, 26, 51], [12], [13]], blockade=6)
    landed = state.apply("34-35")
    assert (landed.phase, landed.current_player) == (PHASE_DRIVE, 0)
    assert landed.view(None)["drive_targets"] == [1]
    assert landed.legal_actions() == ["send:1:11", "send:1:26", "send:1:51", KEEP]
    sent = landed.apply("send:1:26")
    assert sent.pieces == [35, 26, 81]
    assert sorted(sent.cards[0]) == [11, 51]
    assert sent.discard_pile[-1] == 26
    assert sent.current_player == 1


def test_sending_never_targets_the_blockaded_row_or_an_occupied_field():
    state = moving(1, pieces=[34, 35, 81], cards=[[11, 81, 61, 62, 24], [12], [13]], blockade=6)
    landed = state.apply("34-35")
    assert [option.field for option in send_options(landed)] == [11, 24]
    with pytest.raises(IllegalAction, match="blockaded row"):
        landed.apply("send:1:61")
    with pytest.raises(IllegalAction, match="occupied"):
        landed.apply("send:1:81")
    with pytest.raises(IllegalAction, match="where you ended"):
        landed.apply("send:2:11")
    with pytest.raises(IllegalAction, match="no face-up card"):
        landed.apply("send:1:13")


def test_keep_leaves_both_pieces_together():
    state = moving(1, pieces=[34, 35], cards=[[11, 12, 13], [14]], blockade=6)
    kept = state.apply("34-35").apply(KEEP)
    assert kept.pieces == [35, 35]
    assert kept.cards[0] == [11, 12, 13]
    assert kept.current_player == 1


def test_no_sending_decision_without_a_usable_card():
    state = moving(1, pieces=[34, 35], cards=[[61, 62, 63], [14]], blockade=6)
    after = state.apply("34-35")
    assert (after.phase, after.current_player) == (PHASE_ROLL, 1)


def test_walk_ending_on_an_opponent_with_a_usable_card_is_ranked_above_an_empty_field():
    state = moving(1, pieces=[34, 35], cards=[[11, 12, 13], [14]], blockade=6)
    assert walk_options(state)[0].lands_on == (1,)


# ----- the reveal and the end of a round ------------------------------------------------


def test_hidden_cards_cannot_be_discarded_before_the_reveal():
    state = moving(
        1, pieces=[34, 81], cards=[[11, 12, 13, 14], []], hidden=[[35, 36], [15, 16]], blockade=6
    )
    after = state.apply("34-35")
    assert after.hidden[0] == [35, 36]
    assert not after.revealed


def test_everyone_reveals_when_someone_has_two_or_fewer_original_cards():
    state = moving(
        1, pieces=[34, 81], cards=[[35, 12, 13], [21]], hidden=[[31, 32], [15, 16]], blockade=6
    )
    after = state.apply("34-35")
    assert after.revealed
    assert sorted(after.cards[0]) == [12, 13, 31, 32]
    assert sorted(after.cards[1]) == [15, 16, 21]
    assert after.hidden == [[], []]
    assert after.view(None)["hidden"] == [0, 0]
    assert any(event["type"] == "reveal" for event in after.events)


def test_driving_out_can_trigger_the_reveal():
    state = moving(
        1, pieces=[34, 35], cards=[[11, 12, 13], [21]], hidden=[[31, 32], [15, 16]], blockade=6
    )
    landed = state.apply("34-35")
    assert not landed.revealed
    sent = landed.apply("send:1:11")
    assert sent.revealed
    assert sorted(sent.cards[0]) == [12, 13, 31, 32]


def test_three_original_cards_left_do_not_reveal():
    state = moving(
        1, pieces=[34, 81], cards=[[35, 12, 13, 14], []], hidden=[[31, 32], []], blockade=6
    )
    assert not state.apply("34-35").revealed


def test_first_to_empty_the_hand_wins_and_the_others_play_up_to_the_starter():
    # Seat 1 finishes; seat 2 still plays; seat 0 started, so the round ends before it.
    state = moving(
        1,
        pieces=[81, 34, 82],
        cards=[[11, 12], [35], [13, 14, 15]],
        current=1,
        starter=0,
        blockade=6,
        revealed=True,
    )
    finished = state.apply("34-35")
    assert finished.finisher == 1
    assert (finished.current_player, finished.phase) == (2, PHASE_ROLL)
    last = finished.copy()
    last.phase, last.die = PHASE_MOVE, 1
    over = last.apply("82-83")
    assert over.is_over and over.current_player is None
    assert over.round_minus == [[2, 0, 3]]
    assert over.returns() == [-2.0, 0.0, -3.0]
    assert {"type": "round_over", "round": 1, "minus": [2, 0, 3]} in over.events


def test_round_ends_at_once_when_the_player_before_the_starter_finishes():
    state = moving(
        1, pieces=[81, 34], cards=[[11, 12], [35]], current=1, starter=0, blockade=6, revealed=True
    )
    assert state.apply("34-35").is_over


def test_the_starter_finishing_gives_everyone_else_one_more_turn():
    state = moving(
        1,
        pieces=[34, 81, 82],
        cards=[[35], [11], [12]],
        current=0,
        starter=0,
        blockade=6,
        revealed=True,
    )
    after = state.apply("34-35")
    assert after.current_player == 1 and not after.is_over


def test_driving_out_with_the_last_card_finishes_the_hand():
    state = moving(1, pieces=[34, 35], cards=[[11], [14]], starter=1, blockade=6, revealed=True)
    after = state.apply("34-35").apply("send:1:11")
    assert after.is_over
    assert after.round_minus == [[0, 1]]


def test_hidden_cards_count_as_minus_points():
    state = position(pieces=[34, 81], cards=[[11], [12]], hidden=[[13, 14], [15, 16]])
    assert [state.held(seat) for seat in range(2)] == [3, 3]


# ----- draw pile, setup and matches -----------------------------------------------------


def test_empty_draw_pile_is_refilled_by_shuffling_the_discard_pile():
    state = position(
        pieces=[34, 81], cards=[[11], [12]], blockade=2, draw_pile=[], rng=rng_rolling(BAR)
    )
    assert len(state.discard_pile) == 46
    after = state.apply("roll")
    assert any(event["type"] == "reshuffle" for event in after.events)
    assert len(after.draw_pile) == 45 and len(after.discard_pile) == 1
    assert after.blockade == after.discard_pile[0] // 10
    assert sorted(after.all_cards()) == list(FIELDS)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_deals_nine_cards_places_pieces_and_the_blockade(players):
    state = new_game(players=players, seed=players)
    assert all(len(hand) == 7 for hand in state.cards)
    assert all(len(hand) == 2 for hand in state.hidden)
    assert len(state.discard_pile) == players + 1
    assert sorted(state.discard_pile[:players]) == sorted(state.pieces)
    assert state.blockade == state.discard_pile[-1] // 10
    assert sorted(state.all_cards()) == list(FIELDS)
    assert state.current_player == state.starter
    assert state.legal_actions() == ["roll"]


def test_the_highest_starting_roll_starts_and_ties_roll_again():
    for seed in range(40):
        state = new_game(players=4, seed=seed)
        final = state.start_rolls[-1]
        best = max(roll for roll in final if roll is not None)
        assert final[state.starter] == best
        assert [roll for roll in final if roll is not None].count(best) == 1
        for earlier in state.start_rolls[:-1]:
            top = max(roll for roll in earlier if roll is not None)
            assert earlier.count(top) > 1
    assert any(len(new_game(players=4, seed=seed).start_rolls) > 1 for seed in range(40))


def test_hidden_cards_are_in_no_view():
    state = new_game(players=3, seed=5)
    other = state.copy()
    other.hidden = [list(reversed(hand)) for hand in other.hidden]
    other.hidden[0][0], other.hidden[1][0] = other.hidden[1][0], other.hidden[0][0]
    other.draw_pile.reverse()
    for seat in (None, 0, 1, 2):
        assert state.view(seat) == other.view(seat)
    assert state.view(0)["hidden"] == [2, 2, 2]
    assert bot_action(state, seed=3) == bot_action(other, seed=3)


def test_match_of_two_rounds_adds_up_minus_points():
    state = moving(
        1,
        pieces=[34, 81],
        cards=[[35], [11, 12, 13]],
        current=0,
        starter=1,
        blockade=6,
        revealed=True,
        rounds=2,
    )
    after = state.apply("34-35")
    assert after.round_no == 2 and not after.is_over
    assert after.round_minus == [[0, 3]]
    assert any(event["type"] == "setup" and event["round"] == 2 for event in after.events)
    assert all(len(hand) == 7 for hand in after.cards)
    assert sorted(after.all_cards()) == list(FIELDS)
    assert after.view(None)["minus"] == [0, 3]


def test_rounds_option_is_offered_and_validated():
    (rounds,) = SPEC.options
    assert (rounds.name, rounds.default) == ("rounds", 1)
    assert SPEC.new_game(players=2, seed=1, rounds=3).rounds == 3
    with pytest.raises(IllegalAction):
        new_game(players=5)
    with pytest.raises(IllegalAction):
        new_game(players=2, rounds=0)


# ----- contract details -----------------------------------------------------------------


def test_to_dict_round_trips_through_json_and_replays_alike():
    state = new_game(players=3, seed=11, rounds=2)
    for _ in range(60):
        copy = SPEC.from_dict(json.loads(json.dumps(state.to_dict())))
        assert copy.to_dict() == state.to_dict()
        action = bot_action(state, seed=1)
        assert copy.apply(action).to_dict() == state.apply(action).to_dict()
        state = state.apply(action)


def test_apply_leaves_the_old_state_unchanged():
    state = moving(1, pieces=[34, 35], cards=[[11, 12, 13], [14]], blockade=6)
    before = state.to_dict()
    state.apply("34-35").apply("send:1:11")
    assert state.to_dict() == before


def test_over_and_out_of_phase_actions_are_refused():
    state = position(pieces=[34, 81], cards=[[11], [12]])
    with pytest.raises(IllegalAction, match="Roll"):
        state.apply("34-35")
    landed = moving(1, pieces=[34, 35], cards=[[11, 12, 13], [14]], blockade=6).apply("34-35")
    with pytest.raises(IllegalAction):
        landed.apply("roll")
    with pytest.raises(IllegalAction):
        landed.apply("send:one:11")
    over = moving(1, pieces=[81, 34], cards=[[11], [35]], current=1, revealed=True)
    over = over.apply("34-35")
    assert over.phase == PHASE_OVER and over.legal_actions() == []
    with pytest.raises(IllegalAction, match="over"):
        over.apply("roll")


def test_describe_and_narrate_give_readable_sentences():
    names = ["Ann", "Ben"]
    state = moving(1, pieces=[34, 35], cards=[[11, 12, 13, 16, 35], [14]], blockade=6)
    assert state.describe("34-35", names) == "Ann walks 34-35 and discards 35."
    landed = state.apply("34-35")
    assert landed.describe("send:1:11", names) == "Ann plays card 11 and sends Ben to 11."
    assert narrate("en", landed.view(None)["events"], names) == ["Ann walks 34-35, discarding 35."]
    sent = landed.apply("send:1:11")
    assert narrate("en", sent.events, names) == ["Ann sends Ben to 11."]
    assert position(pieces=[34, 81], cards=[[11], [12]]).describe("roll") == "Seat 1 rolls the die."
    assert narrate("en", landed.apply(KEEP).events, names) == ["Ann leaves the piece there."]


def test_option_label_names_the_player_landed_on():
    state = moving(1, pieces=[34, 35], cards=[[35, 12, 13, 14], [16]], blockade=6)
    (option,) = [option for option in walk_options(state) if option.end == 35]
    assert option.label(["Ann", "Ben"]) == "ends on 35, discards 35, lands on Ben"
