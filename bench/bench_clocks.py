"""Turn clocks with 10,000 open tables holding deadlines.

Measures, on this machine:
- start-up: the whole bot (store, cogs, scheduler, gateway) to ready through the local
  fake Discord, with 10,000 running tables whose deadlines lie ahead (budget: < 2 s);
- the scheduler's start: opening the store and finding the earliest due moment;
- a scheduler tick when nothing is due (budget: < 1 ms): the in-memory comparison the
  loop makes, and the database recheck it makes once a minute or when poked;
- handling due tables: the first tick after a restart when 1,000 of the tables' lobbies
  expired while the bot was down (each one saved and its message edited).

Run: python -m bench.bench_clocks [--tables 10000] [--expired 1000]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import baseline_ms, report  # noqa: E402
from bot import create_bot  # noqa: E402
from cogs.scheduler import ManualTime, Scheduler, SystemTime  # noqa: E402
from data import Store  # noqa: E402
from fakediscord import FakeDiscord  # noqa: E402
from games import GAMES  # noqa: E402
from games import turn_clock as rules  # noqa: E402

BANN = GAMES["bann"]
GUILD = 1


async def fill(
    database: Path, tables: int, *, now: float, expired_channels: list[int] = ()
) -> None:
    """``tables`` running Bann games with deadlines spread over the next day, plus a
    lobby in each of ``expired_channels`` whose expiry passed an hour ago."""
    store = await Store.open(database)
    await store.close()
    state = json.dumps(BANN.new_game(players=2, seed=1).to_dict())
    seats = json.dumps([{"name": "A", "user_id": 1}, {"name": "B", "user_id": 2}])
    rows = []
    for index in range(tables):
        clock = rules.start_turn(rules.new_clock(rules.DEFAULT_CLOCK), 0, now)
        clock["deadline"] = now + rules.DEFAULT_CLOCK + index * 86400 / tables
        extra = json.dumps({"clock": clock})
        rows.append(("active", 10_000 + index, state, extra, rules.due_at(clock), 1))
    for channel in expired_channels:
        extra = json.dumps({"clock": rules.new_clock(rules.DEFAULT_CLOCK)})
        rows.append(("lobby", channel, None, extra, now - 3600, None))
    with sqlite3.connect(database) as db:
        db.executemany(
            "INSERT INTO games (kind, guild_id, channel_id, creator_id, status, seats, options,"
            " seed, state, version, board_message_id, created_at, updated_at, extra,"
            " board_version, due_at)"
            " VALUES ('bann', ?, ?, 1, ?, ?, '{}', 7, ?, 1, ?, ?, ?, ?, 1, ?)",
            [
                (GUILD, channel, status, seats, state_text, board, now, now, extra, due)
                for status, channel, state_text, extra, due, board in rows
            ],
        )


async def bot_start_up(database: Path) -> float:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Bench")
        assert guild.id
        bot = create_bot(
            database_path=str(database),
            dev_guild_id=None,
            connector=fake.connector(),
            guild_ready_timeout=0.01,
        )
        start = time.perf_counter()
        await fake.start_bot(bot)
        elapsed = time.perf_counter() - start
        await fake.stop_bot(bot)
    return elapsed


async def scheduler_start(database: Path) -> tuple[float, Scheduler, Store]:
    async def nothing(now: float) -> None:
        raise AssertionError("nothing is due in this benchmark")

    start = time.perf_counter()
    store = await Store.open(database)
    scheduler = Scheduler(SystemTime(), store.next_due)
    await scheduler.start(nothing)
    return time.perf_counter() - start, scheduler, store


async def idle_ticks(scheduler: Scheduler, store: Store, count: int) -> tuple[list, list]:
    clock = SystemTime()
    in_memory = []
    for _ in range(count):
        start = time.perf_counter()
        scheduler.is_due(clock.now())
        in_memory.append((time.perf_counter() - start) * 1000)
    rechecks = []
    for _ in range(count // 10):
        start = time.perf_counter()
        await store.next_due()
        rechecks.append((time.perf_counter() - start) * 1000)
    return in_memory, rechecks


async def expired_at_start(
    database: Path, tables: int, expired: int, now: float
) -> tuple[float, int]:
    """Seconds from the bot's start until the scheduler has closed every expired lobby
    (each posts its closed notice in its own channel of the fake Discord)."""
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Bench")
        channels = [guild.add_text_channel(f"t{index}").id for index in range(expired)]
        await fill(database, tables, now=now, expired_channels=channels)
        clock = ManualTime(now)
        bot = create_bot(
            database_path=str(database),
            dev_guild_id=None,
            connector=fake.connector(),
            guild_ready_timeout=0.01,
            clock=clock,
        )
        start = time.perf_counter()
        await fake.start_bot(bot)
        assert bot.clocks is not None
        await bot.clocks.scheduler.settled()
        elapsed = time.perf_counter() - start
        await fake.stop_bot(bot)
    with sqlite3.connect(database) as db:
        closed = db.execute("SELECT COUNT(*) FROM games WHERE status = 'aborted'").fetchone()[0]
    return elapsed, closed


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--expired", type=int, default=1_000)
    arguments = parser.parse_args()
    baseline = baseline_ms()
    now = time.time()
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "clocks.sqlite3"
        await fill(database, arguments.tables, now=now)
        seconds = await bot_start_up(database)
        print(f"bot start-up to ready with {arguments.tables} tables on the clock: {seconds:.2f} s")
        took, scheduler, store = await scheduler_start(database)
        print(f"store open + scheduler start (earliest due moment): {took * 1000:.1f} ms")
        in_memory, rechecks = await idle_ticks(scheduler, store, 10_000)
        in_memory.sort()
        print(
            f"scheduler tick, nothing due (in memory): n={len(in_memory)} "
            f"median={in_memory[len(in_memory) // 2] * 1000:.2f} µs "
            f"max={in_memory[-1] * 1000:.2f} µs"
        )
        print(report("scheduler recheck, nothing due (database)", rechecks, baseline))
        scheduler.stop()
        await store.close()

        expired = Path(folder) / "expired.sqlite3"
        seconds, closed = await expired_at_start(expired, arguments.tables, arguments.expired, now)
        print(
            f"start-up and first tick with {arguments.expired} lobbies expired while down: "
            f"{seconds:.2f} s ({closed} closed, {seconds / max(closed, 1) * 1000:.1f} ms each)"
        )


if __name__ == "__main__":
    asyncio.run(main())
