"""The hooks every game's cog implements; the table machinery calls nothing else of it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from cogs.table.components import Target
from cogs.table.host import Host
from data import Table
from games import GameSpec, GameState

if TYPE_CHECKING:
    from cogs.table.commands import Tables


@dataclass
class Turn:
    """One click on a game's own control, already checked to come from a seated player."""

    interaction: discord.Interaction[Any]
    table: Table
    state: GameState
    seat: int
    target: Target
    values: list[str] = field(default_factory=list)


class GameCog(commands.Cog):
    """Base class of a game's Discord adapter."""

    spec: GameSpec
    colour = discord.Colour.blurple()

    def __init__(self, bot: Host) -> None:
        self.bot = bot

    @property
    def tables(self) -> Tables:
        return self.bot.tables

    def render(self, table: Table, state: GameState, headline: str | None) -> bytes:
        """PNG bytes of the public board."""
        raise NotImplementedError

    def turn_controls(self, table: Table, state: GameState) -> list[discord.ui.Item[Any]]:
        """Components on the board message for the seat to act (a human)."""
        return []

    async def on_turn_component(self, turn: Turn) -> None:
        """A click on one of this game's controls by the seat whose turn it is."""
        await turn.interaction.response.send_message("Unknown control.", ephemeral=True)

    def status_text(self, table: Table, state: GameState) -> str:
        return ""

    def result_text(self, table: Table, state: GameState) -> str:
        return "The game is over."

    def rules_embed(self) -> discord.Embed:
        raise NotImplementedError

    private_label: str | None = None
    """Label of the board button that shows a seat its private view (None: nothing hidden)."""

    def private_payload(self, table: Table, state: GameState, seat: int) -> dict[str, Any]:
        """Message keyword arguments showing ``seat`` what only it may see."""
        raise NotImplementedError

    def private_recipients(
        self, table: Table, before: GameState | None, after: GameState
    ) -> list[int]:
        """Seats that should get their private view by DM after this change."""
        return []

    def narrate(self, table: Table, before: GameState, action: str, after: GameState) -> list[str]:
        """Lines telling the channel what a computer seat's ``action`` did."""
        seat = before.current_player
        name = table.seats[seat].name if seat is not None else "?"
        return [f"{name}: {before.describe(action)}"]

    async def after_play(
        self, turn: Turn, table: Table, after: GameState, done: str | None
    ) -> None:
        """Called once for each play that landed (never for a refused or outdated one),
        after the board is redrawn and before the next player is pinged: the place for a
        game's own summaries and follow-up menus. ``turn.state`` is the state before."""

    def automatic_action(self, state: GameState) -> str | None:
        """A human seat's action that plays itself (e.g. a forced move), or None to wait
        for the player."""
        return None
