"""Per-server settings: default clock per game, lobby expiry, tables in threads.

Whether games with computer players are rated stays in the league's own settings row
(the league reads it when it records a result); ``/settings`` shows and changes both.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from data.store import Store
from games.clock import DEFAULT_CLOCK, DEFAULT_LOBBY_EXPIRY


@dataclass(frozen=True)
class GuildSettings:
    clocks: dict[str, int] = field(default_factory=dict)
    """Time per decision per game key; a game not listed uses DEFAULT_CLOCK."""
    lobby_expiry: int = DEFAULT_LOBBY_EXPIRY
    threads: bool = False

    def clock_for(self, kind: str) -> int:
        return self.clocks.get(kind, DEFAULT_CLOCK)


class SettingsStore:
    """Reads and writes the guild_settings rows on the store's connection."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def get(self, guild_id: int) -> GuildSettings:
        async with self.store.connection.execute(
            "SELECT clocks, lobby_expiry, threads FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        ) as cursor:
            row = await cursor.fetchone()
        if row is None:
            return GuildSettings()
        return GuildSettings(
            clocks={str(key): int(value) for key, value in json.loads(row[0]).items()},
            lobby_expiry=int(row[1]) if row[1] is not None else DEFAULT_LOBBY_EXPIRY,
            threads=bool(row[2]),
        )

    async def _ensure(self, guild_id: int) -> None:
        async with self.store.transaction() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id) VALUES (?) ON CONFLICT DO NOTHING",
                (guild_id,),
            )

    async def set_clock(self, guild_id: int, kind: str, seconds: int) -> None:
        current = await self.get(guild_id)
        clocks = {**current.clocks, kind: int(seconds)}
        await self._ensure(guild_id)
        async with self.store.transaction() as db:
            await db.execute(
                "UPDATE guild_settings SET clocks = ? WHERE guild_id = ?",
                (json.dumps(clocks, sort_keys=True), guild_id),
            )

    async def set_lobby_expiry(self, guild_id: int, seconds: int) -> None:
        await self._ensure(guild_id)
        async with self.store.transaction() as db:
            await db.execute(
                "UPDATE guild_settings SET lobby_expiry = ? WHERE guild_id = ?",
                (int(seconds), guild_id),
            )

    async def set_threads(self, guild_id: int, enabled: bool) -> None:
        await self._ensure(guild_id)
        async with self.store.transaction() as db:
            await db.execute(
                "UPDATE guild_settings SET threads = ? WHERE guild_id = ?",
                (int(enabled), guild_id),
            )
