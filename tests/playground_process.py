"""`python bot.py --playground` as a user starts it: its own process, stopped with Ctrl+C."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class PlaygroundRun:
    url: str = ""
    returncode: int | None = None
    errors: bytes = b""


@contextlib.asynccontextmanager
async def playground_process(directory: Path) -> AsyncIterator[PlaygroundRun]:
    """The playground started in ``directory`` (also its TMPDIR) without a token; leaving
    the block presses Ctrl+C and records how the process ended and what it printed."""
    unwanted = ("DISCORD_TOKEN", "DATABASE_PATH", "DEV_GUILD_ID")
    environment = {key: value for key, value in os.environ.items() if key not in unwanted}
    environment["TMPDIR"] = str(directory)
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        str(ROOT / "bot.py"),
        "--playground",
        "--port",
        "0",
        "--no-browser",
        cwd=directory,
        env=environment,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert process.stdout is not None
    run = PlaygroundRun()
    try:
        first_line = (await asyncio.wait_for(process.stdout.readline(), 60)).decode()
        match = re.search(r"http://127\.0\.0\.1:\d+", first_line)
        assert match, f"the playground printed no address: {first_line!r}"
        run.url = match.group(0)
        yield run
        process.send_signal(signal.SIGINT)
        _, run.errors = await asyncio.wait_for(process.communicate(), 30)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
        run.returncode = process.returncode
