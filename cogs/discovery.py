"""Finding each registered game's cog by its key."""

import importlib
from typing import Any

from cogs.table.game_cog import GameCog
from games import GAMES


class MissingCog(LookupError):
    """A registered game has no cog, or a cog's game is not registered."""


def game_cogs() -> list[type[GameCog[Any]]]:
    """The cog class of every game in ``GAMES``: the ``GameCog`` subclass defined for its
    key, found in ``cogs/<key>.py`` unless it was defined elsewhere before."""
    for key in GAMES:
        if key not in GameCog.registry:
            try:
                importlib.import_module(f"cogs.{key}")
            except ModuleNotFoundError as missing:
                if missing.name != f"cogs.{key}":
                    raise
                raise MissingCog(f"game {key!r} has no cog: write cogs/{key}.py") from missing
    strays = set(GameCog.registry) - set(GAMES)
    if strays:
        raise MissingCog(f"cogs for games that are not registered: {sorted(strays)}")
    unmatched = [key for key in GAMES if key not in GameCog.registry]
    if unmatched:
        raise MissingCog(f"cogs/<key>.py defines no GameCog for {unmatched}")
    return [GameCog.registry[key] for key in GAMES]


__all__ = ["GameCog", "MissingCog", "game_cogs"]
