"""Hints: the normal computer's advice, with its reason, for the player whose turn it is.

Hints are on in a game settled before it starts: a game of one person against computers
on a server that does not rate computer games, or any game whose opener turned them on in
the lobby. Such a game is never rated (the league reads ``Table.hints_on``), and the board
says so. A hint is worked out off the event loop (where the computer players think) from
what the player's seat may see, shown to that player alone, and logged as a table event
(``!hint``) without a new version, so the board's controls stay current and the record
says hints were used.
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

import discord

from cogs.language import private_language
from cogs.replies import tell
from cogs.table.components import RACED, TableButton, Target
from cogs.table.game_cog import GameCog, GameCogs, Turn
from cogs.table.seats import human_seats, played_by_computer
from data import HINTS, StaleVersion, Store, Table
from data.store import PRACTICE
from games import GameState
from games.table_events import HINT
from texts.i18n import N_, t

HINTS_AT_ONCE = 2
"""Hints worked out at the same time: they share the threads the computer players think
in, so a flood of hint clicks waits here instead of holding up the computers' moves."""
HINT_LABEL = N_("Hint")
HINTS_OFF = N_("Hints are off in this game: a rated game has none.")
NOTHING_TO_CHOOSE = N_("There is nothing to choose right now: ask for a hint at your next choice.")
HINTS_ON_LINE = N_("💡 Hints on: this game is not rated.")
HINT_ADVICE = N_("💡 Hint (only you see it): {advice}")


class RatingRules(Protocol):
    """What the league rates, as far as hints depend on it."""

    async def rates_computer_games(self, guild_id: int) -> bool:
        """Whether the server's league rates games with computer players."""


def against_computers(table: Table) -> bool:
    """One person at the table, every other seat a computer."""
    return len(human_seats(table)) == 1 and len(table.seats) > 1


def offers_hint(table: Table, state: GameState, cog: GameCog[Any]) -> bool:
    """Whether the board shows the Hint button: hints on, a person to act, a choice."""
    seat = state.current_player
    if not table.hints_on or table.status != "active" or seat is None:
        return False
    return not played_by_computer(table, seat) and cog.hint_offered(state)


def hint_button(table: Table) -> TableButton:
    return TableButton(
        Target(table.id, table.version, "hint"),
        label=t(table.language, HINT_LABEL),
        emoji="💡",
    )


def hints_line(table: Table) -> list[str]:
    """The board's line saying hints are on and the game is unrated (none when off)."""
    return [t(table.language, HINTS_ON_LINE)] if table.hints_on else []


class Hints:
    """Settles whether a game has hints when it starts, and gives them."""

    def __init__(self, store: Store, cogs: GameCogs, rating: RatingRules) -> None:
        self.store = store
        self.cogs = cogs
        self.rating = rating
        self.slots = asyncio.Semaphore(HINTS_AT_ONCE)

    async def settle(self, table: Table) -> None:
        """At the start: a lobby that turned hints on keeps them; a game of one person
        against computers has them unless the server rates computer games, and the
        practice game after a lesson (never rated) always."""
        if table.hints_on or not against_computers(table):
            return
        if table.extra.get(PRACTICE) or not await self.rating.rates_computer_games(
            table.guild_id
        ):
            table.extra[HINTS] = True

    async def give(self, turn: Turn[Any]) -> None:
        """The hint for the seat to act, privately; a game without hints, or a moment
        with nothing to choose, gets a short refusal."""
        table, state, interaction = turn.table, turn.state, turn.interaction
        cog = self.cogs[table.kind]
        if not table.hints_on:
            await tell(interaction, HINTS_OFF)
            return
        if not cog.hint_offered(state):
            await tell(interaction, NOTHING_TO_CHOOSE)
            return
        language = private_language(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with self.slots:
            advice = await asyncio.to_thread(cog.hint, table, state, language)
        try:
            await self.store.log_event(table, turn.seat, HINT)
        except StaleVersion:
            await tell(interaction, RACED)
            return
        await interaction.followup.send(
            t(language, HINT_ADVICE, advice=advice),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )
