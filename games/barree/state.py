"""Barree's state: ``BarreeState`` with its rules (``apply``, ``legal_actions``), its view
and its ``to_dict``/``from_dict``; reading the action notation (see the package); the walk
and sending options of the seat to move; ``new_game``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from games.barree.board import FIELDS, NEIGHBOURS, ROWS, distances, row_of, walk_outcomes
from games.base import N_, GameState, IllegalAction, Rng, whole_number

BAR = 0
FACE_UP_CARDS = 7
HIDDEN_CARDS = 2
REVEAL_AT = 2
MAX_ROUNDS = 10
ROLL = "roll"
KEEP = "keep"

PHASE_ROLL = "roll"
PHASE_MOVE = "move"
PHASE_DRIVE = "drive"
PHASE_OVER = "over"


# One thing that happened during the last action, tagged by "type": setup, roll, bar,
# trapped, walk, keep, send, reveal, finished, round_over, match_over or reshuffle (see
# ``texts.barree.narrate`` for the keys each carries).
BarreeEvent = dict[str, Any]


class BarreeWalk(TypedDict):
    seat: int
    path: list[int]
    discarded: list[int]


class BarreeView(TypedDict):
    """What ``BarreeState.view`` shows (everyone sees the same).

    ``cards`` are each seat's face-up cards (fields), ``hidden`` how many hidden cards
    each still has, ``die`` the roll being played (0 = the bar), ``minus`` the match's
    minus points so far and ``round_minus`` those of each finished round.
    """

    game: str
    players: int
    round: int
    rounds: int
    phase: str
    current: int | None
    starter: int
    die: int | None
    blockade: int
    pieces: list[int]
    cards: list[list[int]]
    hidden: list[int]
    revealed: bool
    draw_count: int
    discard_count: int
    discard_top: int | None
    finisher: int | None
    minus: list[int]
    round_minus: list[list[int]]
    start_rolls: list[list[int | None]]
    drive_targets: list[int]
    last_walk: BarreeWalk | None
    events: list[BarreeEvent]


def format_walk(path: Sequence[int]) -> str:
    return "-".join(str(field) for field in path)


def _parse_walk(action: str) -> tuple[int, ...]:
    numbers = [whole_number(part, max_digits=2) for part in action.split("-")]
    if None in numbers:
        raise IllegalAction(N_("“{action}” is not a walk like 34-35-45."), action=action)
    path = tuple(number for number in numbers if number is not None)
    unknown = [field for field in path if field not in NEIGHBOURS]
    if unknown:
        raise IllegalAction(N_("There is no field {field} on the board."), field=unknown[0])
    return path


def _parse_send(action: str) -> tuple[int, int]:
    parts = action.split(":")
    numbers = [whole_number(part, max_digits=2) for part in parts[1:]]
    if len(parts) != 3 or None in numbers:
        raise IllegalAction(N_("“{action}” is not a sending like send:1:63."), action=action)
    seat, field = numbers
    assert seat is not None and field is not None
    return seat, field


def _joined(fields: Iterable[int]) -> str:
    return ", ".join(str(field) for field in fields)


def _seat_names(players: int, names: Sequence[str] | None) -> Sequence[str]:
    return names if names is not None else [f"Seat {seat + 1}" for seat in range(players)]


@dataclass(frozen=True)
class WalkOption:
    """One distinct outcome of the rolled number: where the piece ends, what it discards."""

    action: str
    path: tuple[int, ...]
    end: int
    discards: tuple[int, ...]
    lands_on: tuple[int, ...]

    def label(self, names: Sequence[str] | None = None) -> str:
        """E.g. ``ends on 45, discards 34, 35, lands on Bob`` (fits a select option)."""
        parts = [f"ends on {self.end}"]
        parts.append(f"discards {_joined(self.discards)}" if self.discards else "discards nothing")
        if self.lands_on:
            who = [names[seat] if names else f"Seat {seat + 1}" for seat in self.lands_on]
            parts.append(f"lands on {', '.join(who)}")
        return ", ".join(parts)


@dataclass(frozen=True)
class SendOption:
    """Send the piece of ``seat`` to ``field`` using the mover's card of that field."""

    action: str
    seat: int
    field: int


class BarreeState(GameState):
    """A Barree match: one or more rounds, each dealt and set up afresh."""

    def __init__(
        self,
        *,
        players: int,
        rounds: int,
        rng: Rng,
        round_no: int = 0,
        starter: int = 0,
        current: int = 0,
        phase: str = PHASE_ROLL,
        die: int | None = None,
        blockade: int = 1,
        pieces: list[int] | None = None,
        cards: list[list[int]] | None = None,
        hidden: list[list[int]] | None = None,
        revealed: bool = False,
        draw_pile: list[int] | None = None,
        discard_pile: list[int] | None = None,
        finisher: int | None = None,
        round_minus: list[list[int]] | None = None,
        start_rolls: list[list[int | None]] | None = None,
        last_walk: BarreeWalk | None = None,
        events: list[BarreeEvent] | None = None,
    ) -> None:
        self.players = players
        self.rounds = rounds
        self.rng = rng
        self.round_no = round_no
        self.starter = starter
        self.current = current
        self.phase = phase
        self.die = die
        self.blockade = blockade
        self.pieces = pieces if pieces is not None else []
        self.cards = cards if cards is not None else []
        self.hidden = hidden if hidden is not None else []
        self.revealed = revealed
        self.draw_pile = draw_pile if draw_pile is not None else []
        self.discard_pile = discard_pile if discard_pile is not None else []
        self.finisher = finisher
        self.round_minus = round_minus if round_minus is not None else []
        self.start_rolls = start_rolls if start_rolls is not None else []
        self.last_walk = last_walk
        self.events = events if events is not None else []
        self._legal: list[str] | None = None

    # ----- the contract -------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        return None if self.phase == PHASE_OVER else self.current

    @property
    def is_over(self) -> bool:
        return self.phase == PHASE_OVER

    def legal_actions(self) -> list[str]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def _compute_legal(self) -> list[str]:
        if self.phase == PHASE_ROLL:
            return [ROLL]
        if self.phase == PHASE_MOVE:
            return [option.action for option in walk_options(self)]
        if self.phase == PHASE_DRIVE:
            return [option.action for option in send_options(self)] + [KEEP]
        return []

    def apply(self, action: str) -> BarreeState:
        new = self.copy()
        new.play(action)
        return new

    def play(self, action: str) -> None:
        """``apply`` on this state itself, without the copy: for the review's playouts,
        which throw every position away. An illegal action may leave it half played."""
        if self.phase == PHASE_OVER:
            raise IllegalAction(N_("The match is over."))
        self.events = []
        self._legal = None
        if self.phase == PHASE_ROLL:
            if action != ROLL:
                raise IllegalAction(N_("Roll the die first."))
            self._roll()
        elif self.phase == PHASE_MOVE:
            self._walk(action)
        elif action == KEEP:
            self.events.append({"type": "keep", "seat": self.current})
            self._end_turn()
        elif action.startswith("send:"):
            self._send(*_parse_send(action))
        else:
            raise IllegalAction(N_("Send the piece with one of your cards (send:1:63) or keep."))

    def returns(self) -> list[float]:
        return [-float(points) for points in self.minus_totals()]

    def minus_totals(self) -> list[int]:
        return [sum(points[seat] for points in self.round_minus) for seat in range(self.players)]

    def view(self, seat: int | None) -> BarreeView:
        # Nobody sees unrevealed hidden cards or the draw order, so every seat sees the same.
        drive_targets = (
            self.opponents_at(self.pieces[self.current]) if self.phase == PHASE_DRIVE else []
        )
        return {
            "game": "barree",
            "players": self.players,
            "round": self.round_no,
            "rounds": self.rounds,
            "phase": self.phase,
            "current": self.current_player,
            "starter": self.starter,
            "die": self.die,
            "blockade": self.blockade,
            "pieces": list(self.pieces),
            "cards": [sorted(hand) for hand in self.cards],
            "hidden": [len(hand) for hand in self.hidden],
            "revealed": self.revealed,
            "draw_count": len(self.draw_pile),
            "discard_count": len(self.discard_pile),
            "discard_top": self.discard_pile[-1] if self.discard_pile else None,
            "finisher": self.finisher,
            "minus": self.minus_totals(),
            "round_minus": [list(points) for points in self.round_minus],
            "start_rolls": [list(rolls) for rolls in self.start_rolls],
            "drive_targets": drive_targets,
            "last_walk": _copy_walk(self.last_walk) if self.last_walk else None,
            "events": [dict(event) for event in self.events],
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "rounds": self.rounds,
            "rng": self.rng.to_dict(),
            "round_no": self.round_no,
            "starter": self.starter,
            "current": self.current,
            "phase": self.phase,
            "die": self.die,
            "blockade": self.blockade,
            "pieces": list(self.pieces),
            "cards": [list(hand) for hand in self.cards],
            "hidden": [list(hand) for hand in self.hidden],
            "revealed": self.revealed,
            "draw_pile": list(self.draw_pile),
            "discard_pile": list(self.discard_pile),
            "finisher": self.finisher,
            "round_minus": [list(points) for points in self.round_minus],
            "start_rolls": [list(rolls) for rolls in self.start_rolls],
            "last_walk": _copy_walk(self.last_walk) if self.last_walk else None,
            "events": [_copy_event(event) for event in self.events],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BarreeState:
        return cls(
            players=int(data["players"]),
            rounds=int(data["rounds"]),
            rng=Rng.from_dict(data["rng"]),
            round_no=int(data["round_no"]),
            starter=int(data["starter"]),
            current=int(data["current"]),
            phase=str(data["phase"]),
            die=data["die"],
            blockade=int(data["blockade"]),
            pieces=[int(field) for field in data["pieces"]],
            cards=[[int(card) for card in hand] for hand in data["cards"]],
            hidden=[[int(card) for card in hand] for hand in data["hidden"]],
            revealed=bool(data["revealed"]),
            draw_pile=[int(card) for card in data["draw_pile"]],
            discard_pile=[int(card) for card in data["discard_pile"]],
            finisher=data["finisher"],
            round_minus=[list(points) for points in data["round_minus"]],
            start_rolls=[list(rolls) for rolls in data["start_rolls"]],
            last_walk=_copy_walk(data["last_walk"]) if data["last_walk"] else None,
            events=[_copy_event(event) for event in data["events"]],
        )

    def describe(self, action: str, names: Sequence[str] | None = None) -> str:
        """A sentence for the move log, from the point of view of this (pre-action) state."""
        who = _seat_names(self.players, names)
        mover = who[self.current]
        if action == ROLL:
            return f"{mover} rolls the die."
        if action == KEEP:
            return f"{mover} leaves the piece there."
        if action.startswith("send:"):
            seat, field = _parse_send(action)
            victim = who[seat] if 0 <= seat < self.players else f"seat {seat}"
            return f"{mover} plays card {field} and sends {victim} to {field}."
        path = _parse_walk(action)
        discards = [field for field in dict.fromkeys(path[1:]) if field in self.cards[self.current]]
        tail = f" and discards {_joined(discards)}" if discards else ""
        return f"{mover} walks {action}{tail}."

    # ----- helpers used by the options, the computer player and the tests -------------

    def copy(self) -> BarreeState:
        return BarreeState(
            players=self.players,
            rounds=self.rounds,
            rng=self.rng.copy(),
            round_no=self.round_no,
            starter=self.starter,
            current=self.current,
            phase=self.phase,
            die=self.die,
            blockade=self.blockade,
            pieces=list(self.pieces),
            cards=[list(hand) for hand in self.cards],
            hidden=[list(hand) for hand in self.hidden],
            revealed=self.revealed,
            draw_pile=list(self.draw_pile),
            discard_pile=list(self.discard_pile),
            finisher=self.finisher,
            round_minus=[list(points) for points in self.round_minus],
            start_rolls=[list(rolls) for rolls in self.start_rolls],
            last_walk=self.last_walk,
            events=list(self.events),
        )

    def opponents_at(self, field: int) -> list[int]:
        return [
            seat
            for seat, where in enumerate(self.pieces)
            if where == field and seat != self.current
        ]

    def held(self, seat: int) -> int:
        """Cards the seat still holds, hidden ones included: its minus points if play ended now."""
        return len(self.cards[seat]) + len(self.hidden[seat])

    def all_cards(self) -> list[int]:
        """Every card wherever it is; always the 48 fields once (a property test checks)."""
        held = [card for hand in self.cards + self.hidden for card in hand]
        return held + self.draw_pile + self.discard_pile

    # ----- setting up a round ---------------------------------------------------------

    def _start_round(self) -> None:
        self.round_no += 1
        deck = list(FIELDS)
        self.rng.shuffle(deck)
        self.cards, self.hidden = [], []
        for _ in range(self.players):
            self.cards.append([deck.pop() for _ in range(FACE_UP_CARDS)])
            self.hidden.append([deck.pop() for _ in range(HIDDEN_CARDS)])
        self.draw_pile, self.discard_pile = deck, []
        self.revealed = False
        self.finisher = None
        self.last_walk = None
        self.starter = self._starting_roll()
        self.pieces = [0] * self.players
        for offset in range(self.players):
            self.pieces[(self.starter + offset) % self.players] = self._draw_and_discard()
        blockade_card = self._draw_and_discard()
        self.blockade = row_of(blockade_card)
        self.current, self.phase, self.die = self.starter, PHASE_ROLL, None
        self.events.append(
            {
                "type": "setup",
                "round": self.round_no,
                "starter": self.starter,
                "start_rolls": [list(rolls) for rolls in self.start_rolls],
                "pieces": list(self.pieces),
                "blockade_card": blockade_card,
                "blockade": self.blockade,
            }
        )

    def _starting_roll(self) -> int:
        """Everyone rolls, highest starts (bar = 0); ties among the highest roll again."""
        contenders = list(range(self.players))
        self.start_rolls = []
        while True:
            rolls: list[int | None] = [None] * self.players
            for seat in contenders:
                rolls[seat] = self.rng.randint(BAR, 5, seat)
            self.start_rolls.append(rolls)
            best = max(roll for roll in rolls if roll is not None)
            contenders = [seat for seat in contenders if rolls[seat] == best]
            if len(contenders) == 1:
                return contenders[0]

    def _draw_and_discard(self) -> int:
        if not self.draw_pile:
            self.draw_pile, self.discard_pile = self.discard_pile, []
            self.rng.shuffle(self.draw_pile)
            self.events.append({"type": "reshuffle", "cards": len(self.draw_pile)})
        card = self.draw_pile.pop()
        self.discard_pile.append(card)
        return card

    # ----- a turn ---------------------------------------------------------------------

    def with_die(self, face: int) -> BarreeState:
        """This state, in the roll phase, as it would be had the die shown ``face``: a
        review weighs the roll against every face it could have shown."""
        assert self.phase == PHASE_ROLL and BAR <= face <= 5
        new = self.copy()
        new.events = []
        new._show_die(face)
        return new

    def _roll(self) -> None:
        self._show_die(self.rng.randint(BAR, 5, self.current))

    def _show_die(self, face: int) -> None:
        self.die = face
        self.events.append({"type": "roll", "seat": self.current, "die": self.die})
        if self.die == BAR:
            card = self._draw_and_discard()
            self.blockade = row_of(card)
            self.events.append(
                {"type": "bar", "seat": self.current, "card": card, "row": self.blockade}
            )
            self._end_turn()
        elif row_of(self.pieces[self.current]) == self.blockade:
            self.events.append({"type": "trapped", "seat": self.current, "die": self.die})
            self._end_turn()
        else:
            self.phase = PHASE_MOVE

    def _walk(self, action: str) -> None:
        path = _parse_walk(action)
        self._check_walk(path)
        hand = self.cards[self.current]
        discarded = [field for field in dict.fromkeys(path[1:]) if field in hand]
        for card in discarded:
            hand.remove(card)
            self.discard_pile.append(card)
        self.pieces[self.current] = path[-1]
        self.last_walk = {"seat": self.current, "path": list(path), "discarded": discarded}
        self.events.append({"type": "walk", **self.last_walk})
        self._after_discards()
        if send_options(self):
            self.phase = PHASE_DRIVE
        else:
            self._end_turn()

    def _check_walk(self, path: tuple[int, ...]) -> None:
        if self.die is None:
            raise IllegalAction(N_("Roll the die first."))
        if path[0] != self.pieces[self.current]:
            raise IllegalAction(
                N_("Your piece stands on {field}."), field=self.pieces[self.current]
            )
        if len(path) != self.die + 1:
            raise IllegalAction(N_("You rolled {die}: walk exactly {die} steps."), die=self.die)
        for here, there in itertools.pairwise(path):
            if there not in NEIGHBOURS[here]:
                raise IllegalAction(N_("No line joins {here} and {there}."), here=here, there=there)
            if row_of(there) == self.blockade:
                raise IllegalAction(
                    N_("Field {field} is blockaded (row {row})."), field=there, row=self.blockade
                )

    def _send(self, seat: int, field: int) -> None:
        if seat not in self.opponents_at(self.pieces[self.current]):
            raise IllegalAction(N_("You can only send a piece that stands where you ended."))
        if field not in self.cards[self.current]:
            raise IllegalAction(N_("You hold no face-up card {field}."), field=field)
        if row_of(field) == self.blockade:
            raise IllegalAction(N_("You cannot send a piece into the blockaded row."))
        if field in self.pieces:
            raise IllegalAction(N_("Field {field} is occupied."), field=field)
        self.pieces[seat] = field
        self.cards[self.current].remove(field)
        self.discard_pile.append(field)
        self.events.append({"type": "send", "seat": self.current, "target": seat, "field": field})
        self._after_discards()
        self._end_turn()

    def _after_discards(self) -> None:
        """The reveal, then whether the mover has just emptied his hand."""
        if not self.revealed and len(self.cards[self.current]) <= REVEAL_AT:
            self.revealed = True
            for seat in range(self.players):
                self.cards[seat].extend(self.hidden[seat])
                self.hidden[seat] = []
            self.events.append(
                {"type": "reveal", "seat": self.current, "cards": [sorted(h) for h in self.cards]}
            )
        if self.held(self.current) == 0:
            first = self.finisher is None
            if first:
                self.finisher = self.current
            self.events.append({"type": "finished", "seat": self.current, "first": first})

    def _end_turn(self) -> None:
        following = (self.current + 1) % self.players
        if self.finisher is not None and following == self.starter:
            self._end_round()
            return
        self.current, self.phase, self.die = following, PHASE_ROLL, None

    def _end_round(self) -> None:
        minus = [self.held(seat) for seat in range(self.players)]
        self.round_minus.append(minus)
        self.events.append({"type": "round_over", "round": self.round_no, "minus": minus})
        if self.round_no < self.rounds:
            self._start_round()
            return
        self.phase, self.die = PHASE_OVER, None
        self.events.append({"type": "match_over", "minus": self.minus_totals()})


def _copy_walk(walk: BarreeWalk) -> BarreeWalk:
    return {"seat": walk["seat"], "path": list(walk["path"]), "discarded": list(walk["discarded"])}


def _copy_event(event: BarreeEvent) -> BarreeEvent:
    return {key: list(value) if isinstance(value, list) else value for key, value in event.items()}


# ----- options for the Discord layer ----------------------------------------------------


def walk_options(state: BarreeState) -> list[WalkOption]:
    """One canonical walk per distinct (end field, cards discarded), best first.

    Best first means: more cards discarded, then landing on an opponent one can send
    away, then ending closer to the cards still held.
    """
    if state.phase != PHASE_MOVE or state.die is None:
        return []
    hand = state.cards[state.current]
    outcomes = walk_outcomes(state.pieces[state.current], state.die, state.blockade, hand)
    options = []
    for (end, discarded), path in outcomes.items():
        options.append(
            WalkOption(
                action=format_walk(path),
                path=path,
                end=end,
                discards=tuple(sorted(discarded)),
                lands_on=tuple(state.opponents_at(end)),
            )
        )

    def rank(option: WalkOption) -> tuple[int, int, int, str]:
        return (*_walk_rank(state, hand, option.end, option.discards), option.action)

    return sorted(options, key=rank)


def first_walk(state: BarreeState) -> str | None:
    """``walk_options(state)[0].action`` (None without a walk), without building and
    formatting every option: the review's playouts take one at every turn. Fields have
    two digits and the walks of a roll one length, so paths sort as their actions do."""
    if state.phase != PHASE_MOVE or state.die is None:
        return None
    hand = state.cards[state.current]
    outcomes = walk_outcomes(state.pieces[state.current], state.die, state.blockade, hand)
    if not outcomes:
        return None
    most = max(len(discarded) for _end, discarded in outcomes)
    _rank, path = min(
        (_walk_rank(state, hand, end, discarded), path)
        for (end, discarded), path in outcomes.items()
        if len(discarded) == most
    )
    return format_walk(path)


def _walk_rank(
    state: BarreeState, hand: Sequence[int], end: int, discards: Iterable[int]
) -> tuple[int, int, int]:
    """How ``walk_options`` ranks a walk, smaller first, before its action breaks ties."""
    shed = set(discards)
    left = [card for card in hand if card not in shed]
    can_send = bool(state.opponents_at(end)) and bool(send_cards(state, end, left))
    reach = distances(end, state.blockade)
    spread = sum(reach.get(card, 2 * ROWS) for card in left)
    return (-len(shed), -int(can_send), spread)


def send_cards(state: BarreeState, end: int, hand: Iterable[int]) -> list[int]:
    """The cards of ``hand`` the mover could send a piece to once his piece stands on ``end``."""
    occupied = {field for seat, field in enumerate(state.pieces) if seat != state.current}
    occupied.add(end)
    return sorted(card for card in hand if row_of(card) != state.blockade and card not in occupied)


def send_options(state: BarreeState) -> list[SendOption]:
    """Every sending open to the mover where he ended, by target seat then field."""
    end = state.pieces[state.current]
    usable = send_cards(state, end, state.cards[state.current])
    return [
        SendOption(action=f"send:{seat}:{card}", seat=seat, field=card)
        for seat in state.opponents_at(end)
        for card in usable
    ]


def new_game(players: int = 2, seed: int = 0, rounds: int = 1) -> BarreeState:
    if not 2 <= players <= 4:
        raise IllegalAction(N_("Barree is played by 2 to 4 players."))
    if not 1 <= rounds <= MAX_ROUNDS:
        raise IllegalAction(N_("A match has 1 to {rounds} rounds."), rounds=MAX_ROUNDS)
    state = BarreeState(players=players, rounds=rounds, rng=Rng(seed))
    state._start_round()
    return state
