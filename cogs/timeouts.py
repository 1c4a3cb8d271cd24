"""What happens when a turn clock runs out: the reminder, the loss on time or the computer
substitute, the end of an over-long pause, and lobbies that expire.

Everything the scheduler does to a table goes through the same versioned save as a
move: whichever is saved first wins, and the other finds a newer version and is dropped.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import discord
from discord.ext import commands

from cogs.host import Host
from cogs.language import public_command, public_language
from cogs.replies import NO_MENTIONS, mention_only
from cogs.scheduler import Scheduler
from cogs.table.deadlines import Deadlines
from cogs.table.delivery import Delivery
from cogs.table.follows import Spectators
from cogs.table.keeper import BoardKeeper
from cogs.table.memory import GameMemory
from cogs.table.payload import MessagePayload
from cogs.table.pipeline import Pipeline
from cogs.table.records import seed_reveal
from cogs.table.results import Results
from cogs.table.seats import human_seats, time_loss_headline
from data import StaleVersion, Store, Table
from data.store import TOURNAMENT
from games import GAMES, GameState
from games import turn_clock as rules
from texts import table as table_text
from texts.common import duration
from texts.i18n import t

log = logging.getLogger("tablebot.clocks")

CLAIM_LEASE = 60.0
"""Seconds a claimed due table is left to its claimant before anyone may claim it again."""


class TimeoutsCog(commands.Cog, name="Clocks"):
    """Acts on every table whose clock has run out."""

    def __init__(
        self,
        bot: Host,
        store: Store,
        scheduler: Scheduler,
        deadlines: Deadlines,
        memory: GameMemory,
        keeper: BoardKeeper,
        pipeline: Pipeline,
        results: Results,
        delivery: Delivery,
        spectators: Spectators,
    ) -> None:
        self.bot = bot
        self.store = store
        self.scheduler = scheduler
        self.deadlines = deadlines
        self.memory = memory
        self.keeper = keeper
        self.pipeline = pipeline
        self.results = results
        self.delivery = delivery
        self.spectators = spectators

    async def cog_load(self) -> None:
        await self.scheduler.start(self.run_due)

    async def cog_unload(self) -> None:
        self.scheduler.stop()

    # ---- the scheduler's work ------------------------------------------------------------

    async def run_due(self, now: float) -> None:
        for table in await self.store.claim_due(now, lease=CLAIM_LEASE):
            await self.handle_due(table, now)

    async def handle_due(self, table: Table, now: float) -> bool:
        """Do what is due for ``table`` as it was read; False if a move or another
        process changed it first (then nothing is done: the newer table has its own
        due moment)."""
        async with self.memory.lock(table.id):
            try:
                await self._handle(table, now)
            except StaleVersion:
                log.info("game %d: changed before its clock was handled; dropped", table.id)
                return False
            except discord.HTTPException as failure:
                # The change is saved; only telling the channel failed (a deleted
                # channel, an outage). The other due tables must not wait for this one.
                log.warning("game %d: clock change saved, message failed: %s", table.id, failure)
        return True

    async def _handle(self, table: Table, now: float) -> None:
        if table.status == "lobby":
            await self._expire_lobby(table)
            return
        due = rules.what_is_due(table.extra.get("clock"), now)
        if due is None:
            # Nothing is due after all (an older row): record the true next moment.
            table.due_at = rules.due_at(table.extra.get("clock"))
            await self.store.save(table, expected_version=table.version)
            return
        if due.kind == "remind":
            await self._remind(table, due.seat)
        elif due.kind == "pause_over":
            await self._end_unrated(table, table_text.PAUSE_TOO_LONG)
        elif rules.timeout_outcome(table.kind) == "loss":
            await self._loss_on_time(table, due.seat)
        else:
            await self._substitute(table, due.seat)

    async def _remind(self, table: Table, seat: int | None) -> None:
        """One ping to the seat to act. Not a new version: the board's controls stay
        current; the save only succeeds if nothing moved (version and due moment)."""
        clock = rules.reminded(table.extra["clock"])
        expected_due = table.due_at
        assert expected_due is not None, "only a table with a due moment is reminded"
        table.extra["clock"] = clock
        table.due_at = rules.due_at(clock)
        if not await self.store.save_clock(table, expected_due=expected_due):
            return
        self.deadlines.saved(table)
        user_id = None if seat is None else table.seats[seat].user_id
        if user_id is None:
            return
        language = await public_language(self.bot, table.guild_id)
        left = duration(language, round(rules.REMINDER_SHARE * clock["seconds"]))
        deadline = f"<t:{int(clock['deadline'])}:R>"
        channel = self._channel(table)
        await channel.send(
            t(
                language,
                "<@{user}>, ⏰ about {left} left for your turn in {game} (game #{number}): the"
                " clock runs out {deadline}.",
                user=user_id,
                left=left,
                game=GAMES[table.kind].title,
                number=table.id,
                deadline=deadline,
            ),
            allowed_mentions=mention_only(user_id),
        )

    async def _loss_on_time(self, table: Table, seat: int | None) -> None:
        assert seat is not None and table.state is not None
        state = GAMES[table.kind].from_dict(table.state)
        table.finish(state.returns())
        table.extra["timed_out"] = seat
        await self.store.save(table, expected_version=table.version, actions=[(seat, "!timeout")])
        headline = time_loss_headline(table, seat, await public_language(self.bot, table.guild_id))
        await self.keeper.refresh(table, state, headline)
        await self._announce_ending(table, state, headline, emoji="⏰")

    async def _substitute(self, table: Table, seat: int | None) -> None:
        """A computer takes the seat and plays on at once; a table left with no human
        player ends unrated after the deal or round it is in, except a tournament's, which
        computers play to the end (its absent players score last, and the others' places
        count)."""
        assert seat is not None and table.state is not None
        spec = GAMES[table.kind]
        before = spec.from_dict(table.state)
        away = dict(table.extra.get("away", {}))
        away[str(seat)] = table.seats[seat].user_id
        table.extra["away"] = away
        plays_on = bool(human_seats(table)) or TOURNAMENT in table.extra
        stop_after = None if plays_on else rules.progress_marker(table.kind, before)
        state, actions, notes = await self.pipeline.automatic_turns(
            table, before, stop_when=_marker_moved(table.kind, stop_after)
        )
        table.state = state.to_dict()
        ended = stop_after is not None and not state.is_over
        if ended:
            table.status = "aborted"
            table.extra["ended"] = table_text.EVERYONE_TIMED_OUT
        elif state.is_over:
            table.finish(state.returns())
        self.deadlines.stamp(table, state)
        await self.store.save(
            table, expected_version=table.version, actions=[(seat, "!away"), *actions]
        )
        self.deadlines.saved(table)
        name = table.seats[seat].name
        user_id = table.seats[seat].user_id
        headline = None
        if ended:
            language = await public_language(self.bot, table.guild_id)
            headline = table_text.unrated_after_deal_headline(language)
        await self.keeper.refresh(table, state, headline, notes=notes)
        channel = self._channel(table)
        language = await public_language(self.bot, table.guild_id)
        await channel.send(
            t(
                language,
                "⏰ <@{user}> ran out of time in {game} (game #{number}): a computer plays for"
                " {name} now. {name}, press **Take my seat back** on the board or use"
                " {command} to play on.",
                user=user_id,
                game=spec.title,
                number=table.id,
                name=name,
                command=public_command(language, "game rejoin"),
            ),
            allowed_mentions=NO_MENTIONS,
        )
        if ended:
            await self._announce_ending(table, state, headline or "", emoji="⏰")
            return
        await self.pipeline.after_change(table, state, acting_user=None, before=before)

    async def _end_unrated(self, table: Table, reason: str) -> None:
        table.status = "aborted"
        table.extra["ended"] = reason
        await self.store.save(table, expected_version=table.version, actions=[(None, "!abandon")])
        language = await public_language(self.bot, table.guild_id)
        headline = table_text.ended_unrated_headline(language, reason)
        if table.state is not None:
            state = GAMES[table.kind].from_dict(table.state)
            await self.keeper.refresh(table, state, headline)
            await self._announce_ending(table, state, headline, emoji="⏸️")

    async def _expire_lobby(self, table: Table) -> None:
        table.status = "aborted"
        table.extra["ended"] = "expired"
        await self.store.save(table, expected_version=table.version)
        title = GAMES[table.kind].title
        language = await public_language(self.bot, table.guild_id)
        embed = discord.Embed(
            title=t(language, "{game}: table #{number}", game=title, number=table.id),
            description=t(
                language, "Closed: nobody started the game in time. Open a new table any time."
            ),
        )
        await self.keeper.draw_or_retry(table, lambda: _closed(embed))
        self.spectators.table_ended(table)

    def _channel(self, table: Table) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)

    async def _announce_ending(
        self, table: Table, state: GameState, headline: str, *, emoji: str
    ) -> None:
        """Tell the channel how a game the clock ended came out (a loss on time goes to
        the league like any finished game)."""
        await self.delivery.drop_ping(table)
        if table.status == "finished":
            await self.results.announce(table, state, headline, emoji=emoji)
        else:
            language = await public_language(self.bot, table.guild_id)
            ending = t(
                language,
                "{emoji} {game} game #{number}: {headline}",
                emoji=emoji,
                game=GAMES[table.kind].title,
                number=table.id,
                headline=headline,
            )
            self.spectators.table_ended(table)
            await self._channel(table).send(f"{ending}\n{seed_reveal(table, language)}")
        self.memory.forget(table.id)


def _marker_moved(kind: str, marker: int | None) -> Callable[[GameState], bool] | None:
    if marker is None:
        return None
    return lambda state: rules.progress_marker(kind, state) != marker


async def _closed(embed: discord.Embed) -> MessagePayload:
    return MessagePayload(content=None, embed=embed, view=None)
