"""One real bot process for the scale benchmarks, pointed at a fake Discord in another
process (the benchmark's), trusting that fake's test CA.

    python -m bench.scale_bot --port P --ca ca.pem --database TARGET
        [--shard-count N --shard-ids 0-1] [--profile FILE] [--metrics-port N]

It runs exactly what `python bot.py` runs (`serve` on the same event loop, uvloop where
installed: SIGTERM closes it cleanly); only the connector differs, so the bot talks to
the fake instead of discord.com. ``--profile FILE`` runs it under cProfile (which slows
it) and writes the statistics to FILE when it stops, for bench_scale's ``--profile``;
``--metrics-port`` serves the bot's /metrics, whose database calls bench_scale counts.
"""

from __future__ import annotations

import argparse
import cProfile
import itertools
import logging
import ssl
import sys
from pathlib import Path

import aiohttp
import discord

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from bot import create_bot, run_event_loop, serve  # noqa: E402
from fakediscord.tls import FakeDiscordResolver  # noqa: E402
from shards import ShardPlan, ShardsTaken, parse_shard_ids  # noqa: E402


async def run(arguments: argparse.Namespace) -> None:
    context = ssl.create_default_context(cafile=arguments.ca)
    connector = aiohttp.TCPConnector(resolver=FakeDiscordResolver(arguments.port), ssl=context)
    plan = None
    if arguments.shard_count:
        ids = parse_shard_ids(arguments.shard_ids, arguments.shard_count)
        plan = ShardPlan(arguments.shard_count, ids)
    bot = create_bot(
        database_path=arguments.database,
        dev_guild_id=None,
        seed_source=itertools.count(arguments.seed).__next__,
        shard_plan=plan,
        connector=connector,
        guild_ready_timeout=0.01,
        metrics_port=arguments.metrics_port,
    )
    await serve(bot, "fake-token")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--ca", required=True)
    parser.add_argument("--database", required=True)
    parser.add_argument("--shard-count", type=int, default=0)
    parser.add_argument("--shard-ids", default="")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", default="")
    parser.add_argument("--metrics-port", type=int)
    arguments = parser.parse_args()
    discord.utils.setup_logging(level=logging.WARNING, root=True)
    profile = cProfile.Profile() if arguments.profile else None
    try:
        if profile is None:
            run_event_loop(run(arguments))
        else:
            with profile:
                run_event_loop(run(arguments))
    except ShardsTaken as taken:
        print(f"error: {taken}", file=sys.stderr)
        return 2
    finally:
        if profile is not None:
            profile.dump_stats(arguments.profile)
    return 0


if __name__ == "__main__":
    sys.exit(main())
