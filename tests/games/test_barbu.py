"""Barbu rules (docs/rules/barbu.md): contracts, trick rules, Domino, doubling, scoring, views."""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import barbu
from games.barbu import CONTRACTS, SPEC, IllegalAction, new_game, settle

ALL_SPADES = "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"
ALL_HEARTS = "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H"
ALL_CLUBS = "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C"
ALL_DIAMONDS = "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D"
ONE_SUIT_EACH = (ALL_SPADES, ALL_HEARTS, ALL_CLUBS, ALL_DIAMONDS)
CARD_TOKEN = re.compile(r"\b[2-9TJQKA][SHCD]\b")


def cards(text: str) -> list[int]:
    return [barbu.parse_card(card) for card in text.split()]


def arranged(hands: tuple[str, ...], contract: str | None = None, **options) -> barbu.BarbuState:
    """Seat 0 declares the first deal with these hands; doubling passed if ``contract``."""
    data = new_game(seed=5, **options).to_dict()
    data["first_declarer"] = 0
    data["hands"] = [cards(hand) for hand in hands]
    state = SPEC.from_dict(data)
    if contract is not None:
        state = state.apply(contract)
        while state.phase == "doubling":
            state = state.apply("pass")
    return state


def play(state: barbu.BarbuState, moves: str) -> barbu.BarbuState:
    for move in moves.split():
        state = state.apply(move)
    return state


def random_playout(state: barbu.BarbuState, rng: random.Random, deals: int) -> barbu.BarbuState:
    target = state.deal_number + deals
    while not state.is_over and state.deal_number < target:
        state = state.apply(rng.choice(state.legal_actions()))
    return state


# --- settle ---


def test_settle_without_doubles_keeps_raw_scores():
    assert settle([-26, 0, 0, 0], set()) == [-26, 0, 0, 0]


def test_settle_one_way_double_pays_the_difference_to_the_better_player():
    assert settle([-20, 0, 0, 0], {(1, 0)}) == [-40, 20, 0, 0]
    assert settle([-20, 0, 0, 0], {(0, 1)}) == [-40, 20, 0, 0]


def test_settle_redouble_pays_twice_the_difference():
    assert settle([45, 20, 5, -5], {(1, 0), (0, 1)}) == [95, -30, 5, -5]


@given(
    raw=st.lists(st.integers(-30, 65), min_size=4, max_size=4),
    doubles=st.sets(st.tuples(st.integers(0, 3), st.integers(0, 3)).filter(lambda p: p[0] != p[1])),
)
@settings(max_examples=60, deadline=None)
def test_settle_is_zero_sum_over_the_doubles(raw, doubles):
    assert sum(settle(raw, doubles)) == sum(raw)


# --- contracts and their scoring ---


def test_no_tricks_costs_two_per_trick():
    state = arranged(ONE_SUIT_EACH, "notricks")
    state = play(state, "AS AH AC AD KS KH KC KD")
    assert state.points == [-4, 0, 0, 0]


def test_no_queens_ends_when_the_fourth_queen_is_taken():
    state = arranged(ONE_SUIT_EACH, "noqueens")
    state = play(state, "QS QH QC QD")
    assert state.deal_number == 1
    assert state.history[0]["raw"] == [-24, 0, 0, 0]
    assert state.phase == "contract"


def test_no_last_two_charges_only_the_twelfth_and_thirteenth_tricks():
    state = arranged(ONE_SUIT_EACH, "nolasttwo")
    state = play(state, " ".join(f"{rank}S {rank}H {rank}C {rank}D" for rank in "AKQJT987654"))
    assert state.points == [0, 0, 0, 0]
    state = play(state, "3S 3H 3C 3D")
    assert state.points == [-10, 0, 0, 0]
    state = play(state, "2S 2H 2C 2D")
    assert state.history[0]["raw"] == [-30, 0, 0, 0]


def test_no_hearts_charges_two_per_heart_and_six_for_the_ace():
    state = arranged(ONE_SUIT_EACH, "nohearts")
    state = play(state, "AS AH AC AD")
    assert state.points == [-6, 0, 0, 0]
    state = play(state, "KS KH KC KD")
    assert state.points == [-8, 0, 0, 0]


def test_barbu_ends_when_the_king_of_hearts_is_taken():
    state = arranged(ONE_SUIT_EACH, "barbu")
    state = play(state, "AS AH AC AD")
    assert state.deal_number == 0
    state = play(state, "KS KH KC KD")
    assert state.deal_number == 1
    assert state.history[0]["raw"] == [-20, 0, 0, 0]


def test_trumps_scores_five_per_trick():
    state = arranged(ONE_SUIT_EACH, "trumps:C")
    state = play(state, "AS AH 2C AD")
    assert state.points == [0, 0, 5, 0]
    assert state.current_player == 2


@given(seed=st.integers(0, 10_000))
@settings(max_examples=12, deadline=None)
def test_a_series_plays_each_contract_once_and_sums_to_zero(seed):
    state = new_game(seed=seed, series=1)
    declarer = state.declarer
    assert state.dealer == (declarer + 3) % 4
    state = random_playout(state, random.Random(seed), deals=7)
    assert state.is_over and state.current_player is None
    expected_totals = {"notricks": -26, "noqueens": -24, "nolasttwo": -30, "nohearts": -30}
    expected_totals |= {"barbu": -20, "trumps": 65, "domino": 65}
    played = [deal["contract"].partition(":")[0] for deal in state.history]
    assert sorted(played) == sorted(CONTRACTS)
    for deal in state.history:
        assert deal["declarer"] == declarer
        assert sum(deal["raw"]) == expected_totals[deal["contract"].partition(":")[0]]
        assert sum(deal["scores"]) == sum(deal["raw"])
    assert sum(state.totals) == 0
    assert state.returns() == [float(total) for total in state.totals]


def test_declarers_rotate_to_the_left_over_a_full_game():
    state = new_game(seed=11)
    first = state.declarer
    rng = random.Random(3)
    for series in range(4):
        assert state.declarer == (first + series) % 4
        assert state.remaining == list(CONTRACTS)
        state = random_playout(state, rng, deals=7)
    assert state.is_over
    assert len(state.history) == 28
    assert sum(state.totals) == 0


# --- trick rules ---


def test_players_must_follow_suit():
    state = arranged(("AS 2H", "3S KH", "4H 5H", "6C 7C"), "notricks")
    state = state.apply("AS")
    assert state.legal_actions() == ["3S"]
    with pytest.raises(IllegalAction, match="follow suit"):
        state.apply("KH")


@pytest.mark.parametrize("contract", ["nohearts", "barbu"])
def test_hearts_may_not_be_led_while_holding_another_suit(contract):
    state = arranged(("2H 3S", "4S", "5S", "6S"), contract)
    assert state.legal_actions() == ["3S"]
    with pytest.raises(IllegalAction, match="heart"):
        state.apply("2H")


def test_hearts_may_be_led_with_nothing_but_hearts():
    state = arranged(("2H 3H", "4S", "5S", "6S"), "nohearts")
    assert state.legal_actions() == ["3H", "2H"]


def test_hearts_may_be_led_freely_in_other_contracts():
    state = arranged(("2H 3S", "4S", "5S", "6S"), "notricks")
    assert set(state.legal_actions()) == {"2H", "3S"}


def test_trumps_a_led_trump_must_be_headed_if_possible():
    state = arranged(("5S 2C", "9S 3S AH", "4S 2S KD", "6D"), "trumps:S")
    state = state.apply("5S")
    assert state.legal_actions() == ["9S"]
    state = state.apply("9S")
    assert state.legal_actions() == ["4S", "2S"]
    with pytest.raises(IllegalAction, match="higher trump"):
        state.apply("KD")


def test_trumps_a_discard_does_not_lift_the_trump_to_beat():
    state = arranged(("TS 2C", "2D AH", "3S KS", "6D"), "trumps:S")
    state = play(state, "TS 2D")
    assert state.legal_actions() == ["KS"]
    with pytest.raises(IllegalAction, match="higher trump"):
        state.apply("3S")


def test_trumps_a_void_player_must_win_with_a_trump_when_able():
    state = arranged(("5C", "2S AH", "3S 4H", "AC"), "trumps:S")
    state = state.apply("5C")
    assert state.legal_actions() == ["2S"]
    state = state.apply("2S")
    assert state.legal_actions() == ["3S"]
    with pytest.raises(IllegalAction, match="win the trick with a trump"):
        state.apply("4H")


def test_trumps_a_player_who_cannot_win_plays_any_card():
    state = arranged(("5C", "9S AH", "3S 4H", "AC"), "trumps:S")
    state = play(state, "5C 9S")
    assert set(state.legal_actions()) == {"3S", "4H"}


def test_trumps_following_a_plain_suit_comes_before_trumping():
    state = arranged(("5C", "7C AS", "3S", "AC"), "trumps:S")
    state = state.apply("5C")
    assert state.legal_actions() == ["7C"]


def test_trumps_the_highest_trump_wins_the_trick():
    state = arranged(("5C 2D", "2S 3D", "AC 4D", "KC 5D"), "trumps:S")
    state = play(state, "5C 2S AC KC")
    assert state.points == [0, 5, 0, 0]
    assert state.current_player == 1


def test_king_of_hearts_must_be_discarded_with_the_option():
    hands = ("AS 2C", "KH 2H 3D", "3S", "4S")
    strict = arranged(hands, "barbu", discard_king=True).apply("AS")
    assert strict.legal_actions() == ["KH"]
    with pytest.raises(IllegalAction, match="king of hearts"):
        strict.apply("3D")
    relaxed = arranged(hands, "barbu").apply("AS")
    assert set(relaxed.legal_actions()) == {"KH", "2H", "3D"}


# --- Domino ---


def test_domino_opens_suits_with_the_starting_rank_and_builds_both_ways():
    state = arranged(("5S 6S", "4S 5H", "7S 3S", "KC 6H"), "domino:5")
    assert state.legal_actions() == ["5S"]
    state = state.apply("5S")
    assert set(state.legal_actions()) == {"4S", "5H"}
    with pytest.raises(IllegalAction, match="only when you cannot"):
        state.apply("pass")
    state = play(state, "4S")
    assert state.legal_actions() == ["3S"]
    state = play(state, "3S")
    assert state.legal_actions() == ["pass"]
    with pytest.raises(IllegalAction, match="starting rank"):
        state.apply("6H")


def test_domino_finishing_order_scores_and_the_deal_ends_with_three_out():
    state = arranged(("5S 6S", "4S 5H", "7S 3S", "KC 6H"), "domino:5")
    state = play(state, "5S 4S 3S pass 6S")
    assert state.finished == [0]
    assert state.current_player == 1
    state = play(state, "5H")
    assert state.current_player == 2
    state = play(state, "7S")
    assert state.deal_number == 1
    assert state.history[0]["raw"] == [45, 20, 5, -5]


def test_domino_skips_players_who_are_out():
    state = arranged(("5S", "4S 6S", "KD 3S", "QD 7S"), "domino:5")
    state = play(state, "5S 4S 3S pass")
    assert state.finished == [0]
    assert state.current_player == 1


# --- doubling ---


def test_doubling_runs_from_declarers_left_and_ends_with_declarer():
    state = arranged(ONE_SUIT_EACH).apply("notricks")
    assert state.current_player == 1
    state = state.apply("double:0")
    assert state.current_player == 2
    state = play(state, "pass pass")
    assert state.current_player == 0
    assert state.legal_actions() == ["pass", "double:1"]
    state = state.apply("double:1")
    assert state.phase == "play"
    assert state.doubles == {(1, 0), (0, 1)}


def test_declarer_is_skipped_when_nobody_doubled_him():
    state = play(arranged(ONE_SUIT_EACH).apply("noqueens"), "double:2 double:3 pass")
    assert state.phase == "play"
    assert state.current_player == 0


def test_declarer_may_only_redouble_players_who_doubled_him():
    state = play(arranged(ONE_SUIT_EACH).apply("nohearts"), "double:0 double:3 pass")
    with pytest.raises(IllegalAction, match="only redouble"):
        state.apply("double:2")
    assert state.doubling_choice().targets == (1,)


def test_in_negative_contracts_anyone_may_be_doubled_and_redoubled():
    state = arranged(ONE_SUIT_EACH).apply("barbu")
    assert "double:0,2,3" in state.legal_actions()
    state = state.apply("double:2")
    choice = state.doubling_choice()
    assert choice.targets == (0, 1, 3)
    assert choice.redoubles == (1,)
    assert choice.maximum == "double:0,1,3"
    with pytest.raises(IllegalAction):
        state.apply("double:2")


@pytest.mark.parametrize("contract", ["trumps:H", "domino:7"])
def test_in_positive_contracts_only_declarer_may_be_doubled(contract):
    state = arranged(ONE_SUIT_EACH).apply(contract)
    assert state.legal_actions() == ["pass", "double:0"]
    with pytest.raises(IllegalAction, match="only declarer"):
        state.apply("double:2")


def test_each_defender_must_double_declarer_twice_per_series():
    state = new_game(seed=21, series=1)
    declarer = state.declarer
    rng = random.Random(4)
    for _ in range(5):
        state = state.apply(state.legal_actions()[0])
        while state.phase == "doubling":
            assert "pass" in state.legal_actions()
            state = state.apply("pass")
        state = random_playout(state, rng, deals=1)
    state = state.apply(state.legal_actions()[0])
    choice = state.doubling_choice()
    assert (choice.required, choice.needed, choice.deals_left) == (declarer, 2, 2)
    assert choice.obligation_text() == (
        "You must double declarer in 2 of the remaining 2 deals of this series."
    )
    assert "pass" not in state.legal_actions()
    with pytest.raises(IllegalAction, match="must double declarer"):
        state.apply("pass")
    assert all(str(declarer) in action for action in state.legal_actions())


def test_an_early_double_relaxes_the_obligation():
    state = new_game(seed=22, series=1)
    declarer = state.declarer
    first, second = (declarer + 1) % 4, (declarer + 2) % 4
    rng = random.Random(5)
    for deal in range(5):
        state = state.apply(state.legal_actions()[0])
        while state.phase == "doubling":
            early_double = deal == 0 and state.current_player == first
            state = state.apply(f"double:{declarer}" if early_double else "pass")
        state = random_playout(state, rng, deals=1)
    assert state.declarer_doubled[first] == 1
    state = state.apply(state.legal_actions()[0])
    relaxed = state.doubling_choice()
    assert (relaxed.seat, relaxed.needed, relaxed.required) == (first, 1, None)
    state = state.apply("pass")
    assert state.doubling_choice().seat == second
    assert state.doubling_choice().required == declarer


def test_redoubled_pair_settles_twice_in_the_deal_score():
    state = arranged(ONE_SUIT_EACH).apply("noqueens")
    state = play(state, "double:0 pass pass double:1 QS QH QC QD")
    assert state.history[0]["raw"] == [-24, 0, 0, 0]
    assert state.history[0]["scores"] == [-72, 48, 0, 0]
    assert state.totals == [-72, 48, 0, 0]


# --- contract choice ---


def test_declarer_chooses_among_remaining_contracts_only():
    state = arranged(ONE_SUIT_EACH)
    choices = state.contract_choices()
    assert list(choices) == list(CONTRACTS)
    assert choices["trumps"] == ["trumps:S", "trumps:H", "trumps:C", "trumps:D"]
    assert len(choices["domino"]) == 13
    state = play(state, "noqueens pass pass pass QS QH QC QD")
    assert "noqueens" not in state.contract_choices()
    with pytest.raises(IllegalAction, match="already been played"):
        state.apply("noqueens")
    with pytest.raises(IllegalAction):
        state.apply("trumps:X")


# --- views, hidden information, serialisation ---


def test_views_show_only_the_own_hand():
    state = new_game(seed=8)
    public = json.dumps(state.view(None))
    assert CARD_TOKEN.findall(public) == []
    for seat in range(4):
        private = state.view(seat)
        own = set(private["hand"])
        assert len(own) == 13
        assert set(CARD_TOKEN.findall(json.dumps(private))) == own


def test_only_the_seat_to_act_sees_its_legal_moves():
    state = new_game(seed=8)
    declarer = state.declarer
    assert state.view(declarer)["legal"] == state.legal_actions()
    assert state.view((declarer + 1) % 4)["legal"] == []
    assert state.view(None)["legal"] == []


def test_round_trip_and_replay_reproduce_the_game():
    rng = random.Random(9)
    state = new_game(seed=77, series=1)
    log = []
    while state.deal_number < 2:
        action = rng.choice(state.legal_actions())
        log.append(action)
        state = state.apply(action)
        copy = SPEC.from_dict(json.loads(json.dumps(state.to_dict())))
        assert copy.to_dict() == state.to_dict()
    replayed = new_game(seed=77, series=1)
    for action in log:
        replayed = replayed.apply(action)
    assert replayed.to_dict() == state.to_dict()


def test_apply_leaves_the_old_state_unchanged():
    state = arranged(ONE_SUIT_EACH, "notricks")
    before = state.to_dict()
    state.apply("AS")
    assert state.to_dict() == before


def test_describe_names_the_move():
    state = arranged(ONE_SUIT_EACH)
    names = ["Ann", "Bo", "Cy", "Di"]
    assert state.describe("trumps:H", names) == "Ann chooses Trumps with hearts."
    state = state.apply("noqueens").apply("double:2")
    assert state.describe("double:0,1", names) == "Cy doubles Ann and redoubles Bo."
    state = play(state, "double:0,1 pass pass")
    assert state.describe("QS") == "Seat 1 plays the queen of spades."


def test_bad_options_are_refused():
    with pytest.raises(IllegalAction):
        new_game(players=3)
    with pytest.raises(IllegalAction):
        new_game(series=5)
    assert [option.name for option in SPEC.options] == [
        "french",
        "series",
        "discard_king",
        "autoplay",
    ]


def test_autoplay_is_on_by_default_and_kept_by_saved_games():
    assert new_game(seed=3).autoplay
    assert not barbu.from_dict(new_game(seed=3, autoplay=False).to_dict()).autoplay
    saved_before_the_option = new_game(seed=3).to_dict()
    del saved_before_the_option["autoplay"]
    assert barbu.from_dict(saved_before_the_option).autoplay


def test_only_a_single_legal_card_or_the_forced_pass_is_forced():
    state = new_game(seed=3)
    assert state.forced_play() is None, "choosing a contract is never forced"
    while not state.is_over and state.deal_number < 2:
        legal = state.legal_actions()
        forced = state.forced_play()
        assert forced == (legal[0] if state.phase == "play" and len(legal) == 1 else None)
        state = state.apply(legal[-1])


@given(seed=st.integers(0, 10_000))
@settings(max_examples=10, deadline=None)
def test_cards_are_conserved_during_random_play(seed):
    rng = random.Random(seed)
    state = new_game(seed=seed, series=1)
    while state.deal_number < 3:
        in_hands = sum(len(hand) for hand in state.hands)
        if state.contract == "domino":
            laid = sum(1 for _, card in state.domino_moves if card is not None)
            assert in_hands + laid == 52
        else:
            assert in_hands + 4 * len(state.tricks) + len(state.trick) == 52
        state = state.apply(rng.choice(state.legal_actions()))


def test_the_doubling_panel_in_the_view_states_the_obligation():
    data = new_game(seed=23, series=1).to_dict()
    data["deal_number"] = 6
    data["remaining"] = ["barbu"]
    data["declarer_doubled"] = [1, 1, 1, 1]
    state = SPEC.from_dict(data).apply("barbu")
    seat = state.current_player
    panel = state.view(seat)["doubling"]
    assert panel["required"] == state.declarer
    assert panel["maximum"] == "double:" + ",".join(str(s) for s in range(4) if s != seat)
    assert panel["obligation"] == ("You must double declarer in this deal, the last of the series.")
    assert state.view(None)["doubling"] is None


@given(
    steps=st.integers(0, 60),
    junk=st.one_of(
        st.text(max_size=12),
        st.sampled_from(["double:", "double:9", "double:1,1", "trumps:", "domino:1", "AS,", "10H"]),
    ),
)
@settings(max_examples=80, deadline=None)
def test_junk_input_is_refused_with_a_sentence(steps, junk):
    rng = random.Random(steps)
    state = new_game(seed=steps)
    for _ in range(steps):
        state = state.apply(rng.choice(state.legal_actions()))
    state.describe(junk)
    try:
        state.apply(junk)
    except IllegalAction as refusal:
        assert str(refusal).endswith(".")
