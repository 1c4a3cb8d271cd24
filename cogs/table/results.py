"""How a game ends with a result: resigning, the announcement, the league's record."""

from __future__ import annotations

from typing import Protocol

import discord

from cogs.host import Host, Interaction
from cogs.language import private_language
from cogs.replies import NOT_RUNNING, NOT_SEATED, tell
from cogs.table.components import TableButton, Target, view_of
from cogs.table.deadlines import Deadlines
from cogs.table.follows import Spectators
from cogs.table.game_cog import GameCogs
from cogs.table.keeper import BoardKeeper
from cogs.table.memory import GameMemory
from cogs.table.records import seed_reveal
from data import Store, Table
from data.rematches import RematchStore
from games import GAMES, GameState
from texts.i18n import N_, t
from texts.table import resign_headline

REMATCH = "rematch"
"""The verb of the result message's **Rematch** button."""


def rematch_button(table: Table) -> TableButton:
    return TableButton(
        Target(table.id, table.version, REMATCH),
        label=t(table.language, "Rematch"),
        emoji="🔁",
        style=discord.ButtonStyle.primary,
    )


class ResultRecorder(Protocol):
    """Where a finished game's result goes (the league)."""

    async def record_result(self, table: Table) -> str | None:
        """Record a game that just finished; the line that tells the ratings, or None
        when it was recorded before."""


class Results:
    """Finished games: told to the channel once, and handed to the league."""

    def __init__(
        self,
        bot: Host,
        store: Store,
        memory: GameMemory,
        keeper: BoardKeeper,
        cogs: GameCogs,
        recorder: ResultRecorder,
        offers: RematchStore,
        deadlines: Deadlines,
        spectators: Spectators,
    ) -> None:
        self.bot = bot
        self.store = store
        self.memory = memory
        self.keeper = keeper
        self.cogs = cogs
        self.recorder = recorder
        self.offers = offers
        self.deadlines = deadlines
        self.spectators = spectators

    async def announce(
        self,
        table: Table,
        state: GameState,
        resigned_headline: str | None = None,
        *,
        emoji: str = "🏳️",
    ) -> None:
        """Tell the channel the result (``resigned_headline``, after ``emoji``, for a game
        that ended early) and record it in the league. The message offers a rematch,
        open as long as a lobby waits (the server's lobby expiry)."""
        if table.status != "finished":
            return
        title = GAMES[table.kind].title
        language = table.language
        if resigned_headline is None:
            emoji = "🏁"
            resigned_headline = self.cogs[table.kind].result_text(table, state)
        text = t(
            language,
            "{emoji} {game} game #{number}: {headline}",
            emoji=emoji,
            game=title,
            number=table.id,
            headline=resigned_headline,
        )
        # The league records each finished game once; a repeated finish gets None back.
        ratings = await self.recorder.record_result(table)
        text = text if ratings is None else f"{text}\n{ratings}"
        await self.offers.offer(table.id, await self.deadlines.lobby_due(table.guild_id))
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        self.spectators.table_ended(table)
        await channel.send(
            f"{text}\n{seed_reveal(table, language)}", view=view_of([rematch_button(table)])
        )

    async def confirm_resign(self, interaction: Interaction, table: Table) -> None:
        if table.status != "active":
            await tell(interaction, NOT_RUNNING)
            return
        if table.seat_of(interaction.user.id) is None:
            await tell(interaction, NOT_SEATED)
            return
        language = private_language(interaction)
        confirm = TableButton(
            Target(table.id, table.version, "resign_yes"),
            label=t(language, "Yes, resign"),
            style=discord.ButtonStyle.danger,
        )
        await interaction.response.send_message(
            t(language, "Do you really want to resign? The game counts as a loss."),
            view=view_of([confirm]),
            ephemeral=True,
        )

    async def resign(self, interaction: Interaction, table: Table) -> None:
        seat = table.seat_of(interaction.user.id)
        if table.status != "active" or seat is None:
            await tell(interaction, N_("You are not playing a running game here."))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        store = self.store
        async with self.memory.lock(table.id):
            fresh = await store.load(table.id)
            assert fresh is not None and fresh.state is not None
            if fresh.status != "active":
                await interaction.followup.send(
                    t(private_language(interaction), "This game is already over."), ephemeral=True
                )
                return
            state = GAMES[fresh.kind].from_dict(fresh.state)
            fresh.finish(state.returns())
            fresh.extra["resigned"] = seat
            await store.save(fresh, expected_version=fresh.version, actions=[(seat, "!resign")])
        headline = resign_headline(fresh.language, fresh.names, seat)
        await interaction.followup.send(
            t(private_language(interaction), "You resigned."), ephemeral=True
        )
        await self.keeper.refresh(fresh, state, headline)
        await self.announce(fresh, state, resigned_headline=headline)
        self.memory.forget(fresh.id)
