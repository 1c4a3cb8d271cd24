"""Board pictures drawn in worker processes, so drawing never holds up the event loop.

Pillow's drawing, text and quantizing hold the GIL: in a thread of the bot's process they
still take turns with the event loop, and under load (bench/bench_load.py, 200 games)
rendering was about half of the bot's CPU, so acknowledgements waited behind it. A worker
process draws on another core and hands back PNG bytes; only the view dict and the names
cross the process boundary.

Each worker is a child process (``python -m cogs.render_pool``) talking over its standard
input and output, which the event loop reads and writes itself; jobs queue in the pipe,
so a worker goes from one board to the next without waiting for the bot. The standard library's
process pool did the same through a manager thread and a feeder thread per pool, and
waking those threads and passing the GIL between them cost the bot's process a sixth of
its CPU per move (bench/bench_load.py under py-spy), more than the rules of the move.

With ``processes=0`` the pool draws in a thread instead (tests, and machines where
starting processes is not wanted).
"""

from __future__ import annotations

import asyncio
import collections
import logging
import os
import pickle
import signal
import struct
import sys
from collections.abc import Callable
from typing import Any, BinaryIO, NamedTuple

log = logging.getLogger("tablebot.render")

LENGTH = struct.Struct(">Q")
"""Each message on a worker's pipes: its length, then a pickle."""


class RenderJob(NamedTuple):
    """A module-level drawing function and its picklable arguments."""

    draw: Callable[..., bytes]
    arguments: tuple[Any, ...]

    def run(self) -> bytes:
        return self.draw(*self.arguments)


class WorkerDied(Exception):
    """A render worker's pipe closed before it answered: the process is gone."""


class _Worker:
    """One worker process and its pipes. Jobs are sent as they come and answered in
    order, so a worker never waits for the bot's event loop between two boards; a reader
    task hands each answer to the job that asked for it."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.waiting: collections.deque[asyncio.Future[bytes]] = collections.deque()
        self.reader = asyncio.get_running_loop().create_task(
            self._read_answers(), name="render worker answers"
        )

    @classmethod
    async def start(cls) -> _Worker:
        # The worker imports what the bot imports from where the bot imports it.
        path = os.pathsep.join(entry for entry in sys.path if entry)
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            __name__,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": path},
        )
        return cls(process)

    @property
    def alive(self) -> bool:
        return not self.reader.done()

    def send(self, job: RenderJob) -> asyncio.Future[bytes]:
        assert self.process.stdin is not None
        if not self.alive:
            raise WorkerDied("the worker has stopped")
        request = pickle.dumps((job.draw, job.arguments), pickle.HIGHEST_PROTOCOL)
        answer: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self.waiting.append(answer)
        # A job is a few kilobytes: the pipe takes it at once, no drain needed.
        self.process.stdin.write(LENGTH.pack(len(request)) + request)
        return answer

    async def _read_answers(self) -> None:
        assert self.process.stdout is not None
        try:
            while True:
                header = await self.process.stdout.readexactly(LENGTH.size)
                (size,) = LENGTH.unpack(header)
                drawn, answer = pickle.loads(await self.process.stdout.readexactly(size))
                future = self.waiting.popleft()
                if future.done():
                    continue  # the board was given up on; its answer goes nowhere
                if drawn:
                    future.set_result(bytes(answer))
                else:
                    future.set_exception(answer)
        except (asyncio.IncompleteReadError, ConnectionError) as broken:
            for future in self.waiting:
                if not future.done():
                    future.set_exception(WorkerDied(str(broken)))
            self.waiting.clear()

    def stop(self) -> None:
        if self.process.returncode is None:
            self.process.kill()


class RenderPool:
    """Runs render jobs in ``processes`` worker processes, started on first use; each job
    goes to the worker with the fewest boards waiting."""

    def __init__(self, processes: int) -> None:
        self.processes = processes
        self._workers: list[_Worker] = []
        self._starting: asyncio.Lock | None = None

    @property
    def worker_ids(self) -> list[int]:
        """The worker processes' ids (none before the first board, or without workers)."""
        return [worker.process.pid for worker in self._workers]

    async def render(self, job: RenderJob) -> bytes:
        if self.processes == 0:
            return await asyncio.to_thread(job.run)
        worker = min(await self._started(), key=lambda worker: len(worker.waiting))
        try:
            return await worker.send(job)
        except (WorkerDied, ConnectionError):
            # Killed by the OS, say: a new one takes its place and this board is drawn
            # here (as are the boards in flight when the pool closes).
            if worker in self._workers:
                log.warning("a render worker process died; starting a new one")
                worker.stop()
                self._workers.remove(worker)
            return await asyncio.to_thread(job.run)

    async def _started(self) -> list[_Worker]:
        if self._starting is None:
            self._starting = asyncio.Lock()
        async with self._starting:
            missing = self.processes - len(self._workers)
            if missing:
                self._workers += await asyncio.gather(*(_Worker.start() for _ in range(missing)))
        return self._workers

    async def close(self) -> None:
        workers, self._workers = self._workers, []
        for worker in workers:
            worker.stop()
        # Each child reaped and its pipes closed while the event loop still runs.
        await asyncio.gather(*(worker.process.wait() for worker in workers))
        await asyncio.gather(*(worker.reader for worker in workers))


def serve(requests: BinaryIO, answers: BinaryIO) -> None:
    """A worker's life: draw each job read from ``requests``, answer the PNG bytes (or the
    exception drawing raised) on ``answers``, until the bot closes the pipe."""
    while header := requests.read(LENGTH.size):
        draw, arguments = pickle.loads(requests.read(LENGTH.unpack(header)[0]))
        try:
            answer: tuple[bool, object] = (True, draw(*arguments))
        except Exception as problem:  # the bot raises it where it asked for the board
            answer = (False, problem)
        message = pickle.dumps(answer, pickle.HIGHEST_PROTOCOL)
        answers.write(LENGTH.pack(len(message)) + message)
        answers.flush()


if __name__ == "__main__":
    # The bot stops its workers by closing their pipes (or killing them); a Ctrl-C meant
    # for the bot reaches its whole process group and is the bot's to handle.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # The answers own standard output: anything else printed goes to standard error.
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    sys.stdout = sys.stderr
    serve(sys.stdin.buffer, answers)
