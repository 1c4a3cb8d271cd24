"""How a game ends with a result: resigning, the announcement, the league's record."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from cogs.archive import seed_reveal
from cogs.table.components import TableButton, Target, view_of
from cogs.table.replies import NOT_RUNNING, NOT_SEATED, tell
from data import Table
from games import GAMES, GameState

if TYPE_CHECKING:
    from cogs.table.commands import Tables


def resign_headline(table: Table, seat: int) -> str:
    others = [s.name for index, s in enumerate(table.seats) if index != seat]
    winners = " and ".join(others)
    verb = "wins" if len(others) == 1 else "win"
    return f"{table.seats[seat].name} resigned: {winners} {verb}."


class Results:
    """Finished games: told to the channel once, and handed to the league."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables

    resign_headline = staticmethod(resign_headline)

    async def announce(
        self,
        table: Table,
        state: GameState,
        resigned_headline: str | None = None,
        *,
        emoji: str = "🏳️",
    ) -> None:
        """Tell the channel the result (``resigned_headline``, after ``emoji``, for a game
        that ended early) and record it in the league."""
        if table.status != "finished":
            return
        title = GAMES[table.kind].title
        if resigned_headline is not None:
            text = f"{emoji} {title} game #{table.id}: {resigned_headline}"
        else:
            result = self.tables.game_cog(table.kind).result_text(table, state)
            text = f"🏁 {title} game #{table.id}: {result}"
        # The league records each finished game once; a repeated finish gets None back.
        ratings = await self.tables.bot.league.record_result(table)
        text = text if ratings is None else f"{text}\n{ratings}"
        channel = self.tables.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        await channel.send(f"{text}\n{seed_reveal(table)}")

    async def confirm_resign(self, interaction: discord.Interaction[Any], table: Table) -> None:
        if table.status != "active":
            await tell(interaction, NOT_RUNNING)
            return
        if table.seat_of(interaction.user.id) is None:
            await tell(interaction, NOT_SEATED)
            return
        confirm = TableButton(
            Target(table.id, table.version, "resign_yes"),
            label="Yes, resign",
            style=discord.ButtonStyle.danger,
        )
        await interaction.response.send_message(
            "Do you really want to resign? The game counts as a loss.",
            view=view_of([confirm]),
            ephemeral=True,
        )

    async def resign(self, interaction: discord.Interaction[Any], table: Table) -> None:
        seat = table.seat_of(interaction.user.id)
        if table.status != "active" or seat is None:
            await tell(interaction, "You are not playing a running game here.")
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        store = self.tables.store
        async with self.tables.locks[table.id]:
            fresh = await store.load(table.id)
            assert fresh is not None and fresh.state is not None
            if fresh.status != "active":
                await interaction.followup.send("This game is already over.", ephemeral=True)
                return
            state = GAMES[fresh.kind].from_dict(fresh.state)
            fresh.finish(state.returns())
            fresh.extra["resigned"] = seat
            await store.save(fresh, expected_version=fresh.version, actions=[(seat, "!resign")])
        headline = resign_headline(fresh, seat)
        await interaction.followup.send("You resigned.", ephemeral=True)
        await self.tables.board.refresh(fresh, state, headline)
        await self.announce(fresh, state, resigned_headline=headline)
        self.tables.forget(fresh.id)
