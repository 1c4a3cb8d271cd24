"""What the bot stores about one member, and forgetting him.

The columns that name a member (data/schema.py), and nothing else does:

- ``games``: ``creator_id``; ``seats`` (JSON: each seat's name, user id and the language
  of his client); ``extra``
  (JSON: the member a lobby was reserved for, the members whose seat a computer took over);
- ``league_seats``: ``user_id`` and ``name``; ``league_ratings``: ``player_id`` and
  ``name``; ``league_seasons``: ``started_by``;
- ``private_messages``: ``user_id``; ``claims``: a key about a member in a game ends with
  ``:<game id>:<member id>`` (the note that his DMs are closed);
- ``table_follows``: ``follower_id``; ``member_follows``: ``follower_id`` and ``member_id``
  (who follows whom);
- ``puzzle_answers``: ``user_id`` (his answers to a server's puzzles);
- ``tournaments``: ``organiser_id`` and ``log`` (JSON: the organiser's rulings name him);
  ``tournament_entrants``: ``member_id`` and ``name`` (the pairings and results name an
  entrant by a key of the event's own, never by his id).

The action log, a game's state, ``league_results``, the rematch offers, the settings
tables and the shard leases know seats by their number only, or no member at all.
``lesson_progress`` names the member by ``user_id`` but belongs to no server and to no one
else's record: it is deleted, not rewritten (``data/lessons.py``). So are the follows, his
and those of him: they only say whom to send a message (``data/follows.py``), and his
puzzle answers (``data/reviews.py``). A game's review knows seats by their number only.

A member's data is looked up and forgotten per server (``guild_id``), or on every server
at once (``guild_id`` None). Forgetting rewrites every row that names him under a
``Pseudonym`` drawn at random for each server, in one transaction: his results and
ratings stay, so the opponents' results, rating changes and standings stay true, but
nothing names him any more, and nothing kept links the label back to him.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import orjson

from data.sql import Executor, Row
from data.store import OPEN_STATUSES, Seat, Store

LABEL_DIGITS = 6
IN_CLAUSE = 500
"""Game ids per ``IN (…)`` list: far below either engine's limit on parameters."""

_GAME_COLUMNS = (
    "id",
    "kind",
    "guild_id",
    "channel_id",
    "creator_id",
    "status",
    "seats",
    "extra",
    "board_message_id",
    "created_at",
    "updated_at",
)
_RESULT_COLUMNS = (
    "game_id",
    "guild_id",
    "kind",
    "season_id",
    "season",
    "finished_at",
    "rated",
    "unrated_reason",
    "seat",
    "user_id",
    "name",
    "placement",
    "points",
    "forfeit",
    "outcome",
    "mu_before",
    "sigma_before",
    "mu_after",
    "sigma_after",
)
_RATING_COLUMNS = (
    "guild_id",
    "kind",
    "season_id",
    "season",
    "player_id",
    "name",
    "mu",
    "sigma",
    "games",
    "wins",
    "losses",
    "draws",
    "points",
    "streak",
    "best_streak",
    "last_game_at",
)
_SEASON_COLUMNS = ("id", "guild_id", "number", "name", "started_at", "started_by")


@dataclass(frozen=True)
class Pseudonym:
    """Who a forgotten member is in the rows he leaves behind: a negative id, which no
    Discord id is (so it names nobody else and never a computer, which has none), and a
    label made from it.

    Drawn at random rather than derived from his id with a keyed hash: whoever held the
    key could tell whose label it is; a number drawn once and kept nowhere beside his id
    cannot be traced back. It is stable where it must be: every row of the server is
    rewritten with the same one."""

    user_id: int
    name: str

    @classmethod
    def drawn(cls) -> Pseudonym:
        token = 1 + secrets.randbelow(2**62)
        return cls(-token, f"Player {token % 16**LABEL_DIGITS:0{LABEL_DIGITS}x}")


@dataclass(frozen=True)
class TableEntry:
    """A game that names the member: what it is, and his part in it."""

    game_id: int
    kind: str
    guild_id: int
    channel_id: int
    status: str
    created_at: float
    updated_at: float
    board_message_id: int | None
    seats: list[tuple[int, str, str | None]]
    """His seats: their number, the name the seat was given and the language of his
    client it remembers (None if it remembers none)."""
    created: bool
    invited: bool
    substituted: bool
    """A computer played his seat for a while after his clock ran out."""
    actions: int = 0
    """Entries of the action log made at his seats."""

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES


@dataclass
class ServerRecords:
    """Every stored row that names the member on one server; league rows as column →
    value, as stored."""

    guild_id: int
    tables: list[TableEntry] = field(default_factory=list)
    results: list[dict[str, Any]] = field(default_factory=list)
    ratings: list[dict[str, Any]] = field(default_factory=list)
    seasons_started: list[dict[str, Any]] = field(default_factory=list)
    private_messages: list[dict[str, Any]] = field(default_factory=list)
    claims: list[dict[str, Any]] = field(default_factory=list)
    follows: list[dict[str, Any]] = field(default_factory=list)
    """The tables (``game_id``) and members (``member_id``) he follows."""
    followers: int = 0
    """How many members follow him (who they are is theirs to know)."""
    puzzles: list[dict[str, Any]] = field(default_factory=list)
    """His answers to the server's puzzles."""
    tournaments: list[dict[str, Any]] = field(default_factory=list)
    """The tournaments he entered (``key``, ``name``, …) or organised (``organiser``)."""

    @property
    def is_empty(self) -> bool:
        return not any(
            (
                self.tables,
                self.results,
                self.ratings,
                self.seasons_started,
                self.private_messages,
                self.claims,
                self.follows,
                self.followers,
                self.puzzles,
                self.tournaments,
            )
        )


class StillPlaying(Exception):
    """The member sits at (or is invited to) an unfinished table: forgetting him would
    take a seat from a running game."""

    def __init__(self, tables: Sequence[TableEntry]) -> None:
        super().__init__(f"unfinished games: {', '.join(str(t.game_id) for t in tables)}")
        self.tables = list(tables)


class MemberData:
    """Looks up and forgets what the store keeps about one member."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def records(self, user_id: int, guild_id: int | None) -> list[ServerRecords]:
        """Everything stored about ``user_id`` on the server (every server when
        ``guild_id`` is None), one entry per server that has any, by server id."""
        return await _records_in(self._store.db, user_id, guild_id)

    async def unfinished_tables(self, user_id: int, guild_id: int | None) -> list[TableEntry]:
        """The lobbies and running games that name the member."""
        tables = await _tables_naming(self._store.db, user_id, guild_id)
        return [table for table in tables if table.is_open]

    async def forget(self, user_id: int, guild_id: int | None) -> list[ServerRecords]:
        """Rewrite every row naming ``user_id`` on the server (every server when
        ``guild_id`` is None) under a new pseudonym per server, all or nothing; what
        named him, per server. Raises StillPlaying, changing nothing, while a lobby or
        running game names him."""
        async with self._store.transaction() as db:
            servers = await _records_in(db, user_id, guild_id)
            for guild in sorted(records.guild_id for records in servers):
                # A game of his that has just finished may be being recorded in the league
                # at this moment by another process: that holds the same lock, and reads
                # the seats once it has it, so it records them either before this or
                # under the label. Read again under the locks.
                await db.lock(f"league:{guild}")
            found = await _records_in(db, user_id, guild_id)
            still_open = [table for records in found for table in records.tables if table.is_open]
            if still_open:
                raise StillPlaying(still_open)
            for records in found:
                await _rewrite(db, user_id, records, Pseudonym.drawn())
        if self._store.dialect == "sqlite":
            # The write-ahead log still holds the rows as they were: written back into
            # the file (whose freed space is zeroed) and emptied, it holds nothing of him.
            await self._store.db.write("PRAGMA wal_checkpoint(TRUNCATE)")
        return found


async def _records_in(db: Executor, user_id: int, guild_id: int | None) -> list[ServerRecords]:
    by_server: dict[int, ServerRecords] = {}

    def server(guild: int) -> ServerRecords:
        return by_server.setdefault(guild, ServerRecords(guild))

    for table in await _tables_naming(db, user_id, guild_id):
        server(table.guild_id).tables.append(table)
    for row in await _results_of(db, user_id, guild_id):
        server(row["guild_id"]).results.append(row)
    for row in await _ratings_of(db, user_id, guild_id):
        server(row["guild_id"]).ratings.append(row)
    for row in await _seasons_started_by(db, user_id, guild_id):
        server(row["guild_id"]).seasons_started.append(row)
    for row in await _private_messages_of(db, user_id, guild_id):
        server(row.pop("guild_id")).private_messages.append(row)
    for row in await _claims_about(db, user_id):
        guild = await _guild_of_game(db, row["game_id"])
        if guild is not None and guild_id in (None, guild):
            server(guild).claims.append(row)
    for row in await _follows_of(db, user_id, guild_id):
        server(row.pop("guild_id")).follows.append(row)
    for guild, followers in await _followers_of(db, user_id, guild_id):
        server(guild).followers = followers
    for row in await _puzzle_answers_of(db, user_id, guild_id):
        server(row.pop("guild_id")).puzzles.append(row)
    for row in await _tournaments_of(db, user_id, guild_id):
        server(row.pop("guild_id")).tournaments.append(row)
    return [by_server[guild] for guild in sorted(by_server)]


# ---- finding ------------------------------------------------------------------------------


def _scoped(query: str, guild_id: int | None, column: str, args: list[Any]) -> str:
    if guild_id is None:
        return query
    args.append(guild_id)
    return f"{query} AND {column} = ?"


async def _tables_naming(db: Executor, user_id: int, guild_id: int | None) -> list[TableEntry]:
    """Every game whose row names the member: its creator, a seat, or in its extra.

    The JSON columns are searched as text for his id (a Discord id is long enough that
    its digits appear nowhere by chance), then each row is read properly."""
    pattern = f"%{user_id}%"
    args: list[Any] = [user_id, pattern, pattern]
    query = _scoped(
        f"SELECT {', '.join(_GAME_COLUMNS)} FROM games"
        " WHERE (creator_id = ? OR seats LIKE ? OR extra LIKE ?)",
        guild_id,
        "guild_id",
        args,
    )
    rows = await db.fetch(f"{query} ORDER BY id", *args)
    tables = [entry for row in rows if (entry := _entry(row, user_id)) is not None]
    actions = await _actions_at_seats(db, tables)
    return [replace(table, actions=actions.get(table.game_id, 0)) for table in tables]


def _entry(row: Row, user_id: int) -> TableEntry | None:
    seats = [Seat.from_dict(seat) for seat in _loads(row["seats"])]
    extra = _loads(row["extra"])
    his_seats = [
        (index, seat.name, seat.language)
        for index, seat in enumerate(seats)
        if seat.user_id == user_id
    ]
    created = row["creator_id"] == user_id
    invited = user_id in (extra.get("invited") or [])
    substituted = user_id in (extra.get("away") or {}).values()
    if not (his_seats or created or _names(extra, user_id)):
        return None
    return TableEntry(
        game_id=row["id"],
        kind=row["kind"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        status=row["status"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        board_message_id=row["board_message_id"],
        seats=his_seats,
        created=created,
        invited=invited,
        substituted=substituted,
    )


async def _actions_at_seats(db: Executor, tables: Sequence[TableEntry]) -> dict[int, int]:
    seats = {table.game_id: {seat for seat, _, _ in table.seats} for table in tables}
    counted: dict[int, int] = {}
    for chunk in _chunks(list(seats)):
        rows = await db.fetch(
            "SELECT game_id, seat, COUNT(*) AS entries FROM actions"
            f" WHERE game_id IN ({', '.join('?' for _ in chunk)}) GROUP BY game_id, seat",
            *chunk,
        )
        for row in rows:
            if row["seat"] in seats[row["game_id"]]:
                counted[row["game_id"]] = counted.get(row["game_id"], 0) + int(row["entries"])
    return counted


def _chunks(ids: list[int]) -> Iterable[list[int]]:
    for start in range(0, len(ids), IN_CLAUSE):
        yield ids[start : start + IN_CLAUSE]


async def _results_of(db: Executor, user_id: int, guild_id: int | None) -> list[dict[str, Any]]:
    args: list[Any] = [user_id]
    query = _scoped(
        "SELECT s.game_id, r.guild_id, r.kind, r.season_id, n.name AS season, r.finished_at,"
        " r.rated, r.unrated_reason, s.seat, s.user_id, s.name, s.placement, s.points,"
        " s.forfeit, s.outcome, s.mu_before, s.sigma_before, s.mu_after, s.sigma_after"
        " FROM league_seats s JOIN league_results r ON r.game_id = s.game_id"
        " JOIN league_seasons n ON n.id = r.season_id WHERE s.user_id = ?",
        guild_id,
        "r.guild_id",
        args,
    )
    rows = await db.fetch(f"{query} ORDER BY r.finished_at, s.game_id, s.seat", *args)
    return [_as_dict(_RESULT_COLUMNS, row) for row in rows]


async def _ratings_of(db: Executor, user_id: int, guild_id: int | None) -> list[dict[str, Any]]:
    args: list[Any] = [user_id]
    query = _scoped(
        "SELECT g.guild_id, g.kind, g.season_id, n.name AS season, g.player_id, g.name, g.mu,"
        " g.sigma, g.games, g.wins, g.losses, g.draws, g.points, g.streak, g.best_streak,"
        " g.last_game_at FROM league_ratings g JOIN league_seasons n ON n.id = g.season_id"
        " WHERE g.player_id = ?",
        guild_id,
        "g.guild_id",
        args,
    )
    rows = await db.fetch(f"{query} ORDER BY g.guild_id, n.number, g.kind", *args)
    return [_as_dict(_RATING_COLUMNS, row) for row in rows]


async def _seasons_started_by(
    db: Executor, user_id: int, guild_id: int | None
) -> list[dict[str, Any]]:
    args: list[Any] = [user_id]
    query = _scoped(
        f"SELECT {', '.join(_SEASON_COLUMNS)} FROM league_seasons WHERE started_by = ?",
        guild_id,
        "guild_id",
        args,
    )
    rows = await db.fetch(f"{query} ORDER BY guild_id, number", *args)
    return [_as_dict(_SEASON_COLUMNS, row) for row in rows]


async def _private_messages_of(
    db: Executor, user_id: int, guild_id: int | None
) -> list[dict[str, Any]]:
    columns = ("game_id", "user_id", "purpose", "message_id", "guild_id")
    args: list[Any] = [user_id]
    query = _scoped(
        "SELECT p.game_id, p.user_id, p.purpose, p.message_id, g.guild_id"
        " FROM private_messages p JOIN games g ON g.id = p.game_id WHERE p.user_id = ?",
        guild_id,
        "g.guild_id",
        args,
    )
    rows = await db.fetch(f"{query} ORDER BY p.game_id, p.purpose", *args)
    return [_as_dict(columns, row) for row in rows]


async def _claims_about(db: Executor, user_id: int) -> list[dict[str, Any]]:
    """The claims whose key ends with ``:<game id>:<member id>``."""
    rows = await db.fetch(
        "SELECT key, claimed_at FROM claims WHERE key LIKE ? ORDER BY key", f"%:{user_id}"
    )
    claims = []
    for row in rows:
        *_, game, member = str(row["key"]).split(":")
        if member == str(user_id) and game.isdigit():
            claims.append(
                {"key": row["key"], "game_id": int(game), "claimed_at": row["claimed_at"]}
            )
    return claims


async def _follows_of(db: Executor, user_id: int, guild_id: int | None) -> list[dict[str, Any]]:
    """The tables and members he follows, each with its server."""
    tables_args: list[Any] = [user_id]
    tables = _scoped(
        "SELECT f.game_id, f.language, f.followed_at, g.guild_id FROM table_follows f"
        " JOIN games g ON g.id = f.game_id WHERE f.follower_id = ?",
        guild_id,
        "g.guild_id",
        tables_args,
    )
    members_args: list[Any] = [user_id]
    members = _scoped(
        "SELECT member_id, language, followed_at, guild_id FROM member_follows"
        " WHERE follower_id = ?",
        guild_id,
        "guild_id",
        members_args,
    )
    followed = [
        _as_dict(("game_id", "language", "followed_at", "guild_id"), row)
        for row in await db.fetch(f"{tables} ORDER BY f.game_id", *tables_args)
    ]
    followed += [
        _as_dict(("member_id", "language", "followed_at", "guild_id"), row)
        for row in await db.fetch(f"{members} ORDER BY member_id", *members_args)
    ]
    return followed


async def _followers_of(db: Executor, user_id: int, guild_id: int | None) -> list[tuple[int, int]]:
    """(server, how many members follow him there) for each server where some do."""
    args: list[Any] = [user_id]
    query = _scoped(
        "SELECT guild_id, COUNT(*) AS followers FROM member_follows WHERE member_id = ?",
        guild_id,
        "guild_id",
        args,
    )
    rows = await db.fetch(f"{query} GROUP BY guild_id ORDER BY guild_id", *args)
    return [(int(row["guild_id"]), int(row["followers"])) for row in rows]


async def _puzzle_answers_of(
    db: Executor, user_id: int, guild_id: int | None
) -> list[dict[str, Any]]:
    columns = ("kind", "puzzle", "solved", "answered_at", "guild_id")
    args: list[Any] = [user_id]
    query = _scoped(
        f"SELECT {', '.join(columns)} FROM puzzle_answers WHERE user_id = ?",
        guild_id,
        "guild_id",
        args,
    )
    rows = await db.fetch(f"{query} ORDER BY answered_at, puzzle", *args)
    return [_as_dict(columns, row) for row in rows]


async def _tournaments_of(
    db: Executor, user_id: int, guild_id: int | None
) -> list[dict[str, Any]]:
    """His entries in tournaments, and the tournaments he organised, each with its server."""
    entered_args: list[Any] = [user_id]
    entered = _scoped(
        "SELECT e.tournament_id, t.kind, t.status, e.key, e.name, e.joined_round,"
        " e.checked_in, e.missed, e.withdrawn, e.entered_at, t.guild_id"
        " FROM tournament_entrants e JOIN tournaments t ON t.id = e.tournament_id"
        " WHERE e.member_id = ?",
        guild_id,
        "t.guild_id",
        entered_args,
    )
    entered_columns = (
        "tournament_id",
        "kind",
        "status",
        "key",
        "name",
        "joined_round",
        "checked_in",
        "missed",
        "withdrawn",
        "entered_at",
        "guild_id",
    )
    found = [
        _as_dict(entered_columns, row)
        for row in await db.fetch(f"{entered} ORDER BY e.tournament_id", *entered_args)
    ]
    organised_args: list[Any] = [user_id]
    organised = _scoped(
        "SELECT id, kind, status, created_at, guild_id FROM tournaments WHERE organiser_id = ?",
        guild_id,
        "guild_id",
        organised_args,
    )
    found += [
        _as_dict(("tournament_id", "kind", "status", "created_at", "guild_id"), row)
        | {"organiser": True}
        for row in await db.fetch(f"{organised} ORDER BY id", *organised_args)
    ]
    return found


async def _guild_of_game(db: Executor, game_id: int) -> int | None:
    guild = await db.fetchval("SELECT guild_id FROM games WHERE id = ?", game_id)
    return int(guild) if guild is not None else None


# ---- forgetting ---------------------------------------------------------------------------


async def _rewrite(db: Executor, user_id: int, records: ServerRecords, alias: Pseudonym) -> None:
    """Every row of one server that names the member, under ``alias``."""
    for table in records.tables:
        row = await db.fetchrow(
            "SELECT creator_id, seats, extra FROM games WHERE id = ?", table.game_id
        )
        assert row is not None
        seats = [
            Seat(alias.name, alias.user_id, seat.level) if seat.user_id == user_id else seat
            for seat in (Seat.from_dict(seat) for seat in _loads(row["seats"]))
        ]
        await db.execute(
            "UPDATE games SET creator_id = ?, seats = ?, extra = ? WHERE id = ?",
            alias.user_id if row["creator_id"] == user_id else row["creator_id"],
            _dumps([seat.to_dict() for seat in seats]),
            _dumps(_replaced(_loads(row["extra"]), user_id, alias.user_id)),
            table.game_id,
        )
    guild = records.guild_id
    await db.execute(
        "UPDATE league_seats SET user_id = ?, name = ? WHERE user_id = ?"
        " AND game_id IN (SELECT game_id FROM league_results WHERE guild_id = ?)",
        alias.user_id,
        alias.name,
        user_id,
        guild,
    )
    await db.execute(
        "UPDATE league_ratings SET player_id = ?, name = ? WHERE player_id = ? AND guild_id = ?",
        alias.user_id,
        alias.name,
        user_id,
        guild,
    )
    await db.execute(
        "UPDATE league_seasons SET started_by = ? WHERE started_by = ? AND guild_id = ?",
        alias.user_id,
        user_id,
        guild,
    )
    # What these rows hold (which message to edit, which note was sent) is of no use
    # once his games have ended, so they go rather than live on under the label.
    for message in records.private_messages:
        await db.execute(
            "DELETE FROM private_messages WHERE game_id = ? AND user_id = ? AND purpose = ?",
            message["game_id"],
            user_id,
            message["purpose"],
        )
    for claim in records.claims:
        await db.execute("DELETE FROM claims WHERE key = ?", claim["key"])
    await db.execute(
        "DELETE FROM table_follows WHERE follower_id = ?"
        " AND game_id IN (SELECT id FROM games WHERE guild_id = ?)",
        user_id,
        guild,
    )
    await db.execute(
        "DELETE FROM member_follows WHERE guild_id = ? AND (follower_id = ? OR member_id = ?)",
        guild,
        user_id,
        user_id,
    )
    await db.execute(
        "DELETE FROM puzzle_answers WHERE guild_id = ? AND user_id = ?", guild, user_id
    )
    await db.execute(
        "UPDATE tournament_entrants SET member_id = ?, name = ? WHERE member_id = ?"
        " AND tournament_id IN (SELECT id FROM tournaments WHERE guild_id = ?)",
        alias.user_id,
        alias.name,
        user_id,
        guild,
    )
    for row in await db.fetch(
        "SELECT id, organiser_id, log FROM tournaments WHERE guild_id = ?", guild
    ):
        log = _loads(row["log"])
        if row["organiser_id"] == user_id or _names(log, user_id):
            await db.execute(
                "UPDATE tournaments SET organiser_id = ?, log = ? WHERE id = ?",
                alias.user_id if row["organiser_id"] == user_id else row["organiser_id"],
                _dumps(_replaced(log, user_id, alias.user_id)),
                row["id"],
            )


def _names(value: Any, user_id: int) -> bool:
    """Whether ``value`` (decoded JSON) holds ``user_id`` anywhere."""
    if isinstance(value, dict):
        return any(_names(item, user_id) for item in value.values())
    if isinstance(value, list):
        return any(_names(item, user_id) for item in value)
    return type(value) is int and value == user_id


def _replaced(value: Any, user_id: int, alias: int) -> Any:
    """``value`` (decoded JSON) with ``user_id`` replaced by ``alias`` wherever it is: a
    Discord id is unique, so a number equal to his id is his id."""
    if isinstance(value, dict):
        return {key: _replaced(item, user_id, alias) for key, item in value.items()}
    if isinstance(value, list):
        return [_replaced(item, user_id, alias) for item in value]
    return alias if type(value) is int and value == user_id else value


def _as_dict(columns: Sequence[str], row: Row) -> dict[str, Any]:
    return dict(zip(columns, row, strict=True))


def _dumps(value: Any) -> str:
    """JSON as the store writes it (orjson; the standard library for a lone surrogate)."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return json.dumps(value, separators=(",", ":"))


def _loads(text: str) -> Any:
    return json.loads(text)
