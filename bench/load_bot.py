"""The bot as bench_load runs it: a process of its own that measures itself.

Started by bench_load with the fake Discord's port and CA. Besides running the bot it
samples its own event-loop lateness (a 5 ms timer) and its resident memory (every
second). SIGUSR1 starts the measured period (warm-up before it is not counted); on
SIGTERM the bot closes and the figures are written as JSON to ``--report``.

``--root`` picks the checkout whose bot runs, so one bench compares two versions.
``--trace-memory N`` traces Python allocations (tracemalloc, which slows the bot) and adds
to the report the N source lines whose allocations grew most over the measured period.
"""

from __future__ import annotations

import _sqlite3
import argparse
import asyncio
import ctypes
import gc
import json
import logging
import signal
import ssl
import sys
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import cast

HERE = Path(__file__).resolve().parents[1]


class SelfMeter:
    """Event-loop lateness and resident memory of this process, since the last reset."""

    def __init__(self) -> None:
        self.started = time.monotonic()
        self.worst_stall_ms = 0.0
        self.worst_coarse_stall_ms = 0.0
        self.worst_stall_cpu_ms = 0.0
        self.stalls_over_100ms = 0
        self.worst_blocking_ms = 0.0
        self.blocking_over_100ms = 0
        self.collections: dict[int, list[float]] = {0: [], 1: [], 2: []}
        self._collection_started = 0.0
        gc.callbacks.append(self._on_collection)
        self.rss_kib: list[tuple[float, int]] = []
        self.python_blocks: list[tuple[float, int]] = []
        self.sqlite_kib: list[tuple[float, int]] = []
        self.cpu_started = time.process_time()
        self.baseline: tracemalloc.Snapshot | None = None

    def _on_collection(self, phase: str, info: dict[str, int]) -> None:
        """Times the garbage collector's passes: a full pass over a big heap stalls the
        loop as surely as slow code does."""
        if phase == "start":
            self._collection_started = time.perf_counter()
        else:
            elapsed = (time.perf_counter() - self._collection_started) * 1000
            self.collections[info["generation"]].append(elapsed)

    def reset(self) -> None:
        self.collections = {0: [], 1: [], 2: []}
        self.baseline = tracemalloc.take_snapshot() if tracemalloc.is_tracing() else None
        self.started = time.monotonic()
        self.cpu_started = time.process_time()
        self.worst_stall_ms = 0.0
        self.worst_coarse_stall_ms = 0.0
        self.worst_stall_cpu_ms = 0.0
        self.stalls_over_100ms = 0
        self.worst_blocking_ms = 0.0
        self.blocking_over_100ms = 0
        self.rss_kib = []
        self.python_blocks = []
        self.sqlite_kib = []

    async def watch_loop(self) -> None:
        while True:
            before = time.perf_counter()
            await asyncio.sleep(0.005)
            late = (time.perf_counter() - before) * 1000 - 5
            self.worst_stall_ms = max(self.worst_stall_ms, late)
            self.stalls_over_100ms += late > 100

    async def watch_work(self) -> None:
        """A coarser timer that also reads the event loop thread's own CPU time: a stall it
        spent computing was the bot's work; one without CPU means the machine did not run
        the process (on a shared machine, other processes had the cores). Reading a
        thread's CPU time is a system call, so not at every 5 ms tick."""
        while True:
            before, cpu_before = time.perf_counter(), time.thread_time()
            await asyncio.sleep(0.05)
            late = (time.perf_counter() - before) * 1000 - 50
            busy = (time.thread_time() - cpu_before) * 1000
            if late > self.worst_coarse_stall_ms:
                self.worst_coarse_stall_ms, self.worst_stall_cpu_ms = late, busy
            self.blocking_over_100ms += late > 100 and busy > 100
            self.worst_blocking_ms = max(self.worst_blocking_ms, busy if late > 100 else 0.0)

    async def watch_memory(self) -> None:
        while True:
            now = time.monotonic() - self.started
            self.rss_kib.append((now, resident_kib()))
            # Blocks Python itself holds and SQLite's own memory: both flat while resident
            # memory grows puts the growth in the C allocator, not in objects kept.
            self.python_blocks.append((now, sys.getallocatedblocks()))
            self.sqlite_kib.append((now, sqlite_memory_kib()))
            await asyncio.sleep(1.0)

    def memory_growth(self, lines: int) -> list[str]:
        """The source lines whose live allocations grew most since the reset."""
        if self.baseline is None:
            return []
        growth = tracemalloc.take_snapshot().compare_to(self.baseline, "lineno")
        return [str(difference) for difference in growth[:lines]]

    def figures(self) -> dict[str, object]:
        return {
            "worst_stall_ms": self.worst_stall_ms,
            "worst_coarse_stall_ms": self.worst_coarse_stall_ms,
            "worst_stall_cpu_ms": self.worst_stall_cpu_ms,
            "stalls_over_100ms": self.stalls_over_100ms,
            "worst_blocking_ms": self.worst_blocking_ms,
            "blocking_over_100ms": self.blocking_over_100ms,
            "collections": self.collections,
            "tracked_objects": tracked_objects(),
            "rss_kib": self.rss_kib,
            "python_blocks": self.python_blocks,
            "sqlite_kib": self.sqlite_kib,
            "cpu_seconds": time.process_time() - self.cpu_started,
        }


def tracked_objects(kinds: int = 8) -> dict[str, int]:
    """How many objects the garbage collector walks in a full pass, by the most common
    types (frozen start-up objects excluded)."""
    counts = Counter(type(thing).__name__ for thing in gc.get_objects())
    return {"all": sum(counts.values()), **dict(counts.most_common(kinds))}


def _sqlite_memory_used() -> Callable[[], int] | None:
    """SQLite's ``sqlite3_memory_used`` from the library the sqlite3 module is linked with;
    None where that library is built in statically."""
    try:
        function = ctypes.CDLL(_sqlite3.__file__).sqlite3_memory_used
    except (OSError, AttributeError):
        return None
    function.restype = ctypes.c_int64
    return cast(Callable[[], int], function)


SQLITE_MEMORY_USED = _sqlite_memory_used()


def sqlite_memory_kib() -> int:
    """What SQLite's own allocator holds (page caches, statements); 0 if unknown."""
    return SQLITE_MEMORY_USED() // 1024 if SQLITE_MEMORY_USED else 0


def resident_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def run(arguments: argparse.Namespace) -> None:
    import aiohttp

    from bot import create_bot, serve
    from fakediscord.tls import FakeDiscordResolver

    meter = SelfMeter()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGUSR1, meter.reset)
    watchers = [
        loop.create_task(meter.watch_loop()),
        loop.create_task(meter.watch_work()),
        loop.create_task(meter.watch_memory()),
    ]
    context = ssl.create_default_context(cafile=arguments.ca)
    connector = aiohttp.TCPConnector(resolver=FakeDiscordResolver(arguments.port), ssl=context)
    bot = create_bot(
        database_path=arguments.database,
        dev_guild_id=None,
        connector=connector,
        guild_ready_timeout=0.01,
    )
    await serve(bot, "fake-token")
    for watcher in watchers:
        watcher.cancel()
    figures = meter.figures() | {"memory_growth": meter.memory_growth(arguments.trace_memory)}
    Path(arguments.report).write_text(json.dumps(figures))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--root", type=Path, default=HERE)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--ca", required=True)
    parser.add_argument("--database", required=True)
    parser.add_argument("--report", required=True)
    parser.add_argument("--trace-memory", type=int, default=0)
    arguments = parser.parse_args()
    if arguments.trace_memory:
        tracemalloc.start()
    logging.basicConfig(level=logging.WARNING, format="bot %(levelname)s %(name)s %(message)s")
    sys.path[:0] = [str(arguments.root)]
    sys.path.append(str(HERE / "tests"))
    try:
        from bot import run_event_loop
    except ImportError:  # a checkout from before the bot ran on uvloop
        run_event_loop = asyncio.run
    run_event_loop(run(arguments))


if __name__ == "__main__":
    main()
