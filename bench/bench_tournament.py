"""Tournaments: how long the pure part takes on a large field.

    python -m bench.bench_tournament [--players 64] [--rounds 6] [--repeats 3] [--seed 1]

A Swiss of ``--players`` computers over ``--rounds`` rounds with simulated results (the
better rated computer wins more often: the chess expectation on a 400-point scale, a
fifth of the games drawn): the time to pair each round (``pair_next_round``, the FIDE
Dutch system through caissify-pairings) and to compute the standings after it. The
same field is then seated as Barbu table groups (tables of four, the local search
against repeat meetings) for the same number of rounds. Each measurement is repeated
``--repeats`` times over the same tournament (the pairing is deterministic) and reported
with the machine's baseline workload, so figures from busy or different machines compare
as ratios.

Pairing runs once per round, off the event loop in the bot, so the figure to watch is
its worst round against the minutes a round's games take.

The parts are listed in ``PARTS``: each takes the parsed arguments and the baseline and
prints its lines. The last one runs the real bot against the fake Discord (both in this
process, on an SQLite file): ``--players`` members enter a Swiss and its organiser starts
it, and the figure is the time from `/tournament start` until every table of the first
round has its game, its thread and its board (members' tables stay open, waiting for the
first move, so the figure is the opening alone), ``--repeats`` times; meanwhile two members
play Bann elsewhere flat out, and each of their clicks is timed until the bot answered it
(the menu; the move saved and its board redrawn): the boards' p99 while a round opens,
against the same clicks with no round opening, and the event loop's worst stall.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import random
import sqlite3
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import discord

from bench.bench_bot import StallMeter
from bench.common import baseline_ms, report, time_ms
from bot import create_bot
from fakediscord import FakeDiscord, Message, SimUser
from games import GAMES
from games.tournament import (
    Config,
    Format,
    Player,
    Result,
    Round,
    Tournament,
    pair_next_round,
    standings,
)

DRAWS = 0.2
"""The share of simulated two-player games drawn."""


def field(players: int, rng: random.Random) -> tuple[Player, ...]:
    """Computers with league ratings spread as a server's are: 1000 ± a few hundred."""
    return tuple(
        Player.computer(number, "normal", round(rng.gauss(1000, 150))) for number in range(players)
    )


def expected(rating: float, other: float) -> float:
    return 1 / (1 + 10 ** ((other - rating) / 400))


def two_player_result(tournament: Tournament, seats: tuple[str, ...], rng: random.Random) -> Result:
    if rng.random() < DRAWS:
        return Result.draw()
    first, second = (tournament.player(key).rating for key in seats)
    return Result.win(0 if rng.random() < expected(first, second) else 1)


def table_result(tournament: Tournament, seats: tuple[str, ...], rng: random.Random) -> Result:
    """Places by rating with noise, and table totals that sum to zero as Barbu's do."""
    strength = [tournament.player(key).rating + rng.gauss(0, 200) for key in seats]
    order = sorted(range(len(seats)), key=lambda seat: -strength[seat])
    places = [0] * len(seats)
    for place, seat in enumerate(order, start=1):
        places[seat] = place
    totals = [float(rng.randint(-60, 60)) for _ in seats]
    totals[-1] -= sum(totals)
    return Result(tuple(places), tuple(totals))


def play(tournament: Tournament, round_: Round, rng: random.Random) -> Tournament:
    tournament = tournament.with_round(round_)
    for table in round_.tables:
        decide = two_player_result if len(table.seats) == 2 else table_result
        result = decide(tournament, table.seats, rng)
        tournament = tournament.with_result(round_.number, table.number, result)
    return tournament


def timed_pairing(tournament: Tournament, repeats: int) -> tuple[Round, list[float]]:
    """The next round and the milliseconds each of ``repeats`` pairings of it took."""
    paired: list[Round] = []
    samples = [time_ms(lambda: paired.append(pair_next_round(tournament))) for _ in range(repeats)]
    assert all(other == paired[0] for other in paired), "the pairing is deterministic"
    return paired[0], samples


def timed_standings(tournament: Tournament, repeats: int) -> list[float]:
    return [time_ms(lambda: standings(tournament)) for _ in range(repeats)]


def pairing_rounds(config: Config, args: argparse.Namespace, baseline: float) -> None:
    """Pair and play every round; per round the time to pair it and the standings."""
    rng = random.Random(args.seed)
    tournament = Tournament(config, field(args.players, rng))
    worst = 0.0
    for number in range(1, args.rounds + 1):
        round_, pair_ms = timed_pairing(tournament, args.repeats)
        tournament = play(tournament, round_, rng)
        standings_ms = timed_standings(tournament, args.repeats)
        name = f"{config.format.value} round {number} ({len(round_.tables)} tables)"
        print(report(f"{name}: pair", pair_ms, baseline))
        print(report(f"{name}: standings", standings_ms, baseline))
        worst = max(worst, *pair_ms)
    print(f"{config.format.value}: the slowest pairing took {worst:.0f} ms")


def swiss(args: argparse.Namespace, baseline: float) -> None:
    pairing_rounds(Config("bann", Format.SWISS, args.rounds), args, baseline)


def table_groups(args: argparse.Namespace, baseline: float) -> None:
    config = Config("barbu", Format.TABLE_GROUPS, args.rounds, seats_per_table=4, smallest_table=4)
    pairing_rounds(config, args, baseline)


class Movers:
    """Two members playing Bann in a channel of their own as fast as they can. The fake
    Discord's ordinary clicks wait until the whole bot is idle, which a round opening keeps
    it from being; so these clicks are sent without that wait, and each is timed until
    the bot answered it: a click on the board until its menu is there, a pick in the menu
    until the move is saved and its board redrawn."""

    def __init__(self, database: Path, players: list[SimUser], board: Message) -> None:
        self.database = database
        self.players = players
        self.board = board
        self.game_id = 0
        self.samples: list[float] = []
        self._task: asyncio.Task[None] | None = None

    def _stored(self) -> tuple[str, int, int | None]:
        with sqlite3.connect(self.database) as db:
            row = db.execute(
                "SELECT state, version, board_version FROM games WHERE id = ?", (self.game_id,)
            ).fetchone()
        return row[0], row[1], row[2]

    async def _run(self) -> None:
        bann = GAMES["bann"]
        while True:
            state_text, version, _ = self._stored()
            state = bann.from_dict(json.loads(state_text))
            if state.is_over:
                return
            action = next(a for a in state.legal_actions() if a != "offer")
            player = self.players[state.current_player]
            start = time.perf_counter()
            clicked = await player.click_nowait(self.board, f"Tip to {action.split('>')[0]}")
            while clicked.original is None:
                await asyncio.sleep(0.002)
            self.samples.append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            await player.select_nowait(clicked.original, [action])
            while (stored := self._stored())[1] == version or stored[2] != stored[1]:
                await asyncio.sleep(0.002)
            self.samples.append((time.perf_counter() - start) * 1000)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        assert self._task is not None
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)


def opened_tables(database: Path, tournament_id: int) -> int:
    with sqlite3.connect(database) as db:
        row = db.execute(
            "SELECT COUNT(*) FROM tournament_tables t JOIN games g ON g.id = t.game_id"
            " WHERE t.tournament_id = ? AND t.round = 1 AND g.board_message_id IS NOT NULL",
            (tournament_id,),
        ).fetchone()
    return int(row[0])


async def opening_seconds(
    args: argparse.Namespace, database: Path
) -> tuple[list[float], list[float], list[float], list[float]]:
    """Seconds to open round one's tables, per tournament; the movers' milliseconds while
    no round opened and while one did; the event loop's worst stall during each opening."""
    tables = args.players // 2
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Bench")
        members = [fake.add_user(f"member{n}", guild=guild) for n in range(args.players)]
        organiser = members[0]
        organiser.permissions = discord.Permissions(manage_guild=True)
        bot = create_bot(
            database_path=str(database),
            dev_guild_id=None,
            seed_source=itertools.count(1).__next__,
            connector=fake.connector(),
            guild_ready_timeout=0.01,
            render_processes=args.render_processes,
        )
        await fake.start_bot(bot)
        movers_pair = [fake.add_user(name, guild=guild) for name in ("mover1", "mover2")]
        quiet: list[float] = []
        busy: list[float] = []
        seconds: list[float] = []
        stalls: list[float] = []
        for repeat in range(args.repeats):
            channel = guild.add_text_channel(f"event-{repeat}")
            await organiser.slash(
                channel, "tournament create", game="bann", format="swiss", rounds=args.rounds
            )
            for member in members:
                await member.slash(channel, "tournament join")
            side = guild.add_text_channel(f"side-{repeat}")
            opened = await movers_pair[0].slash(side, "bann new", opponent=movers_pair[1])
            board = (await movers_pair[1].click(opened.message, "Join")).message
            movers = Movers(database, movers_pair, board)
            with sqlite3.connect(database) as db:
                movers.game_id = db.execute("SELECT MAX(id) FROM games").fetchone()[0]
            movers.start()
            await asyncio.sleep(2)
            quiet += movers.samples
            before = len(movers.samples)
            meter = StallMeter()
            meter.start()
            start = time.perf_counter()
            await organiser.slash(channel, "tournament start")
            while opened_tables(database, repeat + 1) < tables:
                await asyncio.sleep(0.01)
            seconds.append(time.perf_counter() - start)
            meter.stop()
            stalls.append(meter.worst_ms)
            busy += movers.samples[before:]
            await movers.stop()
        await fake.stop_bot(bot)
    return seconds, quiet, busy, stalls


def opening(args: argparse.Namespace, baseline: float) -> None:
    with tempfile.TemporaryDirectory() as folder:
        seconds, quiet, busy, stalls = asyncio.run(
            opening_seconds(args, Path(folder) / "bench.sqlite3")
        )
    tables = args.players // 2
    print(report(f"open round one's {tables} tables (ms)", [s * 1000 for s in seconds], baseline))
    print(report("a Bann click's answer, no round opening", quiet, baseline))
    print(report(f"a Bann click's answer while {tables} tables open", busy, baseline))
    print(f"the event loop's worst stall while a round opened: {max(stalls):.0f} ms")


PARTS: list[Callable[[argparse.Namespace, float], None]] = [swiss, table_groups, opening]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--render-processes", type=int, default=2, help="the bot's (RENDER_PROCESSES; 0: threads)"
    )
    args = parser.parse_args()
    baseline = baseline_ms()
    print(f"baseline workload: {baseline:.2f} ms")
    for part in PARTS:
        part(args, baseline)


if __name__ == "__main__":
    main()
