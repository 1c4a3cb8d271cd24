"""The `/game` commands every table shares: show the board again, resign, abandon, the
clock's rejoin, pause and resume, and watch (follow a table or a member)."""

from __future__ import annotations

import asyncio

import discord
from discord import app_commands
from discord.ext import commands

from cogs.host import Host, Interaction
from cogs.language import private_language
from cogs.render_pool import RenderPool
from cogs.table.abandon import Abandoning
from cogs.table.board import BoardComposer
from cogs.table.clock_verbs import ClockVerbs
from cogs.table.follows import Spectators
from cogs.table.keeper import BoardKeeper
from cogs.table.memory import GameMemory
from cogs.table.results import Results
from cogs.table.router import Router
from data import Store
from texts.i18n import N_, command_name, t


class GameCommands(commands.Cog, name="Tables"):
    """`/game board|resign|abandon|rejoin|pause|resume|watch`, and at start-up the boards'
    repair and the messages of tables that ended unseen."""

    game = app_commands.Group(
        name=command_name("game"), description=N_("Manage the game in this channel")
    )

    def __init__(
        self,
        bot: Host,
        store: Store,
        memory: GameMemory,
        router: Router,
        composer: BoardComposer,
        keeper: BoardKeeper,
        results: Results,
        abandoning: Abandoning,
        clock_verbs: ClockVerbs,
        renderer: RenderPool,
        spectators: Spectators,
    ) -> None:
        self.bot = bot
        self.store = store
        self.memory = memory
        self.router = router
        self.composer = composer
        self.keeper = keeper
        self.results = results
        self.abandoning = abandoning
        self.clock_verbs = clock_verbs
        self.renderer = renderer
        self.spectators = spectators
        self._start_sync: asyncio.Task[None] | None = None

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Once per process: redraw every board a crash or outage left behind, and tell
        the followers of tables that ended while no process could."""
        if self._start_sync is None:
            self._start_sync = asyncio.get_running_loop().create_task(
                self._catch_up(), name="table: board sync at start-up"
            )

    async def _catch_up(self) -> None:
        await self.keeper.sync_all()
        await self.spectators.deliver_missed()

    async def cog_unload(self) -> None:
        self.keeper.stop()
        self.spectators.stop()
        await self.renderer.close()

    # ---- /game --------------------------------------------------------------------------

    @game.command(
        name=command_name("board"),
        description=N_("Post the current board of this channel's game again"),
    )
    async def board_command(self, interaction: Interaction) -> None:
        table = await self.router.channel_table(interaction)
        if table is None:
            return
        await interaction.response.defer(thinking=True)
        async with self.memory.lock(table.id):
            fresh = await self.store.load(table.id)
            if fresh is None or not fresh.is_open:
                await interaction.edit_original_response(
                    content=t(private_language(interaction), "That game has just ended.")
                )
                return
            # A new version outdates every control on older copies of the board.
            await self.store.save(fresh, expected_version=fresh.version)
            old_board = fresh.board_message_id
            payload = await self.composer.current_payload(fresh)
            message = await interaction.edit_original_response(**payload.edit())
            await self.keeper.shown(fresh, message.id)
        if old_board is not None:
            await self.keeper.point_to_board(fresh, old_board)

    async def _clock_command(self, interaction: Interaction, verb: str) -> None:
        table = await self.router.channel_table(interaction)
        if table is not None:
            await self.clock_verbs.on_component(interaction, table, verb)

    @game.command(
        name=command_name("rejoin"),
        description=N_("Take your seat back from the computer playing it"),
    )
    async def rejoin_command(self, interaction: Interaction) -> None:
        await self._clock_command(interaction, "rejoin")

    @game.command(
        name=command_name("pause"),
        description=N_("Propose (or accept) a pause; the clock stops"),
    )
    async def pause_command(self, interaction: Interaction) -> None:
        await self._clock_command(interaction, "pause")

    @game.command(
        name=command_name("resume"), description=N_("Resume a paused game; the clock runs again")
    )
    async def resume_command(self, interaction: Interaction) -> None:
        await self._clock_command(interaction, "resume")

    @game.command(
        name=command_name("resign"),
        description=N_("Resign the game you are playing in this channel"),
    )
    async def resign_command(self, interaction: Interaction) -> None:
        table = await self.router.channel_table(interaction)
        if table is not None:
            await self.results.confirm_resign(interaction, table)

    @game.command(
        name=command_name("watch"),
        description=N_("Follow this channel's table (a direct message when it ends); again: stop"),
    )
    @app_commands.rename(member=command_name("member"))
    @app_commands.describe(
        member=N_("Follow this member instead: a direct message when his tournament rounds start")
    )
    async def watch_command(
        self, interaction: Interaction, member: discord.Member | None = None
    ) -> None:
        if member is not None:
            await self.spectators.toggle_member(interaction, member)
            return
        table = await self.router.channel_table(interaction)
        if table is not None:
            await self.spectators.toggle_table(interaction, table)

    @game.command(
        name=command_name("abandon"), description=N_("End this channel's game without a result")
    )
    async def abandon_command(self, interaction: Interaction) -> None:
        table = await self.router.channel_table(interaction)
        if table is not None:
            await self.abandoning.ask(interaction, table)
