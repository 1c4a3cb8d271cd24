"""The real bot in child processes, talking to a FakeDiscord served by the caller.

Starting Python and importing discord.py, Pillow and the games takes seconds on a busy
machine, far too long to restart a bot fifty times in a test. So a *zygote* process
imports everything once and forks a fresh bot process on request; each bot is an
ordinary process of its own (its own event loop, database connection and lock) that
the caller may SIGKILL at any moment.

    zygote = await BotZygote.start(ca_pem_path)
    pid = await zygote.spawn(port=fake.port, database=path, log=log_path)
    os.kill(pid, signal.SIGKILL)

Run as a script, this file is the zygote: it reads one JSON request a line on stdin
and answers each with the child's pid.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import os
import signal
import ssl
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


class BotZygote:
    """The parent's handle on the zygote process."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self._process = process

    @classmethod
    async def start(cls, ca_pem: Path, root: Path = ROOT) -> BotZygote:
        """A zygote of the bot in ``root``: this checkout, or another release's tree (its
        own ``tests/botprocess.py`` then runs its own code)."""
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            str(root / "tests" / "botprocess.py"),
            str(ca_pem),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            cwd=str(root),
        )
        zygote = cls(process)
        assert await zygote._line() == "ready"
        return zygote

    async def _line(self) -> str:
        assert self._process.stdout is not None
        line = await asyncio.wait_for(self._process.stdout.readline(), timeout=60)
        if not line:
            raise RuntimeError("the bot zygote exited")
        return line.decode().strip()

    async def spawn(self, *, port: int, database: Path, log: Path, seed_start: int = 1000) -> int:
        """Fork a bot on ``database`` against the fake on ``port``; its pid."""
        assert self._process.stdin is not None
        request = {"port": port, "database": str(database), "log": str(log), "seed": seed_start}
        self._process.stdin.write((json.dumps(request) + "\n").encode())
        await self._process.stdin.drain()
        return int(await self._line())

    async def close(self) -> None:
        """End the zygote (its bots are processes of their own and are not touched)."""
        if self._process.returncode is None:
            assert self._process.stdin is not None
            self._process.stdin.close()
            try:
                await asyncio.wait_for(self._process.wait(), timeout=5)
            except TimeoutError:
                self._process.kill()
                await self._process.wait()


async def wait_dead(pid: int, timeout: float = 10.0) -> None:
    """Until ``pid`` is gone (the zygote reaps its children at once)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        if loop.time() > deadline:
            raise AssertionError(f"bot process {pid} did not end")
        await asyncio.sleep(0.005)


# ---- the zygote and its children (run in the child processes) ---------------------------


def _run_bot(request: dict[str, Any], ca_pem: str) -> None:
    import aiohttp

    from bot import create_bot, serve
    from fakediscord.tls import FakeDiscordResolver

    logging.basicConfig(
        filename=request["log"],
        level=logging.INFO,
        format="%(process)d %(levelname)s %(name)s %(message)s",
    )

    async def main() -> None:
        context = ssl.create_default_context(cafile=ca_pem)
        connector = aiohttp.TCPConnector(resolver=FakeDiscordResolver(request["port"]), ssl=context)
        bot = create_bot(
            database_path=request["database"],
            dev_guild_id=None,
            seed_source=itertools.count(request["seed"]).__next__,
            connector=connector,
            guild_ready_timeout=0.01,
        )
        await serve(bot, "fake-token")

    asyncio.run(main())


def _zygote(ca_pem: str) -> None:
    sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
    # Everything slow to import, imported once before any fork.
    import aiohttp  # noqa: F401

    import bot  # noqa: F401
    import fakediscord.tls  # noqa: F401
    import render.bann
    import render.barbu
    import render.barree
    import render.gulbara  # noqa: F401

    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped by the kernel
    print("ready", flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            code = 0
            with contextlib.suppress(BaseException):
                os.dup2(os.open(os.devnull, os.O_RDWR), 0)
                os.dup2(os.open(request["log"], os.O_WRONLY | os.O_CREAT | os.O_APPEND), 1)
                os.dup2(1, 2)
                try:
                    _run_bot(request, ca_pem)
                except BaseException:
                    logging.getLogger("botprocess").exception("the bot process failed")
                    code = 1
            os._exit(code)
        print(pid, flush=True)


if __name__ == "__main__":
    _zygote(sys.argv[1])
