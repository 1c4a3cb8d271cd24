"""A database busy with another writer does not cost lobby clicks their acknowledgement:
each click is acknowledged first and the lobby shows the change once the write lands."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

from stored import stored_game
from test_faults import eventually


async def acknowledged(record, timeout: float) -> bool:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while record.response_type is None and loop.time() < deadline:
        await asyncio.sleep(0.01)
    return record.response_type is not None


def seated(database_path: Path) -> list[str]:
    return [seat["name"] for seat in json.loads(stored_game(database_path)["seats"])]


def lobby_shown(database_path: Path) -> bool:
    game = stored_game(database_path)
    return game["board_version"] == game["version"]


async def test_joins_are_acknowledged_while_another_writer_holds_the_database(
    fake_discord, start_bot, database_path: Path
):
    world = fake_discord
    await start_bot()
    lobby = (await world.alice.slash(world.games, "barbu new", series=1)).message
    blocker = sqlite3.connect(database_path, isolation_level=None, timeout=30)
    blocker.execute("BEGIN IMMEDIATE")
    try:
        # The second click queues behind the first one's save, still waiting for the file.
        joins = [await user.click_nowait(lobby, "Join") for user in (world.bob, world.carol)]
        waited = await asyncio.gather(*(acknowledged(join, timeout=2.0) for join in joins))
        assert all(waited), "a click waited for the database"
        assert "Bob" not in lobby.embeds[0]["description"], "nothing shown before it is saved"
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    await eventually(lambda: seated(database_path) == ["Alice", "Bob", "Carol"])
    await eventually(lambda: "Carol" in lobby.embeds[0]["description"])
    await eventually(lambda: lobby_shown(database_path))
