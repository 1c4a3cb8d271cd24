"""The engine contract every game honours (DESIGN.md §2).

A game is a ``GameSpec`` in the ``GAMES`` registry whose ``new_game`` returns an
immutable-by-convention ``GameState``: ``apply`` returns a new state and leaves the old
one untouched, so the Discord layer can try an action and throw the result away.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, MutableSequence, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

T = TypeVar("T")

LEVELS = ("easy", "normal", "hard")
"""Computer player strengths: easy loses to sensible players more often than it wins,
normal beats them, hard is the strongest."""
DEFAULT_LEVEL = "normal"


class IllegalAction(ValueError):
    """An action the rules do not allow. The message is a sentence for the player."""


class Rng:
    """The seeded random source that lives inside a game state.

    Every draw uses a fresh ``random.Random`` seeded from ``(seed, draws)``, so the
    whole source serialises as two integers and replays exactly.
    """

    __slots__ = ("draws", "seed")

    def __init__(self, seed: int, draws: int = 0) -> None:
        self.seed = seed
        self.draws = draws

    def _source(self) -> random.Random:
        source = random.Random(f"{self.seed}/{self.draws}")
        self.draws += 1
        return source

    def randint(self, low: int, high: int) -> int:
        return self._source().randint(low, high)

    def die(self) -> int:
        return self.randint(1, 6)

    def choice(self, options: Sequence[T]) -> T:
        return self._source().choice(options)

    def shuffle(self, items: MutableSequence[Any]) -> None:
        self._source().shuffle(items)

    def copy(self) -> Rng:
        return Rng(self.seed, self.draws)

    def to_dict(self) -> dict[str, int]:
        return {"seed": self.seed, "draws": self.draws}

    @classmethod
    def from_dict(cls, data: dict[str, int]) -> Rng:
        return cls(int(data["seed"]), int(data["draws"]))


class GameState(ABC):
    """One position of a game, including whose turn it is and the random source."""

    players: int

    @property
    @abstractmethod
    def current_player(self) -> int | None:
        """The seat that must act now; None once the game is over."""

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def legal_actions(self) -> list[str]:
        """Every action the current seat may take, in the RULES.md notation."""

    @abstractmethod
    def apply(self, action: str) -> GameState:
        """The state after ``action``; raises ``IllegalAction`` if it is not legal."""

    @abstractmethod
    def returns(self) -> list[float]:
        """Per-seat final score, higher is better."""

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """A JSON-safe dict of what ``seat`` may see (None: what everyone sees)."""

    @abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """An exact JSON-safe snapshot, random source included."""

    def describe(self, action: str) -> str:
        """A short human sentence for an action, used in move logs."""
        return action


@dataclass(frozen=True)
class Option:
    """A table option a player may set when creating a game (RULES.md *Option*)."""

    name: str
    default: int | bool
    description: str
    minimum: int | None = None
    maximum: int | None = None


@dataclass(frozen=True)
class GameSpec:
    key: str
    title: str
    min_players: int
    max_players: int
    new_game: Callable[..., GameState]
    from_dict: Callable[[dict[str, Any]], GameState]
    bot_action: Callable[..., str]
    options: tuple[Option, ...] = field(default=())


def check_level(level: str) -> None:
    if level not in LEVELS:
        raise ValueError(f"unknown computer level {level!r}; choose from {', '.join(LEVELS)}")


def placements(scores: Sequence[float]) -> list[int]:
    """Rank per seat from final scores: 1 is best, equal scores share a rank."""
    return [1 + sum(1 for other in scores if other > mine) for mine in scores]
