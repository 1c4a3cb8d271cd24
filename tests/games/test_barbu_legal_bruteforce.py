"""An independent check of Barbu's card play (docs/rules/barbu.md) on random deals.

The rules below are written again from the rule book, card by card, without the
engine's helpers: for every position reached by random play in each of the seven
contracts, the cards the engine offers must be exactly the cards these rules allow, and
``apply`` must accept exactly those. In the simple French form the same holds for the
contract decision: only the suit or rank of the contract the fixed order gives the deal.
"""

from __future__ import annotations

import random

import pytest

from games.barbu import CONTRACTS, RANKS, SPEC, SUITS, BarbuState, IllegalAction, new_game

HEARTS = SUITS.index("H")
KING_OF_HEARTS = HEARTS * 13 + RANKS.index("K")
CONTRACT_ACTIONS = {
    "notricks": ["notricks"],
    "noqueens": ["noqueens"],
    "nolasttwo": ["nolasttwo"],
    "nohearts": ["nohearts"],
    "barbu": ["barbu"],
    "trumps": [f"trumps:{suit}" for suit in SUITS],
    "domino": [f"domino:{rank}" for rank in RANKS],
}


def suit(card: int) -> int:
    return card // 13


def rank(card: int) -> int:
    return card % 13


def may_play_to_trick(state: BarbuState, hand: list[int], card: int) -> bool:
    trick, contract, trump = state.trick, state.contract, state.trump
    if not trick:
        if contract in ("nohearts", "barbu") and suit(card) == HEARTS:
            return all(suit(other) == HEARTS for other in hand)
        return True
    led = suit(trick[0])
    can_follow = any(suit(other) == led for other in hand)
    if can_follow:
        if suit(card) != led:
            return False
        if contract == "trumps" and led == trump:
            trumps_in_trick = [rank(c) for c in trick if suit(c) == trump]
            can_beat = any(
                suit(other) == trump and rank(other) > max(trumps_in_trick) for other in hand
            )
            return rank(card) > max(trumps_in_trick) or not can_beat
        return True
    if contract == "barbu" and state.discard_king and KING_OF_HEARTS in hand:
        return card == KING_OF_HEARTS
    if contract == "trumps":
        trumps_in_trick = [rank(c) for c in trick if suit(c) == trump]
        bar = max(trumps_in_trick, default=-1)
        winning = [o for o in hand if suit(o) == trump and rank(o) > bar]
        if winning:
            return card in winning
    return True


def may_lay_domino(state: BarbuState, card: int) -> bool:
    laid = [played for _, played in state.domino_moves if played is not None]
    if rank(card) == state.start_rank:
        return True
    same_suit = [rank(played) for played in laid if suit(played) == suit(card)]
    if not same_suit:
        return False
    return rank(card) in (max(same_suit) + 1, min(same_suit) - 1)


def allowed_cards(state: BarbuState) -> set[str]:
    seat = state.current_player
    assert seat is not None
    hand = state.hands[seat]
    if state.contract == "domino":
        cards = {c for c in hand if may_lay_domino(state, c)}
        return {RANKS[rank(c)] + SUITS[suit(c)] for c in cards} or {"pass"}
    return {RANKS[rank(c)] + SUITS[suit(c)] for c in hand if may_play_to_trick(state, hand, c)}


def deal_in(contract: str, seed: int, discard_king: bool) -> BarbuState:
    rng = random.Random(seed)
    state = new_game(seed=seed, discard_king=discard_king)
    state = state.apply(rng.choice(CONTRACT_ACTIONS[contract]))
    while state.phase == "doubling":
        state = state.apply(rng.choice(state.legal_actions()))
    return state


def check_card(state: BarbuState, rng: random.Random) -> BarbuState:
    """The engine offers and accepts exactly the allowed cards; one of them played."""
    expected = allowed_cards(state)
    assert set(state.legal_actions()) == expected, (state.contract, state.trick)
    seat = state.current_player
    assert seat is not None
    for card in state.hands[seat]:
        name = RANKS[rank(card)] + SUITS[suit(card)]
        if name in expected:
            state.apply(name)
        else:
            with pytest.raises(IllegalAction):
                state.apply(name)
    return state.apply(rng.choice(sorted(expected)))


def check_deal(state: BarbuState, rng: random.Random) -> int:
    deal = state.deal_number
    checked = 0
    while state.phase == "play" and state.deal_number == deal:
        state = check_card(state, rng)
        checked += 1
    return checked


@pytest.mark.parametrize("contract", CONTRACTS)
def test_legal_cards_match_the_rule_book_on_random_deals(contract):
    checked = 0
    for seed in range(30):
        state = deal_in(contract, seed, discard_king=seed % 2 == 1)
        checked += check_deal(state, random.Random(seed))
    assert checked > 30 * 10


FRENCH_ORDER = ("notricks", "noqueens", "nolasttwo", "nohearts", "barbu", "trumps", "domino")


def french_contract_actions(state: BarbuState) -> set[str]:
    """What declarer may decide in the French form: the suit or rank of the contract the
    fixed order gives this deal of his series (nothing for a negative contract)."""
    due = FRENCH_ORDER[state.deal_number % 7]
    return set(CONTRACT_ACTIONS[due]) if due in ("trumps", "domino") else set()


def test_french_decisions_match_the_rule_book_on_random_games():
    every_contract_action = [action for group in CONTRACT_ACTIONS.values() for action in group]
    cards = contracts = 0
    for seed in range(8):
        rng = random.Random(seed)
        state = new_game(seed=seed, series=1, french=True, discard_king=seed % 2 == 1)
        while not state.is_over:
            assert state.phase in ("contract", "play"), "the French form has no doubling round"
            if state.phase == "play":
                assert state.contract == FRENCH_ORDER[state.deal_number % 7]
                state = check_card(state, rng)
                cards += 1
                continue
            expected = french_contract_actions(state)
            assert expected and set(state.legal_actions()) == expected
            for action in every_contract_action:
                if action in expected:
                    assert state.apply(action).phase == "play"
                else:
                    with pytest.raises(IllegalAction):
                        state.apply(action)
            state = state.apply(rng.choice(sorted(expected)))
            contracts += 1
    assert contracts == 8 * 2 and cards > 8 * 7 * 20


def test_a_trump_led_needs_a_higher_trump_even_after_a_discard_of_a_later_suit():
    data = new_game(seed=3).to_dict()
    data["first_declarer"] = 0
    spades = [SUITS.index("S") * 13 + r for r in range(13)]
    hearts = [HEARTS * 13 + r for r in range(13)]
    clubs = [SUITS.index("C") * 13 + r for r in range(13)]
    diamonds = [SUITS.index("D") * 13 + r for r in range(13)]
    # Seat 0 leads spades (trump); seat 1 has no spades and discards a diamond, which
    # sorts after every spade; seat 2 holds a spade higher than the lead and must play it.
    data["hands"] = [
        spades[:5] + clubs[:8],
        hearts[:8] + diamonds[:5],
        spades[5:] + hearts[8:],
        clubs[8:] + diamonds[5:],
    ]
    state = SPEC.from_dict(data).apply("trumps:S")
    while state.phase == "doubling":
        state = state.apply("pass")
    state = state.apply("6S").apply("2D")
    assert state.legal_actions() == [RANKS[rank(c)] + "S" for c in sorted(spades[5:], reverse=True)]
    with pytest.raises(IllegalAction, match="higher trump"):
        state.apply("AH")
