"""Barbu's state: ``BarbuState`` with its rules (contract choice, doubling, card play,
Domino, deals and series, the score sheet), its view and move log, and ``new_game``.

One state holds the whole game: every deal of every declarer series, the doubling
obligations and the score sheet. Chance (the shuffle before each deal and the first
declarer) comes from the state's own ``Rng`` inside ``apply``.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from games.barbu.cards import (
    CONTRACT_TITLES,
    CONTRACTS,
    DEALS_PER_SERIES,
    DOMINO_PRIZES,
    DOUBLES_OWED_PER_SERIES,
    NAMED_CONTRACTS,
    PASS,
    POSITIVE_CONTRACTS,
    QUEEN,
    RANK_PLURALS,
    RANKS,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    SUITS,
    Card,
    DominoRows,
    card_name,
    card_words,
    contract_label,
    domino_lay,
    domino_playable,
    is_penalty_card,
    legal_trick_cards,
    next_unfinished,
    parse_card,
    settle,
    sort_cards,
    trick_ends_deal,
    trick_points,
    trick_winner,
)
from games.barbu.doubling import DoublingChoice, parse_seats
from games.barbu.views import BarbuDeal, BarbuDomino, BarbuDoubling, BarbuView
from games.base import N_, GameState, IllegalAction, Rng


def _seat_word(seat: int, names: Sequence[str] | None) -> str:
    return names[seat] if names else f"Seat {seat + 1}"


def must_double_now(choice: DoublingChoice) -> IllegalAction:
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


class BarbuState(GameState):
    players = 4

    def __init__(
        self,
        rng: Rng,
        series: int,
        discard_king: bool,
        autoplay: bool = True,
        french: bool = False,
    ) -> None:
        self.rng = rng
        self.series = series
        self.discard_king = discard_king
        self.autoplay = autoplay
        self.french = french
        """The simple French form: the contracts in their fixed order, no doubling round."""
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
        for contract in self.offered_contracts():
            if contract == "trumps":
                choices[contract] = [f"trumps:{suit}" for suit in SUITS]
            elif contract == "domino":
                choices[contract] = [f"domino:{rank}" for rank in RANKS]
            else:
                choices[contract] = [contract]
        return choices

    def offered_contracts(self) -> list[str]:
        """The contracts declarer may choose now: the series' remaining ones, or in the
        French form only the next of the fixed order."""
        if self.phase != "contract":
            return []
        return self.remaining[:1] if self.french else list(self.remaining)

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
        if name not in self.offered_contracts():
            raise IllegalAction(
                N_("In the French form the contracts follow a fixed order: this deal is {next}."),
                next=self.remaining[0],
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
            raise IllegalAction(N_("'{contract}' takes no suit or rank."), contract=name)
        self._declare(name)

    def _declare(self, name: str) -> None:
        """Declarer's contract is set: the doubling round follows, in the French form at
        once the play."""
        self.contract = name
        self.remaining.remove(name)
        if self.french:
            self._start_play()
            return
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
            raise must_double_now(choice)
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
            self.domino_turn = next_unfinished(seat, self.finished)

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
        if self.french and self.remaining[0] not in NAMED_CONTRACTS:
            # Nothing for declarer to choose or name: the deal is played at once.
            self._declare(self.remaining[0])

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
        deal (``declarer``, ``contract`` action, ``raw``, ``doubles``, ``scores``);
        ``french`` only in the French form, where ``remaining_contracts`` come in order.
        """
        to_act = self.current_player
        own_turn = seat is not None and seat == to_act
        choice = self.doubling_choice() if own_turn else None
        view: BarbuView = {
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
            "history": [copy_deal(entry) for entry in self.history],
            "totals": list(self.totals),
        }
        if self.french:
            view["french"] = True
        return view

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
        clone = BarbuState(
            self.rng.copy(), self.series, self.discard_king, self.autoplay, self.french
        )
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
        data = self._fields()
        if self.french:
            # Written only when on, so a modern game's snapshot is the one it always was
            # (a replay of a game stored before the option existed must end in it).
            data["french"] = True
        return data

    def _fields(self) -> dict[str, Any]:
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


def copy_deal(deal: BarbuDeal) -> BarbuDeal:
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


def new_game(
    players: int = 4,
    seed: int = 0,
    series: int = 4,
    discard_king: bool = False,
    autoplay: bool = True,
    french: bool = False,
) -> BarbuState:
    """A fresh game: random first declarer, the first deal dealt, declarer to choose (in
    the French form the first contract, No Tricks, is played at once)."""
    if players != 4:
        raise IllegalAction(N_("Barbu needs exactly four seats (computer players may fill them)."))
    if not 1 <= series <= 4:
        raise IllegalAction(N_("Play between one and four declarer series."))
    state = BarbuState(Rng(seed), series, bool(discard_king), bool(autoplay), bool(french))
    state.first_declarer = state.rng.randint(0, 3)
    state._deal()
    return state
