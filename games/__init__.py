"""Pure game rules and computer players: no Discord, no asyncio, no I/O."""

from collections.abc import Iterable
from typing import Any

from games import bann, barbu, barree, gulbara
from games.base import DEFAULT_LEVEL, LEVELS, GameSpec, GameState, IllegalAction, Option, Rng

GAMES: dict[str, GameSpec] = {
    spec.key: spec for spec in (bann.SPEC, gulbara.SPEC, barbu.SPEC, barree.SPEC)
}


def replay(
    kind: str, *, players: int, seed: int, options: dict[str, Any], actions: Iterable[str]
) -> GameState:
    """The state reached by playing ``actions`` from the seeded start.

    Actions starting with "!" are table events (resign, abandon) that the rules never
    see.
    """
    state = GAMES[kind].new_game(players=players, seed=seed, **options)
    for action in actions:
        if not action.startswith("!"):
            state = state.apply(action)
    return state


__all__ = [
    "DEFAULT_LEVEL",
    "GAMES",
    "LEVELS", "GameSpec", "GameState", "IllegalAction", "Option", "Rng", "replay"]
