"""Messages to single players: private views by DM or on request, and turn pings."""

from __future__ import annotations

import asyncio

import discord

from cogs.host import Host, Interaction
from cogs.language import private_language
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


def server_name(bot: Host, table: Table, language: str) -> str:
    """The name of the table's server (as the table remembers it where this process does
    not know the server)."""
    guild = bot.get_guild(table.guild_id)
    return guild.name if guild else table.extra.get("server", t(language, "your server"))


def where(bot: Host, table: Table, language: str) -> str:
    """The first line of a direct message about a table: which game, server and channel."""
    return t(
        language,
        "**{game}** game #{number} in **{server}**, <#{channel}>",
        game=GAMES[table.kind].title,
        number=table.id,
        server=server_name(bot, table, language),
        channel=table.channel_id,
    )


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
        language = private_language(interaction)
        payload = await asyncio.to_thread(cog.private_payload, table, state, seat, language)
        await interaction.response.send_message(ephemeral=True, **payload)

    async def send_private(self, table: Table, state: GameState, seats: list[int]) -> None:
        """Show each seat its private view by DM, in the language of the member's client,
        editing the DM it already got for the same purpose (the game's
        ``private_purpose``); a closed DM gets one note in the channel."""
        cog = self.cogs[table.kind]
        purpose = cog.private_purpose(state)
        for seat in seats:
            user_id = table.seats[seat].user_id
            if user_id is None:
                continue
            language = table.reader_language(seat)
            payload = await asyncio.to_thread(cog.private_payload, table, state, seat, language)
            place = where(self.bot, table, language)
            payload["content"] = f"{place}\n{payload.get('content') or ''}".strip()
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

    async def close_changed(self, table: Table, before: GameState, after: GameState) -> None:
        """Close the DMs of ``before``'s purpose if a running game has moved on to another
        (a new deal)."""
        cog = self.cogs[table.kind]
        if not cog.spec.hidden_information:
            return
        purpose = cog.private_purpose(before)
        if purpose != cog.private_purpose(after):
            await self.close_private(table, before, after, purpose)

    async def close_ended(self, table: Table, state: GameState) -> None:
        """Close the DMs of a game that ended, however it ended."""
        cog = self.cogs[table.kind]
        if cog.spec.hidden_information:
            await self.close_private(table, state, state, cog.private_purpose(state))

    async def close_private(
        self, table: Table, before: GameState, after: GameState, purpose: str
    ) -> None:
        """Turn every member's DM for ``purpose`` (a deal that ended, or the game) into a
        record: the game's sentence saying it is over, and no controls, so no button is
        left that could only answer "outdated". A DM that is gone stays gone."""
        cog = self.cogs[table.kind]
        for seat, player in enumerate(table.seats):
            if player.user_id is None:
                continue
            message_id = await self.store.private_message(table.id, player.user_id, purpose)
            if message_id is None:
                continue
            language = table.reader_language(seat)
            closed = cog.private_closed(table, before, after, language)
            content = f"{where(self.bot, table, language)}\n{closed}"
            try:
                dm = await self.bot.create_dm(discord.Object(player.user_id))
                await dm.get_partial_message(message_id).edit(content=content, view=None)
            except discord.HTTPException as failure:
                log.info(
                    "game %d: could not close the DM of seat %d: %s",
                    table.id,
                    seat,
                    failure_text(failure),
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
