"""Proof and memory in Discord: the commitment on every board, the seed in the result,
``/game export`` (a record anyone can check with ``python -m games.verify``),
``/game replay`` (an animated picture of a finished game), the replay menu under
``/league history`` and the dice luck of ``/league profile``.

The two commands join the shared ``/game`` group when this cog loads, so the group's
own module stays as it is.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from data import Store, Table
from data.league import League, RecordedResult
from games import GAMES, IllegalAction
from games.luck import DICE_GAMES, DiceLuck, luck_in_game
from games.proof import GameFacts, commitment, short_commitment, write_record
from games.replays import replay_frames
from render.luck import render_luck
from render.replay import ReplayTooLarge, render_replay

log = logging.getLogger("tablebot.archive")

ENDED = ("finished", "aborted")
LUCK_GAMES = 50
NO_MENTIONS = discord.AllowedMentions.none()
FACE_NAMES = {"barree": {0: "bar"}}


def commitment_of(table: Table) -> str:
    return commitment(table.kind, table.id, table.guild_id, table.channel_id, table.seed)


def commitment_line(table: Table) -> str:
    """The board's footer: the short commitment players can hold the bot to."""
    return (
        f"Fair dice: commitment {short_commitment(commitment_of(table))} "
        "(SHA-256 of the secret seed; revealed at the end, /game export to check)"
    )


def seed_reveal(table: Table) -> str:
    """The result message's line that opens the seed to everyone."""
    return (
        f"🔑 Seed {table.seed}, commitment `{short_commitment(commitment_of(table))}`: "
        f"`/game export game:{table.id}` gives the record to check."
    )


def facts_of(table: Table, *, with_ids: bool = False) -> GameFacts:
    seats = [
        seat.name if not with_ids else _seat_label(seat.name, seat.user_id) for seat in table.seats
    ]
    return GameFacts(
        kind=table.kind,
        game_id=table.id,
        guild_id=table.guild_id,
        channel_id=table.channel_id,
        seed=table.seed,
        options=dict(table.options),
        seats=seats,
        status=table.status,
    )


def _seat_label(name: str, user_id: int | None) -> str:
    return f"{name} (computer)" if user_id is None else f"{name} (user {user_id})"


class Archive(commands.Cog):
    """Exports, replays and dice luck of ended games."""

    def __init__(self, bot: commands.Bot, store: Store) -> None:
        self.bot = bot
        self.store = store
        self.league = League(store)

    async def cog_load(self) -> None:
        group = self.bot.tree.get_command("game")
        assert isinstance(group, app_commands.Group), "the Tables cog loads first"

        @app_commands.command(name="export", description="The record of an ended game, to check")
        @app_commands.describe(game="The game's number (default: this channel's last game)")
        async def export(interaction: discord.Interaction[Any], game: int | None = None) -> None:
            await self.export(interaction, game)

        @app_commands.command(name="replay", description="Watch an ended game again")
        @app_commands.describe(game="The game's number (default: this channel's last game)")
        async def replay(interaction: discord.Interaction[Any], game: int | None = None) -> None:
            await self.replay(interaction, game)

        group.add_command(export)
        group.add_command(replay)

    async def cog_unload(self) -> None:
        group = self.bot.tree.get_command("game")
        if isinstance(group, app_commands.Group):
            group.remove_command("export")
            group.remove_command("replay")

    # ---- finding the game -------------------------------------------------------------

    async def _ended_table(
        self, interaction: discord.Interaction[Any], game: int | None
    ) -> Table | None:
        """The ended game asked for, or None after telling the user why not."""
        if game is None:
            table = await self.store.latest_ended_in(interaction.channel_id or 0)
            if table is None:
                await _tell(interaction, "No game has ended in this channel yet.")
            return table
        table = await self.store.load(game)
        if table is None or table.guild_id != (interaction.guild_id or 0):
            await _tell(interaction, f"There is no game #{game} in this server.")
            return None
        if table.status not in ENDED or table.state is None:
            await _tell(
                interaction,
                f"Game #{game} has not ended yet: its seed stays secret until it does.",
            )
            return None
        return table

    async def _logged(self, table: Table) -> list[tuple[int | None, str]]:
        return [(entry.seat, entry.action) for entry in await self.store.actions(table.id)]

    # ---- export -----------------------------------------------------------------------

    async def export(self, interaction: discord.Interaction[Any], game: int | None) -> None:
        table = await self._ended_table(interaction, game)
        if table is None:
            return
        await interaction.response.defer(thinking=True)
        actions = await self._logged(table)
        try:
            text = await asyncio.to_thread(write_record, facts_of(table, with_ids=True), actions)
        except IllegalAction:
            await interaction.edit_original_response(content=_unreplayable(table))
            return
        title = GAMES[table.kind].title
        await interaction.edit_original_response(
            content=(
                f"The record of {title} game #{table.id}: seed, commitment and every move. "
                "Check it with `python -m games.verify "
                f"{_record_name(table)}` (see the README)."
            ),
            attachments=[discord.File(io.BytesIO(text.encode()), filename=_record_name(table))],
            allowed_mentions=NO_MENTIONS,
        )

    # ---- replay -----------------------------------------------------------------------

    async def replay(self, interaction: discord.Interaction[Any], game: int | None) -> None:
        table = await self._ended_table(interaction, game)
        if table is None:
            return
        await interaction.response.defer(thinking=True)
        actions = await self._logged(table)
        limit = interaction.filesize_limit
        try:
            movie = await asyncio.to_thread(_draw_replay, table, actions, limit)
        except ReplayTooLarge:
            await interaction.edit_original_response(
                content=f"Game #{table.id} is too long to replay within this server's upload limit."
            )
            return
        except IllegalAction:
            await interaction.edit_original_response(content=_unreplayable(table))
            return
        title = GAMES[table.kind].title
        shown = (
            f"all {movie.moves} positions"
            if movie.frames == movie.moves
            else f"{movie.frames} of {movie.moves} positions, to fit the upload limit"
        )

        filename = f"{table.kind}-{table.id}-replay.{movie.extension}"
        await interaction.edit_original_response(
            content=f"▶️ Replay of {title} game #{table.id} ({shown}).",
            attachments=[discord.File(io.BytesIO(movie.data), filename=filename)],
            allowed_mentions=NO_MENTIONS,
        )

    # ---- luck -------------------------------------------------------------------------

    async def luck_section(
        self, guild_id: int, user_id: int, season_id: int, name: str, season: str
    ) -> tuple[list[tuple[str, str]], bytes | None]:
        """The profile's dice luck: embed fields (name, value) per dice game the member
        played this season, and their picture (None when he rolled no dice)."""
        lucks = []
        for kind in DICE_GAMES:
            results = await self.league.history(
                guild_id, kind=kind, user_id=user_id, season_id=season_id, limit=LUCK_GAMES
            )
            games = await self._games_with_seat(results, user_id)
            luck = await asyncio.to_thread(_total_luck, games)
            if luck.rolls:
                lucks.append((kind, luck))
        if not lucks:
            return [], None
        fields = [(f"🎲 {GAMES[kind].title}: luck", luck_text(kind, luck)) for kind, luck in lucks]
        view = {"name": name, "season": season, "games": [luck_view(k, luck) for k, luck in lucks]}
        return fields, await asyncio.to_thread(render_luck, view)

    async def _games_with_seat(
        self, results: Sequence[RecordedResult], user_id: int
    ) -> list[tuple[GameFacts, list[tuple[int | None, str]], int]]:
        games = []
        for result in results:
            table = await self.store.load(result.game_id)
            seat = next((s.seat for s in result.seats if s.user_id == user_id), None)
            if table is not None and seat is not None:
                games.append((facts_of(table), await self._logged(table), seat))
        return games


def _record_name(table: Table) -> str:
    return f"{table.kind}-{table.id}.txt"


def _draw_replay(table: Table, actions: list[tuple[int | None, str]], limit: int) -> Any:
    facts = facts_of(table)
    frames = replay_frames(facts, actions)
    return render_replay(
        table.kind, [(frame.view, frame.caption) for frame in frames], facts.seats, limit
    )


def _unreplayable(table: Table) -> str:
    # Only games recorded with an older random source (before records existed) fail here.
    return f"Game #{table.id} was played before game records existed and cannot be replayed."


def _total_luck(games: Sequence[tuple[GameFacts, list[tuple[int | None, str]], int]]) -> DiceLuck:
    total = DiceLuck()
    for facts, actions, seat in games:
        try:
            total.merge(luck_in_game(facts, actions, seat))
        except IllegalAction:
            log.info("game %d does not replay with today's random source", facts.game_id)
    return total


def luck_view(kind: str, luck: DiceLuck) -> dict[str, Any]:
    names = FACE_NAMES.get(kind, {})
    return {
        "title": GAMES[kind].title,
        "rolls": luck.rolls,
        "dice": luck.dice,
        "games": luck.games,
        "faces": [[face, names.get(face, ""), count] for face, count in sorted(luck.faces.items())],
        "expected": luck.expected_per_face,
        "pairs": luck.pair_rolls,
        "doubles": luck.doubles,
        "expected_doubles": luck.expected_doubles,
    }


def luck_text(kind: str, luck: DiceLuck) -> str:
    """Rolls, faces against the fair expectation, and doubles, in a few short lines."""
    names = FACE_NAMES.get(kind, {})
    faces = " · ".join(
        f"{names.get(face, str(face))}: {count}" for face, count in sorted(luck.faces.items())
    )
    lines = [
        f"{luck.rolls} rolls ({luck.dice} dice) in {luck.games} games",
        f"{faces} (fair dice: {luck.expected_per_face:.1f} each)",
    ]
    if luck.pair_rolls:
        lines.append(
            f"Doubles: {luck.doubles} in {luck.pair_rolls} rolls "
            f"(fair dice: {luck.expected_doubles:.1f})"
        )
    return "\n".join(lines)


class ReplayPicker(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"replay:pick"):
    """The "Watch a replay" menu under `/league history`; works after a restart."""

    def __init__(self, options: list[discord.SelectOption]) -> None:
        super().__init__(
            discord.ui.Select(
                options=options, placeholder="Watch a replay…", custom_id="replay:pick"
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Select[Any],
        match: re.Match[str],
        /,
    ) -> ReplayPicker:
        return cls(list(item.options))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        archive = interaction.client.get_cog("Archive")  # type: ignore[attr-defined]
        assert isinstance(archive, Archive)
        await archive.replay(interaction, int(self.item.values[0]))


def replay_menu(results: Sequence[RecordedResult]) -> discord.ui.View | None:
    """A menu offering the replay of each listed game (None when the list is empty)."""
    if not results:
        return None
    options = [
        discord.SelectOption(
            label=f"#{result.game_id} {GAMES[result.kind].title}"[:100],
            value=str(result.game_id),
            description=" · ".join(seat.name for seat in result.seats)[:100] or None,
        )
        for result in results[:25]
        if result.kind in GAMES
    ]
    view = discord.ui.View(timeout=None)
    view.add_item(ReplayPicker(options))
    return view


async def _tell(interaction: discord.Interaction[Any], text: str) -> None:
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)
