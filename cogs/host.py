"""The bot as the cogs see it: every partner a typed attribute, never looked up by name."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

if TYPE_CHECKING:
    from cogs.archive import Archive
    from cogs.clocks import Clocks
    from cogs.league import LeagueCog
    from cogs.table.commands import Tables
    from data.settings import SettingsStore


class Host(commands.Bot):
    """Base of the bot class: ``bot.py`` sets these before any cog runs."""

    tables: Tables
    league: LeagueCog
    archive: Archive
    clocks: Clocks
    settings: SettingsStore


def host_of(interaction: discord.Interaction[Any]) -> Host:
    """The bot an interaction came to (components and commands only reach ours)."""
    client = interaction.client
    assert isinstance(client, Host), "only the table bot routes our components"
    return client
