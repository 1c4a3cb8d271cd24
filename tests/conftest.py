"""Shared fixtures: the database (SQLite or PostgreSQL), the fake Discord world and our
real bot connected to it."""

from __future__ import annotations

import itertools
import os
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path

import pytest
from game_roots import hosting
from openapi_answers import OpenApiAnswers
from testdb import (
    PostgresTestDatabase,
    SqliteTestDatabase,
    TestDatabase,
    postgres_problem,
    postgres_url,
)

from bot import TableBot, create_bot
from cogs.scheduler import ManualTime
from data import Store
from fakediscord.fixtures import *  # noqa: F403
from fakediscord.fixtures import AnswerCheck, FakeWorld

# Boards are drawn in a thread: hundreds of short-lived test bots would each start render
# worker processes. tests/unit/test_render_pool.py covers the process pool itself.
os.environ.setdefault("RENDER_PROCESSES", "0")
# Reviews too; tests/unit/test_review_pool.py covers their process pool.
os.environ.setdefault("REVIEW_PROCESSES", "0")

StartBot = Callable[[], Awaitable[TableBot]]
DISCORD_OPENAPI = OpenApiAnswers.load()


def pytest_report_header() -> str:
    problem = postgres_problem()
    if problem is None:
        return f"PostgreSQL tests: on {postgres_url()}"
    return f"PostgreSQL tests: skipped: {problem}"


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not DISCORD_OPENAPI.checked:
        return
    terminalreporter.write_line(
        f"fakediscord's REST answers against Discord's OpenAPI description "
        f"({DISCORD_OPENAPI.version}): {DISCORD_OPENAPI.checked} checked, "
        f"{len(DISCORD_OPENAPI.mismatches)} distinct mismatches"
    )
    for mismatch in sorted(DISCORD_OPENAPI.mismatches):
        terminalreporter.write_line(f"  {mismatch}")


@pytest.fixture(scope="session")
def answer_check() -> AnswerCheck:
    """Every REST answer of `fake_discord` must validate against Discord's OpenAPI
    description (tests/openapi_answers.py)."""
    return DISCORD_OPENAPI


@pytest.fixture(scope="session")
def postgres_server() -> str:
    """The test PostgreSQL server's URL. CI must have it (the test fails without it);
    elsewhere the PostgreSQL half of the suite is skipped with the reason."""
    problem = postgres_problem()
    if problem is None:
        return postgres_url()
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{problem}; CI runs every test on PostgreSQL too", pytrace=False)
    pytest.skip(problem)


@pytest.fixture
def database_path(tmp_path: Path) -> Path:
    return tmp_path / "tablebot.sqlite3"


@pytest.fixture
def database(request: pytest.FixtureRequest, database_path: Path) -> Iterator[TestDatabase]:
    """The test's database: SQLite unless parametrised with "postgresql"
    (testdb.both_engines)."""
    if getattr(request, "param", "sqlite") == "sqlite":
        yield SqliteTestDatabase(database_path)
        return
    server = request.getfixturevalue("postgres_server")
    schema = PostgresTestDatabase(server)
    schema.create()
    try:
        yield schema
    finally:
        schema.drop()


@pytest.fixture
async def store(database: TestDatabase) -> AsyncIterator[Store]:
    opened = await Store.open(database.target)
    yield opened
    await opened.close()


@pytest.fixture
def game_seeds() -> Iterator[int]:
    """The seeds the bot gives its new tables, in order. A test module that needs a
    particular deal or opening overrides this with the seeds whose start it needs."""
    return itertools.count(1000)


@pytest.fixture
def nim() -> Iterator[None]:
    """Nim, the worked example, hosted for one test: its game root added the way the
    product's games are found (rules, sentences, picture, cog and catalogue by key)."""
    with hosting("nim"):
        yield


@pytest.fixture
def game_key(request: pytest.FixtureRequest) -> Iterator[str]:
    """A game's key for a test parametrised (indirectly) over ``EVERY_GAME``, hosted
    for the test."""
    with hosting(request.param):
        yield request.param


@pytest.fixture
def clock(fake_discord: FakeWorld) -> ManualTime:
    """The bot's clock: it stands still unless a test moves it forward. The fake
    Discord's moves with it (and with the real time passing, so that consecutive
    snowflakes carry later moments), so its messages age by the hours a test moves on."""
    time_source = ManualTime()
    started = time.monotonic()
    fake_discord.fake.clock = lambda: time_source.now() + time.monotonic() - started
    return time_source


@pytest.fixture
async def start_bot(
    fake_discord: FakeWorld,
    database: TestDatabase,
    game_seeds: Iterator[int],
    clock: ManualTime,
) -> AsyncIterator[StartBot]:
    """Start (or, called again, restart) the real bot on the test's database."""
    running: list[TableBot] = []

    async def start() -> TableBot:
        await stop_all()
        bot = create_bot(
            database_path=database.target,
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
