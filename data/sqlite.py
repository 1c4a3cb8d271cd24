"""The SQLite side of data.sql: one aiosqlite connection in WAL mode, with a read-only
connection for quick lookups on the event loop's thread and a second writer for batches."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import aiosqlite

from data.sql import Database, Executor, IntegrityError, NothingChanged, Row, Statement

log = logging.getLogger("tablebot.sql")

# secure_delete: what a write frees is zeroed, so a forgotten member's old rows
# (data.members) do not linger in the file's free space. Many builds of SQLite do it by
# default (this project's machines' does), others do not, so it is asked for.
WRITER_PRAGMAS = ("synchronous=NORMAL", "foreign_keys=ON", "secure_delete=ON")


class SqliteDatabase(Database):
    """One aiosqlite connection in WAL mode; one write transaction at a time."""

    dialect = "sqlite"

    def __init__(
        self,
        connection: aiosqlite.Connection,
        reader: sqlite3.Connection | None = None,
        writer: sqlite3.Connection | None = None,
    ) -> None:
        self._db = connection
        self._reader = reader
        self._writer = writer
        self._writer_thread = ThreadPoolExecutor(1, "sqlite-batches") if writer else None
        self._write_lock = asyncio.Lock()

    @classmethod
    async def connect(cls, path: str | Path) -> SqliteDatabase:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        connection = await aiosqlite.connect(path, isolation_level=None)
        connection.row_factory = sqlite3.Row
        # Each statement read to its end: a pragma left half-read keeps a read snapshot
        # open, and a later write on this connection would fail while others write.
        for pragma in ("journal_mode=WAL", *WRITER_PRAGMAS):
            async with connection.execute(f"PRAGMA {pragma}") as cursor:
                await cursor.fetchall()
        if str(path) == ":memory:":
            return cls(connection)
        return cls(connection, _open_reader(path), _open_writer(path))

    @property
    def connection(self) -> aiosqlite.Connection:
        return self._db

    # Each call is one hand-off to aiosqlite's thread and back, and under load those
    # hand-offs were the bot's largest CPU cost (bench/bench_load.py): a query is read to
    # its end in one, and a statement's cursor is not closed in another (a finished
    # statement holds nothing; the cursor goes with its last reference).
    async def fetch(self, query: str, *args: Any) -> list[Row]:
        try:
            with self.timed("fetch"):
                return list(await self._db.execute_fetchall(query, args))
        except sqlite3.IntegrityError as refused:
            raise IntegrityError(str(refused)) from refused

    async def lookup(self, query: str, *args: Any) -> Row | None:
        """Read on the event loop's own thread, through a second, read-only connection:
        a lookup by key takes microseconds, where the hand-off to the connection's thread
        and back cost far more. A reader in WAL mode never waits for the writer; should
        SQLite still answer busy (while it recovers the log, say), the lookup is handed
        off like any other query."""
        if self._reader is not None:
            try:
                with self.timed("fetch"):
                    # Read to the end, so that no read snapshot stays open.
                    rows = self._reader.execute(query, args).fetchall()
                return rows[0] if rows else None
            except sqlite3.OperationalError as busy:
                log.info("quick read refused (%s); reading through the connection", busy)
        return await self.fetchrow(query, *args)

    async def execute(self, query: str, *args: Any) -> int:
        try:
            with self.timed("execute"):
                cursor = await self._db.execute(query, args)
                return cursor.rowcount
        except sqlite3.IntegrityError as refused:
            raise IntegrityError(str(refused)) from refused

    async def write(self, query: str, *args: Any) -> int:
        """Outside any other coroutine's transaction, which it would otherwise join on
        the shared connection (and be undone with, were that one rolled back)."""
        async with self._write_lock:
            return await self.execute(query, *args)

    async def executemany(self, query: str, rows: Iterable[Sequence[Any]]) -> None:
        try:
            with self.timed("executemany"):
                await self._db.executemany(query, rows)
        except sqlite3.IntegrityError as refused:
            raise IntegrityError(str(refused)) from refused

    async def atomic(self, statements: Sequence[Statement]) -> None:
        """The whole batch in one hand-off to a thread of its own, on a second connection
        (the write lock keeps the two connections' writes apart): the move's save, which
        in a transaction of separate statements was four hand-offs."""
        if self._writer is None:
            await super().atomic(statements)
            return
        loop = asyncio.get_running_loop()
        async with self._write_lock:
            with self.timed("transaction"):
                try:
                    await loop.run_in_executor(
                        self._writer_thread, _run_batch, self._writer, statements
                    )
                except sqlite3.IntegrityError as refused:
                    raise IntegrityError(str(refused)) from refused

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Executor]:
        """One write transaction at a time on the shared connection.

        Without the lock, a second BEGIN while another coroutine's transaction awaits
        would fail, and its ROLLBACK would undo the first one's work.
        """
        async with self._write_lock:
            with self.timed("transaction"):
                async with self._transaction():
                    yield self

    @contextlib.asynccontextmanager
    async def _transaction(self) -> AsyncIterator[None]:
        await self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            await self._db.execute("ROLLBACK")
            raise
        await self._db.execute("COMMIT")

    async def schema_version(self) -> int:
        return int(await self.fetchval("PRAGMA user_version") or 0)

    async def migrate(self, scripts: Sequence[str]) -> None:
        current = await self.schema_version()
        for number, script in enumerate(scripts, start=1):
            if number <= current:
                continue
            try:
                await self._db.executescript(
                    f"BEGIN IMMEDIATE; {script}; PRAGMA user_version={number}; COMMIT;"
                )
            except BaseException:
                if self._db.in_transaction:
                    await self._db.execute("ROLLBACK")
                raise
            log.info("database migrated to schema %d", number)

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.close()
        if self._writer is not None and self._writer_thread is not None:
            await asyncio.get_running_loop().run_in_executor(
                self._writer_thread, self._writer.close
            )
            self._writer_thread.shutdown()
        await self._db.close()


def _open_writer(path: str | Path) -> sqlite3.Connection:
    """A connection for batches, used by one thread at a time under the write lock."""
    writer = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    for pragma in WRITER_PRAGMAS:
        writer.execute(f"PRAGMA {pragma}")
    return writer


def _run_batch(db: sqlite3.Connection, statements: Sequence[Statement]) -> None:
    db.execute("BEGIN IMMEDIATE")
    try:
        for statement in statements:
            if statement.rows is not None:
                db.executemany(statement.query, statement.rows)
                continue
            changed = db.execute(statement.query, statement.args).rowcount
            if statement.changes_one and changed != 1:
                raise NothingChanged(statement.query)
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _open_reader(path: str | Path) -> sqlite3.Connection:
    """A read-only connection for the event loop's thread that never waits for a lock."""
    reader = sqlite3.connect(path, timeout=0, isolation_level=None)
    reader.row_factory = sqlite3.Row
    reader.execute("PRAGMA query_only=ON")
    return reader
