"""Bann in Discord: tip buttons, a select of that tip's knight moves, draw offers."""

from __future__ import annotations

from typing import Any

import discord

from cogs.language import private_language
from cogs.replies import MENU_OUTDATED
from cogs.table.components import TableButton, TableSelect, Target, view_of
from cogs.table.game_cog import GameCog, Turn, hint_seed
from data import Table
from games import GAMES
from games.bann import BannState, side_faces
from games.bann.hints import explain
from render.bann import render_bann
from texts import bann as bann_text
from texts import bold
from texts.i18n import t

DRAW_ACTIONS = ("offer", "accept", "decline")
MOVES_MENU = "moves"
OPTION_DESCRIPTION_LIMIT = 100


class BannCog(
    GameCog[BannState],
    name="Bann",
    group_name="bann",
    group_description=bann_text.GROUP_HELP,
):
    spec = GAMES["bann"]
    colour = discord.Colour.from_rgb(196, 64, 52)
    rules_text = bann_text.RULES
    move_help = bann_text.MOVE_HELP
    notation_help = bann_text.NOTATION_HELP
    picture = staticmethod(render_bann)

    def turn_controls(self, table: Table, state: BannState) -> list[discord.ui.Item[Any]]:
        language = table.language
        target = Target(table.id, table.version, "tip")
        if state.draw_offer is not None:
            return [
                TableButton(
                    target.but("act", "accept"),
                    label=t(language, bann_text.ACCEPT_DRAW),
                    style=discord.ButtonStyle.success,
                ),
                TableButton(
                    target.but("act", "decline"), label=t(language, bann_text.DECLINE_DRAW)
                ),
            ]
        legal = state.legal_actions()
        tips = [
            TableButton(
                target.but("tip", str(face)),
                label=t(language, bann_text.TIP_TO, face=face),
                emoji="🎲",
                style=discord.ButtonStyle.primary,
                disabled=not any(action.startswith(f"{face}>") for action in legal),
                row=0,
            )
            for face in side_faces(state.dice[state.turn])
        ]
        extras: list[discord.ui.Item[Any]] = [
            TableButton(
                target.but("resign"),
                label=t(language, bann_text.RESIGN),
                style=discord.ButtonStyle.danger,
                row=1,
            )
        ]
        if "offer" in legal:
            extras.insert(
                0,
                TableButton(
                    target.but("act", "offer"), label=t(language, bann_text.OFFER_DRAW), row=1
                ),
            )
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
            await super().on_turn_component(turn)

    async def _move(self, turn: Turn[BannState], action: str) -> None:
        """A knight move picked in a tip menu; a menu older than the player's newest is refused."""
        private = self.tables.private
        language = private_language(turn.interaction)
        if private.menu_outdated(turn.table.id, turn.interaction, MOVES_MENU, turn.target.arg):
            await turn.interaction.response.send_message(t(language, MENU_OUTDATED), ephemeral=True)
            return
        legal = action in turn.state.legal_actions()
        done = bann_text.confirmation(language, turn.state, action) if legal else None
        await self.tables.play(turn, [action], done=done)

    async def _show_moves(self, turn: Turn[BannState], face: int) -> None:
        state = turn.state
        language = private_language(turn.interaction)
        moves = [action for action in state.legal_actions() if action.startswith(f"{face}>")]
        if not moves:
            await turn.interaction.response.send_message(
                t(language, bann_text.NO_MOVE_AFTER_TIP, face=face), ephemeral=True
            )
            return
        options = [self._move_option(language, state, action) for action in moves]
        mark = self.tables.private.open_menu(turn.table.id, turn.interaction, MOVES_MENU)
        select = TableSelect(
            turn.target.but("move", mark),
            options=options,
            placeholder=t(language, bann_text.CHOOSE_MOVE, face=face),
        )
        banned = sorted({face, state.dice[1 - state.turn]})
        await turn.interaction.response.send_message(
            t(language, bann_text.MOVES_MENU, face=face, knights=", ".join(map(str, banned))),
            view=view_of([select]),
            ephemeral=True,
        )

    @staticmethod
    def _move_option(language: str, state: BannState, action: str) -> discord.SelectOption:
        details = state.move_details(action)
        label, description = bann_text.move_option(language, details)
        return discord.SelectOption(
            label=label,
            value=action,
            description=description[:OPTION_DESCRIPTION_LIMIT] if description else None,
            emoji="⚔️" if details["captured"] else None,
        )

    def narrate(self, table: Table, before: BannState, action: str, after: BannState) -> list[str]:
        return [bann_text.turn_sentence(table.language, before, action, table.names)]

    def status_text(self, table: Table, state: BannState) -> str:
        language = table.language
        view = state.view(None)
        names = bold(table.names)
        lines = [bann_text.last_move(language, view, table.names)] if view["last_move"] else []
        current = view["turn"]
        assert current is not None
        if view["draw_offer"] is not None:
            offerer = table.names[view["draw_offer"]]
            lines.append(
                t(language, bann_text.DRAW_ANSWER, offerer=offerer, answerer=names[current])
            )
        else:
            lines.append(t(language, bann_text.TO_MOVE, name=names[current]))
        return "\n".join(lines)

    def result_text(self, table: Table, state: BannState) -> str:
        return bann_text.result(table.language, state.view(None), bold(table.names))

    def hint(self, table: Table, state: BannState, language: str) -> str:
        return bann_text.hint(language, explain(state, hint_seed(table)))
