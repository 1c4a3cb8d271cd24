"""PostgreSQL's connection dropping in the middle of a save (a restarted or failed-over
server, a killed backend): nothing is half-applied, the caller gets ConnectionLost (which
the bot answers with a sentence), and the pool carries on with new connections."""

from __future__ import annotations

import contextlib

import asyncpg
import pytest

from data import ConnectionLost, Seat

ON_POSTGRESQL = pytest.mark.parametrize("database", ["postgresql"], indirect=True)


@ON_POSTGRESQL
async def test_a_connection_killed_mid_save_applies_nothing_and_the_pool_recovers(store):
    table = await a_table(store)
    with pytest.raises(ConnectionLost):
        async with store.transaction() as tx:
            await tx.execute("UPDATE games SET version = version + 1 WHERE id = ?", table.id)
            await tx.execute("SELECT pg_terminate_backend(pg_backend_pid())")

    assert (await store.load(table.id)).version == table.version, "nothing half-applied"
    await store.save(table, expected_version=table.version, actions=[(0, "a1")])
    assert [a.action for a in await store.actions(table.id)] == ["a1"], "the pool recovered"


async def a_table(store):
    return await store.create_table(
        kind="bann", guild_id=1, channel_id=77, creator_id=3,
        seats=[Seat("Alice", 3), Seat("Bob", 4)], options={}, seed=1,
    )


@ON_POSTGRESQL
async def test_a_pooled_connection_killed_between_calls_is_a_lost_connection(store, database):
    """The backend of the idle pooled connection terminated just before the next call:
    asyncpg may be caught reading the termination ("cannot switch to state 11; another
    operation (2) is in progress", an InternalClientError). That is a lost connection too,
    and the call after it gets a new one."""
    table = await a_table(store)
    killer = await asyncpg.connect(database.server_url)
    try:
        for _ in range(20):
            backend = await store.db.fetchval("SELECT pg_backend_pid()")
            await killer.execute("SELECT pg_terminate_backend($1)", backend)
            with contextlib.suppress(ConnectionLost):
                await store.load(table.id)
    finally:
        await killer.close()
    assert (await store.load(table.id)).version == table.version, "the pool recovered"
