"""Persistence of tables (games in channels) and their action logs.

The store is the only place (with the league) that speaks SQL, through data.sql: an
SQLite file by default, PostgreSQL when given a ``postgresql://`` URL. Every change to a
table is one transaction that checks the version it read, so two racing clicks (in one
process or in two) can never both apply.
"""

from __future__ import annotations

import contextlib
import json
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from data.backends import connect
from data.schema import scripts_for
from data.sql import (
    Database,
    Executor,
    IntegrityError,
    NothingChanged,
    Row,
    SchemaTooNew,
    Statement,
    is_postgres_url,
    redacted,
)

log = logging.getLogger("tablebot.store")

OPEN_STATUSES = ("lobby", "active")


class StaleVersion(Exception):
    """The table changed since it was read; the change was not applied."""


class ChannelBusy(Exception):
    """The channel already has an unfinished game."""

    def __init__(self, table: Table) -> None:
        super().__init__(f"channel {table.channel_id} already has game {table.id}")
        self.table = table


class LobbyLimitReached(Exception):
    """The creator already has as many tables waiting for players on the server as a
    member may have; no table was opened."""

    def __init__(self, waiting: int) -> None:
        super().__init__(f"{waiting} lobbies already waiting")
        self.waiting = waiting


@dataclass
class Seat:
    """One seat at a table: a Discord user, or a computer player when user_id is None.

    ``level`` is a computer player's strength (easy, normal, hard); seats stored before
    levels existed have none and play at the games' default level. ``language`` is the
    language of the member's Discord client when he took the seat or last played (None
    for a computer, and for seats stored before it was kept): his direct messages, which
    he reads without a click that would tell it, are written in it."""

    name: str
    user_id: int | None = None
    level: str | None = None
    language: str | None = None

    @property
    def is_computer(self) -> bool:
        return self.user_id is None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "user_id": self.user_id}
        if self.level is not None:
            data["level"] = self.level
        if self.language is not None:
            data["language"] = self.language
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seat:
        return cls(
            name=data["name"],
            user_id=data["user_id"],
            level=data.get("level"),
            language=data.get("language"),
        )


FINAL_SCORES = "final_scores"
HINTS = "hints"
PRACTICE = "practice"
"""Marks in a table's ``extra`` the practice game a lesson ends with: never rated."""
TOURNAMENT = "tournament"
"""In a table's ``extra``: the tournament it was opened for (``id``, ``name``, ``rated``);
a table of an unrated tournament is never rated."""


@dataclass
class Table:
    """A game in a channel: lobby, running or ended, with its state snapshot."""

    id: int
    kind: str
    guild_id: int
    channel_id: int
    creator_id: int
    status: str
    seats: list[Seat]
    options: dict[str, Any]
    seed: int
    state: dict[str, Any] | None
    version: int
    board_message_id: int | None
    created_at: float
    updated_at: float
    extra: dict[str, Any] = field(default_factory=dict)
    board_version: int | None = None
    """The version the board (or lobby) message shows; behind ``version`` after a fault."""
    due_at: float | None = None
    """When the scheduler must next look at this table (clock, lobby expiry, pause)."""

    @property
    def language(self) -> str:
        """The language of the table's public messages and pictures: its server's when
        the table opened (tables from before languages existed speak English)."""
        return str(self.extra.get("language", "en"))

    def reader_language(self, seat: int) -> str:
        """The language of what only ``seat``'s member reads without asking (his direct
        messages): his client's, as his seat remembers it, else the table's."""
        return self.seats[seat].language or self.language

    @property
    def board_behind(self) -> bool:
        return self.board_version is None or self.board_version < self.version

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return index
        return None

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    @property
    def final_scores(self) -> list[float] | None:
        """Each seat's score as the game ended (higher is better); None before the end."""
        scores = self.extra.get(FINAL_SCORES)
        return None if scores is None else [float(score) for score in scores]

    @property
    def hints_on(self) -> bool:
        """Whether its players may ask the computer for hints: settled before the game
        starts, and such a game is never rated."""
        return bool(self.extra.get(HINTS))

    def finish(self, scores: Sequence[float]) -> None:
        """End the game with these final scores, saved with it for the league."""
        self.status = "finished"
        self.extra[FINAL_SCORES] = [float(score) for score in scores]


@dataclass(frozen=True)
class LoggedAction:
    seq: int
    seat: int | None
    action: str
    at: float


@dataclass(frozen=True)
class FinishedLog:
    """A finished game's seats and its action log."""

    seats: list[Seat]
    actions: list[LoggedAction]


@dataclass(frozen=True)
class NewLobby:
    """What a new table is opened with."""

    kind: str
    guild_id: int
    channel_id: int
    creator_id: int
    seats: list[Seat]
    options: dict[str, Any]
    seed: int
    extra: dict[str, Any] | None = None
    due_at: float | None = None


async def insert_lobby(db: Executor, lobby: NewLobby) -> int:
    """Insert a new table in the lobby (inside the caller's transaction); its id.
    IntegrityError if its channel has an open game."""
    now = time.time()
    game_id = await db.fetchval(
        "INSERT INTO games (kind, guild_id, channel_id, creator_id, status, seats,"
        " options, seed, state, version, board_message_id, created_at, updated_at,"
        " extra, due_at)"
        " VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, NULL, 0, NULL, ?, ?, ?, ?)"
        " RETURNING id",
        lobby.kind,
        lobby.guild_id,
        lobby.channel_id,
        lobby.creator_id,
        _dumps([seat.to_dict() for seat in lobby.seats]),
        _dumps(lobby.options),
        lobby.seed,
        now,
        now,
        _dumps(lobby.extra or {}),
        lobby.due_at,
    )
    return int(game_id)


_COLUMNS = (
    "id, kind, guild_id, channel_id, creator_id, status, seats, options, seed, state, "
    "version, board_message_id, created_at, updated_at, extra, board_version, due_at"
)


def _row_to_table(row: Row) -> Table:
    return Table(
        id=row["id"],
        kind=row["kind"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        creator_id=row["creator_id"],
        status=row["status"],
        seats=[Seat.from_dict(seat) for seat in _loads(row["seats"])],
        options=_loads(row["options"]),
        seed=row["seed"],
        state=_loads(row["state"]) if row["state"] is not None else None,
        version=row["version"],
        board_message_id=row["board_message_id"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        extra=_loads(row["extra"]),
        board_version=row["board_version"],
        due_at=row["due_at"],
    )


def _dumps(value: Any) -> str:
    # orjson: a move's save and every click's lookup encode or decode a whole game state.
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        # A lone surrogate (not UTF-8) in some text: the standard library escapes it.
        return json.dumps(value, separators=(",", ":"))


def _loads(text: str) -> Any:
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        # A row written with an escaped lone surrogate, which orjson refuses.
        return json.loads(text)


class Store:
    """The bot's database (one SQLite connection or a PostgreSQL pool) behind a small
    async interface."""

    def __init__(self, database: Database) -> None:
        self._db = database
        # Told how many actions each successful save appended (the bot's metrics set it).
        self.moves_observer: Callable[[int], None] | None = None

    @classmethod
    async def open(cls, target: str | Path, *, pool_size: int = 10) -> Store:
        """Open (creating and migrating if needed) an SQLite file or a PostgreSQL URL;
        SchemaTooNew if a newer release has migrated it past this code's schema."""
        database = await connect(target, pool_size=pool_size)
        try:
            await _refuse_a_newer_schema(database, target)
            await database.migrate(scripts_for(database.dialect))
        except BaseException:
            await database.close()
            raise
        return cls(database)

    @staticmethod
    async def check_schema(target: str | Path) -> None:
        """SchemaTooNew if a newer release has migrated the database at ``target``;
        nothing is migrated (and a missing SQLite file is not created)."""
        if not is_postgres_url(target) and not Path(target).exists():
            return
        database = await connect(target, pool_size=1)
        try:
            await _refuse_a_newer_schema(database, target)
        finally:
            await database.close()

    async def close(self) -> None:
        await self._db.close()

    @property
    def db(self) -> Database:
        return self._db

    @property
    def dialect(self) -> str:
        return self._db.dialect

    def transaction(self) -> contextlib.AbstractAsyncContextManager[Executor]:
        return self._db.transaction()

    async def schema_version(self) -> int:
        return await self._db.schema_version()

    async def create_table(
        self,
        *,
        kind: str,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        seats: list[Seat],
        options: dict[str, Any],
        seed: int,
        extra: dict[str, Any] | None = None,
        due_at: float | None = None,
        lobby_limit: int | None = None,
    ) -> Table:
        """A new table in the lobby; raises ChannelBusy if the channel has an open game,
        and LobbyLimitReached if its creator already has ``lobby_limit`` lobbies on the
        server (counted and claimed in the one transaction that inserts the table)."""
        lobby = NewLobby(
            kind, guild_id, channel_id, creator_id, seats, options, seed, extra, due_at
        )
        try:
            async with self.transaction() as db:
                if lobby_limit is not None:
                    await _claim_lobby(db, guild_id, creator_id, lobby_limit)
                game_id = await insert_lobby(db, lobby)
        except IntegrityError:
            busy = await self.busy(channel_id)
            if busy is None:
                raise
            raise busy from None
        table = await self.load(game_id)
        assert table is not None
        return table

    async def busy(self, channel_id: int) -> ChannelBusy | None:
        """Why the database refused a new game in ``channel_id``: the game open there
        (None if there is none, so another constraint refused it)."""
        existing = await self.open_table_in(channel_id)
        return None if existing is None else ChannelBusy(existing)

    async def load(self, game_id: int) -> Table | None:
        row = await self._db.lookup(f"SELECT {_COLUMNS} FROM games WHERE id = ?", game_id)
        return _row_to_table(row) if row else None

    async def open_table_in(self, channel_id: int) -> Table | None:
        row = await self._db.fetchrow(
            f"SELECT {_COLUMNS} FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')",
            channel_id,
        )
        return _row_to_table(row) if row else None

    async def latest_ended_in(self, channel_id: int) -> Table | None:
        """The channel's most recent game that has ended (finished or abandoned) after
        it started; lobbies cancelled before the first move do not count."""
        row = await self._db.fetchrow(
            f"SELECT {_COLUMNS} FROM games WHERE channel_id = ?"
            " AND status IN ('finished', 'aborted') AND state IS NOT NULL"
            " ORDER BY id DESC LIMIT 1",
            channel_id,
        )
        return _row_to_table(row) if row else None

    async def unfinished(self) -> list[Table]:
        rows = await self._db.fetch(
            f"SELECT {_COLUMNS} FROM games WHERE status IN ('lobby', 'active') ORDER BY id"
        )
        return [_row_to_table(row) for row in rows]

    async def count_unfinished(self) -> int:
        return int(
            await self._db.fetchval(
                "SELECT COUNT(*) FROM games WHERE status IN ('lobby', 'active')"
            )
            or 0
        )

    async def save(
        self,
        table: Table,
        *,
        expected_version: int,
        actions: Sequence[tuple[int | None, str]] = (),
    ) -> Table:
        """Write the table and append its new actions in one transaction.

        The write happens only if the stored version is still ``expected_version``;
        otherwise nothing changes and StaleVersion is raised. On success the table's
        version is one higher. A table that has ended has nothing left due.
        """
        now = time.time()
        if not table.is_open:
            table.due_at = None
        update = Statement(
            "UPDATE games SET status = ?, seats = ?, options = ?, state = ?, version = ?,"
            " updated_at = ?, extra = ?, due_at = ? WHERE id = ? AND version = ?",
            (
                table.status,
                _dumps([seat.to_dict() for seat in table.seats]),
                _dumps(table.options),
                _dumps(table.state) if table.state is not None else None,
                expected_version + 1,
                now,
                _dumps(table.extra),
                table.due_at,
                table.id,
                expected_version,
            ),
            changes_one=True,
        )
        try:
            if self.dialect == "postgresql":
                await self._save_in_one_statement(update, table.id, actions)
            else:
                await self._db.atomic(
                    [update, _appended(table.id, actions, now)] if actions else [update]
                )
        except NothingChanged:
            raise StaleVersion(
                f"game {table.id} is no longer at version {expected_version}"
            ) from None
        table.version = expected_version + 1
        table.updated_at = now
        if actions and self.moves_observer is not None:
            self.moves_observer(len(actions))
        return table

    async def _save_in_one_statement(
        self, update: Statement, game_id: int, actions: Sequence[tuple[int | None, str]]
    ) -> None:
        """The versioned update and the log's new entries as one statement (atomic by
        itself), so one round trip to PostgreSQL where a transaction of the two took four
        (BEGIN, UPDATE, INSERT, COMMIT). NothingChanged if the version moved on."""
        if not actions:
            changed = await self._db.write(update.query, *update.args)
            expected = 1
        else:
            seats, entries = zip(*actions, strict=True)
            changed = await self._db.write(
                _SAVE_WITH_ACTIONS, *update.args, game_id, list(seats), list(entries)
            )
            expected = len(actions)
        if changed != expected:
            raise NothingChanged(update.query)

    async def log_event(self, table: Table, seat: int | None, event: str) -> None:
        """Append a table event that changes nothing in the game (a hint given) to its
        log, not as a new version: the board's controls stay current. It happens only
        while the game runs at the version ``table`` was read at; otherwise StaleVersion
        and nothing is logged."""
        still = Statement(
            "UPDATE games SET version = version WHERE id = ? AND version = ? AND status = 'active'",
            (table.id, table.version),
            changes_one=True,
        )
        try:
            await self._db.atomic([still, _appended(table.id, [(seat, event)], time.time())])
        except NothingChanged:
            raise StaleVersion(f"game {table.id} is no longer at version {table.version}") from None

    async def save_clock(self, table: Table, *, expected_due: float) -> bool:
        """Write only the table's clock (``extra`` and ``due_at``), not as a new version:
        the board's controls stay current. It happens only if neither the version nor
        the due moment changed since the table was read, so exactly one process does it;
        False if it was not done."""
        changed = await self._db.write(
            "UPDATE games SET extra = ?, due_at = ? WHERE id = ? AND version = ? AND due_at = ?",
            _dumps(table.extra),
            table.due_at,
            table.id,
            table.version,
            expected_due,
        )
        return changed == 1

    async def next_due(self) -> float | None:
        """The earliest moment any open table needs the scheduler (one index lookup)."""
        earliest = await self._db.fetchval("SELECT MIN(due_at) FROM games WHERE due_at IS NOT NULL")
        return float(earliest) if earliest is not None else None

    async def claim_due(self, now: float, *, lease: float, limit: int = 50) -> list[Table]:
        """Claim open tables whose due moment has come: each one's ``due_at`` moves to
        ``now + lease``, so another process (and this one's next tick) passes it by until
        the claimant has saved it or, if it died, the lease has run out.

        On PostgreSQL the rows are picked with FOR UPDATE SKIP LOCKED, so two processes
        claiming at once take different tables; SQLite has one writer. Whatever the
        claimant then does goes through the versioned save, so a move saved first still
        wins.
        """
        skip_locked = " FOR UPDATE SKIP LOCKED" if self.dialect == "postgresql" else ""
        async with self.transaction() as db:
            rows = await db.fetch(
                "UPDATE games SET due_at = ? WHERE id IN (SELECT id FROM games"
                " WHERE due_at IS NOT NULL AND due_at <= ? ORDER BY due_at LIMIT ?"
                f"{skip_locked}) RETURNING {_COLUMNS}",
                now + lease,
                now,
                limit,
            )
        return sorted((_row_to_table(row) for row in rows), key=lambda table: table.id)

    async def set_board_message(self, game_id: int, message_id: int) -> None:
        """Point the table at its board message.

        Not a versioned change: which message shows the board is presentation, and
        bumping the version would outdate the controls on that very message.
        """
        await self._db.write(
            "UPDATE games SET board_message_id = ? WHERE id = ?", message_id, game_id
        )

    async def swap_ping(self, game_id: int, message_id: int | None) -> int | None:
        """Remember ``message_id`` as the game's turn ping; the ping it replaces, if any.

        Kept in the database rather than in the process, so the process that handles
        the next move (any of several) finds the old ping and deletes it.
        """
        if self.dialect == "postgresql":
            # One round trip: the row locked and read as it stands, then replaced.
            row = await self._db.fetchrow(_SWAP_PING, message_id, game_id, game_id)
            old = None if row is None else row["previous"]
            return int(old) if old is not None else None
        # Read, then replace only if unchanged (else read again): one write, not a
        # transaction of four steps, and still no ping lost to a racing swap. The read
        # costs SQLite no round trip (data.sqlite's lookup).
        while True:
            row = await self._db.lookup("SELECT ping_message_id FROM games WHERE id = ?", game_id)
            if row is None:
                return None
            old = row["ping_message_id"]
            replaced = await self._db.write(
                "UPDATE games SET ping_message_id = ?"
                " WHERE id = ? AND COALESCE(ping_message_id, 0) = ?",
                message_id,
                game_id,
                old or 0,
            )
            if replaced:
                return int(old) if old is not None else None

    async def private_message(self, game_id: int, user_id: int, purpose: str) -> int | None:
        """The message a player got about this game for ``purpose``, if any."""
        async with self.transaction() as db:
            found = await db.fetchval(
                "SELECT message_id FROM private_messages"
                " WHERE game_id = ? AND user_id = ? AND purpose = ?",
                game_id,
                user_id,
                purpose,
            )
        return int(found) if found is not None else None

    async def remember_private_message(
        self, game_id: int, user_id: int, purpose: str, message_id: int
    ) -> None:
        """Remember ``message_id`` as the player's message for ``purpose`` in this game."""
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO private_messages (game_id, user_id, purpose, message_id)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (game_id, user_id, purpose)"
                " DO UPDATE SET message_id = excluded.message_id",
                game_id,
                user_id,
                purpose,
                message_id,
            )

    async def claim_once(self, key: str) -> bool:
        """True for exactly one caller per ``key``, across every process sharing the
        database: for work that must happen once (a note, a timeout, a reminder). A key
        about one member in one game ends with ``:<game id>:<member id>``, which is how
        forgetting him (data.members) finds it."""
        claimed = await self._db.write(
            "INSERT INTO claims (key, claimed_at) VALUES (?, ?) ON CONFLICT DO NOTHING",
            key,
            time.time(),
        )
        return claimed == 1

    async def mark_board(self, game_id: int, message_id: int, version: int) -> None:
        """Record that message ``message_id`` now shows the table at ``version``.

        Like set_board_message, not a versioned change. A slower redraw of an older
        version never overwrites the record of a newer one.
        """
        await self._db.write(
            "UPDATE games SET board_message_id = ?, board_version = ?"
            " WHERE id = ? AND (board_version IS NULL OR board_version <= ?)",
            message_id,
            version,
            game_id,
            version,
        )

    async def boards_behind(self) -> list[Table]:
        """Tables whose message does not show their latest version (oldest change first)."""
        rows = await self._db.fetch(
            f"SELECT {_COLUMNS} FROM games"
            " WHERE (board_version IS NULL OR board_version < version)"
            " AND (status IN ('lobby', 'active') OR board_message_id IS NOT NULL)"
            " ORDER BY updated_at"
        )
        return [_row_to_table(row) for row in rows]

    async def open_lobbies_of(self, guild_id: int, creator_id: int) -> int:
        return await _lobbies_of(self._db, guild_id, creator_id)

    async def move_lobby(self, table: Table, channel_id: int) -> None:
        """Move a lobby to another channel; raises ChannelBusy if that one has an open
        game."""
        try:
            await self._db.write(
                "UPDATE games SET channel_id = ? WHERE id = ? AND status = 'lobby'",
                channel_id,
                table.id,
            )
        except IntegrityError:
            existing = await self.open_table_in(channel_id)
            if existing is None:
                raise
            raise ChannelBusy(existing) from None
        table.channel_id = channel_id

    async def delete_lobby(self, game_id: int) -> None:
        """Remove a lobby that never got its message (nothing was played in it)."""
        await self._db.write("DELETE FROM games WHERE id = ? AND status = 'lobby'", game_id)

    async def finished_logs(self, kind: str, games: int, entries: int) -> list[FinishedLog]:
        """The seats and action logs of the newest ``games`` finished games of ``kind``,
        newest first: their last ``entries`` log entries at most, so the oldest game's log
        may begin in its middle."""
        rows = await self._db.fetch(
            "SELECT id, seats FROM games WHERE kind = ? AND status = 'finished'"
            " ORDER BY id DESC LIMIT ?",
            kind,
            games,
        )
        if not rows:
            return []
        ids = [row["id"] for row in rows]
        logged = await self._db.fetch(
            "SELECT game_id, seq, seat, action, at FROM actions"
            f" WHERE game_id IN ({', '.join('?' for _ in ids)})"
            " ORDER BY game_id DESC, seq DESC LIMIT ?",
            *ids,
            entries,
        )
        logs: dict[int, list[LoggedAction]] = {game_id: [] for game_id in ids}
        for entry in reversed(logged):
            logs[entry["game_id"]].append(
                LoggedAction(entry["seq"], entry["seat"], entry["action"], entry["at"])
            )
        return [
            FinishedLog([Seat.from_dict(seat) for seat in _loads(row["seats"])], logs[row["id"]])
            for row in rows
        ]

    async def actions(self, game_id: int) -> list[LoggedAction]:
        rows = await self._db.fetch(
            "SELECT seq, seat, action, at FROM actions WHERE game_id = ? ORDER BY seq", game_id
        )
        return [
            LoggedAction(seq=row["seq"], seat=row["seat"], action=row["action"], at=row["at"])
            for row in rows
        ]


_LOBBIES_OF = (
    "SELECT COUNT(*) FROM games WHERE guild_id = ? AND creator_id = ? AND status = 'lobby'"
)


async def _lobbies_of(db: Executor, guild_id: int, creator_id: int) -> int:
    return int(await db.fetchval(_LOBBIES_OF, guild_id, creator_id) or 0)


async def _claim_lobby(db: Executor, guild_id: int, creator_id: int, limit: int) -> None:
    """Within the transaction that inserts the lobby: refuse it if the creator has
    ``limit`` already. The lock makes every other claim of his on this server wait for
    this transaction's end before it counts (PostgreSQL; SQLite's write transactions
    already run one at a time), so two claims never both see a free place."""
    await db.lock(f"lobbies:{guild_id}:{creator_id}")
    waiting = await _lobbies_of(db, guild_id, creator_id)
    if waiting >= limit:
        raise LobbyLimitReached(waiting)


async def _refuse_a_newer_schema(database: Database, target: str | Path) -> None:
    found, known = await database.schema_version(), len(scripts_for(database.dialect))
    if found > known:
        raise SchemaTooNew(
            f"the database {redacted(target)} is at schema version {found}, newer than this"
            f" release's {known}: a newer release of the bot has upgraded it; run that"
            " release, or restore a backup made before the upgrade."
        )


_SAVE_WITH_ACTIONS = (
    "WITH moved AS (UPDATE games SET status = ?, seats = ?, options = ?, state = ?, version = ?,"
    " updated_at = ?, extra = ?, due_at = ? WHERE id = ? AND version = ?"
    " RETURNING id, updated_at)"
    " INSERT INTO actions (game_id, seq, seat, action, at)"
    " SELECT moved.id, last.seq + logged.n, logged.seat, logged.action, moved.updated_at"
    " FROM moved, (SELECT COALESCE(MAX(seq), 0) AS seq FROM actions WHERE game_id = ?) AS last,"
    " unnest(?::integer[], ?::text[]) WITH ORDINALITY AS logged (seat, action, n)"
)
"""PostgreSQL: the versioned update of a game and its log's new entries in one statement;
it inserts no entry unless the update changed the row (which it holds, so no other save
appends to that log meanwhile)."""

_SWAP_PING = (
    "UPDATE games SET ping_message_id = ? FROM (SELECT ping_message_id FROM games"
    " WHERE id = ? FOR NO KEY UPDATE) AS before WHERE games.id = ?"
    " RETURNING before.ping_message_id AS previous"
)
"""PostgreSQL: the game's turn ping replaced, returning the one it replaces; the row is
locked as it is read, so a racing swap waits and then sees this one's ping."""


def _appended(game_id: int, actions: Sequence[tuple[int | None, str]], now: float) -> Statement:
    """The insert appending ``actions`` to the game's log, each numbered after the log's
    last entry (the previous rows included). It follows the versioned UPDATE, which
    holds the game's row, so no other writer appends to the same log meanwhile."""
    return Statement(
        "INSERT INTO actions (game_id, seq, seat, action, at) VALUES"
        " (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE game_id = ?), ?, ?, ?)",
        rows=[(game_id, game_id, seat, action, now) for seat, action in actions],
    )
