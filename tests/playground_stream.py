"""One open playground page's server-sent events, as the page reads them: for the
playground's tests here and for the playground in a container (tests/container)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp


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
