"""The Tables cog: owns the parts of the table machinery and the `/game` commands."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.archive import seed_reveal
from cogs.host import Host
from cogs.language import private_language
from cogs.render_pool import RenderPool
from cogs.table.board import BoardMessages
from cogs.table.delivery import Delivery
from cogs.table.hooks import GameCog, Turn
from cogs.table.keeper import BoardKeeper
from cogs.table.lobby import Lobby, may_manage
from cogs.table.pipeline import Pipeline
from cogs.table.private import PrivateMessages
from cogs.table.replies import strip_components, tell
from cogs.table.results import Results
from cogs.table.routing import Router
from data import Store, Table
from games import GAMES
from texts.i18n import COMMAND_NAME, N_, command_name, t, tp

NEW = command_name("new")
"""The name of every game's `/<game> new` (its translation in the command name context)."""


class Tables(commands.Cog):
    """The one place that runs lobbies and turns for every game."""

    game = app_commands.Group(
        name=command_name("game"), description=N_("Manage the game in this channel")
    )

    def __init__(
        self,
        bot: Host,
        store: Store,
        seed_source: Callable[[], int],
        renderer: RenderPool | None = None,
    ) -> None:
        self.bot = bot
        self.renderer = renderer or RenderPool(processes=0)
        self.store = store
        self.seed_source = seed_source
        self.locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self.boards = BoardKeeper(self, store)
        self.board = BoardMessages(self)
        self.lobby = Lobby(self)
        self.router = Router(self)
        self.pipeline = Pipeline(self)
        self.delivery = Delivery(self)
        self.private = PrivateMessages()
        self.results = Results(self)
        self._start_sync: asyncio.Task[None] | None = None

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Once per process: redraw every board a crash or outage left behind."""
        if self._start_sync is None:
            self._start_sync = asyncio.get_running_loop().create_task(
                self.boards.sync_all(), name="table: board sync at start-up"
            )

    async def cog_unload(self) -> None:
        self.boards.stop()
        self.renderer.close()

    def game_cog(self, kind: str) -> GameCog[Any]:
        for cog in self.bot.cogs.values():
            if isinstance(cog, GameCog) and cog.spec.key == kind:
                return cog
        raise LookupError(f"no cog for game {kind!r}")

    def forget(self, game_id: int) -> None:
        """Drop what this process kept about a game that has ended.

        A click that still waits for the lock finds the game finished (a new version)
        and is refused as outdated, so dropping the lock is safe.
        """
        self.locks.pop(game_id, None)
        self.private.forget(game_id)

    # ---- what a game's cog calls --------------------------------------------------------

    async def play(
        self, turn: Turn[Any], actions: Sequence[str], *, done: str | None = None
    ) -> None:
        await self.pipeline.play(turn, actions, done=done)

    async def channel_table(self, interaction: discord.Interaction[Any]) -> Table | None:
        """The open table of the interaction's channel; None after telling the user."""
        table = await self.store.open_table_in(interaction.channel_id or 0)
        if table is None:
            new = tp(private_language(interaction), COMMAND_NAME, NEW)
            starts = ", ".join(f"`/{key} {new}`" for key in GAMES)
            await tell(
                interaction,
                N_("There is no game in this channel. Start one with {commands}."),
                commands=starts,
            )
        return table

    # ---- /game --------------------------------------------------------------------------

    @game.command(
        name=command_name("board"),
        description=N_("Post the current board of this channel's game again"),
    )
    async def board_command(self, interaction: discord.Interaction[Any]) -> None:
        table = await self.channel_table(interaction)
        if table is None:
            return
        await interaction.response.defer(thinking=True)
        async with self.locks[table.id]:
            fresh = await self.store.load(table.id)
            if fresh is None or not fresh.is_open:
                await interaction.edit_original_response(
                    content=t(private_language(interaction), "That game has just ended.")
                )
                return
            # A new version outdates every control on older copies of the board.
            await self.store.save(fresh, expected_version=fresh.version)
            old_board = fresh.board_message_id
            payload = await self.board.current_payload(fresh)
            message = await interaction.edit_original_response(**payload)
            await self.boards.shown(fresh, message.id)
        if old_board is not None:
            channel = self.bot.get_partial_messageable(fresh.channel_id, guild_id=fresh.guild_id)
            await strip_components(channel.get_partial_message(old_board))

    async def _clock_command(self, interaction: discord.Interaction[Any], verb: str) -> None:
        table = await self.channel_table(interaction)
        if table is not None:
            await self.bot.clocks.on_component(interaction, table, verb)

    @game.command(
        name=command_name("rejoin"),
        description=N_("Take your seat back from the computer playing it"),
    )
    async def rejoin_command(self, interaction: discord.Interaction[Any]) -> None:
        await self._clock_command(interaction, "rejoin")

    @game.command(
        name=command_name("pause"),
        description=N_("Propose (or accept) a pause; the clock stops"),
    )
    async def pause_command(self, interaction: discord.Interaction[Any]) -> None:
        await self._clock_command(interaction, "pause")

    @game.command(
        name=command_name("resume"), description=N_("Resume a paused game; the clock runs again")
    )
    async def resume_command(self, interaction: discord.Interaction[Any]) -> None:
        await self._clock_command(interaction, "resume")

    @game.command(
        name=command_name("resign"),
        description=N_("Resign the game you are playing in this channel"),
    )
    async def resign_command(self, interaction: discord.Interaction[Any]) -> None:
        table = await self.channel_table(interaction)
        if table is not None:
            await self.results.confirm_resign(interaction, table)

    @game.command(
        name=command_name("abandon"), description=N_("End this channel's game without a result")
    )
    async def abandon_command(self, interaction: discord.Interaction[Any]) -> None:
        table = await self.channel_table(interaction)
        if table is None:
            return
        if not may_manage(interaction, table):
            await tell(
                interaction,
                N_("Only the game's creator or someone with **Manage Messages** can abandon it."),
            )
            return
        await interaction.response.defer(thinking=True)
        async with self.locks[table.id]:
            fresh = await self.store.load(table.id)
            if fresh is None or not fresh.is_open:
                await interaction.followup.send(
                    t(private_language(interaction), "That game has just ended.")
                )
                return
            fresh.status = "aborted"
            await self.store.save(
                fresh, expected_version=fresh.version, actions=[(None, "!abandon")]
            )
        language = fresh.language
        headline = t(
            language,
            "Abandoned by {name}; the game is not rated.",
            name=interaction.user.display_name,
        )
        if fresh.state is not None:
            await self.board.refresh(fresh, GAMES[fresh.kind].from_dict(fresh.state), headline)
        elif fresh.board_message_id is not None:
            await self.boards.draw_or_retry(fresh, lambda: self.board.current_payload(fresh))
        announcement = t(
            language,
            "{game} game #{number}: {headline}",
            game=GAMES[fresh.kind].title,
            number=fresh.id,
            headline=headline,
        )
        await interaction.followup.send(f"{announcement}\n{seed_reveal(fresh, language)}")
        self.forget(fresh.id)
