"""Messages to single players: private views by DM or on request, and turn pings."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from typing import TYPE_CHECKING, Any

import discord

from cogs.table.keeper import failure_text
from cogs.table.replies import NOT_RUNNING, NOT_SEATED, delete_quietly, log, mention_only, tell
from data import Table
from games import GAMES, GameState

if TYPE_CHECKING:
    from cogs.table.commands import Tables

DMS_CLOSED = 50007


class Delivery:
    """Private views and pings; remembers the last ping and who has DMs closed."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.bot = tables.bot
        self._pings: dict[int, discord.PartialMessage] = {}
        self._told_closed_dms: defaultdict[int, set[int]] = defaultdict(set)

    def _channel(self, table: Table) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)

    async def drop_ping(self, game_id: int) -> None:
        old_ping = self._pings.pop(game_id, None)
        if old_ping is not None:
            await delete_quietly(old_ping)

    async def ping_next(self, table: Table, state: GameState, acting_user: int | None) -> None:
        """Ping the human whose turn it is (not the one who just acted), once."""
        seat = state.current_player
        if seat is None:
            return
        user_id = table.seats[seat].user_id
        if user_id is None or user_id == acting_user:
            return
        await self.drop_ping(table.id)
        try:
            ping = await self._channel(table).send(
                f"<@{user_id}>, it is your turn in {GAMES[table.kind].title} (game #{table.id}).",
                allowed_mentions=mention_only(user_id),
            )
        except discord.HTTPException as failure:
            log.warning(
                "game %d: could not ping the next player: %s", table.id, failure_text(failure)
            )
            return
        self._pings[table.id] = ping

    def forget(self, game_id: int) -> None:
        self._told_closed_dms.pop(game_id, None)

    async def show_private(self, interaction: discord.Interaction[Any], table: Table) -> None:
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            await tell(interaction, NOT_SEATED)
            return
        if table.status != "active" or table.state is None:
            await tell(interaction, NOT_RUNNING)
            return
        cog = self.tables.game_cog(table.kind)
        state = cog.spec.from_dict(table.state)
        payload = await asyncio.to_thread(cog.private_payload, table, state, seat)
        await interaction.response.send_message(ephemeral=True, **payload)

    async def send_private(self, table: Table, state: GameState, seats: list[int]) -> None:
        """DM each seat its private view; a closed DM gets one note in the channel."""
        cog = self.tables.game_cog(table.kind)
        for seat in seats:
            user_id = table.seats[seat].user_id
            if user_id is None:
                continue
            payload = await asyncio.to_thread(cog.private_payload, table, state, seat)
            payload["content"] = f"{self._where(table)}\n{payload.get('content') or ''}".strip()
            try:
                dm = await self.bot.create_dm(discord.Object(user_id))
                await dm.send(**payload)
            except discord.Forbidden as refused:
                if refused.code != DMS_CLOSED:
                    raise
                await self._note_closed_dms(table, user_id)

    def _where(self, table: Table) -> str:
        guild = self.bot.get_guild(table.guild_id)
        server = guild.name if guild else "your server"
        return (
            f"**{GAMES[table.kind].title}** game #{table.id} in **{server}**, <#{table.channel_id}>"
        )

    async def _note_closed_dms(self, table: Table, user_id: int) -> None:
        if user_id in self._told_closed_dms[table.id]:
            return
        self._told_closed_dms[table.id].add(user_id)
        label = self.tables.game_cog(table.kind).private_label
        await self._channel(table).send(
            f"<@{user_id}>, I cannot send you direct messages: use the **{label}** button "
            "on the board to see your private view.",
            allowed_mentions=mention_only(user_id),
        )
