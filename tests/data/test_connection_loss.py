"""PostgreSQL's connection dropping in the middle of a save (a restarted or failed-over
server, a killed backend): nothing is half-applied, the caller gets ConnectionLost (which
the bot answers with a sentence), and the pool carries on with new connections."""

from __future__ import annotations

import pytest

from data import ConnectionLost, Seat


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)
async def test_a_connection_killed_mid_save_applies_nothing_and_the_pool_recovers(store):
    table = await store.create_table(
        kind="bann", guild_id=1, channel_id=77, creator_id=3,
        seats=[Seat("Alice", 3), Seat("Bob", 4)], options={}, seed=1,
    )
    with pytest.raises(ConnectionLost):
        async with store.transaction() as tx:
            await tx.execute("UPDATE games SET version = version + 1 WHERE id = ?", table.id)
            await tx.execute("SELECT pg_terminate_backend(pg_backend_pid())")

    assert (await store.load(table.id)).version == table.version, "nothing half-applied"
    await store.save(table, expected_version=table.version, actions=[(0, "a1")])
    assert [a.action for a in await store.actions(table.id)] == ["a1"], "the pool recovered"
