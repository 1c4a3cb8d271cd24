"""Persistence on SQLite (aiosqlite) or PostgreSQL (asyncpg): schema migrations, tables
(games), action logs, leagues."""

from data.store import ChannelBusy, LoggedAction, Seat, StaleVersion, Store, Table

__all__ = ["ChannelBusy", "LoggedAction", "Seat", "StaleVersion", "Store", "Table"]
