"""Private menus and boards leave nothing behind in discord.py's view store: under load,
views kept alive for their 15-minute ephemeral timeout were the bot's memory growth."""

from __future__ import annotations

import gc

import discord
from test_faults import play_bann


def live_views() -> list[discord.ui.View]:
    gc.collect()
    return [o for o in gc.get_objects() if isinstance(o, discord.ui.View) and not o.is_finished()]


async def test_menus_and_boards_of_a_played_game_keep_no_view_alive(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await start_bot()
    board = (await world.alice.slash(world.games, "bann new", computer="normal")).message
    before = len(live_views())

    for _ in range(3):
        await play_bann(world.alice, board, database_path)

    assert len(live_views()) == before
