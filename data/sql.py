"""One small SQL interface over SQLite (aiosqlite) and PostgreSQL (asyncpg).

Queries are written once with ``?`` placeholders; the PostgreSQL side numbers them
(``$1``, ``$2``, …). Both sides raise the same ``IntegrityError`` for a broken
constraint, so the store above never sees a driver's exception types.

Outside a transaction each call runs on its own; ``transaction()`` yields an executor
whose calls share one transaction, committed when the block ends and rolled back when
it raises.

The engines live in data.sqlite and data.postgres; data.backends opens the one a target
names. This module imports neither.
"""

from __future__ import annotations

import abc
import contextlib
import re
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol


class Row(Protocol):
    """One row of a result, each column read by its name (``row["seat"]``; a computed
    column is named with ``AS``), never by its position; iterated, its values in the
    query's order. SQLite's ``sqlite3.Row`` and asyncpg's ``Record`` both are one."""

    def __getitem__(self, column: str, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...


class IntegrityError(Exception):
    """A constraint of the schema refused the change (unique key, append-only log, …)."""


class DatabaseUnavailable(Exception):
    """The database could not be opened; the message says where and why (no password)."""


class SchemaTooNew(DatabaseUnavailable):
    """The database's schema is newer than this code's migrations: a newer release has
    used it, and this one would misread what it stores."""


class ConnectionLost(Exception):
    """The connection to the database broke during a call: a transaction in flight was
    rolled back, unless the break came while it committed (then it may have landed)."""


class NothingChanged(Exception):
    """A statement of an all-or-nothing batch that had to change one row changed none
    (the row moved on): the batch was rolled back."""


@dataclass(frozen=True)
class Statement:
    """One statement of an all-or-nothing batch: run with ``args``, or once per row of
    ``rows``. ``changes_one`` makes the batch fail with NothingChanged unless it changed
    exactly one row."""

    query: str
    args: Sequence[Any] = ()
    rows: Sequence[Sequence[Any]] | None = None
    changes_one: bool = False


class Executor(abc.ABC):
    """What runs a query: the database itself, or one open transaction."""

    dialect: str

    @abc.abstractmethod
    async def fetch(self, query: str, *args: Any) -> list[Row]: ...

    async def fetchrow(self, query: str, *args: Any) -> Row | None:
        rows = await self.fetch(query, *args)
        return rows[0] if rows else None

    async def fetchval(self, query: str, *args: Any) -> Any:
        """The first column of the first row: for a query of one value."""
        row = await self.fetchrow(query, *args)
        return next(iter(row)) if row else None

    @abc.abstractmethod
    async def execute(self, query: str, *args: Any) -> int:
        """Run one statement; the number of rows it changed."""

    @abc.abstractmethod
    async def executemany(self, query: str, rows: Iterable[Sequence[Any]]) -> None: ...

    async def write(self, query: str, *args: Any) -> int:
        """One statement that changes data, as a transaction of its own; the number of
        rows it changed. Cheaper than ``transaction()`` around a single statement."""
        return await self.execute(query, *args)

    async def lookup(self, query: str, *args: Any) -> Row | None:
        """One row found by its key, as committed: the read every click makes, so the
        cheapest way there is."""
        return await self.fetchrow(query, *args)

    async def lock(self, key: str) -> None:  # noqa: B027 (SQLite needs no lock)
        """Serialise on ``key`` until the end of the current transaction, across processes.

        Only meaningful inside a transaction. SQLite's write transactions are already
        serialised (one writer per file), so only PostgreSQL takes a lock here.
        """


class Database(Executor):
    """A connection (SQLite) or a pool (PostgreSQL) with transactions and migrations."""

    # Appended to a SELECT that claims rows: other processes skip what one has claimed.
    claim_suffix = ""
    # Told how long each call ("fetch", "execute", "executemany") or whole transaction
    # took, in seconds (the bot's metrics set it); on PostgreSQL also how long each of
    # them waited for a pooled connection ("acquire", included in the call's time).
    observer: Callable[[str, float], None] | None = None

    @contextlib.contextmanager
    def timed(self, operation: str) -> Iterator[None]:
        started = time.perf_counter()
        try:
            yield
        finally:
            if self.observer is not None:
                self.observer(operation, time.perf_counter() - started)

    @abc.abstractmethod
    def transaction(self) -> contextlib.AbstractAsyncContextManager[Executor]: ...

    async def atomic(self, statements: Sequence[Statement]) -> None:
        """Run ``statements`` as one transaction: all of them, or (on any error, or
        NothingChanged) none."""
        async with self.transaction() as db:
            for statement in statements:
                await _run_on(db, statement)

    @abc.abstractmethod
    async def schema_version(self) -> int: ...

    @abc.abstractmethod
    async def migrate(self, scripts: Sequence[str]) -> None:
        """Apply ``scripts`` (migration 1, 2, …) that are newer than the schema."""

    @abc.abstractmethod
    async def close(self) -> None: ...


async def _run_on(db: Executor, statement: Statement) -> None:
    if statement.rows is not None:
        await db.executemany(statement.query, statement.rows)
        return
    changed = await db.execute(statement.query, *statement.args)
    if statement.changes_one and changed != 1:
        raise NothingChanged(statement.query)


def is_postgres_url(target: str | Path) -> bool:
    return str(target).startswith(("postgresql://", "postgres://"))


def redacted(target: str | Path) -> str:
    """``target`` fit for a log line or an error message: a URL's password hidden."""
    text = str(target)
    if not is_postgres_url(text):
        return text
    scheme, _, rest = text.partition("://")
    rest = re.sub(r"([?&]password=)[^&]*", r"\1***", rest)
    credentials, at, location = rest.rpartition("@")
    if not at or ":" not in credentials:
        return f"{scheme}://{rest}"
    user = credentials.split(":", 1)[0]
    return f"{scheme}://{user}:***@{location}"
