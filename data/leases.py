"""Shard leases: which process runs which shard of a sharded bot, kept alive by heartbeats.

A process claims its shards at start-up and renews the claim every few seconds. A shard
whose lease has not been renewed for ``ttl`` seconds is free again, so a killed process's
shards can be taken over after at most ``ttl`` seconds. Times come from the database's
clock, so processes on different machines agree on them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from data.sql import Database, Executor

LEASE_LOCK = "tablebot:shard-leases"


@dataclass(frozen=True)
class HeldShard:
    """A live lease of another process on a shard this process wanted."""

    shard_id: int
    shard_count: int
    holder: str
    seconds_left: float


def _now(db: Database) -> str:
    """SQL for the database clock in Unix seconds."""
    if db.dialect == "postgresql":
        return "EXTRACT(EPOCH FROM clock_timestamp())::float8"
    return "((julianday('now') - 2440587.5) * 86400.0)"


async def claim(
    db: Database, shard_ids: Sequence[int], shard_count: int, holder: str, ttl: float
) -> list[HeldShard]:
    """Take the leases of ``shard_ids`` for ``holder``; if another process holds any of them
    (or runs the bot with another shard count), change nothing and return those leases."""
    now = _now(db)
    async with db.transaction() as tx:
        await tx.lock(LEASE_LOCK)
        rows = await tx.fetch(
            f"SELECT shard_id, shard_count, holder, expires_at - {now} AS seconds_left"
            " FROM shard_leases"
            f" WHERE holder <> ? AND expires_at > {now}",
            holder,
        )
        held = [
            HeldShard(
                shard_id=int(row["shard_id"]),
                shard_count=int(row["shard_count"]),
                holder=str(row["holder"]),
                seconds_left=float(row["seconds_left"]),
            )
            for row in rows
        ]
        conflicts = [h for h in held if h.shard_id in shard_ids or h.shard_count != shard_count]
        if conflicts:
            return conflicts
        await _write(tx, now, shard_ids, shard_count, holder, ttl)
    return []


async def _write(
    tx: Executor, now: str, shard_ids: Sequence[int], shard_count: int, holder: str, ttl: float
) -> None:
    for shard_id in shard_ids:
        await tx.execute(
            "INSERT INTO shard_leases (shard_id, shard_count, holder, expires_at)"
            f" VALUES (?, ?, ?, {now} + ?) ON CONFLICT (shard_id) DO UPDATE SET"
            " shard_count = excluded.shard_count, holder = excluded.holder,"
            " expires_at = excluded.expires_at",
            shard_id,
            shard_count,
            holder,
            ttl,
        )


async def renew(db: Database, shard_ids: Sequence[int], holder: str, ttl: float) -> bool:
    """Extend ``holder``'s leases; False if any of them was lost (expired and taken)."""
    marks = ", ".join("?" for _ in shard_ids)
    async with db.transaction() as tx:
        renewed = await tx.execute(
            f"UPDATE shard_leases SET expires_at = {_now(db)} + ?"
            f" WHERE holder = ? AND shard_id IN ({marks})",
            ttl,
            holder,
            *shard_ids,
        )
    return renewed == len(shard_ids)


async def release(db: Database, holder: str) -> None:
    """Give up ``holder``'s leases at once (a clean stop), so a successor need not wait."""
    async with db.transaction() as tx:
        await tx.execute("DELETE FROM shard_leases WHERE holder = ?", holder)
