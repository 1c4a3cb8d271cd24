"""League scoreboards in Discord: `/league …` commands, page buttons and result lines.

Every finished game is recorded through ``LeagueCog.record_result`` (called by the table
machinery right after a game ends) and, on start-up, any finished game the bot missed is
recorded before the bot takes clicks. Page buttons are DynamicItems whose custom_id
``lg:<prev|next>:<game>:<season id>:<page>`` carries everything a click needs, so they
keep working after a restart.

A profile draws each game's rating history over the season; a part of the bot with
moments worth marking on it (a tournament's start) hands the league a ``MomentSource``
with ``mark_moments``. The standings name who rose and who fell most over the last
``MOVERS_DAYS`` days (``data.league`` says why a week).
"""

from __future__ import annotations

import asyncio
import io
import logging
import math
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import discord
from discord import app_commands
from discord.ext import commands

from cogs.archive import replay_menu
from cogs.host import Host, Interaction, route_click
from cogs.language import channel_language, private_language, public_command, public_language
from cogs.luck import DiceLuckReport
from cogs.privacy import first_readable, kept_private
from cogs.replies import NO_MENTIONS, tell
from cogs.reviews import ReviewFigures
from cogs.table.components import UNRECOGNISED, answering_database_failures
from cogs.table.payload import MessagePayload
from data import Table
from data.league import (
    FIRST_SEASON_NAME,
    MAX_SEASON_NAME,
    MOVERS_DAYS,
    League,
    Mover,
    Movers,
    RatedGame,
    RecordedResult,
    Season,
    SeasonNameTaken,
    SeatResult,
    Standing,
)
from games import GAMES, GameState
from games.base import Counted, Nn_
from games.turn_clock import DAY
from render.league import render_profile, render_standings
from texts.common import signed
from texts.i18n import ENGLISH, N_, command_name, languages, t, tn

log = logging.getLogger("tablebot.league")

PAGE_SIZE = 10
HISTORY_LIMIT = 10
HISTORY_SEARCH = 5
"""Recorded games read per listed one, so games the member may not see leave room."""
RECENT_RESULTS = 5
LEAGUE_COLOUR = discord.Colour.gold()
GUILD_ONLY = N_("League tables belong to a server: use this command in a server channel.")
FIRST_SEASON = N_("Season {number}")
"""The title of the season the bot opened by itself; a season a moderator starts has
the name he gives it."""
GAME_CHOICES = [app_commands.Choice(name=spec.title, value=key) for key, spec in GAMES.items()]
UNRATED_REASONS = (
    N_("a computer played"),
    N_("hints were on"),
    N_("a practice game after a lesson"),
    N_("an unrated tournament"),
)
"""Why the league leaves a game unrated, as ``data.league`` stores it (in English)."""
ROSE_MOST = Nn_(
    "📈 Rose most: **{name}**, {change} in {count} game",
    "📈 Rose most: **{name}**, {change} in {count} games",
)
FELL_MOST = Nn_(
    "📉 Fell most: **{name}**, {change} in {count} game",
    "📉 Fell most: **{name}**, {change} in {count} games",
)


@dataclass(frozen=True)
class Moment:
    """A moment marked on a member's rating history (a tournament's start): when it was,
    and its label (the tournament's name)."""

    at: float
    label: str


class MomentSource(Protocol):
    """A part of the bot with moments worth marking on a member's rating history."""

    async def moments(self, guild_id: int, user_id: int, kind: str, season: Season) -> list[Moment]:
        """The moments of ``season`` in game ``kind`` that concern the member."""


def final_scores(table: Table) -> list[float]:
    """The scores of a game saved before games stored them, from its last state."""
    assert table.state is not None
    state: GameState = GAMES[table.kind].from_dict(table.state)
    return state.returns()


def _title(kind: str) -> str:
    spec = GAMES.get(kind)
    return spec.title if spec else kind


def ordinal(language: str, place: int) -> str:
    """1st, 2nd, 3rd, 4th (German: 1., 2., …)."""
    words = {1: N_("1st"), 2: N_("2nd"), 3: N_("3rd")}
    if place in words:
        return t(language, words[place])
    return t(language, "{place}th", place=place)


def rating_summary(result: RecordedResult, language: str) -> str:
    """The announcement line: each player's new rating and change, or why it is unrated."""
    if not result.rated:
        reason = result.unrated_reason or ""
        if reason in UNRATED_REASONS:
            reason = t(language, reason)
        return t(language, "Not rated: {reason}.", reason=reason)
    changes = [
        f"{seat.name} {seat.rating_after} ({signed(seat.rating_change or 0)})"
        for seat in result.seats
    ]
    return t(language, "Ratings: {changes}", changes=" · ".join(changes))


def standing_line(row: Standing, language: str) -> str:
    name = discord.utils.escape_markdown(row.name)
    games = tn(language, "{count} game", "{count} games", row.games)
    line = t(
        language,
        "`#{rank}` **{name}** {rating} · {games} · {percent}% wins",
        rank=str(row.rank).rjust(2),
        name=name,
        rating=row.rating,
        games=games,
        percent=round(100 * row.win_rate),
    )
    if row.trend:
        line += " · " + t(language, "trend {change}", change=signed(row.trend))
    return line


def board_link(result: RecordedResult) -> str | None:
    """The Discord link to the message that showed the recorded game's board, if any."""
    if result.board_message_id is None:
        return None
    channel = f"{result.guild_id}/{result.channel_id}"
    return f"https://discord.com/channels/{channel}/{result.board_message_id}"


def history_line(result: RecordedResult, language: str) -> str:
    players = ", ".join(_seat_text(seat, language) for seat in result.seats)
    when = f"<t:{int(result.finished_at)}:d>"
    parts = [f"#{result.game_id} {_title(result.kind)}", when]
    if not result.rated:
        parts[-1] += " " + t(language, "(unrated)")
    parts.append(players)
    if link := board_link(result):
        parts.append(t(language, "[board]({link})", link=link))
    return " · ".join(parts)


def _seat_text(seat: SeatResult, language: str) -> str:
    text = f"{discord.utils.escape_markdown(seat.name)} {ordinal(language, seat.placement)}"
    if seat.forfeit:
        text += " " + (t(language, "(lost on time)") if seat.on_time else t(language, "(resigned)"))
    if seat.rating_change is not None:
        text += f" {signed(seat.rating_change)}"
    return text


class LeaguePageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"lg:(?P<verb>prev|next):(?P<kind>[a-z0-9_]{1,20}):(?P<season>[0-9]{1,9}):(?P<page>[0-9]{1,6})",
):
    """Turns a standings message to another page (``page``: the 0-based page a click shows)."""

    def __init__(
        self,
        verb: str,
        kind: str,
        season_id: int,
        page: int,
        *,
        disabled: bool,
        language: str = ENGLISH,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=t(language, "◀ Previous") if verb == "prev" else t(language, "Next ▶"),
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"lg:{verb}:{kind}:{season_id}:{page}",
            )
        )
        self.kind = kind
        self.season_id = season_id
        self.page = page

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> LeaguePageButton:
        return cls(
            match["verb"], match["kind"], int(match["season"]), int(match["page"]), disabled=False
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await route_click(interaction, self)


def on_its_standings(interaction: Interaction, button: LeaguePageButton) -> bool:
    """Whether the clicked message is this leaderboard's: every control on it turns its
    pages. A page button forged onto a board (or any other message) would otherwise turn
    that message into standings."""
    prefix = f"{button.kind}:{button.season_id}:"
    controls = [
        getattr(child, "custom_id", None)
        for row in (interaction.message.components if interaction.message else [])
        for child in getattr(row, "children", [row])
    ]
    return bool(controls) and all(
        isinstance(custom_id, str)
        and custom_id.removeprefix("lg:prev:").removeprefix("lg:next:").startswith(prefix)
        for custom_id in controls
    )


class LeagueCog(commands.Cog, name="League"):
    """Standings, profiles, history, seasons, export and settings of a server's league."""

    league_group = app_commands.Group(
        name=command_name("league"),
        description=N_("Ratings, standings and seasons of this server"),
        guild_only=True,
    )
    season_group = app_commands.Group(
        name=command_name("season"),
        description=N_("League seasons of this server"),
        parent=league_group,
    )

    def __init__(
        self, bot: Host, league: League, luck: DiceLuckReport, reviews: ReviewFigures
    ) -> None:
        self.bot = bot
        self.league = league
        self.luck = luck
        self.reviews = reviews
        self._moment_sources: list[MomentSource] = []
        bot.answer_clicks(LeaguePageButton, self.on_page_button)

    def mark_moments(self, source: MomentSource) -> None:
        """Mark ``source``'s moments on every profile's rating history from now on."""
        self._moment_sources.append(source)

    async def _moments(
        self, guild_id: int, user_id: int, kind: str, season: Season
    ) -> list[Moment]:
        found = [
            moment
            for source in self._moment_sources
            for moment in await source.moments(guild_id, user_id, kind, season)
        ]
        return sorted(found, key=lambda moment: moment.at)

    async def season_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        if interaction.guild_id is None:
            return []
        seasons = await self.league.seasons(interaction.guild_id)
        reader = private_language(interaction)
        typed = current.casefold()
        return [
            app_commands.Choice(name=season_title(reader, season), value=season.name)
            for season in seasons
            if typed in season_title(reader, season).casefold()
        ][:25]

    async def on_page_button(self, interaction: Interaction, button: LeaguePageButton) -> None:
        if not on_its_standings(interaction, button):
            await tell(interaction, UNRECOGNISED)
            return
        await answering_database_failures(
            interaction,
            lambda: self.turn_page(interaction, button.kind, button.season_id, button.page),
        )

    async def cog_load(self) -> None:
        caught_up = await self.league.record_missing(list(GAMES), final_scores)
        if caught_up:
            log.info("finished games recorded that had no league result: %d", len(caught_up))

    async def rates_computer_games(self, guild_id: int) -> bool:
        """Whether this server's league rates games with computer players (the hints of
        a game against computers depend on it)."""
        return (await self.league.settings(guild_id)).rate_computer_games

    async def record_result(self, table: Table) -> str | None:
        """Record a game that just finished; the announcement line, or None when the
        game was recorded before (a duplicate finish) or is not finished."""
        result = await self.league.record_finished(table)
        if result is None:
            return None
        return rating_summary(result, await public_language(self.bot, table.guild_id))

    # ---- standings --------------------------------------------------------------------

    @league_group.command(
        name=command_name("standings"), description=N_("The leaderboard of one game")
    )
    @app_commands.rename(game=command_name("game"), season=command_name("season"))
    @app_commands.describe(
        game=N_("Which game"), season=N_("A season's name (default: the current one)")
    )
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.autocomplete(season=season_autocomplete)
    async def standings(
        self, interaction: Interaction, game: str, season: str | None = None
    ) -> None:
        found = await self._season_or_refuse(interaction, season)
        if found is None:
            return
        language = await channel_language(interaction)
        await interaction.response.defer(thinking=True)
        payload = await self._standings_payload(found, game, page=0, language=language)
        await interaction.edit_original_response(**payload.edit())

    async def turn_page(
        self, interaction: Interaction, kind: str, season_id: int, page: int
    ) -> None:
        season = await self.league.season(interaction.guild_id or 0, season_id)
        if season is None or kind not in GAMES:
            gone = t(private_language(interaction), "This leaderboard is gone.")
            await interaction.response.send_message(gone, ephemeral=True)
            return
        language = await channel_language(interaction)
        await interaction.response.defer()
        payload = await self._standings_payload(season, kind, page=page, language=language)
        await interaction.edit_original_response(**payload.edit())

    async def _standings_payload(
        self, season: Season, kind: str, *, page: int, language: str
    ) -> MessagePayload:
        players = await self.league.count_players(season.guild_id, kind, season.id)
        pages = max(1, math.ceil(players / PAGE_SIZE))
        page = min(max(page, 0), pages - 1)
        rows = await self.league.standings(
            season.guild_id, kind, season.id, offset=page * PAGE_SIZE, limit=PAGE_SIZE
        )
        since = time.time() - MOVERS_DAYS * DAY
        movers = await self.league.movers(season.guild_id, kind, season.id, since)
        view = {
            "title": _title(kind),
            "season": season_title(language, season),
            "page": page + 1,
            "pages": pages,
            "rows": [
                {
                    "rank": row.rank,
                    "name": row.name,
                    "rating": row.rating,
                    "games": row.games,
                    "win_rate": row.win_rate,
                    "trend": row.trend,
                }
                for row in rows
            ],
            "movers": {
                "days": MOVERS_DAYS,
                "rose": _mover_view(movers.rose),
                "fell": _mover_view(movers.fell),
            },
        }
        png = await asyncio.to_thread(render_standings, view, language)
        filename = f"standings-{kind}-{season.number}-{page + 1}.png"
        embed = discord.Embed(
            title=t(
                language,
                "{game} standings · {season}",
                game=_title(kind),
                season=season_title(language, season),
            ),
            description="\n".join(standing_line(row, language) for row in rows)
            or t(language, "No rated games yet in this season."),
            colour=LEAGUE_COLOUR,
        )
        embed.set_image(url=f"attachment://{filename}")
        if movers.rose or movers.fell:
            embed.add_field(
                name=tn(language, "Last {count} day", "Last {count} days", MOVERS_DAYS),
                value=movers_text(movers, language),
                inline=False,
            )
        footer = tn(
            language,
            "Page {page} of {pages} · {count} player",
            "Page {page} of {pages} · {count} players",
            players,
            page=page + 1,
            pages=pages,
        )
        embed.set_footer(text=footer)
        return MessagePayload(
            content=None,
            embed=embed,
            view=self._page_buttons(kind, season.id, page, pages, language),
            allowed_mentions=NO_MENTIONS,
            files=[discord.File(io.BytesIO(png), filename=filename)],
        )

    @staticmethod
    def _page_buttons(
        kind: str, season_id: int, page: int, pages: int, language: str
    ) -> discord.ui.View:
        view = discord.ui.View(timeout=None)
        if pages > 1:
            first, last = page == 0, page == pages - 1
            earlier, later = max(page - 1, 0), min(page + 1, pages - 1)
            view.add_item(
                LeaguePageButton(
                    "prev", kind, season_id, earlier, disabled=first, language=language
                )
            )
            view.add_item(
                LeaguePageButton("next", kind, season_id, later, disabled=last, language=language)
            )
        return view

    # ---- profile and history ----------------------------------------------------------

    @league_group.command(
        name=command_name("profile"), description=N_("A member's ratings, records and results")
    )
    @app_commands.rename(member=command_name("member"), season=command_name("season"))
    @app_commands.describe(
        member=N_("Whose profile (default: yours)"), season=N_("A season's name")
    )
    @app_commands.autocomplete(season=season_autocomplete)
    async def profile(
        self,
        interaction: Interaction,
        member: discord.Member | None = None,
        season: str | None = None,
    ) -> None:
        found = await self._season_or_refuse(interaction, season)
        if found is None:
            return
        person = member or interaction.user
        language = await channel_language(interaction)
        await interaction.response.defer(thinking=True)
        entries = await self.league.profile(
            found.guild_id, person.id, list(GAMES), season_id=found.id, recent=RECENT_RESULTS
        )
        games = [
            {
                **_profile_game(entry.kind, entry.standing, entry.recent, person.id),
                "history": history_view(
                    entry.history,
                    await self._moments(found.guild_id, person.id, entry.kind, found),
                ),
            }
            for entry in entries
        ]
        season_name = season_title(language, found)
        view = {"name": person.display_name, "season": season_name, "games": games}
        png = await asyncio.to_thread(render_profile, view, language)
        embed = discord.Embed(
            title=f"{person.display_name} · {season_name}",
            description="\n".join(_profile_line(game, language) for game in games),
            colour=LEAGUE_COLOUR,
        )
        embed.set_image(url="attachment://profile.png")
        files = [discord.File(io.BytesIO(png), filename="profile.png")]
        fields, luck_png = await self.luck.luck_section(
            found.guild_id, person.id, found.id, person.display_name, season_name, language
        )
        fields += await self.reviews.profile_fields(found.guild_id, person.id, found.id, language)
        for name, value in fields:
            embed.add_field(name=name, value=value, inline=False)
        if luck_png is not None:
            files.append(discord.File(io.BytesIO(luck_png), filename="luck.png"))
        await interaction.edit_original_response(
            embed=embed,
            attachments=files,
            allowed_mentions=NO_MENTIONS,
        )

    @league_group.command(
        name=command_name("history"), description=N_("Recent games of this server")
    )
    @app_commands.rename(game=command_name("game"), member=command_name("member"))
    @app_commands.describe(game=N_("Only this game"), member=N_("Only games this member played"))
    @app_commands.choices(game=GAME_CHOICES)
    async def history(
        self,
        interaction: Interaction,
        game: str | None = None,
        member: discord.Member | None = None,
    ) -> None:
        if interaction.guild_id is None:
            await tell(interaction, GUILD_ONLY)
            return
        language = await channel_language(interaction)
        # A game in a private channel stays as private as its moves were: listed only to
        # members who may read it, and then only in a private answer.
        recorded = await self.league.history(
            interaction.guild_id,
            kind=game,
            user_id=member.id if member else None,
            limit=HISTORY_LIMIT * HISTORY_SEARCH,
        )
        shown = await first_readable(interaction, recorded, HISTORY_LIMIT)
        results = [result for result, _ in shown]
        private = any(
            kept_private(place) for result, place in shown if place.id != interaction.channel_id
        )
        scope = " · ".join(
            part
            for part in (_title(game) if game else "", member.display_name if member else "")
            if part
        )
        title = t(language, "Recent games")
        embed = discord.Embed(
            title=f"{title} · {scope}" if scope else title,
            description="\n".join(history_line(result, language) for result in results)
            or t(language, "No finished games recorded yet."),
            colour=LEAGUE_COLOUR,
        )
        menu = replay_menu(results, language) or discord.ui.View()
        await interaction.response.send_message(
            embed=embed, allowed_mentions=NO_MENTIONS, view=menu, ephemeral=private
        )

    # ---- seasons, export, settings ----------------------------------------------------

    @season_group.command(
        name=command_name("start"), description=N_("Start a new season (Manage Server)")
    )
    @app_commands.rename(name=command_name("name"))
    @app_commands.describe(name=N_("The new season's name, e.g. Spring 2027"))
    async def season_start(
        self,
        interaction: Interaction,
        name: app_commands.Range[str, 1, MAX_SEASON_NAME],
    ) -> None:
        if interaction.guild_id is None:
            await tell(interaction, GUILD_ONLY)
            return
        if not interaction.permissions.manage_guild:
            await tell(
                interaction,
                N_("Only members with the **Manage Server** permission can start a new season."),
            )
            return
        previous = await self.league.current_season(interaction.guild_id)
        try:
            season = await self.league.start_season(
                interaction.guild_id, name, started_by=interaction.user.id
            )
        except SeasonNameTaken:
            await tell(interaction, N_("There is already a season called “{name}”."), name=name)
            return
        except ValueError:
            await tell(
                interaction,
                N_("A season name has 1 to {limit} characters."),
                limit=MAX_SEASON_NAME,
            )
            return
        language = await channel_language(interaction)
        announcement = t(
            language,
            "📅 Season **{season}** has begun: every rating starts afresh. **{previous}** stays"
            " browsable with {command}.",
            season=discord.utils.escape_markdown(season.name),
            previous=discord.utils.escape_markdown(season_title(language, previous)),
            command=public_command(language, "league standings", season=""),
        )
        await interaction.response.send_message(announcement, allowed_mentions=NO_MENTIONS)

    @season_group.command(name=command_name("list"), description=N_("Every season of this server"))
    async def season_list(self, interaction: Interaction) -> None:
        if interaction.guild_id is None:
            await tell(interaction, GUILD_ONLY)
            return
        reader = private_language(interaction)
        seasons = await self.league.seasons(interaction.guild_id)
        lines = [
            _season_line(reader, season, current=index == 0) for index, season in enumerate(seasons)
        ]
        embed = discord.Embed(
            title=t(reader, "Seasons"), description="\n".join(lines), colour=LEAGUE_COLOUR
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @league_group.command(
        name=command_name("export"), description=N_("Every result of a season as a CSV file")
    )
    @app_commands.rename(season=command_name("season"))
    @app_commands.describe(season=N_("A season's name (default: the current one)"))
    @app_commands.autocomplete(season=season_autocomplete)
    async def export(self, interaction: Interaction, season: str | None = None) -> None:
        found = await self._season_or_refuse(interaction, season)
        if found is None:
            return
        language = await channel_language(interaction)
        await interaction.response.defer(thinking=True)
        text = await self.league.export_csv(found.guild_id, found.id, board_link)
        filename = f"league-season-{found.number}.csv"
        season_name = discord.utils.escape_markdown(season_title(language, found))
        await interaction.edit_original_response(
            content=t(language, "All results of **{season}**.", season=season_name),
            attachments=[discord.File(io.BytesIO(text.encode("utf-8")), filename=filename)],
        )

    async def _season_or_refuse(self, interaction: Interaction, name: str | None) -> Season | None:
        """The named season (default: current), or None after telling the user why not."""
        if interaction.guild_id is None:
            await tell(interaction, GUILD_ONLY)
            return None
        if name is None or not name.strip():
            return await self.league.current_season(interaction.guild_id)
        season = await self.league.season_named(interaction.guild_id, name)
        if season is None and names_the_first_season(name):
            season = await self.league.season_named(interaction.guild_id, FIRST_SEASON_NAME)
        if season is None:
            await tell(
                interaction,
                N_("There is no season called “{name}”: `/league season list` shows them."),
                name=name,
            )
        return season


def season_title(language: str, season: Season) -> str:
    """A season's name as the reader sees it: the first one, which the bot named before
    anyone started a season, in his language ("Saison 1"); a name a moderator gave, as
    he gave it."""
    if season.number == 1 and season.name == FIRST_SEASON_NAME:
        return t(language, FIRST_SEASON, number=season.number)
    return season.name


def names_the_first_season(typed: str) -> bool:
    """Whether a member typed the first season's title in one of the bot's languages."""
    titles = {t(language, FIRST_SEASON, number=1).casefold() for language in languages()}
    return typed.strip().casefold() in titles


def _season_line(language: str, season: Season, *, current: bool) -> str:
    name = discord.utils.escape_markdown(season_title(language, season))
    date = f"<t:{int(season.started_at)}:d>"
    if current:
        return t(language, "**{season}** · since {date} (current)", season=name, date=date)
    return t(language, "**{season}** · since {date}", season=name, date=date)


def _profile_game(
    kind: str, standing: Standing | None, recent: list[RecordedResult], user_id: int
) -> dict[str, Any]:
    return {
        "title": _title(kind),
        "rating": standing.rating if standing else None,
        "rank": standing.rank if standing else None,
        "games": standing.games if standing else 0,
        "wins": standing.wins if standing else 0,
        "losses": standing.losses if standing else 0,
        "draws": standing.draws if standing else 0,
        "points": standing.points if standing else 0.0,
        "streak": standing.streak if standing else 0,
        "recent": [_recent_entry(result, user_id) for result in recent],
    }


def history_view(history: list[RatedGame], moments: Sequence[Moment]) -> dict[str, Any] | None:
    """The picture's view of a season's rating history, its ``moments`` marked on it (None
    without a rated game)."""
    if not history:
        return None
    return {
        "start": history[0].rating_before,
        "games": [{"at": game.finished_at, "rating": game.rating_after} for game in history],
        "marks": [{"at": moment.at, "label": moment.label} for moment in moments],
    }


def _mover_view(mover: Mover | None) -> dict[str, Any] | None:
    return None if mover is None else {"name": mover.name, "change": mover.change}


def movers_text(movers: Movers, language: str) -> str:
    """Who rose and who fell most, a line each (for the standings' embed)."""
    lines = []
    for sentence, mover in ((ROSE_MOST, movers.rose), (FELL_MOST, movers.fell)):
        if mover is not None:
            lines.append(_mover_line(language, sentence, mover))
    return "\n".join(lines)


def _mover_line(language: str, sentence: Counted, mover: Mover) -> str:
    return tn(
        language,
        sentence.singular,
        sentence.plural,
        mover.games,
        name=discord.utils.escape_markdown(mover.name),
        change=signed(mover.change),
    )


def _recent_entry(result: RecordedResult, user_id: int) -> dict[str, Any]:
    seat = next(seat for seat in result.seats if seat.user_id == user_id)
    return {"outcome": seat.outcome, "change": seat.rating_change}


def _profile_line(game: dict[str, Any], language: str) -> str:
    if game["rating"] is None:
        return t(language, "**{game}**: no rated games", game=game["title"])
    return t(
        language,
        "**{game}**: {rating} (rank {rank}) · {wins}–{losses}–{draws}",
        game=game["title"],
        rating=game["rating"],
        rank=game["rank"],
        wins=game["wins"],
        losses=game["losses"],
        draws=game["draws"],
    )
