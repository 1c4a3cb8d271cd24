"""Bann in Discord: tip buttons, a select of that tip's knight moves, draw offers."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from cogs.clocks import CLOCK_HELP, CLOCK_OPTIONS
from cogs.components import TableButton, TableSelect, Target, view_of
from cogs.computers import Level
from cogs.render_pool import RenderJob
from cogs.table import GameCog, Turn
from data import Table
from games import DEFAULT_LEVEL, GAMES
from games.bann import BannState, side_faces
from render.bann import render_bann

DRAW_ACTIONS = ("offer", "accept", "decline")
RESULT_REASONS = {
    "castle": "reached the castle",
    "last-knight": "captured the last knight",
    "no-move": "left the opponent without a legal move",
}

RULES = """\
**Goal.** Move a knight onto your opponent's castle (the far corner), or capture all of \
his knights. A player who cannot move after tipping loses.
**Your turn.** 1) Tip your die over an edge: the new top is one of the four side faces. \
2) Move one knight one square north, east, south or west to an empty square.
**Bans.** Knights whose number shows on top of *either* die may not move.
**Captures.** Every enemy knight next to the square you moved to (not diagonally) is \
removed, up to three at once. Only the mover captures.
**Draws.** Offer a draw before your move; a position seen three times is a draw.
**Notation for `/bann move`.** `tip>knight:direction`, e.g. `4>3:N` tips to 4 and moves \
knight 3 north (towards rank 6, seen from the first player).
**Full rules:** `docs/rules/bann.md` in the bot's repository.\
"""


class BannCog(GameCog, name="Bann"):
    spec = GAMES["bann"]
    colour = discord.Colour.from_rgb(196, 64, 52)

    group = app_commands.Group(name="bann", description="Bann: knights, dice and bans")

    def render_job(self, table: Table, state: Any, headline: str | None) -> RenderJob:
        return RenderJob(render_bann, (state.view(None), table.names, headline))

    def turn_controls(self, table: Table, state: Any) -> list[discord.ui.Item[Any]]:
        target = Target(table.id, table.version, "tip")
        if state.draw_offer is not None:
            return [
                TableButton(
                    target.but("act", "accept"),
                    label="Accept draw",
                    style=discord.ButtonStyle.success,
                ),
                TableButton(target.but("act", "decline"), label="Decline draw"),
            ]
        legal = state.legal_actions()
        tips = [
            TableButton(
                target.but("tip", str(face)),
                label=f"Tip to {face}",
                emoji="🎲",
                style=discord.ButtonStyle.primary,
                disabled=not any(action.startswith(f"{face}>") for action in legal),
                row=0,
            )
            for face in side_faces(state.dice[state.turn])
        ]
        extras: list[discord.ui.Item[Any]] = [
            TableButton(
                target.but("resign"), label="Resign", style=discord.ButtonStyle.danger, row=1
            )
        ]
        if "offer" in legal:
            extras.insert(0, TableButton(target.but("act", "offer"), label="Offer draw", row=1))
        return [*tips, *extras]

    async def on_turn_component(self, turn: Turn) -> None:
        verb, arg = turn.target.verb, turn.target.arg
        faces = [str(face) for face in side_faces(turn.state.dice[turn.state.turn])]  # type: ignore[attr-defined]
        if verb == "tip" and arg in faces:
            await self._show_moves(turn, int(arg))
        elif verb == "move" and len(turn.values) == 1:
            action = turn.values[0]
            legal = action in turn.state.legal_actions()
            done = f"You played: {turn.state.describe(action)}" if legal else None
            await self.tables.play(turn, [action], done=done)
        elif verb == "act" and arg in DRAW_ACTIONS:
            await self.tables.play(turn, [arg])
        else:
            await turn.interaction.response.send_message("Unknown control.", ephemeral=True)

    async def _show_moves(self, turn: Turn, face: int) -> None:
        state: BannState = turn.state  # type: ignore[assignment]
        moves = [action for action in state.legal_actions() if action.startswith(f"{face}>")]
        if not moves:
            await turn.interaction.response.send_message(
                f"Tipping to {face} leaves you no legal move; choose another face.",
                ephemeral=True,
            )
            return
        options = [self._move_option(state, action) for action in moves]
        select = TableSelect(
            turn.target.but("move"),
            options=options,
            placeholder=f"Die tipped to {face}: choose a knight move",
        )
        banned = sorted({face, state.dice[1 - state.turn]})
        await turn.interaction.response.send_message(
            f"Your die will show **{face}**. Banned knights: {', '.join(map(str, banned))}.",
            view=view_of([select]),
            ephemeral=True,
        )

    @staticmethod
    def _move_option(state: BannState, action: str) -> discord.SelectOption:
        details = state.move_details(action)
        label = f"Knight {details['knight']}: {details['from']} → {details['to']}"
        notes = []
        if details["captured"]:
            notes.append("captures " + ", ".join(details["captured"]))
        if details["wins"]:
            notes.append("wins the game")
        return discord.SelectOption(
            label=label,
            value=action,
            description="; ".join(notes)[:100] or None,
            emoji="⚔️" if details["captured"] else None,
        )

    def status_text(self, table: Table, state: Any) -> str:
        lines = []
        last = state.last_move
        if last:
            lines.append(f"{table.seats[last['seat']].name}: {state_describe_last(last)}")
        current = state.current_player
        if state.draw_offer is not None:
            offerer = table.seats[state.draw_offer].name
            lines.append(f"{offerer} offers a draw. **{table.seats[current].name}** answers.")
        else:
            lines.append(f"**{table.seats[current].name}** to move: tip your die, then move.")
        return "\n".join(lines)

    def result_text(self, table: Table, state: Any) -> str:
        if state.winner is not None:
            reason = RESULT_REASONS.get(state.result, "won")
            return f"**{table.seats[state.winner].name}** wins: {reason}."
        if state.result == "agreement":
            return "Drawn by agreement."
        if state.result == "repetition":
            return "Drawn: the same position occurred three times."
        return "The game ended."

    def rules_embed(self) -> discord.Embed:
        return discord.Embed(
            title="Bann: the rules in short", description=RULES, colour=self.colour
        )

    @group.command(name="new", description="Open a Bann table in this channel")
    @app_commands.describe(
        opponent="Invite one player (only they can take the seat)",
        computer="Play against the computer right away, at this level",
        clock=CLOCK_HELP,
    )
    @app_commands.choices(clock=CLOCK_OPTIONS)
    async def new(
        self,
        interaction: discord.Interaction[Any],
        opponent: discord.Member | None = None,
        computer: Level | None = None,
        clock: app_commands.Choice[int] | None = None,
    ) -> None:
        await self.tables.open_lobby(
            interaction,
            "bann",
            options={},
            invited=None if computer else opponent,
            computers=1 if computer else 0,
            level=computer or DEFAULT_LEVEL,
            clock=clock.value if clock else None,
        )

    @group.command(name="rules", description="How to play Bann")
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(embed=self.rules_embed(), ephemeral=True)

    @group.command(name="move", description="Play a move in notation, e.g. 4>3:N")
    @app_commands.describe(notation="tip>knight:direction, e.g. 4>3:N (or offer, accept, decline)")
    async def move(self, interaction: discord.Interaction[Any], notation: str) -> None:
        await self.tables.text_move(interaction, "bann", [notation.strip()])


def state_describe_last(last: dict[str, Any]) -> str:
    sentence = f"knight {last['knight']} {last['from']}→{last['to']}"
    if last["captured"]:
        sentence += ", captured " + ", ".join(last["captured"])
    return sentence + "."
