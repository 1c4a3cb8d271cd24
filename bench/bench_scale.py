"""Moves per second and click → board latency of real bot processes under load.

Three set-ups, each with the fake Discord and the simulated players (the load generator)
in this process and the bots in their own processes (`bench.scale_bot`):

- sqlite:       one bot process on an SQLite file;
- postgresql-1: one bot process on PostgreSQL;
- postgresql-2: two bot processes on PostgreSQL, one shard each (SHARD_COUNT=2), the
                games spread over two servers, one on each shard.

A PostgreSQL set-up's name followed by ``@pool`` and a number (``postgresql-1@pool30``)
runs its bots with that many pooled connections (DATABASE_POOL_SIZE), so that pool
sizes are compared in the same run.

In every set-up ``--games`` two-player Bann games in as many channels are played flat out:
each move is a click on "Tip to n" (answered with a private menu) and a pick in that menu;
the time from sending the pick to the board message being edited is the click → board
latency. A finished game is replaced by a new one in its channel. The generator reads
whose turn it is from the database (one read per move).

Every set-up is started first, then they take turns: ``--rounds`` times each plays a
slice of ``--warm-up`` seconds unmeasured and ``--seconds / --rounds`` measured (the
moves whose board was shown in that window) while the others idle, every other round in
the opposite order, so a change in the machine's load (it is shared) weighs on all of
them alike rather than on whichever ran last. Each round prints the set-ups' moves per
second, PostgreSQL's over SQLite's and the baseline workload (bench/common.py) measured
after it.

At the end it prints the totals: each set-up's moves per second over SQLite's over the
run and the median of the rounds' ratios (one PostgreSQL process: target at least 0.9),
the bots' CPU per move over the median baseline workload, and per move the database
calls each bot made and how long it waited on them (of that, how long for a pooled
connection), from the bot's own /metrics (a transaction counts once). ``--profile DIR`` runs
each bot under cProfile and leaves its statistics in DIR.

Run: python -m bench.bench_scale [--games 40] [--seconds 20] [--only sqlite,postgresql-2]
     [--rounds 4] [--warm-up 2] [--profile DIR]
     e.g. --only sqlite,postgresql-1,postgresql-1@pool10 to compare pool sizes
PostgreSQL is TEST_DATABASE_URL or the local server; each run uses a fresh schema.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

import aiohttp
import asyncpg

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from bench.common import baseline_ms, percentile  # noqa: E402
from data.backends import connect  # noqa: E402
from data.sql import Database  # noqa: E402
from fakediscord import (  # noqa: E402
    Channel,
    FakeDiscord,
    Guild,
    InteractionRecord,
    Message,
    SimUser,
)
from fakediscord.tls import test_ca  # noqa: E402
from games import GAMES  # noqa: E402

BANN = GAMES["bann"]
GENERATOR_CONNECTIONS = 4
"""The load generator's own connections to a PostgreSQL set-up's database (one read a
move): few, so that several set-ups side by side stay well within the server's limit."""
DEFAULT_POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"
SETUPS = {"sqlite": ("sqlite", 1), "postgresql-1": ("postgresql", 1)}
SETUPS["postgresql-2"] = ("postgresql", 2)
POOL_SUFFIX = "@pool"
"""A PostgreSQL set-up's name may end in ``@pool`` and a number: its bots then keep that
many connections (DATABASE_POOL_SIZE) instead of the default, e.g. postgresql-1@pool20."""


def setup_of(name: str) -> tuple[str, int, int | None]:
    """The engine, the bot processes and the pool size (None: the bot's default) that a
    set-up's name stands for."""
    base, _, pool = name.partition(POOL_SUFFIX)
    if base not in SETUPS or (pool and not (pool.isdigit() and base != "sqlite")):
        raise SystemExit(
            f"unknown set-up {name!r}: one of {', '.join(SETUPS)}, or a"
            f" PostgreSQL one followed by {POOL_SUFFIX}N"
        )
    engine, processes = SETUPS[base]
    return engine, processes, int(pool) if pool else None


POOLED = "acquire"
"""The bot's metrics' name for a wait for a pooled connection (PostgreSQL): part of the
call it preceded, not a call of its own."""


@dataclass
class Outcome:
    setup: str
    seconds: float
    latencies_ms: list[float] = field(default_factory=list)
    bot_cpu_seconds: float = 0.0
    generator_cpu_seconds: float = 0.0
    unanswered: int = 0
    database_calls: Counter[str] = field(default_factory=Counter)

    def database_line(self) -> str:
        """The bot's database calls per move by kind (a transaction counted once, the
        statements in it not), the milliseconds a move waited on them in all, and of
        those the waits for a pooled connection (PostgreSQL's "acquire", not a call)."""
        moves = max(len(self.latencies_ms), 1)
        waits = self.database_calls
        counted = {
            kind: n for kind, n in waits.items() if not kind.endswith(" s") and kind != POOLED
        }
        seconds = sum(waits[kind + " s"] for kind in counted)
        pooled = f", {waits[POOLED + ' s'] * 1000 / moves:.1f} ms of it for a pooled connection"
        return (
            f"{self.setup}: per move {sum(counted.values()) / moves:.1f} database calls ("
            + ", ".join(
                f"{kind} {n / moves:.1f}: {waits[kind + ' s'] * 1000 / max(n, 1):.1f} ms each"
                for kind, n in sorted(counted.items())
            )
            + f"), {seconds * 1000 / moves:.1f} ms waiting on them"
            + (pooled if waits[POOLED] else "")
        )

    @property
    def moves_per_second(self) -> float:
        return len(self.latencies_ms) / max(self.seconds, 1e-9)

    def add(self, part: Outcome) -> None:
        """Count one more slice of the same set-up in."""
        self.seconds += part.seconds
        self.latencies_ms += part.latencies_ms
        self.bot_cpu_seconds += part.bot_cpu_seconds
        self.generator_cpu_seconds += part.generator_cpu_seconds
        self.unanswered += part.unanswered
        self.database_calls.update(part.database_calls)


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
        self.unanswered = 0
        """Clicks the bot did not answer in time (Discord gives up after 3 s): on a busy
        machine a late answer is refused, and the move is tried again."""

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
        menu = await private_menu(tip)
        if menu is None:
            self.unanswered += 1
            return None
        edited = watch.next_edit(self.board)
        started = time.perf_counter()
        pick = await player.select_nowait(menu, [action])
        try:
            finished = await asyncio.wait_for(edited, UNANSWERED_SECONDS)
        except TimeoutError:
            self.unanswered += not await answered(pick)
            return None
        return (finished - started) * 1000


UNANSWERED_SECONDS = 10.0


async def private_menu(tip: InteractionRecord) -> Message | None:
    """The menu a tip click opened: its answer, or a follow-up after an acknowledgement
    (which a busy bot sends first); None if none came in time."""
    deadline = time.perf_counter() + UNANSWERED_SECONDS
    if not await answered(tip):
        return None
    while time.perf_counter() < deadline:
        for message in (tip.original, *tip.followups):
            if message is not None and message.selects():
                return message
        await asyncio.sleep(0.02)
    return None


async def answered(record: InteractionRecord) -> bool:
    try:
        await record.wait_answered(UNANSWERED_SECONDS)
    except AssertionError:
        return False
    return True


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


def start_bots(
    fake: FakeDiscord,
    ca: Path,
    target: str,
    ports: list[int],
    processes: int,
    profile: Path | None,
    name: str,
    pool_size: int | None = None,
) -> list[subprocess.Popen]:
    bots = []
    for shard in range(processes):
        command = [sys.executable, "-m", "bench.scale_bot", "--port", str(fake.port)]
        command += ["--ca", str(ca), "--database", target, "--seed", str(1 + 100_000 * shard)]
        if processes > 1:
            command += ["--shard-count", str(processes), "--shard-ids", str(shard)]
        command += ["--metrics-port", str(ports[shard])]
        if profile is not None:
            profile.mkdir(parents=True, exist_ok=True)
            command += ["--profile", str(profile / f"{name}-{shard}.prof")]
        environment = dict(os.environ)
        if pool_size is not None:
            environment["DATABASE_POOL_SIZE"] = str(pool_size)
        bots.append(subprocess.Popen(command, cwd=ROOT, env=environment))
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


DATABASE_CALL = re.compile(
    r'^tablebot_database_seconds_(count|sum)\{operation="(\w+)"\} (\S+)$', re.MULTILINE
)


def free_port() -> int:
    """A port nothing listens on now: a fixed one may be held by another connection's
    ephemeral end (in TIME-WAIT), and the bot would refuse to start."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def database_calls(ports: list[int]) -> Counter[str]:
    """A set-up's bot processes' database calls and seconds so far, from their /metrics
    (served on ``ports``): "fetch", "execute",
    "transaction" … (how many) and the same with " s" (how long, in all)."""
    calls: Counter[str] = Counter()
    async with aiohttp.ClientSession() as session:
        for port in ports:
            url = f"http://127.0.0.1:{port}/metrics"
            async with session.get(url) as answer:
                text = await answer.text()
            for kind, operation, value in DATABASE_CALL.findall(text):
                calls[operation + (" s" if kind == "sum" else "")] += float(value)
    return calls


def stop_bots(bots: list[subprocess.Popen]) -> None:
    for bot in bots:
        bot.terminate()
    for bot in bots:
        bot.wait(30)


class Rig:
    """One set-up ready to play: its fake Discord, its bot processes, its database and
    its tables, open for the whole run so that the set-ups can take turns."""

    def __init__(self, name: str, arguments: argparse.Namespace) -> None:
        self.name = name
        self.engine, self.processes, self.pool_size = setup_of(name)
        self.ports = [free_port() for _ in range(self.processes)]
        self.arguments = arguments
        self.outcome = Outcome(name, 0.0)
        self.tables: list[Table] = []
        self.bots: list[subprocess.Popen] = []
        self.database: Database | None = None
        self.watch: BoardWatch | None = None

    @contextlib.asynccontextmanager
    async def running(self, server: str) -> AsyncIterator[Rig]:
        with tempfile.TemporaryDirectory() as folder_name:
            folder = Path(folder_name)
            target, schema = await fresh_target(self.engine, folder, server)
            ca = folder / "ca.pem"
            test_ca().cert_pem.write_to_path(str(ca))
            try:
                async with FakeDiscord() as fake:
                    await self._open(fake, ca, target)
                    try:
                        yield self
                    finally:
                        await asyncio.sleep(2)  # the last moves' pings, before the bots stop
                        if self.database is not None:
                            await self.database.close()
                        stop_bots(self.bots)
            finally:
                if schema is not None:
                    await drop_schema(server, schema)

    async def _open(self, fake: FakeDiscord, ca: Path, target: str) -> None:
        fake.gateway.wait_for_parse = False
        self.watch = BoardWatch(fake)
        guilds = [
            await guild_on_shard(fake, shard, self.processes) for shard in range(self.processes)
        ]
        self.bots = start_bots(
            fake,
            ca,
            target,
            self.ports,
            self.processes,
            self.arguments.profile,
            self.name,
            self.pool_size,
        )
        await wait_until_connected(fake, self.processes, self.bots)
        self.database = await connect(target, pool_size=GENERATOR_CONNECTIONS)
        for index, guild in enumerate(guilds):
            for number in range(index, self.arguments.games, len(guilds)):
                # Players of their own per table: the bot limits open lobbies per creator.
                players = [fake.add_user(f"p{number}-{seat}", guild=guild) for seat in range(2)]
                channel = guild.add_text_channel(f"table-{number}")
                self.tables.append(Table(channel, players, self.database))
        await asyncio.sleep(0.2)
        await asyncio.gather(*(table.open() for table in self.tables))

    def _counters(self) -> tuple[float, float, int]:
        return (
            sum(cpu_seconds(bot.pid) for bot in self.bots),
            time.process_time(),
            sum(table.unanswered for table in self.tables),
        )

    async def slice(self, warm_up: float, seconds: float) -> Outcome:
        """Play flat out for ``warm_up`` seconds, then ``seconds`` measured (the moves
        whose board was shown in that window), then let the moves in flight finish. The
        slice's figures are also added to the set-up's totals."""
        assert self.watch is not None
        watch = self.watch
        part = Outcome(self.name, seconds)
        started = time.perf_counter()
        measured_from, deadline = started + warm_up, started + warm_up + seconds

        async def play(table: Table) -> None:
            while time.perf_counter() < deadline:
                latency = await table.move(watch)
                if latency is not None and measured_from <= time.perf_counter() <= deadline:
                    part.latencies_ms.append(latency)

        async def sample() -> None:
            await asyncio.sleep(measured_from - time.perf_counter())
            calls_before = await database_calls(self.ports)
            bot_before, own_before, unanswered_before = self._counters()
            await asyncio.sleep(deadline - time.perf_counter())
            bot_after, own_after, unanswered_after = self._counters()
            part.database_calls = await database_calls(self.ports)
            part.database_calls.subtract(calls_before)
            part.bot_cpu_seconds = bot_after - bot_before
            part.generator_cpu_seconds = own_after - own_before
            part.unanswered = unanswered_after - unanswered_before

        await asyncio.gather(sample(), *(play(table) for table in self.tables))
        self.outcome.add(part)
        return part


async def alternate(
    rigs: list[Rig], arguments: argparse.Namespace, baseline: float
) -> tuple[list[float], list[list[Outcome]]]:
    """Every set-up in turn, ``--rounds`` times (every other round in the opposite
    order), each slice a share of ``--seconds`` after a warm-up: a change in the
    machine's load then weighs on every set-up alike.
    Prints each round's moves per second; the baseline workload measured after each, and
    each round's figures."""
    baselines = [baseline]
    rounds = []
    share = arguments.seconds / arguments.rounds
    for round_number in range(1, arguments.rounds + 1):
        # Every other round in the opposite order, so that neither set-up always runs
        # first while the machine's load drifts.
        order = rigs if round_number % 2 else rigs[::-1]
        played = {rig.name: await rig.slice(arguments.warm_up, share) for rig in order}
        parts = [played[rig.name] for rig in rigs]
        rounds.append(parts)
        baselines.append(baseline_ms())
        figures = ", ".join(f"{part.setup} {part.moves_per_second:.1f}" for part in parts)
        print(
            f"round {round_number}: moves/s {figures}{round_ratio(parts)};"
            f" baseline {baselines[-1]:.2f} ms, load average {os.getloadavg()[0]:.2f}",
            flush=True,
        )
    return baselines, rounds


def over_sqlite(parts: list[Outcome]) -> dict[str, float]:
    """Each set-up's moves per second over SQLite's among ``parts`` (one round's)."""
    sqlite = next((part for part in parts if part.setup == "sqlite"), None)
    if sqlite is None:
        return {}
    return {
        part.setup: part.moves_per_second / max(sqlite.moves_per_second, 1e-9)
        for part in parts
        if part is not sqlite
    }


def round_ratio(parts: list[Outcome]) -> str:
    ratios = over_sqlite(parts)
    if not ratios:
        return ""
    return " (" + ", ".join(f"{name} / sqlite {ratio:.2f}" for name, ratio in ratios.items()) + ")"


def describe(outcome: Outcome) -> str:
    samples = outcome.latencies_ms or [0.0]
    moves = max(len(outcome.latencies_ms), 1)
    return (
        f"| {outcome.setup} | {outcome.moves_per_second:.1f} | {percentile(samples, 0.5):.0f} |"
        f" {percentile(samples, 0.99):.0f} | {outcome.bot_cpu_seconds / outcome.seconds:.0%} |"
        f" {outcome.bot_cpu_seconds * 1000 / moves:.1f} |"
        f" {outcome.generator_cpu_seconds / outcome.seconds:.0%} | {outcome.unanswered} |"
    )


def ratios(outcomes: dict[str, Outcome], rounds: list[list[Outcome]], baseline: float) -> list[str]:
    """The figures that hold from machine to machine: each set-up's moves per second
    against one SQLite process's in the same run (over all rounds, and the median of the
    rounds' ratios, which one round disturbed by other work on the machine moves less),
    and CPU per move in baseline units."""
    if "sqlite" not in outcomes:
        return []
    lines = []
    by_round = [over_sqlite(parts) for parts in rounds]
    for name, ratio in over_sqlite(list(outcomes.values())).items():
        median = statistics.median(ratios[name] for ratios in by_round)
        goal = " (target ≥ 0.9)" if name.partition(POOL_SUFFIX)[0] == "postgresql-1" else ""
        lines.append(
            f"{name} / sqlite moves per second: {ratio:.2f} over the run, median of the"
            f" {len(by_round)} rounds' {median:.2f}{goal}"
        )
    for name, outcome in outcomes.items():
        per_move = outcome.bot_cpu_seconds * 1000 / max(len(outcome.latencies_ms), 1)
        lines.append(f"{name}: bot CPU per move / baseline workload: {per_move / baseline:.3f}")
    return lines


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=20, help="measured, per set-up")
    parser.add_argument("--only", default=",".join(SETUPS))
    parser.add_argument(
        "--rounds", type=int, default=4, help="slices per set-up, the set-ups taking turns"
    )
    parser.add_argument(
        "--warm-up", type=float, default=2, help="seconds played, not measured, before a slice"
    )
    parser.add_argument(
        "--profile", type=Path, help="write each bot's cProfile statistics into this folder"
    )
    arguments = parser.parse_args()
    server = os.environ.get("TEST_DATABASE_URL") or DEFAULT_POSTGRES
    rigs = [Rig(name, arguments) for name in arguments.only.split(",")]
    async with contextlib.AsyncExitStack() as stack:
        for rig in rigs:
            await stack.enter_async_context(rig.running(server))
        baseline = baseline_ms()
        print(f"baseline workload: {baseline:.2f} ms; load average {os.getloadavg()[0]:.2f}")
        print(
            f"{arguments.games} games flat out per set-up, {arguments.rounds} rounds of"
            f" {arguments.warm_up:.0f} s warm-up + {arguments.seconds / arguments.rounds:.1f} s"
            f" measured, the set-ups taking turns ({arguments.seconds:.0f} s measured each)\n",
            flush=True,
        )
        baselines, rounds = await alternate(rigs, arguments, baseline)
    outcomes = {rig.name: rig.outcome for rig in rigs}
    print(
        "\n| set-up | moves/s | click → board p50 ms | p99 ms | bot CPU | bot CPU ms/move"
        " | generator CPU | unanswered |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for outcome in outcomes.values():
        print(describe(outcome))
    print(
        f"\nbaseline workload {min(baselines):.2f}–{max(baselines):.2f} ms"
        f" (median {statistics.median(baselines):.2f}); load average {os.getloadavg()[0]:.2f}"
    )
    for line in ratios(outcomes, rounds, statistics.median(baselines)):
        print(line)
    for outcome in outcomes.values():
        print(outcome.database_line())


if __name__ == "__main__":
    asyncio.run(main())
