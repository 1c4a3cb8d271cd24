"""`/privacy show` and `/privacy forget`: a member sees, as a file, everything the bot
stores about him, and has his name and id removed from it.

Both work on the server they are used in; in a DM with the bot, on every server (so a
member who has left a server still reaches his data there). His progress in the lessons
belongs to no server: it is shown wherever he asks, and forgetting him anywhere deletes
it. Forgetting asks first, with
two buttons whose custom_id ``md:<forget|keep>:<member id>:<server id or 0>`` names whom
and where they are for: anyone else's click, or one from another place, is refused.
"""

from __future__ import annotations

import io
import json
import re
from datetime import UTC, datetime
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.host import Host, Interaction, route_click
from cogs.language import private_language
from cogs.luck import DiceLuckReport
from cogs.replies import tell
from cogs.table.components import UNRECOGNISED, answering_database_failures, view_of
from data.league import display_rating
from data.lessons import LessonBook, LessonProgress
from data.members import MemberData, ServerRecords, StillPlaying, TableEntry
from games import GAMES
from games.base import Nn_
from texts.i18n import ENGLISH, N_, command_name, t, tn

EVERY_SERVER = 0
"""The scope in a button's custom_id for a DM: every server."""
FILE_NAME = "tablebot-data-{member}.json"


class ForgetButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"md:(?P<verb>forget|keep):(?P<member>[0-9]{1,20}):(?P<scope>[0-9]{1,20})",
):
    """Confirms (``forget``) or cancels (``keep``) one member's forgetting in one scope."""

    def __init__(self, verb: str, member: int, scope: int, *, language: str = ENGLISH) -> None:
        forget = verb == "forget"
        super().__init__(
            discord.ui.Button(
                label=t(language, "Yes, forget me") if forget else t(language, "Cancel"),
                style=discord.ButtonStyle.danger if forget else discord.ButtonStyle.secondary,
                custom_id=f"md:{verb}:{member}:{scope}",
            )
        )
        self.verb = verb
        self.member = member
        self.scope = scope

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ForgetButton:
        return cls(match["verb"], int(match["member"]), int(match["scope"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await route_click(interaction, self)


class MemberDataCog(commands.Cog, name="MemberData"):
    """A member's own data: shown as a file, or forgotten."""

    privacy_group = app_commands.Group(
        name=command_name("privacy"),
        description=N_("See or delete what the bot stores about you"),
    )

    def __init__(
        self, bot: Host, members: MemberData, luck: DiceLuckReport, lessons: LessonBook
    ) -> None:
        self.bot = bot
        self.members = members
        self.luck = luck
        self.lessons = lessons
        bot.answer_clicks(ForgetButton, self.on_button)

    # ---- show ---------------------------------------------------------------------------

    @privacy_group.command(
        name=command_name("show"),
        description=N_("Everything the bot stores about you, as a file only you see"),
    )
    async def show(self, interaction: Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        language = private_language(interaction)
        scope = interaction.guild_id
        servers = await self.members.records(interaction.user.id, scope)
        lessons = await self.lessons.of_member(interaction.user.id)
        if not servers and not lessons:
            await interaction.followup.send(_nothing_stored(language, scope), ephemeral=True)
            return
        document = await self._document(interaction, servers, lessons)
        name = FILE_NAME.format(member=interaction.user.id)
        summary = [_summary(language, scope, servers)] if servers else []
        if follows := _follows(servers):
            summary.append(tn(language, FOLLOWS_IN_FILE.singular, FOLLOWS_IN_FILE.plural, follows))
        if lessons:
            summary.append(t(language, LESSONS_IN_FILE, games=_lesson_games(lessons)))
        await interaction.followup.send(
            "\n".join(summary),
            file=discord.File(io.BytesIO(file_contents(document)), filename=name),
            ephemeral=True,
        )

    async def _document(
        self,
        interaction: Interaction,
        servers: list[ServerRecords],
        lessons: list[LessonProgress],
    ) -> dict[str, Any]:
        return {
            "member": {"id": interaction.user.id, "name": interaction.user.display_name},
            "made_at": _when(datetime.now(UTC).timestamp()),
            "scope": "this server" if interaction.guild_id else "every server",
            "servers": [
                await self._server_document(interaction.user.id, records) for records in servers
            ],
            "lessons": [_lesson_document(progress) for progress in lessons],
        }

    async def _server_document(self, user_id: int, records: ServerRecords) -> dict[str, Any]:
        guild = self.bot.get_guild(records.guild_id)
        return {
            "server": {"id": records.guild_id, "name": guild.name if guild else None},
            "tables": [_table_document(table) for table in records.tables],
            "league_results": [_dated(row) for row in records.results],
            "league_ratings": [
                {**_dated(row), "rating": display_rating(row["mu"], row["sigma"])}
                for row in records.ratings
            ],
            "dice_luck": await self._luck_document(user_id, records),
            "seasons_started": [_dated(row) for row in records.seasons_started],
            "private_messages": records.private_messages,
            "notes_sent_once": [_dated(row) for row in records.claims],
            "follows": [_dated(row) for row in records.follows],
            "members_following_you": records.followers,
            "puzzle_answers": [_dated(row) for row in records.puzzles],
            "tournaments": [_dated(row) for row in records.tournaments],
        }

    async def _luck_document(self, user_id: int, records: ServerRecords) -> list[dict[str, Any]]:
        """Dice luck is not stored: it is counted from his games' dice, as /league profile
        counts it, per season he played in."""
        seasons = {row["season_id"]: row["season"] for row in records.results}
        lucks = []
        for season_id, season in seasons.items():
            for kind, luck in await self.luck.season_luck(records.guild_id, user_id, season_id):
                lucks.append(
                    {
                        "game": kind,
                        "season": season,
                        "games": luck.games,
                        "rolls": luck.rolls,
                        "dice": luck.dice,
                        "faces": {str(face): count for face, count in sorted(luck.faces.items())},
                        "rolls_of_two_dice": luck.pair_rolls,
                        "doubles": luck.doubles,
                    }
                )
        return lucks

    # ---- forget -------------------------------------------------------------------------

    @privacy_group.command(
        name=command_name("forget"),
        description=N_("Remove your name and id from the games, records and league"),
    )
    async def forget(self, interaction: Interaction) -> None:
        language = private_language(interaction)
        scope = interaction.guild_id
        member = interaction.user.id
        unfinished = await self.members.unfinished_tables(member, scope)
        if unfinished:
            await tell(interaction, _still_playing(language, unfinished))
            return
        servers = await self.members.records(member, scope)
        lessons = await self.lessons.of_member(member)
        if not servers and not lessons:
            await tell(interaction, _nothing_to_forget(language, scope))
            return
        buttons = [
            ForgetButton(verb, member, scope or EVERY_SERVER, language=language)
            for verb in ("forget", "keep")
        ]
        question = [_question(language, scope, servers)] if servers else []
        if follows := _follows(servers):
            question.append(
                tn(language, FOLLOWS_ENDED_TOO.singular, FOLLOWS_ENDED_TOO.plural, follows)
            )
        if lessons:
            games = _lesson_games(lessons)
            question.append(
                t(language, LESSONS_DELETED_TOO if servers else DELETE_LESSONS, games=games)
            )
        await interaction.response.send_message(
            "\n".join(question), view=view_of(list(buttons)), ephemeral=True
        )

    async def on_button(self, interaction: Interaction, button: ForgetButton) -> None:
        if button.scope != (interaction.guild_id or EVERY_SERVER):
            await tell(interaction, UNRECOGNISED)
            return
        if button.member != interaction.user.id:
            await tell(interaction, N_("These buttons are for the member who asked."))
            return
        language = private_language(interaction)
        if button.verb == "keep":
            await interaction.response.edit_message(
                content=t(language, "Nothing was forgotten."), view=None
            )
            return
        await interaction.response.defer()
        await answering_database_failures(interaction, lambda: self._forget(interaction, language))

    async def _forget(self, interaction: Interaction, language: str) -> None:
        scope = interaction.guild_id
        try:
            servers = await self.members.forget(interaction.user.id, scope)
        except StillPlaying as playing:
            content = _still_playing(language, playing.tables)
        else:
            done = [_forgotten(language, scope, servers)] if servers else []
            if _follows(servers):
                done.append(t(language, FOLLOWS_GONE))
            if await self.lessons.forget(interaction.user.id):
                done.append(t(language, LESSONS_GONE))
            content = "\n".join(done) or _nothing_to_forget(language, scope)
        await interaction.edit_original_response(content=content, view=None)


# ---- the file ---------------------------------------------------------------------------


def file_contents(document: dict[str, Any]) -> bytes:
    """The file as UTF-8 JSON. A stored name with a lone surrogate (not UTF-8: an old
    client's, say) goes as JSON's escapes, which carry it exactly."""
    try:
        return json.dumps(document, ensure_ascii=False, indent=2).encode()
    except UnicodeEncodeError:
        return json.dumps(document, indent=2).encode()


def _seat_document(seat: int, name: str, language: str | None) -> dict[str, Any]:
    document: dict[str, Any] = {"seat": seat, "name": name}
    if language is not None:
        document["client_language"] = language
    return document


def _table_document(table: TableEntry) -> dict[str, Any]:
    spec = GAMES.get(table.kind)
    document: dict[str, Any] = {
        "game_id": table.game_id,
        "game": spec.title if spec else table.kind,
        "channel_id": table.channel_id,
        "status": table.status,
        "created_at": _when(table.created_at),
        "updated_at": _when(table.updated_at),
        "board_message_id": table.board_message_id,
        "your_seats": [_seat_document(*seat) for seat in table.seats],
        "you_opened_it": table.created,
        "you_were_invited": table.invited,
        "a_computer_played_for_you": table.substituted,
        "actions_at_your_seats": table.actions,
    }
    if not table.is_open:
        document["record"] = f"/game export game:{table.game_id}"
    return document


def _lesson_document(progress: LessonProgress) -> dict[str, Any]:
    spec = GAMES.get(progress.kind)
    return {
        "game": spec.title if spec else progress.kind,
        "step": progress.step + 1,
        "step_solved": progress.solved,
        "moves_in_the_step": list(progress.moves),
    }


def _dated(row: dict[str, Any]) -> dict[str, Any]:
    """The row with its moments (columns ending in ``_at``) as UTC dates."""
    return {
        key: _when(value) if key.endswith("_at") and value is not None else value
        for key, value in row.items()
    }


def _when(moment: float) -> str:
    return datetime.fromtimestamp(moment, UTC).isoformat(timespec="seconds")


# ---- sentences --------------------------------------------------------------------------

LESSONS_IN_FILE = N_("Your progress in the lessons of {games} is in it too.")
DELETE_LESSONS = N_("Delete your progress in the lessons of {games}? This cannot be undone.")
LESSONS_DELETED_TOO = N_("Your progress in the lessons of {games} is deleted too.")
LESSONS_GONE = N_("Your progress in the lessons is deleted.")
FOLLOWS_IN_FILE = Nn_(
    "It lists the {count} table or member you follow, too.",
    "It lists the {count} tables and members you follow, too.",
)
FOLLOWS_ENDED_TOO = Nn_(
    "You stop following the {count} table or member you follow.",
    "You stop following the {count} tables and members you follow.",
)
FOLLOWS_GONE = N_("You no longer follow any table or member.")


def _follows(servers: list[ServerRecords]) -> int:
    """How many tables and members he follows."""
    return sum(len(records.follows) for records in servers)


def _lesson_games(lessons: list[LessonProgress]) -> str:
    return ", ".join(GAMES[lesson.kind].title for lesson in lessons if lesson.kind in GAMES)


def _counts(language: str, servers: list[ServerRecords]) -> dict[str, str]:
    tables = sum(len(records.tables) for records in servers)
    results = sum(len(records.results) for records in servers)
    ratings = sum(len(records.ratings) for records in servers)
    return {
        "tables": tn(language, "{count} table", "{count} tables", tables),
        "results": tn(language, "{count} league result", "{count} league results", results),
        "ratings": tn(language, "{count} rating", "{count} ratings", ratings),
    }


def _summary(language: str, scope: int | None, servers: list[ServerRecords]) -> str:
    counts = _counts(language, servers)
    if scope is not None:
        return t(
            language,
            "Everything I store about you on this server is in this file: {tables},"
            " {results} and {ratings}, with your dice luck, private messages and notes.",
            **counts,
        )
    return tn(
        language,
        "Everything I store about you on {count} server is in this file: {tables},"
        " {results} and {ratings}, with your dice luck, private messages and notes.",
        "Everything I store about you on {count} servers is in this file: {tables},"
        " {results} and {ratings}, with your dice luck, private messages and notes.",
        len(servers),
        **counts,
    )


def _nothing_stored(language: str, scope: int | None) -> str:
    if scope is not None:
        return t(language, "I store nothing about you on this server.")
    return t(language, "I store nothing about you on any server.")


def _nothing_to_forget(language: str, scope: int | None) -> str:
    if scope is not None:
        return t(language, "I store nothing about you on this server: there is nothing to forget.")
    return t(language, "I store nothing about you on any server: there is nothing to forget.")


def _still_playing(language: str, tables: list[TableEntry]) -> str:
    listed = ", ".join(
        t(language, "game #{game} in <#{channel}>", game=table.game_id, channel=table.channel_id)
        for table in tables
    )
    return tn(
        language,
        "You are still part of {count} unfinished table ({tables}). Finish or resign the"
        " game, or leave or cancel the lobby, then ask again.",
        "You are still part of {count} unfinished tables ({tables}). Finish or resign the"
        " games, or leave or cancel the lobbies, then ask again.",
        len(tables),
        tables=listed,
    )


def _question(language: str, scope: int | None, servers: list[ServerRecords]) -> str:
    counts = _counts(language, servers)
    if scope is not None:
        return t(
            language,
            "Forget you on this server? Your name and Discord id go from {tables}, {results}"
            " and {ratings}: they stay under an anonymous label such as “Player 3fa2c1”, so"
            " the standings and your opponents' records stay true. This cannot be undone.",
            **counts,
        )
    return tn(
        language,
        "Forget you on the {count} server where I store something about you? Your name and"
        " Discord id go from {tables}, {results} and {ratings}: they stay under an"
        " anonymous label such as “Player 3fa2c1”, so the standings and your opponents'"
        " records stay true. This cannot be undone.",
        "Forget you on the {count} servers where I store something about you? Your name"
        " and Discord id go from {tables}, {results} and {ratings}: they stay under an"
        " anonymous label such as “Player 3fa2c1”, one per server, so the standings and"
        " your opponents' records stay true. This cannot be undone.",
        len(servers),
        **counts,
    )


def _forgotten(language: str, scope: int | None, servers: list[ServerRecords]) -> str:
    counts = _counts(language, servers)
    if scope is not None:
        return t(
            language,
            "Done: {tables}, {results} and {ratings} on this server no longer name you.",
            **counts,
        )
    return t(
        language,
        "Done: {tables}, {results} and {ratings} on every server no longer name you.",
        **counts,
    )
