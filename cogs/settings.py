"""`/settings`: a server's pace and table options. Everyone may look; changing them needs
the Manage Server permission."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.clock_seats import CLOCK_OPTIONS
from data import Store
from data.league import League
from data.settings import SettingsStore
from games import GAMES
from games import clock as rules

GAME_CHOICES = [app_commands.Choice(name=spec.title, value=key) for key, spec in GAMES.items()]
LOBBY_OPTIONS = [
    app_commands.Choice(name=name, value=seconds)
    for name, seconds in rules.LOBBY_EXPIRY_CHOICES.items()
]
NEEDS_MANAGE_SERVER = "Only members with the **Manage Server** permission can change {what}."


class ServerSettings(commands.Cog):
    def __init__(self, bot: commands.Bot, store: Store) -> None:
        self.bot = bot
        self.settings = SettingsStore(store)
        self.league = League(store)

    @app_commands.command(name="settings", description="Show (or change) this server's settings")
    @app_commands.describe(
        game="The game whose default clock `clock` sets",
        clock="Default time per decision for `game` (Manage Server)",
        lobby_expiry="How long a table waits to be started before it closes (Manage Server)",
        rate_computer_games="Rate games with computer players in the league (Manage Server)",
        threads="Open each new table in its own thread (Manage Server)",
    )
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.choices(clock=CLOCK_OPTIONS, lobby_expiry=LOBBY_OPTIONS)
    async def settings_command(
        self,
        interaction: discord.Interaction[Any],
        game: app_commands.Choice[str] | None = None,
        clock: app_commands.Choice[int] | None = None,
        lobby_expiry: app_commands.Choice[int] | None = None,
        rate_computer_games: bool | None = None,
        threads: bool | None = None,
    ) -> None:
        guild_id = interaction.guild_id
        if guild_id is None:
            await _private(interaction, "Settings belong to a server: use this in a server.")
            return
        changes = {
            "the default clock": clock,
            "the lobby expiry": lobby_expiry,
            "whether computer games are rated": rate_computer_games,
            "tables in threads": threads,
        }
        wanted = [what for what, value in changes.items() if value is not None]
        if wanted and not interaction.permissions.manage_guild:
            await _private(interaction, NEEDS_MANAGE_SERVER.format(what=" and ".join(wanted)))
            return
        if (clock is None) != (game is None):
            await _private(interaction, "Give both `game` and `clock` to set a game's clock.")
            return
        if game is not None and clock is not None:
            await self.settings.set_clock(guild_id, game.value, clock.value)
        if lobby_expiry is not None:
            await self.settings.set_lobby_expiry(guild_id, lobby_expiry.value)
        if rate_computer_games is not None:
            await self.league.set_rate_computer_games(guild_id, rate_computer_games)
        if threads is not None:
            await self.settings.set_threads(guild_id, threads)
        embed = await self.embed(guild_id)
        note = "Settings changed." if wanted else None
        await interaction.response.send_message(note, embed=embed, ephemeral=True)

    async def embed(self, guild_id: int) -> discord.Embed:
        current = await self.settings.get(guild_id)
        rated = (await self.league.settings(guild_id)).rate_computer_games
        embed = discord.Embed(title="Server settings", colour=discord.Colour.blurple())
        embed.add_field(
            name="Time per decision",
            value="\n".join(
                f"{spec.title}: {rules.describe(rules.clock_for(key, current.clocks))}"
                for key, spec in GAMES.items()
            ),
            inline=False,
        )
        expiry = current.lobby_expiry or rules.DEFAULT_LOBBY_EXPIRY
        embed.add_field(name="Lobby expiry", value=rules.describe(expiry))
        embed.add_field(
            name="Games with computers", value="rated" if rated else "recorded, not rated"
        )
        embed.add_field(name="Tables in threads", value="on" if current.threads else "off")
        embed.set_footer(text="Everyone may view; Manage Server changes them with /settings.")
        return embed


async def _private(interaction: discord.Interaction[Any], text: str) -> None:
    await interaction.response.send_message(text, ephemeral=True)
