"""One loop that sleeps until the earliest due moment of any table, then handles what is due.

The loop keeps the earliest due moment in memory: a tick with nothing due is one
comparison, and every save that sets an earlier moment pokes the loop awake. Time comes
from an injected clock, so tests move it forward instead of waiting.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

log = logging.getLogger("tablebot.scheduler")

RECHECK_SECONDS = 60.0
"""Even with nothing due, the database is asked again this often, so moments set by
another process sharing the database are seen."""


RETRY_SECONDS = 5.0
"""After a failed batch (the database or Discord down), the loop waits this long."""


class TimeSource(Protocol):
    """Where the scheduler and the turn clocks read the time, and how they wait for it."""

    def now(self) -> float: ...

    async def wait(self, wake: asyncio.Event, until: float | None) -> None:
        """Return when ``wake`` is set or the clock reaches ``until`` (None: never)."""


class SystemTime:
    """Wall-clock time (seconds since the epoch, like Discord's timestamps)."""

    def now(self) -> float:
        return time.time()

    async def wait(self, wake: asyncio.Event, until: float | None) -> None:
        delay = None if until is None else max(0.0, until - self.now())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(wake.wait(), timeout=delay)


class ManualTime:
    """A time source that only moves when told to (tests, the playground, benchmarks)."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = start
        self._moved = asyncio.Event()

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        self._now += seconds
        moved, self._moved = self._moved, asyncio.Event()
        moved.set()

    async def wait(self, wake: asyncio.Event, until: float | None) -> None:
        while not wake.is_set() and (until is None or self._now < until):
            moved = asyncio.ensure_future(self._moved.wait())
            woken = asyncio.ensure_future(wake.wait())
            try:
                await asyncio.wait({moved, woken}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                moved.cancel()
                woken.cancel()


class Scheduler:
    """Calls ``run_due(now)`` (given at ``start``) whenever the earliest due moment has come."""

    def __init__(self, clock: TimeSource, next_due: Callable[[], Awaitable[float | None]]) -> None:
        self.clock = clock
        self._next_due = next_due
        self._run_due: Callable[[float], Awaitable[None]] | None = None
        self._earliest: float | None = None
        self._looked_at = 0.0
        self._wake = asyncio.Event()
        self._waiting = False
        self._idle_changed = asyncio.Condition()
        self._task: asyncio.Task[None] | None = None

    async def start(self, run_due: Callable[[float], Awaitable[None]]) -> None:
        """Read the earliest due moment and start the loop calling ``run_due``; whatever
        fell due while the bot was down is handled by its first tick, once. (Saves poke the
        scheduler before the part that handles what is due exists, so that part is named
        here rather than when the scheduler is made.)"""
        self._run_due = run_due
        await self._look()
        self._task = asyncio.get_running_loop().create_task(self._loop(), name="scheduler")

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    def poke(self, at: float | None) -> None:
        """A table is now due at ``at``: wake the loop if that is earlier than it knew."""
        if at is None:
            return
        if self._earliest is None or at < self._earliest:
            self._earliest = at
            self._wake.set()

    def is_due(self, now: float) -> bool:
        """The tick's whole cost when nothing is due: one comparison."""
        return self._earliest is not None and self._earliest <= now

    async def settled(self) -> None:
        """Wait until the loop sleeps with nothing to do before its next wake-up: it has
        handled everything due at the clock's current time that it can know of (a moment
        another process set is known from the next recheck of the database on)."""
        async with self._idle_changed:
            await self._idle_changed.wait_for(
                lambda: (
                    self._waiting
                    and not self._wake.is_set()
                    and self.clock.now() < self._wakes_at()
                )
            )

    def _wakes_at(self) -> float:
        """When the sleeping loop looks again: at the earliest due moment it knows, or
        at the recheck if that comes first (another process may have set an earlier one)."""
        recheck = self._looked_at + RECHECK_SECONDS
        return recheck if self._earliest is None else min(self._earliest, recheck)

    async def _look(self) -> None:
        """Read the earliest due moment of every table from the database."""
        self._looked_at = self.clock.now()
        self._earliest = await self._next_due()

    async def _loop(self) -> None:
        while True:
            now = self.clock.now()
            if self.is_due(now) and self._run_due is not None:
                try:
                    await self._run_due(now)
                except Exception:
                    log.exception("scheduler: handling due tables failed; retrying later")
                    await self.clock.wait(self._wake, now + RETRY_SECONDS)
                    continue
                await self._look()
                if self.is_due(now):
                    # More than one batch was due: give the rest of the bot a turn first.
                    await asyncio.sleep(0)
                    continue
            self._wake.clear()
            async with self._idle_changed:
                self._waiting = True
                self._idle_changed.notify_all()
            await self.clock.wait(self._wake, self._wakes_at())
            self._waiting = False
            if not self.is_due(self.clock.now()):
                # Woken by the recheck (or a poke): ask the database again.
                await self._look()
