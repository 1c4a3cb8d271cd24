"""What the table machinery knows of the turn clocks: a new table's clock and place, the
deadline started after every change, the refusal while a game is paused, and what the
board shows about the clock. What happens when a clock runs out is ``cogs.timeouts``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from cogs.host import Interaction
from cogs.language import channel_language, private_language
from cogs.replies import THREAD_PERMISSIONS, failure_text, missing_permissions, permission_names
from cogs.scheduler import TimeSource
from cogs.table.components import TableButton, Target
from cogs.table.seats import away_seats, human_seats, played_by_computer
from data import Table
from data.settings import SettingsStore
from games import GameState
from games import turn_clock as rules
from games.turn_clock import CLOCK_CHOICES
from texts.i18n import ENGLISH, N_, t

log = logging.getLogger("tablebot.clocks")

CLOCK_OPTIONS = [
    app_commands.Choice(name=name, value=seconds) for name, seconds in CLOCK_CHOICES.items()
]
"""The `clock:` choices of `/<game> new` and `/settings`."""
CLOCK_HELP = N_("Time per decision (default: this server's setting)")
PAUSED = N_("The game is paused: press **Resume** on the board (or `/game resume`) first.")
NO_THREAD_PERMISSION = N_(
    "This server opens each table in its own thread, but I lack the {permissions}"
    " permission in this channel, so your table is here."
)
THREAD_REFUSED = N_(
    "This server opens each table in its own thread, but Discord did not let me open or"
    " post in one here, so your table is in this channel."
)


@dataclass(frozen=True)
class TablePlace:
    """The channel or thread a new table goes to, and, when it is not the thread the
    server wants, what its opener is told (in his language)."""

    channel_id: int
    why_not_a_thread: str | None = None


class Deadlines:
    """Stamps each table's clock as it changes and tells the board about it."""

    def __init__(
        self,
        settings: SettingsStore,
        time: TimeSource,
        due_soon: Callable[[float | None], None],
    ) -> None:
        self.settings = settings
        self.time = time
        self._due_soon = due_soon

    async def new_table_extra(self, guild_id: int, kind: str, clock: int | None) -> dict[str, Any]:
        settings = await self.settings.get(guild_id)
        return {"clock": rules.new_clock(clock or rules.clock_for(kind, settings.clocks))}

    async def lobby_due(self, guild_id: int) -> float:
        settings = await self.settings.get(guild_id)
        expiry = settings.lobby_expiry or rules.DEFAULT_LOBBY_EXPIRY
        return rules.lobby_due(self.time.now(), expiry)

    async def table_place(self, interaction: Interaction, title: str) -> TablePlace:
        """Where a new table goes: its own public thread under the command's channel when
        the server wants that, else the channel itself. A thread the bot may not open or
        post in leaves the table in the channel, not refused: its opener is told why."""
        channel_id = interaction.channel_id or 0
        if interaction.guild_id is None or isinstance(interaction.channel, discord.Thread):
            return TablePlace(channel_id)
        if not (await self.settings.get(interaction.guild_id)).threads:
            return TablePlace(channel_id)
        mine = private_language(interaction)
        missing = missing_permissions(interaction.app_permissions, THREAD_PERMISSIONS)
        if missing:
            names = permission_names(mine, missing)
            return TablePlace(channel_id, t(mine, NO_THREAD_PERMISSION, permissions=names))
        opener = interaction.user.display_name
        try:
            message = await interaction.edit_original_response(
                content=t(
                    await channel_language(interaction),
                    "🎲 {opener} opened a {game} table in its own thread below.",
                    opener=opener,
                    game=title,
                )
            )
            thread = await message.create_thread(name=f"{title} – {opener}"[:100])
        except discord.HTTPException as failure:
            log.warning("could not open a thread for a %s table: %s", title, failure_text(failure))
            return TablePlace(channel_id, t(mine, THREAD_REFUSED))
        return TablePlace(thread.id)

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
        table.extra["clock"] = rules.start_turn(clock, waited_on, self.time.now())
        table.due_at = rules.due_at(table.extra["clock"])

    def saved(self, table: Table) -> None:
        """A table was saved: the scheduler wakes if it is now due sooner."""
        self._due_soon(table.due_at)

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
