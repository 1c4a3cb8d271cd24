"""The PostgreSQL side of data.sql: an asyncpg pool shared by every coroutine.

Several bot processes may use one database at once, so everything that must happen once
is decided here: migrations run under an advisory lock, ``lock(key)`` serialises a
transaction with every other process's transaction on the same key.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import logging
import re
from collections.abc import AsyncIterator, Iterable, Sequence
from typing import Any

import asyncpg

from data.sql import (
    ConnectionLost,
    Database,
    DatabaseUnavailable,
    Executor,
    IntegrityError,
    Row,
    redacted,
)

log = logging.getLogger("tablebot.sql")

# Seconds to wait for the server before saying it cannot be reached.
CONNECT_TIMEOUT = 10.0
# Seconds a statement may take before asyncpg gives up on it.
COMMAND_TIMEOUT = 60.0
# What asyncpg raises for a URL it cannot use or a server it cannot reach.
UNREACHABLE = (OSError, TimeoutError, ValueError, OverflowError)
# Every process migrates under this lock; the others wait and find the work done.
MIGRATION_LOCK = "tablebot:migrations"
# What asyncpg raises when the connection broke: the network, class 08 (no connection, a
# failed one), a backend terminated (pg_terminate_backend, a server shut down or crashed,
# one starting up), and its protocol caught mid-operation by the break ("cannot switch to
# state 15; another operation is in progress").
LOST = (
    OSError,
    asyncpg.PostgresConnectionError,
    asyncpg.AdminShutdownError,
    asyncpg.CrashShutdownError,
    asyncpg.CannotConnectNowError,
    asyncpg.exceptions.InternalClientError,
)


@functools.lru_cache(maxsize=512)
def numbered(query: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1``, ``$2``, … (queries hold no literal ``?``)."""
    counter = iter(range(1, query.count("?") + 1))
    return re.sub(r"\?", lambda _: f"${next(counter)}", query)


def _changed_rows(status: str) -> int:
    """Rows changed, from a status such as ``UPDATE 1`` or ``INSERT 0 3``."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


def _breaks(problem: BaseException) -> bool:
    """Whether ``problem`` means the connection broke (an outdated statement cache does
    not: the schema changed under a cached statement, the connection is fine)."""
    outdated = isinstance(problem, asyncpg.exceptions.OutdatedSchemaCacheError)
    return isinstance(problem, LOST) and not outdated


def _closed(connection: asyncpg.Connection) -> bool:
    try:
        return bool(connection.is_closed())
    except asyncpg.InterfaceError:
        # The pool took back a connection that closed under it.
        return True


class _Pool:
    """At most ``size`` connections, the one handed back last handed out first.

    Instead of asyncpg's pool, whose release is a task of its own (shielded from
    cancellation) even when it has nothing to send: a caller awaiting it waited more
    turns of the event loop, each behind every other game's ready work under load, while
    the server had answered in a fraction of a millisecond (bench/bench_scale.py shows a
    call's wait, and the part of it spent waiting for a connection). Here a connection
    goes back at once: the store leaves no session state behind (its advisory locks end
    with their transaction; it never listens, declares a cursor or sets a variable), and
    one still in a transaction (its rollback failed) or closed is dropped. A closed
    connection is also dropped when it is next taken (a killed backend, a restarted
    server); another is opened in its place when one is needed."""

    def __init__(self, url: str, size: int) -> None:
        self._url = url
        self._size = size
        self._idle: list[asyncpg.Connection] = []
        self._busy: set[asyncpg.Connection] = set()
        self._opening = 0
        self._waiting: collections.deque[asyncio.Future[None]] = collections.deque()
        self._all_back = asyncio.Event()
        self._all_back.set()
        self._closed = False

    async def _open(self) -> asyncpg.Connection:
        return await asyncpg.connect(
            self._url, command_timeout=COMMAND_TIMEOUT, timeout=CONNECT_TIMEOUT
        )

    async def start(self) -> None:
        """Open the first connection, so that an unreachable server is told at once."""
        self._idle.append(await self._open())

    @contextlib.asynccontextmanager
    async def connection(self) -> AsyncIterator[asyncpg.Connection]:
        connection = await self.acquire()
        try:
            yield connection
        finally:
            self.release(connection)

    async def acquire(self) -> asyncpg.Connection:
        woken = False
        while True:
            if self._closed:
                raise asyncpg.InterfaceError("the connection pool is closed")
            while self._idle:
                connection = self._idle.pop()
                if not connection.is_closed():
                    return self._lent(connection)
            if len(self._busy) + self._opening < self._size:
                self._opening += 1
                try:
                    connection = await self._open()
                except BaseException:
                    self._wake_one()
                    raise
                finally:
                    self._opening -= 1
                return self._lent(connection)
            waiter = asyncio.get_running_loop().create_future()
            if woken:
                # Woken, but a caller that needed no wait took the connection first: the
                # turn is still this caller's, not the newest waiter's.
                self._waiting.appendleft(waiter)
            else:
                self._waiting.append(waiter)
            try:
                await waiter
                woken = True
            except asyncio.CancelledError:
                if waiter.done() and not waiter.cancelled():
                    # Woken, then cancelled: the turn goes to the next in line.
                    self._wake_one()
                else:
                    # A release may have passed over the cancelled waiter already.
                    with contextlib.suppress(ValueError):
                        self._waiting.remove(waiter)
                raise

    def _lent(self, connection: asyncpg.Connection) -> asyncpg.Connection:
        self._busy.add(connection)
        self._all_back.clear()
        return connection

    def release(self, connection: asyncpg.Connection) -> None:
        self._busy.discard(connection)
        if not self._busy:
            self._all_back.set()
        if connection.is_closed():
            pass
        elif connection.is_in_transaction():
            connection.terminate()
        else:
            self._idle.append(connection)
        self._wake_one()

    def _wake_one(self) -> None:
        while self._waiting:
            waiter = self._waiting.popleft()
            if not waiter.done():
                waiter.set_result(None)
                return

    async def close(self) -> None:
        """Close every connection, once those lent out are back."""
        self._closed = True
        await self._all_back.wait()
        idle, self._idle = self._idle, []
        for connection in idle:
            with contextlib.suppress(*LOST, asyncpg.InterfaceError):
                await connection.close(timeout=CONNECT_TIMEOUT)


class _Connection(Executor):
    """One pooled connection, inside or outside a transaction."""

    dialect = "postgresql"

    def __init__(self, connection: asyncpg.Connection) -> None:
        self._connection = connection

    async def fetch(self, query: str, *args: Any) -> list[Row]:
        try:
            return list(await self._connection.fetch(numbered(query), *args))
        except asyncpg.IntegrityConstraintViolationError as refused:
            raise IntegrityError(str(refused)) from refused

    async def execute(self, query: str, *args: Any) -> int:
        try:
            status = await self._connection.execute(numbered(query), *args)
        except asyncpg.IntegrityConstraintViolationError as refused:
            raise IntegrityError(str(refused)) from refused
        return _changed_rows(status)

    async def executemany(self, query: str, rows: Iterable[Sequence[Any]]) -> None:
        try:
            await self._connection.executemany(numbered(query), list(rows))
        except asyncpg.IntegrityConstraintViolationError as refused:
            raise IntegrityError(str(refused)) from refused

    async def lock(self, key: str) -> None:
        await self._connection.execute("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", key)


class PostgresDatabase(Database):
    dialect = "postgresql"
    claim_suffix = " FOR NO KEY UPDATE SKIP LOCKED"

    def __init__(self, pool: _Pool) -> None:
        self._pool = pool

    @classmethod
    async def connect(cls, url: str, *, pool_size: int = 10) -> PostgresDatabase:
        pool = _Pool(url, pool_size)
        try:
            await pool.start()
        except (*UNREACHABLE, asyncpg.PostgresError, asyncpg.InterfaceError) as problem:
            reason = str(problem) or type(problem).__name__
            if type(problem) is ValueError:
                # The URL's own parser failed; its message may quote part of the password.
                reason = (
                    "the URL is malformed (percent-encode special characters in the user"
                    " name and password: # as %23, / as %2F, ? as %3F, @ as %40)"
                )
            raise DatabaseUnavailable(
                f"cannot open the PostgreSQL database {redacted(url)}: {reason}"
            ) from None
        return cls(pool)

    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[asyncpg.Connection]:
        """A pooled connection; its loss (a restarted or failed-over server, a killed
        backend) raised as ConnectionLost. The pool replaces a lost connection."""
        try:
            # Told apart from the call it precedes: under load, waiting for a connection
            # was most of a call's time (bench/bench_scale.py).
            with self.timed("acquire"):
                connection = await self._pool.acquire()
        except LOST as problem:
            if not _breaks(problem):
                raise
            raise ConnectionLost(str(problem)) from problem
        try:
            yield connection
        except (
            asyncpg.PostgresError,
            asyncpg.InterfaceError,
            asyncpg.exceptions.InternalClientError,
            OSError,
        ) as problem:
            if _breaks(problem) or _closed(connection):
                raise ConnectionLost(str(problem)) from problem
            raise
        finally:
            self._pool.release(connection)

    @contextlib.asynccontextmanager
    async def _acquire(self) -> AsyncIterator[_Connection]:
        async with self._connection() as connection:
            yield _Connection(connection)

    async def fetch(self, query: str, *args: Any) -> list[Row]:
        with self.timed("fetch"):
            async with self._acquire() as connection:
                return await connection.fetch(query, *args)

    async def execute(self, query: str, *args: Any) -> int:
        with self.timed("execute"):
            async with self._acquire() as connection:
                return await connection.execute(query, *args)

    async def executemany(self, query: str, rows: Iterable[Sequence[Any]]) -> None:
        with self.timed("executemany"):
            async with self._acquire() as connection:
                await connection.executemany(query, rows)

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Executor]:
        with self.timed("transaction"):
            async with self._connection() as connection, connection.transaction():
                yield _Connection(connection)

    async def schema_version(self) -> int:
        exists = await self.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
        if not exists:
            return 0
        return int(await self.fetchval("SELECT version FROM schema_version") or 0)

    async def migrate(self, scripts: Sequence[str]) -> None:
        async with self._pool.connection() as connection, connection.transaction():
            await _Connection(connection).lock(MIGRATION_LOCK)
            await connection.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"
            )
            current = await connection.fetchval("SELECT version FROM schema_version")
            if current is None:
                await connection.execute("INSERT INTO schema_version (version) VALUES (0)")
                current = 0
            for number, script in enumerate(scripts, start=1):
                if number > current:
                    await connection.execute(script)
                    log.info("database migrated to schema %d", number)
            await connection.execute(
                "UPDATE schema_version SET version = GREATEST(version, $1)", len(scripts)
            )

    async def close(self) -> None:
        await self._pool.close()
