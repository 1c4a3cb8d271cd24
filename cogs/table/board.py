"""The board message: picture, status, controls and the computers' moves, as a payload
the keeper draws."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import discord

from cogs.render_pool import RenderPool
from cogs.replies import NO_MENTIONS
from cogs.table.components import TableButton, Target, view_of
from cogs.table.deadlines import Deadlines
from cogs.table.game_cog import GameCog, GameCogs
from cogs.table.hints import hint_button, hints_line, offers_hint
from cogs.table.lengths import GameLengths
from cogs.table.lobby_message import lobby_payload
from cogs.table.payload import MessagePayload
from cogs.table.records import commitment_line
from cogs.table.seats import time_loss_headline
from cogs.table.turn_lines import board_log
from data import Table
from games import GAMES, GameState
from texts import table as table_text
from texts.i18n import t
from texts.table import options_line, resign_headline

FOLLOW = "follow"
"""The verb of the board's **Follow** button: anyone's click toggles his following of the
table (``cogs/table/follows.py``)."""
FOLLOW_ROW = 4
"""The Follow button has the board's last row to itself: it is for spectators, not a move."""


def follow_button(table: Table) -> TableButton:
    return TableButton(
        Target(table.id, table.version, FOLLOW),
        label=t(table.language, "Follow"),
        emoji="👁️",
        row=FOLLOW_ROW,
    )


class BoardComposer:
    """Composes each table's message: its lobby, its board, or the note that it closed."""

    def __init__(
        self,
        cogs: GameCogs,
        renderer: RenderPool,
        deadlines: Deadlines,
        lengths: GameLengths,
    ) -> None:
        self.cogs = cogs
        self.renderer = renderer
        self.deadlines = deadlines
        self.lengths = lengths

    async def payload(
        self,
        table: Table,
        state: GameState,
        headline: str | None = None,
        notes: Sequence[str] = (),
    ) -> MessagePayload:
        """The board message: picture, status embed, controls, and above them a line for
        each turn just played (the next redraw clears them)."""
        cog = self.cogs[table.kind]
        language = table.language
        png = await self.renderer.render(cog.render_job(table, state, headline))
        filename = f"{table.kind}-{table.id}-{table.version}.png"
        clock_lines = self.deadlines.board_lines(table, language)
        lines = [_board_text(table, state, cog, headline), *clock_lines, *hints_line(table)]
        embed = discord.Embed(
            title=t(language, "{game}: game #{number}", game=cog.spec.title, number=table.id),
            description="\n".join(lines),
            colour=cog.colour,
        )
        embed.set_image(url=f"attachment://{filename}")
        options = options_line(language, cog.spec.options, table.options)
        fairness = commitment_line(table, language)
        embed.set_footer(text=f"{options}\n{fairness}" if options else fairness)
        controls = _controls(table, state, cog) + self.deadlines.board_controls(table, language)
        return MessagePayload(
            content=board_log(notes, language),
            embed=embed,
            view=view_of(controls),
            allowed_mentions=NO_MENTIONS,
            files=[discord.File(io.BytesIO(png), filename=filename)],
        )

    async def lobby_payload(
        self, table: Table, invited: discord.abc.User | None = None
    ) -> MessagePayload:
        """The lobby message, with the table's length where its game tells it."""
        length = await self.lengths.line(table)
        return lobby_payload(table, self.cogs[table.kind].colour, invited, length)

    async def current_payload(self, table: Table) -> MessagePayload:
        """The message a table shows as it is stored: its lobby, or its board."""
        if table.status == "lobby" or table.state is None:
            if table.status == "aborted":
                closed = t(
                    table.language,
                    "{game} table #{number} was closed.",
                    game=GAMES[table.kind].title,
                    number=table.id,
                )
                return MessagePayload(content=closed, embed=None, view=None)
            return await self.lobby_payload(table)
        state = GAMES[table.kind].from_dict(table.state)
        return await self.payload(table, state, stored_headline(table))


def stored_headline(table: Table) -> str | None:
    """The headline of an ended game, as its table row records how it ended."""
    language = table.language
    if table.status == "aborted":
        ended = table.extra.get("ended")
        if isinstance(ended, str) and ended:
            return table_text.ended_unrated_headline(language, ended)
        return table_text.abandoned_headline(language)
    resigned = table.extra.get("resigned")
    if table.status == "finished" and isinstance(resigned, int):
        return resign_headline(language, table.names, resigned)
    timed_out = table.extra.get("timed_out")
    if table.status == "finished" and isinstance(timed_out, int):
        return time_loss_headline(table, timed_out, language)
    return None


def _board_text(table: Table, state: GameState, cog: GameCog[Any], headline: str | None) -> str:
    if headline:
        return headline
    if table.status in ("finished", "aborted") or state.is_over:
        return cog.result_text(table, state)
    return cog.status_text(table, state)


def _controls(table: Table, state: GameState, cog: GameCog[Any]) -> list[discord.ui.Item[Any]]:
    if table.status != "active" or state.is_over:
        return []
    controls = cog.turn_controls(table, state)
    if cog.spec.hidden_information:
        controls.append(
            TableButton(
                Target(table.id, table.version, "private"),
                label=t(table.language, cog.private_label),
                emoji="🂠",
            )
        )
    if offers_hint(table, state, cog):
        controls.append(hint_button(table))
    return [*controls, follow_button(table)]
