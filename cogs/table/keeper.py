"""Keeping every table's message in step with its committed game.

A move is saved first and drawn second, so a crash, a Discord outage or a removed
permission can leave a board (or lobby message) behind its game. Each table row records
the version its message shows; the keeper brings such messages up to date at start-up,
whenever the table is next touched, and by retrying a failed redraw in the background
with bounded backoff, never holding up another game.

A board is edited in place while it is young and in sight. Discord allows only a few
edits of a message older than an hour (429, code 30046), and a board far up a busy
channel is as good as gone, so an old or buried board is posted anew at the bottom and
the old one points to it. A part of a game that just ended (a deal, a round) turns the
board it ended on into its record, and the board moves below it. Every request of a
redraw fails at Discord's first refusal (``unretried``) rather than sleeping it out under
the table's lock.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence

import discord

from cogs.host import Host
from cogs.language import public_command
from cogs.replies import failure_text
from cogs.replies import log as table_log
from cogs.scheduler import TimeSource
from cogs.table.board import BoardComposer
from cogs.table.delivery import Delivery
from cogs.table.memory import GameMemory
from cogs.table.payload import MessagePayload
from cogs.unretried import RateLimitedNow, unretried
from data import ConnectionLost, Store, Table
from games import GAMES, GameState
from texts.i18n import N_, t

log = logging.getLogger("tablebot.boards")

RETRY_DELAYS = (1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 60.0)
"""Seconds before each background retry of a failed redraw: about two minutes in all."""
UNKNOWN_MESSAGE = 10008
EDIT_LIMIT = 30046
"""Maximum number of edits to messages older than 1 hour reached."""
CHANNEL_GONE = frozenset({10003, 50001})
"""Unknown Channel, Missing Access: no retry can help."""

REDRAW_GRACE = 10.0
"""Seconds a saved change's own redraw may take (Discord's retries included) before a
board still behind counts as left behind. Until then the process that saved the change,
this one or another, is still drawing it."""

GRACE_LOOK_EVERY = 0.25
"""Seconds between two looks at a board being drawn during its REDRAW_GRACE."""

BOARD_REPOST_AGE = 50 * 60.0
"""Seconds after which a board is posted anew rather than edited: before Discord's hour,
with room for this machine's clock and Discord's to disagree."""
BURIED_UNDER = 20
"""A board with this many newer messages below it is posted anew at the bottom."""
BURIAL_LOOK_EVERY = 5 * 60.0
"""Seconds between two counts of the messages below a board (one request each; the bot
receives no message events, see bot.py), so a quick game asks rarely."""

BOARD_MOVED = N_("⬇️ The board moved: {link}")

Payload = Callable[[], Awaitable[MessagePayload]]


def board_link(table: Table, message_id: int) -> str:
    return f"https://discord.com/channels/{table.guild_id}/{table.channel_id}/{message_id}"


def channel_gone(error: discord.HTTPException) -> bool:
    return error.code in CHANNEL_GONE


def stuck_sentence(language: str, table: Table, failure: discord.HTTPException) -> str:
    """What the channel (or the player) is told when its board cannot be updated."""
    if isinstance(failure, discord.Forbidden):
        message = N_(
            "⚠️ I could not update the board of {game} game #{number} (I lack a permission"
            " in this channel). The game is saved; {command} shows it again once I can."
        )
    else:
        message = N_(
            "⚠️ I could not update the board of {game} game #{number} (Discord did not"
            " accept the change). The game is saved; {command} shows it again once I can."
        )
    return t(
        language,
        message,
        game=GAMES[table.kind].title,
        number=table.id,
        command=public_command(language, "game board"),
    )


class BoardKeeper:
    """Draws table messages, records what they show and repairs the ones left behind."""

    def __init__(
        self,
        bot: Host,
        store: Store,
        memory: GameMemory,
        composer: BoardComposer,
        delivery: Delivery,
        clock: TimeSource,
    ) -> None:
        self.bot = bot
        self.store = store
        self.memory = memory
        self.composer = composer
        self.delivery = delivery
        self.clock = clock
        self.retry_delays: tuple[float, ...] = RETRY_DELAYS
        self._retries: dict[int, asyncio.Task[None]] = {}
        self._started = time.time()

    def _channel(self, table: Table) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)

    async def draw(
        self, table: Table, payload: MessagePayload, record: MessagePayload | None = None
    ) -> None:
        """Show ``payload`` in the table's message and record that it shows
        ``table.version``. A board that is old, buried or refused more edits by Discord
        is posted anew and the old one points to it; a deleted message is posted anew.
        With a ``record`` (of a deal that just ended, say), the board is posted anew and
        the old one turns into the record. Discord's errors propagate at its first
        refusal."""
        channel = self._channel(table)
        former = table.board_message_id
        if record is not None:
            await self._below_record(table, payload, record)
            return
        if former is not None and not await self._out_of_sight(table, former):
            try:
                with unretried():
                    await channel.get_partial_message(former).edit(**payload.edit())
            except discord.NotFound as missing:
                if missing.code != UNKNOWN_MESSAGE:
                    raise
                log.info("game %d: board message gone, posting a new one", table.id)
                former = None
            except discord.HTTPException as refused:
                if refused.code != EDIT_LIMIT:
                    raise
                log.info("game %d: Discord takes no more edits of its board; reposting", table.id)
            else:
                await self.shown(table, former)
                return
        payload.rewind()
        with unretried():
            message = await channel.send(**payload.new_message())
        await self.shown(table, message.id)
        if former is not None:
            await self.point_to_board(table, former)

    async def _below_record(
        self, table: Table, payload: MessagePayload, record: MessagePayload
    ) -> None:
        """Post the board anew and turn the former board into ``record``, so the record
        stands above the live board. Where the former board cannot take the record (it
        is gone, or Discord takes no more edits of it), the record is posted as a message
        of its own, before the board when nothing is in the way."""
        channel = self._channel(table)
        former = table.board_message_id
        if former is None:
            with unretried():
                await channel.send(**record.new_message())
        with unretried():
            message = await channel.send(**payload.new_message())
        await self.shown(table, message.id)
        if former is None:
            return
        try:
            with unretried():
                await channel.get_partial_message(former).edit(**record.edit())
        except discord.HTTPException as refused:
            log.info(
                "game %d: its former board cannot take the record (%s); posting it",
                table.id,
                failure_text(refused),
            )
            record.rewind()
            with unretried():
                await channel.send(**record.new_message())

    async def _out_of_sight(self, table: Table, board_id: int) -> bool:
        """Whether a board is to be posted anew rather than edited: older than
        BOARD_REPOST_AGE (its id tells when it was posted, also after a restart) or
        buried. A lobby is edited where it is."""
        if table.state is None:
            return False
        now = self.clock.now()
        posted = discord.utils.snowflake_time(board_id).timestamp()
        if now - posted >= BOARD_REPOST_AGE:
            return True
        looked = max(posted, self.memory.board_looks.get(table.id, posted))
        if now - looked < BURIAL_LOOK_EVERY:
            return False
        self.memory.board_looks[table.id] = now
        return await self._buried(table, board_id)

    async def _buried(self, table: Table, board_id: int) -> bool:
        """Whether BURIED_UNDER messages follow the board (none read without the Read
        Message History permission: then it counts as in sight)."""
        try:
            with unretried():
                below = [
                    message
                    async for message in self._channel(table).history(
                        limit=BURIED_UNDER, after=discord.Object(board_id)
                    )
                ]
        except discord.HTTPException as failure:
            log.info(
                "game %d: could not count the messages below its board: %s",
                table.id,
                failure_text(failure),
            )
            return False
        return len(below) >= BURIED_UNDER

    async def point_to_board(self, table: Table, former: int) -> None:
        """Take the controls and the status off the table's former board message, leaving
        its picture under a link to the current one: a status left there ("⏰ Bob to act in
        10 minutes") would read as current. If Discord refuses (no more edits of an old
        message, say), the former board stays as it is: its controls answer "outdated"
        with a link to the new one."""
        assert table.board_message_id is not None
        pointer = t(table.language, BOARD_MOVED, link=board_link(table, table.board_message_id))
        message = self._channel(table).get_partial_message(former)
        try:
            with unretried():
                await message.edit(content=pointer, embed=None, view=None)
        except discord.HTTPException as refused:
            log.info(
                "game %d: its former board %d still shows controls: %s",
                table.id,
                former,
                failure_text(refused),
            )

    async def shown(self, table: Table, message_id: int) -> None:
        """Record that ``message_id`` now shows the table as it is."""
        table.board_message_id = message_id
        table.board_version = table.version
        await self.store.mark_board(table.id, message_id, table.version)

    async def draw_or_retry(
        self, table: Table, payload: Payload, record: MessagePayload | None = None
    ) -> bool:
        """Draw now; if Discord fails, keep trying in the background. True if drawn."""
        try:
            await self.draw(table, await payload(), record)
        except discord.HTTPException as failure:
            log.warning(
                "game %d: could not redraw its board, retrying in the background: %s",
                table.id,
                failure_text(failure),
            )
            self.retry_later(table.id, failure)
            return False
        return True

    async def refresh(
        self,
        table: Table,
        state: GameState,
        headline: str | None = None,
        notes: Sequence[str] = (),
        record: MessagePayload | None = None,
    ) -> bool:
        """Redraw the board message in place (post a new one if it is gone, or below
        ``record``, see ``draw``). If Discord fails, a background retry takes over; True
        if the board shows the table now.

        The board of a game that ended, however it ended, is redrawn here: its players'
        private messages then lose their controls too."""
        drawn = await self.draw_or_retry(
            table, lambda: self.composer.payload(table, state, headline, notes), record
        )
        if table.status != "active":
            await self.delivery.close_ended(table, state)
        return drawn

    async def sync(self, game_id: int) -> bool:
        """Bring the table's message to its committed version and ping the seat to act;
        False if it was up to date already.

        Discord's errors propagate, except that a lobby whose channel is gone is removed.
        """
        async with self.memory.lock(game_id):
            table = await self.store.load(game_id)
            if table is None or not table.board_behind:
                return False
            try:
                await self.draw(table, await self.composer.current_payload(table))
            except discord.HTTPException as failure:
                if table.status == "lobby" and channel_gone(failure):
                    table_log.warning("game %d: lobby's channel is gone; removing it", game_id)
                    await self.store.delete_lobby(game_id)
                    return False
                raise
        table_log.info("game %d: board brought up to version %d", game_id, table.version)
        if table.status == "active" and table.state is not None:
            state = GAMES[table.kind].from_dict(table.state)
            await self.delivery.ping_next(table, state, acting_user=None)
        return True

    def left_behind(self, table: Table) -> bool:
        """Whether the table's message lags by a fault rather than by a redraw in flight.

        A process cannot see another's redraw in flight, so a change saved less than
        REDRAW_GRACE ago counts as being drawn, unless this process knows it failed.
        """
        if table.id in self._retries:
            return True
        return time.time() - table.updated_at >= REDRAW_GRACE

    def retry_later(self, game_id: int, failure: discord.HTTPException) -> None:
        if game_id in self._retries:
            return
        task = asyncio.get_running_loop().create_task(
            self._retry(game_id, failure), name=f"tablebot: board retry {game_id}"
        )
        self._retries[game_id] = task
        task.add_done_callback(lambda _: self._retries.pop(game_id, None))

    def _pause(self, delay: float, failure: discord.HTTPException) -> float:
        """The backoff's next delay; after a 429, the wait Discord asked for instead (no
        longer than the backoff's longest), since an earlier retry meets the same 429."""
        if isinstance(failure, RateLimitedNow) and failure.retry_after is not None:
            return min(failure.retry_after, max(self.retry_delays))
        return delay

    async def _retry(self, game_id: int, failure: discord.HTTPException) -> None:
        for delay in self.retry_delays:
            await asyncio.sleep(self._pause(delay, failure))
            try:
                await self.sync(game_id)
            except discord.HTTPException as error:
                failure = error
                if channel_gone(error):
                    break
            except ConnectionLost:
                # The database is away for a moment: the board is still behind, and the
                # next attempt (or the next move) finds it so.
                log.warning("game %d: database connection lost while redrawing", game_id)
            else:
                return
        try:
            await self._give_up(game_id, failure)
        except ConnectionLost:
            log.warning("game %d: database connection lost; its board stays behind", game_id)

    async def _give_up(self, game_id: int, failure: discord.HTTPException) -> None:
        table = await self.store.load(game_id)
        if table is None:
            return
        log.warning(
            "game %d: gave up redrawing its board in channel %d: %s",
            game_id,
            table.channel_id,
            failure_text(failure),
        )
        try:
            await self._channel(table).send(stuck_sentence(table.language, table, failure))
        except discord.HTTPException as also:
            log.warning(
                "game %d: could not tell channel %d either: %s",
                game_id,
                table.channel_id,
                failure_text(also),
            )

    def runs_server_of(self, table: Table) -> bool:
        """Whether this process runs the shard of the table's server (every process of a
        sharded bot shares the database, but each redraws only its own servers' boards)."""
        bot = self.bot
        shard_ids = getattr(bot, "shard_ids", None)
        if shard_ids is None or not bot.shard_count:
            return True
        return (table.guild_id >> 22) % bot.shard_count in shard_ids

    async def sync_all(self) -> None:
        """Bring every message left behind (by a crash, say) on this process's shards up
        to date, one at a time."""
        behind = [table for table in await self.store.boards_behind() if self.runs_server_of(table)]
        if behind:
            log.info("boards left behind, redrawing: %d", len(behind))
        for table in behind:
            await self._after_grace(table)
            try:
                await self.sync(table.id)
            except discord.HTTPException as failure:
                log.warning(
                    "game %d: could not redraw its board at start-up: %s",
                    table.id,
                    failure_text(failure),
                )
                self.retry_later(table.id, failure)

    async def _after_grace(self, table: Table) -> None:
        """A table this process changed (a lobby opened between the gateway's READY and
        this sync, say) is probably being drawn by the command that changed it: give that
        command REDRAW_GRACE before taking its board for one left behind. A table last
        changed before this process started was left behind by its predecessor."""
        if table.updated_at < self._started or table.id in self._retries:
            return
        deadline = table.updated_at + REDRAW_GRACE
        while (wait := deadline - time.time()) > 0:
            # The command's draw usually lands within moments: looking again now and then
            # lets the start-up sync go on then, rather than sit out the whole grace.
            await asyncio.sleep(min(wait, GRACE_LOOK_EVERY))
            fresh = await self.store.load(table.id)
            if fresh is None or not fresh.board_behind:
                return

    def stop(self) -> None:
        for task in list(self._retries.values()):
            task.cancel()
