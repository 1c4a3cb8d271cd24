"""Memory in Discord: ``/game export`` (a record anyone can check with
``python -m games.verify``), ``/game replay`` (an animated picture of an ended game, its
captions marked ?!, ? and ?? once ``/game review`` has judged it) and the replay menu
under ``/league history``.

The two commands join the shared ``/game`` group (given to this cog) when it loads, so
the group's own module knows nothing of them.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Mapping, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.host import Host, Interaction, route_click
from cogs.language import channel_language
from cogs.privacy import may_read
from cogs.replies import NO_MENTIONS, tell
from cogs.review_pool import engine_version
from cogs.table.components import UNRECOGNISED, answering_database_failures
from cogs.table.records import facts_of, logged_actions
from cogs.worker import replay_work
from data import Store, Table
from data.league import RecordedResult
from data.reviews import ReviewBook
from games import GAMES, IllegalAction
from games.proof import write_record
from games.replays import Frame, replay_frames
from games.review import has_review
from games.review.model import Review
from render.replay import Replay, ReplayTooLarge, render_replay
from texts.i18n import ENGLISH, N_, command_name, t, tn
from texts.replays import caption
from texts.reviews import symbol

log = logging.getLogger("tablebot.archive")

ENDED = ("finished", "aborted")
# Game ids are SQLite's signed 64-bit row ids; anything else names no game.
LARGEST_ID = 2**63 - 1


class Archive(commands.Cog):
    """Exports, replays and dice luck of ended games."""

    def __init__(self, bot: Host, store: Store, game_group: app_commands.Group) -> None:
        self.bot = bot
        self.store = store
        self.reviews = ReviewBook(store)
        self.game_group = game_group
        bot.answer_clicks(ReplayPicker, self.on_pick)

    async def cog_load(self) -> None:
        group = self.game_group

        @app_commands.command(
            name=command_name("export"), description=N_("The record of an ended game, to check")
        )
        @app_commands.rename(game=command_name("game"))
        @app_commands.describe(game=N_("The game's number (default: this channel's last game)"))
        async def export(interaction: Interaction, game: int | None = None) -> None:
            await self.export(interaction, game)

        @app_commands.command(
            name=command_name("replay"), description=N_("Watch an ended game again")
        )
        @app_commands.rename(game=command_name("game"))
        @app_commands.describe(game=N_("The game's number (default: this channel's last game)"))
        async def replay(interaction: Interaction, game: int | None = None) -> None:
            await self.replay(interaction, game)

        group.add_command(export)
        group.add_command(replay)

    async def cog_unload(self) -> None:
        self.game_group.remove_command("export")
        self.game_group.remove_command("replay")

    # ---- export -----------------------------------------------------------------------

    async def export(self, interaction: Interaction, game: int | None) -> None:
        table = await ended_table(self.store, interaction, game)
        if table is None:
            return
        language = await channel_language(interaction)
        await interaction.response.defer(thinking=True)
        actions = await logged_actions(self.store, table.id)
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

    async def _marks(self, table: Table) -> dict[int, str]:
        """The marks of the game's stored review by the move that began each marked
        decision (none without a review by today's engine)."""
        if not has_review(table.kind):
            return {}
        stored = await self.reviews.get(table.id, engine_version(table.kind))
        if stored is None:
            return {}
        review = Review.from_json(stored.review)
        return {j.index: symbol(j.mark) for j in review.judgements if j.mark is not None}

    async def on_pick(self, interaction: Interaction, picker: ReplayPicker) -> None:
        """A game picked in the replay menu under `/league history`."""
        await answering_database_failures(interaction, lambda: self._pick(interaction, picker))

    async def _pick(self, interaction: Interaction, picker: ReplayPicker) -> None:
        # Discord only sends one offered value; anything else came from a forged client
        # (no value at all, as a button click carries, or several).
        if len(picker.item.values) != 1:
            await tell(interaction, UNRECOGNISED)
            return
        picked = picker.item.values[0]
        if not (picked.isascii() and picked.isdigit()):
            await tell(interaction, N_("There is no game #{game} in this server."), game=picked)
            return
        await self.replay(interaction, int(picked))

    async def replay(self, interaction: Interaction, game: int | None) -> None:
        table = await ended_table(self.store, interaction, game)
        if table is None:
            return
        language = await channel_language(interaction)
        await interaction.response.defer(thinking=True)
        actions = await logged_actions(self.store, table.id)
        limit = interaction.filesize_limit
        marks = await self._marks(table)
        try:
            movie = await replay_work(_draw_replay, table, actions, limit, language, marks)
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


SEED_STILL_SECRET = N_("Game #{game} has not ended yet: its seed stays secret until it does.")


async def ended_table(
    store: Store,
    interaction: Interaction,
    game: int | None,
    still_running: str = SEED_STILL_SECRET,
) -> Table | None:
    """The ended game asked for (the channel's last by default), or None after telling
    the member why not: no such game in this server, one in a channel he cannot read, or
    one still running (``still_running``, a sentence with ``{game}``)."""
    if game is None:
        table = await store.latest_ended_in(interaction.channel_id or 0)
        if table is None:
            await tell(interaction, N_("No game has ended in this channel yet."))
        return table
    table = await store.load(game) if 0 < game <= LARGEST_ID else None
    if (
        table is None
        or table.guild_id != (interaction.guild_id or 0)
        or not await may_read(interaction, table.channel_id)
    ):
        await tell(interaction, N_("There is no game #{game} in this server."), game=game)
        return None
    if table.status not in ENDED or table.state is None:
        await tell(interaction, still_running, game=game)
        return None
    return table


def _record_name(table: Table) -> str:
    return f"{table.kind}-{table.id}.txt"


def _draw_replay(
    table: Table,
    actions: list[tuple[int | None, str]],
    limit: int,
    language: str,
    marks: Mapping[int, str],
) -> Replay:
    facts = facts_of(table)
    frames = [
        (frame.view, _marked(caption(language, frame), frame, marks))
        for frame in replay_frames(facts, actions)
    ]
    return render_replay(table.kind, frames, facts.seats, limit, language)


def _marked(text: str, frame: Frame, marks: Mapping[int, str]) -> str:
    """A frame's caption with the review's mark of the decision its move began (?!, ?, ??)."""
    number = frame.params.get("number")
    mark = marks.get(number) if isinstance(number, int) else None
    return f"{text} {mark}" if mark else text


def _unreplayable(table: Table, language: str) -> str:
    # Only games recorded with an older random source (before records existed) fail here.
    return t(
        language,
        "Game #{game} was played before game records existed and cannot be replayed.",
        game=table.id,
    )


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
        await route_click(interaction, self)


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
