"""What every REST handler of the fake shares: the API prefix and Discord-shaped answers."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from aiohttp import web

API_PREFIX = "/api/v10"

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def json_response(
    data: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    # discord.py only decodes JSON when Content-Type is exactly "application/json".
    return web.Response(
        status=status,
        body=orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS),
        headers={"Content-Type": "application/json", **(headers or {})},
    )


def no_content() -> web.Response:
    return web.Response(status=204)


class FakeUnsupported(Exception):
    """The bot used something the fake does not implement: the test fails with this text."""
