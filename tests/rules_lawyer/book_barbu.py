"""Barbu written again from the rule book, slowly and literally, to check the engine.

Cards are strings like ``"TD"``; seats 0..3 clockwise (seat + 1 is a player's left).
Card play in the Trumps contract is not re-implemented here (only who wins a trick).
Nothing here is shared with ``games.barbu``.
"""

from __future__ import annotations

from itertools import combinations

RANKS = "23456789TJQKA"
SUITS = "SHCD"
NEGATIVE = ("notricks", "noqueens", "nolasttwo", "nohearts", "barbu")
CONTRACTS = (*NEGATIVE, "trumps", "domino")
CONTRACT_TOTALS = {
    "notricks": -26,
    "noqueens": -24,
    "nolasttwo": -30,
    "nohearts": -30,
    "barbu": -20,
    "trumps": 65,
    "domino": 65,
}
DOMINO_PRIZES = (45, 20, 5, -5)
DEALS_PER_SERIES = 7
DOUBLES_OWED = 2


def rank(card: str) -> int:
    return RANKS.index(card[0])


def suit(card: str) -> str:
    return card[1]


def contract_actions(remaining: list[str]) -> set[str]:
    actions = set()
    for contract in remaining:
        if contract == "trumps":
            actions |= {f"trumps:{s}" for s in SUITS}
        elif contract == "domino":
            actions |= {f"domino:{r}" for r in RANKS}
        else:
            actions.add(contract)
    return actions


def doubling_targets(
    seat: int, declarer: int, positive: bool, doubles: set[tuple[int, int]]
) -> set[int]:
    """The seats ``seat`` may double (or redouble) on his one chance."""
    if seat == declarer:
        return {doubler for doubler, doubled in doubles if doubled == declarer}
    if positive:
        return {declarer}
    return {other for other in range(4) if other != seat}


def doubling_decisions(
    seat: int,
    declarer: int,
    positive: bool,
    doubles: set[tuple[int, int]],
    declarer_doubles_so_far: int,
    deals_left_after_this: int,
) -> set[frozenset[int]]:
    """Every allowed decision as the set of doubled seats (empty = pass)."""
    targets = sorted(doubling_targets(seat, declarer, positive, doubles))
    decisions = {
        frozenset(chosen)
        for size in range(len(targets) + 1)
        for chosen in combinations(targets, size)
    }
    owed = DOUBLES_OWED - declarer_doubles_so_far
    if seat != declarer and owed > deals_left_after_this:
        decisions = {d for d in decisions if declarer in d}
    return decisions


def parse_decision(action: str) -> frozenset[int]:
    if action == "pass":
        return frozenset()
    return frozenset(int(s) for s in action.removeprefix("double:").split(","))


def settle(raw: list[int], doubles: set[tuple[int, int]]) -> list[int]:
    scores = list(raw)
    for one, two in combinations(range(4), 2):
        times = ((one, two) in doubles and 1) or 0
        times += ((two, one) in doubles and 1) or 0
        if times == 0:
            continue
        # a redouble pays twice the difference
        payment = times * abs(raw[one] - raw[two])
        better, worse = (one, two) if raw[one] > raw[two] else (two, one)
        scores[better] += payment
        scores[worse] -= payment
    return scores


def legal_trick_cards(
    contract: str, hand: list[str], trick: list[str], discard_king: bool
) -> set[str]:
    """Cards a player may play to a trick in a negative contract."""
    if not trick:
        if contract in ("nohearts", "barbu") and any(suit(c) != "H" for c in hand):
            return {c for c in hand if suit(c) != "H"}
        return set(hand)
    followers = {c for c in hand if suit(c) == suit(trick[0])}
    if followers:
        return followers
    if contract == "barbu" and discard_king and "KH" in hand:
        return {"KH"}
    return set(hand)


def trick_winner(trick: list[str], trump: str | None) -> int:
    """Index in ``trick`` (leader first) of the card that wins it."""
    trumps = [i for i, c in enumerate(trick) if trump is not None and suit(c) == trump]
    candidates = trumps or [i for i, c in enumerate(trick) if suit(c) == suit(trick[0])]
    return max(candidates, key=lambda i: rank(trick[i]))


def trick_penalty(contract: str, trick: list[str], number: int) -> int:
    """Contract points for whoever takes ``trick``, the ``number``-th (1-based)."""
    if contract == "notricks":
        return -2
    if contract == "noqueens":
        return -6 * sum(1 for c in trick if c[0] == "Q")
    if contract == "nolasttwo":
        return {12: -10, 13: -20}.get(number, 0)
    if contract == "nohearts":
        return sum(-6 if c == "AH" else -2 for c in trick if suit(c) == "H")
    if contract == "barbu":
        return -20 if "KH" in trick else 0
    return 5


def deal_over_after_trick(contract: str, taken: list[str], number: int) -> bool:
    if contract == "noqueens":
        return sum(1 for c in taken if c[0] == "Q") == 4
    if contract == "barbu":
        return "KH" in taken
    return number == 13


class DominoLayout:
    def __init__(self, start: str) -> None:
        self.start = start
        self.laid: dict[str, list[int]] = {}  # suit -> [lowest, highest] rank index

    def playable(self, hand: list[str]) -> set[str]:
        cards = set()
        for card in hand:
            span = self.laid.get(suit(card))
            if span is None:
                if card[0] == self.start:
                    cards.add(card)
            elif rank(card) in (span[0] - 1, span[1] + 1):
                cards.add(card)
        return cards

    def lay(self, card: str) -> None:
        span = self.laid.setdefault(suit(card), [rank(card), rank(card)])
        span[0] = min(span[0], rank(card))
        span[1] = max(span[1], rank(card))
