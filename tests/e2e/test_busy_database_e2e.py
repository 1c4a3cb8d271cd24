"""A slow database write does not cost lobby clicks their acknowledgement: each click is
acknowledged first and the lobby shows the change once the write lands. A move picked in
a private menu is confirmed only once its save lands; until then the menu says it is
being played."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from stored import logged_moves, stored_game, stored_state
from test_faults import eventually

from cogs.table.menu_answer import BEING_PLAYED
from data import Store
from texts import bann as bann_text


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


async def test_a_double_click_on_a_menu_whose_save_is_slow_confirms_once_and_refuses_once(
    fake_discord, start_bot, database_path: Path, monkeypatch
):
    """Both picks of a double click pass every check before the first one's save lands:
    the menu says the move is being played, then what was played, and the second pick is
    told in a message of its own that the menu is outdated."""
    world = fake_discord
    bot = await start_bot()
    bot.tables.pipeline.pick_patience = 0.05
    opened = await world.alice.slash(world.games, "bann new", opponent=world.bob)
    board = (await world.bob.click(opened.message, "Join")).message
    state = stored_state(database_path)
    player = [world.alice, world.bob][state.current_player]
    action = state.legal_actions()[0]
    menu = (await player.click(board, f"Tip to {action.split('>')[0]}")).ephemeral[0]
    write_lands = asyncio.Event()
    real_save = Store.save

    async def slow_save(store: Store, *args, **kwargs):
        await write_lands.wait()
        return await real_save(store, *args, **kwargs)

    monkeypatch.setattr(Store, "save", slow_save)
    picks = [await player.select_nowait(menu, [action]) for _ in range(2)]
    waited = await asyncio.gather(*(acknowledged(pick, timeout=2.0) for pick in picks))
    assert all(waited) and menu.content == BEING_PLAYED, "both answered, nothing confirmed"
    write_lands.set()
    await world.wait_until_idle()

    said = [version.content for version in menu.versions] + [menu.content]
    assert said[1:] == [BEING_PLAYED, bann_text.confirmation("en", state, action)]
    (refusal,) = [message for pick in picks for message in pick.followups]
    assert refusal.is_ephemeral and "This menu is outdated" in refusal.content
    assert logged_moves(database_path) == [(state.current_player, action)]
