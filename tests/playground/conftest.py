"""The playground in this test's event loop: emulator, real bot, page server, HTTP client."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
from playground_stream import EventStream

from bot import create_bot
from fakediscord import ErrorLog, SimUser
from playground import running
from playground.scene import Scene


@dataclass
class PlaygroundPage:
    scene: Scene
    bot: discord.Client
    http: aiohttp.ClientSession
    port: int
    streams: list[EventStream] = field(default_factory=list)

    def player(self, name: str) -> SimUser:
        return self.scene.player(name)

    async def watch_as(self, name: str) -> EventStream:
        response = await self.http.get(f"/api/events?viewer={self.player(name).id}")
        stream = EventStream(response)
        stream.start()
        self.streams.append(stream)
        await stream.first("snapshot")
        return stream

    async def act(self, action: str, as_player: str, **fields: Any) -> tuple[int, dict]:
        body = {"viewer": as_player, **fields}
        async with self.http.post(f"/api/{action}", json=body) as response:
            return response.status, await response.json()


@pytest.fixture
async def playground_page(
    fake_ca: object, error_log: ErrorLog, tmp_path: Path
) -> AsyncIterator[PlaygroundPage]:
    async with running(create_bot, tmp_path / "playground.sqlite3", 0) as playground:
        async with aiohttp.ClientSession(f"http://127.0.0.1:{playground.port}") as http:
            page = PlaygroundPage(playground.scene, playground.bot, http, playground.port)
            try:
                yield page
            finally:
                for stream in page.streams:
                    await stream.close()
        if problems := playground.scene.fake.internal_errors:
            pytest.fail("fakediscord problems:\n" + "\n".join(problems), pytrace=False)
