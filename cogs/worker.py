"""The archive's worker: replays, records and dice luck are worked out off the event loop,
one at a time."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")
# Replays, exports and luck run on a worker of their own: the shared threads of
# asyncio.to_thread draw every game's board, and members asking for many replays at once
# must not take them all (they queue here instead, behind their "thinking…" message).
_ARCHIVE_WORKER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="archive")


async def replay_work(function: Callable[..., T], *arguments: Any) -> T:
    """Run the heavy part of an archive command off the event loop, one at a time."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_ARCHIVE_WORKER, functools.partial(function, *arguments))
