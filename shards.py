"""Running the bot as one of several processes: shard settings and the shard lease.

``SHARD_COUNT`` is the bot's total number of shards, ``SHARD_IDS`` the ones this process
runs (``0-3``, ``4,5`` or ``0-1,6``; all of them when unset). Several processes need
PostgreSQL (``DATABASE_URL``): they share games and league through it, and a lease in it
makes sure that no shard runs twice. Slash commands are synced by the process that runs
shard 0, so exactly one process syncs.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from data import Store, leases

log = logging.getLogger("tablebot.shards")

DEFAULT_LEASE_SECONDS = 15.0


@dataclass(frozen=True)
class ShardPlan:
    count: int
    ids: tuple[int, ...]

    @property
    def is_partial(self) -> bool:
        """Whether other processes must run the remaining shards."""
        return len(self.ids) < self.count

    @property
    def syncs_commands(self) -> bool:
        return 0 in self.ids

    def describe(self) -> str:
        return f"shards {_ranges(self.ids)} of {self.count}"


class ShardsTaken(Exception):
    """Another live process holds a shard this process was told to run."""


def plan_from_env(environ: Mapping[str, str] = os.environ) -> ShardPlan | None:
    """The shard plan of SHARD_COUNT / SHARD_IDS; None when the bot is not sharded.
    Raises ValueError with a sentence saying what is wrong."""
    raw_count = environ.get("SHARD_COUNT", "").strip()
    raw_ids = environ.get("SHARD_IDS", "").strip()
    if not raw_count:
        if raw_ids:
            raise ValueError("SHARD_IDS needs SHARD_COUNT (the bot's total number of shards).")
        return None
    if not raw_count.isdigit() or int(raw_count) < 1:
        raise ValueError(f"SHARD_COUNT must be a whole number of at least 1, not {raw_count!r}.")
    count = int(raw_count)
    ids = parse_shard_ids(raw_ids, count) if raw_ids else tuple(range(count))
    return ShardPlan(count, ids)


def parse_shard_ids(text: str, count: int) -> tuple[int, ...]:
    """``0-3``, ``4,5`` or ``0-1,6`` → sorted shard ids, each below ``count``."""
    ids: set[int] = set()
    for part in text.replace(" ", "").split(","):
        first, _, last = part.partition("-")
        if not first.isdigit() or (last and not last.isdigit()):
            raise ValueError(f"SHARD_IDS must look like 0-3 or 0,2,5, not {text!r}.")
        low, high = int(first), int(last or first)
        if low > high or high >= count:
            raise ValueError(f"SHARD_IDS {text!r} must lie within 0-{count - 1} (SHARD_COUNT).")
        ids.update(range(low, high + 1))
    return tuple(sorted(ids))


def _ranges(ids: tuple[int, ...]) -> str:
    parts: list[str] = []
    start = previous = ids[0]
    for shard_id in [*ids[1:], None]:
        if shard_id is not None and shard_id == previous + 1:
            previous = shard_id
            continue
        parts.append(str(start) if start == previous else f"{start}-{previous}")
        if shard_id is not None:
            start = previous = shard_id
    return ",".join(parts)


class ShardLease:
    """This process's claim on its shards, renewed in the background until released."""

    def __init__(self, store: Store, plan: ShardPlan, ttl: float, on_lost: Callable[[], None]):
        self.store = store
        self.plan = plan
        self.ttl = ttl
        self.holder = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        self._on_lost = on_lost
        self._heartbeat: asyncio.Task[None] | None = None

    @classmethod
    async def acquire(
        cls, store: Store, plan: ShardPlan, on_lost: Callable[[], None], ttl: float | None = None
    ) -> ShardLease:
        """Claim the plan's shards or raise ShardsTaken with one line saying who holds them."""
        lease = cls(store, plan, ttl or lease_seconds_from_env(), on_lost)
        held = await leases.claim(store.db, plan.ids, plan.count, lease.holder, lease.ttl)
        if held:
            raise ShardsTaken(_taken_sentence(plan, held))
        lease._heartbeat = asyncio.create_task(lease._beat(), name="tablebot: shard lease")
        log.info("holding %s as %s", plan.describe(), lease.holder)
        return lease

    async def _beat(self) -> None:
        renewed = time.monotonic()
        while True:
            await asyncio.sleep(self.ttl / 3)
            try:
                kept = await leases.renew(self.store.db, self.plan.ids, self.holder, self.ttl)
            except Exception as problem:
                # Past the lease's end another process may take the shards: stop first.
                kept = time.monotonic() - renewed < self.ttl * 2 / 3
                log.warning("could not renew the shard lease: %s", problem)
            else:
                renewed = time.monotonic()
            if not kept:
                log.critical("lost the lease on %s: stopping", self.plan.describe())
                self._on_lost()
                return

    async def release(self) -> None:
        if self._heartbeat is not None:
            self._heartbeat.cancel()
            self._heartbeat = None
        await leases.release(self.store.db, self.holder)


def lease_seconds_from_env() -> float:
    raw = os.environ.get("SHARD_LEASE_SECONDS", "").strip()
    return float(raw) if raw else DEFAULT_LEASE_SECONDS


def _taken_sentence(plan: ShardPlan, held: list[leases.HeldShard]) -> str:
    other = held[0]
    if other.shard_count != plan.count:
        return (
            f"another process ({other.holder}) runs this bot with SHARD_COUNT={other.shard_count},"
            f" not {plan.count}: every process must use the same SHARD_COUNT."
        )
    taken = ",".join(str(h.shard_id) for h in held)
    return (
        f"shard(s) {taken} of {plan.count} are held by the live process {other.holder}"
        f" (its lease runs out in {max(other.seconds_left, 0):.0f} s unless it renews it):"
        " give this process other SHARD_IDS, or stop that one first."
    )
