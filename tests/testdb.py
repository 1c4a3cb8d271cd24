"""The database a test runs on: an SQLite file, or a PostgreSQL schema of its own.

Tests that should hold on both engines take the ``database`` fixture (parametrised in
conftest.py); the bot opens ``database.target`` and the test reads what it wrote through
``rows``/``run``, synchronously, with the same ``?`` placeholders on both engines.

PostgreSQL is the server at ``TEST_DATABASE_URL`` (default: the local one). Each test
gets a fresh schema, selected through the URL's ``search_path``, dropped afterwards.
"""

from __future__ import annotations

import asyncio
import functools
import os
import secrets
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import asyncpg

from data.postgres import numbered

DEFAULT_POSTGRES_URL = "postgresql://postgres@127.0.0.1:5432/test"
# Why tests of several processes on one database run on PostgreSQL only.
ONE_PROCESS_PER_SQLITE_FILE = "one process per SQLite file; several processes share PostgreSQL"


def postgres_url() -> str:
    return os.environ.get("TEST_DATABASE_URL") or DEFAULT_POSTGRES_URL


@functools.cache
def postgres_problem() -> str | None:
    """None if the test server answers, else one line saying why not."""
    try:
        _in_thread(_ping(postgres_url()))
    except (TimeoutError, OSError, asyncpg.PostgresError) as problem:
        return f"PostgreSQL at {postgres_url()} is not reachable ({problem})"
    return None


async def _ping(url: str) -> None:
    connection = await asyncpg.connect(url, timeout=3)
    await connection.close()


def _in_thread(coroutine: Any) -> Any:
    """Run a coroutine to its end from synchronous code, even inside a running loop."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


class TestDatabase:
    engine: str
    target: str

    def rows(self, query: str, *args: Any) -> list[dict[str, Any]]:
        raise NotImplementedError

    def run(self, query: str, *args: Any) -> None:
        raise NotImplementedError


class SqliteTestDatabase(TestDatabase):
    engine = "sqlite"

    def __init__(self, path: Path) -> None:
        self.path = path
        self.target = str(path)

    def rows(self, query: str, *args: Any) -> list[dict[str, Any]]:
        with sqlite3.connect(self.path) as db:
            db.row_factory = sqlite3.Row
            return [dict(row) for row in db.execute(query, args)]

    def run(self, query: str, *args: Any) -> None:
        with sqlite3.connect(self.path) as db:
            db.execute(query, args)


class PostgresTestDatabase(TestDatabase):
    """A schema of its own on the test server; ``target`` selects it for the bot."""

    engine = "postgresql"

    def __init__(self, server_url: str) -> None:
        self.server_url = server_url
        self.schema = "test_" + secrets.token_hex(6)
        separator = "&" if "?" in server_url else "?"
        self.target = f"{server_url}{separator}{urlencode({'search_path': self.schema})}"

    def create(self) -> None:
        _in_thread(self._admin(f"CREATE SCHEMA {self.schema}"))

    def drop(self) -> None:
        _in_thread(self._admin(f"DROP SCHEMA IF EXISTS {self.schema} CASCADE"))

    async def _admin(self, statement: str) -> None:
        connection = await asyncpg.connect(self.server_url)
        try:
            await connection.execute(statement)
        finally:
            await connection.close()

    def rows(self, query: str, *args: Any) -> list[dict[str, Any]]:
        return list(_in_thread(self._fetch(query, args)))

    def run(self, query: str, *args: Any) -> None:
        _in_thread(self._fetch(query, args))

    async def _fetch(self, query: str, args: tuple[Any, ...]) -> list[dict[str, Any]]:
        connection = await asyncpg.connect(self.target)
        try:
            return [dict(row) for row in await connection.fetch(numbered(query), *args)]
        finally:
            await connection.close()


class PostgresDatabaseOfItsOwn(PostgresTestDatabase):
    """A whole database on the test server, as an operator's bot has, for the tools that
    take a database (pg_dump, pg_restore): a schema's ``search_path`` is asyncpg's."""

    def __init__(self, server_url: str) -> None:
        super().__init__(server_url)
        self.name = "tablebot_" + secrets.token_hex(6)
        self.target = f"{server_url.rpartition('/')[0]}/{self.name}"

    def create(self) -> None:
        _in_thread(self._admin(f"CREATE DATABASE {self.name}"))

    def drop(self) -> None:
        _in_thread(self._admin(f"DROP DATABASE IF EXISTS {self.name} WITH (FORCE)"))


def both_engines() -> Any:
    """Mark a test (or a module, as ``pytestmark``) to run on SQLite and on PostgreSQL."""
    import pytest

    return pytest.mark.parametrize("database", ["sqlite", "postgresql"], indirect=True)
