"""Start-up against the fake Discord: commands registered, database opened and closed."""

from __future__ import annotations

import sqlite3


async def test_start_registers_every_command_and_close_releases_the_database(
    fake_discord, start_bot, database_path
):
    bot = await start_bot()
    registered = {command["name"] for command in fake_discord.commands.listing(None)}
    assert {"bann", "game"} <= registered
    assert bot.store is not None

    await fake_discord.stop_bot(bot)

    assert bot.store is None, "closing the bot closes the database"
    with sqlite3.connect(database_path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)


async def test_dev_guild_id_syncs_commands_to_that_server_only(fake_discord, database_path):
    from bot import create_bot

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
