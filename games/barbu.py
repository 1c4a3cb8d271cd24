"""Barbu: four players, seven contracts per declarer, doubling (docs/rules/barbu.md).

Seats are 0..3 clockwise, so a seat's left-hand neighbour is ``seat + 1`` and play moves
to the left. Cards are integers ``suit * 13 + rank`` inside the engine (ranks 0..12 for
2..A, so two cards of one suit compare by rank) and strings such as ``"TD"`` outside it.

One state holds the whole game: every deal of every declarer series, the doubling
obligations and the score sheet. Chance (the shuffle before each deal and the first
declarer) comes from the state's own ``Rng`` inside ``apply``.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from games.barbu_frames import barbu_frames
from games.base import (
    DEFAULT_LEVEL,
    N_,
    GameSpec,
    GameState,
    IllegalAction,
    Option,
    Rng,
    check_level,
)

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


class BarbuTrickCard(TypedDict):
    seat: int
    card: str


class BarbuTrick(TypedDict):
    leader: int
    cards: list[str]
    winner: int


class BarbuDeal(TypedDict):
    """One finished deal of the score sheet: ``raw`` contract scores, ``scores`` after
    the doubles (``[doubler, doubled]`` pairs)."""

    declarer: int
    contract: str  # the action that chose it, e.g. "trumps:H"
    raw: list[int]
    doubles: list[list[int]]
    scores: list[int]


class BarbuDoubling(TypedDict):
    """``DoublingChoice`` for the seat to act, as plain data."""

    targets: list[int]
    redoubles: list[int]
    required: int | None
    needed: int
    deals_left: int
    maximum: str
    may_pass: bool
    obligation: str | None


class BarbuDominoMove(TypedDict):
    seat: int
    card: str  # or "pass"


class BarbuDomino(TypedDict):
    """The Domino layout: per suit letter the lowest and highest rank laid (None: not
    opened), the seats out in order, and every lay or pass so far."""

    rows: dict[str, list[str] | None]
    finished: list[int]
    moves: list[BarbuDominoMove]


class BarbuView(TypedDict):
    """What ``BarbuState.view`` shows; see there for the meaning of the keys."""

    game: str
    seat: int | None
    phase: str
    deal: int
    total_deals: int
    series: int
    total_series: int
    discard_king: bool
    declarer: int
    dealer: int
    to_act: int | None
    remaining_contracts: list[str]
    contract: str | None
    contract_action: str | None
    contract_label: str | None
    trump: str | None
    start_rank: str | None
    doubles: list[list[int]]
    doubling_acted: list[int]
    declarer_doubled: list[int]
    hand_sizes: list[int]
    hand: list[str] | None
    legal: list[str]
    doubling: BarbuDoubling | None
    leader: int | None
    trick: list[BarbuTrickCard]
    tricks: list[BarbuTrick]
    tricks_won: list[int]
    penalty_cards: list[list[str]]
    deal_points: list[int]
    domino: BarbuDomino | None
    history: list[BarbuDeal]
    totals: list[int]


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


def _next_unfinished(seat: int, finished: Sequence[int]) -> int:
    seat = (seat + 1) % 4
    while seat in finished:
        seat = (seat + 1) % 4
    return seat


def _seat_word(seat: int, names: Sequence[str] | None) -> str:
    return names[seat] if names else f"Seat {seat + 1}"


def _must_double_now(choice: DoublingChoice) -> IllegalAction:
    if choice.deals_left == 1:
        return IllegalAction(
            N_("You must double declarer now: this is the series' last deal and you owe a double.")
        )
    return IllegalAction(
        N_(
            "You must double declarer now: you owe {needed} doubles of declarer and only"
            " {deals} deals are left."
        ),
        needed=choice.needed,
        deals=choice.deals_left,
    )


def parse_seats(text: str) -> list[int]:
    if not text.strip():
        raise IllegalAction(N_("Name at least one seat to double, or pass."))
    parts = [part.strip() for part in text.split(",")]
    if not all(len(part) == 1 and part in "0123" for part in parts):
        raise IllegalAction(N_("Write doubles as double:1,3 (the seats you double)."))
    seats = [int(part) for part in parts]
    if len(set(seats)) != len(seats):
        raise IllegalAction(N_("Name each seat you double only once."))
    return sorted(seats)


# --- The game state ---


@dataclass(frozen=True)
class DoublingChoice:
    """What the seat to act in the doubling round may do, for building its toggles.

    ``targets`` are the seats it may double (those in ``redoubles`` already doubled it, so
    doubling them is a redouble). If ``required`` is a seat, it must be among the doubled
    ones: the seat owes ``needed`` doubles of declarer in the ``deals_left`` deals of this
    series including this one.
    """

    seat: int
    declarer: int
    targets: tuple[int, ...]
    redoubles: tuple[int, ...]
    required: int | None
    needed: int
    deals_left: int

    @property
    def maximum(self) -> str:
        return self.action_for(self.targets)

    @property
    def may_pass(self) -> bool:
        return self.required is None

    def action_for(self, seats: Iterable[int]) -> str:
        """The action for doubling ``seats`` (``pass`` when empty)."""
        chosen = sorted(set(seats))
        return f"double:{','.join(map(str, chosen))}" if chosen else PASS

    def obligation_text(self) -> str | None:
        """E.g. "You must double declarer in 2 of the remaining 3 deals of this series."; one
        whole sentence for each grammatical number."""
        if self.seat == self.declarer or self.needed == 0:
            return None
        if self.deals_left == 1:
            return "You must double declarer in this deal, the last of the series."
        if self.needed == 1:
            return (
                "You must double declarer in one of the remaining "
                f"{self.deals_left} deals of this series."
            )
        return (
            f"You must double declarer in {self.needed} of the remaining {self.deals_left} "
            "deals of this series."
        )


class BarbuState(GameState):
    players = 4

    def __init__(self, rng: Rng, series: int, discard_king: bool, autoplay: bool = True) -> None:
        self.rng = rng
        self.series = series
        self.discard_king = discard_king
        self.autoplay = autoplay
        self.first_declarer = 0
        self.deal_number = 0
        self.remaining: list[str] = list(CONTRACTS)
        self.declarer_doubled = [0, 0, 0, 0]
        self.phase = "contract"
        self.hands: list[list[Card]] = [[], [], [], []]
        self.contract: str | None = None
        self.trump: int | None = None
        self.start_rank: int | None = None
        self.doubles: set[tuple[int, int]] = set()
        self.doubling_step = 0
        self.leader = 0
        self.trick: list[Card] = []
        self.tricks: list[tuple[int, list[Card], int]] = []
        self.taken: list[list[Card]] = [[], [], [], []]
        self.points = [0, 0, 0, 0]
        self.rows: DominoRows = [None, None, None, None]
        self.domino_turn = 0
        self.finished: list[int] = []
        self.domino_moves: list[tuple[int, Card | None]] = []
        self.history: list[BarbuDeal] = []
        self.totals = [0, 0, 0, 0]

    # -- who, when --

    @property
    def total_deals(self) -> int:
        return self.series * DEALS_PER_SERIES

    @property
    def declarer(self) -> int:
        series_index = min(self.deal_number, self.total_deals - 1) // DEALS_PER_SERIES
        return (self.first_declarer + series_index) % 4

    @property
    def dealer(self) -> int:
        return (self.declarer + 3) % 4

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def current_player(self) -> int | None:
        if self.phase == "contract":
            return self.declarer
        if self.phase == "doubling":
            return (self.declarer + 1 + self.doubling_step) % 4
        if self.phase == "play":
            if self.contract == "domino":
                return self.domino_turn
            return (self.leader + len(self.trick)) % 4
        return None

    def returns(self) -> list[float]:
        return [float(total) for total in self.totals]

    # -- legal actions --

    def legal_actions(self) -> list[str]:
        if self.phase == "contract":
            return [action for group in self.contract_choices().values() for action in group]
        if self.phase == "doubling":
            return self._doubling_actions()
        if self.phase == "play":
            seat = self.current_player
            assert seat is not None
            cards = self._playable(seat)
            if self.contract == "domino" and not cards:
                return [PASS]
            return [card_name(card) for card in sort_cards(cards)]
        return []

    def forced_play(self) -> str | None:
        """The card play, or Domino pass, that is the only legal one; None otherwise."""
        if self.phase != "play":
            return None
        legal = self.legal_actions()
        return legal[0] if len(legal) == 1 else None

    def contract_choices(self) -> dict[str, list[str]]:
        """Declarer's remaining contracts, each with its actions (suits, starting ranks)."""
        if self.phase != "contract":
            return {}
        choices: dict[str, list[str]] = {}
        for contract in CONTRACTS:
            if contract not in self.remaining:
                continue
            if contract == "trumps":
                choices[contract] = [f"trumps:{suit}" for suit in SUITS]
            elif contract == "domino":
                choices[contract] = [f"domino:{rank}" for rank in RANKS]
            else:
                choices[contract] = [contract]
        return choices

    def doubling_choice(self) -> DoublingChoice | None:
        """The toggles for the seat to act in the doubling round (None outside it)."""
        if self.phase != "doubling":
            return None
        seat = self.current_player
        assert seat is not None
        declarer = self.declarer
        if seat == declarer:
            targets = sorted(doubler for doubler, doubled in self.doubles if doubled == seat)
        elif self.contract in POSITIVE_CONTRACTS:
            targets = [declarer]
        else:
            targets = [other for other in range(4) if other != seat]
        deals_left = DEALS_PER_SERIES - self.deal_number % DEALS_PER_SERIES
        needed = 0
        if seat != declarer:
            needed = max(0, DOUBLES_OWED_PER_SERIES - self.declarer_doubled[seat])
        return DoublingChoice(
            seat=seat,
            declarer=declarer,
            targets=tuple(targets),
            redoubles=tuple(target for target in targets if (target, seat) in self.doubles),
            required=declarer if needed and needed >= deals_left else None,
            needed=needed,
            deals_left=deals_left,
        )

    def _doubling_actions(self) -> list[str]:
        choice = self.doubling_choice()
        assert choice is not None
        actions = [PASS] if choice.may_pass else []
        for size in range(1, len(choice.targets) + 1):
            for seats in itertools.combinations(choice.targets, size):
                if choice.required is None or choice.required in seats:
                    actions.append(choice.action_for(seats))
        return actions

    def _playable(self, seat: int) -> list[Card]:
        hand = self.hands[seat]
        if self.contract == "domino":
            assert self.start_rank is not None
            return domino_playable(hand, self.rows, self.start_rank)
        assert self.contract is not None
        return legal_trick_cards(hand, self.trick, self.contract, self.trump, self.discard_king)

    # -- applying actions --

    def apply(self, action: str) -> BarbuState:
        if self.phase == "over":
            raise IllegalAction(N_("The game is over."))
        following = self._clone()
        action = action.strip()
        if self.phase == "contract":
            following._choose_contract(action)
        elif self.phase == "doubling":
            following._double(action)
        elif self.contract == "domino":
            following._lay_domino(action)
        else:
            following._play_card(action)
        return following

    def _choose_contract(self, action: str) -> None:
        name, _, detail = action.lower().partition(":")
        if name not in CONTRACTS:
            raise IllegalAction(N_("'{action}' is not a contract."), action=action)
        if name not in self.remaining:
            raise IllegalAction(
                N_("'{contract}' has already been played this series."),
                contract=name,
            )
        if name == "trumps":
            if len(detail) != 1 or detail.upper() not in SUITS:
                raise IllegalAction(
                    N_("Name the trump suit: trumps:S, trumps:H, trumps:C or trumps:D.")
                )
            self.trump = SUITS.index(detail.upper())
        elif name == "domino":
            if len(detail) != 1 or detail.upper() not in RANKS:
                raise IllegalAction(
                    N_("Name the starting rank, e.g. domino:5 or domino:T for tens.")
                )
            self.start_rank = RANKS.index(detail.upper())
        elif detail:
            raise IllegalAction(
                N_("'{contract}' takes no suit or rank."), contract=name
            )
        self.contract = name
        self.remaining.remove(name)
        self.phase = "doubling"
        self.doubling_step = 0

    def _double(self, action: str) -> None:
        choice = self.doubling_choice()
        assert choice is not None
        lowered = action.lower()
        if lowered == PASS:
            seats: list[int] = []
        elif lowered.startswith("double:"):
            seats = parse_seats(lowered.removeprefix("double:"))
        else:
            raise IllegalAction(N_("In the doubling round, answer double:1,3 or pass."))
        for seat in seats:
            if seat not in choice.targets:
                raise self._why_not_double(choice, seat)
        if choice.required is not None and choice.required not in seats:
            raise _must_double_now(choice)
        self.doubles.update((choice.seat, seat) for seat in seats)
        if choice.seat != choice.declarer and choice.declarer in seats:
            self.declarer_doubled[choice.seat] += 1
        self.doubling_step += 1
        nobody_doubled_declarer = all(doubled != choice.declarer for _, doubled in self.doubles)
        if self.doubling_step == 4 or (self.doubling_step == 3 and nobody_doubled_declarer):
            self._start_play()

    def _why_not_double(self, choice: DoublingChoice, seat: int) -> IllegalAction:
        if seat == choice.seat or not 0 <= seat < 4:
            return IllegalAction(N_("You cannot double player {player}."), player=seat + 1)
        if choice.seat == choice.declarer:
            return IllegalAction(N_("Declarer may only redouble players who doubled him."))
        return IllegalAction(N_("In Trumps and Domino you may double only declarer."))

    def _start_play(self) -> None:
        self.phase = "play"
        self.leader = self.declarer
        self.domino_turn = self.declarer

    def _play_card(self, action: str) -> None:
        seat = self.current_player
        assert seat is not None
        card = parse_card(action)
        if card not in self.hands[seat]:
            raise IllegalAction(N_("You do not hold the {card}."), card=card_name(card))
        if card not in self._playable(seat):
            raise self._why_not_card(seat)
        self.hands[seat].remove(card)
        self.trick.append(card)
        if len(self.trick) == 4:
            self._finish_trick()

    def _why_not_card(self, seat: int) -> IllegalAction:
        assert self.contract is not None
        if not self.trick:
            return IllegalAction(N_("You may not lead a heart while you hold another suit."))
        led_suit = self.trick[0] // 13
        if any(card // 13 == led_suit for card in self.hands[seat]):
            if self.contract == "trumps" and led_suit == self.trump:
                return IllegalAction(N_("You must play a higher trump than any in the trick."))
            # Refusal parameters are not translated: the suit as its symbol reads in any language.
            suit = SUIT_SYMBOLS[led_suit]
            return IllegalAction(N_("You must follow suit ({suit})."), suit=suit)
        if self.contract == "barbu" and self.discard_king:
            return IllegalAction(N_("You must discard the king of hearts now."))
        return IllegalAction(N_("You must win the trick with a trump."))

    def _finish_trick(self) -> None:
        assert self.contract is not None
        winner = (self.leader + trick_winner(self.trick, self.trump)) % 4
        self.tricks.append((self.leader, self.trick, winner))
        self.points[winner] += trick_points(self.contract, self.trick, len(self.tricks))
        self.taken[winner].extend(self.trick)
        queens_taken = sum(1 for pile in self.taken for card in pile if card % 13 == QUEEN)
        ends = trick_ends_deal(self.contract, self.trick, queens_taken, len(self.tricks))
        self.leader = winner
        self.trick = []
        if ends:
            self._finish_deal(list(self.points))

    def _lay_domino(self, action: str) -> None:
        seat = self.domino_turn
        playable = self._playable(seat)
        if action.lower() == PASS:
            if playable:
                raise IllegalAction(N_("You may pass only when you cannot lay a card."))
            self.domino_moves.append((seat, None))
        else:
            card = parse_card(action)
            if card not in self.hands[seat]:
                raise IllegalAction(N_("You do not hold the {card}."), card=card_name(card))
            if card not in playable:
                raise IllegalAction(
                    N_("Lay a card of the starting rank or one next to the end of an opened suit.")
                )
            self.hands[seat].remove(card)
            domino_lay(self.rows, card)
            self.domino_moves.append((seat, card))
            if not self.hands[seat]:
                self.finished.append(seat)
        if len(self.finished) == 3:
            self.finished.append(next(other for other in range(4) if other not in self.finished))
            raw = [0, 0, 0, 0]
            for place, finisher in enumerate(self.finished):
                raw[finisher] = DOMINO_PRIZES[place]
            self._finish_deal(raw)
        else:
            self.domino_turn = _next_unfinished(seat, self.finished)

    # -- deals --

    def _deal(self) -> None:
        deck = list(range(52))
        self.rng.shuffle(deck)
        first = self.declarer
        self.hands = [sorted(deck[(seat - first) % 4 :: 4]) for seat in range(4)]
        self.phase = "contract"
        self.contract = None
        self.trump = None
        self.start_rank = None
        self.doubles = set()
        self.doubling_step = 0
        self.trick = []
        self.tricks = []
        self.taken = [[], [], [], []]
        self.points = [0, 0, 0, 0]
        self.rows = [None, None, None, None]
        self.finished = []
        self.domino_moves = []

    def _finish_deal(self, raw: list[int]) -> None:
        contract = self._contract_action()
        assert contract is not None
        scores = settle(raw, self.doubles)
        self.history.append(
            {
                "declarer": self.declarer,
                "contract": contract,
                "raw": raw,
                "doubles": sorted([list(pair) for pair in self.doubles]),
                "scores": scores,
            }
        )
        self.totals = [total + score for total, score in zip(self.totals, scores, strict=True)]
        self.deal_number += 1
        if self.deal_number == self.total_deals:
            self.phase = "over"
            self.hands = [[], [], [], []]
            return
        if self.deal_number % DEALS_PER_SERIES == 0:
            self.remaining = list(CONTRACTS)
            self.declarer_doubled = [0, 0, 0, 0]
        self._deal()

    def _contract_action(self) -> str | None:
        if self.contract == "trumps" and self.trump is not None:
            return f"trumps:{SUITS[self.trump]}"
        if self.contract == "domino" and self.start_rank is not None:
            return f"domino:{RANKS[self.start_rank]}"
        return self.contract

    # -- views --

    def view(self, seat: int | None) -> BarbuView:
        """What ``seat`` may see (its own hand only); ``None``: what lies on the table.

        Cards are strings (``"TD"``), seats 0..3. ``hand`` is None in the public view and
        ``legal``/``doubling`` are filled only for the seat to act. ``trick`` is the trick
        in progress (leader first), ``tricks`` this deal's completed tricks (the last one
        is the "last trick"), ``penalty_cards`` per seat the taken cards that cost points
        in this contract, ``deal_points`` the raw contract points so far (trick
        contracts), ``domino`` the Domino layout, ``history`` one entry per finished
        deal (``declarer``, ``contract`` action, ``raw``, ``doubles``, ``scores``).
        """
        to_act = self.current_player
        own_turn = seat is not None and seat == to_act
        choice = self.doubling_choice() if own_turn else None
        return {
            "game": "barbu",
            "seat": seat,
            "phase": self.phase,
            "deal": self.deal_number,
            "total_deals": self.total_deals,
            "series": min(self.deal_number, self.total_deals - 1) // DEALS_PER_SERIES,
            "total_series": self.series,
            "discard_king": self.discard_king,
            "declarer": self.declarer,
            "dealer": self.dealer,
            "to_act": to_act,
            "remaining_contracts": list(self.remaining) if self.phase != "over" else [],
            "contract": self.contract,
            "contract_action": self._contract_action(),
            "contract_label": (
                contract_label(self.contract, self.trump, self.start_rank)
                if self.contract
                else None
            ),
            "trump": SUITS[self.trump] if self.trump is not None else None,
            "start_rank": RANKS[self.start_rank] if self.start_rank is not None else None,
            "doubles": sorted([list(pair) for pair in self.doubles]),
            "doubling_acted": self._doubling_acted(),
            "declarer_doubled": list(self.declarer_doubled),
            "hand_sizes": [len(hand) for hand in self.hands],
            "hand": [card_name(card) for card in sort_cards(self.hands[seat])]
            if seat is not None
            else None,
            "legal": self.legal_actions() if own_turn else [],
            "doubling": _choice_dict(choice) if choice else None,
            "leader": self.leader if self.phase == "play" and self.contract != "domino" else None,
            "trick": [
                {"seat": (self.leader + index) % 4, "card": card_name(card)}
                for index, card in enumerate(self.trick)
            ],
            "tricks": [
                {"leader": leader, "cards": [card_name(card) for card in cards], "winner": winner}
                for leader, cards, winner in self.tricks
            ],
            "tricks_won": [sum(1 for *_, winner in self.tricks if winner == s) for s in range(4)],
            "penalty_cards": [
                [card_name(c) for c in sort_cards(pile) if is_penalty_card(self.contract, c)]
                if self.contract
                else []
                for pile in self.taken
            ],
            "deal_points": list(self.points),
            "domino": self._domino_view(),
            "history": [_copy_deal(entry) for entry in self.history],
            "totals": list(self.totals),
        }

    def _doubling_acted(self) -> list[int]:
        if self.phase != "doubling":
            return []
        return [(self.declarer + 1 + step) % 4 for step in range(self.doubling_step)]

    def _domino_view(self) -> BarbuDomino | None:
        if self.contract != "domino":
            return None
        return {
            "rows": {
                SUITS[suit]: [RANKS[row[0]], RANKS[row[1]]] if row else None
                for suit, row in enumerate(self.rows)
            },
            "finished": list(self.finished),
            "moves": [
                {"seat": mover, "card": card_name(card) if card is not None else PASS}
                for mover, card in self.domino_moves
            ],
        }

    # -- move log --

    def describe(self, action: str, names: Sequence[str] | None = None) -> str:
        """A sentence for the move log, about ``action`` taken in this state."""
        seat = self.current_player
        if seat is None:
            return action
        who = _seat_word(seat, names)
        lowered = action.strip().lower()
        if self.phase == "contract":
            name, _, detail = lowered.partition(":")
            detail = detail.upper()
            if name == "trumps" and len(detail) == 1 and detail in SUITS:
                return f"{who} chooses Trumps with {SUIT_NAMES[SUITS.index(detail)]}."
            if name == "domino" and len(detail) == 1 and detail in RANKS:
                return f"{who} chooses Domino from the {RANK_PLURALS[RANKS.index(detail)]}."
            return f"{who} chooses {CONTRACT_TITLES.get(name, action)}."
        if lowered == PASS:
            return f"{who} passes."
        if lowered.startswith("double:"):
            return self._describe_double(who, lowered.removeprefix("double:"), names)
        try:
            card = parse_card(action)
        except IllegalAction:
            return action
        verb = "lays" if self.contract == "domino" else "plays"
        return f"{who} {verb} the {card_words(card)}."

    def _describe_double(self, who: str, seats_text: str, names: Sequence[str] | None) -> str:
        seat = self.current_player
        try:
            seats = parse_seats(seats_text)
        except IllegalAction:
            seats = []
        if not seats or not all(0 <= target < 4 for target in seats):
            return f"{who} doubles {seats_text}."
        doubled = [_seat_word(s, names) for s in seats if (s, seat) not in self.doubles]
        redoubled = [_seat_word(s, names) for s in seats if (s, seat) in self.doubles]
        parts = []
        if doubled:
            parts.append("doubles " + ", ".join(doubled))
        if redoubled:
            parts.append("redoubles " + ", ".join(redoubled))
        return f"{who} {' and '.join(parts)}."

    # -- copying and (de)serialising --

    def _clone(self) -> BarbuState:
        clone = BarbuState(self.rng.copy(), self.series, self.discard_king, self.autoplay)
        clone.__dict__.update(self.__dict__)
        clone.rng = self.rng.copy()
        clone.remaining = list(self.remaining)
        clone.declarer_doubled = list(self.declarer_doubled)
        clone.hands = [list(hand) for hand in self.hands]
        clone.doubles = set(self.doubles)
        clone.trick = list(self.trick)
        clone.tricks = list(self.tricks)
        clone.taken = [list(pile) for pile in self.taken]
        clone.points = list(self.points)
        clone.rows = list(self.rows)
        clone.finished = list(self.finished)
        clone.domino_moves = list(self.domino_moves)
        clone.history = list(self.history)
        clone.totals = list(self.totals)
        return clone

    def to_dict(self) -> dict[str, Any]:
        return {
            "rng": self.rng.to_dict(),
            "series": self.series,
            "discard_king": self.discard_king,
            "autoplay": self.autoplay,
            "first_declarer": self.first_declarer,
            "deal_number": self.deal_number,
            "remaining": list(self.remaining),
            "declarer_doubled": list(self.declarer_doubled),
            "phase": self.phase,
            "hands": [list(hand) for hand in self.hands],
            "contract": self.contract,
            "trump": self.trump,
            "start_rank": self.start_rank,
            "doubles": sorted([list(pair) for pair in self.doubles]),
            "doubling_step": self.doubling_step,
            "leader": self.leader,
            "trick": list(self.trick),
            "tricks": [[leader, list(cards), winner] for leader, cards, winner in self.tricks],
            "taken": [list(pile) for pile in self.taken],
            "points": list(self.points),
            "rows": [list(row) if row else None for row in self.rows],
            "domino_turn": self.domino_turn,
            "finished": list(self.finished),
            "domino_moves": [[mover, card] for mover, card in self.domino_moves],
            "history": [dict(entry) for entry in self.history],
            "totals": list(self.totals),
        }


def _copy_deal(deal: BarbuDeal) -> BarbuDeal:
    return {
        "declarer": deal["declarer"],
        "contract": deal["contract"],
        "raw": list(deal["raw"]),
        "doubles": [list(pair) for pair in deal["doubles"]],
        "scores": list(deal["scores"]),
    }


def _choice_dict(choice: DoublingChoice) -> BarbuDoubling:
    return {
        "targets": list(choice.targets),
        "redoubles": list(choice.redoubles),
        "required": choice.required,
        "needed": choice.needed,
        "deals_left": choice.deals_left,
        "maximum": choice.maximum,
        "may_pass": choice.may_pass,
        "obligation": choice.obligation_text(),
    }


def from_dict(data: dict[str, Any]) -> BarbuState:
    # The option is on by default, for games saved before it existed too.
    state = BarbuState(
        Rng.from_dict(data["rng"]),
        int(data["series"]),
        bool(data["discard_king"]),
        bool(data.get("autoplay", True)),
    )
    state.first_declarer = data["first_declarer"]
    state.deal_number = data["deal_number"]
    state.remaining = list(data["remaining"])
    state.declarer_doubled = list(data["declarer_doubled"])
    state.phase = data["phase"]
    state.hands = [list(hand) for hand in data["hands"]]
    state.contract = data["contract"]
    state.trump = data["trump"]
    state.start_rank = data["start_rank"]
    state.doubles = {(doubler, doubled) for doubler, doubled in data["doubles"]}
    state.doubling_step = data["doubling_step"]
    state.leader = data["leader"]
    state.trick = list(data["trick"])
    state.tricks = [(leader, list(cards), winner) for leader, cards, winner in data["tricks"]]
    state.taken = [list(pile) for pile in data["taken"]]
    state.points = list(data["points"])
    state.rows = [(row[0], row[1]) if row else None for row in data["rows"]]
    state.domino_turn = data["domino_turn"]
    state.finished = list(data["finished"])
    state.domino_moves = [(mover, card) for mover, card in data["domino_moves"]]
    state.history = [_copy_deal(entry) for entry in data["history"]]
    state.totals = list(data["totals"])
    return state


def new_game(
    players: int = 4,
    seed: int = 0,
    series: int = 4,
    discard_king: bool = False,
    autoplay: bool = True,
) -> BarbuState:
    """A fresh game: random first declarer, the first deal dealt, declarer to choose."""
    if players != 4:
        raise IllegalAction(N_("Barbu needs exactly four seats (computer players may fill them)."))
    if not 1 <= series <= 4:
        raise IllegalAction(N_("Play between one and four declarer series."))
    state = BarbuState(Rng(seed), series, bool(discard_king), bool(autoplay))
    state.first_declarer = state.rng.randint(0, 3)
    state._deal()
    return state


# --- The computer player ---
#
# It sees exactly what ``view(seat)`` shows. Card play is determinized Monte Carlo: deal
# the unseen cards to the other seats consistently with everything their play revealed
# (voids, trump ceilings, heart-only leads, Domino passes), try every legal card in each
# such world with a random playout, and keep the card with the best average deal score
# after doubles. Contract choice and doubling use the same playouts from the deal's start.

PLAY_PLAYOUTS = 480
CONTRACT_PLAYOUTS = 220
DOUBLING_PLAYOUTS = 96
MIN_WORLDS = 6
# Hard plays its playouts the way a careful player would (``_sensible_card``), which
# costs more per playout but judges both cards and doubles far better than random play;
# at 160 playouts per card it played no better than normal, at 480 and more it beats it.
HARD_PLAY_PLAYOUTS = 640
HARD_DOUBLING_PLAYOUTS = 200
SENSIBLE_NOISE = 0.1
# Hard doubles only where the playouts expect it to gain at least this much; in Trumps
# declarer's chosen suit plays better than the playouts see, so it asks for more there.
HARD_DOUBLING_MARGIN = {"trumps": 12.0}
HARD_DOUBLING_MARGIN_OTHERWISE = 2.0
# Easy plays like a careful player without looking ahead, and carelessly this often.
EASY_NOISE = 0.35
EASY_CONTRACT_PLAYOUTS = 28
# Random playouts under-rate a player who then plays carefully, so the computer doubles
# when it expects to lose a little less than this to the doubled player.
DOUBLING_CONFIDENCE = 2.0
# Average declarer score per contract when everyone plays at random: a hand is good for a
# contract when it beats this, so declarer spends contracts where his hand helps most.
DECLARER_PAR = {
    "notricks": -6.5,
    "noqueens": -6.0,
    "nolasttwo": -7.5,
    "nohearts": -7.5,
    "barbu": -5.0,
    "trumps": 16.25,
    "domino": 16.25,
}


@dataclass
class _Position:
    """A deal in progress rebuilt from one seat's view, with the unseen cards dealt out."""

    contract: str
    trump: int | None
    start_rank: int | None
    discard_king: bool
    hands: list[list[Card]]
    leader: int
    trick: list[Card]
    tricks_played: int
    points: list[int]
    queens_taken: int
    rows: DominoRows
    turn: int
    finished: list[int]
    ended: bool = False


Policy = Callable[[_Position, int, list[Card], random.Random], Card]


def _random_card(position: _Position, seat: int, options: list[Card], rng: random.Random) -> Card:
    return options[rng.randrange(len(options))]


def _danger(contract: str, card: Card) -> int:
    """How costly a card is to keep in a negative contract: the one to shed when void."""
    rank = card % 13
    if contract == "barbu":
        return 100 if card == KING_OF_HEARTS else rank + (13 if card // 13 == HEARTS else 0)
    if contract == "noqueens":
        return 100 if rank == QUEEN else rank + (20 if rank > QUEEN else 0)
    if contract == "nohearts":
        return rank + (26 if card // 13 == HEARTS else 0)
    return rank


def _sensible_card(position: _Position, seat: int, options: list[Card], rng: random.Random) -> Card:
    """How a careful player plays, for playouts: in negative contracts lead low, follow
    with the highest card that does not win and shed the most dangerous card when void;
    in Trumps win as cheaply as possible; in Domino open the way for the longest suit.
    One card in ``SENSIBLE_NOISE`` is random, so the playouts still vary."""
    if len(options) == 1:
        return options[0]
    if rng.random() < SENSIBLE_NOISE:
        return options[rng.randrange(len(options))]
    contract = position.contract
    if contract == "domino":
        hand = position.hands[seat]
        return max(options, key=lambda card: (sum(1 for c in hand if c // 13 == card // 13), card))
    trick = position.trick
    if contract == "trumps":
        if not trick:
            return max(options, key=lambda card: (card % 13, card))
        winning = [c for c in options if trick_winner([*trick, c], position.trump) == len(trick)]
        return min(winning or options, key=lambda card: (card % 13, card))
    if not trick:
        return min(options, key=lambda card: (card % 13, card))
    led = trick[0] // 13
    if options[0] // 13 == led:
        best = trick[trick_winner(trick, None)]
        under = [card for card in options if card < best]
        if under:
            return max(under)
        return max(options) if len(trick) == 3 else min(options)
    return max(options, key=lambda card: (_danger(contract, card), card))


def _playout(position: _Position, rng: random.Random, policy: Policy = _random_card) -> list[int]:
    """Raw scores after everyone plays ``policy``'s cards to the end of the deal."""
    if position.contract == "domino":
        return _domino_playout(position, rng, policy)
    return _trick_playout(position, rng, policy)


def _trick_playout(position: _Position, rng: random.Random, policy: Policy) -> list[int]:
    contract, trump, discard_king = position.contract, position.trump, position.discard_king
    hands = position.hands
    leader, trick = position.leader, position.trick
    tricks, points, queens = position.tricks_played, position.points, position.queens_taken
    if position.ended:
        return points
    while True:
        while len(trick) < 4:
            seat = (leader + len(trick)) % 4
            options = legal_trick_cards(hands[seat], trick, contract, trump, discard_king)
            position.leader, position.trick = leader, trick
            card = policy(position, seat, options, rng)
            hands[seat].remove(card)
            trick.append(card)
        winner = (leader + trick_winner(trick, trump)) % 4
        tricks += 1
        points[winner] += trick_points(contract, trick, tricks)
        queens += sum(1 for card in trick if card % 13 == QUEEN)
        if trick_ends_deal(contract, trick, queens, tricks):
            return points
        leader, trick = winner, []


def _domino_playout(position: _Position, rng: random.Random, policy: Policy) -> list[int]:
    hands, rows, finished = position.hands, position.rows, position.finished
    assert position.start_rank is not None
    seat = position.turn
    while len(finished) < 3:
        options = domino_playable(hands[seat], rows, position.start_rank)
        if options:
            card = policy(position, seat, options, rng)
            hands[seat].remove(card)
            domino_lay(rows, card)
            if not hands[seat]:
                finished.append(seat)
                if len(finished) == 3:
                    break
        seat = _next_unfinished(seat, finished)
    finished.append(next(other for other in range(4) if other not in finished))
    raw = [0, 0, 0, 0]
    for place, finisher in enumerate(finished):
        raw[finisher] = DOMINO_PRIZES[place]
    return raw


def _apply_to_position(position: _Position, seat: int, card: Card | None) -> _Position:
    """A copy of ``position`` after ``seat`` plays ``card`` (None: a Domino pass)."""
    copy = _Position(
        position.contract,
        position.trump,
        position.start_rank,
        position.discard_king,
        [list(hand) for hand in position.hands],
        position.leader,
        list(position.trick),
        position.tricks_played,
        list(position.points),
        position.queens_taken,
        list(position.rows),
        position.turn,
        list(position.finished),
    )
    if card is None:
        copy.turn = _next_unfinished(seat, copy.finished)
        return copy
    copy.hands[seat].remove(card)
    if copy.contract == "domino":
        domino_lay(copy.rows, card)
        if not copy.hands[seat]:
            copy.finished.append(seat)
        copy.turn = _next_unfinished(seat, copy.finished)
        return copy
    copy.trick.append(card)
    if len(copy.trick) == 4:
        winner = (copy.leader + trick_winner(copy.trick, copy.trump)) % 4
        copy.tricks_played += 1
        copy.points[winner] += trick_points(copy.contract, copy.trick, copy.tricks_played)
        copy.queens_taken += sum(1 for c in copy.trick if c % 13 == QUEEN)
        copy.ended = trick_ends_deal(
            copy.contract, copy.trick, copy.queens_taken, copy.tricks_played
        )
        copy.leader, copy.trick = winner, []
    return copy


def _own_hand(view: BarbuView) -> list[Card]:
    """The cards of the seat whose view this is (a public view has none)."""
    return [parse_card(card) for card in view["hand"] or []]


def _unseen_constraints(view: BarbuView) -> tuple[list[Card], list[set[Card]]]:
    """Cards this seat has not seen, and per seat the cards its play shows it cannot hold."""
    seen = set(_own_hand(view))
    excluded: list[set[Card]] = [set(), set(), set(), set()]
    contract = view["contract"]
    if contract == "domino":
        _domino_constraints(view, seen, excluded)
    elif contract is not None:
        trump = SUITS.index(view["trump"]) if view["trump"] else None
        tricks = [(t["leader"], [parse_card(c) for c in t["cards"]]) for t in view["tricks"]]
        if view["trick"]:
            current = [parse_card(entry["card"]) for entry in view["trick"]]
            tricks.append((view["trick"][0]["seat"], current))
        for leader, cards in tricks:
            _trick_constraints(contract, trump, view["discard_king"], leader, cards, excluded)
            seen.update(cards)
    unseen = [card for card in range(52) if card not in seen]
    return unseen, excluded


def _suit_cards(suit: int) -> set[Card]:
    return set(range(suit * 13, suit * 13 + 13))


def _trick_constraints(
    contract: str,
    trump: int | None,
    discard_king: bool,
    leader: int,
    cards: list[Card],
    excluded: list[set[Card]],
) -> None:
    led_suit = cards[0] // 13
    if contract in HEART_LEAD_CONTRACTS and led_suit == HEARTS:
        excluded[leader].update(card for card in range(52) if card // 13 != HEARTS)
    for index in range(1, len(cards)):
        seat, card, before = (leader + index) % 4, cards[index], cards[:index]
        best_trump = max((c for c in before if c // 13 == trump), default=-1)
        if card // 13 != led_suit:
            excluded[seat] |= _suit_cards(led_suit)
            if discard_king and contract == "barbu" and card != KING_OF_HEARTS:
                excluded[seat].add(KING_OF_HEARTS)
            winning_trump = card // 13 == trump and card > best_trump
            if contract == "trumps" and trump is not None and not winning_trump:
                excluded[seat].update(c for c in _suit_cards(trump) if c > best_trump)
        elif contract == "trumps" and led_suit == trump and card < best_trump:
            excluded[seat].update(c for c in _suit_cards(trump) if c > best_trump)


def _domino_constraints(view: BarbuView, seen: set[Card], excluded: list[set[Card]]) -> None:
    if view["domino"] is None or view["start_rank"] is None:
        return
    start_rank = RANKS.index(view["start_rank"])
    rows: DominoRows = [None, None, None, None]
    everything = list(range(52))
    for move in view["domino"]["moves"]:
        if move["card"] == PASS:
            excluded[move["seat"]].update(domino_playable(everything, rows, start_rank))
        else:
            card = parse_card(move["card"])
            domino_lay(rows, card)
            seen.add(card)


def _sample_hands(
    seat: int,
    view: BarbuView,
    unseen: list[Card],
    excluded: list[set[Card]],
    rng: random.Random,
) -> list[list[Card]]:
    """One deal of the unseen cards to the other seats that fits what their play showed."""
    sizes = list(view["hand_sizes"])
    own = _own_hand(view)
    others = [other for other in range(4) if other != seat]
    for _ in range(12):
        hands = _try_sample(seat, own, others, sizes, unseen, excluded, rng)
        if hands is not None:
            return hands
    pool = list(unseen)
    rng.shuffle(pool)
    hands = [[], [], [], []]
    hands[seat] = own
    for other in others:
        hands[other], pool = pool[: sizes[other]], pool[sizes[other] :]
    return hands


def _try_sample(
    seat: int,
    own: list[Card],
    others: list[int],
    sizes: list[int],
    unseen: list[Card],
    excluded: list[set[Card]],
    rng: random.Random,
) -> list[list[Card]] | None:
    holders = {card: [o for o in others if card not in excluded[o]] for card in unseen}
    pool = list(unseen)
    rng.shuffle(pool)
    pool.sort(key=lambda card: len(holders[card]))
    room = {other: sizes[other] for other in others}
    hands: list[list[Card]] = [[], [], [], []]
    hands[seat] = list(own)
    for card in pool:
        candidates = [other for other in holders[card] if room[other] > 0]
        if not candidates:
            return None
        chosen = rng.choices(candidates, weights=[room[other] for other in candidates])[0]
        hands[chosen].append(card)
        room[chosen] -= 1
    return hands


def _position_from_view(view: BarbuView, hands: list[list[Card]], seat: int) -> _Position:
    """The deal as ``seat`` sees it while it is his turn to play, with ``hands`` dealt."""
    contract = view["contract"]
    assert contract is not None
    trick = [parse_card(entry["card"]) for entry in view["trick"]]
    leader = view["trick"][0]["seat"] if view["trick"] else view["leader"]
    rows: DominoRows = [None, None, None, None]
    finished: list[int] = []
    if view["domino"] is not None:
        for suit, row in enumerate(view["domino"]["rows"].values()):
            rows[suit] = (RANKS.index(row[0]), RANKS.index(row[1])) if row else None
        finished = list(view["domino"]["finished"])
    queens = sum(1 for pile in view["penalty_cards"] for card in pile if card[0] == "Q")
    return _Position(
        contract=contract,
        trump=SUITS.index(view["trump"]) if view["trump"] else None,
        start_rank=RANKS.index(view["start_rank"]) if view["start_rank"] else None,
        discard_king=view["discard_king"],
        hands=hands,
        leader=leader if leader is not None else view["declarer"],
        trick=trick,
        tricks_played=len(view["tricks"]),
        points=list(view["deal_points"]),
        queens_taken=queens if contract == "noqueens" else 0,
        rows=rows,
        turn=seat,
        finished=finished,
    )


def _choose_card(view: BarbuView, seat: int, rng: random.Random, level: str) -> str:
    legal = view["legal"]
    doubles = [(doubler, doubled) for doubler, doubled in view["doubles"]]
    moves = [None if action == PASS else parse_card(action) for action in legal]
    unseen, excluded = _unseen_constraints(view)
    if level == "easy":
        hands = _sample_hands(seat, view, unseen, excluded, rng)
        position = _position_from_view(view, hands, seat)
        cards = [move for move in moves if move is not None]
        card = cards[rng.randrange(len(cards))] if rng.random() < EASY_NOISE else None
        return card_name(card if card is not None else _sensible_card(position, seat, cards, rng))
    hard = level == "hard"
    policy: Policy = _sensible_card if hard else _random_card
    worlds = max(MIN_WORLDS, (HARD_PLAY_PLAYOUTS if hard else PLAY_PLAYOUTS) // len(moves))
    totals = [0.0] * len(moves)
    for _ in range(worlds):
        hands = _sample_hands(seat, view, unseen, excluded, rng)
        position = _position_from_view(view, hands, seat)
        for index, move in enumerate(moves):
            after = _apply_to_position(position, seat, move)
            totals[index] += settle(_playout(after, rng, policy), doubles)[seat]
    best = max(range(len(moves)), key=lambda index: totals[index])
    return legal[best]


def _fresh_position(view: BarbuView, hands: list[list[Card]], action: str) -> _Position:
    name, _, detail = action.partition(":")
    return _Position(
        contract=name,
        trump=SUITS.index(detail) if name == "trumps" else None,
        start_rank=RANKS.index(detail) if name == "domino" else None,
        discard_king=view["discard_king"],
        hands=hands,
        leader=view["declarer"],
        trick=[],
        tricks_played=0,
        points=[0, 0, 0, 0],
        queens_taken=0,
        rows=[None, None, None, None],
        turn=view["declarer"],
        finished=[],
    )


def _choose_contract(view: BarbuView, seat: int, rng: random.Random, level: str) -> str:
    """The contract (with suit or rank) where this hand beats the declarer's par most."""
    legal = view["legal"]
    unseen, excluded = _unseen_constraints(view)
    budget = EASY_CONTRACT_PLAYOUTS if level == "easy" else CONTRACT_PLAYOUTS
    playouts = max(1 if level == "easy" else MIN_WORLDS, budget // len(legal))
    totals = dict.fromkeys(legal, 0.0)
    for _ in range(playouts):
        hands = _sample_hands(seat, view, unseen, excluded, rng)
        for action in legal:
            position = _fresh_position(view, [list(hand) for hand in hands], action)
            totals[action] += _playout(position, rng)[seat]

    def advantage(action: str) -> float:
        return totals[action] / playouts - DECLARER_PAR[action.partition(":")[0]]

    return max(legal, key=advantage)


def _choose_doubles(view: BarbuView, seat: int, rng: random.Random, level: str) -> str:
    """Doubles where the deal's expected outcome favours this seat over the target.

    The deal is played out from its start in many determinizations; normal plays them
    at random and allows for that (``DOUBLING_CONFIDENCE``), hard plays them carefully
    and doubles only an expected gain of ``HARD_DOUBLING_MARGIN`` (any gain for a
    double of declarer it still owes); easy doubles only when the rules oblige it to."""
    choice, contract = view["doubling"], view["contract_action"]
    assert choice is not None and contract is not None and view["contract"] is not None
    chosen: list[int] = []
    if level != "easy":
        hard = level == "hard"
        playouts = HARD_DOUBLING_PLAYOUTS if hard else DOUBLING_PLAYOUTS
        policy: Policy = _sensible_card if hard else _random_card
        threshold = (
            HARD_DOUBLING_MARGIN.get(view["contract"], HARD_DOUBLING_MARGIN_OTHERWISE)
            if hard
            else -DOUBLING_CONFIDENCE
        )
        unseen, excluded = _unseen_constraints(view)
        expected = [0.0, 0.0, 0.0, 0.0]
        for _ in range(playouts):
            hands = _sample_hands(seat, view, unseen, excluded, rng)
            raw = _playout(_fresh_position(view, hands, contract), rng, policy)
            expected = [total + score for total, score in zip(expected, raw, strict=True)]
        owed = hard and choice["needed"] > 0 and view["contract"] not in POSITIVE_CONTRACTS

        def bar(target: int) -> float:
            # a double of declarer still owed is spent anyway: better on a negative
            # contract that does not lose than forced later, perhaps in Trumps
            return min(threshold, 0.0) if owed and target == view["declarer"] else threshold

        chosen = [
            target
            for target in choice["targets"]
            if (expected[seat] - expected[target]) / playouts > bar(target)
        ]
    if choice["required"] is not None and choice["required"] not in chosen:
        chosen.append(choice["required"])
    chosen.sort()
    return f"double:{','.join(map(str, chosen))}" if chosen else PASS


def bot_action(state: BarbuState, seed: int = 0, level: str = DEFAULT_LEVEL) -> str:
    """The computer player's action for ``state.current_player``, from its view only.

    Budgets are counts of playouts, never time, so a decision depends only on the view,
    the seed and the level."""
    check_level(level)
    seat = state.current_player
    if seat is None:
        raise IllegalAction(N_("The game is over."))
    view = state.view(seat)
    legal = view["legal"]
    if len(legal) == 1:
        return legal[0]
    rng = random.Random(seed)
    if view["phase"] == "contract":
        return _choose_contract(view, seat, rng, level)
    if view["phase"] == "doubling":
        return _choose_doubles(view, seat, rng, level)
    return _choose_card(view, seat, rng, level)


SPEC = GameSpec(
    key="barbu",
    title="Barbu",
    min_players=4,
    max_players=4,
    position=3,
    new_game=new_game,
    from_dict=from_dict,
    bot_action=bot_action,
    on_timeout="substitute",
    dice=None,
    hidden_information=True,
    replay_frames=barbu_frames,
    progress_marker=lambda state: state.deal_number,
    options=(
        Option("series", 4, N_("Number of declarer series of seven deals (1–4)."), 1, 4),
        Option(
            "discard_king",
            False,
            N_(
                "In Barbu, the holder of the king of hearts must discard it the first time he "
                "cannot follow suit."
            ),
        ),
        Option("autoplay", True, N_("A single legal card, or a forced pass, plays itself.")),
    ),
)
