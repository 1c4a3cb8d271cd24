"""Per-server settings: default clock per game, lobby expiry, tables in threads, the
language of public messages, the role that may organise tournaments.

Whether games with computer players are rated stays in the league's own settings row
(the league reads it when it records a result); ``/settings`` shows and changes both.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from data.store import Store


@dataclass(frozen=True)
class GuildSettings:
    clocks: dict[str, int] = field(default_factory=dict)
    """Time per decision per game key; a game not listed uses the bot's default."""
    lobby_expiry: int | None = None
    """None: the bot's default."""
    threads: bool = False
    language: str | None = None
    """The language of public messages and pictures; None: the server's own locale."""
    tournament_role: int | None = None
    """Members with this role may organise tournaments (besides Manage Server)."""


class SettingsStore:
    """Reads and writes the guild_settings rows on the store's connection."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def get(self, guild_id: int) -> GuildSettings:
        row = await self.store.db.fetchrow(
            "SELECT clocks, lobby_expiry, threads, language, tournament_role FROM guild_settings"
            " WHERE guild_id = ?",
            guild_id,
        )
        if row is None:
            return GuildSettings()
        return GuildSettings(
            clocks={str(key): int(value) for key, value in json.loads(row["clocks"]).items()},
            lobby_expiry=int(row["lobby_expiry"]) if row["lobby_expiry"] is not None else None,
            threads=bool(row["threads"]),
            language=str(row["language"]) if row["language"] is not None else None,
            tournament_role=row["tournament_role"],
        )

    async def _update(self, guild_id: int, assignment: str, value: Any) -> None:
        """Set one column of the server's row (created with defaults if missing)."""
        async with self.store.transaction() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id) VALUES (?)"
                " ON CONFLICT (guild_id) DO NOTHING",
                guild_id,
            )
            await db.execute(
                f"UPDATE guild_settings SET {assignment} WHERE guild_id = ?", value, guild_id
            )

    async def set_clock(self, guild_id: int, kind: str, seconds: int) -> None:
        current = await self.get(guild_id)
        clocks = {**current.clocks, kind: int(seconds)}
        await self._update(guild_id, "clocks = ?", json.dumps(clocks, sort_keys=True))

    async def set_lobby_expiry(self, guild_id: int, seconds: int) -> None:
        await self._update(guild_id, "lobby_expiry = ?", int(seconds))

    async def set_threads(self, guild_id: int, enabled: bool) -> None:
        await self._update(guild_id, "threads = ?", int(enabled))

    async def set_language(self, guild_id: int, language: str | None) -> None:
        await self._update(guild_id, "language = ?", language)

    async def set_tournament_role(self, guild_id: int, role_id: int | None) -> None:
        await self._update(guild_id, "tournament_role = ?", role_id)
