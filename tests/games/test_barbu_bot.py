"""Barbu computer player: decides from its own view only, plays legal and sensible moves."""

from __future__ import annotations

import random

import pytest

from games import barbu
from games.barbu import SPEC, bot_action, new_game


@pytest.fixture
def quick_bot(monkeypatch):
    """Fewer playouts: these tests check decisions, not playing strength."""
    monkeypatch.setattr(barbu, "PLAY_PLAYOUTS", 24)
    monkeypatch.setattr(barbu, "CONTRACT_PLAYOUTS", 30)
    monkeypatch.setattr(barbu, "DOUBLING_PLAYOUTS", 12)


def swap_hidden_cards(state: barbu.BarbuState, seat: int) -> barbu.BarbuState:
    """The same position with one card exchanged between two other players' hands."""
    data = state.to_dict()
    first, second = [other for other in range(4) if other != seat][:2]
    hands = data["hands"]
    hands[first][0], hands[second][0] = hands[second][0], hands[first][0]
    return SPEC.from_dict(data)


def advance(state: barbu.BarbuState, rng: random.Random, steps: int) -> barbu.BarbuState:
    for _ in range(steps):
        state = state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("steps", [0, 2, 9, 23])
def test_decision_ignores_other_players_hidden_cards(quick_bot, steps):
    state = advance(new_game(seed=31), random.Random(steps), steps)
    seat = state.current_player
    twin = swap_hidden_cards(state, seat)
    assert twin.to_dict()["hands"] != state.to_dict()["hands"]
    assert twin.view(seat) == state.view(seat)
    assert bot_action(twin, seed=5) == bot_action(state, seed=5)


def test_domino_decision_ignores_other_players_hidden_cards(quick_bot):
    state = new_game(seed=32).apply("domino:8")
    state = advance(state, random.Random(1), 12)
    seat = state.current_player
    assert state.contract == "domino" and state.phase == "play"
    twin = swap_hidden_cards(state, seat)
    assert bot_action(twin, seed=2) == bot_action(state, seed=2)


def test_computer_meets_its_doubling_obligation(quick_bot):
    data = new_game(seed=33, series=1).to_dict()
    data["deal_number"] = 6
    data["remaining"] = ["trumps"]
    state = SPEC.from_dict(data).apply("trumps:S")
    declarer = state.declarer
    for _ in range(3):
        action = bot_action(state, seed=1)
        assert action == f"double:{declarer}"
        state = state.apply(action)


@pytest.mark.parametrize("seed", [1, 2])
def test_computer_players_finish_a_series_with_legal_moves(quick_bot, seed):
    state = new_game(seed=seed, series=1)
    while not state.is_over:
        action = bot_action(state, seed=seed)
        assert action in state.legal_actions()
        state = state.apply(action)
    assert sum(state.totals) == 0


def deal(hands: list[list[int]], **changes) -> barbu.BarbuState:
    """The first deal with seat 0 declaring and the given hands."""
    data = new_game(seed=34).to_dict()
    data |= {"first_declarer": 0, "hands": hands, **changes}
    return SPEC.from_dict(data)


def parse(text: str) -> list[int]:
    return [barbu.parse_card(card) for card in text.split()]


def test_defender_sheds_a_queen_on_a_trick_he_cannot_win(quick_bot):
    leader = parse("AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC 2S 3S")
    queens = parse("QS QH QD 2D 3D 4D 5D 6D 7D 8D 9D TD JD")
    rest = [card for card in range(52) if card not in leader + queens]
    state = deal([leader, queens, rest[:13], rest[13:]]).apply("noqueens")
    while state.phase == "doubling":
        state = state.apply("pass")
    state = state.apply("AC")
    assert bot_action(state, seed=3) in ("QS", "QH", "QD")


def test_declarer_picks_trumps_in_his_long_strong_suit(quick_bot):
    spades = parse("AS KS QS JS TS 9S 8S AH AD AC KH KD KC")
    rest = [card for card in range(52) if card not in spades]
    state = deal([spades, rest[:13], rest[13:26], rest[26:]], remaining=["trumps", "notricks"])
    assert bot_action(state, seed=4) == "trumps:S"
