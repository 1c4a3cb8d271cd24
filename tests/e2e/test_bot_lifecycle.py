"""Start-up against the fake Discord: commands registered, database opened and closed."""

from __future__ import annotations

import asyncio
import os
import signal

from stored import stored_game
from testdb import both_engines

from bot import create_bot, serve


@both_engines()
async def test_start_registers_every_command_and_close_releases_the_database(
    fake_discord, start_bot, database
):
    bot = await start_bot()
    registered = {command["name"] for command in fake_discord.commands.listing(None)}
    assert {"bann", "game"} <= registered
    assert bot.store is not None

    await fake_discord.stop_bot(bot)

    assert bot.store is None, "closing the bot closes the database"
    assert database.rows("SELECT COUNT(*) AS games FROM games") == [{"games": 0}], "still readable"


async def test_dev_guild_id_syncs_commands_to_that_server_only(fake_discord, database_path):
    bot = create_bot(
        database_path=str(database_path),
        dev_guild_id=fake_discord.guild.id,
        connector=fake_discord.connector(),
        guild_ready_timeout=0.01,
    )
    await fake_discord.start_bot(bot)
    try:
        guild_commands = fake_discord.commands.listing(fake_discord.guild.id)
        assert {"bann", "game"} <= {command["name"] for command in guild_commands}
        assert fake_discord.commands.listing(None) == []
    finally:
        await fake_discord.stop_bot(bot)


async def test_sigterm_closes_the_bot_and_its_database(fake_discord, database_path):
    bot = create_bot(
        database_path=str(database_path),
        dev_guild_id=None,
        connector=fake_discord.connector(),
        guild_ready_timeout=0.01,
    )
    running = asyncio.create_task(serve(bot, "fake-token"))
    await asyncio.wait_for(bot.wait_until_ready(), timeout=10)
    await fake_discord.wait_until_idle()

    os.kill(os.getpid(), signal.SIGTERM)
    await asyncio.wait_for(running, timeout=10)

    assert bot.is_closed()
    assert bot.store is None, "the database was closed"


async def test_a_channel_that_loses_a_permission_mid_game_refuses_moves_and_says_why(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await start_bot()
    board = (await world.alice.slash(world.games, "bann new", computer="normal")).message
    version = stored_game(database_path)["version"]
    permissions = world.games.bot_permissions
    permissions.attach_files = False
    world.games.bot_permissions = permissions

    refused = await world.alice.click(board, board.buttons()[0].label)

    assert "Attach Files" in refused.ephemeral[0].content
    assert stored_game(database_path)["version"] == version
