"""Tournaments in the database: the event, its entrants, its rounds and their tables.

An entrant is known by a key of the event's own (``e1``, ``e2``, …): the pairings and
results name keys, and only the entrant's row names the member, so forgetting him
(data.members) rewrites one row per event.

Work that must happen once across processes is claimed here, as the turn clocks claim
theirs: a round's row is inserted once (its primary key is the claim; a second process
inserting the same round is refused and pairs nothing), a table is claimed for opening
with a lease (``claim_opening``, as ``Store.claim_due`` leases a clock) and its game is
inserted in the same transaction that sets the table's ``game_id`` where it is still
empty, so a table never gets two games. A result is recorded once, where none is.
Registration changes take a lock on the event, so two joins never both take the last
place.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from data.sql import Executor, IntegrityError, Row
from data.store import NewLobby, Store, insert_lobby

REGISTRATION = "registration"
RUNNING = "running"
PAUSED = "paused"
FINISHED = "finished"
CANCELLED = "cancelled"
UNDER_WAY = (RUNNING, PAUSED)
OVER = (FINISHED, CANCELLED)

Entered = Literal["entered", "again", "full", "closed"]
Left = Literal["left", "withdrawn", "not entered", "playing", "over"]


@dataclass(frozen=True)
class TournamentRow:
    """A tournament as stored."""

    id: int
    guild_id: int
    channel_id: int
    organiser_id: int
    kind: str
    config: dict[str, Any]
    status: str
    starts_at: float | None
    language: str
    announcement_id: int | None
    thread_id: int | None
    log: list[dict[str, Any]]
    placings: list[str] | None
    version: int
    created_at: float
    finished_at: float | None


@dataclass(frozen=True)
class Entrant:
    """One entrant: a member (``member_id``) or a computer (``computer_level``)."""

    key: str
    name: str
    rating: float
    member_id: int | None = None
    computer_level: str | None = None
    language: str | None = None
    joined_round: int = 1
    checked_in: bool = False
    missed: int = 0
    withdrawn: bool = False


@dataclass(frozen=True)
class PairedTable:
    """A table of a round: the entrants' keys in seat order, the game opened for it and
    its result (JSON, as the tournament model writes it) once recorded."""

    tournament_id: int
    round: int
    number: int
    seats: list[str]
    decider_of: int | None = None
    game_id: int | None = None
    result: dict[str, Any] | None = None


@dataclass(frozen=True)
class PairedRound:
    number: int
    byes: list[str]
    tables: list[PairedTable]


_TOURNAMENT_COLUMNS = (
    "id, guild_id, channel_id, organiser_id, kind, config, status, starts_at, language,"
    " announcement_id, thread_id, log, placings, version, created_at, finished_at"
)
_ENTRANT_COLUMNS = (
    "key, name, rating, member_id, computer_level, language, joined_round, checked_in,"
    " missed, withdrawn"
)
_TABLE_COLUMNS = "tournament_id, round, number, seats, decider_of, game_id, result"


def _tournament(row: Row) -> TournamentRow:
    return TournamentRow(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        organiser_id=int(row["organiser_id"]),
        kind=row["kind"],
        config=_loads(row["config"]),
        status=row["status"],
        starts_at=row["starts_at"],
        language=row["language"],
        announcement_id=row["announcement_id"],
        thread_id=row["thread_id"],
        log=_loads(row["log"]),
        placings=None if row["placings"] is None else _loads(row["placings"]),
        version=int(row["version"]),
        created_at=row["created_at"],
        finished_at=row["finished_at"],
    )


def _entrant(row: Row) -> Entrant:
    return Entrant(
        key=row["key"],
        name=row["name"],
        rating=float(row["rating"]),
        member_id=row["member_id"],
        computer_level=row["computer_level"],
        language=row["language"],
        joined_round=int(row["joined_round"]),
        checked_in=bool(row["checked_in"]),
        missed=int(row["missed"]),
        withdrawn=bool(row["withdrawn"]),
    )


def _table(row: Row) -> PairedTable:
    return PairedTable(
        tournament_id=int(row["tournament_id"]),
        round=int(row["round"]),
        number=int(row["number"]),
        seats=_loads(row["seats"]),
        decider_of=row["decider_of"],
        game_id=row["game_id"],
        result=None if row["result"] is None else _loads(row["result"]),
    )


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def _loads(text: str) -> Any:
    return json.loads(text)


def _lock_key(tournament_id: int) -> str:
    return f"tournament:{tournament_id}"


class TournamentBook:
    """Reads and writes tournaments on the store's database."""

    def __init__(self, store: Store) -> None:
        self._store = store

    # ---- the event ----------------------------------------------------------------------

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        organiser_id: int,
        kind: str,
        config: dict[str, Any],
        language: str,
        starts_at: float | None,
    ) -> TournamentRow:
        async with self._store.transaction() as db:
            tournament_id = await db.fetchval(
                "INSERT INTO tournaments (guild_id, channel_id, organiser_id, kind, config,"
                " status, starts_at, language, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " RETURNING id",
                guild_id,
                channel_id,
                organiser_id,
                kind,
                _dumps(config),
                REGISTRATION,
                starts_at,
                language,
                time.time(),
            )
        found = await self.load(int(tournament_id))
        assert found is not None
        return found

    async def load(self, tournament_id: int) -> TournamentRow | None:
        row = await self._store.db.fetchrow(
            f"SELECT {_TOURNAMENT_COLUMNS} FROM tournaments WHERE id = ?", tournament_id
        )
        return None if row is None else _tournament(row)

    async def of_guild(
        self, guild_id: int, statuses: Sequence[str], *, limit: int = 25
    ) -> list[TournamentRow]:
        """The server's tournaments in any of ``statuses``, newest first."""
        marks = ", ".join("?" for _ in statuses)
        rows = await self._store.db.fetch(
            f"SELECT {_TOURNAMENT_COLUMNS} FROM tournaments"
            f" WHERE guild_id = ? AND status IN ({marks}) ORDER BY id DESC LIMIT ?",
            guild_id,
            *statuses,
            limit,
        )
        return [_tournament(row) for row in rows]

    async def under_way(self) -> list[TournamentRow]:
        """Every tournament in registration, running or paused (a restart looks at each)."""
        rows = await self._store.db.fetch(
            f"SELECT {_TOURNAMENT_COLUMNS} FROM tournaments"
            " WHERE status IN (?, ?, ?) ORDER BY id",
            REGISTRATION,
            RUNNING,
            PAUSED,
        )
        return [_tournament(row) for row in rows]

    async def set_announcement(
        self, tournament_id: int, message_id: int, thread_id: int | None
    ) -> None:
        await self._store.db.write(
            "UPDATE tournaments SET announcement_id = ?, thread_id = ? WHERE id = ?",
            message_id,
            thread_id,
            tournament_id,
        )

    async def set_config(self, tournament_id: int, config: dict[str, Any]) -> None:
        await self._store.db.write(
            "UPDATE tournaments SET config = ? WHERE id = ?", _dumps(config), tournament_id
        )

    async def move_status(
        self,
        tournament_id: int,
        from_statuses: Sequence[str],
        to: str,
        *,
        placings: Sequence[str] | None = None,
    ) -> bool:
        """Move the event from one of ``from_statuses`` to ``to``; False (nothing changed)
        if it was in none of them. ``placings`` (entrant keys, first first) with the end."""
        marks = ", ".join("?" for _ in from_statuses)
        ended = time.time() if to in OVER else None
        changed = await self._store.db.write(
            "UPDATE tournaments SET status = ?, version = version + 1,"
            " placings = COALESCE(?, placings), finished_at = COALESCE(?, finished_at)"
            f" WHERE id = ? AND status IN ({marks})",
            to,
            None if placings is None else _dumps(list(placings)),
            ended,
            tournament_id,
            *from_statuses,
        )
        return changed == 1

    async def add_log(self, tournament_id: int, entry: dict[str, Any]) -> None:
        """Append a line to the event's log (a ruling of the organiser's, say)."""
        async with self._store.transaction() as db:
            await db.lock(_lock_key(tournament_id))
            row = await db.fetchrow("SELECT log FROM tournaments WHERE id = ?", tournament_id)
            if row is None:
                return
            log = _loads(row["log"])
            log.append({"at": time.time(), **entry})
            await db.execute(
                "UPDATE tournaments SET log = ? WHERE id = ?", _dumps(log), tournament_id
            )

    # ---- entrants -----------------------------------------------------------------------

    async def enter(
        self,
        tournament_id: int,
        entrant: Entrant,
        *,
        capacity: int,
        late_until_round: int | None = None,
    ) -> tuple[Entered, Entrant | None]:
        """Enter a member (or a computer) under the next free key. While registration is
        open anyone may; once running only if ``late_until_round`` is given and no round
        after it has been paired (his first round is then the next). Refused (nothing
        changed) if he is entered already, the field is full, or entry is closed."""
        async with self._store.transaction() as db:
            await db.lock(_lock_key(tournament_id))
            status = await db.fetchval(
                "SELECT status FROM tournaments WHERE id = ?", tournament_id
            )
            rounds = await _rounds_paired(db, tournament_id)
            late = late_until_round is not None and rounds < late_until_round
            if status != REGISTRATION and not (status == RUNNING and late):
                return "closed", None
            if entrant.member_id is not None and await db.fetchval(
                "SELECT key FROM tournament_entrants WHERE tournament_id = ? AND member_id = ?",
                tournament_id,
                entrant.member_id,
            ):
                return "again", None
            count = int(
                await db.fetchval(
                    "SELECT COUNT(*) FROM tournament_entrants"
                    " WHERE tournament_id = ? AND withdrawn = 0",
                    tournament_id,
                )
            )
            if count >= capacity:
                return "full", None
            numbers = await db.fetch(
                "SELECT key FROM tournament_entrants WHERE tournament_id = ?", tournament_id
            )
            number = 1 + max((int(row["key"][1:]) for row in numbers), default=0)
            entered = Entrant(
                key=f"e{number}",
                name=entrant.name,
                rating=entrant.rating,
                member_id=entrant.member_id,
                computer_level=entrant.computer_level,
                language=entrant.language,
                joined_round=rounds + 1,
                checked_in=entrant.checked_in or entrant.member_id is None,
            )
            await db.execute(
                "INSERT INTO tournament_entrants (tournament_id, key, member_id, name,"
                " computer_level, language, rating, joined_round, checked_in, entered_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                tournament_id,
                entered.key,
                entered.member_id,
                entered.name,
                entered.computer_level,
                entered.language,
                entered.rating,
                entered.joined_round,
                int(entered.checked_in),
                time.time(),
            )
        return "entered", entered

    async def leave(self, tournament_id: int, member_id: int) -> Left:
        """A member leaves: before the start his entry goes; once running he is
        withdrawn, unless he sits at a table of the round that has not ended (refused)."""
        async with self._store.transaction() as db:
            await db.lock(_lock_key(tournament_id))
            status = await db.fetchval(
                "SELECT status FROM tournaments WHERE id = ?", tournament_id
            )
            key = await db.fetchval(
                "SELECT key FROM tournament_entrants"
                " WHERE tournament_id = ? AND member_id = ? AND withdrawn = 0",
                tournament_id,
                member_id,
            )
            if key is None:
                return "not entered"
            if status in OVER:
                return "over"
            if status == REGISTRATION:
                await db.execute(
                    "DELETE FROM tournament_entrants WHERE tournament_id = ? AND key = ?",
                    tournament_id,
                    key,
                )
                return "left"
            if await _playing(db, tournament_id, str(key)):
                return "playing"
            await _withdraw(db, tournament_id, str(key))
        return "withdrawn"

    async def check_in(self, tournament_id: int, member_id: int) -> bool:
        """Check an entered member in; False if he is not entered or the event started."""
        changed = await self._store.db.write(
            "UPDATE tournament_entrants SET checked_in = 1 WHERE tournament_id = ?"
            " AND member_id = ? AND tournament_id IN"
            " (SELECT id FROM tournaments WHERE status = ?)",
            tournament_id,
            member_id,
            REGISTRATION,
        )
        return changed == 1

    async def drop_unchecked(self, tournament_id: int) -> list[Entrant]:
        """Take out the members who did not check in (at a timed start); those dropped."""
        async with self._store.transaction() as db:
            await db.lock(_lock_key(tournament_id))
            rows = await db.fetch(
                f"DELETE FROM tournament_entrants WHERE tournament_id = ? AND checked_in = 0"
                f" AND member_id IS NOT NULL RETURNING {_ENTRANT_COLUMNS}",
                tournament_id,
            )
        return sorted((_entrant(row) for row in rows), key=lambda entrant: entrant.key)

    async def remove(self, tournament_id: int, key: str) -> bool:
        """The organiser removes an entrant: before the start his entry goes, later he
        is withdrawn (his games stay). False if there is no such entrant."""
        async with self._store.transaction() as db:
            await db.lock(_lock_key(tournament_id))
            status = await db.fetchval(
                "SELECT status FROM tournaments WHERE id = ?", tournament_id
            )
            if status == REGISTRATION:
                return bool(
                    await db.execute(
                        "DELETE FROM tournament_entrants WHERE tournament_id = ? AND key = ?",
                        tournament_id,
                        key,
                    )
                )
            return await _withdraw(db, tournament_id, key)

    async def missed_round(self, tournament_id: int, key: str, *, withdraw_after: int) -> bool:
        """Count a round the entrant missed; True if that withdrew him (``withdraw_after``
        missed rounds)."""
        async with self._store.transaction() as db:
            await db.lock(_lock_key(tournament_id))
            missed = await db.fetchval(
                "UPDATE tournament_entrants SET missed = missed + 1"
                " WHERE tournament_id = ? AND key = ? AND withdrawn = 0 RETURNING missed",
                tournament_id,
                key,
            )
            if missed is None or int(missed) < withdraw_after:
                return False
            return await _withdraw(db, tournament_id, key)

    async def entrants(self, tournament_id: int) -> list[Entrant]:
        """The entrants in the order they entered."""
        rows = await self._store.db.fetch(
            f"SELECT {_ENTRANT_COLUMNS} FROM tournament_entrants WHERE tournament_id = ?",
            tournament_id,
        )
        return sorted((_entrant(row) for row in rows), key=lambda e: int(e.key[1:]))

    # ---- rounds -------------------------------------------------------------------------

    async def pair_round(
        self,
        tournament_id: int,
        number: int,
        tables: Sequence[tuple[Sequence[str], int | None]],
        byes: Sequence[str],
    ) -> bool:
        """Store round ``number``'s pairing (each table's seats and the table a decider
        decides): True for the one caller that pairs it, False if it is paired already
        or the event is not running."""
        try:
            async with self._store.transaction() as db:
                await db.lock(_lock_key(tournament_id))
                status = await db.fetchval(
                    "SELECT status FROM tournaments WHERE id = ?", tournament_id
                )
                if status != RUNNING:
                    return False
                await db.execute(
                    "INSERT INTO tournament_rounds (tournament_id, number, byes, paired_at)"
                    " VALUES (?, ?, ?, ?)",
                    tournament_id,
                    number,
                    _dumps(list(byes)),
                    time.time(),
                )
                await db.executemany(
                    "INSERT INTO tournament_tables (tournament_id, round, number, seats,"
                    " decider_of) VALUES (?, ?, ?, ?, ?)",
                    [
                        (tournament_id, number, index, _dumps(list(seats)), decider)
                        for index, (seats, decider) in enumerate(tables, start=1)
                    ],
                )
        except IntegrityError:
            return False
        return True

    async def add_tables(
        self, tournament_id: int, round_number: int, tables: Sequence[tuple[Sequence[str], int]]
    ) -> bool:
        """Add deciders to a paired round, each naming the table it decides; True for the
        one caller that adds them (a table's decider is unique)."""
        try:
            async with self._store.transaction() as db:
                await db.lock(_lock_key(tournament_id))
                existing = await db.fetch(
                    "SELECT number, decider_of FROM tournament_tables"
                    " WHERE tournament_id = ? AND round = ?",
                    tournament_id,
                    round_number,
                )
                decided = {row["decider_of"] for row in existing}
                if any(decider in decided for _, decider in tables):
                    return False
                first = 1 + max(int(row["number"]) for row in existing)
                await db.executemany(
                    "INSERT INTO tournament_tables (tournament_id, round, number, seats,"
                    " decider_of) VALUES (?, ?, ?, ?, ?)",
                    [
                        (tournament_id, round_number, number, _dumps(list(seats)), decider)
                        for number, (seats, decider) in enumerate(tables, start=first)
                    ],
                )
        except IntegrityError:
            return False
        return True

    async def rounds(self, tournament_id: int) -> list[PairedRound]:
        """Every paired round with its tables, in order."""
        rounds = await self._store.db.fetch(
            "SELECT number, byes FROM tournament_rounds WHERE tournament_id = ? ORDER BY number",
            tournament_id,
        )
        tables = await self._store.db.fetch(
            f"SELECT {_TABLE_COLUMNS} FROM tournament_tables WHERE tournament_id = ?"
            " ORDER BY round, number",
            tournament_id,
        )
        by_round: dict[int, list[PairedTable]] = {}
        for row in tables:
            by_round.setdefault(int(row["round"]), []).append(_table(row))
        return [
            PairedRound(int(row["number"]), _loads(row["byes"]), by_round.get(row["number"], []))
            for row in rounds
        ]

    async def claim_opening(
        self, tournament_id: int, round_number: int, number: int, *, now: float, lease: float
    ) -> bool:
        """Claim a table that has no game yet for opening, for ``lease`` seconds: True for
        one caller; another may claim it again only once the lease ran out (the claimant
        died before opening it)."""
        changed = await self._store.db.write(
            "UPDATE tournament_tables SET opening_until = ? WHERE tournament_id = ?"
            " AND round = ? AND number = ? AND game_id IS NULL"
            " AND (opening_until IS NULL OR opening_until <= ?)",
            now + lease,
            tournament_id,
            round_number,
            number,
            now,
        )
        return changed == 1

    async def open_table(
        self, tournament_id: int, round_number: int, number: int, lobby: NewLobby
    ) -> int | None:
        """Insert the table's game and tie it to the table in one transaction; its id,
        or None (nothing inserted) if the table has a game already."""
        try:
            async with self._store.transaction() as db:
                game_id = await insert_lobby(db, lobby)
                tied = await db.execute(
                    "UPDATE tournament_tables SET game_id = ? WHERE tournament_id = ?"
                    " AND round = ? AND number = ? AND game_id IS NULL",
                    game_id,
                    tournament_id,
                    round_number,
                    number,
                )
                if tied != 1:
                    raise _AlreadyOpened()
        except _AlreadyOpened:
            return None
        return game_id

    async def table_of_game(self, game_id: int) -> PairedTable | None:
        row = await self._store.db.fetchrow(
            f"SELECT {_TABLE_COLUMNS} FROM tournament_tables WHERE game_id = ?", game_id
        )
        return None if row is None else _table(row)

    async def record_result(
        self, tournament_id: int, round_number: int, number: int, result: dict[str, Any]
    ) -> bool:
        """Record a table's result: True for the one caller that records it."""
        changed = await self._store.db.write(
            "UPDATE tournament_tables SET result = ? WHERE tournament_id = ? AND round = ?"
            " AND number = ? AND result IS NULL",
            _dumps(result),
            tournament_id,
            round_number,
            number,
        )
        return changed == 1

    # ---- what a member's profile shows ----------------------------------------------------

    async def finished_with(self, guild_id: int, member_id: int) -> list[tuple[TournamentRow, str]]:
        """The server's finished tournaments the member played in, newest first, each with
        his entrant key (his placing is its index in ``placings``)."""
        rows = await self._store.db.fetch(
            f"SELECT {_TOURNAMENT_COLUMNS}, (SELECT key FROM tournament_entrants e"
            " WHERE e.tournament_id = tournaments.id AND e.member_id = ?) AS entrant"
            " FROM tournaments WHERE guild_id = ? AND status = ? AND id IN"
            " (SELECT tournament_id FROM tournament_entrants WHERE member_id = ?)"
            " ORDER BY id DESC",
            member_id,
            guild_id,
            FINISHED,
            member_id,
        )
        return [(_tournament(row), str(row["entrant"])) for row in rows]


class _AlreadyOpened(Exception):
    """Rolls back a game inserted for a table another caller opened first."""


async def _rounds_paired(db: Executor, tournament_id: int) -> int:
    return int(
        await db.fetchval(
            "SELECT COUNT(*) FROM tournament_rounds WHERE tournament_id = ?", tournament_id
        )
    )


async def _playing(db: Executor, tournament_id: int, key: str) -> bool:
    """Whether ``key`` sits at a table of the event that has no result yet."""
    rows = await db.fetch(
        "SELECT seats FROM tournament_tables WHERE tournament_id = ? AND result IS NULL",
        tournament_id,
    )
    return any(key in _loads(row["seats"]) for row in rows)


async def _withdraw(db: Executor, tournament_id: int, key: str) -> bool:
    changed = await db.execute(
        "UPDATE tournament_entrants SET withdrawn = 1"
        " WHERE tournament_id = ? AND key = ? AND withdrawn = 0",
        tournament_id,
        key,
    )
    return changed == 1
