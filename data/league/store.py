"""All league SQL, on the store's database: recording finished games and their ratings,
reading results, standings and profiles, seasons and the league's settings.

Every finished game is recorded once (the game id is the key of its result row, and the
insert happens in the same transaction as the rating updates), so a duplicate finish or
a catch-up after a crash can never count a game twice. A recording reads and writes its
server's ratings in one transaction that holds the server's league lock, so two
processes recording two games of one server at once cannot lose an update.

A new season starts every player afresh; earlier seasons keep their tables. A resigning
seat's result is marked as a forfeit. Games with a computer seat are recorded unrated
unless the server rates them; then all computer seats share one "Computer" rating
(player id 0). A game whose players could ask for hints is recorded unrated.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from data.league.export import results_csv
from data.league.rating import (
    CONSERVATIVE_SIGMAS,
    NEWCOMER,
    display_rating,
    finishing_placements,
    forfeited_seat,
    outcome_of,
    rated,
)
from data.league.records import (
    COMPUTER_PLAYER_ID,
    FORFEIT_ON_TIME,
    RATING_COLUMNS,
    RESULT_COLUMNS,
    SEAT_COLUMNS,
    GameProfile,
    LeagueSettings,
    Mover,
    Movers,
    RatedGame,
    RecordedResult,
    Season,
    SeasonNameTaken,
    SeatResult,
    Standing,
    season_from_row,
    seat_from_row,
    standing_from_row,
)
from data.sql import Executor, Row
from data.store import PRACTICE, TOURNAMENT, Seat, Store, Table

TREND_GAMES = 5
MOVERS_DAYS = 7
"""The stretch over which the standings name who rose and who fell most: a week. Over a
whole season the change is every player's rating less the 1000 all start from, which the
standings' order already shows; a week's change tells who is on the move now."""
FIRST_SEASON_NAME = "Season 1"
MAX_SEASON_NAME = 40


class League:
    """All league SQL, on the store's database."""

    def __init__(self, store: Store) -> None:
        self._db = store.db
        self._store = store

    # ---- recording ---------------------------------------------------------------------

    async def record_finished(self, table: Table) -> RecordedResult | None:
        """Record a finished game from the scores it was saved with, and update ratings;
        None if it was recorded before (or is not a finished game with scores), so a
        duplicate call changes nothing."""
        points = table.final_scores
        if table.status != "finished" or points is None:
            return None
        async with self._store.transaction() as db:
            recorded = await self._record_in(db, table, points)
        return await self.result(table.id) if recorded else None

    async def _record_in(self, db: Executor, table: Table, points: list[float]) -> bool:
        """Record ``table`` inside the transaction ``db``; False if it was recorded."""
        await db.lock(f"league:{table.guild_id}")
        if await self._is_recorded(db, table.id):
            return False
        table = await _with_stored_seats(db, table)
        season = await self._current_season_in(db, table.guild_id)
        unrated_reason = await self._unrated_reason(db, table)
        seats = self._seat_results(table, points)
        ratings = {}
        if unrated_reason is None:
            ratings = await self._new_ratings(db, table, season.id, seats)
        await self._write_result(db, table, season, unrated_reason, seats, ratings)
        return True

    async def record_missing(
        self, kinds: Sequence[str], scores_of: Callable[[Table], list[float]]
    ) -> list[RecordedResult]:
        """Record every finished game of ``kinds`` that has no result yet (a crash in
        between). ``scores_of`` gives the final scores of a game saved without them (one
        that finished before games stored their scores).

        Each game is claimed in the database, so processes starting together share the
        work instead of doing it twice."""
        recorded = []
        while (claimed := await self._record_one_missing(kinds, scores_of)) is not None:
            game_id, by_us = claimed
            result = await self.result(game_id) if by_us else None
            if result is not None:
                recorded.append(result)
        return recorded

    async def _record_one_missing(
        self, kinds: Sequence[str], scores_of: Callable[[Table], list[float]]
    ) -> tuple[int, bool] | None:
        """Claim and record the oldest unrecorded finished game: its id and whether this
        call recorded it (False: another process did in the meantime)."""
        async with self._store.transaction() as db:
            row = await db.fetchrow(
                "SELECT g.id FROM games g WHERE g.status = 'finished' AND g.kind IN "
                f"({', '.join('?' for _ in kinds)}) AND NOT EXISTS"
                " (SELECT 1 FROM league_results r WHERE r.game_id = g.id)"
                " ORDER BY g.updated_at, g.id LIMIT 1" + self._db.claim_suffix,
                *kinds,
            )
            if row is None:
                return None
            table = await self._store.load(row["id"])
            assert table is not None
            points = table.final_scores or scores_of(table)
            return table.id, await self._record_in(db, table, points)

    @staticmethod
    async def _is_recorded(db: Executor, game_id: int) -> bool:
        row = await db.fetchrow("SELECT 1 FROM league_results WHERE game_id = ?", game_id)
        return row is not None

    async def _unrated_reason(self, db: Executor, table: Table) -> str | None:
        if table.extra.get(PRACTICE):
            return "a practice game after a lesson"
        if not table.extra.get(TOURNAMENT, {}).get("rated", True):
            return "an unrated tournament"
        has_computer = any(seat.is_computer for seat in table.seats)
        if has_computer and not (await _settings(db, table.guild_id)).rate_computer_games:
            return "a computer played"
        if table.hints_on:
            return "hints were on"
        return None

    @staticmethod
    def _seat_results(table: Table, scores: list[float]) -> list[SeatResult]:
        ranks, points = finishing_placements(table, scores)
        resigned = forfeited_seat(table)
        return [
            SeatResult(
                seat=index,
                user_id=seat.user_id,
                name=seat.name,
                placement=ranks[index],
                points=points[index],
                forfeit=index == resigned,
                outcome=outcome_of(ranks[index], ranks),
                on_time=index == resigned and table.extra.get("timed_out") == index,
            )
            for index, seat in enumerate(table.seats)
        ]

    async def _new_ratings(
        self, db: Executor, table: Table, season_id: int, seats: list[SeatResult]
    ) -> dict[int, tuple[float, float, float, float]]:
        """(μ before, σ before, μ after, σ after) per seat from one Plackett–Luce update."""
        before = []
        for seat in seats:
            player = _player_id(seat)
            current = await self._rating(db, table.guild_id, table.kind, season_id, player)
            before.append(current or NEWCOMER)
        after = rated(before, [seat.placement for seat in seats])
        return {
            seat.seat: (mu, sigma, mu_after, sigma_after)
            for seat, (mu, sigma), (mu_after, sigma_after) in zip(seats, before, after, strict=True)
        }

    @staticmethod
    async def _rating(
        db: Executor, guild_id: int, kind: str, season_id: int, player_id: int
    ) -> tuple[float, float] | None:
        row = await db.fetchrow(
            "SELECT mu, sigma FROM league_ratings"
            " WHERE guild_id = ? AND kind = ? AND season_id = ? AND player_id = ?",
            guild_id,
            kind,
            season_id,
            player_id,
        )
        return (row["mu"], row["sigma"]) if row else None

    async def _write_result(
        self,
        db: Executor,
        table: Table,
        season: Season,
        unrated_reason: str | None,
        seats: list[SeatResult],
        ratings: dict[int, tuple[float, float, float, float]],
    ) -> None:
        rated = unrated_reason is None
        await db.execute(
            "INSERT INTO league_results (game_id, guild_id, season_id, kind,"
            " channel_id, board_message_id, finished_at, recorded_at, rated, unrated_reason)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            table.id,
            table.guild_id,
            season.id,
            table.kind,
            table.channel_id,
            table.board_message_id,
            table.updated_at,
            time.time(),
            int(rated),
            unrated_reason,
        )
        await db.executemany(
            f"INSERT INTO league_seats ({SEAT_COLUMNS}) VALUES ({', '.join('?' * 12)})",
            [
                (
                    table.id,
                    seat.seat,
                    seat.user_id,
                    seat.name,
                    seat.placement,
                    seat.points,
                    FORFEIT_ON_TIME if seat.on_time else int(seat.forfeit),
                    seat.outcome,
                    *ratings.get(seat.seat, (None, None, None, None)),
                )
                for seat in seats
            ],
        )
        if rated:
            for player_id, group in _group_by_player(seats).items():
                # Several computer seats share one rating: it takes their mean update, and
                # the game counts once for it, with its best-placed seat's result.
                mu = sum(ratings[seat.seat][2] for seat in group) / len(group)
                sigma = sum(ratings[seat.seat][3] for seat in group) / len(group)
                best = min(group, key=lambda seat: seat.placement)
                await _add_game(db, table, season.id, player_id, best, mu, sigma)

    # ---- reading results ---------------------------------------------------------------

    async def result(self, game_id: int) -> RecordedResult | None:
        results = await self._results(
            f"SELECT {RESULT_COLUMNS} FROM league_results r WHERE r.game_id = ?", (game_id,)
        )
        return results[0] if results else None

    async def history(
        self,
        guild_id: int,
        *,
        kind: str | None = None,
        user_id: int | None = None,
        season_id: int | None = None,
        limit: int = 10,
    ) -> list[RecordedResult]:
        """Recorded games of a server, newest first, optionally of one game, member, season."""
        conditions = ["r.guild_id = ?"]
        parameters: list[Any] = [guild_id]
        if kind is not None:
            conditions.append("r.kind = ?")
            parameters.append(kind)
        if season_id is not None:
            conditions.append("r.season_id = ?")
            parameters.append(season_id)
        if user_id is not None:
            conditions.append(
                "EXISTS (SELECT 1 FROM league_seats s WHERE s.game_id = r.game_id"
                " AND s.user_id = ?)"
            )
            parameters.append(user_id)
        query = (
            f"SELECT {RESULT_COLUMNS} FROM league_results r WHERE {' AND '.join(conditions)}"
            " ORDER BY r.finished_at DESC, r.game_id DESC LIMIT ?"
        )
        return await self._results(query, (*parameters, limit))

    async def _all(self, query: str, parameters: Sequence[Any]) -> list[Row]:
        return await self._db.fetch(query, *parameters)

    async def _one(self, query: str, parameters: Sequence[Any]) -> Row | None:
        return await self._db.fetchrow(query, *parameters)

    async def _results(self, query: str, parameters: Sequence[Any]) -> list[RecordedResult]:
        rows = await self._all(query, parameters)
        if not rows:
            return []
        seats = await self._seats_of([row["game_id"] for row in rows])
        return [
            RecordedResult(
                game_id=row["game_id"],
                kind=row["kind"],
                guild_id=row["guild_id"],
                season_id=row["season_id"],
                finished_at=row["finished_at"],
                rated=bool(row["rated"]),
                unrated_reason=row["unrated_reason"],
                seats=seats.get(row["game_id"], []),
                channel_id=row["channel_id"],
                board_message_id=row["board_message_id"],
            )
            for row in rows
        ]

    async def _seats_of(self, game_ids: Sequence[int]) -> dict[int, list[SeatResult]]:
        marks = ", ".join("?" for _ in game_ids)
        rows = await self._all(
            f"SELECT {SEAT_COLUMNS} FROM league_seats WHERE game_id IN ({marks})"
            " ORDER BY game_id, seat",
            tuple(game_ids),
        )
        seats: dict[int, list[SeatResult]] = {}
        for row in rows:
            seats.setdefault(row["game_id"], []).append(seat_from_row(row))
        return seats

    # ---- standings and profiles --------------------------------------------------------

    async def standings(
        self, guild_id: int, kind: str, season_id: int, offset: int = 0, limit: int = 10
    ) -> list[Standing]:
        """Players of one game and season, best conservative rating first; equal ratings
        share a rank."""
        rows = await self._all(
            f"SELECT {RATING_COLUMNS}, RANK() OVER (ORDER BY mu - ? * sigma DESC) AS place"
            " FROM league_ratings WHERE guild_id = ? AND kind = ? AND season_id = ?"
            " ORDER BY place, games DESC, player_id LIMIT ? OFFSET ?",
            (CONSERVATIVE_SIGMAS, guild_id, kind, season_id, limit, offset),
        )
        players = [row["player_id"] for row in rows]
        trends = await self._trends(guild_id, kind, season_id, players)
        return [
            standing_from_row(row["place"], row, trends.get(row["player_id"], 0)) for row in rows
        ]

    async def count_players(self, guild_id: int, kind: str, season_id: int) -> int:
        row = await self._one(
            "SELECT COUNT(*) AS players FROM league_ratings"
            " WHERE guild_id = ? AND kind = ? AND season_id = ?",
            (guild_id, kind, season_id),
        )
        return int(row["players"]) if row else 0

    async def standing_of(
        self, guild_id: int, kind: str, season_id: int, player_id: int
    ) -> Standing | None:
        row = await self._one(
            f"SELECT {RATING_COLUMNS} FROM league_ratings"
            " WHERE guild_id = ? AND kind = ? AND season_id = ? AND player_id = ?",
            (guild_id, kind, season_id, player_id),
        )
        if row is None:
            return None
        better = await self._one(
            "SELECT COUNT(*) AS better FROM league_ratings WHERE guild_id = ? AND kind = ?"
            " AND season_id = ? AND mu - ? * sigma > ?",
            (
                guild_id,
                kind,
                season_id,
                CONSERVATIVE_SIGMAS,
                row["mu"] - CONSERVATIVE_SIGMAS * row["sigma"],
            ),
        )
        rank = 1 + int(better["better"] if better else 0)
        trends = await self._trends(guild_id, kind, season_id, [player_id])
        return standing_from_row(rank, row, trends.get(player_id, 0))

    async def profile(
        self,
        guild_id: int,
        user_id: int,
        kinds: Sequence[str],
        season_id: int | None = None,
        recent: int = 5,
    ) -> list[GameProfile]:
        """A member's standing and latest games in each of ``kinds`` in one season
        (default: the current one)."""
        if season_id is None:
            season_id = (await self.current_season(guild_id)).id
        return [
            GameProfile(
                kind=kind,
                standing=await self.standing_of(guild_id, kind, season_id, user_id),
                recent=await self.history(
                    guild_id, kind=kind, user_id=user_id, season_id=season_id, limit=recent
                ),
                history=await self.rating_history(guild_id, kind, season_id, user_id),
            )
            for kind in kinds
        ]

    async def rating_history(
        self, guild_id: int, kind: str, season_id: int, user_id: int
    ) -> list[RatedGame]:
        """Every rated game of the member in one game and season, oldest first, with his
        displayed rating before and after it: his season game by game."""
        rows = await self._all(
            f"SELECT s.game_id, r.finished_at, {_RATINGS_OF_SEAT} FROM league_seats s"
            " JOIN league_results r ON r.game_id = s.game_id"
            " WHERE r.guild_id = ? AND r.kind = ? AND r.season_id = ? AND r.rated = 1"
            " AND s.user_id = ? ORDER BY r.finished_at, r.game_id",
            (guild_id, kind, season_id, user_id),
        )
        return [
            RatedGame(
                game_id=row["game_id"],
                finished_at=row["finished_at"],
                rating_before=display_rating(row["mu_before"], row["sigma_before"]),
                rating_after=display_rating(row["mu_after"], row["sigma_after"]),
            )
            for row in rows
        ]

    async def movers(self, guild_id: int, kind: str, season_id: int, since: float) -> Movers:
        """Who rose most and who fell most in one game and season since ``since``: each
        member's displayed rating after his last rated game of the stretch less his rating
        before its first. The shared computer rating is no one's to rise; equal changes
        go to the one with more games, then the name."""
        rows = await self._all(
            f"SELECT s.user_id, s.name, {_RATINGS_OF_SEAT} FROM league_seats s"
            " JOIN league_results r ON r.game_id = s.game_id"
            " WHERE r.guild_id = ? AND r.kind = ? AND r.season_id = ? AND r.rated = 1"
            " AND r.finished_at >= ? AND s.user_id IS NOT NULL"
            " ORDER BY r.finished_at, r.game_id",
            (guild_id, kind, season_id, since),
        )
        first: dict[int, Row] = {}
        last: dict[int, Row] = {}
        games: dict[int, int] = {}
        for row in rows:
            player = row["user_id"]
            first.setdefault(player, row)
            last[player] = row
            games[player] = games.get(player, 0) + 1
        moved = [
            Mover(
                player_id=player,
                name=last[player]["name"],
                change=display_rating(last[player]["mu_after"], last[player]["sigma_after"])
                - display_rating(first[player]["mu_before"], first[player]["sigma_before"]),
                games=games[player],
            )
            for player in first
        ]
        risers = sorted(
            (m for m in moved if m.change > 0), key=lambda m: (-m.change, -m.games, m.name)
        )
        fallers = sorted(
            (m for m in moved if m.change < 0), key=lambda m: (m.change, -m.games, m.name)
        )
        return Movers(risers[0] if risers else None, fallers[0] if fallers else None)

    async def _trends(
        self, guild_id: int, kind: str, season_id: int, player_ids: Iterable[int]
    ) -> dict[int, int]:
        """Each player's displayed rating change over his last few rated games."""
        trends = {}
        for player_id in player_ids:
            if player_id == COMPUTER_PLAYER_ID:
                continue
            rows = await self._all(
                "SELECT s.mu_before, s.sigma_before, s.mu_after, s.sigma_after"
                " FROM league_seats s JOIN league_results r ON r.game_id = s.game_id"
                " WHERE r.guild_id = ? AND r.kind = ? AND r.season_id = ? AND r.rated = 1"
                " AND s.user_id = ? ORDER BY r.finished_at DESC, r.game_id DESC LIMIT ?",
                (guild_id, kind, season_id, player_id, TREND_GAMES),
            )
            trends[player_id] = sum(
                display_rating(row["mu_after"], row["sigma_after"])
                - display_rating(row["mu_before"], row["sigma_before"])
                for row in rows
            )
        return trends

    # ---- seasons -----------------------------------------------------------------------

    async def current_season(self, guild_id: int) -> Season:
        """The newest season of the server; the first one is created on first use."""
        season = await _newest_season(self._db, guild_id)
        if season is not None:
            return season
        async with self._store.transaction() as db:
            return await self._current_season_in(db, guild_id)

    @staticmethod
    async def _current_season_in(db: Executor, guild_id: int) -> Season:
        await db.execute(
            "INSERT INTO league_seasons (guild_id, number, name, started_at, started_by)"
            " VALUES (?, 1, ?, ?, NULL) ON CONFLICT DO NOTHING",
            guild_id,
            FIRST_SEASON_NAME,
            time.time(),
        )
        season = await _newest_season(db, guild_id)
        assert season is not None
        return season

    async def seasons(self, guild_id: int) -> list[Season]:
        """Every season of the server, newest first (at least the implicit first one)."""
        await self.current_season(guild_id)
        rows = await self._all(
            "SELECT id, guild_id, number, name, started_at FROM league_seasons"
            " WHERE guild_id = ? ORDER BY number DESC",
            (guild_id,),
        )
        return [season_from_row(row) for row in rows]

    async def season(self, guild_id: int, season_id: int) -> Season | None:
        """The season with this id if it belongs to the server."""
        row = await self._one(
            "SELECT id, guild_id, number, name, started_at FROM league_seasons"
            " WHERE guild_id = ? AND id = ?",
            (guild_id, season_id),
        )
        return season_from_row(row) if row else None

    async def season_named(self, guild_id: int, name: str) -> Season | None:
        """The season called ``name`` (case-insensitive)."""
        for season in await self.seasons(guild_id):
            if season.name.casefold() == name.strip().casefold():
                return season
        return None

    async def start_season(self, guild_id: int, name: str, started_by: int) -> Season:
        """Start a new season now; raises SeasonNameTaken or ValueError for a bad name."""
        name = " ".join(name.split())
        if not name or len(name) > MAX_SEASON_NAME:
            raise ValueError(f"A season name has 1 to {MAX_SEASON_NAME} characters.")
        current = await self.current_season(guild_id)
        if await self.season_named(guild_id, name) is not None:
            raise SeasonNameTaken(f"There is already a season called “{name}”.")
        async with self._store.transaction() as db:
            await db.execute(
                "INSERT INTO league_seasons (guild_id, number, name, started_at, started_by)"
                " VALUES (?, ?, ?, ?, ?)",
                guild_id,
                current.number + 1,
                name,
                time.time(),
                started_by,
            )
        season = await _newest_season(self._db, guild_id)
        assert season is not None
        return season

    # ---- settings ----------------------------------------------------------------------

    async def settings(self, guild_id: int) -> LeagueSettings:
        return await _settings(self._db, guild_id)

    async def set_rate_computer_games(self, guild_id: int, enabled: bool) -> None:
        async with self._store.transaction() as db:
            await db.execute(
                "INSERT INTO league_settings (guild_id, rate_computer_games) VALUES (?, ?)"
                " ON CONFLICT (guild_id)"
                " DO UPDATE SET rate_computer_games = excluded.rate_computer_games",
                guild_id,
                int(enabled),
            )

    # ---- export ------------------------------------------------------------------------

    async def export_csv(
        self, guild_id: int, season_id: int, link_of: Callable[[RecordedResult], str | None]
    ) -> str:
        """One CSV row per seat of every game recorded in the season, oldest game first;
        ``link_of`` gives a game's link to its board (or None)."""
        results = await self._results(
            f"SELECT {RESULT_COLUMNS} FROM league_results r"
            " WHERE r.guild_id = ? AND r.season_id = ? ORDER BY r.finished_at, r.game_id",
            (guild_id, season_id),
        )
        return results_csv(results, link_of)


async def _with_stored_seats(db: Executor, table: Table) -> Table:
    """``table`` with its seats as stored now, read under the league lock: a member
    forgotten (data.members) since the caller loaded the table is recorded under his
    label, never under the name he asked to have removed."""
    stored = await db.fetchval("SELECT seats FROM games WHERE id = ?", table.id)
    if stored is None:
        return table
    return dataclasses.replace(table, seats=[Seat.from_dict(seat) for seat in json.loads(stored)])


async def _newest_season(db: Executor, guild_id: int) -> Season | None:
    row = await db.fetchrow(
        "SELECT id, guild_id, number, name, started_at FROM league_seasons"
        " WHERE guild_id = ? ORDER BY number DESC LIMIT 1",
        guild_id,
    )
    return season_from_row(row) if row else None


async def _settings(db: Executor, guild_id: int) -> LeagueSettings:
    row = await db.fetchrow(
        "SELECT rate_computer_games FROM league_settings WHERE guild_id = ?", guild_id
    )
    if row is None:
        return LeagueSettings()
    return LeagueSettings(rate_computer_games=bool(row["rate_computer_games"]))


_RATINGS_OF_SEAT = "s.mu_before, s.sigma_before, s.mu_after, s.sigma_after"

# A winning streak's length after this game (what the best streak is compared with).
_STREAK_AFTER = (
    "(CASE WHEN excluded.streak > 0 AND old.streak > 0 THEN old.streak + 1"
    " ELSE excluded.streak END)"
)


async def _add_game(
    db: Executor,
    table: Table,
    season_id: int,
    player_id: int,
    seat: SeatResult,
    mu: float,
    sigma: float,
) -> None:
    """Add one game to a player's season line (created on his first game)."""
    win, loss, draw = (int(seat.outcome == name) for name in ("win", "loss", "draw"))
    step = 1 if win else -1 if loss else 0
    await db.execute(
        "INSERT INTO league_ratings AS old (guild_id, kind, season_id, player_id, name, mu,"
        " sigma, games, wins, losses, draws, points, streak, best_streak, last_game_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (guild_id, kind, season_id, player_id) DO UPDATE SET"
        " name = excluded.name, mu = excluded.mu, sigma = excluded.sigma,"
        " games = old.games + 1, wins = old.wins + excluded.wins,"
        " losses = old.losses + excluded.losses, draws = old.draws + excluded.draws,"
        " points = old.points + excluded.points,"
        " streak = CASE WHEN excluded.streak = 0 THEN 0"
        "   WHEN excluded.streak > 0 AND old.streak > 0 THEN old.streak + 1"
        "   WHEN excluded.streak < 0 AND old.streak < 0 THEN old.streak - 1"
        "   ELSE excluded.streak END,"
        f" best_streak = CASE WHEN {_STREAK_AFTER} > old.best_streak THEN {_STREAK_AFTER}"
        "   ELSE old.best_streak END,"
        " last_game_at = excluded.last_game_at",
        table.guild_id,
        table.kind,
        season_id,
        player_id,
        "Computer" if player_id == COMPUTER_PLAYER_ID else seat.name,
        mu,
        sigma,
        win,
        loss,
        draw,
        seat.points,
        step,
        max(step, 0),
        table.updated_at,
    )


def _player_id(seat: SeatResult) -> int:
    return COMPUTER_PLAYER_ID if seat.user_id is None else seat.user_id


def _group_by_player(seats: list[SeatResult]) -> dict[int, list[SeatResult]]:
    groups: dict[int, list[SeatResult]] = {}
    for seat in seats:
        groups.setdefault(_player_id(seat), []).append(seat)
    return groups
