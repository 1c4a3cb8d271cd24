"""Pure game rules and computer players: no Discord, no asyncio, no I/O."""

from collections.abc import Iterable
from typing import Any

from games import bann, barbu, barree, gulbara
from games.base import DEFAULT_LEVEL, LEVELS, GameSpec, GameState, IllegalAction, Option, Rng

GAMES: dict[str, GameSpec] = {}
"""Every game the bot hosts, by key: the one registry. A game's key also names its
picture (``render/<key>.py``) and its Discord adapter (``cogs/<key>.py``)."""


def register(spec: GameSpec) -> None:
    """Host one more game (``GameSpec.key`` must be new)."""
    if spec.key in GAMES:
        raise ValueError(f"a game {spec.key!r} is registered already")
    GAMES[spec.key] = spec


for _spec in (bann.SPEC, gulbara.SPEC, barbu.SPEC, barree.SPEC):
    register(_spec)


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
    "LEVELS",
    "GameSpec",
    "GameState",
    "IllegalAction",
    "Option",
    "Rng",
    "register",
    "replay",
]
