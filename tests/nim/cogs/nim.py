"""Nim in Discord: a button per take; everything else comes from ``GameCog``."""

from __future__ import annotations

from typing import Any

import discord

from cogs.table.components import TableButton, Target
from cogs.table.game_cog import GameCog, Turn
from data import Table
from games.nim import SPEC, NimState
from render.nim import render_nim
from texts import nim as nim_text
from texts.i18n import t


class NimCog(GameCog[NimState], name="Nim", group_name="nim", group_description="Nim"):
    spec = SPEC
    rules_text = nim_text.RULES
    move_help = nim_text.MOVE_HELP
    notation_help = nim_text.NOTATION_HELP
    picture = staticmethod(render_nim)

    def turn_controls(self, table: Table, state: NimState) -> list[discord.ui.Item[Any]]:
        target = Target(table.id, table.version, "take")
        language = table.language
        takes = [
            TableButton(target.but("take", take), label=t(language, nim_text.TAKE, count=take))
            for take in state.legal_actions()
        ]
        resign = TableButton(target.but("resign"), label=t(language, nim_text.RESIGN))
        return [*takes, resign]

    async def on_turn_component(self, turn: Turn[NimState]) -> None:
        await self.tables.play(turn, [turn.target.arg])

    def status_text(self, table: Table, state: NimState) -> str:
        return nim_text.status(state.view(None), table.names, table.language)

    def result_text(self, table: Table, state: NimState) -> str:
        return nim_text.result(state.view(None), table.names, table.language)

    def narrate(self, table: Table, before: NimState, action: str, after: NimState) -> list[str]:
        seat = before.current_player
        name = table.seats[seat].name if seat is not None else "?"
        return [nim_text.took(name, int(action), table.language)]
