"""Click routing: every component click and typed move is checked once, then handed to
its handler (the lobby, the table's own verbs, the clock's, or the game's cog)."""

from __future__ import annotations

import logging
import time
from typing import Any

import discord

from cogs.host import Host, Interaction
from cogs.language import private_language
from cogs.replies import (
    CAUGHT_UP,
    MENU_OUTDATED,
    NOT_SEATED,
    OUTDATED,
    acknowledge,
    failure_text,
    missing_permissions,
    permission_sentence,
    tell,
)
from cogs.table.abandon import CONFIRM_VERB as ABANDON_CONFIRMED
from cogs.table.abandon import Abandoning
from cogs.table.board import FOLLOW
from cogs.table.clock_verbs import CLOCK_VERBS, ClockVerbs
from cogs.table.components import (
    FORGED,
    LESSON_TABLE,
    UNRECOGNISED,
    TableButton,
    TableSelect,
    Target,
    answering_database_failures,
    valid_values,
)
from cogs.table.deadlines import Deadlines
from cogs.table.delivery import Delivery
from cogs.table.follows import Spectators
from cogs.table.game_cog import GameCogs, Turn
from cogs.table.hints import Hints
from cogs.table.keeper import BoardKeeper, board_link, stuck_sentence
from cogs.table.lessons import Lessons
from cogs.table.lobby import LOBBY_VERBS, Lobby
from cogs.table.memory import GameMemory
from cogs.table.pipeline import Pipeline
from cogs.table.private import is_private
from cogs.table.rematch import Rematches
from cogs.table.results import REMATCH, Results
from data import Store, Table
from games import GAMES, GameState, IllegalAction
from texts import YOU_PLAYED
from texts.i18n import COMMAND_NAME, N_, command_name, t, tp

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
BOARD_ELSEWHERE = N_(
    "This board is outdated: the game has moved on. The current board is here: {link}"
)


def outdated(interaction: Interaction, table: Table) -> str:
    """The refusal of a control of an older version: a private menu's, a board's, or
    that of a board since posted anew, with the way to the new one."""
    if is_private(interaction):
        return MENU_OUTDATED
    board = table.board_message_id
    if board is None or interaction.message is None or interaction.message.id == board:
        return OUTDATED
    return t(private_language(interaction), BOARD_ELSEWHERE, link=board_link(table, board))


CHANNEL_SEEN_FOR = 60.0
"""Seconds a fetched channel counts as still there for the clicks of a process that does
not hold its server (a deleted channel shows at the next board edit anyway)."""


NEW = command_name("new")
"""The name of every game's `/<game> new` (its translation in the command name context)."""


class Router:
    """Sends each click to the lobby, the table's own verbs, the clock's or the game's cog."""

    def __init__(
        self,
        bot: Host,
        store: Store,
        memory: GameMemory,
        cogs: GameCogs,
        keeper: BoardKeeper,
        lobby: Lobby,
        pipeline: Pipeline,
        results: Results,
        abandoning: Abandoning,
        delivery: Delivery,
        deadlines: Deadlines,
        clock_verbs: ClockVerbs,
        rematches: Rematches,
        hints: Hints,
        lessons: Lessons,
        spectators: Spectators,
    ) -> None:
        self.bot = bot
        self.store = store
        self.memory = memory
        self.cogs = cogs
        self.keeper = keeper
        self.lobby = lobby
        self.pipeline = pipeline
        self.results = results
        self.abandoning = abandoning
        self.delivery = delivery
        self.deadlines = deadlines
        self.clock_verbs = clock_verbs
        self.rematches = rematches
        self.hints = hints
        self.lessons = lessons
        self.spectators = spectators
        self._channel_seen: dict[int, float] = {}

    async def on_click(self, interaction: Interaction, item: TableButton | TableSelect) -> None:
        """A click on one of the table's buttons or menus (``Host.answer_clicks``)."""
        await answering_database_failures(
            interaction, lambda: self.on_component(interaction, item.target, item.values)
        )

    async def on_component(
        self, interaction: Interaction, target: Target, values: list[str]
    ) -> None:
        if target == FORGED or not valid_values(values):
            await tell(interaction, UNRECOGNISED)
            return
        if target.game_id == LESSON_TABLE:
            await self.lessons.on_component(interaction, target, values)
            return
        if target.verb in LOBBY_VERBS or target.verb == REMATCH:
            # Acknowledged before touching the database: forty clicks queued behind one
            # another's saves (or a busy database) must not outlive Discord's 3 seconds.
            await acknowledge(interaction)
        table = await self.store.load(target.game_id)
        if table is None:
            await tell(interaction, N_("This game no longer exists."))
            return
        if (
            target.verb in LOBBY_VERBS or target.verb in (REMATCH, FOLLOW)
        ) and interaction.channel_id != table.channel_id:
            # A lobby is joined, started and cancelled on its own message, in its channel,
            # a rematch asked for on the result message there and a table followed on its
            # board: from a DM or another channel (a forged control) it would seat a
            # member of any server, draw the table on the clicked message, or let anyone
            # follow a table of a channel he cannot read.
            await tell(interaction, UNRECOGNISED)
            return
        if target.verb in LOBBY_VERBS:
            # One lobby click at a time, each on the table as the previous one left it:
            # forty simultaneous joins seat players in click order, none told to retry.
            async with self.memory.lock(table.id):
                fresh = await self.store.load(table.id)
                if fresh is None:
                    await tell(interaction, N_("This game no longer exists."))
                else:
                    await self.lobby.on_click(interaction, fresh, target, values)
        elif target.verb == REMATCH:
            await self.rematches.on_click(interaction, table)
        elif target.verb == FOLLOW:
            # Anyone's, seated or not, and on any version of the board: following does not
            # depend on the position. It is a button, never a menu's choice.
            if values:
                await tell(interaction, UNRECOGNISED)
            else:
                await self.spectators.toggle_table(interaction, table)
        elif table.board_behind and target.version < table.version:
            await self._catch_up(interaction, table)
        elif target.verb == "resign":
            await self.results.confirm_resign(interaction, table)
        elif target.verb == "resign_yes":
            await self.results.resign(interaction, table)
        elif target.verb == ABANDON_CONFIRMED:
            await self.abandoning.abandon(interaction, table)
        elif target.verb == "private":
            if GAMES[table.kind].hidden_information:
                await self.delivery.show_private(interaction, table)
            else:
                # Only a game with hidden information offers a private view.
                await tell(interaction, UNRECOGNISED)
        elif target.verb in CLOCK_VERBS:
            await self.clock_verbs.on_component(interaction, table, target.verb)
        elif target.verb == "hint":
            turn = await self.turn_of(interaction, table, target, values)
            if turn is not None:
                await self.hints.give(turn)
        else:
            turn = await self.turn_of(interaction, table, target, values)
            if turn is not None:
                await self.cogs[table.kind].on_turn_component(turn)

    async def turn_of(
        self,
        interaction: Interaction,
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

    async def channel_table(self, interaction: Interaction) -> Table | None:
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

    async def text_move(self, interaction: Interaction, kind: str, notation: str) -> None:
        """A move typed in the game's notation by a seated player whose turn it is."""
        table = await self.channel_table(interaction)
        if table is None:
            return
        if table.kind != kind:
            await tell(
                interaction, N_("The game in this channel is not {game}."), game=GAMES[kind].title
            )
            return
        target = Target(table.id, table.version, "text")
        turn = await self.turn_of(interaction, table, target, [])
        if turn is None:
            return
        try:
            actions = self.cogs[kind].notation_actions(turn.state, notation)
        except IllegalAction as illegal:
            await tell(interaction, illegal.message, **illegal.params)
            return
        language = private_language(interaction)
        done = self.cogs[kind].typed_confirmation(turn.table, turn.state, actions, language)
        if done is None:
            done = t(language, YOU_PLAYED, move=" ".join(notation.split()))
        await self.pipeline.play(turn, actions, done=done)

    async def _catch_up(self, interaction: Interaction, table: Table) -> None:
        """A click on a board left behind by a fault: redraw it instead of calling it
        outdated, and let the player choose again on the current position. A game that
        ended meanwhile (on time, say) is over, not merely shown on an older board."""
        await acknowledge(interaction)
        over = table.status != "active"
        if not self.keeper.left_behind(table):
            await tell(interaction, GAME_OVER if over else OUTDATED)
            return
        try:
            redrawn = await self.keeper.sync(table.id)
        except discord.HTTPException as failure:
            self.keeper.retry_later(table.id, failure)
            await tell(
                interaction,
                stuck_sentence(private_language(interaction), table, failure),
            )
            return
        # Not redrawn: a move landing at the same moment already brought the board up.
        await tell(interaction, GAME_OVER if over else CAUGHT_UP if redrawn else OUTDATED)

    async def _turn_refusal(
        self, table: Table, target: Target, interaction: Interaction
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
            return outdated(interaction, table)
        paused = self.deadlines.refusal(table, private_language(interaction))
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
        self, table: Table, interaction: Interaction
    ) -> discord.Permissions | None:
        """The bot's permissions in the table's channel, also for a click in a DM. A
        channel missing from the cache is fetched (Discord's refusal propagates); None
        only when the server itself is not in this process's cache (another shard's), where
        a fetched channel proves the bot still sees it but its roles are unknown."""
        if interaction.channel_id == table.channel_id:
            return interaction.app_permissions
        guild = self.bot.get_guild(table.guild_id)
        channel = guild.get_channel_or_thread(table.channel_id) if guild else None
        if channel is None:
            if guild is None and self._recently_seen(table.channel_id):
                return None
            fetched = await self.bot.fetch_channel(table.channel_id)
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
