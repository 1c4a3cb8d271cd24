"""Barbu engine against the rule book re-implementation (docs/rules/barbu.md).

The test follows the deals the engine shuffles and checks everything else on its own:
contract choice, who may double or redouble whom, the doubling obligation, card play in
every contract but Trumps (another test owns the Trumps overtrump rule), Domino, each
contract's points, the settlement of doubles, series and the end of the game.
"""

from __future__ import annotations

import random
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st
from rules_lawyer import book_barbu as book

from games import GAMES, IllegalAction
from games.barbu import settle


def decision_action(decision: frozenset[int]) -> str:
    return "double:" + ",".join(str(s) for s in sorted(decision)) if decision else "pass"


def check_refusals(state, allowed: set[frozenset[int]], seat: int) -> None:
    others = [s for s in range(4) if s != seat]
    every = {frozenset(c) for size in range(4) for c in combinations(others, size)}
    for decision in sorted(every - allowed, key=sorted):
        try:
            state.apply(decision_action(decision))
        except IllegalAction:
            continue
        raise AssertionError(f"seat {seat} was allowed {decision_action(decision)}")


def check_card_refused(state, unplayable: list[str], chooser: random.Random) -> None:
    if unplayable:
        card = chooser.choice(unplayable)
        try:
            state.apply(card)
        except IllegalAction:
            return
        raise AssertionError(f"{card} was accepted")


class Game:
    """The rule book's bookkeeping of a whole game, fed with the engine's deals."""

    def __init__(self, series: int, discard_king: bool, first_declarer: int) -> None:
        self.series = series
        self.discard_king = discard_king
        self.first_declarer = first_declarer
        self.deal_number = 0
        self.remaining = list(book.CONTRACTS)
        self.declarer_doubled = [0, 0, 0, 0]
        self.totals = [0, 0, 0, 0]

    @property
    def declarer(self) -> int:
        return (self.first_declarer + self.deal_number // book.DEALS_PER_SERIES) % 4

    @property
    def deals_left_in_series_after_this(self) -> int:
        return book.DEALS_PER_SERIES - 1 - self.deal_number % book.DEALS_PER_SERIES

    def finish_deal(self, contract: str, raw: list[int], doubles: set) -> list[int]:
        scores = book.settle(raw, doubles)
        self.totals = [t + s for t, s in zip(self.totals, scores, strict=True)]
        self.remaining.remove(contract)
        self.deal_number += 1
        if self.deal_number % book.DEALS_PER_SERIES == 0:
            self.remaining = list(book.CONTRACTS)
            self.declarer_doubled = [0, 0, 0, 0]
        return scores


def hands_of(state) -> list[list[str]]:
    hands = [list(state.view(seat)["hand"]) for seat in range(4)]
    assert all(len(hand) == 13 for hand in hands)
    deck = sorted(rank + suit for rank in book.RANKS for suit in book.SUITS)
    assert sorted(card for hand in hands for card in hand) == deck
    return hands


def choose_contract(state, game: Game, chooser: random.Random):
    public = state.view(None)
    assert public["phase"] == "contract"
    assert state.current_player == public["declarer"] == game.declarer
    assert public["dealer"] == (game.declarer + 3) % 4, "declarer's right deals"
    assert set(state.legal_actions()) == book.contract_actions(game.remaining)
    action = chooser.choice(sorted(book.contract_actions(game.remaining)))
    return state.apply(action), action


def doubling_round(state, game: Game, positive: bool, chooser: random.Random):
    doubles: set[tuple[int, int]] = set()
    declarer = game.declarer
    for seat in [(declarer + step) % 4 for step in (1, 2, 3, 4)]:
        allowed = book.doubling_decisions(
            seat,
            declarer,
            positive,
            doubles,
            game.declarer_doubled[seat],
            game.deals_left_in_series_after_this,
        )
        if allowed == {frozenset()} and state.view(None)["phase"] != "doubling":
            continue  # nothing to decide: a declarer nobody doubled is not asked
        assert state.current_player == seat
        offered = {book.parse_decision(a) for a in state.legal_actions()}
        assert offered == allowed, (seat, declarer, doubles)
        check_refusals(state, allowed, seat)
        decision = frozenset() if frozenset() in allowed and chooser.random() < 0.5 else None
        if decision is None:
            decision = chooser.choice(sorted(allowed, key=sorted))
        state = state.apply(decision_action(decision))
        doubles |= {(seat, target) for target in decision}
        if seat != declarer and declarer in decision:
            game.declarer_doubled[seat] += 1
    return state, doubles


def play_tricks(state, game: Game, contract: str, trump: str | None, chooser) -> tuple:
    hands = hands_of(state)
    leader, number, raw, taken = game.declarer, 0, [0, 0, 0, 0], []
    while True:
        trick: list[str] = []
        for offset in range(4):
            seat = (leader + offset) % 4
            assert state.current_player == seat
            legal = set(state.legal_actions())
            if contract != "trumps":
                assert legal == book.legal_trick_cards(
                    contract, hands[seat], trick, game.discard_king
                ), (contract, hands[seat], trick)
                check_card_refused(state, sorted(set(hands[seat]) - legal), chooser)
            card = chooser.choice(sorted(legal))
            state = state.apply(card)
            hands[seat].remove(card)
            trick.append(card)
        number += 1
        winner = (leader + book.trick_winner(trick, trump)) % 4
        raw[winner] += book.trick_penalty(contract, trick, number)
        taken += trick
        leader = winner
        if book.deal_over_after_trick(contract, taken, number):
            return state, raw


def play_domino(state, game: Game, start: str, chooser) -> tuple:
    hands = hands_of(state)
    layout = book.DominoLayout(start)
    out: list[int] = []
    seat = game.declarer
    while len(out) < 3:
        assert state.current_player == seat
        playable = layout.playable(hands[seat])
        assert set(state.legal_actions()) == (playable or {"pass"}), (hands[seat], layout.laid)
        check_card_refused(state, sorted(set(hands[seat]) - playable), chooser)
        if playable:
            card = chooser.choice(sorted(playable))
            state = state.apply(card)
            hands[seat].remove(card)
            layout.lay(card)
            if not hands[seat]:
                out.append(seat)
        else:
            state = state.apply("pass")
        seat = (seat + 1) % 4
        while seat in out and len(out) < 3:
            seat = (seat + 1) % 4
    raw = [0, 0, 0, 0]
    for place, finisher in enumerate(out):
        raw[finisher] = book.DOMINO_PRIZES[place]
    last = next(s for s in range(4) if s not in out)
    raw[last] = book.DOMINO_PRIZES[3]
    return state, raw


def play_random_game(seed: int, series: int, discard_king: bool) -> None:
    chooser = random.Random(seed)
    state = GAMES["barbu"].new_game(players=4, seed=seed, series=series, discard_king=discard_king)
    game = Game(series, discard_king, state.view(None)["declarer"])
    while game.deal_number < series * book.DEALS_PER_SERIES:
        assert not state.is_over
        state, action = choose_contract(state, game, chooser)
        contract, _, detail = action.partition(":")
        state, doubles = doubling_round(state, game, contract in ("trumps", "domino"), chooser)
        if contract == "domino":
            state, raw = play_domino(state, game, detail, chooser)
        else:
            state, raw = play_tricks(state, game, contract, detail or None, chooser)
        assert sum(raw) == book.CONTRACT_TOTALS[contract]
        scores = game.finish_deal(contract, raw, doubles)
        entry = state.view(None)["history"][-1]
        assert entry["raw"] == raw, (action, entry)
        assert {tuple(pair) for pair in entry["doubles"]} == doubles
        assert entry["scores"] == scores
        assert state.view(None)["totals"] == game.totals
    assert state.is_over
    assert state.returns() == [float(t) for t in game.totals]


def test_random_full_games_follow_the_rule_book() -> None:
    for seed in range(1, 4):
        play_random_game(seed, series=4, discard_king=False)


def test_random_short_games_with_the_king_discard_option() -> None:
    for seed in range(2, 5):
        play_random_game(seed, series=1, discard_king=True)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(-100, 100), min_size=4, max_size=4),
    st.sets(st.tuples(st.integers(0, 3), st.integers(0, 3)).filter(lambda p: p[0] != p[1])),
)
def test_settle_pays_the_difference_once_per_double_twice_per_redouble(raw, doubles) -> None:
    assert settle(raw, doubles) == book.settle(raw, doubles)
    assert sum(settle(raw, doubles)) == sum(raw)
