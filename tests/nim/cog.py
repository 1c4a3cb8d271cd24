"""Nim in Discord: a button per take; everything else comes from ``GameCog``."""

from __future__ import annotations

from typing import Any

import discord

from cogs.table.components import TableButton, Target
from cogs.table.game_cog import GameCog, Turn
from data import Table
from nim import text
from nim.game import SPEC, NimState
from nim.picture import render_nim


class NimCog(GameCog[NimState], name="Nim", group_name="nim", group_description="Nim"):
    spec = SPEC
    rules_text = text.RULES
    move_help = "Take stones by text, e.g. 2"
    notation_help = "How many stones to take: 1, 2 or 3"
    picture = staticmethod(render_nim)

    def turn_controls(self, table: Table, state: NimState) -> list[discord.ui.Item[Any]]:
        target = Target(table.id, table.version, "take")
        takes = [
            TableButton(target.but("take", a), label=f"Take {a}") for a in state.legal_actions()
        ]
        return [*takes, TableButton(target.but("resign"), label="Resign")]

    async def on_turn_component(self, turn: Turn[NimState]) -> None:
        await self.tables.play(turn, [turn.target.arg])

    def status_text(self, table: Table, state: NimState) -> str:
        return text.status(state.view(None), table.names)

    def result_text(self, table: Table, state: NimState) -> str:
        return text.result(state.view(None), table.names)
