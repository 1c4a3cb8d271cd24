"""How a game ends with a result: resigning, the announcement, the league's record."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from cogs.archive import seed_reveal
from cogs.language import private_language
from cogs.table.components import TableButton, Target, view_of
from cogs.table.replies import NOT_RUNNING, NOT_SEATED, tell
from data import Table
from games import GAMES, GameState
from texts.i18n import N_, t

if TYPE_CHECKING:
    from cogs.table.commands import Tables


def resign_headline(language: str, table: Table, seat: int) -> str:
    others = [s.name for index, s in enumerate(table.seats) if index != seat]
    resigned = table.seats[seat].name
    if len(others) == 1:
        return t(language, "{name} resigned: {winner} wins.", name=resigned, winner=others[0])
    winners = t(language, "{names} and {last}", names=", ".join(others[:-1]), last=others[-1])
    return t(language, "{name} resigned: {winners} win.", name=resigned, winners=winners)


class Results:
    """Finished games: told to the channel once, and handed to the league."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables

    resign_headline = staticmethod(resign_headline)

    async def announce(
        self,
        table: Table,
        state: GameState,
        resigned_headline: str | None = None,
        *,
        emoji: str = "🏳️",
    ) -> None:
        """Tell the channel the result (``resigned_headline``, after ``emoji``, for a game
        that ended early) and record it in the league."""
        if table.status != "finished":
            return
        title = GAMES[table.kind].title
        language = table.language
        if resigned_headline is None:
            emoji = "🏁"
            resigned_headline = self.tables.game_cog(table.kind).result_text(table, state)
        text = t(
            language,
            "{emoji} {game} game #{number}: {headline}",
            emoji=emoji,
            game=title,
            number=table.id,
            headline=resigned_headline,
        )
        # The league records each finished game once; a repeated finish gets None back.
        ratings = await self.tables.bot.league.record_result(table)
        text = text if ratings is None else f"{text}\n{ratings}"
        channel = self.tables.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        await channel.send(f"{text}\n{seed_reveal(table, language)}")

    async def confirm_resign(self, interaction: discord.Interaction[Any], table: Table) -> None:
        if table.status != "active":
            await tell(interaction, NOT_RUNNING)
            return
        if table.seat_of(interaction.user.id) is None:
            await tell(interaction, NOT_SEATED)
            return
        language = private_language(interaction)
        confirm = TableButton(
            Target(table.id, table.version, "resign_yes"),
            label=t(language, "Yes, resign"),
            style=discord.ButtonStyle.danger,
        )
        await interaction.response.send_message(
            t(language, "Do you really want to resign? The game counts as a loss."),
            view=view_of([confirm]),
            ephemeral=True,
        )

    async def resign(self, interaction: discord.Interaction[Any], table: Table) -> None:
        seat = table.seat_of(interaction.user.id)
        if table.status != "active" or seat is None:
            await tell(interaction, N_("You are not playing a running game here."))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        store = self.tables.store
        async with self.tables.locks[table.id]:
            fresh = await store.load(table.id)
            assert fresh is not None and fresh.state is not None
            if fresh.status != "active":
                await interaction.followup.send(
                    t(private_language(interaction), "This game is already over."), ephemeral=True
                )
                return
            state = GAMES[fresh.kind].from_dict(fresh.state)
            fresh.finish(state.returns())
            fresh.extra["resigned"] = seat
            await store.save(fresh, expected_version=fresh.version, actions=[(seat, "!resign")])
        headline = resign_headline(fresh.language, fresh, seat)
        await interaction.followup.send(
            t(private_language(interaction), "You resigned."), ephemeral=True
        )
        await self.tables.board.refresh(fresh, state, headline)
        await self.announce(fresh, state, resigned_headline=headline)
        self.tables.forget(fresh.id)
