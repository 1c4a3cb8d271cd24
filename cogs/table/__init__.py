"""The table machinery every game shares, one job per module.

- ``hooks``: ``GameCog``, the hooks each game's cog implements, and ``Turn``.
- ``components``: buttons and selects whose custom_id survives a restart.
- ``routing``: every click checked once and handed on.
- ``lobby``: opening a table, seats, start and cancel.
- ``pipeline``: playing a turn, computer seats, saving.
- ``board`` and ``keeper``: the board message and keeping it in step with the game.
- ``delivery``: private views by DM, turn pings.
- ``results``: resigning, the result announcement and the league's record.
- ``commands``: the ``Tables`` cog and its ``/game`` commands.
"""

from cogs.table.commands import Tables
from cogs.table.components import (
    UNRECOGNISED,
    TableButton,
    TableSelect,
    Target,
    is_routed,
    on_app_command_error,
    view_of,
)
from cogs.table.hooks import GameCog, Step, Turn, TurnLine
from cogs.table.replies import CAUGHT_UP, MENU_OUTDATED, OUTDATED, quoted

__all__ = [
    "CAUGHT_UP",
    "MENU_OUTDATED",
    "OUTDATED",
    "UNRECOGNISED",
    "GameCog",
    "Step",
    "TableButton",
    "TableSelect",
    "Tables",
    "Target",
    "Turn",
    "TurnLine",
    "is_routed",
    "on_app_command_error",
    "quoted",
    "view_of",
]
