"""A slow database write does not cost lobby clicks their acknowledgement: each click is
acknowledged first and the lobby shows the change once the write lands."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from stored import stored_game
from test_faults import eventually

from data import Store


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


async def test_joins_are_acknowledged_while_the_database_write_is_slow(
    fake_discord, start_bot, database_path: Path, monkeypatch
):
    world = fake_discord
    await start_bot()
    lobby = (await world.alice.slash(world.games, "barbu new", series=1)).message
    await eventually(lambda: lobby_shown(database_path))
    write_lands = asyncio.Event()
    real_save = Store.save

    async def slow_save(store: Store, *args, **kwargs):
        await write_lands.wait()
        return await real_save(store, *args, **kwargs)

    monkeypatch.setattr(Store, "save", slow_save)
    # The second click queues behind the first one's save, which waits for the database.
    joins = [await user.click_nowait(lobby, "Join") for user in (world.bob, world.carol)]
    waited = await asyncio.gather(*(acknowledged(join, timeout=1.0) for join in joins))
    write_lands.set()

    assert all(waited), "a click waited for the database"
    await eventually(lambda: seated(database_path) == ["Alice", "Bob", "Carol"])
    await eventually(lambda: "Carol" in lobby.embeds[0]["description"])
    await eventually(lambda: lobby_shown(database_path))
