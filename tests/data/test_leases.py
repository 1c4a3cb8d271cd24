"""Shard leases in the database: one live holder per shard, renewed by heartbeats, free
again when a holder stops renewing, given back at a clean stop."""

from __future__ import annotations

import asyncio

from testdb import both_engines

from data import leases
from shards import ShardLease, ShardPlan

pytestmark = both_engines()


async def test_a_live_lease_keeps_its_shards_from_every_other_process(store):
    assert await leases.claim(store.db, [0, 1], 4, "first", ttl=30) == []

    held = await leases.claim(store.db, [1, 2], 4, "second", ttl=30)

    assert [(h.shard_id, h.holder) for h in held] == [(1, "first")]
    assert 25 < held[0].seconds_left <= 30
    assert await leases.claim(store.db, [2, 3], 4, "second", ttl=30) == [], "others are free"
    rows = await store.db.fetch("SELECT shard_id, holder FROM shard_leases ORDER BY shard_id")
    holders = [tuple(row) for row in rows]
    assert holders == [(0, "first"), (1, "first"), (2, "second"), (3, "second")]


async def test_every_process_must_agree_on_the_shard_count(store):
    await leases.claim(store.db, [0], 4, "first", ttl=30)
    held = await leases.claim(store.db, [5], 8, "second", ttl=30)
    assert [(h.shard_id, h.shard_count) for h in held] == [(0, 4)]


async def test_an_expired_lease_can_be_taken_and_its_old_holder_learns_it(store):
    await leases.claim(store.db, [0], 2, "killed", ttl=0.2)
    await asyncio.sleep(0.3)

    assert await leases.claim(store.db, [0], 2, "successor", ttl=30) == []

    assert not await leases.renew(store.db, [0], "killed", ttl=30)
    assert await leases.renew(store.db, [0], "successor", ttl=30)


async def test_a_clean_stop_gives_the_shards_back_at_once(store):
    await leases.claim(store.db, [0, 1], 2, "stopping", ttl=30)
    await leases.release(store.db, "stopping")
    assert await leases.claim(store.db, [0, 1], 2, "next", ttl=30) == []


async def test_a_process_whose_lease_was_taken_is_told_to_stop(store):
    lost = asyncio.Event()
    lease = await ShardLease.acquire(store, ShardPlan(2, (0, 1)), on_lost=lost.set, ttl=0.3)
    assert await leases.renew(store.db, [0, 1], lease.holder, ttl=0.3), "the heartbeat renews"
    await store.db.execute("UPDATE shard_leases SET holder = 'someone else' WHERE shard_id = 1")

    await asyncio.wait_for(lost.wait(), timeout=2)

    await lease.release()
