"""Board pictures drawn in worker processes, so drawing never holds up the event loop.

Pillow's drawing, text and quantizing hold the GIL: in a thread of the bot's process they
still take turns with the event loop, and under load (bench/bench_load.py, 200 games)
rendering was about half of the bot's CPU, so acknowledgements waited behind it. A worker
process draws on another core and hands back PNG bytes; only the view dict and the names
cross the process boundary.

With ``processes=0`` the pool draws in a thread instead (tests, and machines where
starting processes is not wanted).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, NamedTuple

log = logging.getLogger("tablebot.render")


class RenderJob(NamedTuple):
    """A module-level drawing function and its picklable arguments."""

    draw: Callable[..., bytes]
    arguments: tuple[Any, ...]

    def run(self) -> bytes:
        return self.draw(*self.arguments)


class RenderPool:
    """Runs render jobs in ``processes`` worker processes, started on first use."""

    def __init__(self, processes: int) -> None:
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None

    async def render(self, job: RenderJob) -> bytes:
        if self.processes == 0:
            return await asyncio.to_thread(job.run)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor(), job.draw, *job.arguments)
        except BrokenProcessPool:
            # A worker died (killed by the OS, say): start afresh and draw this one here.
            log.warning("a render worker process died; starting new ones")
            self.close()
            return await asyncio.to_thread(job.run)

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # Forkserver, not fork: forking a process that runs threads and an event loop
            # can copy a held lock into the child.
            context = multiprocessing.get_context("forkserver")
            self._pool = ProcessPoolExecutor(max_workers=self.processes, mp_context=context)
        return self._pool

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
