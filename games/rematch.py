"""A rematch's seating, for every game alike: the same players each one seat on, and the
player after the previous game's starter begins.

Seat order is what every game's turn order follows (two players alternate; Barbu's
declarers and Barree's turns go round the seats), so moving everyone one seat on and
letting the same seat number begin hands the start to the next player and keeps
everyone's neighbours: the other player in a game of two, the next declarer order, the
starting order turned by one. A game that always starts at seat 0 gets that from the
seating alone. In a game whose opening (a roll, a drawn first declarer) comes from the
seed, the rematch's seed is drawn like any other, again and again until its opening
gives that seat the start: every die and card stays as random as in any game, only the
opening is the one the rematch needs, and the record still verifies from the seed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from games.base import GameSpec, GameState

T = TypeVar("T")

SEEDS_TRIED = 200
"""Seeds drawn at most for a rematch's opening. A seat that begins one game in four
misses all of them once in 10^25 rematches; a game whose opening never lets it begin
keeps the last."""


def rotated(seats: Sequence[T]) -> list[T]:
    """Every player one seat on: seat ``i`` goes to the player of seat ``i + 1``."""
    return [*seats[1:], *seats[:1]]


def starter(spec: GameSpec[GameState], players: int, seed: int, options: Mapping[str, Any]) -> int:
    """The seat that acts first in the game of ``seed`` (0 for one that starts over)."""
    first = spec.new_game(players=players, seed=seed, **options).current_player
    return 0 if first is None else first


def rematch_seed(
    spec: GameSpec[GameState],
    players: int,
    options: Mapping[str, Any],
    begins: int,
    draw: Callable[[], int],
) -> int:
    """The first of the seeds ``draw`` gives whose game seat ``begins`` starts."""
    for _ in range(SEEDS_TRIED):
        seed = draw()
        if starter(spec, players, seed, options) == begins:
            break
    return seed
