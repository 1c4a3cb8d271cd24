"""Opens the database a target names: an SQLite file path or a PostgreSQL URL.

The choice lives here rather than in data.sql, which both engines import: asyncpg is
loaded only when a PostgreSQL URL is opened.
"""

from __future__ import annotations

from pathlib import Path

from data.sql import Database, is_postgres_url
from data.sqlite import SqliteDatabase


async def connect(target: str | Path, *, pool_size: int = 10) -> Database:
    """The database at ``target``: a PostgreSQL URL or an SQLite file path."""
    if is_postgres_url(target):
        from data.postgres import PostgresDatabase

        return await PostgresDatabase.connect(str(target), pool_size=pool_size)
    return await SqliteDatabase.connect(target)
