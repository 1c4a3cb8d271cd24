"""Bann in Discord: tip buttons, a select of that tip's knight moves, draw offers."""

from __future__ import annotations

from typing import Any

import discord

from cogs.table import MENU_OUTDATED, GameCog, TableButton, TableSelect, Target, Turn, view_of
from data import Table
from games import GAMES
from games.bann import BannState, side_faces
from render.bann import render_bann
from texts import bann as bann_text
from texts import bold

DRAW_ACTIONS = ("offer", "accept", "decline")
MOVES_MENU = "moves"


class BannCog(
    GameCog[BannState],
    name="Bann",
    group_name="bann",
    group_description="Bann: knights, dice and bans",
):
    spec = GAMES["bann"]
    colour = discord.Colour.from_rgb(196, 64, 52)
    rules_text = bann_text.RULES
    move_help = "Play a move in notation, e.g. 4>3:N"
    notation_help = "tip>knight:direction, e.g. 4>3:N (or offer, accept, decline)"
    picture = staticmethod(render_bann)

    def turn_controls(self, table: Table, state: BannState) -> list[discord.ui.Item[Any]]:
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

    async def on_turn_component(self, turn: Turn[BannState]) -> None:
        verb, arg = turn.target.verb, turn.target.arg
        faces = [str(face) for face in side_faces(turn.state.dice[turn.state.turn])]
        if verb == "tip" and arg in faces:
            await self._show_moves(turn, int(arg))
        elif verb == "move" and len(turn.values) == 1:
            await self._move(turn, turn.values[0])
        elif verb == "act" and arg in DRAW_ACTIONS:
            await self.tables.play(turn, [arg])
        else:
            await turn.interaction.response.send_message("Unknown control.", ephemeral=True)

    async def _move(self, turn: Turn[BannState], action: str) -> None:
        """A knight move picked in a tip menu; a menu older than the player's newest is refused."""
        private = self.tables.private
        if private.menu_outdated(turn.table.id, turn.interaction, MOVES_MENU, turn.target.arg):
            await turn.interaction.response.send_message(MENU_OUTDATED, ephemeral=True)
            return
        legal = action in turn.state.legal_actions()
        done = bann_text.confirmation(turn.state, action) if legal else None
        await self.tables.play(turn, [action], done=done)

    async def _show_moves(self, turn: Turn[BannState], face: int) -> None:
        state = turn.state
        moves = [action for action in state.legal_actions() if action.startswith(f"{face}>")]
        if not moves:
            await turn.interaction.response.send_message(
                f"Tipping to {face} leaves you no legal move; choose another face.",
                ephemeral=True,
            )
            return
        options = [self._move_option(state, action) for action in moves]
        mark = self.tables.private.open_menu(turn.table.id, turn.interaction, MOVES_MENU)
        select = TableSelect(
            turn.target.but("move", mark),
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

    def narrate(self, table: Table, before: BannState, action: str, after: BannState) -> list[str]:
        return [bann_text.turn_sentence(before, action, table.names)]

    def status_text(self, table: Table, state: BannState) -> str:
        view = state.view(None)
        names = bold(table.names)
        lines = [bann_text.last_move(view, table.names)] if view["last_move"] else []
        current = view["turn"]
        assert current is not None
        if view["draw_offer"] is not None:
            offerer = table.names[view["draw_offer"]]
            lines.append(bann_text.DRAW_ANSWER.format(offerer=offerer, answerer=names[current]))
        else:
            lines.append(bann_text.TO_MOVE.format(name=names[current]))
        return "\n".join(lines)

    def result_text(self, table: Table, state: BannState) -> str:
        return bann_text.result(state.view(None), bold(table.names))
