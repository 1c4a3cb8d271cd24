"""Many two-player Bann games clicking flat out, with the bot in a process of its own.

The fake Discord and the simulated players run in this process; the bot runs in a child
(bench/load_bot.py), so its figures are its own. Every game's player to move clicks
"Tip to …" on the board and picks a random legal move in the private menu, then the
other player does the same, as fast as the bot answers; a finished game is replaced by a
new one in its channel. Measured:

- acknowledgement: from sending an interaction until Discord saw its first answer;
- click → board: from sending the move until the board message shows it;
- the bot process's longest event-loop stall, and its resident memory each second;
- 40 simultaneous Join clicks on one Barbu lobby: who is seated, in which order, and
  whether anybody was told to try again;
- with ``--reviews N``: N ``/game review`` requests kept under way all through the
  measured period (each answered review is followed by the next game's), each of a
  finished Bann game of two normal computers written into the database before the bot
  starts; the time from request to answer is printed. The load budget holds when
  the boards keep their p99 with them (``--games 20 --reviews 4``: acknowledgement p99
  ≤ 1 s, click → board p99 ≤ 2 s, no loop stall with over 100 ms of its own CPU).
  Only the real bot reviews, never the floor; its workers' CPU then includes the
  reviews', so the per-board and per-move ratios come from a run without ``--reviews``.

Then the same load, in the same run, against the floor bot (bench/floor_bot.py): a minimal
discord.py bot making the same Discord calls per move with no rules, database or drawing.
The figures that decide are ratios, which hold from machine to machine where absolute
milliseconds moved threefold: the bot's CPU per move over the floor's (the part this
project adds; target at most 2×), and the render workers' CPU per board over a plain
Pillow PNG encode (Pillow's defaults) of the same picture at its size, the floor of
drawing; both printed with the baseline workload (bench/common.py). CPU per move is
given whole and net of what each process spends while nobody plays (its timers and
heartbeats, measured for 5 s before the load): those cost per second, not per move, and
would otherwise weigh more on the bot, which moves fewer games a second than the floor
while its render workers share the cores. ``--no-floor`` skips the floor.

Run:  python -m bench.bench_load [--games 200] [--seconds 60] [--soak 0] [--root PATH]
      [--reviews 0] [--no-floor]
``--root`` is the checkout whose bot is measured (default: this one), so the same load
compares two versions. ``--soak S`` keeps the load going S more seconds for the memory
figure (the first minute counts as warm-up). ``--trace-memory N`` lists the N source lines
whose Python allocations grew most (tracemalloc; it slows the bot several-fold).
Besides latencies it prints the REST requests per move by route and status (429s would
show there), the bot process's CPU per move and the load generator's own CPU.

Where the time goes (200 games, 2-core machine shared with other work at load 5-11;
``py-spy record --gil --format raw`` on the bot process during the measured minute):

- The players click flat out, one move in flight per game, so each round trip is about
  games / throughput: at ~30-43 moves/s, 5-6 s whatever the step. The bot got 30-45 % of
  a core (the machine's other work had the rest), so throughput follows the bot's CPU
  per move and the CPU the machine leaves it.
- CPU per move in the bot process: 11.0-12.3 ms before this work, 6.6-7.2 ms after
  (same machine minutes, 30 s runs alternating the two versions with ``--root`` an
  export of the older commit, then the 60 s runs). What took it down, largest first:
  - database hand-offs: every aiosqlite call is a hand-off to its thread and back, and
    a move made ~40 (a fetch was three: execute, fetchall, close; a save eight; three
    ping swaps of seven each). Now: one per query; the table lookup of every click reads
    on the loop's thread through a read-only connection (no hand-off); a move's save is
    one batch on a connection of its own; board and ping bookkeeping one write each.
    aiosqlite's share of the GIL samples fell from 27 % to 7-8 %;
  - uvloop and discord.py's speed extras (orjson), about 1 ms (9.0-10.3 → 8.8 ms, one
    run each, not alternated);
  - the guilds intent only: the bot no longer receives and parses a message create,
    update and delete for each move's ping and board (7.5-8.0 → 6.6-7.2 ms);
  - one REST request fewer: a private menu's pick is acknowledged by updating the menu
    with what was played (type 7), instead of a defer and a webhook edit.
- REST requests per move now: 2 interaction callbacks, 1 board edit with the PNG, a
  POST of the new turn ping and a DELETE of the old one (an edited message notifies
  nobody). No 429s: the fake Discord enforces rate limits only when a test sets them.
- GIL samples of the bot now (py-spy puts uvloop's own C work on whichever Python frame
  is on top, so roughly): aiohttp 30 % (five requests a move), discord.py 17 %
  (gateway parsing, views, HTTP), the game engine 10 % (the menu's move descriptions),
  our cogs 7 %, aiosqlite 8 %.
- Acknowledgements used to queue behind other moves' work (ack p99 6-8 s). The pick is
  now acknowledged before anything else, and at most 24 moves are saved, drawn and
  announced at once, so the loop's queue stays short: ack p50 16-40 ms, p99 0.5-1.1 s.
- The event loop's worst stalls (300-450 ms) are mostly time the process waited for a
  core: the loop thread's own CPU in any 50 ms tick that ran late stayed under ~130 ms.
  On the idle machine the worst stall was 119 ms, 137 ms of it the loop's own CPU: the
  garbage collector's full passes over everything start-up loaded. ``gc.freeze()`` at
  the end of start-up took the worst stall to 77 ms (0 over 100 ms).
- Boards: p99 6-8 s on the busy machine. With one move in flight per game, the board
  wait is what is left of a round trip (200 games / throughput), and every process of
  the benchmark shares the two cores, so the board wait follows the CPU all of them
  spend per move. On the idle machine, per move: the bot 5.7-7.1 ms, its render workers
  7.1-8.3 ms (5.5 ms when one board is drawn alone: under load the palette mapping and
  zlib, which stream the whole picture through memory, slow down most), the load
  generator 2.7-3.0 ms; the two cores are then full at 95-116 moves/s, and the same code
  measured minutes apart varies by 10 % with the machine. What took CPU off a move, on
  top of the work above:
  - the board's palette learned from a nearest-pixel sample instead of a box-averaged
    copy, and a footer line that fits measured once instead of once per word (render
    workers 8.0-9.0 → 7.1-8.3 ms, alternated runs);
  - Bann's menu describes a move without building the next state, moves are named
    tuples, and a side's knights are found by cell range;
  - orjson for the stored game rows;
  - the simulated players play from what Discord shows (the board's enabled "Tip to …"
    buttons, then the menu) instead of reading the database each move, and the fake
    Discord speaks orjson: the load generator fell from 4.4 to 2.7 ms a move;
  - the fake keeps a minute of answered interactions, so the bot's deletion of a
    player's previous confirmation is a 204 as on Discord, not a 404 and an exception.
  In alternated 40 s runs (``--root`` a checkout of the older commit, same minutes) the
  newer bot moved 115.7 and 104.6 games a second against 108.6 and 99.3, board p99 1.90
  and 2.44 s against 2.05 and 2.41 s. The 2 s p99 holds in the machine's faster minutes
  only; holding it always needs about 15 % less CPU per move again.
- A later, faster machine (the same code: bot 3.9-4.4 ms, render workers 5.2-5.5 ms,
  load generator ~1.7 ms a move) left a tenth of a core idle at 146-158 moves/s: the
  bound on moves in progress (then 24) set the pace, as a move spends most of its time
  waiting. At 64, in alternated 40 s runs: 164.0 and 164.3 moves/s, board p99 1.38 and
  1.40 s, against 158.1 and 154.0 moves/s, 1.51 and 1.45 s at 24; acknowledgement p99
  no slower (0.16-0.18 s). "slowest seconds" shows the tail spread over the run, not
  bunched: queueing, not a hiccup.
- Worst stalls, idle machine: 66-139 ms. The longest are the garbage collector's full
  passes (printed per generation), 60-127 ms each, about one every four seconds: under
  this load some 50,000 objects are alive (each waiting click's interaction with its
  message and menu, and each player's last confirmation, kept to delete it later).
- Memory grew because discord.py kept every private menu's view alive for its
  15-minute ephemeral timeout (tracemalloc: discord/ui/view.py and the select options of
  cogs/bann.py); views are now sent already stopped. Growth over a minute fell from
  +0.67 to +0.19 MiB/s. A 10-minute soak (``--soak 600``, 18,812 moves at load 9-10):
  104.3 MiB after the first minute, 106.6 at 3 min, 108.7 at 8 min, 109.5 at 10 min,
  i.e. ~0.01 MiB/s and slowing; the first minute's rise is warm-up (caches, SQLite
  pages, the render workers' pipes), not a leak. Acknowledgements over the soak: p50
  31 ms, p99 443 ms; boards p99 11 s (28 moves/s on the busier machine). Again on the
  idle machine with the work above (61,946 moves at 103 a second): 116.2 MiB after the
  first minute, 118.1 at 3, 120.1 at 5, 121.1 at 8 and 122.5 at 10 minutes, about
  +0.012 MiB/s and slowing (1.1 MiB in the second minute, 0.5 in the last); ack p99
  63 ms, board p50 1.87 s and p99 2.64 s. On the faster machine at ~150 moves/s the
  soak still rose ~0.9 MiB a minute (127.1 → 134.8 MiB from minute 2 to 11), and the
  objects a full collection walks grew to ~80,000 (21 stalls of 100-124 ms). The new
  per-minute figures showed Python's allocated blocks creeping up (586 → 672 thousand)
  while SQLite's own memory stayed at 0.5 MiB: a game's last pick was confirmed after
  the game had been forgotten, so one interaction, with its message and menu, stayed
  kept for every game ever finished. With that fixed: 125.7 → 127.6 MiB (0.6 MiB in the
  last six minutes), blocks 542-603 thousand and falling at the end, ~38,000 objects
  walked, the longest full collection 85 ms, no stall over 100 ms (89,207 moves at 148
  a second, board p99 1.59 s, ack p99 76 ms).
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import random
import signal
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from PIL import Image  # noqa: E402

from bench.common import baseline_ms, percentile  # noqa: E402
from data import Seat, Store  # noqa: E402
from fakediscord import Channel, FakeDiscord, Message, SimUser  # noqa: E402
from fakediscord import test_ca as fake_ca  # noqa: E402
from games import GAMES  # noqa: E402

BANN = GAMES["bann"]
MoverOf = Callable[[int], Awaitable[int]]
"""The seat to move first in a channel's newest game."""
SETUP_CONCURRENCY = 20
KEEP_ANSWERED_SECONDS = 60


class WatchedFake(FakeDiscord):
    """The fake Discord, telling waiters when a message is edited."""

    def __init__(self) -> None:
        super().__init__()
        self.gateway.wait_for_parse = False
        self.edit_waiters: dict[int, list[tuple[str, asyncio.Future[float]]]] = defaultdict(list)
        self.request_counts: Counter[tuple[str, str, int]] = Counter()
        self.counting = False
        self.boards_drawn = 0
        self.awaited: set[int] = set()
        """Interactions whose answer is still to come (reviews under way), kept however long
        ago they were acknowledged: the bot edits the answer in when it is ready."""

    def _edit_message(self, message: Message, body: dict, uploads: dict) -> None:
        super()._edit_message(message, body, uploads)
        self.boards_drawn += self.counting and bool(uploads)
        waiters = self.edit_waiters.get(message.id)
        if not waiters:
            return
        ids = " ".join(button.custom_id for button in message.buttons())
        still = []
        for marker, future in waiters:
            # A finished game's board has no buttons left to carry the version.
            if (marker in ids or not ids) and not future.done():
                future.set_result(time.perf_counter())
            elif not future.done():
                still.append((marker, future))
        self.edit_waiters[message.id] = still

    def board_shows(self, message: Message, marker: str) -> asyncio.Future[float]:
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self.edit_waiters[message.id].append((marker, future))
        return future

    def forget_history(self) -> None:
        """Drop what the fake keeps for tests (old versions, logs) so it does not swell."""
        self.message_log.clear()
        if self.counting:
            self.request_counts.update((r.method, r.route, r.status) for r in self.requests)
        self.requests.clear()
        # Discord honours an interaction's token for 15 minutes; the bot deletes a
        # player's previous confirmation a round trip later, so recent ones must stay.
        answered_before = asyncio.get_running_loop().time() - KEEP_ANSWERED_SECONDS
        for record_id in [
            i
            for i, r in self.interactions.items()
            if r.answered_at is not None
            and r.answered_at < answered_before
            and i not in self.awaited
        ]:
            record = self.interactions.pop(record_id)
            self._interactions_by_token.pop(record.token, None)
        answers = {
            message.id
            for record in self.interactions.values()
            for message in (record.original, *record.followups)
            if message is not None
        }
        for guild in self.guilds:
            for channel in guild.channels:
                # Boards and lobbies (messages with controls) stay: the bot edits them.
                recent = channel.messages[-6:]
                channel.messages[:] = [
                    m for m in channel.messages if m.components or m in recent or m.id in answers
                ]
                for message in channel.messages:
                    message.versions.clear()


def descendants_cpu_seconds(pid: int) -> float:
    """User and system CPU of every process below ``pid`` (the bot's render workers and
    their forkserver), from Linux's /proc; 0 elsewhere."""
    parents: dict[int, int] = {}
    ticks: dict[int, int] = {}
    for entry in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = entry.read_text().rpartition(")")[2].split()
        except OSError:
            continue
        process = int(entry.parent.name)
        parents[process] = int(fields[1])
        ticks[process] = int(fields[11]) + int(fields[12])
    below, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier}
        below |= frontier
    return sum(ticks[process] for process in below) / os.sysconf("SC_CLK_TCK")


class Samples:
    def __init__(self) -> None:
        self.ack_ms: list[float] = []
        self.board_ms: list[float] = []
        self.board_shown_at: list[float] = []
        self.moves = 0
        self.timeouts = 0
        self.unanswered = 0
        self.refusals: dict[str, int] = defaultdict(int)
        self.reviews_asked = 0
        self.review_seconds: list[float] = []


def game_row(database: Path, channel_id: int) -> tuple[int, int, str, dict] | None:
    with sqlite3.connect(database, timeout=30) as db:
        row = db.execute(
            "SELECT id, version, status, state FROM games WHERE channel_id = ?"
            " ORDER BY id DESC LIMIT 1",
            (channel_id,),
        ).fetchone()
    if row is None or row[3] is None:
        return None
    return row[0], row[1], row[2], json.loads(row[3])


UNANSWERED_MS = 10_000.0
"""An interaction with no answer in 10 s counts as that slow (Discord gives up after 3 s)."""


async def answered_ms(record) -> float:
    try:
        await record.wait_answered(timeout=UNANSWERED_MS / 1000)
    except AssertionError:
        return UNANSWERED_MS
    return record.latency * 1000


async def open_game(fake: WatchedFake, channel, players: list[SimUser]) -> Message:
    opened = await players[0].slash_nowait(channel, "bann new", opponent=players[1])
    await opened.wait_answered(timeout=60)
    if opened.original is None:
        raise RuntimeError(f"no lobby in {channel.name}")
    while opened.original is None or not opened.original.buttons():
        await asyncio.sleep(0.01)
    joined = await players[1].click_nowait(opened.original, "Join")
    await joined.wait_answered(timeout=60)
    board = opened.original
    while not board.attachments:
        await asyncio.sleep(0.01)
    return board


async def play_game(
    fake: WatchedFake,
    channel,
    players: list[SimUser],
    board: Message,
    mover_of: MoverOf,
    samples: Samples,
    until: float,
    chooser: random.Random,
) -> None:
    """Play as people do, from what Discord shows: a random enabled "Tip to …" button of
    the board, then a random move of the private menu; the players take turns (a Bann
    move always passes the turn). Only who moves first is read from the database."""
    mover = await mover_of(channel.id)
    while time.perf_counter() < until:
        tips = [
            button
            for button in board.buttons()
            if button.custom_id and button.custom_id.split(":")[3] == "tip" and not button.disabled
        ]
        if not tips:
            try:
                board = await open_game(fake, channel, players)
            except (RuntimeError, AssertionError):
                samples.refusals["a new game did not open"] += 1
                return
            mover = await mover_of(channel.id)
            continue
        _kind, game_id, version, *_rest = tips[0].custom_id.split(":")
        player = players[mover]
        tip = await player.click_nowait(board, chooser.choice(tips).label)
        samples.ack_ms.append(await answered_ms(tip))
        samples.unanswered += samples.ack_ms[-1] == UNANSWERED_MS
        menu = tip.original
        if menu is None or not menu.selects():
            samples.refusals[menu.content[:40] if menu else "no answer"] += 1
            await asyncio.sleep(0.05)
            continue
        shown = fake.board_shows(board, f":{game_id}:{int(version) + 1}:")
        start = time.perf_counter()
        move = await player.select_nowait(menu, [chooser.choice(menu.selects()[0].values)])
        samples.ack_ms.append(await answered_ms(move))
        samples.unanswered += samples.ack_ms[-1] == UNANSWERED_MS
        try:
            drawn = await asyncio.wait_for(shown, timeout=30)
        except TimeoutError:
            samples.timeouts += 1
            continue
        samples.board_ms.append((drawn - start) * 1000)
        samples.board_shown_at.append(drawn)
        samples.moves += 1
        mover = 1 - mover


def print_slowest_seconds(samples: Samples, shown: int = 5) -> None:
    """The seconds whose boards waited longest: a tail spread evenly is queueing, a tail in
    a few seconds is a hiccup (a checkpoint, a collector pass) worth finding."""
    if not samples.board_shown_at:
        return
    first = min(samples.board_shown_at)
    by_second: dict[int, list[float]] = defaultdict(list)
    for shown_at, waited in zip(samples.board_shown_at, samples.board_ms, strict=True):
        by_second[int(shown_at - first)].append(waited)
    slowest = sorted(by_second.items(), key=lambda item: max(item[1]), reverse=True)[:shown]
    print(
        "slowest seconds (second: boards, p50 / max ms): "
        + "; ".join(
            f"{second}: {len(waits)}, {percentile(waits, 0.5):.0f} / {max(waits):.0f}"
            for second, waits in sorted(slowest)
        )
    )


async def first_mover(database: Path, channel_id: int) -> int:
    """The seat to move in the channel's newest game (the opening roll decides it)."""
    row = await asyncio.to_thread(game_row, database, channel_id)
    assert row is not None and row[2] == "active"
    return BANN.from_dict(row[3]).current_player


async def run_load(
    fake: WatchedFake,
    boards: list[tuple],
    mover_of: MoverOf,
    seconds: float,
    reviews: tuple[SimUser, list[tuple[Channel, int]], int] | None = None,
) -> Samples:
    """Play every game until ``seconds`` have passed, with ``reviews`` (the reviewer, the
    channels and ids of finished games, how many at once) under way meanwhile: the players'
    samples, the reviews' among them."""
    samples = Samples()
    until = time.perf_counter() + seconds
    chooser = random.Random(7)

    async def trim() -> None:
        while time.perf_counter() < until:
            await asyncio.sleep(2)
            fake.forget_history()

    tasks = [
        asyncio.create_task(
            play_game(fake, channel, players, board, mover_of, samples, until, chooser)
        )
        for channel, players, board in boards
    ]
    trimmer = asyncio.create_task(trim())
    reviewing = asyncio.create_task(
        keep_reviewing(fake, *reviews, until, samples) if reviews else asyncio.sleep(0)
    )
    fake.counting = True
    await asyncio.gather(*tasks)
    trimmer.cancel()
    await reviewing
    fake.forget_history()
    fake.counting = False
    return samples


async def finished_games(database: Path, guild_id: int, channels: list[Channel]) -> list[int]:
    """A finished Bann game of two normal computers in each channel, written into the
    database as the bot saves one (its ids, in channel order)."""
    store = await Store.open(database)
    try:
        ids = []
        for number, channel in enumerate(channels):
            seats = [Seat("AdaBot", None, "normal"), Seat("Babbage", None, "normal")]
            table = await store.create_table(
                kind="bann", guild_id=guild_id, channel_id=channel.id, creator_id=1,
                seats=seats, options={}, seed=number + 1,
            )  # fmt: skip
            state = BANN.new_game(players=2, seed=table.seed)
            logged: list[tuple[int | None, str]] = []
            while not state.is_over:
                action = BANN.bot_action(state, seed=len(logged), level="normal")
                logged.append((state.current_player, action))
                state = state.apply(action)
            table.state, table.status = state.to_dict(), "active"
            table.finish(state.returns())
            await store.save(table, expected_version=table.version, actions=logged)
            ids.append(table.id)
        return ids
    finally:
        await store.close()


async def keep_reviewing(
    fake: WatchedFake,
    user: SimUser,
    games: list[tuple[Channel, int]],
    at_once: int,
    until: float,
    samples: Samples,
) -> None:
    """``at_once`` reviews under way until ``until`` (or the games run out), counted in
    ``samples`` with the seconds from each request to its answer, of those answered by then."""
    queue = list(games)

    async def reviewer() -> None:
        while queue and time.perf_counter() < until:
            channel, game_id = queue.pop(0)
            start = time.perf_counter()
            samples.reviews_asked += 1
            asked = await user.slash_nowait(channel, "game review", game=game_id)
            fake.awaited.add(asked.id)
            while time.perf_counter() < until:
                message = asked.original
                if message is not None and message.embeds:
                    samples.review_seconds.append(time.perf_counter() - start)
                    fake.awaited.discard(asked.id)
                    break
                await asyncio.sleep(0.1)

    await asyncio.gather(*(reviewer() for _ in range(at_once)))


async def simultaneous_joins(fake: WatchedFake, guild, joiners: list[SimUser], database: Path):
    channel = guild.add_text_channel("join-rush")
    await fake.wait_until_idle()
    opened = await fake.users[0].slash_nowait(channel, "barbu new", series=1)
    await opened.wait_answered(timeout=60)
    while opened.original is None or not opened.original.buttons():
        await asyncio.sleep(0.01)
    lobby = opened.original
    records = await asyncio.gather(*(user.click_nowait(lobby, "Join") for user in joiners))
    await asyncio.gather(*(record.wait_answered(timeout=60) for record in records))
    await asyncio.sleep(1)
    order = [record.user for record in sorted(records, key=lambda record: record.id)]
    with sqlite3.connect(database) as db:
        seats = json.loads(
            db.execute(
                "SELECT seats FROM games WHERE channel_id = ? ORDER BY id DESC", (channel.id,)
            ).fetchone()[0]
        )
    seated = [seat["user_id"] for seat in seats[1:]]
    answers = []
    for record in records:
        texts = [m.content or "" for m in [record.original, *record.followups] if m is not None]
        answers.extend(texts)
    try_again = sum("try again" in text for text in answers)
    expected = [user.id for user in order[: len(seated)]]
    return len(seats), seated == expected, try_again


def memory_figures(rss: list[tuple[float, int]], warm_up: float, until: float) -> str:
    """Resident memory over the load after warm-up (not the joins and shut-down after it)."""
    after = [(t, kib) for t, kib in rss if warm_up <= t <= until]
    if len(after) < 2:
        return "memory: not enough samples"
    first, last = after[0], after[-1]
    slope = (last[1] - first[1]) / 1024 / max(last[0] - first[0], 1e-9)
    peak = max(kib for _, kib in after) / 1024
    return (
        f"resident memory after {warm_up:.0f} s warm-up: {first[1] / 1024:.1f} MiB → "
        f"{last[1] / 1024:.1f} MiB over {last[0] - first[0]:.0f} s "
        f"({slope:+.3f} MiB/s, peak {peak:.1f} MiB); "
        + per_minute("in MiB", rss, warm_up, until, 1024)
    )


def per_minute(
    name: str, series: list[tuple[float, int]], warm_up: float, until: float, unit: int
) -> str:
    """A figure sampled each second, at the end of each minute after warm-up."""
    minutes = {int(t // 60): value for t, value in series if warm_up <= t <= until}
    return f"{name} at the end of each minute: " + ", ".join(
        f"{minute + 1}: {value / unit:.1f}" for minute, value in sorted(minutes.items())
    )


@dataclass
class Measured:
    """One bot under the load: the players' samples and the bot's own figures."""

    samples: Samples
    elapsed: float
    figures: dict
    generator_cpu: float
    helpers_cpu: float
    request_counts: Counter[tuple[str, str, int]]
    boards_drawn: int
    board_png: bytes
    idle_cpu_per_second: float
    measured_for: float
    joins: tuple[int, bool, int] | None = None
    reviews_at_once: int = 0

    @property
    def cpu_ms_per_move(self) -> float:
        return self.figures["cpu_seconds"] * 1000 / max(self.samples.moves, 1)

    @property
    def net_cpu_ms_per_move(self) -> float:
        """CPU per move without what the process spends when no move is played (the
        self-measurement's timers, gateway heartbeats): those are per second, so a bot
        moving fewer games a second would otherwise pay more of them per move."""
        idle = self.idle_cpu_per_second * self.measured_for
        return (self.figures["cpu_seconds"] - idle) * 1000 / max(self.samples.moves, 1)


async def measure(
    arguments: argparse.Namespace,
    folder: Path,
    command: list[str],
    mover_of: MoverOf | None,
    reviews_at_once: int = 0,
) -> Measured:
    """Start the bot ``command`` names against a fresh fake Discord, open the games, play
    them for the measured seconds with ``reviews_at_once`` reviews under way (the real bot
    only: they are read from its database), then (the real bot only, which has a database
    to read the first mover from) the simultaneous joins."""
    report, ca_pem = folder / f"{Path(command[0]).stem}.json", folder / "ca.pem"
    database = folder / "load.sqlite3"
    fake_ca().cert_pem.write_to_path(str(ca_pem))
    async with WatchedFake() as fake:
        guild = fake.add_guild("Bench")
        # Two players of their own per game: one member may keep only three lobbies open.
        pairs = [
            [fake.add_user(f"p{n}a", guild=guild), fake.add_user(f"p{n}b", guild=guild)]
            for n in range(arguments.games)
        ]
        joiners = [fake.add_user(f"joiner{n}", guild=guild) for n in range(arguments.joins)]
        channels = [guild.add_text_channel(f"table-{n}") for n in range(arguments.games)]
        reviews = None
        if reviews_at_once:
            # Enough finished games to keep the reviews going: a Bann review of two normal
            # computers takes several seconds of a core.
            reviewed = [guild.add_text_channel(f"reviewed-{n}") for n in range(reviews_at_once * 6)]
            ids = await finished_games(database, guild.id, reviewed)
            reviewer = fake.add_user("reviewer", guild=guild)
            reviews = (reviewer, list(zip(reviewed, ids, strict=True)), reviews_at_once)
        identified = fake.gateway.identify_count
        child = await asyncio.create_subprocess_exec(
            sys.executable,
            *command,
            "--port", str(fake.port),
            "--ca", str(ca_pem),
            "--report", str(report),
            cwd=str(folder),
        )  # fmt: skip
        while fake.gateway.identify_count == identified or not fake.commands.listing(None):
            await asyncio.sleep(0.05)
        await asyncio.sleep(1)
        gate = asyncio.Semaphore(SETUP_CONCURRENCY)

        async def set_up(channel, players):
            async with gate:
                return channel, players, await open_game(fake, channel, players)

        boards = await asyncio.gather(*map(set_up, channels, pairs))
        fake.forget_history()
        print(f"{len(boards)} games open; load average {os.getloadavg()}", flush=True)
        idle_cpu_per_second = await idle_cpu_rate(child.pid)
        child.send_signal(signal.SIGUSR1)
        signalled = time.perf_counter()
        started, generator_cpu = time.perf_counter(), time.process_time()
        helpers_cpu = descendants_cpu_seconds(child.pid)
        fake.boards_drawn = 0
        samples = await run_load(
            fake,
            boards,
            mover_of or (lambda channel_id: first_mover(database, channel_id)),
            arguments.seconds + arguments.soak,
            reviews,
        )
        elapsed = time.perf_counter() - started
        generator_cpu = time.process_time() - generator_cpu
        helpers_cpu = descendants_cpu_seconds(child.pid) - helpers_cpu
        print(f"load average at the end {os.getloadavg()}", flush=True)
        board_png = boards[0][2].attachments[0].data
        joins = None
        if mover_of is None:
            joins = await simultaneous_joins(fake, guild, joiners, database)
        else:
            await asyncio.sleep(2)  # the last moves' requests, before the bot is stopped
        measured_for = time.perf_counter() - signalled
        child.send_signal(signal.SIGTERM)
        await child.wait()
        return Measured(
            samples,
            elapsed,
            json.loads(report.read_text()),
            generator_cpu,
            helpers_cpu,
            fake.request_counts,
            fake.boards_drawn,
            board_png,
            idle_cpu_per_second,
            measured_for,
            joins,
            reviews_at_once,
        )


IDLE_SECONDS = 5.0


async def idle_cpu_rate(pid: int) -> float:
    """CPU seconds a second the process ``pid`` spends while nobody plays (every thread,
    not its children), over ``IDLE_SECONDS``."""
    started, before = time.perf_counter(), process_cpu_seconds(pid)
    await asyncio.sleep(IDLE_SECONDS)
    return (process_cpu_seconds(pid) - before) / (time.perf_counter() - started)


def process_cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def any_seat(channel_id: int) -> int:
    """The floor bot has no rules: either player may move first."""
    return 0


def plain_encode_cpu_ms(png: bytes, repeats: int = 30) -> tuple[str, float]:
    """The picture a board PNG shows, drawn as the bot draws it (RGB, same size), and the
    median CPU milliseconds of encoding it with Pillow's plain PNG defaults: the floor of
    drawing, beside which the render workers' CPU per board is read."""
    picture = Image.open(io.BytesIO(png)).convert("RGB")
    timings = []
    for _ in range(repeats):
        started = time.process_time()
        picture.save(io.BytesIO(), format="PNG")
        timings.append((time.process_time() - started) * 1000)
    return f"{picture.width}×{picture.height} {picture.mode}", statistics.median(timings)


def print_bot(bot: Measured, arguments: argparse.Namespace) -> None:
    samples, elapsed, figures = bot.samples, bot.elapsed, bot.figures
    print(f"bot: {arguments.root}")
    print(f"{samples.moves} moves in {elapsed:.0f} s by {arguments.games} games "
          f"({samples.moves / elapsed:.1f}/s); {samples.timeouts} boards not shown in 30 s; "
          f"{samples.unanswered} interactions unanswered; "
          f"refusals {dict(samples.refusals)}")  # fmt: skip
    for name, values in (("acknowledgement", samples.ack_ms), ("click → board", samples.board_ms)):
        if values:
            print(
                f"{name}: p50 {percentile(values, 0.5):.0f} ms, p99 {percentile(values, 0.99):.0f}"
                f" ms, max {max(values):.0f} ms ({len(values)} samples)"
            )
    if bot.reviews_at_once:
        answered = sorted(samples.review_seconds)
        print(
            f"reviews, {bot.reviews_at_once} under way at once: {len(answered)} of"
            f" {samples.reviews_asked} asked answered during the load"
            + (
                f", request → answer p50 {percentile(answered, 0.5):.1f} s,"
                f" max {answered[-1]:.1f} s"
                if answered
                else ""
            )
        )
    print_slowest_seconds(samples)
    print(
        f"bot event loop: worst stall {figures['worst_stall_ms']:.0f} ms, "
        f"{figures['stalls_over_100ms']} stalls over 100 ms; on a 50 ms timer, the worst "
        f"{figures['worst_coarse_stall_ms']:.0f} ms late with {figures['worst_stall_cpu_ms']:.0f}"
        f" ms of the loop thread's own CPU in it, {figures['blocking_over_100ms']} stalls with"
        f" over 100 ms of it (most: {figures['worst_blocking_ms']:.0f} ms); the rest of a stall"
        " is time the process waited for a core"
    )
    for generation, passes in sorted(figures["collections"].items()):
        if passes:
            print(
                f"garbage collector, generation {generation}: {len(passes)} passes,"
                f" longest {max(passes):.1f} ms, {sum(passes) / max(elapsed, 1):.1f} ms a second"
            )
    print(f"objects a full collection walks at the end: {figures['tracked_objects']}")
    print_requests(bot)
    print(
        f"load generator (fake Discord + players) CPU: {bot.generator_cpu:.1f} s over"
        f" {elapsed:.0f} s ({bot.generator_cpu / elapsed:.0%} of a core; near 100% means it,"
        " not the bot, limits)"
    )
    print(
        f"bot process CPU: {figures['cpu_seconds']:.1f} s over the measured period"
        f" ({bot.cpu_ms_per_move:.1f} ms per move)"
    )
    if bot.reviews_at_once:
        print(
            f"bot's render and review workers CPU: {bot.helpers_cpu:.1f} s"
            f" ({bot.helpers_cpu * 1000 / max(samples.moves, 1):.1f} ms per move;"
            f" {bot.boards_drawn} boards)"
        )
    else:
        print(
            f"bot's render workers CPU: {bot.helpers_cpu:.1f} s"
            f" ({bot.helpers_cpu * 1000 / max(samples.moves, 1):.1f} ms per move,"
            f" {bot.helpers_cpu * 1000 / max(bot.boards_drawn, 1):.1f} ms per board drawn;"
            f" {bot.boards_drawn} boards)"
        )
    warm_up = 60 if arguments.soak else 10
    print(memory_figures(figures["rss_kib"], warm_up, elapsed))
    blocks = figures["python_blocks"]
    print(per_minute("Python's allocated blocks (thousands)", blocks, warm_up, elapsed, 1000))
    print(per_minute("SQLite's own memory (MiB)", figures["sqlite_kib"], warm_up, elapsed, 1024))
    if figures["memory_growth"]:
        print("Python allocations that grew most over the measured period (tracemalloc):")
        for line in figures["memory_growth"]:
            print(f"  {line}")
    if bot.joins is not None:
        seats, in_order, try_again = bot.joins
        print(
            f"{arguments.joins} simultaneous joins: {seats} seats filled, "
            f"in click order: {in_order}, 'try again' answers: {try_again}"
        )


def print_requests(bot: Measured) -> None:
    print(f"REST requests per move ({bot.samples.moves} moves):")
    for (method, route, status), count in bot.request_counts.most_common():
        print(f"  {count / max(bot.samples.moves, 1):5.2f}  {method} {route} → {status}")


def ratio(part: float, whole: float) -> str:
    return f"{part / max(whole, 1e-9):.2f}×"


def print_floor(bot: Measured, floor: Measured, baseline: float) -> None:
    """The figures that decide, as ratios that hold from machine to machine."""
    moves = floor.samples.moves
    print(
        f"floor bot (discord.py and aiohttp alone, bench/floor_bot.py): {moves} moves in"
        f" {floor.elapsed:.0f} s ({moves / floor.elapsed:.1f}/s), click → board p50"
        f" {percentile(floor.samples.board_ms or [0], 0.5):.0f} ms; process CPU"
        f" {floor.figures['cpu_seconds']:.1f} s ({floor.cpu_ms_per_move:.2f} ms per move)"
    )
    print_requests(floor)
    print(f"baseline workload: {baseline:.2f} ms (bench/common.py)")
    if bot.reviews_at_once:
        print(
            f"the bot served {bot.reviews_at_once} reviews at once besides the moves (the"
            " floor none): its CPU per move carries their share, so the capacity ratios"
            " come from a run without --reviews"
        )
    print(
        f"idle CPU (nobody playing): bot {bot.idle_cpu_per_second * 1000:.0f} ms a second,"
        f" floor {floor.idle_cpu_per_second * 1000:.0f} ms a second"
    )
    print(
        f"bot CPU per move / floor's, all of it: {bot.cpu_ms_per_move:.2f} /"
        f" {floor.cpu_ms_per_move:.2f} ms = {ratio(bot.cpu_ms_per_move, floor.cpu_ms_per_move)}"
    )
    print(
        f"bot CPU per move / floor's, net of idle: {bot.net_cpu_ms_per_move:.2f} /"
        f" {floor.net_cpu_ms_per_move:.2f} ms ="
        f" {ratio(bot.net_cpu_ms_per_move, floor.net_cpu_ms_per_move)} (target ≤ 2×);"
        f" per baseline: {bot.net_cpu_ms_per_move / baseline:.3f} and"
        f" {floor.net_cpu_ms_per_move / baseline:.3f}"
    )
    if bot.reviews_at_once:
        return  # the workers' CPU is the reviews' as well as the boards'
    size, plain_ms = plain_encode_cpu_ms(bot.board_png)
    per_board = bot.helpers_cpu * 1000 / max(bot.boards_drawn, 1)
    print(
        f"render workers' CPU per board / a plain Pillow PNG encode of the same picture"
        f" ({size}, Pillow's defaults): {per_board:.2f} / {plain_ms:.2f} ms ="
        f" {per_board / max(plain_ms, 1e-9):.2f}×; per baseline: {per_board / baseline:.3f}"
        f" and {plain_ms / baseline:.3f}"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--soak", type=float, default=0)
    parser.add_argument("--joins", type=int, default=40)
    parser.add_argument("--root", type=Path, default=ROOT)
    parser.add_argument("--trace-memory", type=int, default=0, metavar="LINES")
    parser.add_argument("--no-floor", action="store_true", help="measure the bot alone")
    parser.add_argument(
        "--reviews", type=int, default=0, metavar="AT_ONCE", help="reviews under way (bot only)"
    )
    arguments = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-load-"))
    baseline = baseline_ms()
    print(f"baseline workload: {baseline:.2f} ms (bench/common.py)", flush=True)
    real = [str(ROOT / "bench" / "load_bot.py"), "--root", str(arguments.root)]
    real += ["--database", str(folder / "load.sqlite3")]
    real += ["--trace-memory", str(arguments.trace_memory)]
    bot = await measure(arguments, folder, real, None, arguments.reviews)
    print_bot(bot, arguments)
    if arguments.no_floor:
        return
    print(flush=True)
    floor = await measure(arguments, folder, [str(ROOT / "bench" / "floor_bot.py")], any_seat)
    print_floor(bot, floor, (baseline + baseline_ms()) / 2)


if __name__ == "__main__":
    from bot import run_event_loop

    run_event_loop(main())
