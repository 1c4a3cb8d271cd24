"""Moves per second and click → board latency of real bot processes under load.

Three set-ups, each with the fake Discord and the simulated players (the load generator)
in this process and the bots in their own processes (`bench.scale_bot`):

- sqlite:       one bot process on an SQLite file;
- postgresql-1: one bot process on PostgreSQL;
- postgresql-2: two bot processes on PostgreSQL, one shard each (SHARD_COUNT=2), the
                games spread over two servers, one on each shard.

In every set-up ``--games`` two-player Bann games in as many channels are played flat out
for ``--seconds``: each move is a click on "Tip to n" (answered with a private menu) and
a pick in that menu; the time from sending the pick to the board message being edited is
the click → board latency. A finished game is replaced by a new one in its channel. The
generator reads whose turn it is from the database (one read per move).

Run: python -m bench.bench_scale [--games 40] [--seconds 20] [--only sqlite,postgresql-2]
PostgreSQL is TEST_DATABASE_URL or the local server; each run uses a fresh schema.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

import asyncpg

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from bench.common import baseline_ms, percentile  # noqa: E402
from data.backends import connect  # noqa: E402
from data.sql import Database  # noqa: E402
from fakediscord import Channel, FakeDiscord, Guild, Message, SimUser  # noqa: E402
from fakediscord.tls import test_ca  # noqa: E402
from games import GAMES  # noqa: E402

BANN = GAMES["bann"]
DEFAULT_POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"
SETUPS = {"sqlite": ("sqlite", 1), "postgresql-1": ("postgresql", 1)}
SETUPS["postgresql-2"] = ("postgresql", 2)


@dataclass
class Outcome:
    setup: str
    seconds: float
    latencies_ms: list[float] = field(default_factory=list)
    bot_cpu_seconds: float = 0.0
    generator_cpu_seconds: float = 0.0

    @property
    def moves_per_second(self) -> float:
        return len(self.latencies_ms) / self.seconds


class BoardWatch:
    """Futures resolved when the fake Discord applies an edit to a given message."""

    def __init__(self, fake: FakeDiscord) -> None:
        self._waiting: dict[int, asyncio.Future[float]] = {}
        original = fake._edit_message

        def edited(message: Message, body: dict, uploads: dict) -> None:
            original(message, body, uploads)
            future = self._waiting.pop(message.id, None)
            if future is not None and not future.done():
                future.set_result(time.perf_counter())

        fake._edit_message = edited  # type: ignore[method-assign]

    def next_edit(self, message: Message) -> asyncio.Future[float]:
        future = asyncio.get_running_loop().create_future()
        self._waiting[message.id] = future
        return future


async def guild_on_shard(fake: FakeDiscord, shard: int, count: int) -> Guild:
    while True:
        guild = fake.add_guild(f"Bench {shard}")
        if (guild.id >> 22) % count == shard:
            return guild
        await asyncio.sleep(0.002)


class Table:
    """One channel where two simulated players play Bann after Bann."""

    def __init__(self, channel: Channel, players: list[SimUser], database: Database) -> None:
        self.channel = channel
        self.players = players
        self.database = database
        self.board: Message | None = None
        self.game_id = 0

    async def open(self) -> None:
        record = await self.players[0].slash_nowait(
            self.channel, "bann new", opponent=self.players[1]
        )
        await record.wait_answered(30)
        assert record.original is not None
        lobby = record.original
        join = await self.players[1].click_nowait(lobby, "Join")
        await join.wait_answered(30)
        self.board = lobby
        self.game_id = int(
            await self.database.fetchval(
                "SELECT id FROM games WHERE channel_id = ? AND status = 'active'",
                self.channel.id,
            )
        )

    async def move(self, watch: BoardWatch) -> float | None:
        """One move; its click → board milliseconds, or None when the game had ended."""
        raw = await self.database.fetchval("SELECT state FROM games WHERE id = ?", self.game_id)
        state = BANN.from_dict(json.loads(raw))
        if state.is_over:
            await self.open()
            return None
        assert self.board is not None and state.current_player is not None
        action = next(a for a in state.legal_actions() if a != "offer")
        player = self.players[state.current_player]
        tip = await player.click_nowait(self.board, f"Tip to {action.split('>')[0]}")
        await tip.wait_answered(30)
        assert tip.original is not None, "the tip opens a private menu"
        edited = watch.next_edit(self.board)
        started = time.perf_counter()
        await player.select_nowait(tip.original, [action])
        finished = await asyncio.wait_for(edited, 30)
        return (finished - started) * 1000


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def fresh_target(engine: str, folder: Path, server: str) -> tuple[str, str | None]:
    if engine == "sqlite":
        return str(folder / "bench.sqlite3"), None
    schema = "bench_" + secrets.token_hex(4)
    admin = await asyncpg.connect(server)
    await admin.execute(f"CREATE SCHEMA {schema}")
    await admin.close()
    separator = "&" if "?" in server else "?"
    return f"{server}{separator}{urlencode({'search_path': schema})}", schema


async def drop_schema(server: str, schema: str) -> None:
    admin = await asyncpg.connect(server)
    await admin.execute(f"DROP SCHEMA {schema} CASCADE")
    await admin.close()


def start_bots(fake: FakeDiscord, ca: Path, target: str, processes: int) -> list[subprocess.Popen]:
    bots = []
    for shard in range(processes):
        command = [sys.executable, "-m", "bench.scale_bot", "--port", str(fake.port)]
        command += ["--ca", str(ca), "--database", target, "--seed", str(1 + 100_000 * shard)]
        if processes > 1:
            command += ["--shard-count", str(processes), "--shard-ids", str(shard)]
        bots.append(subprocess.Popen(command, cwd=ROOT))
    return bots


async def wait_until_connected(fake: FakeDiscord, shards: int, bots: list) -> None:
    deadline = time.perf_counter() + 60
    while len(fake.gateway.ready_connections) < shards or not fake.commands.listing(None):
        if any(bot.poll() is not None for bot in bots):
            raise SystemExit("a bot process stopped before it was ready")
        if time.perf_counter() > deadline:
            raise SystemExit("the bots were not ready after 60 s")
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.5)


def stop_bots(bots: list[subprocess.Popen]) -> None:
    for bot in bots:
        bot.terminate()
    for bot in bots:
        bot.wait(30)


async def run_setup(name: str, games: int, seconds: float, server: str) -> Outcome:
    engine, processes = SETUPS[name]
    with tempfile.TemporaryDirectory() as folder_name:
        folder = Path(folder_name)
        target, schema = await fresh_target(engine, folder, server)
        ca = folder / "ca.pem"
        test_ca().cert_pem.write_to_path(str(ca))
        try:
            async with FakeDiscord() as fake:
                return await _load(fake, name, ca, target, processes, games, seconds)
        finally:
            if schema is not None:
                await drop_schema(server, schema)


async def _load(
    fake: FakeDiscord,
    name: str,
    ca: Path,
    target: str,
    processes: int,
    games: int,
    seconds: float,
) -> Outcome:
    fake.gateway.wait_for_parse = False
    watch = BoardWatch(fake)
    tables: list[Table] = []
    guilds = [await guild_on_shard(fake, shard, processes) for shard in range(processes)]
    bots = start_bots(fake, ca, target, processes)
    database = None
    try:
        await wait_until_connected(fake, processes, bots)
        database = await connect(target)
        for index, guild in enumerate(guilds):
            for number in range(index, games, len(guilds)):
                # Players of their own per table: the bot limits open lobbies per creator.
                players = [fake.add_user(f"p{number}-{seat}", guild=guild) for seat in range(2)]
                channel = guild.add_text_channel(f"table-{number}")
                tables.append(Table(channel, players, database))
        await asyncio.sleep(0.2)
        await asyncio.gather(*(table.open() for table in tables))
        outcome = Outcome(name, seconds)
        cpu_before = sum(cpu_seconds(bot.pid) for bot in bots)
        own_before = time.process_time()
        deadline = time.perf_counter() + seconds

        async def play(table: Table) -> None:
            while time.perf_counter() < deadline:
                latency = await table.move(watch)
                if latency is not None:
                    outcome.latencies_ms.append(latency)

        started = time.perf_counter()
        await asyncio.gather(*(play(table) for table in tables))
        outcome.seconds = time.perf_counter() - started
        outcome.bot_cpu_seconds = sum(cpu_seconds(bot.pid) for bot in bots) - cpu_before
        outcome.generator_cpu_seconds = time.process_time() - own_before
        await asyncio.sleep(2)  # the last moves' pings, before the bots are stopped
        return outcome
    finally:
        if database is not None:
            await database.close()
        stop_bots(bots)


def describe(outcome: Outcome) -> str:
    samples = outcome.latencies_ms
    return (
        f"| {outcome.setup} | {outcome.moves_per_second:.1f} | {percentile(samples, 0.5):.0f} |"
        f" {percentile(samples, 0.99):.0f} | {outcome.bot_cpu_seconds / outcome.seconds:.0%} |"
        f" {outcome.generator_cpu_seconds / outcome.seconds:.0%} |"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--only", default=",".join(SETUPS))
    arguments = parser.parse_args()
    server = os.environ.get("TEST_DATABASE_URL") or DEFAULT_POSTGRES
    print(f"baseline workload: {baseline_ms():.2f} ms; load average {os.getloadavg()[0]:.2f}")
    print(f"{arguments.games} games flat out for {arguments.seconds:.0f} s per set-up\n")
    print("| set-up | moves/s | click → board p50 ms | p99 ms | bot CPU | generator CPU |")
    print("|---|---|---|---|---|---|")
    for name in arguments.only.split(","):
        outcome = await run_setup(name, arguments.games, arguments.seconds, server)
        print(describe(outcome), flush=True)
    print(f"\nload average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    asyncio.run(main())
