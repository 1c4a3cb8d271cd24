"""Click routing: every component click is checked once, then handed to its handler."""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

import discord

from cogs.clock_seats import CLOCK_VERBS
from cogs.language import private_language
from cogs.table.components import FORGED, UNRECOGNISED, Target, valid_values
from cogs.table.hooks import Turn
from cogs.table.keeper import failure_text
from cogs.table.lobby import LOBBY_VERBS
from cogs.table.private import is_private
from cogs.table.replies import (
    CAUGHT_UP,
    MENU_OUTDATED,
    NOT_SEATED,
    OUTDATED,
    acknowledge,
    missing_permissions,
    permission_sentence,
    tell,
)
from data import Table
from games import GAMES, GameState
from texts.i18n import N_, t

if TYPE_CHECKING:
    from cogs.table.commands import Tables

log = logging.getLogger("tablebot.table")

CHANNEL_UNREACHABLE = N_(
    "I cannot reach this game's channel, so I cannot show a move there. "
    "Ask a moderator to check my access to it."
)


def not_your_turn(language: str, table: Table, state: GameState) -> str:
    current = state.current_player
    if current is None:
        return t(language, "This game is over.")
    return t(language, "It is not your turn: {name} is to act.", name=table.seats[current].name)


GAME_OVER = N_("This game is over.")


CHANNEL_SEEN_FOR = 60.0
"""Seconds a fetched channel counts as still there for the clicks of a process that does
not hold its server (a deleted channel shows at the next board edit anyway)."""


class Router:
    """Sends each click to the lobby, the table's own verbs or the game's cog."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self._channel_seen: dict[int, float] = {}

    async def on_component(
        self, interaction: discord.Interaction[Any], target: Target, values: list[str]
    ) -> None:
        if target == FORGED or not valid_values(values):
            await tell(interaction, UNRECOGNISED)
            return
        if target.verb in LOBBY_VERBS:
            # Acknowledged before touching the database: forty clicks queued behind one
            # another's saves (or a busy database) must not outlive Discord's 3 seconds.
            await acknowledge(interaction)
        table = await self.tables.store.load(target.game_id)
        if table is None:
            await tell(interaction, N_("This game no longer exists."))
            return
        if target.verb in LOBBY_VERBS:
            # One lobby click at a time, each on the table as the previous one left it:
            # forty simultaneous joins seat players in click order, none told to retry.
            async with self.tables.locks[table.id]:
                fresh = await self.tables.store.load(table.id)
                if fresh is None:
                    await tell(interaction, N_("This game no longer exists."))
                else:
                    await self.tables.lobby.on_click(interaction, fresh, target, values)
        elif table.board_behind and target.version < table.version:
            await self._catch_up(interaction, table)
        elif target.verb == "resign":
            await self.tables.results.confirm_resign(interaction, table)
        elif target.verb == "resign_yes":
            await self.tables.results.resign(interaction, table)
        elif target.verb == "private":
            await self.tables.delivery.show_private(interaction, table)
        elif target.verb in CLOCK_VERBS:
            await self.tables.bot.clocks.on_component(interaction, table, target.verb)
        else:
            turn = await self.turn_of(interaction, table, target, values)
            if turn is not None:
                await self.tables.game_cog(table.kind).on_turn_component(turn)

    async def turn_of(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        target: Target,
        values: list[str],
    ) -> Turn[Any] | None:
        """The turn this click or command plays, or None after telling the user why not."""
        refusal = await self._turn_refusal(table, target, interaction)
        if refusal:
            await tell(interaction, refusal)
            return None
        assert table.state is not None
        state = GAMES[table.kind].from_dict(table.state)
        seat = table.seat_of(interaction.user.id)
        assert seat is not None
        if state.current_player != seat:
            await tell(interaction, not_your_turn(private_language(interaction), table, state))
            return None
        return Turn(interaction, table, state, seat, target, values)

    async def _catch_up(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """A click on a board left behind by a fault: redraw it instead of calling it
        outdated, and let the player choose again on the current position. A game that
        ended meanwhile (on time, say) is over, not merely shown on an older board."""
        await acknowledge(interaction)
        over = table.status != "active"
        if not self.tables.boards.left_behind(table):
            await tell(interaction, GAME_OVER if over else OUTDATED)
            return
        try:
            redrawn = await self.tables.board.sync(table.id)
        except discord.HTTPException as failure:
            self.tables.boards.retry_later(table.id)
            await tell(
                interaction,
                self.tables.board.stuck_sentence(private_language(interaction), table, failure),
            )
            return
        # Not redrawn: a move landing at the same moment already brought the board up.
        await tell(interaction, GAME_OVER if over else CAUGHT_UP if redrawn else OUTDATED)

    async def _turn_refusal(
        self, table: Table, target: Target, interaction: discord.Interaction[Any]
    ) -> str | None:
        """The one check of every move, whether clicked on the board, in a private menu,
        in a DM or typed: the game runs, the user is seated, the control is current and
        the table's channel lets the bot show the result."""
        if table.status != "active":
            over = table.status != "lobby"
            return GAME_OVER if over else N_("The game has not started.")
        if table.seat_of(interaction.user.id) is None:
            return NOT_SEATED
        if target.version != table.version:
            return MENU_OUTDATED if is_private(interaction) else OUTDATED
        paused = self.tables.bot.clocks.refusal(table, private_language(interaction))
        if paused:
            return paused
        try:
            permissions = await self._table_channel_permissions(table, interaction)
        except discord.HTTPException as failure:
            log.info("game %d: cannot reach its channel: %s", table.id, failure_text(failure))
            return CHANNEL_UNREACHABLE
        if permissions is not None:
            missing = missing_permissions(permissions)
            if missing:
                return permission_sentence(private_language(interaction), missing)
        return None

    async def _table_channel_permissions(
        self, table: Table, interaction: discord.Interaction[Any]
    ) -> discord.Permissions | None:
        """The bot's permissions in the table's channel, also for a click in a DM. A
        channel missing from the cache is fetched (Discord's refusal propagates); None
        only when the server itself is not in this process's cache (another shard's), where
        a fetched channel proves the bot still sees it but its roles are unknown."""
        if interaction.channel_id == table.channel_id:
            return interaction.app_permissions
        guild = self.tables.bot.get_guild(table.guild_id)
        channel = guild.get_channel_or_thread(table.channel_id) if guild else None
        if channel is None:
            if guild is None and self._recently_seen(table.channel_id):
                return None
            fetched = await self.tables.bot.fetch_channel(table.channel_id)
            if not isinstance(fetched, discord.abc.GuildChannel | discord.Thread):
                return None
            channel = fetched
        if guild is None:
            # Another shard's server: one fetch a minute proves the bot still sees the
            # channel, instead of one per click (each counts against Discord's limits).
            self._seen_now(table.channel_id)
            return None
        return channel.permissions_for(guild.me)

    def _recently_seen(self, channel_id: int) -> bool:
        seen = self._channel_seen.get(channel_id)
        return seen is not None and time.monotonic() - seen < CHANNEL_SEEN_FOR

    def _seen_now(self, channel_id: int) -> None:
        now = time.monotonic()
        for stale in [
            key for key, seen in self._channel_seen.items() if now - seen >= CHANNEL_SEEN_FOR
        ]:
            del self._channel_seen[stale]
        self._channel_seen[channel_id] = now
