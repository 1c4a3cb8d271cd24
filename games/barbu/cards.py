"""Barbu's cards and pure rules: card names, the contracts, scoring with doubles
(``settle``), which card may go to a trick and who wins it, and the Domino layout.

Seats are 0..3 clockwise, so a seat's left-hand neighbour is ``seat + 1`` and play moves
to the left. Cards are integers ``suit * 13 + rank`` inside the engine (ranks 0..12 for
2..A, so two cards of one suit compare by rank) and strings such as ``"TD"`` outside it.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

from games.base import N_, IllegalAction

SUITS = "SHCD"
RANKS = "23456789TJQKA"
SUIT_NAMES = ("spades", "hearts", "clubs", "diamonds")
SUIT_SYMBOLS = "♠♥♣♦"
# fmt: off
RANK_NAMES = (
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "jack", "queen", "king", "ace",
)
# fmt: on
RANK_PLURALS = tuple(name + ("es" if name == "six" else "s") for name in RANK_NAMES)
HEARTS = 1
QUEEN, KING, ACE = 10, 11, 12
KING_OF_HEARTS = HEARTS * 13 + KING
ACE_OF_HEARTS = HEARTS * 13 + ACE

CONTRACTS = ("notricks", "noqueens", "nolasttwo", "nohearts", "barbu", "trumps", "domino")
POSITIVE_CONTRACTS = frozenset({"trumps", "domino"})
NAMED_CONTRACTS = frozenset({"trumps", "domino"})
"""The contracts whose declarer names something: the trump suit, Domino's starting rank."""
HEART_LEAD_CONTRACTS = frozenset({"nohearts", "barbu"})
CONTRACT_TITLES = {
    "notricks": "No Tricks",
    "noqueens": "No Queens",
    "nolasttwo": "No Last Two",
    "nohearts": "No Hearts",
    "barbu": "Barbu",
    "trumps": "Trumps",
    "domino": "Domino",
}
DEALS_PER_SERIES = 7
DOUBLES_OWED_PER_SERIES = 2
DOMINO_PRIZES = (45, 20, 5, -5)
TRICKS_PER_DEAL = 13
PASS = "pass"

Card = int


def card_name(card: Card) -> str:
    return RANKS[card % 13] + SUITS[card // 13]


def card_words(card: Card) -> str:
    return f"{RANK_NAMES[card % 13]} of {SUIT_NAMES[card // 13]}"


def parse_card(text: str) -> Card:
    text = text.strip().upper()
    if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
        raise IllegalAction(
            N_("'{text}' is not a card; write cards like AS, KH, TD or 2C."), text=text
        )
    return SUITS.index(text[1]) * 13 + RANKS.index(text[0])


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """Suit by suit in ♠♥♣♦ order (alternating colours), high cards first."""
    return sorted(cards, key=lambda card: (card // 13, -(card % 13)))


def contract_label(contract: str, trump: int | None = None, start_rank: int | None = None) -> str:
    """A player-facing name such as ``Trumps (hearts)`` or ``Domino from the fives``."""
    if contract == "trumps" and trump is not None:
        return f"Trumps ({SUIT_NAMES[trump]})"
    if contract == "domino" and start_rank is not None:
        return f"Domino from the {RANK_PLURALS[start_rank]}"
    return CONTRACT_TITLES[contract]


def settle(raw: Sequence[int], doubles: Iterable[tuple[int, int]]) -> list[int]:
    """Deal scores from contract scores and doubles (a set of (doubler, doubled) seat pairs).

    For each pair of seats, a double in one direction moves the difference of their raw
    scores from the worse to the better player; doubles in both directions (a redouble)
    move twice that difference.
    """
    pairs = set(doubles)
    scores = list(raw)
    for low, high in itertools.combinations(range(len(raw)), 2):
        factor = ((low, high) in pairs) + ((high, low) in pairs)
        difference = raw[low] - raw[high]
        scores[low] += factor * difference
        scores[high] -= factor * difference
    return scores


# --- Rules as pure functions, shared by the engine and the computer player's rollouts ---


def legal_trick_cards(
    hand: Sequence[Card],
    trick: Sequence[Card],
    contract: str,
    trump: int | None,
    discard_king: bool,
) -> list[Card]:
    """The cards of ``hand`` that may go to ``trick`` (cards so far, leader first)."""
    if not trick:
        if contract in HEART_LEAD_CONTRACTS:
            non_hearts = [card for card in hand if card // 13 != HEARTS]
            if non_hearts:
                return non_hearts
        return list(hand)
    led_suit = trick[0] // 13
    following = [card for card in hand if card // 13 == led_suit]
    if following:
        if contract == "trumps" and led_suit == trump:
            # Discards of other suits sort above or below the trumps by suit number;
            # only the trumps already in the trick set the bar.
            best_trump = max(card for card in trick if card // 13 == trump)
            higher = [card for card in following if card > best_trump]
            return higher or following
        return following
    if discard_king and contract == "barbu" and KING_OF_HEARTS in hand:
        return [KING_OF_HEARTS]
    if contract == "trumps":
        best_trump = max((card for card in trick if card // 13 == trump), default=-1)
        winning_trumps = [card for card in hand if card // 13 == trump and card > best_trump]
        if winning_trumps:
            return winning_trumps
    return list(hand)


def trick_winner(trick: Sequence[Card], trump: int | None) -> int:
    """Index in ``trick`` of the winning card."""
    best = 0
    for index in range(1, len(trick)):
        card, leader = trick[index], trick[best]
        same_suit = card // 13 == leader // 13
        if (same_suit and card > leader) or (
            trump is not None and card // 13 == trump and leader // 13 != trump
        ):
            best = index
    return best


def trick_points(contract: str, trick: Sequence[Card], trick_number: int) -> int:
    """What the winner of trick ``trick_number`` (1..13) scores in ``contract``."""
    if contract == "notricks":
        return -2
    if contract == "noqueens":
        return -6 * sum(1 for card in trick if card % 13 == QUEEN)
    if contract == "nolasttwo":
        return {12: -10, 13: -20}.get(trick_number, 0)
    if contract == "nohearts":
        return sum(-6 if card == ACE_OF_HEARTS else -2 for card in trick if card // 13 == HEARTS)
    if contract == "barbu":
        return -20 if KING_OF_HEARTS in trick else 0
    return 5


def is_penalty_card(contract: str, card: Card) -> bool:
    """Cards a taker keeps face up because they cost him points in ``contract``."""
    if contract == "noqueens":
        return card % 13 == QUEEN
    if contract == "nohearts":
        return card // 13 == HEARTS
    if contract == "barbu":
        return card == KING_OF_HEARTS
    return False


def trick_ends_deal(contract: str, trick: Sequence[Card], queens_taken: int, tricks: int) -> bool:
    """Whether the deal stops after this trick (``queens_taken`` counts this trick)."""
    if tricks == TRICKS_PER_DEAL:
        return True
    if contract == "noqueens":
        return queens_taken == 4
    return contract == "barbu" and KING_OF_HEARTS in trick


DominoRows = list[tuple[int, int] | None]


def domino_playable(hand: Sequence[Card], rows: DominoRows, start_rank: int) -> list[Card]:
    """Cards that may be laid: a starting-rank card, or one next to an opened suit's ends."""
    playable = []
    for card in hand:
        suit, rank = divmod(card, 13)
        row = rows[suit]
        if (row is None and rank == start_rank) or (
            row is not None and rank in (row[0] - 1, row[1] + 1)
        ):
            playable.append(card)
    return playable


def domino_lay(rows: DominoRows, card: Card) -> None:
    suit, rank = divmod(card, 13)
    row = rows[suit]
    rows[suit] = (rank, rank) if row is None else (min(row[0], rank), max(row[1], rank))


def next_unfinished(seat: int, finished: Sequence[int]) -> int:
    seat = (seat + 1) % 4
    while seat in finished:
        seat = (seat + 1) % 4
    return seat
