"""Proof and memory in Discord: the commitment on every board, the seed in the result,
``/game export`` (a record anyone can check with ``python -m games.verify``),
``/game replay`` (an animated picture of a finished game), the replay menu under
``/league history`` and the dice luck of ``/league profile``.

The two commands join the shared ``/game`` group when this cog loads, so the group's
own module stays as it is.
"""

from __future__ import annotations

import asyncio
import functools
import io
import logging
import re
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from cogs.host import Host, host_of
from cogs.language import channel_language, private_language
from data import Store, Table
from data.league import League, RecordedResult
from games import GAMES, IllegalAction
from games.luck import DiceLuck, dice_games, face_names, luck_in_game
from games.proof import GameFacts, short_commitment, write_record
from games.replays import replay_frames
from render.luck import render_luck
from render.replay import ReplayTooLarge, render_replay
from texts.common import decimal
from texts.i18n import ENGLISH, N_, command_name, t, tn
from texts.replays import caption

log = logging.getLogger("tablebot.archive")

ENDED = ("finished", "aborted")
# Game ids are SQLite's signed 64-bit row ids; anything else names no game.
LARGEST_ID = 2**63 - 1
LUCK_GAMES = 50
LUCK_CACHE = 20_000
NO_MENTIONS = discord.AllowedMentions.none()


T = TypeVar("T")
# Replays, exports and luck run on a worker of their own: the shared threads of
# asyncio.to_thread draw every game's board, and members asking for many replays at once
# must not take them all (they queue here instead, behind their "thinking…" message).
_ARCHIVE_WORKER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="archive")


async def replay_work(function: Callable[..., T], *arguments: Any) -> T:
    """Run the heavy part of an archive command off the event loop, one at a time."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_ARCHIVE_WORKER, functools.partial(function, *arguments))


def commitment_of(table: Table) -> str:
    """Binds the seed to the game, its options and its seats as the record lists them."""
    return facts_of(table, with_ids=True).commitment


def commitment_line(table: Table, language: str = ENGLISH) -> str:
    """The board's footer: the short commitment players can hold the bot to."""
    return t(
        language,
        "Fair dice: commitment {commitment} (SHA-256 of the secret seed; revealed at the end,"
        " /game export to check)",
        commitment=short_commitment(commitment_of(table)),
    )


def seed_reveal(table: Table, language: str = ENGLISH) -> str:
    """The result message's line that opens the seed to everyone."""
    return t(
        language,
        "🔑 Seed {seed}, commitment `{commitment}`: `/game export game:{game}` gives the record"
        " to check.",
        seed=table.seed,
        commitment=short_commitment(commitment_of(table)),
        game=table.id,
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
        final=table.state,
    )


def _seat_label(name: str, user_id: int | None) -> str:
    return f"{name} (computer)" if user_id is None else f"{name} (user {user_id})"


class Archive(commands.Cog):
    """Exports, replays and dice luck of ended games."""

    def __init__(self, bot: Host, store: Store) -> None:
        self.bot = bot
        self.store = store
        self.league = League(store)
        # The dice of an ended game never change: each (game, seat) is counted once.
        self._luck_of: OrderedDict[tuple[int, int], DiceLuck] = OrderedDict()

    async def cog_load(self) -> None:
        group = self.bot.tree.get_command("game")
        assert isinstance(group, app_commands.Group), "the Tables cog loads first"

        @app_commands.command(
            name=command_name("export"), description=N_("The record of an ended game, to check")
        )
        @app_commands.rename(game=command_name("game"))
        @app_commands.describe(game=N_("The game's number (default: this channel's last game)"))
        async def export(interaction: discord.Interaction[Any], game: int | None = None) -> None:
            await self.export(interaction, game)

        @app_commands.command(
            name=command_name("replay"), description=N_("Watch an ended game again")
        )
        @app_commands.rename(game=command_name("game"))
        @app_commands.describe(game=N_("The game's number (default: this channel's last game)"))
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
                await _tell(interaction, N_("No game has ended in this channel yet."))
            return table
        table = await self.store.load(game) if 0 < game <= LARGEST_ID else None
        if (
            table is None
            or table.guild_id != (interaction.guild_id or 0)
            or not may_read(interaction, table.channel_id)
        ):
            await _tell(interaction, N_("There is no game #{game} in this server."), game=game)
            return None
        if table.status not in ENDED or table.state is None:
            await _tell(
                interaction,
                N_("Game #{game} has not ended yet: its seed stays secret until it does."),
                game=game,
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
        language = await channel_language(interaction)
        await interaction.response.defer(thinking=True)
        actions = await self._logged(table)
        try:
            text = await replay_work(write_record, facts_of(table, with_ids=True), actions)
        except IllegalAction:
            await interaction.edit_original_response(content=_unreplayable(table, language))
            return
        await interaction.edit_original_response(
            content=t(
                language,
                "The record of {title} game #{game}: seed, commitment and every move. Check it"
                " with `python -m games.verify {file}` (see the README).",
                title=GAMES[table.kind].title,
                game=table.id,
                file=_record_name(table),
            ),
            attachments=[discord.File(io.BytesIO(text.encode()), filename=_record_name(table))],
            allowed_mentions=NO_MENTIONS,
        )

    # ---- replay -----------------------------------------------------------------------

    async def replay(self, interaction: discord.Interaction[Any], game: int | None) -> None:
        table = await self._ended_table(interaction, game)
        if table is None:
            return
        language = await channel_language(interaction)
        await interaction.response.defer(thinking=True)
        actions = await self._logged(table)
        limit = interaction.filesize_limit
        try:
            movie = await replay_work(_draw_replay, table, actions, limit, language)
        except ReplayTooLarge:
            await interaction.edit_original_response(
                content=t(
                    language,
                    "Game #{game} is too long to replay within this server's upload limit.",
                    game=table.id,
                )
            )
            return
        except IllegalAction:
            await interaction.edit_original_response(content=_unreplayable(table, language))
            return
        if movie.frames == movie.moves:
            shown = tn(language, "all {count} position", "all {count} positions", movie.moves)
        elif movie.fitted:
            shown = tn(
                language,
                "{frames} of {count} position, to fit the upload limit",
                "{frames} of {count} positions, to fit the upload limit",
                movie.moves,
                frames=movie.frames,
            )
        else:
            shown = tn(
                language,
                "{frames} of {count} position, spread over this long game",
                "{frames} of {count} positions, spread over this long game",
                movie.moves,
                frames=movie.frames,
            )

        filename = f"{table.kind}-{table.id}-replay.{movie.extension}"
        await interaction.edit_original_response(
            content=t(
                language,
                "▶️ Replay of {title} game #{game} ({shown}).",
                title=GAMES[table.kind].title,
                game=table.id,
                shown=shown,
            ),
            attachments=[discord.File(io.BytesIO(movie.data), filename=filename)],
            allowed_mentions=NO_MENTIONS,
        )

    # ---- luck -------------------------------------------------------------------------

    async def luck_section(
        self, guild_id: int, user_id: int, season_id: int, name: str, season: str, language: str
    ) -> tuple[list[tuple[str, str]], bytes | None]:
        """The profile's dice luck: embed fields (name, value) per dice game the member
        played this season, and their picture (None when he rolled no dice)."""
        lucks = []
        for kind in dice_games():
            results = await self.league.history(
                guild_id, kind=kind, user_id=user_id, season_id=season_id, limit=LUCK_GAMES
            )
            luck = await self._total_luck(results, user_id)
            if luck.rolls:
                lucks.append((kind, luck))
        if not lucks:
            return [], None
        fields = [
            (
                t(language, "🎲 {game}: luck", game=GAMES[kind].title),
                luck_text(kind, luck, language),
            )
            for kind, luck in lucks
        ]
        games = [luck_view(kind, luck, language) for kind, luck in lucks]
        view = {"name": name, "season": season, "games": games}
        return fields, await replay_work(render_luck, view, language)

    async def _total_luck(self, results: Sequence[RecordedResult], user_id: int) -> DiceLuck:
        seats = {}
        for result in results:
            seat = next((s.seat for s in result.seats if s.user_id == user_id), None)
            if seat is not None:
                seats[result.game_id] = seat
        new = []
        for game_id, seat in seats.items():
            table = None if (game_id, seat) in self._luck_of else await self.store.load(game_id)
            if table is not None:
                new.append((facts_of(table), await self._logged(table), seat))
        for (facts, _, seat), luck in zip(new, await replay_work(_game_lucks, new), strict=True):
            self._luck_of[(facts.game_id, seat)] = luck
        total = DiceLuck()
        for key in seats.items():
            if key in self._luck_of:
                self._luck_of.move_to_end(key)
                total.merge(self._luck_of[key])
        while len(self._luck_of) > LUCK_CACHE:
            self._luck_of.popitem(last=False)
        return total


def may_read(interaction: discord.Interaction[Any], channel_id: int | None) -> bool:
    """Whether the member may read the game's channel: a game in a private channel or
    thread stays as private as its moves were (a channel that is gone hides nothing)."""
    member = interaction.user
    place = _place(interaction.guild, channel_id)
    if place is None or not isinstance(member, discord.Member):
        return True
    allowed = place.permissions_for(member)
    return allowed.view_channel and allowed.read_message_history


def kept_private(guild: discord.Guild | None, channel_id: int | None) -> bool:
    """Whether some members cannot read the game's channel: a private thread, or a channel
    (a thread's parent) closed to everyone or with any role or member shut out."""
    place = _place(guild, channel_id)
    if place is None:
        return False
    if isinstance(place, discord.Thread):
        if place.is_private():
            return True
        place = place.parent
        if place is None:
            return False
    everyone = place.permissions_for(place.guild.default_role)
    if not (everyone.view_channel and everyone.read_message_history):
        return True
    return any(
        overwrite.view_channel is False or overwrite.read_message_history is False
        for overwrite in place.overwrites.values()
    )


def _place(
    guild: discord.Guild | None, channel_id: int | None
) -> discord.abc.GuildChannel | discord.Thread | None:
    """The game's channel or thread as this process knows it (None when gone or unknown)."""
    return guild.get_channel_or_thread(channel_id) if guild and channel_id else None


def _record_name(table: Table) -> str:
    return f"{table.kind}-{table.id}.txt"


def _draw_replay(
    table: Table, actions: list[tuple[int | None, str]], limit: int, language: str
) -> Any:
    facts = facts_of(table)
    frames = [(frame.view, caption(language, frame)) for frame in replay_frames(facts, actions)]
    return render_replay(table.kind, frames, facts.seats, limit, language)


def _unreplayable(table: Table, language: str) -> str:
    # Only games recorded with an older random source (before records existed) fail here.
    return t(
        language,
        "Game #{game} was played before game records existed and cannot be replayed.",
        game=table.id,
    )


def _game_lucks(
    games: Sequence[tuple[GameFacts, list[tuple[int | None, str]], int]],
) -> list[DiceLuck]:
    """Each game's throws by its seat; nothing for a game that no longer replays."""
    lucks = []
    for facts, actions, seat in games:
        try:
            lucks.append(luck_in_game(facts, actions, seat))
        except IllegalAction:
            log.info("game %d does not replay with today's random source", facts.game_id)
            lucks.append(DiceLuck())
    return lucks


def _face_names(kind: str, language: str) -> dict[int, str]:
    return {face: t(language, name) for face, name in face_names(kind).items()}


def luck_view(kind: str, luck: DiceLuck, language: str) -> dict[str, Any]:
    names = _face_names(kind, language)
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


def luck_text(kind: str, luck: DiceLuck, language: str) -> str:
    """Rolls, faces against the fair expectation, and doubles, in a few short lines."""
    names = _face_names(kind, language)
    faces = " · ".join(
        f"{names.get(face, str(face))}: {count}" for face, count in sorted(luck.faces.items())
    )
    rolls = tn(language, "{count} roll", "{count} rolls", luck.rolls)
    dice = tn(language, "{count} die", "{count} dice", luck.dice)
    games = tn(language, "{count} game", "{count} games", luck.games)
    lines = [
        t(language, "{rolls} ({dice}) in {games}", rolls=rolls, dice=dice, games=games),
        t(
            language,
            "{faces} (fair dice: {expected} each)",
            faces=faces,
            expected=decimal(language, luck.expected_per_face),
        ),
    ]
    if luck.pair_rolls:
        lines.append(
            tn(
                language,
                "Doubles: {doubles} in {count} roll (fair dice: {expected})",
                "Doubles: {doubles} in {count} rolls (fair dice: {expected})",
                luck.pair_rolls,
                doubles=luck.doubles,
                expected=decimal(language, luck.expected_doubles),
            )
        )
    return "\n".join(lines)


class ReplayPicker(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"replay:pick"):
    """The "Watch a replay" menu under `/league history`; works after a restart."""

    def __init__(self, options: list[discord.SelectOption], language: str = ENGLISH) -> None:
        super().__init__(
            discord.ui.Select(
                options=options,
                placeholder=t(language, "Watch a replay…"),
                custom_id="replay:pick",
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ReplayPicker:
        return cls(list(getattr(item, "options", [])))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        archive = host_of(interaction).archive
        picked = self.item.values[0]
        # Discord only sends offered values; anything else came from a forged client.
        if not (picked.isascii() and picked.isdigit()):
            await _tell(interaction, N_("There is no game #{game} in this server."), game=picked)
            return
        await archive.replay(interaction, int(picked))


def replay_menu(results: Sequence[RecordedResult], language: str) -> discord.ui.View | None:
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
    view.add_item(ReplayPicker(options, language))
    return view


async def _tell(interaction: discord.Interaction[Any], message: str, **params: object) -> None:
    """Tell only the member, in his language."""
    text = t(private_language(interaction), message, **params)
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)
