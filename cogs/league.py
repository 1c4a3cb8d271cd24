"""League scoreboards in Discord: `/league …` commands, page buttons and result lines.

Every finished game is recorded through ``LeagueCog.record_result`` (called by the Tables
cog right after a game ends) and, on start-up, any finished game the bot missed is
recorded before the bot takes clicks. Page buttons are DynamicItems whose custom_id
``lg:<prev|next>:<game>:<season id>:<page>`` carries everything a click needs, so they
keep working after a restart.
"""

from __future__ import annotations

import asyncio
import io
import logging
import math
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.archive import replay_menu
from cogs.host import Host, host_of
from data import Store, Table
from data.league import (
    MAX_SEASON_NAME,
    League,
    RecordedResult,
    Season,
    SeatResult,
    Standing,
)
from games import GAMES
from render.league import render_profile, render_standings
from texts import table as table_text
from texts.table import counted

log = logging.getLogger("tablebot.league")

PAGE_SIZE = 10
HISTORY_LIMIT = 10
RECENT_RESULTS = 5
LEAGUE_COLOUR = discord.Colour.gold()
NO_MENTIONS = discord.AllowedMentions.none()
GUILD_ONLY = "League tables belong to a server: use this command in a server channel."
NEEDS_MANAGE_SERVER = "Only members with the **Manage Server** permission can {action}."
GAME_CHOICES = [app_commands.Choice(name=spec.title, value=key) for key, spec in GAMES.items()]
ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


def final_scores(table: Table) -> list[float]:
    """The scores of a game saved before games stored them, from its last state."""
    assert table.state is not None
    return GAMES[table.kind].from_dict(table.state).returns()


def _title(kind: str) -> str:
    spec = GAMES.get(kind)
    return spec.title if spec else kind


def signed(change: int) -> str:
    """+12, −7, ±0: the sign always shows, with a true minus sign."""
    if change > 0:
        return f"+{change}"
    return f"−{-change}" if change < 0 else "±0"


def ordinal(place: int) -> str:
    return ORDINALS.get(place, f"{place}th")


def rating_summary(result: RecordedResult) -> str:
    """The announcement line: each player's new rating and change, or why it is unrated."""
    if not result.rated:
        return f"Not rated: {result.unrated_reason}."
    changes = [
        f"{seat.name} {seat.rating_after} ({signed(seat.rating_change or 0)})"
        for seat in result.seats
    ]
    return "Ratings: " + " · ".join(changes)


def standing_line(row: Standing) -> str:
    trend = f" · trend {signed(row.trend)}" if row.trend else ""
    return counted(
        row.games,
        table_text.STANDING_ONE_GAME,
        table_text.STANDING_GAMES,
        rank=f"{row.rank:>2}",
        name=discord.utils.escape_markdown(row.name),
        rating=row.rating,
        wins=round(100 * row.win_rate),
        trend=trend,
    )


def history_line(result: RecordedResult) -> str:
    players = ", ".join(_seat_text(seat) for seat in result.seats)
    when = f"<t:{int(result.finished_at)}:d>"
    rated = "" if result.rated else " (unrated)"
    link = f" · [board]({result.link})" if result.link else ""
    return f"#{result.game_id} {_title(result.kind)} · {when}{rated} · {players}{link}"


def _seat_text(seat: SeatResult) -> str:
    text = f"{discord.utils.escape_markdown(seat.name)} {ordinal(seat.placement)}"
    if seat.forfeit:
        text += " (lost on time)" if seat.on_time else " (resigned)"
    if seat.rating_change is not None:
        text += f" {signed(seat.rating_change)}"
    return text


class LeaguePageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"lg:(?P<verb>prev|next):(?P<kind>[a-z0-9_]{1,20}):(?P<season>[0-9]{1,9}):(?P<page>[0-9]{1,6})",
):
    """Turns a standings message to another page (``page``: the 0-based page a click shows)."""

    def __init__(self, verb: str, kind: str, season_id: int, page: int, *, disabled: bool) -> None:
        super().__init__(
            discord.ui.Button(
                label="◀ Previous" if verb == "prev" else "Next ▶",
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
        league = host_of(interaction).league
        await league.turn_page(interaction, self.kind, self.season_id, self.page)


async def season_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    if interaction.guild_id is None:
        return []
    seasons = await host_of(interaction).league.league.seasons(interaction.guild_id)
    typed = current.casefold()
    return [
        app_commands.Choice(name=season.name, value=season.name)
        for season in seasons
        if typed in season.name.casefold()
    ][:25]


class LeagueCog(commands.Cog, name="League"):
    """Standings, profiles, history, seasons, export and settings of a server's league."""

    league_group = app_commands.Group(
        name="league", description="Ratings, standings and seasons of this server", guild_only=True
    )
    season_group = app_commands.Group(
        name="season", description="League seasons of this server", parent=league_group
    )

    def __init__(self, bot: Host, store: Store) -> None:
        self.bot = bot
        self.league = League(store)

    async def cog_load(self) -> None:
        caught_up = await self.league.record_missing(list(GAMES), final_scores)
        if caught_up:
            log.info("finished games recorded that had no league result: %d", len(caught_up))

    async def record_result(self, table: Table) -> str | None:
        """Record a game that just finished; the announcement line, or None when the
        game was recorded before (a duplicate finish) or is not finished."""
        result = await self.league.record_finished(table)
        return None if result is None else rating_summary(result)

    # ---- standings --------------------------------------------------------------------

    @league_group.command(name="standings", description="The leaderboard of one game")
    @app_commands.describe(game="Which game", season="A season's name (default: the current one)")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.autocomplete(season=season_autocomplete)
    async def standings(
        self, interaction: discord.Interaction[Any], game: str, season: str | None = None
    ) -> None:
        found = await self._season_or_refuse(interaction, season)
        if found is None:
            return
        await interaction.response.defer(thinking=True)
        payload = await self._standings_payload(found, game, page=0)
        await interaction.edit_original_response(**payload)

    async def turn_page(
        self, interaction: discord.Interaction[Any], kind: str, season_id: int, page: int
    ) -> None:
        season = await self.league.season(interaction.guild_id or 0, season_id)
        if season is None or kind not in GAMES:
            await interaction.response.send_message("This leaderboard is gone.", ephemeral=True)
            return
        await interaction.response.defer()
        await interaction.edit_original_response(
            **await self._standings_payload(season, kind, page=page)
        )

    async def _standings_payload(self, season: Season, kind: str, *, page: int) -> dict[str, Any]:
        players = await self.league.count_players(season.guild_id, kind, season.id)
        pages = max(1, math.ceil(players / PAGE_SIZE))
        page = min(max(page, 0), pages - 1)
        rows = await self.league.standings(
            season.guild_id, kind, season.id, offset=page * PAGE_SIZE, limit=PAGE_SIZE
        )
        view = {
            "title": _title(kind),
            "season": season.name,
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
        }
        png = await asyncio.to_thread(render_standings, view)
        filename = f"standings-{kind}-{season.number}-{page + 1}.png"
        embed = discord.Embed(
            title=f"{_title(kind)} standings · {season.name}",
            description="\n".join(standing_line(row) for row in rows)
            or "No rated games yet in this season.",
            colour=LEAGUE_COLOUR,
        )
        embed.set_image(url=f"attachment://{filename}")
        noun = "player" if players == 1 else "players"
        embed.set_footer(text=f"Page {page + 1} of {pages} · {players} {noun}")
        return {
            "content": None,
            "embed": embed,
            "attachments": [discord.File(io.BytesIO(png), filename=filename)],
            "view": self._page_buttons(kind, season.id, page, pages),
            "allowed_mentions": NO_MENTIONS,
        }

    @staticmethod
    def _page_buttons(kind: str, season_id: int, page: int, pages: int) -> discord.ui.View:
        view = discord.ui.View(timeout=None)
        if pages > 1:
            first, last = page == 0, page == pages - 1
            view.add_item(
                LeaguePageButton("prev", kind, season_id, max(page - 1, 0), disabled=first)
            )
            view.add_item(
                LeaguePageButton("next", kind, season_id, min(page + 1, pages - 1), disabled=last)
            )
        return view

    # ---- profile and history ----------------------------------------------------------

    @league_group.command(name="profile", description="A member's ratings, records and results")
    @app_commands.describe(member="Whose profile (default: yours)", season="A season's name")
    @app_commands.autocomplete(season=season_autocomplete)
    async def profile(
        self,
        interaction: discord.Interaction[Any],
        member: discord.Member | None = None,
        season: str | None = None,
    ) -> None:
        found = await self._season_or_refuse(interaction, season)
        if found is None:
            return
        person = member or interaction.user
        await interaction.response.defer(thinking=True)
        entries = await self.league.profile(
            found.guild_id, person.id, list(GAMES), season_id=found.id, recent=RECENT_RESULTS
        )
        games = [
            _profile_game(entry.kind, entry.standing, entry.recent, person.id) for entry in entries
        ]
        view = {"name": person.display_name, "season": found.name, "games": games}
        png = await asyncio.to_thread(render_profile, view)
        embed = discord.Embed(
            title=f"{person.display_name} · {found.name}",
            description="\n".join(_profile_line(game) for game in games),
            colour=LEAGUE_COLOUR,
        )
        embed.set_image(url="attachment://profile.png")
        files = [discord.File(io.BytesIO(png), filename="profile.png")]
        fields, luck_png = await self.bot.archive.luck_section(
            found.guild_id, person.id, found.id, person.display_name, found.name
        )
        for name, value in fields:
            embed.add_field(name=name, value=value, inline=False)
        if luck_png is not None:
            files.append(discord.File(io.BytesIO(luck_png), filename="luck.png"))
        await interaction.edit_original_response(
            embed=embed,
            attachments=files,
            allowed_mentions=NO_MENTIONS,
        )

    @league_group.command(name="history", description="Recent games of this server")
    @app_commands.describe(game="Only this game", member="Only games this member played")
    @app_commands.choices(game=GAME_CHOICES)
    async def history(
        self,
        interaction: discord.Interaction[Any],
        game: str | None = None,
        member: discord.Member | None = None,
    ) -> None:
        if interaction.guild_id is None:
            await interaction.response.send_message(GUILD_ONLY, ephemeral=True)
            return
        results = await self.league.history(
            interaction.guild_id,
            kind=game,
            user_id=member.id if member else None,
            limit=HISTORY_LIMIT,
        )
        scope = " · ".join(
            part
            for part in (_title(game) if game else "", member.display_name if member else "")
            if part
        )
        embed = discord.Embed(
            title=f"Recent games{f' · {scope}' if scope else ''}",
            description="\n".join(history_line(result) for result in results)
            or "No finished games recorded yet.",
            colour=LEAGUE_COLOUR,
        )
        menu = replay_menu(results) or discord.ui.View()
        await interaction.response.send_message(
            embed=embed, allowed_mentions=NO_MENTIONS, view=menu
        )

    # ---- seasons, export, settings ----------------------------------------------------

    @season_group.command(name="start", description="Start a new season (Manage Server)")
    @app_commands.describe(name="The new season's name, e.g. Spring 2027")
    async def season_start(
        self,
        interaction: discord.Interaction[Any],
        name: app_commands.Range[str, 1, MAX_SEASON_NAME],
    ) -> None:
        if interaction.guild_id is None:
            await interaction.response.send_message(GUILD_ONLY, ephemeral=True)
            return
        if not interaction.permissions.manage_guild:
            refusal = NEEDS_MANAGE_SERVER.format(action="start a new season")
            await interaction.response.send_message(refusal, ephemeral=True)
            return
        previous = await self.league.current_season(interaction.guild_id)
        try:
            season = await self.league.start_season(
                interaction.guild_id, name, started_by=interaction.user.id
            )
        except ValueError as problem:
            await interaction.response.send_message(str(problem), ephemeral=True)
            return
        await interaction.response.send_message(
            f"📅 Season **{discord.utils.escape_markdown(season.name)}** has begun: every "
            f"rating starts afresh. **{discord.utils.escape_markdown(previous.name)}** stays "
            "browsable with `/league standings season:`.",
            allowed_mentions=NO_MENTIONS,
        )

    @season_group.command(name="list", description="Every season of this server")
    async def season_list(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.guild_id is None:
            await interaction.response.send_message(GUILD_ONLY, ephemeral=True)
            return
        seasons = await self.league.seasons(interaction.guild_id)
        lines = [
            f"**{discord.utils.escape_markdown(season.name)}** · since "
            f"<t:{int(season.started_at)}:d>{' (current)' if index == 0 else ''}"
            for index, season in enumerate(seasons)
        ]
        embed = discord.Embed(title="Seasons", description="\n".join(lines), colour=LEAGUE_COLOUR)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @league_group.command(name="export", description="Every result of a season as a CSV file")
    @app_commands.describe(season="A season's name (default: the current one)")
    @app_commands.autocomplete(season=season_autocomplete)
    async def export(
        self, interaction: discord.Interaction[Any], season: str | None = None
    ) -> None:
        found = await self._season_or_refuse(interaction, season)
        if found is None:
            return
        await interaction.response.defer(thinking=True)
        text = await self.league.export_csv(found.guild_id, found.id)
        filename = f"league-season-{found.number}.csv"
        await interaction.edit_original_response(
            content=f"All results of **{discord.utils.escape_markdown(found.name)}**.",
            attachments=[discord.File(io.BytesIO(text.encode("utf-8")), filename=filename)],
        )

    async def _season_or_refuse(
        self, interaction: discord.Interaction[Any], name: str | None
    ) -> Season | None:
        """The named season (default: current), or None after telling the user why not."""
        if interaction.guild_id is None:
            await interaction.response.send_message(GUILD_ONLY, ephemeral=True)
            return None
        if name is None or not name.strip():
            return await self.league.current_season(interaction.guild_id)
        season = await self.league.season_named(interaction.guild_id, name)
        if season is None:
            await interaction.response.send_message(
                f"There is no season called “{name}”: `/league season list` shows them.",
                ephemeral=True,
            )
        return season


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


def _recent_entry(result: RecordedResult, user_id: int) -> dict[str, Any]:
    seat = next(seat for seat in result.seats if seat.user_id == user_id)
    return {"outcome": seat.outcome, "change": seat.rating_change}


def _profile_line(game: dict[str, Any]) -> str:
    if game["rating"] is None:
        return f"**{game['title']}**: no rated games"
    return (
        f"**{game['title']}**: {game['rating']} (rank {game['rank']}) · "
        f"{game['wins']}–{game['losses']}–{game['draws']}"
    )
