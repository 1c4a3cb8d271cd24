"""What this process keeps about each running game, and forgets when it ends."""

from __future__ import annotations

import asyncio
from collections import defaultdict

from cogs.table.private import PrivateMessages


class GameMemory:
    """Each game's lock (one change of a game at a time in this process; other processes
    are kept apart by the versioned save), its players' newest private messages and when
    this process last counted the messages below its board."""

    def __init__(self) -> None:
        self.locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self.private = PrivateMessages()
        self.board_looks: dict[int, float] = {}

    def lock(self, game_id: int) -> asyncio.Lock:
        return self.locks[game_id]

    def forget(self, game_id: int) -> None:
        """Drop what this process kept about a game that has ended.

        A click that still waits for the lock finds the game finished (a new version)
        and is refused as outdated, so dropping the lock is safe.
        """
        self.locks.pop(game_id, None)
        self.private.forget(game_id)
        self.board_looks.pop(game_id, None)
