"""Persistence on SQLite (aiosqlite) or PostgreSQL (asyncpg): schema migrations, tables
(games), action logs, leagues."""

from data.single_instance import DatabaseInUse, DatabaseLock, claim_database
from data.sql import ConnectionLost, DatabaseUnavailable, SchemaTooNew
from data.store import (
    HINTS,
    ChannelBusy,
    LobbyLimitReached,
    LoggedAction,
    Seat,
    StaleVersion,
    Store,
    Table,
)

__all__ = [
    "HINTS",
    "ChannelBusy",
    "ConnectionLost",
    "DatabaseInUse",
    "DatabaseLock",
    "DatabaseUnavailable",
    "LobbyLimitReached",
    "LoggedAction",
    "SchemaTooNew",
    "Seat",
    "StaleVersion",
    "Store",
    "Table",
    "claim_database",
]
