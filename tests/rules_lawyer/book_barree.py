"""Barree written again from the rule book, slowly and literally, to check the engine.

Fields are two-digit numbers: tens = number row 1..8, units = place 1..6. Nothing
here is shared with ``games.barree``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

FIELDS = [10 * row + place for row in range(1, 9) for place in range(1, 7)]
DIAGONALS = [(21, 32), (45, 34), (56, 65), (76, 85)]
BAR = 0


def row(field_: int) -> int:
    return field_ // 10


@cache
def neighbours(field_: int) -> set[int]:
    near = set()
    for other in (field_ - 1, field_ + 1, field_ - 10, field_ + 10):
        if other in FIELDS and (row(other) == row(field_) or other % 10 == field_ % 10):
            near.add(other)
    for one, two in DIAGONALS:
        if field_ == one:
            near.add(two)
        if field_ == two:
            near.add(one)
    return near


@cache
def walks(start: int, steps: int, blockade: int) -> tuple[tuple[int, ...], ...]:
    """Every walk of exactly ``steps`` steps along lines, start included, that never
    enters a field of the blockaded row. A piece in that row cannot walk at all."""
    if row(start) == blockade:
        return ()
    found: list[tuple[int, ...]] = []

    def extend(path: tuple[int, ...]) -> None:
        if len(path) == steps + 1:
            found.append(path)
            return
        for near in sorted(neighbours(path[-1])):
            if row(near) != blockade:
                extend((*path, near))

    extend((start,))
    return tuple(found)


def walk_discards(path: tuple[int, ...], usable: set[int]) -> frozenset[int]:
    """The mover's usable cards among the fields passed or reached (not the start,
    unless he comes back to it)."""
    return frozenset(f for f in path[1:] if f in usable)


def send_fields(usable: set[int], pieces: list[int], blockade: int) -> list[int]:
    """Cards that may send a piece: not in the blockaded row, not on an occupied field."""
    return sorted(f for f in usable if row(f) != blockade and f not in pieces)


@dataclass
class Round:
    """The table during one round, as the rule book describes it."""

    players: int
    starter: int
    pieces: list[int]
    face_up: list[set[int]]
    hidden: list[set[int]]
    original: list[frozenset[int]]
    blockade: int
    current: int
    revealed: bool = False
    finisher: int | None = None
    ended: bool = False
    minus: list[int] = field(default_factory=list)

    def usable(self, seat: int) -> set[int]:
        return self.face_up[seat] | (self.hidden[seat] if self.revealed else set())

    def held(self, seat: int) -> set[int]:
        return self.face_up[seat] | self.hidden[seat]

    def discard(self, seat: int, cards: set[int] | frozenset[int]) -> None:
        self.face_up[seat] -= cards
        if self.revealed:
            self.hidden[seat] -= cards

    def outcomes(self, die: int) -> dict[tuple[int, frozenset[int]], tuple[int, ...]]:
        """(end field, discarded cards) -> one walk giving it."""
        seat = self.current
        result: dict[tuple[int, frozenset[int]], tuple[int, ...]] = {}
        for path in walks(self.pieces[seat], die, self.blockade):
            result.setdefault((path[-1], walk_discards(path, self.usable(seat))), path)
        return result

    def opponents_at(self, field_: int) -> list[int]:
        return [s for s, at in enumerate(self.pieces) if at == field_ and s != self.current]

    def sends(self) -> set[str]:
        seat = self.current
        victims = self.opponents_at(self.pieces[seat])
        cards = send_fields(self.usable(seat), self.pieces, self.blockade)
        return {f"send:{victim}:{card}" for victim in victims for card in cards}

    def walk(self, path: tuple[int, ...]) -> None:
        seat = self.current
        self.discard(seat, walk_discards(path, self.usable(seat)))
        self.pieces[seat] = path[-1]

    def send(self, action: str) -> None:
        _, victim, card = action.split(":")
        self.pieces[int(victim)] = int(card)
        self.discard(self.current, {int(card)})

    def move_complete(self) -> None:
        """Reveal and finishing are looked at only once a move is over."""
        if not self.revealed and any(
            len(self.face_up[s] & self.original[s]) <= 2 for s in range(self.players)
        ):
            self.revealed = True
        if self.finisher is None and self.revealed:
            done = [s for s in range(self.players) if not self.held(s)]
            if self.current in done:
                self.finisher = self.current

    def end_turn(self) -> None:
        following = (self.current + 1) % self.players
        if self.finisher is not None and following == self.starter:
            self.ended = True
            self.minus = [len(self.held(s)) for s in range(self.players)]
            return
        self.current = following
