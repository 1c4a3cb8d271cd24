"""Discord's limit on editing old messages.

A message older than an hour may be edited only so many times; beyond that Discord answers
429 with code 30046 and publishes no numbers. The fake keeps a budget of such edits per
channel over the last hour, measured by its own clock (a test may move it), and answers
beyond it as Discord does: with a retry_after and the headers that make discord.py sleep
it out and retry.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from aiohttp import web

from .model import Message, snowflake_seconds
from .responses import json_response

HOUR = 3600.0
EDIT_LIMIT_CODE = 30046
OLD_EDITS_PER_HOUR = 10
"""The default budget: Discord's is unpublished; this many lets a test meet it quickly."""


class OldMessageEdits:
    """Counts the edits of messages older than an hour, per channel, over the last hour."""

    def __init__(self, now: Callable[[], float]) -> None:
        self._now = now
        self.per_hour = OLD_EDITS_PER_HOUR
        self._spent: dict[int, deque[float]] = {}

    def refusal(self, message: Message) -> web.Response | None:
        """The answer to an edit of ``message`` beyond the budget; None lets it through
        (an edit of an old message then spends one of its channel's edits)."""
        now = self._now()
        if now - snowflake_seconds(message.id) < HOUR:
            return None
        spent = self._spent.setdefault(message.channel.id, deque())
        while spent and now - spent[0] >= HOUR:
            spent.popleft()
        if len(spent) >= self.per_hour:
            return edit_limit_response(HOUR - (now - spent[0]) if spent else HOUR)
        spent.append(now)
        return None


def edit_limit_response(retry_after: float) -> web.Response:
    return json_response(
        {
            "message": "Maximum number of edits to messages older than 1 hour reached.",
            "code": EDIT_LIMIT_CODE,
            "retry_after": round(retry_after, 3),
            "global": False,
        },
        429,
        {
            # Without Via discord.py takes a 429 for a Cloudflare ban and does not retry.
            "Via": "1.1 google",
            "Retry-After": str(max(1, round(retry_after))),
            "X-RateLimit-Scope": "user",
        },
    )
