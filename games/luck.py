"""How a player's dice fell, against what fair dice give on average.

Counted from the chance events a replay re-derives from the seed, so the numbers are
exactly the dice the player saw. The dice games are those whose spec declares ``dice``
(Gul Bara and Barree): Bann's only random event is the opening roll.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from games import GAMES
from games.base import ChanceEvent, Step
from games.proof import GameFacts, walk

DIE_SIDES = 6


def dice_games() -> list[str]:
    """The key of every game played with dice, in the registry's order."""
    return [key for key, spec in GAMES.items() if spec.dice is not None]


def face_names(kind: str) -> Mapping[int, str]:
    """Die faces of game ``kind`` that are not a number (catalogue ids), e.g. Barree's bar."""
    dice = GAMES[kind].dice
    return {} if dice is None else dice.face_names


@dataclass
class DiceLuck:
    """A player's throws in one game kind: how many, which faces, how many doubles."""

    faces: dict[int, int] = field(default_factory=dict)
    rolls: int = 0
    pair_rolls: int = 0
    doubles: int = 0
    games: int = 0

    @property
    def dice(self) -> int:
        return sum(self.faces.values())

    @property
    def expected_per_face(self) -> float:
        return self.dice / DIE_SIDES

    @property
    def expected_doubles(self) -> float:
        return self.pair_rolls / DIE_SIDES

    @property
    def average(self) -> float | None:
        if not self.dice:
            return None
        return sum(face * count for face, count in self.faces.items()) / self.dice

    def add_throw(self, values: Sequence[int], lowest: int) -> None:
        self.rolls += 1
        for face in range(lowest, lowest + DIE_SIDES):
            self.faces.setdefault(face, 0)
        for value in values:
            self.faces[value] += 1
        if len(values) == 2:
            self.pair_rolls += 1
            self.doubles += values[0] == values[1]

    def merge(self, other: DiceLuck) -> None:
        for face, count in other.faces.items():
            self.faces[face] = self.faces.get(face, 0) + count
        self.rolls += other.rolls
        self.pair_rolls += other.pair_rolls
        self.doubles += other.doubles
        self.games += other.games


def _throw(event: ChanceEvent) -> tuple[list[int], int] | None:
    """The dice of one chance event and the lowest face of such a die, if it is a throw."""
    if event.kind == "dice":
        return [int(value) for value in event.outcome.split()], 1
    low, dots, high = event.kind.partition("..")
    if dots and int(high) - int(low) + 1 == DIE_SIDES:
        return [int(event.outcome)], int(low)
    return None


def luck_in_game(
    facts: GameFacts, actions: Sequence[tuple[int | None, str]], seat: int
) -> DiceLuck:
    """Every throw ``seat`` made in one game, opening throws included."""
    luck = DiceLuck(games=1)
    for item in walk(facts, actions):
        events = item.chance if isinstance(item, Step) else item
        for event in events:
            throw = _throw(event) if event.seat == seat else None
            if throw is not None:
                luck.add_throw(*throw)
    return luck
