"""The playground in this test's event loop: emulator, real bot, page server, HTTP client."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest

from bot import create_bot
from fakediscord import ErrorLog, SimUser
from playground import running
from playground.scene import Scene


@dataclass
class EventStream:
    """One open page's server-sent events, parsed as they arrive."""

    response: aiohttp.ClientResponse
    events: list[tuple[str, Any]] = field(default_factory=list)
    _arrived: asyncio.Event = field(default_factory=asyncio.Event)
    _reader: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        kind, data = "message", ""
        async for raw in self.response.content:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                kind = line.removeprefix("event: ")
            elif line.startswith("data: "):
                data += line.removeprefix("data: ")
            elif not line and data:
                self.events.append((kind, json.loads(data)))
                self._arrived.set()
                kind, data = "message", ""

    async def first(
        self, kind: str, matches: Callable[[Any], bool] = lambda _: True, timeout: float = 5.0
    ) -> Any:
        """The first event of `kind` that `matches`, waiting for it if need be."""
        async with asyncio.timeout(timeout):
            while True:
                for event_kind, data in self.events:
                    if event_kind == kind and matches(data):
                        return data
                self._arrived.clear()
                await self._arrived.wait()

    def messages(self) -> dict[str, dict[str, Any]]:
        """The latest version of every message this page was told about, by id."""
        latest: dict[str, dict[str, Any]] = {}
        for kind, data in self.events:
            if kind == "snapshot":
                latest |= {message["id"]: message for message in data["messages"]}
            elif kind == "message":
                latest[data["id"]] = data
        return {key: message for key, message in latest.items() if not message["deleted"]}

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
        self.response.close()


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
