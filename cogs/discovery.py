"""Finding each registered game's cog by its key (``games.add_game_root`` reaches this
package too)."""

import importlib
import sys
from typing import Any

from cogs.table.game_cog import GameCog
from games import GAMES


class MissingCog(LookupError):
    """A registered game has no cog, or a cog's game is not registered."""


class MismatchedCog(LookupError):
    """A cog's hidden-information button disagrees with its game's spec."""


def game_cogs() -> list[type[GameCog[Any]]]:
    """The cog class of every game in ``GAMES``: the ``GameCog`` subclass ``cogs/<key>.py``
    defines for its key."""
    for key in GAMES:
        if key not in _loaded_cogs():
            try:
                importlib.import_module(f"cogs.{key}")
            except ModuleNotFoundError as missing:
                if missing.name != f"cogs.{key}":
                    raise
                raise MissingCog(f"game {key!r} has no cog: write cogs/{key}.py") from missing
    loaded = _loaded_cogs()
    strays = set(loaded) - set(GAMES)
    if strays:
        raise MissingCog(f"cogs for games that are not registered: {sorted(strays)}")
    unmatched = [key for key in GAMES if key not in loaded]
    if unmatched:
        raise MissingCog(f"cogs/<key>.py defines no GameCog for {unmatched}")
    cogs = [loaded[key] for key in GAMES]
    for cog in cogs:
        if cog.spec.hidden_information != bool(cog.private_label):
            raise MismatchedCog(
                f"{cog.spec.key!r}: a game with hidden information needs a private_label on"
                " its cog, and only such a game has one"
            )
    return cogs


def _loaded_cogs() -> dict[str, type[GameCog[Any]]]:
    """The defined cogs by key; one whose module was unloaded with its game root
    (``games.remove_game_root``) is gone with it."""
    return {key: cog for key, cog in GameCog.registry.items() if cog.__module__ in sys.modules}
