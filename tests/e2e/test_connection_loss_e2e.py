"""PostgreSQL drops the bot's connection in the middle of saving a move: the player is
told in one sentence that the move may not have happened, nothing is half-applied, and
the very next click plays normally on a new connection."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest
from stored import logged_actions, stored_game
from test_faults import eventually, play_bann

from cogs.table.components import DATABASE_LOST

ON_POSTGRESQL = pytest.mark.parametrize("database", ["postgresql"], indirect=True)


@ON_POSTGRESQL
async def test_a_connection_dropped_mid_move_is_one_sentence_and_changes_nothing(
    fake_discord, start_bot, database
):
    world = fake_discord
    await start_bot()
    board = (await world.alice.slash(world.games, "bann new", computer="normal")).message
    before, logged = stored_game(database), logged_actions(database)
    blocker = await asyncpg.connect(database.target)
    try:
        # Hold the game's row, so the bot's save waits on it; then cut the bot's link.
        holding = blocker.transaction()
        await holding.start()
        await blocker.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", before["id"])
        move = asyncio.create_task(play_bann(world.alice, board, database))
        waiting = "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND pid <> $1"
        mine = blocker.get_server_pid()
        pids: list[int] = []

        async def bot_waits() -> bool:
            pids[:] = [row[0] for row in await blocker.fetch(waiting, mine)]
            return bool(pids)

        for _ in range(500):
            if await bot_waits():
                break
            await asyncio.sleep(0.01)
        assert pids, "the bot's save waits for the row"
        await blocker.execute("SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) pid", pids)
        await holding.rollback()
        answer = (await move).ephemeral
    finally:
        await blocker.close()

    assert [message.content for message in answer] == [DATABASE_LOST]
    assert stored_game(database)["version"] == before["version"], "nothing half-applied"
    assert logged_actions(database) == logged
    await play_bann(world.alice, board, database)
    await eventually(lambda: stored_game(database)["version"] > before["version"])
