"""A release's own bot, run from its tree against a fake Discord on this machine.

    cd RELEASE_TREE && python release_bot.py PORT DATABASE CA_PEM

Every release's ``create_bot`` takes ``database_path``, ``dev_guild_id``, ``seed_source``
and discord.py's own arguments; this script needs nothing else of it. The connector
that points discord.py at the fake comes from today's ``fakediscord/tls.py``, loaded by
its path so that the release's own modules (its ``fakediscord`` too) are the ones
imported. SIGTERM closes the bot.
"""

from __future__ import annotations

import asyncio
import importlib.util
import itertools
import logging
import os
import signal
import ssl
import sys
from pathlib import Path

TODAY = Path(__file__).resolve().parents[3]


def _today_tls():
    spec = importlib.util.spec_from_file_location("today_tls", TODAY / "fakediscord" / "tls.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


async def _serve(port: int, database: str, ca_pem: str) -> None:
    import aiohttp

    from bot import create_bot

    context = ssl.create_default_context(cafile=ca_pem)
    connector = aiohttp.TCPConnector(resolver=_today_tls().FakeDiscordResolver(port), ssl=context)
    bot = create_bot(
        database_path=database,
        dev_guild_id=None,
        seed_source=itertools.count(1000).__next__,
        connector=connector,
        guild_ready_timeout=0.01,
    )
    closing: list[asyncio.Future[None]] = []
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(
        signal.SIGTERM, lambda: closing.append(asyncio.ensure_future(bot.close()))
    )
    async with bot:
        await bot.start("fake-token")
    # The close the signal started goes on after the gateway is closed: the database.
    await asyncio.gather(*closing)


def main() -> None:
    port, database, ca_pem = sys.argv[1:4]
    sys.path[0] = os.getcwd()
    # The checkout's editable install finds today's packages by name: every module must
    # come from the release's tree (an old one without render/__init__.py, say).
    sys.meta_path[:] = [
        finder for finder in sys.meta_path if not type(finder).__module__.startswith("__editable__")
    ]
    os.environ["RENDER_PROCESSES"] = "0"
    logging.basicConfig(
        stream=sys.stderr, level=logging.INFO, format="%(levelname)s %(name)s %(message)s"
    )
    asyncio.run(_serve(int(port), database, ca_pem))


if __name__ == "__main__":
    main()
