"""The bot as the cogs see it: every partner a typed attribute, never looked up by name."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from discord.ext import commands

from data import Table
from games import GameState

if TYPE_CHECKING:
    from cogs.table.commands import Tables


class ResultRecorder(Protocol):
    """Where a finished game goes to be rated (the league)."""

    async def record_result(self, table: Table, state: GameState) -> str | None:
        """Record ``table``'s result once; the sentence on the new ratings, or None if
        the game was recorded before or is not rated."""


class Host(commands.Bot):
    """Base of the bot class: ``bot.py`` sets these before any cog runs."""

    tables: Tables
    league: ResultRecorder
