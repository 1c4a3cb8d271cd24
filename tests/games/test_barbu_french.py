"""Barbu's simple French form (option ``french``): each declarer's seven deals follow the
fixed order No Tricks, No Queens, No Last Two, No Hearts, Barbu, Trumps, Domino; declarer
still names the trump suit and Domino's starting rank; there is no doubling round. A
modern game keeps the state, view and snapshot it always had.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import LEVELS, IllegalAction
from games.barbu import RANKS, SPEC, SUITS, BarbuState, bot_action, from_dict, new_game

FIXED_ORDER = ("notricks", "noqueens", "nolasttwo", "nohearts", "barbu", "trumps", "domino")
"""The French order, written from the rule book (not the engine's list)."""
EVERY_CONTRACT_ACTION = [
    "notricks",
    "noqueens",
    "nolasttwo",
    "nohearts",
    "barbu",
    *(f"trumps:{suit}" for suit in SUITS),
    *(f"domino:{rank}" for rank in RANKS),
]


def due_contract(state: BarbuState) -> str:
    """The contract the fixed order gives the deal being played."""
    return FIXED_ORDER[state.deal_number % 7]


def check_french_position(state: BarbuState) -> None:
    """Nothing out of order and nothing to double, in any position of a French game."""
    legal = state.legal_actions()
    assert state.phase in ("contract", "play")
    assert state.doubling_choice() is None
    assert not any(action.startswith("double:") for action in legal)
    if state.phase == "contract":
        assert due_contract(state) in ("trumps", "domino"), "only a suit or rank is named"
        assert {action.partition(":")[0] for action in legal} == {due_contract(state)}
        assert state.current_player == state.declarer
    else:
        assert state.contract == due_contract(state)
        assert "pass" not in legal or (state.contract == "domino" and legal == ["pass"])


@given(seed=st.integers(0, 10_000), series=st.integers(1, 2))
@settings(max_examples=12, deadline=None)
def test_random_play_follows_the_fixed_order_and_never_doubles(seed, series):
    rng = random.Random(seed)
    state = new_game(seed=seed, series=series, french=True)
    first_declarer = state.declarer
    while not state.is_over:
        check_french_position(state)
        state = state.apply(rng.choice(state.legal_actions()))
    assert len(state.history) == 7 * series
    for number, deal in enumerate(state.history):
        assert deal["contract"].partition(":")[0] == FIXED_ORDER[number % 7]
        assert deal["declarer"] == (first_declarer + number // 7) % 4
        assert deal["doubles"] == [] and deal["scores"] == deal["raw"]
    for start in range(0, len(state.history), 7):
        series_scores = [sum(deal["scores"]) for deal in state.history[start : start + 7]]
        assert sum(series_scores) == 0, "a series sums to zero over the four players"
    assert sum(state.totals) == 0


def test_the_first_deal_is_no_tricks_with_declarer_to_lead():
    state = new_game(seed=8, french=True)
    assert (state.phase, state.contract) == ("play", "notricks")
    assert state.current_player == state.declarer == state.leader
    assert state.contract_choices() == {}


def at_contract(seed: int, contract: str) -> BarbuState:
    """A French game played at random up to declarer naming ``contract``'s suit or rank."""
    rng = random.Random(seed)
    state = new_game(seed=seed, series=1, french=True)
    while not (state.phase == "contract" and due_contract(state) == contract):
        state = state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("contract", ["trumps", "domino"])
def test_declarer_may_name_only_the_due_contracts_suit_or_rank(contract):
    state = at_contract(5, contract)
    legal = set(state.legal_actions())
    for action in EVERY_CONTRACT_ACTION:
        if action in legal:
            assert state.apply(action).phase == "play", "play starts at once, no doubling"
        else:
            with pytest.raises(IllegalAction):
                state.apply(action)
    assert legal == {action for action in EVERY_CONTRACT_ACTION if action.startswith(contract)}


def test_a_contract_out_of_order_is_refused_with_the_order():
    state = at_contract(6, "trumps")
    with pytest.raises(IllegalAction, match="fixed order: this deal is trumps"):
        state.apply("domino:5")
    with pytest.raises(IllegalAction, match="already been played"):
        state.apply("notricks")
    with pytest.raises(IllegalAction):
        state.apply("pass")


def test_the_form_is_kept_by_saves_and_only_written_when_on():
    french = at_contract(7, "domino")
    assert french.to_dict()["french"] is True
    assert from_dict(french.to_dict()).to_dict() == french.to_dict()
    assert from_dict(french.to_dict()).legal_actions() == french.legal_actions()
    assert french.view(None)["french"] is True
    modern = new_game(seed=7)
    assert "french" not in modern.to_dict(), "a modern game saves as it always did"
    assert "french" not in modern.view(None), "and shows (and digests) as it always did"
    assert modern.phase == "contract" and len(modern.contract_choices()) == 7


def test_the_option_is_off_by_default():
    option = next(option for option in SPEC.options if option.name == "french")
    assert option.default is False
    assert new_game(seed=1).french is False


@pytest.mark.parametrize("level", LEVELS)
def test_computers_at_every_level_play_a_french_series(level):
    """The measured level takes seat 0 and easy the others; every decision must be legal in
    the French form (``apply`` refuses any other), so none of them waits for a doubling
    round or picks a contract out of order."""
    state = new_game(seed=11, series=1, french=True)
    decisions = 0
    while not state.is_over:
        check_french_position(state)
        chosen = level if state.current_player == 0 else "easy"
        action = bot_action(state, seed=decisions, level=chosen)
        assert action in state.legal_actions()
        state = state.apply(action)
        decisions += 1
    assert [deal["contract"].partition(":")[0] for deal in state.history] == list(FIXED_ORDER)
