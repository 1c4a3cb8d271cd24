"""Pytest fixtures; tests/conftest.py re-exports them with `from fakediscord.fixtures import *`."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import trustme

from .errorlog import ErrorLog
from .faults import RecordedAnswer
from .model import Channel, Guild
from .server import FakeDiscord
from .tls import server_ssl_context, test_ca
from .users import SimUser

__all__ = ["AnswerCheck", "FakeWorld", "answer_check", "error_log", "fake_ca", "fake_discord"]

AnswerCheck = Callable[[list[RecordedAnswer]], list[str]]
"""Finds fault with REST answers of the fake: one sentence per fault, none when all is well."""


@dataclass
class FakeWorld:
    """The default scene: one guild, one #games channel, four members.

    Everything else is the FakeDiscord's: `world.start_bot(...)` is `world.fake.start_bot(...)`.
    """

    fake: FakeDiscord
    guild: Guild
    games: Channel
    alice: SimUser
    bob: SimUser
    carol: SimUser
    dave: SimUser

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name == "fake":
            raise AttributeError(name)
        return getattr(self.fake, name)


@pytest.fixture(scope="session")
def fake_ca() -> trustme.CA:
    server_ssl_context()
    return test_ca()


@pytest.fixture
def error_log() -> Iterator[ErrorLog]:
    log = ErrorLog()
    log.install()
    try:
        yield log
    finally:
        log.uninstall()
    if problems := log.problems():
        pytest.fail(problems, pytrace=False)


@pytest.fixture
def answer_check() -> AnswerCheck | None:
    """What `fake_discord` checks every REST answer it gave with, at teardown: nothing
    here; a conftest overrides this fixture to check them."""
    return None


@pytest.fixture
async def fake_discord(
    fake_ca: trustme.CA, error_log: ErrorLog, answer_check: AnswerCheck | None
) -> AsyncIterator[FakeWorld]:
    """A started FakeDiscord with "Test Server", #games and alice, bob, carol, dave.

    Bots started with fake.start_bot are stopped at teardown; the test fails if the bot
    used something the fake does not implement, or if `answer_check` finds fault with an
    answer the fake gave. Unhandled event-loop errors (a failed task nobody awaited) are
    recorded in error_log like ERROR logs."""
    loop = asyncio.get_running_loop()
    previous_handler = loop.get_exception_handler()
    loop.set_exception_handler(error_log.loop_exception_handler)
    answers: list[RecordedAnswer] = []
    try:
        async with FakeDiscord() as fake:
            if answer_check is not None:
                fake.listen_to_answers(answers.append)
            guild = fake.add_guild("Test Server")
            channel = guild.add_text_channel("games")
            names = ("alice", "bob", "carol", "dave")
            users = [fake.add_user(name, guild=guild) for name in names]
            yield FakeWorld(fake, guild, channel, *users)
    finally:
        loop.set_exception_handler(previous_handler)
    if fake.internal_errors:
        pytest.fail("fakediscord problems:\n" + "\n".join(fake.internal_errors), pytrace=False)
    if answer_check is not None and (faults := answer_check(answers)):
        pytest.fail("fakediscord answered unlike Discord:\n" + "\n".join(faults), pytrace=False)
