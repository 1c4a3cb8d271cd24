"""Sentences every game's table shares: the lobby and the turn lines above a board. A
sentence that counts something comes once per grammatical number, each whole, and
``counted`` picks the one that fits."""

from __future__ import annotations

from typing import Any


def counted(count: int, one: str, many: str, **fields: Any) -> str:
    """``one`` filled in when ``count`` is 1, otherwise ``many`` (``{count}`` is the count)."""
    return (one if count == 1 else many).format(count=count, **fields)


NEEDS_ONE_PLAYER = "Needs 1 more player."
NEEDS_PLAYERS = "Needs {count} more players."
READY = "Ready: the creator starts."
JOIN_OR_ADD = "Join, or the creator adds computer players."

ONE_EARLIER_TURN = "⋯ 1 earlier turn was played; the newest turns follow."
EARLIER_TURNS = "⋯ {count} earlier turns were played; the newest turns follow."
