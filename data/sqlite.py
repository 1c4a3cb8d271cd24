"""The SQLite side of data.sql: one aiosqlite connection in WAL mode, with a read-only
connection for quick lookups and a writer for single statements, both on the event
loop's thread, and a second writer for batches on a thread of its own."""

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
CHECKPOINT_EVERY = 100
"""Batches written on the event loop's thread between two checkpoints of the log on the
batch writer's thread: SQLite's own default (1,000 pages) is some 200 moves."""


class SqliteDatabase(Database):
    """One aiosqlite connection in WAL mode; one write transaction at a time."""

    dialect = "sqlite"

    def __init__(
        self,
        connection: aiosqlite.Connection,
        reader: sqlite3.Connection | None = None,
        writer: sqlite3.Connection | None = None,
        quick_writer: sqlite3.Connection | None = None,
    ) -> None:
        self._db = connection
        self._reader = reader
        self._writer = writer
        self._quick_writer = quick_writer
        self._batches_since_checkpoint = 0
        self._checkpoint: asyncio.Future[sqlite3.Cursor] | None = None
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
        return cls(connection, _open_reader(path), _open_writer(path), _open_quick_writer(path))

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
        the shared connection (and be undone with, were that one rolled back).

        Run on the event loop's thread: a single statement in WAL mode takes
        microseconds, and the two a move writes this way (the board's version, the turn
        ping) were two hand-offs to aiosqlite's thread and back, the largest part of the
        bot's own CPU per move after discord.py's (bench/bench_load.py). The write lock
        keeps this process's other writers out, so SQLite answers busy only while
        another process writes the file (a backup, say); then the statement is handed
        off like any other."""
        async with self._write_lock:
            if self._quick_writer is not None:
                try:
                    with self.timed("execute"):
                        return self._quick_writer.execute(query, args).rowcount
                except sqlite3.IntegrityError as refused:
                    raise IntegrityError(str(refused)) from refused
                except sqlite3.OperationalError as busy:
                    log.info("quick write refused (%s); writing through the connection", busy)
            return await self.execute(query, *args)

    async def executemany(self, query: str, rows: Iterable[Sequence[Any]]) -> None:
        try:
            with self.timed("executemany"):
                await self._db.executemany(query, rows)
        except sqlite3.IntegrityError as refused:
            raise IntegrityError(str(refused)) from refused

    async def atomic(self, statements: Sequence[Statement]) -> None:
        """The whole batch as one transaction on the event loop's thread, like ``write``
        (the move's save: a transaction of separate statements was four hand-offs to
        aiosqlite's thread, then one to a thread of its own, which still cost more CPU
        than the batch). Should SQLite answer busy, the batch is rolled back and run on
        the batch writer's thread, which may wait. Every ``CHECKPOINT_EVERY`` batches
        that thread checkpoints the log, so the loop never does."""
        if self._writer is None:
            await super().atomic(statements)
            return
        loop = asyncio.get_running_loop()
        async with self._write_lock:
            with self.timed("transaction"):
                try:
                    if self._quick_writer is not None:
                        try:
                            _run_batch(self._quick_writer, statements)
                        except sqlite3.OperationalError as busy:
                            log.info("quick batch refused (%s); writing on a thread", busy)
                        else:
                            self._checkpoint_now_and_then(loop)
                            return
                    await loop.run_in_executor(
                        self._writer_thread, _run_batch, self._writer, statements
                    )
                except sqlite3.IntegrityError as refused:
                    raise IntegrityError(str(refused)) from refused

    def _checkpoint_now_and_then(self, loop: asyncio.AbstractEventLoop) -> None:
        self._batches_since_checkpoint += 1
        if self._batches_since_checkpoint < CHECKPOINT_EVERY or self._writer is None:
            return
        self._batches_since_checkpoint = 0
        # A passive checkpoint waits for nobody; the thread runs one at a time.
        self._checkpoint = loop.run_in_executor(
            self._writer_thread, self._writer.execute, "PRAGMA wal_checkpoint(PASSIVE)"
        )

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
        for quick in (self._reader, self._quick_writer):
            if quick is not None:
                quick.close()
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


def _open_quick_writer(path: str | Path) -> sqlite3.Connection:
    """A writer for the event loop's thread that never waits for a lock, and never
    checkpoints the log (a checkpoint writes the database file and may sync it: the
    batch writer's thread does that, off the loop)."""
    writer = sqlite3.connect(path, timeout=0, isolation_level=None)
    for pragma in (*WRITER_PRAGMAS, "wal_autocheckpoint=0"):
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
        db.execute("COMMIT")
    except BaseException:
        # A COMMIT refused (busy) leaves the transaction open: it is ended here too.
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise


def _open_reader(path: str | Path) -> sqlite3.Connection:
    """A read-only connection for the event loop's thread that never waits for a lock."""
    reader = sqlite3.connect(path, timeout=0, isolation_level=None)
    reader.row_factory = sqlite3.Row
    reader.execute("PRAGMA query_only=ON")
    return reader
