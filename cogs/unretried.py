"""Discord's first refusal raised at once, where sleeping it out would hold a table up.

discord.py sleeps out a 429 (its retry_after, up to five times) and retries a 500 after
sleeps of seconds before it gives up. A board is drawn under its table's lock, so every
other click on that table waited as long: 6.8 s behind a 429 asking for 1.3 s, and an
hour behind Discord's refusal to edit an old message again (code 30046), whose
retry_after is when its budget comes back. Inside ``unretried()`` such a refusal raises
its ``discord.HTTPException`` at Discord's first answer and the caller decides (the board
keeper posts a fresh board, or retries later without the lock); every other request keeps
discord.py's patience.

The refusal is read in aiohttp's trace of each request, which ``refusal_trace()`` makes
and ``bot.py`` installs as discord.py's ``http_trace``.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from contextvars import ContextVar
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord

_unretried: ContextVar[bool] = ContextVar("unretried", default=False)


@contextlib.contextmanager
def unretried() -> Iterator[None]:
    """Discord's requests made inside raise at its first 429 or 5xx, unretried."""
    token = _unretried.set(True)
    try:
        yield
    finally:
        _unretried.reset(token)


def refusal_trace() -> aiohttp.TraceConfig:
    """The trace that raises, inside ``unretried()``, what discord.py would sleep out."""
    trace = aiohttp.TraceConfig()
    trace.on_request_end.append(_raise_refusal)
    return trace


async def _raise_refusal(
    session: aiohttp.ClientSession, context: SimpleNamespace, end: aiohttp.TraceRequestEndParams
) -> None:
    response = end.response
    if not _unretried.get() or not (response.status == 429 or response.status >= 500):
        return
    body = await response.text(encoding="utf-8")
    if response.status >= 500:
        raise discord.DiscordServerError(response, _error_of(body))
    raise RateLimitedNow(response, _error_of(body))


class RateLimitedNow(discord.HTTPException):
    """Discord's 429, raised at its first answer, with the seconds it asked to wait."""

    def __init__(self, response: aiohttp.ClientResponse, error: dict[str, Any] | str) -> None:
        super().__init__(response, error)
        wait = error.get("retry_after") if isinstance(error, dict) else None
        self.retry_after: float | None = float(wait) if isinstance(wait, int | float) else None


def _error_of(body: str) -> dict[str, Any] | str:
    """Discord's error object (``code``, ``message``), or the text of a page that is none."""
    try:
        error = json.loads(body)
    except ValueError:
        return body
    return error if isinstance(error, dict) else body
