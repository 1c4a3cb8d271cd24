"""A database busy with another writer does not cost a lobby click its acknowledgement:
the click is acknowledged first and the lobby shows the change once the write lands."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from test_faults import eventually


async def acknowledged(record, timeout: float) -> bool:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while record.response_type is None and loop.time() < deadline:
        await asyncio.sleep(0.01)
    return record.response_type is not None


async def test_a_join_is_acknowledged_while_another_writer_holds_the_database(
    fake_discord, start_bot, database_path: Path
):
    world = fake_discord
    await start_bot()
    lobby = (await world.alice.slash(world.games, "barbu new", series=1)).message
    blocker = sqlite3.connect(database_path, isolation_level=None, timeout=30)
    blocker.execute("BEGIN IMMEDIATE")
    try:
        join = await world.bob.click_nowait(lobby, "Join")
        assert await acknowledged(join, timeout=1.0), "the click waited for the database"
        assert "Bob" not in lobby.embeds[0]["description"], "nothing shown before it is saved"
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    await join.wait_answered(timeout=10)
    await eventually(lambda: "Bob" in lobby.embeds[0]["description"])
