"""Turn clocks on the tables: deadlines on the board, the reminder, timeouts, substitutes,
taking a seat back, pauses by agreement and lobbies that expire.

Everything the scheduler does to a table goes through the same versioned save as a
move: whichever is saved first wins, and the other finds a newer version and is dropped.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from cogs.archive import seed_reveal
from cogs.clock_seats import away_seats, human_seats, played_by_computer, time_loss_headline
from cogs.host import Host
from cogs.language import channel_language, private_language, public_language
from cogs.scheduler import Clock, Scheduler
from cogs.table.components import TableButton, Target
from data import StaleVersion, Store, Table
from data.settings import SettingsStore
from games import GAMES, GameState
from games import clock as rules
from texts.common import duration
from texts.i18n import ENGLISH, N_, t

if TYPE_CHECKING:
    from cogs.table import Tables

log = logging.getLogger("tablebot.clocks")

CLAIM_LEASE = 60.0
"""Seconds a claimed due table is left to its claimant before anyone may claim it again."""
PAUSED = N_("The game is paused: press **Resume** on the board (or `/game resume`) first.")


class Clocks(commands.Cog):
    """Keeps every table's clock and acts when one runs out."""

    def __init__(self, bot: Host, store: Store, tables: Tables, clock: Clock) -> None:
        self.bot = bot
        self.store = store
        self.tables = tables
        self.clock = clock
        self.settings = SettingsStore(store)
        self.scheduler = Scheduler(clock, store.next_due, self.run_due)

    async def cog_load(self) -> None:
        await self.scheduler.start()

    async def cog_unload(self) -> None:
        self.scheduler.stop()

    # ---- hooks the table machinery calls -------------------------------------------------

    async def new_table_extra(self, guild_id: int, kind: str, clock: int | None) -> dict[str, Any]:
        settings = await self.settings.get(guild_id)
        return {"clock": rules.new_clock(clock or rules.clock_for(kind, settings.clocks))}

    async def lobby_due(self, guild_id: int) -> float:
        settings = await self.settings.get(guild_id)
        expiry = settings.lobby_expiry or rules.DEFAULT_LOBBY_EXPIRY
        return rules.lobby_due(self.clock.now(), expiry)

    async def table_channel(self, interaction: discord.Interaction[Any], title: str) -> int:
        """Where a new table goes: its own public thread under the command's channel when
        the server wants that, else the channel itself (also when a thread cannot be
        opened: the table is not refused for it)."""
        channel_id = interaction.channel_id or 0
        if interaction.guild_id is None or isinstance(interaction.channel, discord.Thread):
            return channel_id
        if not (await self.settings.get(interaction.guild_id)).threads:
            return channel_id
        opener = interaction.user.display_name
        language = await channel_language(interaction)
        try:
            message = await interaction.edit_original_response(
                content=t(
                    language,
                    "🎲 {opener} opened a {game} table in its own thread below.",
                    opener=opener,
                    game=title,
                )
            )
            thread = await message.create_thread(name=f"{title} – {opener}"[:100])
        except discord.HTTPException as failure:
            log.warning("could not open a thread for a %s table: %s", title, failure)
            return channel_id
        return thread.id

    def stamp(self, table: Table, state: GameState) -> None:
        """Start the clock of the seat to act after a change (before it is saved)."""
        if table.status == "lobby":
            return
        clock = table.extra.get("clock")
        if clock is None:
            return
        seat = state.current_player
        waited_on = None
        if table.status == "active" and seat is not None and not played_by_computer(table, seat):
            waited_on = seat
        table.extra["clock"] = rules.start_turn(clock, waited_on, self.clock.now())
        table.due_at = rules.due_at(table.extra["clock"])

    def saved(self, table: Table) -> None:
        """A table was saved: the scheduler wakes if it is now due sooner."""
        self.scheduler.poke(table.due_at)

    def refusal(self, table: Table, language: str = ENGLISH) -> str | None:
        """Why a move cannot be played now because of the clock (a paused game)."""
        return t(language, PAUSED) if rules.is_paused(table.extra.get("clock")) else None

    def board_lines(self, table: Table, language: str = ENGLISH) -> list[str]:
        """What the board says about the clock, pauses and substitutes."""
        if table.status != "active":
            return []
        lines = []
        for seat in sorted(away_seats(table)):
            name = table.seats[seat].name
            lines.append(t(language, "🤖 A computer plays for {name}.", name=name))
        clock = table.extra.get("clock") or {}
        votes = clock.get("pause_votes")
        if rules.is_paused(clock):
            since = f"<t:{int(clock['paused_since'])}:R>"
            ends = f"<t:{int(clock['paused_since'] + rules.MAX_PAUSE)}:R>"
            lines.append(
                t(
                    language,
                    "⏸️ Paused {since} by agreement; abandoned unrated {ends} unless someone"
                    " resumes.",
                    since=since,
                    ends=ends,
                )
            )
        elif clock.get("deadline") is not None and clock.get("seat") is not None:
            name = table.seats[clock["seat"]].name
            deadline = f"<t:{int(clock['deadline'])}:R>"
            lines.append(t(language, "⏰ {name} to act {deadline}.", name=name, deadline=deadline))
        if votes and not rules.is_paused(clock):
            waiting = ", ".join(table.seats[s].name for s in human_seats(table) if s not in votes)
            lines.append(
                t(language, "⏸️ Pause proposed; waiting for {names} to accept.", names=waiting)
            )
        return lines

    def board_controls(self, table: Table, language: str = ENGLISH) -> list[discord.ui.Item[Any]]:
        if table.status != "active":
            return []
        target = Target(table.id, table.version, "rejoin")
        controls: list[discord.ui.Item[Any]] = []
        if away_seats(table):
            label = t(language, "Take my seat back")
            controls.append(TableButton(target, label=label, style=discord.ButtonStyle.success))
        clock = table.extra.get("clock") or {}
        if rules.is_paused(clock):
            label = t(language, "Resume")
            controls.append(TableButton(target.but("resume"), label=label, emoji="▶️"))
        elif clock.get("pause_votes"):
            label = t(language, "Accept pause")
            controls.append(TableButton(target.but("pause"), label=label, emoji="⏸️"))
        return controls

    async def on_component(
        self, interaction: discord.Interaction[Any], table: Table, verb: str
    ) -> None:
        if verb == "rejoin":
            await self.rejoin(interaction, table)
        elif verb == "pause":
            await self.propose_or_accept_pause(interaction, table)
        else:
            await self.resume(interaction, table)

    # ---- the scheduler's work ------------------------------------------------------------

    async def run_due(self, now: float) -> None:
        for table in await self.store.claim_due(now, lease=CLAIM_LEASE):
            await self.handle_due(table, now)

    async def handle_due(self, table: Table, now: float) -> bool:
        """Do what is due for ``table`` as it was read; False if a move or another
        process changed it first (then nothing is done: the newer table has its own
        due moment)."""
        async with self.tables.locks[table.id]:
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
            await self._end_unrated(table, N_("The pause lasted longer than a week"))
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
        self.saved(table)
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
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)]),
        )

    async def _loss_on_time(self, table: Table, seat: int | None) -> None:
        assert seat is not None and table.state is not None
        state = GAMES[table.kind].from_dict(table.state)
        table.finish(state.returns())
        table.extra["timed_out"] = seat
        await self.store.save(table, expected_version=table.version, actions=[(seat, "!timeout")])
        headline = time_loss_headline(table, seat, await public_language(self.bot, table.guild_id))
        await self.tables.board.refresh(table, state, headline)
        await self._announce_ending(table, state, headline, emoji="⏰")

    async def _substitute(self, table: Table, seat: int | None) -> None:
        """A computer takes the seat and plays on at once; a table left with no human
        player ends unrated after the deal or round it is in."""
        assert seat is not None and table.state is not None
        spec = GAMES[table.kind]
        before = spec.from_dict(table.state)
        away = dict(table.extra.get("away", {}))
        away[str(seat)] = table.seats[seat].user_id
        table.extra["away"] = away
        stop_after = None if human_seats(table) else rules.progress_marker(table.kind, before)
        state, actions, notes = await self.tables.pipeline.automatic_turns(
            table, before, stop_when=_marker_moved(table.kind, stop_after)
        )
        table.state = state.to_dict()
        ended = stop_after is not None and not state.is_over
        if ended:
            table.status = "aborted"
            table.extra["ended"] = N_("Every player ran out of time")
        elif state.is_over:
            table.finish(state.returns())
        self.stamp(table, state)
        await self.store.save(
            table, expected_version=table.version, actions=[(seat, "!away"), *actions]
        )
        self.saved(table)
        name = table.seats[seat].name
        user_id = table.seats[seat].user_id
        headline = None
        if ended:
            headline = t(
                await public_language(self.bot, table.guild_id),
                "Every player ran out of time: the game ended unrated after this deal.",
            )
        await self.tables.board.refresh(table, state, headline, notes=notes)
        channel = self._channel(table)
        language = await public_language(self.bot, table.guild_id)
        await channel.send(
            t(
                language,
                "⏰ <@{user}> ran out of time in {game} (game #{number}): a computer plays for"
                " {name} now. {name}, press **Take my seat back** on the board or use"
                " `/game rejoin` to play on.",
                user=user_id,
                game=spec.title,
                number=table.id,
                name=name,
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        if ended:
            await self._announce_ending(table, state, headline or "", emoji="⏰")
            return
        await self.tables.pipeline.after_change(table, state, acting_user=None, before=before)

    async def _end_unrated(self, table: Table, reason: str) -> None:
        table.status = "aborted"
        table.extra["ended"] = reason
        await self.store.save(table, expected_version=table.version, actions=[(None, "!abandon")])
        language = await public_language(self.bot, table.guild_id)
        headline = t(
            language, "{reason}: abandoned; the game is not rated.", reason=t(language, reason)
        )
        if table.state is not None:
            state = GAMES[table.kind].from_dict(table.state)
            await self.tables.board.refresh(table, state, headline)
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
        await self.tables.boards.draw_or_retry(
            table, lambda: _async_value({"content": None, "embed": embed, "view": None})
        )

    def _channel(self, table: Table) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)

    async def _announce_ending(
        self, table: Table, state: GameState, headline: str, *, emoji: str
    ) -> None:
        """Tell the channel how a game the clock ended came out (a loss on time goes to
        the league like any finished game)."""
        await self.tables.delivery.drop_ping(table)
        if table.status == "finished":
            await self.tables.results.announce(table, state, headline, emoji=emoji)
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
            await self._channel(table).send(f"{ending}\n{seed_reveal(table, language)}")
        self.tables.forget(table.id)

    # ---- players' commands ---------------------------------------------------------------

    async def rejoin(self, interaction: discord.Interaction[Any], table: Table) -> None:
        seat = table.seat_of(interaction.user.id)
        if table.status != "active" or seat is None or seat not in away_seats(table):
            await _tell(interaction, N_("You have no seat to take back in this game."))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with self.tables.locks[table.id]:
            fresh = await self.store.load(table.id)
            assert fresh is not None
            if fresh.status != "active" or seat not in away_seats(fresh):
                await _tell(interaction, N_("You have no seat to take back."))
                return
            away = dict(fresh.extra["away"])
            away.pop(str(seat))
            fresh.extra["away"] = away
            assert fresh.state is not None
            state = GAMES[fresh.kind].from_dict(fresh.state)
            self.stamp(fresh, state)
            await self.store.save(fresh, expected_version=fresh.version, actions=[(seat, "!back")])
            self.saved(fresh)
            await self.tables.board.refresh(fresh, state)
        await _tell(interaction, N_("Welcome back: your seat is yours again from your next turn."))
        language = await public_language(self.bot, fresh.guild_id)
        await self._channel(fresh).send(
            t(
                language,
                "👋 {name} is back and plays on in game #{number}.",
                name=fresh.seats[seat].name,
                number=fresh.id,
            )
        )

    async def propose_or_accept_pause(
        self, interaction: discord.Interaction[Any], table: Table
    ) -> None:
        seat = table.seat_of(interaction.user.id)
        if table.status != "active" or seat is None or seat not in human_seats(table):
            await _tell(
                interaction, N_("Only a player seated in this running game can ask to pause.")
            )
            return
        if rules.is_paused(table.extra.get("clock")):
            await _tell(interaction, N_("The game is already paused."))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with self.tables.locks[table.id]:
            fresh = await self.store.load(table.id)
            assert fresh is not None and fresh.state is not None
            clock = fresh.extra["clock"]
            if rules.is_paused(clock) or fresh.status != "active":
                await _tell(interaction, N_("Nothing to pause."))
                return
            clock = (
                rules.accept_pause(clock, seat)
                if clock.get("pause_votes")
                else rules.propose_pause(clock, seat)
            )
            agreed = rules.pause_agreed(clock, human_seats(fresh))
            if agreed:
                clock = rules.pause(clock, self.clock.now())
            fresh.extra["clock"] = clock
            fresh.due_at = rules.due_at(clock)
            await self.store.save(
                fresh, expected_version=fresh.version, actions=[(seat, "!pause")] if agreed else ()
            )
            self.saved(fresh)
            state = GAMES[fresh.kind].from_dict(fresh.state)
            await self.tables.board.refresh(fresh, state)
        if not agreed:
            await _tell(interaction, N_("You are for a pause; the others must accept."))
            return
        await _tell(interaction, N_("The game is paused."))
        language = await public_language(self.bot, fresh.guild_id)
        await self._channel(fresh).send(
            t(
                language,
                "⏸️ Game #{number} is paused by agreement. Anyone seated can resume it.",
                number=fresh.id,
            )
        )

    async def resume(self, interaction: discord.Interaction[Any], table: Table) -> None:
        seat = table.seat_of(interaction.user.id)
        if table.status != "active" or seat is None:
            await _tell(interaction, N_("Only a player seated in this game can resume it."))
            return
        if not rules.is_paused(table.extra.get("clock")):
            await _tell(interaction, N_("The game is not paused."))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with self.tables.locks[table.id]:
            fresh = await self.store.load(table.id)
            assert fresh is not None and fresh.state is not None
            if fresh.status != "active" or not rules.is_paused(fresh.extra["clock"]):
                await _tell(interaction, N_("The game is not paused."))
                return
            clock = rules.resume(fresh.extra["clock"], self.clock.now())
            fresh.extra["clock"] = clock
            fresh.due_at = rules.due_at(clock)
            await self.store.save(
                fresh, expected_version=fresh.version, actions=[(seat, "!resume")]
            )
            self.saved(fresh)
            state = GAMES[fresh.kind].from_dict(fresh.state)
            await self.tables.board.refresh(fresh, state)
        await _tell(interaction, N_("The clock runs again."))
        language = await public_language(self.bot, fresh.guild_id)
        await self._channel(fresh).send(
            t(
                language,
                "▶️ {name} resumed game #{number}; the clock runs again.",
                name=fresh.seats[seat].name,
                number=fresh.id,
            )
        )


def _marker_moved(kind: str, marker: int | None) -> Callable[[GameState], bool] | None:
    if marker is None:
        return None
    return lambda state: rules.progress_marker(kind, state) != marker


async def _async_value(value: dict[str, Any]) -> dict[str, Any]:
    return value


async def _tell(interaction: discord.Interaction[Any], message: str) -> None:
    """Tell only the member, in his language."""
    text = t(private_language(interaction), message)
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)
