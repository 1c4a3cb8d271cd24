"""What a seated player does about the clock: take his seat back from the computer that
played it while he was away, agree a pause, resume. Each is saved like a move."""

from __future__ import annotations

import discord

from cogs.host import Host, Interaction
from cogs.language import public_language
from cogs.replies import tell
from cogs.table.deadlines import Deadlines
from cogs.table.keeper import BoardKeeper
from cogs.table.memory import GameMemory
from cogs.table.seats import away_seats, human_seats
from data import Store, Table
from games import GAMES
from games import turn_clock as rules
from texts.i18n import N_, t

CLOCK_VERBS = frozenset({"rejoin", "pause", "resume"})
"""Component verbs of the clock's buttons: take a seat back, accept a pause, resume."""


class ClockVerbs:
    """Answers the clock's buttons and `/game rejoin|pause|resume`."""

    def __init__(
        self,
        bot: Host,
        store: Store,
        memory: GameMemory,
        keeper: BoardKeeper,
        deadlines: Deadlines,
    ) -> None:
        self.bot = bot
        self.store = store
        self.memory = memory
        self.keeper = keeper
        self.deadlines = deadlines

    async def on_component(self, interaction: Interaction, table: Table, verb: str) -> None:
        if verb == "rejoin":
            await self.rejoin(interaction, table)
        elif verb == "pause":
            await self.propose_or_accept_pause(interaction, table)
        else:
            await self.resume(interaction, table)

    def _channel(self, table: Table) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)

    async def rejoin(self, interaction: Interaction, table: Table) -> None:
        seat = table.seat_of(interaction.user.id)
        if table.status != "active" or seat is None or seat not in away_seats(table):
            await tell(interaction, N_("You have no seat to take back in this game."))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with self.memory.lock(table.id):
            fresh = await self.store.load(table.id)
            assert fresh is not None
            if fresh.status != "active" or seat not in away_seats(fresh):
                await tell(interaction, N_("You have no seat to take back."))
                return
            away = dict(fresh.extra["away"])
            away.pop(str(seat))
            fresh.extra["away"] = away
            assert fresh.state is not None
            state = GAMES[fresh.kind].from_dict(fresh.state)
            self.deadlines.stamp(fresh, state)
            await self.store.save(fresh, expected_version=fresh.version, actions=[(seat, "!back")])
            self.deadlines.saved(fresh)
            await self.keeper.refresh(fresh, state)
        await tell(interaction, N_("Welcome back: your seat is yours again from your next turn."))
        language = await public_language(self.bot, fresh.guild_id)
        await self._channel(fresh).send(
            t(
                language,
                "👋 {name} is back and plays on in game #{number}.",
                name=fresh.seats[seat].name,
                number=fresh.id,
            )
        )

    async def propose_or_accept_pause(self, interaction: Interaction, table: Table) -> None:
        seat = table.seat_of(interaction.user.id)
        if table.status != "active" or seat is None or seat not in human_seats(table):
            await tell(
                interaction, N_("Only a player seated in this running game can ask to pause.")
            )
            return
        if rules.is_paused(table.extra.get("clock")):
            await tell(interaction, N_("The game is already paused."))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with self.memory.lock(table.id):
            fresh = await self.store.load(table.id)
            assert fresh is not None and fresh.state is not None
            clock = fresh.extra["clock"]
            if rules.is_paused(clock) or fresh.status != "active":
                await tell(interaction, N_("Nothing to pause."))
                return
            clock = (
                rules.accept_pause(clock, seat)
                if clock.get("pause_votes")
                else rules.propose_pause(clock, seat)
            )
            agreed = rules.pause_agreed(clock, human_seats(fresh))
            if agreed:
                clock = rules.pause(clock, self.deadlines.time.now())
            fresh.extra["clock"] = clock
            fresh.due_at = rules.due_at(clock)
            await self.store.save(
                fresh, expected_version=fresh.version, actions=[(seat, "!pause")] if agreed else ()
            )
            self.deadlines.saved(fresh)
            state = GAMES[fresh.kind].from_dict(fresh.state)
            await self.keeper.refresh(fresh, state)
        if not agreed:
            await tell(interaction, N_("You are for a pause; the others must accept."))
            return
        await tell(interaction, N_("The game is paused."))
        language = await public_language(self.bot, fresh.guild_id)
        await self._channel(fresh).send(
            t(
                language,
                "⏸️ Game #{number} is paused by agreement. Anyone seated can resume it.",
                number=fresh.id,
            )
        )

    async def resume(self, interaction: Interaction, table: Table) -> None:
        seat = table.seat_of(interaction.user.id)
        if table.status != "active" or seat is None:
            await tell(interaction, N_("Only a player seated in this game can resume it."))
            return
        if not rules.is_paused(table.extra.get("clock")):
            await tell(interaction, N_("The game is not paused."))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with self.memory.lock(table.id):
            fresh = await self.store.load(table.id)
            assert fresh is not None and fresh.state is not None
            if fresh.status != "active" or not rules.is_paused(fresh.extra["clock"]):
                await tell(interaction, N_("The game is not paused."))
                return
            clock = rules.resume(fresh.extra["clock"], self.deadlines.time.now())
            fresh.extra["clock"] = clock
            fresh.due_at = rules.due_at(clock)
            await self.store.save(
                fresh, expected_version=fresh.version, actions=[(seat, "!resume")]
            )
            self.deadlines.saved(fresh)
            state = GAMES[fresh.kind].from_dict(fresh.state)
            await self.keeper.refresh(fresh, state)
        await tell(interaction, N_("The clock runs again."))
        language = await public_language(self.bot, fresh.guild_id)
        await self._channel(fresh).send(
            t(
                language,
                "▶️ {name} resumed game #{number}; the clock runs again.",
                name=fresh.seats[seat].name,
                number=fresh.id,
            )
        )
