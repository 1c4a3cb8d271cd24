"""Try the bot without Discord: `python bot.py --playground`.

The real bot runs unchanged against the local Discord emulator (`fakediscord`), on a
fresh SQLite file of its own, and a web page on http://127.0.0.1:<port> shows the server's
channels as a Discord client would. The page plays as one of four simulated members at a
time; everything it does goes through the emulator as Discord interactions. Nothing leaves
the machine: the page listens on 127.0.0.1 unless `--host` says otherwise (0.0.0.0 in a
container, whose port `docker run -p` publishes), and the bot's connector resolves
Discord's host names to the emulator and refuses every other host.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
import tempfile
import webbrowser
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord

from fakediscord import FakeDiscord

from .scene import Scene
from .web import LOOPBACK, CannotListen, page_served

DEFAULT_PORT = 8765
# discord.py waits this long after the last GUILD_CREATE before it calls the bot ready.
GUILD_READY_TIMEOUT = 0.05
BotFactory = Callable[..., discord.Client]


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python bot.py --playground",
        description="Run the bot against a local Discord emulator and play it in a browser.",
    )
    parser.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help=f"port of the page (default {DEFAULT_PORT}; 0 or a taken port picks a free one)",
    )
    parser.add_argument(
        "--host",
        default=LOOPBACK,
        help=f"address the page listens on (default {LOOPBACK}, this machine only; 0.0.0.0 "
        "inside a container, so that `docker run -p` reaches it)",
    )
    parser.add_argument(
        "--no-browser", action="store_true", help="print the address but open no browser"
    )
    return parser.parse_args(argv)


def main(create_bot: BotFactory, argv: list[str]) -> int:
    """Run the playground until Ctrl+C or SIGTERM; `create_bot` is bot.py's factory."""
    arguments = parse_arguments(argv)
    level = os.environ.get("LOG_LEVEL", "WARNING").upper()
    # The playground has no voice channels: spare the user discord.py's voice warnings.
    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
    discord.utils.setup_logging(level=getattr(logging, level, logging.WARNING), root=True)
    with tempfile.TemporaryDirectory(prefix="tablebot-playground-") as folder:
        database = Path(folder) / "playground.sqlite3"

        def announce(url: str) -> None:
            print(f"Playground ready: {url}", flush=True)
            print(
                "The bot plays against a local Discord emulator; nothing leaves this machine.\n"
                "Games live in a temporary database that is deleted when you stop (Ctrl+C).",
                flush=True,
            )
            if arguments.host != LOOPBACK:
                print(
                    f"The page listens on {arguments.host}: it answers browsers at 127.0.0.1 or "
                    "localhost only, but any program that reaches the port can act as a player.",
                    flush=True,
                )
            if not arguments.no_browser and graphical_browser_likely():
                webbrowser.open(url)

        try:
            asyncio.run(run(create_bot, database, arguments.port, announce, arguments.host))
        except CannotListen as problem:
            print(f"error: {problem}", file=sys.stderr)
            return 2
    return 0


async def run(
    create_bot: BotFactory,
    database: Path,
    port: int,
    announce: Callable[[str], Any],
    host: str = LOOPBACK,
) -> None:
    """Start the emulator, the bot and the page; stop all three on SIGINT or SIGTERM."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    try:
        async with running(create_bot, database, port, host) as playground:
            announce(f"http://127.0.0.1:{playground.port}")
            await stop.wait()
    finally:
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(signum)


@dataclass
class Running:
    scene: Scene
    bot: discord.Client
    port: int


@contextlib.asynccontextmanager
async def running(
    create_bot: BotFactory, database: Path, port: int, host: str = LOOPBACK
) -> AsyncIterator[Running]:
    """The emulator with its scene, the bot connected to it, and the page's port."""
    async with FakeDiscord() as fake:
        scene = Scene.build(fake)
        bot = create_bot(
            database_path=str(database),
            dev_guild_id=scene.guild.id,
            connector=fake.connector(),
            guild_ready_timeout=GUILD_READY_TIMEOUT,
        )
        await fake.start_bot(bot, timeout=60)
        async with page_served(scene, port, host) as bound:
            yield Running(scene, bot, bound)


def graphical_browser_likely() -> bool:
    """Without a display, Python's webbrowser would start a text browser in this terminal."""
    if sys.platform in ("darwin", "win32") or os.environ.get("BROWSER"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
