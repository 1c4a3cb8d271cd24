"""Which database the bot opens, from its settings: the bot and the operator's commands
(backups, restores) read the same ones, so they never name two different databases."""

from __future__ import annotations

import os

DEFAULT_DATABASE = "tablebot.sqlite3"


def database_from_env() -> str:
    """``DATABASE_URL`` (PostgreSQL), else ``DATABASE_PATH`` (an SQLite file), else the
    SQLite file in the working directory. The caller reads ``.env`` first."""
    return os.environ.get("DATABASE_URL") or os.environ.get("DATABASE_PATH") or DEFAULT_DATABASE
