"""The whole bot under load through the local fake Discord.

Measures, on this machine:
- click → board edited: a player picks a Bann move in the private menu while 50
  two-player games run at once in 50 channels (every click applies the move, saves it,
  redraws and edits the board, and pings the opponent);
- the longest event-loop stall seen during that load;
- start-up (setup_hook to ready) with 10,000 unfinished games in the database.

Run: python -m bench.bench_bot [--games 50] [--rounds 3] [--stored 10000]
The click time is measured by the simulated user: from sending the interaction until
the bot is idle again, so it includes the harness's 2 ms polling granularity.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
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
from data import Seat, Store  # noqa: E402
from fakediscord import FakeDiscord  # noqa: E402
from games import GAMES  # noqa: E402

BANN = GAMES["bann"]


class StallMeter:
    """A task that wakes every 5 ms and records how late it woke up."""

    def __init__(self) -> None:
        self.worst_ms = 0.0
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        while True:
            start = time.perf_counter()
            await asyncio.sleep(0.005)
            late = (time.perf_counter() - start) * 1000 - 5
            self.worst_ms = max(self.worst_ms, late)

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    def stop(self) -> None:
        assert self._task is not None
        self._task.cancel()


def newest_state(database: Path, channel_game: int):
    with sqlite3.connect(database) as db:
        row = db.execute("SELECT state FROM games WHERE id = ?", (channel_game,)).fetchone()
    return BANN.from_dict(json.loads(row[0]))


async def click_latencies(games: int, rounds: int, database: Path) -> tuple[list[float], float]:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Bench")
        players = [fake.add_user(name, guild=guild) for name in ("alice", "bob")]
        channels = [guild.add_text_channel(f"table-{index}") for index in range(games)]
        bot = create_bot(
            database_path=str(database),
            dev_guild_id=None,
            seed_source=itertools.count(1).__next__,
            connector=fake.connector(),
            guild_ready_timeout=0.01,
        )
        await fake.start_bot(bot)
        boards = []
        for channel in channels:
            opened = await players[0].slash(channel, "bann new", opponent=players[1])
            boards.append((await players[1].click(opened.message, "Join")).message)
        meter = StallMeter()
        meter.start()
        samples: list[float] = []
        for _ in range(rounds):
            for game_id, board in enumerate(boards, start=1):
                state = newest_state(database, game_id)
                if state.is_over:
                    continue
                action = next(a for a in state.legal_actions() if a != "offer")
                player = players[state.current_player]
                menu = (await player.click(board, f"Tip to {action.split('>')[0]}")).ephemeral[0]
                start = time.perf_counter()
                await player.select(menu, [action])
                samples.append((time.perf_counter() - start) * 1000)
        meter.stop()
        await fake.stop_bot(bot)
        return samples, meter.worst_ms


async def start_up_seconds(stored: int, database: Path) -> float:
    store = await Store.open(database)
    state = BANN.new_game(players=2, seed=1).to_dict()
    for index in range(stored):
        table = await store.create_table(
            kind="bann",
            guild_id=1,
            channel_id=10_000 + index,
            creator_id=1,
            seats=[Seat("A", 1), Seat("B", 2)],
            options={},
            seed=index,
        )
        table.status, table.state = "active", state
        await store.save(table, expected_version=0)
    await store.close()
    async with FakeDiscord() as fake:
        fake.add_guild("Bench")
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


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--stored", type=int, default=10_000)
    arguments = parser.parse_args()
    baseline = baseline_ms()
    with tempfile.TemporaryDirectory() as folder:
        samples, stall = await click_latencies(
            arguments.games, arguments.rounds, Path(folder) / "load.sqlite3"
        )
        print(report(f"click → board edited ({arguments.games} games)", samples, baseline))
        print(f"worst event-loop stall during the load: {stall:.1f} ms")
        seconds = await start_up_seconds(arguments.stored, Path(folder) / "big.sqlite3")
        print(f"start-up to ready with {arguments.stored} unfinished games: {seconds:.2f} s")


if __name__ == "__main__":
    asyncio.run(main())
