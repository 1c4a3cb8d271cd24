"""The board message: picture, status, controls and the computers' moves, kept current."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from cogs.archive import commitment_line
from cogs.clock_seats import time_loss_headline
from cogs.table.components import TableButton, Target, view_of
from cogs.table.hooks import GameCog
from cogs.table.keeper import channel_gone
from cogs.table.pipeline import board_log
from cogs.table.replies import NO_MENTIONS, log
from data import Table
from games import GAMES, GameState
from texts.i18n import N_, t

if TYPE_CHECKING:
    from cogs.table.commands import Tables

ABANDONED = N_("Abandoned; the game is not rated.")


class BoardMessages:
    """Builds each table's message and redraws it after every change."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables

    async def payload(
        self,
        table: Table,
        state: GameState,
        headline: str | None = None,
        notes: Sequence[str] = (),
    ) -> dict[str, Any]:
        """The board message: picture, status embed, controls, and above them a line for
        each turn just played (the next redraw clears them)."""
        cog = self.tables.game_cog(table.kind)
        language = table.language
        png = await self.tables.renderer.render(cog.render_job(table, state, headline))
        filename = f"{table.kind}-{table.id}-{table.version}.png"
        clocks = self.tables.bot.clocks
        clock_lines = clocks.board_lines(table, language)
        embed = discord.Embed(
            title=t(language, "{game}: game #{number}", game=cog.spec.title, number=table.id),
            description="\n".join([_board_text(table, state, cog, headline), *clock_lines]),
            colour=cog.colour,
        )
        embed.set_image(url=f"attachment://{filename}")
        embed.set_footer(text=commitment_line(table, language))
        return {
            "content": board_log(notes, language),
            "embed": embed,
            "attachments": [discord.File(io.BytesIO(png), filename=filename)],
            "view": view_of(_controls(table, state, cog) + clocks.board_controls(table, language)),
            "allowed_mentions": NO_MENTIONS,
        }

    async def refresh(
        self,
        table: Table,
        state: GameState,
        headline: str | None = None,
        notes: Sequence[str] = (),
    ) -> bool:
        """Redraw the board message in place (post a new one if it is gone). If Discord
        fails, a background retry takes over; True if the board shows the table now."""
        return await self.tables.boards.draw_or_retry(
            table, lambda: self.payload(table, state, headline, notes)
        )

    async def sync(self, game_id: int) -> bool:
        """Bring the table's message to its committed version and ping the seat to act;
        False if it was up to date already.

        Discord's errors propagate, except that a lobby whose channel is gone is removed.
        """
        store = self.tables.store
        async with self.tables.locks[game_id]:
            table = await store.load(game_id)
            if table is None or not table.board_behind:
                return False
            try:
                await self.tables.boards.draw(table, await self.current_payload(table))
            except discord.HTTPException as failure:
                if table.status == "lobby" and channel_gone(failure):
                    log.warning("game %d: lobby's channel is gone; removing it", game_id)
                    await store.delete_lobby(game_id)
                    return False
                raise
        log.info("game %d: board brought up to version %d", game_id, table.version)
        if table.status == "active" and table.state is not None:
            state = GAMES[table.kind].from_dict(table.state)
            await self.tables.delivery.ping_next(table, state, acting_user=None)
        return True

    async def current_payload(self, table: Table) -> dict[str, Any]:
        """The message a table shows as it is stored: its lobby, or its board."""
        if table.status == "lobby" or table.state is None:
            if table.status == "aborted":
                return {
                    "content": t(
                        table.language,
                        "{game} table #{number} was closed.",
                        game=GAMES[table.kind].title,
                        number=table.id,
                    ),
                    "embed": None,
                    "view": None,
                }
            return self.tables.lobby.payload(table)
        state = GAMES[table.kind].from_dict(table.state)
        return await self.payload(table, state, self._stored_headline(table))

    def _stored_headline(self, table: Table) -> str | None:
        language = table.language
        if table.status == "aborted":
            ended = table.extra.get("ended")
            if isinstance(ended, str):
                return t(
                    language,
                    "{reason}: abandoned; the game is not rated.",
                    reason=t(language, ended[0].upper() + ended[1:]),
                )
            return t(language, ABANDONED)
        resigned = table.extra.get("resigned")
        if table.status == "finished" and isinstance(resigned, int):
            return self.tables.results.resign_headline(language, table, resigned)
        timed_out = table.extra.get("timed_out")
        if table.status == "finished" and isinstance(timed_out, int):
            return time_loss_headline(table, timed_out, language)
        return None

    @staticmethod
    def stuck_sentence(language: str, table: Table, failure: discord.HTTPException) -> str:
        if isinstance(failure, discord.Forbidden):
            message = N_(
                "⚠️ I could not update the board of {game} game #{number} (I lack a permission"
                " in this channel). The game is saved; `/game board` shows it again once I can."
            )
        else:
            message = N_(
                "⚠️ I could not update the board of {game} game #{number} (Discord did not"
                " accept the change). The game is saved; `/game board` shows it again once I can."
            )
        return t(language, message, game=GAMES[table.kind].title, number=table.id)


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
    return controls
