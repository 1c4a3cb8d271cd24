"""`/tournament`: a tournament of one game, run by the bot from the announcement to the
podium.

An organiser (Manage Server, or the role set in `/settings`) creates it; the announcement
has a **Join** button (and **Check in** before a timed start) and a thread of its own,
where the standings go after each round. Each round's tables open at once, each in a
thread started from a line in the announcement's channel that pings its players, with the
turn clocks running; when the last table of a round ends the next round is paired and
opened by itself, and after the last one the podium is announced.

Everything that must happen once is claimed in the database (``data.tournaments``): a
round is paired once, a table opened once, a result recorded once, the standings and the
podium posted once (``Store.claim_once``). Whatever process sees a table end, or starts
up, calls ``advance``, which looks at what is stored and does what is still owed, so a
restart in the middle of a round loses nothing and opens nothing twice.
"""

from __future__ import annotations

import asyncio
import io
import logging
import multiprocessing
import re
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.host import Host, Interaction, route_click
from cogs.language import channel_language, private_language
from cogs.league import LeagueCog, Moment, ordinal
from cogs.replies import delete_quietly, failure_text, mention_only, tell
from cogs.scheduler import TimeSource
from cogs.table.computers import LEVEL_NAMES
from cogs.table.deadlines import CLOCK_OPTIONS
from cogs.table.machinery import TableMachinery
from cogs.table.seats import away_seats
from data import Seat, Store, Table
from data.league import League
from data.league.rating import display_rating, finishing_placements
from data.league.records import Season
from data.settings import SettingsStore
from data.store import TOURNAMENT, NewLobby
from data.tournaments import (
    OVER,
    PAUSED,
    REGISTRATION,
    RUNNING,
    Entrant,
    PairedRound,
    PairedTable,
    TournamentBook,
    TournamentRow,
)
from games import GAMES, LEVELS
from games.tournament import (
    CannotPair,
    Config,
    Format,
    Player,
    Result,
    Round,
    Standing,
    Tournament,
    computers_needed,
    is_finished,
    late_entry_open,
    pair_next_round,
    standings,
    suggested_rounds,
    table_bounds,
    tables_to_open,
)
from games.tournament import Table as PairedSeats
from render.tournament import (
    bracket_view,
    render_bracket,
    render_round,
    render_standings,
    round_view,
    standings_view,
)
from texts.common import duration
from texts.i18n import N_, command_name, t, tn
from texts.tournament import FORMAT_NAMES, format_name

log = logging.getLogger("tablebot.tournament")

CAPACITY = 64
TEXT_LIMIT = 1900
"""The standings' text stops before Discord's 2000 characters (the picture has them all)."""
WITHDRAW_AFTER = 2
"""Rounds missed (absent from the table) after which an entrant is withdrawn."""
OPENING_LEASE = 120.0
"""Seconds a process has to open a table it claimed before another may."""
CHECK_IN_WINDOW = 30 * 60
"""Check-in opens this long before a timed start."""
NAME_LENGTH = 60

FORMAT_CHOICES = [
    app_commands.Choice(name=FORMAT_NAMES[format_], value=format_.value) for format_ in Format
]
GAME_CHOICES = [app_commands.Choice(name=spec.title, value=key) for key, spec in GAMES.items()]
LEVEL_CHOICES = [app_commands.Choice(name=LEVEL_NAMES[level], value=level) for level in LEVELS]

NOT_ORGANISER = N_("Only the organiser (or a member with Manage Server) can do that.")
MAY_NOT_ORGANISE = N_(
    "Organising a tournament needs the **Manage Server** permission or the role set in `/settings`."
)
NONE_HERE = N_("There is no tournament on this server to do that with.")
ON_A_SERVER = N_("Tournaments belong to a server: use this in one of its channels.")
WRONG_FORMAT = N_("{game} cannot be played as a {format} tournament.")
ENTERED = N_("✅ You are entered in **{name}**.")
ENTERED_LATE = N_("✅ You are entered in **{name}** from round {round}.")
JOINED_TWICE = N_("You are entered in **{name}** already.")
FULL = N_("**{name}** is full ({count} players).")
CLOSED = N_("**{name}** has started: entry is closed.")
LEFT = N_("You have left **{name}**.")
WITHDRAWN = N_("You have withdrawn from **{name}**: you will not be paired again.")
NOT_ENTERED = N_("You are not entered in **{name}**.")
STILL_PLAYING = N_(
    "Your game of this round is still being played: finish it (or resign) before leaving."
)
OVER_ALREADY = N_("**{name}** is over.")
STARTED_ALREADY = N_("**{name}** has started already.")
TOO_FEW = N_("A tournament needs at least {count} players; **{name}** has {entered}.")
FIELD_DOES_NOT_SPLIT = N_(
    "**{name}** has {entered} players, who do not fill its tables: add {count} computers"
    " (`/tournament add-computer`) or wait for more players."
)
CHECKED_IN = N_("✅ You are checked in for **{name}**.")
CHECK_IN_LATER = N_("Check-in for **{name}** opens {when}.")
NO_CHECK_IN = N_("**{name}** starts when its organiser starts it: there is no check-in.")


class TournamentButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tn:(?P<verb>join|checkin):(?P<tournament>[0-9]{1,18})",
):
    """The announcement's **Join** and **Check in** buttons."""

    def __init__(self, verb: str, tournament_id: int, *, language: str = "en") -> None:
        super().__init__(
            discord.ui.Button(
                label=t(language, "Join") if verb == "join" else t(language, "Check in"),
                style=discord.ButtonStyle.primary
                if verb == "join"
                else discord.ButtonStyle.secondary,
                custom_id=f"tn:{verb}:{tournament_id}",
            )
        )
        self.verb = verb
        self.tournament_id = tournament_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: Any,
        /,
    ) -> TournamentButton:
        return cls(match["verb"], int(match["tournament"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await route_click(interaction, self)


def late_until(config: Config) -> int | None:
    """The round a late entrant may still start in: entry stays open while fewer rounds
    than that are paired (a Swiss, until half its rounds have started)."""
    probe = Tournament(config, ())
    return (config.rounds + 1) // 2 if late_entry_open(probe) else None


def result_of(table: Table) -> Result:
    """How a finished game counts: places as the league ranks them (by its final scores;
    a seat that resigned or lost on time last), and the seats of members who were not
    there: played to the end by a computer, or (two players) lost on time."""
    scores = table.final_scores or []
    places, _ = finishing_placements(table, scores)
    away = away_seats(table)
    timed_out = table.extra.get("timed_out") if len(table.seats) == 2 else None
    absent = tuple(
        not seat.is_computer and (index in away or index == timed_out)
        for index, seat in enumerate(table.seats)
    )
    totals = tuple(scores) if len(table.seats) > 2 else None
    return Result(tuple(places), totals, absent if any(absent) else None)


def model_of(
    row: TournamentRow, entrants: Sequence[Entrant], rounds: Sequence[PairedRound]
) -> Tournament:
    """The stored tournament as the pure model reads it."""
    players = tuple(
        Player(
            key=entrant.key,
            rating=entrant.rating,
            member_id=entrant.member_id,
            computer_level=entrant.computer_level,
            joined_round=entrant.joined_round,
            withdrawn=entrant.withdrawn,
        )
        for entrant in entrants
    )
    return Tournament(
        config=Config.from_dict(row.config),
        players=players,
        rounds=tuple(
            Round(
                number=paired.number,
                tables=tuple(
                    PairedSeats(
                        number=table.number,
                        seats=tuple(table.seats),
                        result=None if table.result is None else Result.from_dict(table.result),
                        decider_of=table.decider_of,
                    )
                    for table in paired.tables
                ),
                byes=tuple(paired.byes),
            )
            for paired in rounds
        ),
    )


class TournamentCog(commands.Cog, name="Tournaments"):
    """`/tournament create|join|leave|check-in|start|pause|resume|remove|cancel|add-computer|
    score|history`, and the rounds."""

    tournament = app_commands.Group(
        name=command_name("tournament"), description=N_("Tournaments of one game on this server")
    )

    def __init__(
        self,
        bot: Host,
        store: Store,
        tables: TableMachinery,
        league: League,
        league_cog: LeagueCog,
        settings: SettingsStore,
        time: TimeSource,
        seed_source: Callable[[], int],
    ) -> None:
        self.bot = bot
        self.store = store
        self.book = TournamentBook(store)
        self.tables = tables
        self.league = league
        self.settings = settings
        self.time = time
        self.seed_source = seed_source
        self._locks: dict[int, asyncio.Lock] = {}
        self._wake = asyncio.Event()
        self._starter: asyncio.Task[None] | None = None
        self._working: set[asyncio.Task[None]] = set()
        self._retry_at: dict[int, float] = {}
        tables.spectators.on_table_ended(self._table_ended)
        league_cog.mark_moments(self)
        bot.answer_clicks(TournamentButton, self.on_button)

    # ---- start-up and timed starts ------------------------------------------------------

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Once per process: carry on every running tournament where the stored rounds
        say it stands, and wait for the timed starts."""
        if self._starter is None:
            self._starter = asyncio.get_running_loop().create_task(
                self._run(), name="tournaments: catch up and timed starts"
            )

    async def cog_unload(self) -> None:
        for task in [self._starter, *self._working]:
            if task is not None:
                task.cancel()

    async def _run(self) -> None:
        for row in await self.book.under_way():
            if row.status == RUNNING:
                await self._guarded_advance(row.id)
        while True:
            waiting = [
                row
                for row in await self.book.under_way()
                if row.status == REGISTRATION and row.starts_at is not None
            ]
            now = self.time.now()
            for row in waiting:
                if row.starts_at is not None and row.starts_at <= now:
                    await self._timed_start(row)
            for tournament_id, at in list(self._retry_at.items()):
                if at <= now:
                    del self._retry_at[tournament_id]
                    await self._guarded_advance(tournament_id)
            later = [row.starts_at for row in waiting if row.starts_at and row.starts_at > now]
            later += [at for at in self._retry_at.values() if at > now]
            self._wake.clear()
            await self.time.wait(self._wake, min(later) if later else None)

    async def _timed_start(self, row: TournamentRow) -> None:
        """The start time has come: drop who did not check in, then start (or cancel a
        field too small)."""
        dropped = await self.book.drop_unchecked(row.id)
        entrants = await self.book.entrants(row.id)
        language = row.language
        lines = []
        if dropped:
            lines.append(
                t(
                    language,
                    "Not checked in, so not playing: {names}.",
                    names=", ".join(entrant.name for entrant in dropped),
                )
            )
        if self._field_problem(row, len(entrants), language) is not None:
            if await self.book.move_status(row.id, [REGISTRATION], "cancelled"):
                lines.append(
                    t(
                        language,
                        "**{name}** is cancelled: too few players checked in.",
                        name=_name(row),
                    )
                )
                await self._say(row, "\n".join(lines))
            return
        if not await self._begin(row, len(entrants)):
            return
        if lines:
            await self._say(row, "\n".join(lines))
        await self._guarded_advance(row.id)

    # ---- commands -----------------------------------------------------------------------

    @tournament.command(name=command_name("create"), description=N_("Announce a new tournament"))
    @app_commands.rename(
        game=command_name("game"),
        format_=command_name("format"),
        rounds=command_name("rounds"),
        clock=command_name("clock"),
        rated=command_name("rated"),
        start_in=command_name("start_in"),
        name=command_name("name"),
        match_to=command_name("match_to"),
        series=command_name("series"),
        max_players=command_name("max_players"),
    )
    @app_commands.describe(
        game=N_("The game played at every table"),
        format_=N_("How the rounds are paired"),
        rounds=N_("Number of rounds (default: suggested from the field)"),
        clock=N_("Time per decision (default: this server's setting)"),
        rated=N_("Whether its games count in the league's ratings"),
        start_in=N_("Minutes until it starts, with check-in (default: when you start it)"),
        name=N_("The tournament's name"),
        match_to=N_("Gul Bara: each game is a match to this many points"),
        series=N_("Barbu: declarer series per game (1–4)"),
        max_players=N_("The most players it takes"),
    )
    @app_commands.choices(game=GAME_CHOICES, format_=FORMAT_CHOICES)
    @app_commands.choices(clock=CLOCK_OPTIONS)
    async def create(
        self,
        interaction: Interaction,
        game: app_commands.Choice[str],
        format_: app_commands.Choice[str],
        rounds: app_commands.Range[int, 1, 20] | None = None,
        clock: app_commands.Choice[int] | None = None,
        rated: bool = True,
        start_in: app_commands.Range[int, 1, 10080] | None = None,
        name: app_commands.Range[str, 1, NAME_LENGTH] | None = None,
        match_to: app_commands.Range[int, 1, 25] | None = None,
        series: app_commands.Range[int, 1, 4] | None = None,
        max_players: app_commands.Range[int, 2, CAPACITY] | None = None,
    ) -> None:
        if interaction.guild_id is None:
            await tell(interaction, ON_A_SERVER)
            return
        if not await self._may_organise(interaction):
            await tell(interaction, MAY_NOT_ORGANISE)
            return
        spec = GAMES[game.value]
        chosen = Format(format_.value)
        two_player = spec.max_players == 2
        if two_player != (chosen is not Format.TABLE_GROUPS):
            await tell(
                interaction,
                WRONG_FORMAT,
                game=spec.title,
                format=format_name(private_language(interaction), chosen),
            )
            return
        options: dict[str, Any] = {}
        known = {option.name for option in spec.options}
        for option, value in (("match_to", match_to), ("series", series)):
            if value is not None and option in known:
                options[option] = value
        await interaction.response.defer(thinking=True)
        language = await channel_language(interaction)
        capacity = max_players or CAPACITY
        config = Config(
            game=game.value,
            format=chosen,
            rounds=rounds or 0,
            options=options,
            rated=rated,
            clock_seconds=clock.value if clock else 0,
            seats_per_table=spec.max_players,
            smallest_table=table_bounds(spec.min_players, spec.max_players)[0],
        ).to_dict() | {
            "capacity": capacity,
            "name": name or "",
            "rounds_chosen": rounds is not None,
        }
        starts_at = None if start_in is None else self.time.now() + 60 * start_in
        row = await self.book.create(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id or 0,
            organiser_id=interaction.user.id,
            kind=game.value,
            config=config,
            language=language,
            starts_at=starts_at,
        )
        if not name:
            config["name"] = t(
                language, "{game} tournament #{number}", game=spec.title, number=row.id
            )
            await self.book.set_config(row.id, config)
            row = replace(row, config=config)
        message = await interaction.edit_original_response(**await self._announcement(row))
        thread_id = None
        try:
            thread = await message.create_thread(name=_name(row)[:100])
            thread_id = thread.id
        except discord.HTTPException as failure:
            log.warning(
                "tournament %d: no thread for its standings (%s)", row.id, failure_text(failure)
            )
        await self.book.set_announcement(row.id, message.id, thread_id)
        self._wake.set()

    @tournament.command(name=command_name("join"), description=N_("Enter this server's tournament"))
    async def join(self, interaction: Interaction) -> None:
        row = await self._here(interaction)
        if row is not None:
            await self._join(interaction, row)

    @tournament.command(name=command_name("leave"), description=N_("Leave the tournament"))
    async def leave(self, interaction: Interaction) -> None:
        row = await self._here(interaction)
        if row is None:
            return
        outcome = await self.book.leave(row.id, interaction.user.id)
        sentence = {
            "left": LEFT,
            "withdrawn": WITHDRAWN,
            "not entered": NOT_ENTERED,
            "playing": STILL_PLAYING,
            "over": OVER_ALREADY,
        }[outcome]
        await tell(interaction, sentence, name=_name(row))
        if outcome in ("left", "withdrawn"):
            await self._refresh_announcement(row.id)

    @tournament.command(name=command_name("check-in"), description=N_("Check in for a timed start"))
    async def check_in(self, interaction: Interaction) -> None:
        row = await self._here(interaction)
        if row is not None:
            await self._check_in(interaction, row)

    @tournament.command(name=command_name("start"), description=N_("Start the tournament now"))
    async def start(self, interaction: Interaction) -> None:
        row = await self._organised_here(interaction)
        if row is None:
            return
        if row.status != REGISTRATION:
            await tell(interaction, STARTED_ALREADY, name=_name(row))
            return
        entered = len(await self.book.entrants(row.id))
        problem = self._field_problem(row, entered, private_language(interaction))
        if problem is not None:
            await tell(interaction, problem)
            return
        if not await self._begin(row, entered):
            await tell(interaction, STARTED_ALREADY, name=_name(row))
            return
        await tell(interaction, N_("🏆 **{name}** has started."), name=_name(row))
        await self._guarded_advance(row.id)

    @tournament.command(
        name=command_name("pause"), description=N_("Open no new round until resumed")
    )
    async def pause(self, interaction: Interaction) -> None:
        row = await self._organised_here(interaction)
        if row is None:
            return
        if await self.book.move_status(row.id, [RUNNING], PAUSED):
            await tell(
                interaction, N_("⏸️ **{name}** is paused: no new round opens."), name=_name(row)
            )
            await self._say(row, t(row.language, "⏸️ The tournament is paused."))
            await self._refresh_announcement(row.id)
        else:
            await tell(interaction, N_("**{name}** is not running."), name=_name(row))

    @tournament.command(name=command_name("resume"), description=N_("Carry on a paused tournament"))
    async def resume(self, interaction: Interaction) -> None:
        row = await self._organised_here(interaction)
        if row is None:
            return
        if not await self.book.move_status(row.id, [PAUSED], RUNNING):
            await tell(interaction, N_("**{name}** is not paused."), name=_name(row))
            return
        await tell(interaction, N_("▶️ **{name}** goes on."), name=_name(row))
        await self._say(row, t(row.language, "▶️ The tournament goes on."))
        await self._refresh_announcement(row.id)
        await self._guarded_advance(row.id)

    @tournament.command(name=command_name("cancel"), description=N_("Call the tournament off"))
    async def cancel(self, interaction: Interaction) -> None:
        row = await self._organised_here(interaction)
        if row is None:
            return
        if not await self.book.move_status(row.id, [REGISTRATION, RUNNING, PAUSED], "cancelled"):
            await tell(interaction, OVER_ALREADY, name=_name(row))
            return
        await tell(interaction, N_("**{name}** is cancelled."), name=_name(row))
        await self._say(row, t(row.language, "🚫 **{name}** is cancelled.", name=_name(row)))
        await self._refresh_announcement(row.id)

    @tournament.command(name=command_name("remove"), description=N_("Take a player out"))
    @app_commands.rename(member=command_name("member"))
    @app_commands.describe(member=N_("The member to take out"))
    async def remove(self, interaction: Interaction, member: discord.User) -> None:
        row = await self._organised_here(interaction)
        if row is None:
            return
        key = next(
            (e.key for e in await self.book.entrants(row.id) if e.member_id == member.id), None
        )
        if key is None or not await self.book.remove(row.id, key):
            await tell(interaction, N_("{member} is not entered."), member=member.display_name)
            return
        await self.book.add_log(row.id, {"event": "removed", "key": key, "by": interaction.user.id})
        await tell(
            interaction,
            N_("{member} is out of **{name}**."),
            member=member.display_name,
            name=_name(row),
        )
        await self._refresh_announcement(row.id)

    @tournament.command(
        name=command_name("add-computer"), description=N_("Enter a computer player")
    )
    @app_commands.rename(level=command_name("level"))
    @app_commands.describe(level=N_("How strong it plays"))
    @app_commands.choices(level=LEVEL_CHOICES)
    async def add_computer(self, interaction: Interaction, level: app_commands.Choice[str]) -> None:
        row = await self._organised_here(interaction)
        if row is None:
            return
        count = 1 + sum(1 for e in await self.book.entrants(row.id) if e.member_id is None)
        computer = Entrant(
            key="",
            name=t(
                row.language,
                "Computer {number} ({level})",
                number=count,
                level=t(row.language, LEVEL_NAMES[level.value]),
            ),
            rating=0.0,
            computer_level=level.value,
        )
        config = Config.from_dict(row.config)
        outcome, _ = await self.book.enter(
            row.id, computer, capacity=row.config["capacity"], late_until_round=late_until(config)
        )
        if outcome != "entered":
            await tell(
                interaction, _entry_refusal(outcome), name=_name(row), count=row.config["capacity"]
            )
            return
        await tell(interaction, N_("🤖 {computer} is entered."), computer=computer.name)
        await self._refresh_announcement(row.id)

    @tournament.command(
        name=command_name("score"),
        description=N_("Score a game of the tournament that ended elsewhere"),
    )
    @app_commands.rename(
        game=command_name("game"), winner=command_name("winner"), places=command_name("places")
    )
    @app_commands.describe(
        game=N_("The game's number"),
        winner=N_("Two players: who won (none: a draw)"),
        places=N_("Three or four players: first to last, commas between places, = for a tie"),
    )
    async def score(
        self,
        interaction: Interaction,
        game: app_commands.Range[int, 1, None],
        winner: discord.User | None = None,
        places: app_commands.Range[str, 1, 400] | None = None,
    ) -> None:
        row = await self._organised_here(interaction)
        if row is None:
            return
        paired = await self.book.table_of_game(game)
        table = await self.store.load(game)
        if paired is None or table is None or paired.tournament_id != row.id:
            await tell(
                interaction,
                N_("Game #{number} is not a game of **{name}**."),
                number=game,
                name=_name(row),
            )
            return
        if paired.result is not None or table.status == "finished":
            await tell(interaction, N_("Game #{number} has its result already."), number=game)
            return
        if table.status != "aborted":
            await tell(
                interaction,
                N_(
                    "Game #{number} is still being played: only a game that ended without"
                    " a result can be scored."
                ),
                number=game,
            )
            return
        result = await self._result_given(interaction, table, winner, places)
        if result is None:
            return
        if not await self.book.record_result(row.id, paired.round, paired.number, result.to_dict()):
            await tell(interaction, N_("Game #{number} has its result already."), number=game)
            return
        await self.book.add_log(
            row.id,
            {
                "event": "scored",
                "game": game,
                "places": list(result.places),
                "by": interaction.user.id,
            },
        )
        line = t(
            row.language,
            "📝 {organiser} scored game #{number}, decided elsewhere: {outcome}.",
            organiser=interaction.user.display_name,
            number=game,
            outcome=_outcome(row.language, table, result),
        )
        await tell(interaction, line)
        await self._say(row, line)
        await self._guarded_advance(row.id)

    async def _result_given(
        self,
        interaction: Interaction,
        table: Table,
        winner: discord.User | None,
        places: str | None,
    ) -> Result | None:
        """The result the organiser gives for ``table``: the winner of a two-player game
        (none: a draw), or the places of a game of three or four; None (and a private
        answer) when it does not fit the table."""
        if winner is not None and places is not None:
            await tell(interaction, N_("Give either `winner` or `places`, not both."))
            return None
        if places is None:
            if len(table.seats) != 2:
                await tell(
                    interaction,
                    N_(
                        "Game #{number} has {count} players: give their places, first to last,"
                        " with `places` (for example `@Ann, @Bo = @Cy, @Di`)."
                    ),
                    number=table.id,
                    count=len(table.seats),
                )
                return None
            if winner is None:
                return Result.draw()
            seat = table.seat_of(winner.id)
            if seat is None:
                await tell(
                    interaction,
                    N_("{member} did not play game #{number}."),
                    member=winner.display_name,
                    number=table.id,
                )
                return None
            return Result.win(seat)
        order: list[list[int]] = []
        for group in places.split(","):
            seats: list[int] = []
            for entry in (entry.strip() for entry in group.split("=")):
                if not entry:
                    continue
                seat = _seat_named(table, entry)
                if seat is None:
                    await tell(
                        interaction,
                        N_("{member} did not play game #{number}."),
                        member=entry,
                        number=table.id,
                    )
                    return None
                if any(seat in placed for placed in (*order, seats)):
                    await tell(
                        interaction,
                        N_("{member} is given more than one place."),
                        member=table.seats[seat].name,
                    )
                    return None
                seats.append(seat)
            if seats:
                order.append(seats)
        placed = {seat for group in order for seat in group}
        missing = [seat.name for index, seat in enumerate(table.seats) if index not in placed]
        if missing:
            await tell(
                interaction,
                N_("Every player of game #{number} needs a place; without one: {missing}."),
                number=table.id,
                missing=", ".join(missing),
            )
            return None
        return Result.from_order(order, len(table.seats))

    @tournament.command(
        name=command_name("history"), description=N_("This server's past tournaments")
    )
    async def history(self, interaction: Interaction) -> None:
        if interaction.guild_id is None:
            await tell(interaction, ON_A_SERVER)
            return
        language = private_language(interaction)
        rows = await self.book.of_guild(interaction.guild_id, ["finished"], limit=10)
        if not rows:
            await tell(interaction, N_("No tournament has finished on this server yet."))
            return
        lines = [t(language, "🏆 **Past tournaments**")]
        for row in rows:
            names = {e.key: e.name for e in await self.book.entrants(row.id)}
            podium = " · ".join(
                f"{ordinal(language, place)} {names.get(key, key)}"
                for place, key in enumerate((row.placings or [])[:3], start=1)
            )
            lines.append(
                t(
                    language,
                    "**{name}** ({game}, {format}): {podium}",
                    name=_name(row),
                    game=GAMES[row.kind].title,
                    format=format_name(language, Format(row.config["format"])),
                    podium=podium,
                )
            )
        await interaction.response.send_message("\n".join(lines), ephemeral=True)

    # ---- clicks on the announcement -----------------------------------------------------

    async def on_button(self, interaction: Interaction, button: TournamentButton) -> None:
        row = await self.book.load(button.tournament_id)
        if row is None or row.guild_id != interaction.guild_id:
            await tell(interaction, NONE_HERE)
            return
        if button.verb == "join":
            await self._join(interaction, row)
        else:
            await self._check_in(interaction, row)

    async def _join(self, interaction: Interaction, row: TournamentRow) -> None:
        config = Config.from_dict(row.config)
        in_window = row.starts_at is not None and self.time.now() >= row.starts_at - CHECK_IN_WINDOW
        entrant = Entrant(
            key="",
            name=interaction.user.display_name,
            rating=await self._rating(row, interaction.user.id),
            member_id=interaction.user.id,
            language=private_language(interaction),
            checked_in=row.starts_at is None or in_window,
        )
        outcome, entered = await self.book.enter(
            row.id, entrant, capacity=row.config["capacity"], late_until_round=late_until(config)
        )
        if outcome != "entered" or entered is None:
            await tell(
                interaction, _entry_refusal(outcome), name=_name(row), count=row.config["capacity"]
            )
            return
        if entered.joined_round > 1:
            await tell(interaction, ENTERED_LATE, name=_name(row), round=entered.joined_round)
        else:
            await tell(interaction, ENTERED, name=_name(row))
        await self._refresh_announcement(row.id)

    async def _check_in(self, interaction: Interaction, row: TournamentRow) -> None:
        if row.starts_at is None:
            await tell(interaction, NO_CHECK_IN, name=_name(row))
            return
        opens = row.starts_at - CHECK_IN_WINDOW
        if self.time.now() < opens:
            await tell(interaction, CHECK_IN_LATER, name=_name(row), when=f"<t:{int(opens)}:R>")
            return
        if await self.book.check_in(row.id, interaction.user.id):
            await tell(interaction, CHECKED_IN, name=_name(row))
        elif row.status != REGISTRATION:
            await tell(interaction, STARTED_ALREADY, name=_name(row))
        else:
            await tell(interaction, NOT_ENTERED, name=_name(row))

    # ---- rounds -------------------------------------------------------------------------

    async def _table_ended(self, table: Table) -> int:
        """A table ended: if it was a tournament's, carry the tournament on (in a task of
        this cog's, which its unloading stops before the database closes)."""
        ours = table.extra.get(TOURNAMENT)
        if not ours:
            return 0
        task = asyncio.get_running_loop().create_task(
            self._guarded_advance(int(ours["id"])), name=f"tournament {ours['id']}: advance"
        )
        self._working.add(task)
        task.add_done_callback(self._working.discard)
        return 1

    async def _guarded_advance(self, tournament_id: int) -> None:
        """Carry the tournament on; if Discord refused a step (a thread, a message), try
        again once the claim on the table it was opening has run out."""
        try:
            await self.advance(tournament_id)
        except discord.HTTPException as failure:
            log.warning(
                "tournament %d: Discord refused (%s); trying again in %d s",
                tournament_id,
                failure_text(failure),
                OPENING_LEASE,
            )
            self._retry_at[tournament_id] = self.time.now() + OPENING_LEASE
            self._wake.set()

    async def advance(self, tournament_id: int) -> None:
        """Do what the stored tournament still owes: record the results of ended games,
        open the current round's tables, and once a round is complete post the standings
        and pair and open the next (or announce the podium). Every step is claimed in the
        database, so any process may call this at any time."""
        lock = self._locks.setdefault(tournament_id, asyncio.Lock())
        async with lock:
            while await self._step(tournament_id):
                pass

    async def _step(self, tournament_id: int) -> bool:
        """One step forward; whether there may be another at once."""
        row = await self.book.load(tournament_id)
        if row is None or row.status not in (RUNNING, PAUSED):
            return False
        rounds = await self.book.rounds(row.id)
        entrants = await self.book.entrants(row.id)
        if rounds and await self._collect_results(row, rounds[-1]):
            return True
        if row.status == PAUSED:
            # Games that end still count; nothing new opens until it is resumed.
            return False
        if rounds:
            current = rounds[-1]
            if any(table.result is None for table in current.tables):
                await self._open_tables(row, current, entrants)
                return False
            model = model_of(row, entrants, rounds)
            deciders = tables_to_open(model)
            if deciders:
                await self.book.add_tables(
                    row.id,
                    current.number,
                    [(table.seats, table.decider_of or 0) for table in deciders],
                )
                return True
            await self._round_done(row, rounds, entrants)
            if is_finished(model):
                await self._finish(row, rounds, entrants)
                return False
        model = model_of(row, entrants, rounds)
        try:
            paired = await _PAIRER.pair(model)
        except CannotPair as impossible:
            log.info("tournament %d: no further round (%s)", row.id, impossible)
            await self._finish(row, rounds, entrants)
            return False
        await self.book.pair_round(
            row.id,
            paired.number,
            [(table.seats, table.decider_of) for table in paired.tables],
            paired.byes,
        )
        return True

    def _field_problem(self, row: TournamentRow, entered: int, language: str) -> str | None:
        """Why the field cannot start, in ``language``, or None: a tournament of one, or
        table groups the field does not split into."""
        config = Config.from_dict(row.config)
        if entered < 2:
            return t(language, TOO_FEW, count=2, name=_name(row), entered=entered)
        if config.format is Format.TABLE_GROUPS:
            missing = computers_needed(entered, config.smallest_table, config.seats_per_table)
            if missing:
                return t(
                    language,
                    FIELD_DOES_NOT_SPLIT,
                    name=_name(row),
                    entered=entered,
                    count=missing,
                )
        return None

    async def _begin(self, row: TournamentRow, entered: int) -> bool:
        """Fix the rounds (the suggestion for the field, unless the organiser chose) and
        start; False if another process (or command) started it first."""
        config = dict(row.config)
        if not config.get("rounds"):
            config["rounds"] = suggested_rounds(
                Format(config["format"]), entered, int(config["seats_per_table"])
            )
            await self.book.set_config(row.id, config)
        started = await self.book.move_status(row.id, [REGISTRATION], RUNNING)
        if started:
            await self._refresh_announcement(row.id)
        return started

    async def _collect_results(self, row: TournamentRow, current: PairedRound) -> bool:
        """Record the result of each game of the round that finished; whether any was."""
        recorded = False
        for paired in current.tables:
            if paired.result is not None or paired.game_id is None:
                continue
            table = await self.store.load(paired.game_id)
            if table is not None and table.status == "aborted":
                await self._owes_a_score(row, table)
            if table is None or table.status != "finished":
                continue
            result = result_of(table)
            if await self.book.record_result(
                row.id, current.number, paired.number, result.to_dict()
            ):
                recorded = True
                for seat, key in enumerate(paired.seats):
                    if result.is_absent(seat):
                        await self.book.missed_round(row.id, key, withdraw_after=WITHDRAW_AFTER)
        return recorded

    async def _owes_a_score(self, row: TournamentRow, table: Table) -> None:
        """Tell the organiser, once, that a game of the round ended without a result
        (abandoned), which the round waits for him to score."""
        if not await self.store.claim_once(f"tournament:{row.id}:unscored:{table.id}"):
            return
        how = (
            N_(
                "⚠️ Game #{number} ended without a result: <@{organiser}>, score it with"
                " `/tournament score game:{number}` and its winner; the round waits for it."
            )
            if len(table.seats) == 2
            else N_(
                "⚠️ Game #{number} ended without a result: <@{organiser}>, score it with"
                " `/tournament score game:{number}` and the players' places; the round"
                " waits for it."
            )
        )
        await self._say(
            row,
            t(row.language, how, number=table.id, organiser=row.organiser_id),
            mention=row.organiser_id,
        )

    async def _open_tables(
        self, row: TournamentRow, current: PairedRound, entrants: Sequence[Entrant]
    ) -> None:
        """Open every table of the round still without its game (each claimed first),
        start any opened but not started (a process stopped in between), then tell the
        followers of its players."""
        by_key = {entrant.key: entrant for entrant in entrants}
        opened: list[Table] = []
        for paired in current.tables:
            if paired.game_id is None:
                if not await self.book.claim_opening(
                    row.id, current.number, paired.number, now=self.time.now(), lease=OPENING_LEASE
                ):
                    continue
                game_id = await self._open(row, current, paired, by_key)
                if game_id is None:
                    continue
            else:
                game_id = paired.game_id
            table = await self.store.load(game_id)
            if table is None:
                continue
            if table.status == "lobby":
                await self.tables.pipeline.start_unprompted(table)
                table = await self.store.load(game_id) or table
            opened.append(table)
        if opened and await self.store.claim_once(f"tournament:{row.id}:opened:{current.number}"):
            await self._round_opened(row, current, by_key)
            self.tables.spectators.round_started(_name(row), current.number, opened)

    async def _round_opened(
        self, row: TournamentRow, current: PairedRound, by_key: dict[str, Entrant]
    ) -> None:
        """Say in the announcement's thread that the round started: its tables as a
        picture, and who has a bye."""
        language = row.language
        names = {key: entrant.name for key, entrant in by_key.items()}
        lines = [
            tn(
                language,
                "🎲 Round {round} has started: {count} table.",
                "🎲 Round {round} has started: {count} tables.",
                len(current.tables),
                round=current.number,
            )
        ]
        if current.byes:
            byes = ", ".join(names.get(key, key) for key in current.byes)
            lines.append(t(language, "A bye for {names}.", names=byes))
        model = model_of(row, list(by_key.values()), [current])
        title = t(
            language,
            "{name} · {game} · {format}",
            name=_name(row),
            game=GAMES[row.kind].title,
            format=format_name(language, model.config.format),
        )
        subtitle = t(
            language, "Round {round} of {rounds}", round=current.number, rounds=model.config.rounds
        )
        view = round_view(model.rounds[0], names, title, subtitle)
        picture = await asyncio.to_thread(render_round, view, language)
        await self._say(
            row,
            "\n".join(lines),
            discord.File(io.BytesIO(picture), f"round-{current.number}.png"),
        )

    async def _open(
        self,
        row: TournamentRow,
        current: PairedRound,
        paired: PairedTable,
        by_key: dict[str, Entrant],
    ) -> int | None:
        """Post the table's line (pinging its players), start its thread and insert its
        game: the game's id, or None if another process opened it first."""
        seated = [by_key[key] for key in paired.seats]
        names = [
            f"<@{entrant.member_id}>" if entrant.member_id is not None else entrant.name
            for entrant in seated
        ]
        line = t(
            row.language,
            "🏆 **{name}**, round {round}, table {table}: {players}",
            name=_name(row),
            round=current.number,
            table=paired.number,
            players=" – ".join(names),
        )
        channel = self.bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        members = [discord.Object(e.member_id) for e in seated if e.member_id is not None]
        message = await channel.send(line, allowed_mentions=discord.AllowedMentions(users=members))
        try:
            thread = await self.bot.http.start_thread_with_message(
                row.channel_id,
                message.id,
                name=t(
                    row.language,
                    "Round {round}, table {table}",
                    round=current.number,
                    table=paired.number,
                )[:100],
                auto_archive_duration=1440,
            )
        except discord.HTTPException:
            # The line goes with its thread: the table is opened again, line and all.
            await delete_quietly(message)
            raise
        config = Config.from_dict(row.config)
        extra = await self.tables.deadlines.new_table_extra(
            row.guild_id, row.kind, config.clock_seconds or None
        )
        guild = self.bot.get_guild(row.guild_id)
        extra |= {
            "language": row.language,
            TOURNAMENT: {"id": row.id, "name": _name(row), "rated": config.rated},
        }
        if guild is not None:
            extra["server"] = guild.name
        seats = [
            Seat(entrant.name, entrant.member_id, entrant.computer_level, entrant.language)
            for entrant in seated
        ]
        lobby = NewLobby(
            kind=row.kind,
            guild_id=row.guild_id,
            channel_id=int(thread["id"]),
            creator_id=row.organiser_id,
            seats=seats,
            options=dict(config.options),
            seed=self.seed_source(),
            extra=extra,
        )
        return await self.book.open_table(row.id, current.number, paired.number, lobby)

    async def _round_done(
        self, row: TournamentRow, rounds: Sequence[PairedRound], entrants: Sequence[Entrant]
    ) -> None:
        """Post the standings after a complete round, once."""
        number = rounds[-1].number
        if not await self.store.claim_once(f"tournament:{row.id}:standings:{number}"):
            return
        language = row.language
        lines = [t(language, "📊 Standings after round {round}", round=number)]
        for line in self._standing_lines(row, rounds, entrants):
            if len("\n".join([*lines, line])) > TEXT_LIMIT:
                break
            lines.append(line)
        model = model_of(row, entrants, rounds)
        names = {entrant.key: entrant.name for entrant in entrants}
        title = t(
            language,
            "{name} · {game} · {format}",
            name=_name(row),
            game=GAMES[row.kind].title,
            format=format_name(language, model.config.format),
        )
        subtitle = t(
            language, "After round {round} of {rounds}", round=number, rounds=model.config.rounds
        )
        if model.config.format is Format.KNOCKOUT:
            view = bracket_view(model, names, title, subtitle)
            picture = await asyncio.to_thread(render_bracket, view, language)
        else:
            view = standings_view(model, names, title, subtitle)
            picture = await asyncio.to_thread(render_standings, view, language)
        await self._say(
            row, "\n".join(lines), discord.File(io.BytesIO(picture), f"standings-{number}.png")
        )

    def _standing_lines(
        self, row: TournamentRow, rounds: Sequence[PairedRound], entrants: Sequence[Entrant]
    ) -> list[str]:
        names = {entrant.key: entrant.name for entrant in entrants}
        language = row.language
        lines = []
        for standing in self._standings(row, rounds, entrants):
            shown = {
                "place": str(standing.place).rjust(2),
                "name": discord.utils.escape_markdown(names.get(standing.key, standing.key)),
                "score": _number(standing.score),
            }
            if standing.tiebreaks:
                breaks = " · ".join(_number(value) for value in standing.tiebreaks)
                line = t(
                    language,
                    "`{place}` **{name}** {score} ({tiebreaks})",
                    **shown,
                    tiebreaks=breaks,
                )
            else:
                line = t(language, "`{place}` **{name}** {score}", **shown)
            lines.append(line)
        return lines

    def _standings(
        self, row: TournamentRow, rounds: Sequence[PairedRound], entrants: Sequence[Entrant]
    ) -> list[Standing]:
        return standings(model_of(row, entrants, rounds))

    async def _finish(
        self, row: TournamentRow, rounds: Sequence[PairedRound], entrants: Sequence[Entrant]
    ) -> None:
        """End the tournament with its placings, and announce the podium (once)."""
        order = self._standings(row, rounds, entrants)
        if not await self.book.move_status(
            row.id, [RUNNING], "finished", placings=[standing.key for standing in order]
        ):
            return
        names = {entrant.key: entrant.name for entrant in entrants}
        medals = ("🥇", "🥈", "🥉")
        podium = [
            f"{medals[standing.place - 1]} {names.get(standing.key, standing.key)}"
            for standing in order
            if standing.place <= len(medals)
        ]
        text = t(
            row.language,
            "🏆 **{name}** is over!\n{podium}",
            name=_name(row),
            podium="\n".join(podium),
        )
        channel = self.bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        await channel.send(text)
        await self._refresh_announcement(row.id)

    # ---- the league's profile ------------------------------------------------------------

    async def moments(self, guild_id: int, user_id: int, kind: str, season: Season) -> list[Moment]:
        """Each finished tournament of ``kind`` this season the member played in, with his
        placing, marked on his rating history."""
        found = []
        for row, key in await self.book.finished_with(guild_id, user_id):
            if row.kind != kind or (row.finished_at or 0) < season.started_at:
                continue
            placings = row.placings or []
            label = _name(row)
            if key in placings:
                label = t(
                    row.language,
                    "{name}: {place}",
                    name=label,
                    place=ordinal(row.language, 1 + placings.index(key)),
                )
            found.append(Moment(at=row.finished_at or row.created_at, label=label))
        return found

    # ---- helpers ------------------------------------------------------------------------

    async def _may_organise(self, interaction: Interaction) -> bool:
        if interaction.permissions.manage_guild:
            return True
        role = (await self.settings.get(interaction.guild_id or 0)).tournament_role
        roles = getattr(interaction.user, "roles", [])
        return role is not None and any(r.id == role for r in roles)

    async def _here(self, interaction: Interaction) -> TournamentRow | None:
        """The server's tournament a command means: the newest not over, preferring one
        announced in this channel; None (the member told) if there is none."""
        if interaction.guild_id is None:
            await tell(interaction, ON_A_SERVER)
            return None
        rows = await self.book.of_guild(interaction.guild_id, [REGISTRATION, RUNNING, PAUSED])
        here = [row for row in rows if row.channel_id == interaction.channel_id]
        if not rows:
            await tell(interaction, NONE_HERE)
            return None
        return (here or rows)[0]

    async def _organised_here(self, interaction: Interaction) -> TournamentRow | None:
        row = await self._here(interaction)
        if row is None:
            return None
        if row.organiser_id != interaction.user.id and not interaction.permissions.manage_guild:
            await tell(interaction, NOT_ORGANISER)
            return None
        return row

    async def _rating(self, row: TournamentRow, member_id: int) -> float:
        season = await self.league.current_season(row.guild_id)
        standing = await self.league.standing_of(row.guild_id, row.kind, season.id, member_id)
        return 0.0 if standing is None else float(display_rating(standing.mu, standing.sigma))

    async def _say(
        self,
        row: TournamentRow,
        text: str,
        picture: discord.File | None = None,
        *,
        mention: int | None = None,
    ) -> None:
        """A message in the announcement's thread (or its channel when it has none),
        pinging ``mention`` if given."""
        target = row.thread_id or row.channel_id
        channel = self.bot.get_partial_messageable(target, guild_id=row.guild_id)
        mentions = discord.AllowedMentions.none() if mention is None else mention_only(mention)
        if picture is None:
            await channel.send(text, allowed_mentions=mentions)
        else:
            await channel.send(text, file=picture, allowed_mentions=mentions)

    async def _announcement(self, row: TournamentRow) -> dict[str, Any]:
        """The announcement: what is played, when it starts, who entered; Join (and Check
        in) while registration is open."""
        language = row.language
        config = Config.from_dict(row.config)
        entrants = [e for e in await self.book.entrants(row.id) if not e.withdrawn]
        spec = GAMES[row.kind]
        rounds = config.rounds or suggested_rounds(
            config.format, max(len(entrants), 2), config.seats_per_table
        )
        lines = [
            t(language, "🏆 **{name}**", name=_name(row)),
            t(
                language,
                "{game}, {format}, {rounds}.",
                game=spec.title,
                format=format_name(language, config.format),
                rounds=tn(language, "{count} round", "{count} rounds", rounds),
            ),
        ]
        if config.clock_seconds:
            lines.append(
                t(
                    language,
                    "Time per decision: {time}.",
                    time=duration(language, config.clock_seconds),
                )
            )
        lines.append(t(language, "Rated.") if config.rated else t(language, "Not rated."))
        if row.status == REGISTRATION:
            if row.starts_at is not None:
                when = f"<t:{int(row.starts_at)}:R>"
                lines.append(
                    t(
                        language,
                        "Starts {when}; check in during the last {minutes} minutes before.",
                        when=when,
                        minutes=CHECK_IN_WINDOW // 60,
                    )
                )
            else:
                lines.append(t(language, "Starts when its organiser starts it."))
        else:
            lines.append(t(language, "Status: {status}.", status=t(language, _STATUS[row.status])))
        names = ", ".join(discord.utils.escape_markdown(e.name) for e in entrants)
        lines.append(
            t(
                language,
                "Players ({count}/{capacity}): {names}",
                count=len(entrants),
                capacity=row.config["capacity"],
                names=names or "–",
            )
        )
        view = discord.ui.View(timeout=None)
        if row.status not in OVER and (row.status == REGISTRATION or late_until(config)):
            view.add_item(TournamentButton("join", row.id, language=language))
            if row.starts_at is not None and row.status == REGISTRATION:
                view.add_item(TournamentButton("checkin", row.id, language=language))
        return {"content": "\n".join(lines), "view": view}

    async def _refresh_announcement(self, tournament_id: int) -> None:
        row = await self.book.load(tournament_id)
        if row is None or row.announcement_id is None:
            return
        channel = self.bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        try:
            await channel.get_partial_message(row.announcement_id).edit(
                **await self._announcement(row)
            )
        except discord.HTTPException as failure:
            log.info("tournament %d: announcement not updated (%s)", row.id, failure_text(failure))


class _Pairer:
    """Pairs rounds in a worker process of its own, started on the first pairing.

    A late Swiss round of 64 takes seconds of pure Python to pair (README): in a thread it
    would hold the GIL against every board for that long. Not in the review workers
    (``ReviewPool.run``): they run niced and may be busy for minutes with whole reviews,
    while a round's players wait on its pairing. Forkserver, not fork: forking a process
    that runs threads and an event loop can copy a held lock into the child."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None

    async def pair(self, model: Tournament) -> Round:
        if self._pool is None:
            context = multiprocessing.get_context("forkserver")
            self._pool = ProcessPoolExecutor(max_workers=1, mp_context=context)
        try:
            return await asyncio.get_running_loop().run_in_executor(
                self._pool, pair_next_round, model
            )
        except BrokenProcessPool:
            # The worker died (killed by the OS, say): start afresh next time, pair here.
            log.warning("the pairing worker process died; starting a new one")
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
            return await asyncio.to_thread(pair_next_round, model)


_PAIRER = _Pairer()


_STATUS = {
    RUNNING: N_("running"),
    PAUSED: N_("paused"),
    "finished": N_("finished"),
    "cancelled": N_("cancelled"),
}


MENTION = re.compile(r"<@!?([0-9]{1,20})>")


def _seat_named(table: Table, entry: str) -> int | None:
    """The seat ``entry`` names: a member's mention, or a seat's name as the table shows
    it (a computer's too; a leading @ and letter case do not matter)."""
    mention = MENTION.fullmatch(entry)
    if mention:
        return table.seat_of(int(mention[1]))
    wanted = entry.removeprefix("@").casefold()
    named = [index for index, seat in enumerate(table.seats) if seat.name.casefold() == wanted]
    return named[0] if len(named) == 1 else None


def _outcome(language: str, table: Table, result: Result) -> str:
    """A hand-scored result in words: the winner of a two-player game (or a draw), else
    each place and who took it ("1st Bo, 2nd Ann & Cy, 4th Di")."""
    if len(table.seats) == 2:
        if result.places == (1, 1):
            return t(language, "a draw")
        return t(language, "{name} wins", name=table.seats[result.places.index(1)].name)
    by_place = sorted(range(len(table.seats)), key=lambda seat: result.places[seat])
    return ", ".join(
        f"{ordinal(language, place)} "
        + " & ".join(table.seats[seat].name for seat in by_place if result.places[seat] == place)
        for place in sorted(set(result.places))
    )


def _name(row: TournamentRow) -> str:
    return str(row.config.get("name") or f"#{row.id}")


def _number(value: float) -> str:
    return f"{value:g}"


def _entry_refusal(outcome: str) -> str:
    return {"again": JOINED_TWICE, "full": FULL, "closed": CLOSED}[outcome]
