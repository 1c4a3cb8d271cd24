"""Game reviews worked out in a worker process, one game once, a bounded queue.

A review judges every decision of a game within a fixed budget: seconds of one core,
which would stall the event loop in a thread of the bot's process (the judging holds the
GIL) and hold up every board. So reviews run in their own worker processes, apart from
the render pool's, and at most ``limit`` games wait or run at a time: a request beyond
that is refused (``ReviewQueueFull``) instead of queuing for minutes.

Two requests for the same game while it is being reviewed share the one review. Its
progress (decisions judged of the total) comes back through a queue the workers were
given when they started, and reaches each request's ``progress`` callback.

With ``processes=0`` reviews run in a thread instead (tests).
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import importlib.util
import itertools
import logging
import multiprocessing
import os
import queue
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, Protocol, TypeVar

from games.proof import GameFacts
from games.review import review_game

log = logging.getLogger("tablebot.reviews")
T = TypeVar("T")

DEFAULT_LIMIT = 4
POLL_SECONDS = 0.25
"""How often the bot looks at the workers' progress reports."""

Progress = Callable[[int, int], Awaitable[None]]
"""Told (decisions judged, decisions in all) as the review goes on."""


@functools.cache
def engine_version(kind: str) -> str:
    """What made a review of game ``kind``: a digest of the source of the review engine
    and of the game's rules and computer players, which its reviewer builds on. A stored
    review made by other code counts as missing, so a changed engine reviews anew."""
    digest = hashlib.sha256()
    for package in ("games.review", f"games.{kind}"):
        spec = importlib.util.find_spec(package)
        assert spec is not None and spec.origin is not None, f"{package} is importable"
        folders = spec.submodule_search_locations
        files = (
            sorted(path for folder in folders for path in Path(folder).rglob("*.py"))
            if folders
            else [Path(spec.origin)]
        )
        for path in files:
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


class ReviewQueueFull(Exception):
    """As many reviews as the pool takes are waiting or running."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"{limit} reviews are already queued")
        self.limit = limit


class _Reports(Protocol):
    def put(self, item: tuple[int, int, int], /) -> None: ...

    def get_nowait(self) -> tuple[int, int, int]: ...


_worker_reports: _Reports | None = None
"""In a worker process: where its reviews report their progress."""


NICENESS = 10
"""How much lower than the bot's the review workers' priority is: on a busy machine the
boards' drawing and the event loop get a core first, and reviews take what is left."""


def _start_worker(reports: _Reports) -> None:
    global _worker_reports
    _worker_reports = reports
    os.nice(NICENESS)


def _review_in_worker(job: int, facts: GameFacts, actions: Sequence[tuple[int | None, str]]) -> str:
    assert _worker_reports is not None, "the pool starts its workers with a report queue"
    return _reviewed(_worker_reports, job, facts, actions)


def _reviewed(
    reports: _Reports, job: int, facts: GameFacts, actions: Sequence[tuple[int | None, str]]
) -> str:
    """The review's JSON, reporting (job, done, total) after each decision."""

    def progress(done: int, total: int) -> None:
        reports.put((job, done, total))

    return review_game(facts, actions, progress).to_json()


class _Job:
    def __init__(self, future: asyncio.Future[str]) -> None:
        self.future = future
        self.listeners: list[Progress] = []


class ReviewPool:
    """Reviews games in ``processes`` worker processes (started on first use), at most
    ``limit`` games waiting or running."""

    def __init__(self, processes: int, limit: int = DEFAULT_LIMIT) -> None:
        self.processes = processes
        self.limit = limit
        self._pool: ProcessPoolExecutor | None = None
        # Threads report through a queue of this process; worker processes through one
        # made with the pool (``_executor``).
        self._reports: _Reports | None = queue.Queue() if processes == 0 else None
        self._jobs: dict[int, _Job] = {}
        self._numbers: dict[int, int] = {}
        self._job_numbers = itertools.count(1)
        self._poller: asyncio.Task[None] | None = None

    def is_full(self, game_id: int) -> bool:
        """Whether a review of game ``game_id`` would be refused now: the queue is full and
        that game is not in it already."""
        return len(self._jobs) >= self.limit and game_id not in self._jobs

    async def review(
        self,
        game_id: int,
        facts: GameFacts,
        actions: Sequence[tuple[int | None, str]],
        progress: Progress,
    ) -> str:
        """The review's JSON of game ``game_id``; ``ReviewQueueFull`` when the queue is
        full (unless that game is already being reviewed: then this waits for it)."""
        job = self._jobs.get(game_id)
        if job is None:
            if len(self._jobs) >= self.limit:
                raise ReviewQueueFull(self.limit)
            job = self._start(game_id, facts, actions)
        job.listeners.append(progress)
        try:
            return await asyncio.shield(job.future)
        finally:
            job.listeners.remove(progress)

    async def run(self, function: Callable[..., T], *arguments: Any) -> T:
        """A piece of review work besides whole reviews (a puzzle found or judged) in the
        same workers; picklable arguments, no progress, outside the queue's count."""
        if self.processes == 0:
            return await asyncio.to_thread(function, *arguments)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor(), function, *arguments)
        except BrokenProcessPool:
            log.warning("a review worker process died; starting new ones")
            self.close()
            return await loop.run_in_executor(self._executor(), function, *arguments)

    def _start(
        self, game_id: int, facts: GameFacts, actions: Sequence[tuple[int | None, str]]
    ) -> _Job:
        loop = asyncio.get_running_loop()
        number = next(self._job_numbers)
        if self._reports is not None and self.processes == 0:
            future = asyncio.ensure_future(
                asyncio.to_thread(_reviewed, self._reports, number, facts, list(actions))
            )
        else:
            future = asyncio.ensure_future(self._in_process(number, facts, list(actions)))
        job = _Job(future)
        self._jobs[game_id] = job
        self._numbers[number] = game_id
        future.add_done_callback(lambda _: self._finished(game_id, number))
        if self._poller is None or self._poller.done():
            self._poller = loop.create_task(self._poll())
        return job

    async def _in_process(
        self, number: int, facts: GameFacts, actions: list[tuple[int | None, str]]
    ) -> str:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(
                self._executor(), _review_in_worker, number, facts, actions
            )
        except BrokenProcessPool:
            # A worker died (killed by the OS, say): start afresh and review it again.
            log.warning("a review worker process died; starting new ones")
            self.close()
            return await loop.run_in_executor(
                self._executor(), _review_in_worker, number, facts, actions
            )

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # Forkserver, not fork: forking a process that runs threads and an event loop
            # can copy a held lock into the child.
            context = multiprocessing.get_context("forkserver")
            reports = context.Queue()
            self._reports = reports
            self._pool = ProcessPoolExecutor(
                max_workers=self.processes,
                mp_context=context,
                initializer=_start_worker,
                initargs=(reports,),
            )
        return self._pool

    def _finished(self, game_id: int, number: int) -> None:
        self._jobs.pop(game_id, None)
        self._numbers.pop(number, None)

    async def _poll(self) -> None:
        """Hand the workers' progress reports to the waiting requests while any run."""
        while self._jobs:
            await asyncio.sleep(POLL_SECONDS)
            await self._deliver()
        await self._deliver()

    async def _deliver(self) -> None:
        latest: dict[int, tuple[int, int]] = {}
        while self._reports is not None:
            try:
                number, done, total = self._reports.get_nowait()
            except queue.Empty:
                break
            latest[number] = (done, total)
        for number, (done, total) in latest.items():
            job = self._jobs.get(self._numbers.get(number, 0))
            for listener in list(job.listeners if job else ()):
                try:
                    await listener(done, total)
                except Exception:
                    # A progress message that cannot be edited (deleted, rate limited)
                    # must not stop the others' or the review.
                    log.warning("a review's progress could not be shown", exc_info=True)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
            self._reports = None
