"""Messages to single players: private views by DM or on request, and turn pings."""

from __future__ import annotations

import asyncio

import discord

from cogs.host import Host, Interaction
from cogs.replies import (
    NOT_RUNNING,
    NOT_SEATED,
    delete_quietly,
    failure_text,
    log,
    mention_only,
    tell,
)
from cogs.table.game_cog import GameCogs
from cogs.table.payload import PrivateView, private_edit
from data import Store, Table
from games import GAMES, GameState
from texts.i18n import t

DMS_CLOSED = 50007


class Delivery:
    """Private views and pings; the last ping and who was told about closed DMs are kept
    in the database, so any bot process can take over a game."""

    def __init__(self, bot: Host, store: Store, cogs: GameCogs) -> None:
        self.bot = bot
        self.store = store
        self.cogs = cogs

    def _channel(self, table: Table) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)

    async def drop_ping(self, table: Table) -> None:
        old_ping = await self.store.swap_ping(table.id, None)
        if old_ping is not None:
            await delete_quietly(self._channel(table).get_partial_message(old_ping))

    async def ping_next(self, table: Table, state: GameState, acting_user: int | None) -> None:
        """Ping the human whose turn it is (not the one who just acted), once, and remove
        the previous ping. The new ping is recorded in the same write that hands back the
        old one: one database change per move."""
        seat = state.current_player
        user_id = None if seat is None else table.seats[seat].user_id
        if user_id is None or user_id == acting_user:
            await self.drop_ping(table)
            return
        try:
            ping = await self._channel(table).send(
                t(
                    table.language,
                    "<@{user}>, it is your turn in {game} (game #{number}).",
                    user=user_id,
                    game=GAMES[table.kind].title,
                    number=table.id,
                ),
                allowed_mentions=mention_only(user_id),
            )
        except discord.HTTPException as failure:
            log.warning(
                "game %d: could not ping the next player: %s", table.id, failure_text(failure)
            )
            await self.drop_ping(table)
            return
        old_ping = await self.store.swap_ping(table.id, ping.id)
        if old_ping is not None:
            await delete_quietly(self._channel(table).get_partial_message(old_ping))

    async def show_private(self, interaction: Interaction, table: Table) -> None:
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            await tell(interaction, NOT_SEATED)
            return
        if table.status != "active" or table.state is None:
            await tell(interaction, NOT_RUNNING)
            return
        cog = self.cogs[table.kind]
        state = cog.spec.from_dict(table.state)
        payload = await asyncio.to_thread(cog.private_payload, table, state, seat)
        await interaction.response.send_message(ephemeral=True, **payload)

    async def send_private(self, table: Table, state: GameState, seats: list[int]) -> None:
        """Show each seat its private view by DM, editing the DM it already got for the
        same purpose (the game's ``private_purpose``); a closed DM gets one note in the
        channel."""
        cog = self.cogs[table.kind]
        purpose = cog.private_purpose(state)
        for seat in seats:
            user_id = table.seats[seat].user_id
            if user_id is None:
                continue
            payload = await asyncio.to_thread(cog.private_payload, table, state, seat)
            payload["content"] = f"{self._where(table)}\n{payload.get('content') or ''}".strip()
            try:
                dm = await self.bot.create_dm(discord.Object(user_id))
                earlier = await self.store.private_message(table.id, user_id, purpose)
                if earlier is not None and await self._edit_dm(dm, earlier, payload):
                    continue
                sent = await dm.send(**payload)
            except discord.Forbidden as refused:
                if refused.code != DMS_CLOSED:
                    raise
                await self._note_closed_dms(table, user_id)
                continue
            await self.store.remember_private_message(table.id, user_id, purpose, sent.id)

    @staticmethod
    async def _edit_dm(dm: discord.DMChannel, message_id: int, payload: PrivateView) -> bool:
        """Show ``payload`` in the DM ``message_id``; False if that message is gone."""
        try:
            await dm.get_partial_message(message_id).edit(**private_edit(payload))
        except discord.NotFound:
            return False
        return True

    def _where(self, table: Table) -> str:
        guild = self.bot.get_guild(table.guild_id)
        language = table.language
        server = guild.name if guild else table.extra.get("server", t(language, "your server"))
        return t(
            language,
            "**{game}** game #{number} in **{server}**, <#{channel}>",
            game=GAMES[table.kind].title,
            number=table.id,
            server=server,
            channel=table.channel_id,
        )

    async def _note_closed_dms(self, table: Table, user_id: int) -> None:
        if not await self.store.claim_once(f"closed-dms:{table.id}:{user_id}"):
            return
        label = self.cogs[table.kind].private_label
        await self._channel(table).send(
            t(
                table.language,
                "<@{user}>, I cannot send you direct messages: use the **{button}** button"
                " on the board to see your private view.",
                user=user_id,
                button=t(table.language, label),
            ),
            allowed_mentions=mention_only(user_id),
        )
