"""`/settings`: a server's pace, table options and language. Everyone may look (in his
own language); changing them needs the Manage Server permission."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.host import Host, Interaction
from cogs.language import language_of, private_language
from cogs.table.deadlines import CLOCK_OPTIONS
from data.league import League
from data.settings import GuildSettings, SettingsStore
from games import GAMES
from games import turn_clock as rules
from texts.common import duration
from texts.i18n import N_, command_name, language_name, languages, t

GAME_CHOICES = [app_commands.Choice(name=spec.title, value=key) for key, spec in GAMES.items()]
LOBBY_OPTIONS = [
    app_commands.Choice(name=name, value=seconds)
    for name, seconds in rules.LOBBY_EXPIRY_CHOICES.items()
]
LANGUAGE_OPTIONS = [
    app_commands.Choice(name=language_name(language), value=language) for language in languages()
]
CHANGES = {
    "clock": N_("the default clock"),
    "lobby_expiry": N_("the lobby expiry"),
    "rate_computer_games": N_("whether computer games are rated"),
    "threads": N_("tables in threads"),
    "language": N_("the server's language"),
    "tournament_role": N_("who may organise tournaments"),
}
"""What each option changes, as the refusal to a member without the permission names it."""


class ServerSettings(commands.Cog):
    def __init__(self, bot: Host, settings: SettingsStore, league: League) -> None:
        self.bot = bot
        self.settings = settings
        self.league = league

    @app_commands.command(
        name=command_name("settings"), description=N_("Show (or change) this server's settings")
    )
    @app_commands.rename(
        game=command_name("game"),
        clock=command_name("clock"),
        lobby_expiry=command_name("lobby_expiry"),
        rate_computer_games=command_name("rate_computer_games"),
        threads=command_name("threads"),
        language=command_name("language"),
        tournament_role=command_name("tournament_role"),
    )
    @app_commands.describe(
        game=N_("The game whose default time per decision to change"),
        clock=N_("That game's new default time per decision (Manage Server)"),
        lobby_expiry=N_("How long a table waits to be started before it closes (Manage Server)"),
        rate_computer_games=N_("Rate games with computer players in the league (Manage Server)"),
        threads=N_("Open each new table in its own thread (Manage Server)"),
        language=N_("The language of public messages and pictures (Manage Server)"),
        tournament_role=N_("Members with this role may organise tournaments (Manage Server)"),
    )
    @app_commands.choices(game=GAME_CHOICES, language=LANGUAGE_OPTIONS)
    @app_commands.choices(clock=CLOCK_OPTIONS, lobby_expiry=LOBBY_OPTIONS)
    async def settings_command(
        self,
        interaction: Interaction,
        game: app_commands.Choice[str] | None = None,
        clock: app_commands.Choice[int] | None = None,
        lobby_expiry: app_commands.Choice[int] | None = None,
        rate_computer_games: bool | None = None,
        threads: bool | None = None,
        language: app_commands.Choice[str] | None = None,
        tournament_role: discord.Role | None = None,
    ) -> None:
        reader = private_language(interaction)
        guild_id = interaction.guild_id
        if guild_id is None:
            await _private(
                interaction, t(reader, "Settings belong to a server: use this in a server.")
            )
            return
        given = {
            "clock": clock,
            "lobby_expiry": lobby_expiry,
            "rate_computer_games": rate_computer_games,
            "threads": threads,
            "language": language,
            "tournament_role": tournament_role,
        }
        wanted = [
            t(reader, CHANGES[option]) for option, value in given.items() if value is not None
        ]
        if wanted and not interaction.permissions.manage_guild:
            refusal = t(
                reader,
                "Only members with the **Manage Server** permission can change {what}.",
                what=_listed(reader, wanted),
            )
            await _private(interaction, refusal)
            return
        if (clock is None) != (game is None):
            await _private(
                interaction, t(reader, "Give both `game` and `clock` to set a game's clock.")
            )
            return
        if game is not None and clock is not None:
            await self.settings.set_clock(guild_id, game.value, clock.value)
        if lobby_expiry is not None:
            await self.settings.set_lobby_expiry(guild_id, lobby_expiry.value)
        if rate_computer_games is not None:
            await self.league.set_rate_computer_games(guild_id, rate_computer_games)
        if threads is not None:
            await self.settings.set_threads(guild_id, threads)
        if language is not None:
            await self.settings.set_language(guild_id, language.value)
        if tournament_role is not None:
            # The server's @everyone role (its id is the server's) leaves it to Manage Server.
            role_id = None if tournament_role.id == guild_id else tournament_role.id
            await self.settings.set_tournament_role(guild_id, role_id)
        embed = await self.embed(guild_id, reader, interaction.guild)
        note = t(reader, "Settings changed.") if wanted else None
        await interaction.response.send_message(note, embed=embed, ephemeral=True)

    async def embed(self, guild_id: int, reader: str, guild: discord.Guild | None) -> discord.Embed:
        current = await self.settings.get(guild_id)
        rated = (await self.league.settings(guild_id)).rate_computer_games
        embed = discord.Embed(title=t(reader, "Server settings"), colour=discord.Colour.blurple())
        embed.add_field(
            name=t(reader, "Time per decision"),
            value="\n".join(
                f"{spec.title}: {duration(reader, rules.clock_for(key, current.clocks))}"
                for key, spec in GAMES.items()
            ),
            inline=False,
        )
        expiry = current.lobby_expiry or rules.DEFAULT_LOBBY_EXPIRY
        embed.add_field(name=t(reader, "Lobby expiry"), value=duration(reader, expiry))
        embed.add_field(
            name=t(reader, "Games with computers"),
            value=t(reader, "rated") if rated else t(reader, "recorded, not rated"),
        )
        embed.add_field(
            name=t(reader, "Tables in threads"),
            value=t(reader, "on") if current.threads else t(reader, "off"),
        )
        embed.add_field(name=t(reader, "Language"), value=_language_shown(reader, current, guild))
        embed.add_field(
            name=t(reader, "Tournaments organised by"),
            value=(
                t(reader, "Manage Server")
                if current.tournament_role is None
                else t(reader, "Manage Server or <@&{role}>", role=current.tournament_role)
            ),
        )
        embed.set_footer(
            text=t(reader, "Everyone may view; Manage Server changes them with /settings.")
        )
        return embed


def _language_shown(reader: str, current: GuildSettings, guild: discord.Guild | None) -> str:
    if current.language is not None:
        return language_name(current.language)
    followed = language_of(guild.preferred_locale if guild is not None else None)
    return t(reader, "{language} (the server's locale)", language=language_name(followed))


def _listed(reader: str, items: list[str]) -> str:
    """ "a, b and c" in the reader's language."""
    if len(items) == 1:
        return items[0]
    return t(reader, "{items} and {last}", items=", ".join(items[:-1]), last=items[-1])


async def _private(interaction: Interaction, text: str) -> None:
    await interaction.response.send_message(text, ephemeral=True)
