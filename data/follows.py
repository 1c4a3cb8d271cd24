"""Who follows what. A member follows a table, to get a direct message when it ends, or
another member of a server, to get one when a tournament round that member plays in
starts. Each follow keeps the language of the follower's client when he asked, as the
direct message is read without a click that would tell it.

A table's end is told to each follower once, across every process: whoever delivers the
message first takes the table's follows out of the database (``claim_ended``), and a
process that comes second finds none. A follow and that claim take the same lock, so a
member who follows a table as it ends either is among the claimed or is refused (the
table has ended); no follow is left behind on an ended table.
"""

from __future__ import annotations

import time
from collections.abc import Collection
from dataclasses import dataclass

from data.sql import Row
from data.store import OPEN_STATUSES, Store

ENDED = ("finished", "aborted")


@dataclass(frozen=True)
class TableFollow:
    game_id: int
    follower_id: int
    language: str
    followed_at: float


@dataclass(frozen=True)
class MemberFollow:
    guild_id: int
    member_id: int
    follower_id: int
    language: str
    followed_at: float


def _table_follow(row: Row) -> TableFollow:
    return TableFollow(row["game_id"], row["follower_id"], row["language"], row["followed_at"])


def _member_follow(row: Row) -> MemberFollow:
    return MemberFollow(
        row["guild_id"], row["member_id"], row["follower_id"], row["language"], row["followed_at"]
    )


class FollowBook:
    """Reads and writes the table_follows and member_follows rows on the store's database."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def toggle_table(self, game_id: int, follower_id: int, language: str) -> bool | None:
        """Follow the table, or stop following it if he does: True if he follows it now,
        False if he stopped; None (nothing changed) if it has ended or does not exist."""
        async with self._store.transaction() as db:
            await db.lock(_table_key(game_id))
            stopped = await db.execute(
                "DELETE FROM table_follows WHERE game_id = ? AND follower_id = ?",
                game_id,
                follower_id,
            )
            if stopped:
                return False
            status = await db.fetchval("SELECT status FROM games WHERE id = ?", game_id)
            if status not in OPEN_STATUSES:
                return None
            await db.execute(
                "INSERT INTO table_follows (game_id, follower_id, language, followed_at)"
                " VALUES (?, ?, ?, ?)",
                game_id,
                follower_id,
                language,
                time.time(),
            )
        return True

    async def claim_ended(self, game_id: int) -> list[TableFollow]:
        """Take the follows of an ended table out of the database: the followers whose
        direct message the caller now owes (none if another caller took them first, or
        the table has not ended)."""
        async with self._store.transaction() as db:
            await db.lock(_table_key(game_id))
            status = await db.fetchval("SELECT status FROM games WHERE id = ?", game_id)
            if status not in ENDED:
                return []
            rows = await db.fetch(
                "DELETE FROM table_follows WHERE game_id = ?"
                " RETURNING game_id, follower_id, language, followed_at",
                game_id,
            )
        return sorted(
            (_table_follow(row) for row in rows), key=lambda f: (f.followed_at, f.follower_id)
        )

    async def ended_and_followed(self) -> list[int]:
        """The ended tables whose followers have not been told (a process stopped
        between a table's end and its messages), oldest first."""
        rows = await self._store.db.fetch(
            "SELECT DISTINCT f.game_id FROM table_follows f JOIN games g ON g.id = f.game_id"
            f" WHERE g.status IN ({', '.join('?' for _ in ENDED)}) ORDER BY f.game_id",
            *ENDED,
        )
        return [int(row["game_id"]) for row in rows]

    async def toggle_member(
        self, guild_id: int, member_id: int, follower_id: int, language: str
    ) -> bool:
        """Follow a member of the server, or stop following him: True if he follows him now."""
        async with self._store.transaction() as db:
            stopped = await db.execute(
                "DELETE FROM member_follows"
                " WHERE guild_id = ? AND member_id = ? AND follower_id = ?",
                guild_id,
                member_id,
                follower_id,
            )
            if stopped:
                return False
            await db.execute(
                "INSERT INTO member_follows"
                " (guild_id, member_id, follower_id, language, followed_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                guild_id,
                member_id,
                follower_id,
                language,
                time.time(),
            )
        return True

    async def followers_of_members(
        self, guild_id: int, member_ids: Collection[int]
    ) -> list[MemberFollow]:
        """The follows of any of ``member_ids`` on the server, by follower."""
        if not member_ids:
            return []
        marks = ", ".join("?" for _ in member_ids)
        rows = await self._store.db.fetch(
            "SELECT guild_id, member_id, follower_id, language, followed_at FROM member_follows"
            f" WHERE guild_id = ? AND member_id IN ({marks}) ORDER BY follower_id, member_id",
            guild_id,
            *member_ids,
        )
        return [_member_follow(row) for row in rows]


def _table_key(game_id: int) -> str:
    return f"follows:{game_id}"
