"""Shared fixtures: the fake Discord world and our real bot connected to it."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path

import pytest

from bot import TableBot, create_bot
from cogs.scheduler import ManualClock
from fakediscord.fixtures import *  # noqa: F403
from fakediscord.fixtures import FakeWorld

StartBot = Callable[[], Awaitable[TableBot]]


@pytest.fixture
def database_path(tmp_path: Path) -> Path:
    return tmp_path / "tablebot.sqlite3"


@pytest.fixture
def game_seeds() -> Iterator[int]:
    """The seeds the bot gives its new tables, in order. A test module that needs a
    particular deal or opening overrides this with the seeds whose start it needs."""
    return itertools.count(1000)


@pytest.fixture
def clock() -> ManualClock:
    """The bot's clock: it stands still unless a test moves it forward."""
    return ManualClock()


@pytest.fixture
async def start_bot(
    fake_discord: FakeWorld, database_path: Path, game_seeds: Iterator[int], clock: ManualClock
) -> AsyncIterator[StartBot]:
    """Start (or, called again, restart) the real bot on the test's database file."""
    running: list[TableBot] = []

    async def start() -> TableBot:
        await stop_all()
        bot = create_bot(
            database_path=str(database_path),
            dev_guild_id=None,
            seed_source=game_seeds.__next__,
            clock=clock,
            connector=fake_discord.connector(),
            guild_ready_timeout=0.01,
        )
        await fake_discord.start_bot(bot)
        running.append(bot)
        return bot

    async def stop_all() -> None:
        for bot in running:
            if not bot.is_closed():
                await fake_discord.stop_bot(bot)
        running.clear()

    yield start
    await stop_all()
