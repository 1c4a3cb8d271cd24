"""A second copy of the bot on the same database file refuses to start."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from bot import create_bot
from data import DatabaseInUse

ROOT = Path(__file__).resolve().parents[2]


async def test_a_second_bot_on_the_same_file_refuses_and_the_first_keeps_playing(
    fake_discord, start_bot, database_path
):
    first = await start_bot()
    second = create_bot(
        database_path=str(database_path),
        dev_guild_id=None,
        connector=fake_discord.connector(),
        guild_ready_timeout=0.01,
    )
    with pytest.raises(AssertionError, match="stopped before it was ready") as failed:
        await fake_discord.start_bot(second)
    assert isinstance(failed.value.__cause__, DatabaseInUse)
    await second.close()

    opened = await fake_discord.alice.slash(fake_discord.games, "bann new")
    assert opened.message is not None and "Bann" in opened.message.embeds[0]["title"]
    assert first.store is not None


async def test_a_second_bot_through_a_symlink_with_another_name_refuses(
    fake_discord, start_bot, database_path, tmp_path
):
    first = await start_bot()
    other_name = tmp_path / "elsewhere" / "another-name.sqlite3"
    other_name.parent.mkdir()
    other_name.symlink_to(database_path)
    second = create_bot(
        database_path=str(other_name),
        dev_guild_id=None,
        connector=fake_discord.connector(),
        guild_ready_timeout=0.01,
    )
    with pytest.raises(AssertionError, match="stopped before it was ready") as failed:
        await fake_discord.start_bot(second)
    refusal = failed.value.__cause__
    assert isinstance(refusal, DatabaseInUse)
    assert str(other_name) in str(refusal) and str(database_path.resolve()) in str(refusal)
    assert str(os.getpid()) in str(refusal), "the refusal names the process holding the file"
    await second.close()

    opened = await fake_discord.alice.slash(fake_discord.games, "bann new")
    assert opened.message is not None and "Bann" in opened.message.embeds[0]["title"]
    assert first.store is not None


async def test_python_bot_py_says_one_line_and_exits_while_another_copy_runs(
    fake_discord, start_bot, database_path
):
    await start_bot()
    environment = os.environ | {
        "DATABASE_PATH": str(database_path),
        "DISCORD_TOKEN": "not-used-because-it-stops-first",
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        str(ROOT / "bot.py"),
        cwd=database_path.parent,
        env=environment,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    _, stderr = await asyncio.wait_for(process.communicate(), timeout=30)

    assert process.returncode == 2
    lines = stderr.decode().strip().splitlines()
    assert len(lines) == 1, lines
    assert "already running" in lines[0] and str(database_path) in lines[0]
    assert str(os.getpid()) in lines[0], "the line names the process holding the database"


async def test_the_database_is_free_again_once_the_first_bot_stops(
    fake_discord, start_bot, database_path
):
    first = await start_bot()
    await fake_discord.stop_bot(first)
    again = await start_bot()
    assert again.store is not None
