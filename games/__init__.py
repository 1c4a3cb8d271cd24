"""Pure game rules and computer players: no Discord, no asyncio, no I/O."""

from games import bann
from games.base import GameSpec, GameState, IllegalAction, Option, Rng

GAMES: dict[str, GameSpec] = {spec.key: spec for spec in (bann.SPEC,)}

__all__ = ["GAMES", "GameSpec", "GameState", "IllegalAction", "Option", "Rng"]
