"""Private menus and boards leave nothing behind in discord.py's view store: under load,
views kept alive for their 15-minute ephemeral timeout were the bot's memory growth. An
ended game leaves nothing behind among the private confirmations either."""

from __future__ import annotations

import gc

import discord
from stored import stored_game, stored_state
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


async def test_a_game_won_by_a_menu_pick_leaves_no_confirmation_kept(
    fake_discord, start_bot, database_path
):
    """The last pick of a game is confirmed after the game was forgotten; keeping it would
    hold one interaction, with its message and menu, for every game ever finished."""
    world = fake_discord
    bot = await start_bot()
    board = (await world.alice.slash(world.games, "bann new", computer="normal")).message
    await play_bann(world.alice, board, database_path)
    game_id = stored_game(database_path)["id"]
    assert bot.tables.private.games_kept() == {game_id}, "a running game keeps its confirmation"

    moves = 1
    while not stored_state(database_path).is_over:
        await play_bann(world.alice, board, database_path)
        moves += 1
        assert moves < 200

    assert bot.tables.private.games_kept() == set()
