"""Hints: what one costs next to the computer's own decision, and whether a crowd of them
holds up the event loop or another game's computer move.

    python -m bench.bench_hints [--positions N] [--crowd N]

For each game, positions from games the computers play against each other; at each one
the normal computer's decision (``bot_action``) and the whole hint the Hint button gives
(that decision, its reasons and their words, ``GameCog.hint``) are timed side by side, so
the ratio hint/decision is what the reasons cost. Then ``--crowd`` Barbu hints (the
dearest) are asked at once the way the bot works them out (at most ``HINTS_AT_ONCE`` at a
time, each in a worker thread) while a ticker on the event loop measures how late it
wakes, and a computer move of another game is started in the same threads: its time to
finish, next to the same move on an idle bot, is what the crowd costs that game's board.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from typing import Any

from bench.common import baseline_ms, report, time_ms
from cogs.discovery import game_cogs
from cogs.table.game_cog import GameCog, hint_seed
from cogs.table.hints import HINTS_AT_ONCE
from data import Seat, Table
from games import DEFAULT_LEVEL, GAMES, GameState

TICK_SECONDS = 0.005
PLAYERS = {"bann": 2, "gulbara": 2, "barbu": 4, "barree": 3}


def table_for(kind: str, seats: int, version: int) -> Table:
    return Table(
        id=1,
        kind=kind,
        guild_id=1,
        channel_id=1,
        creator_id=1,
        status="active",
        seats=[Seat(f"Player {seat + 1}", user_id=seat + 1) for seat in range(seats)],
        options={},
        seed=1234,
        state=None,
        version=version,
        board_message_id=None,
        created_at=0.0,
        updated_at=0.0,
        extra={"hints": True},
    )


def positions(cog: GameCog[Any], count: int) -> list[GameState]:
    """States with a choice for the seat to act, from computer-played games."""
    spec = cog.spec
    found: list[GameState] = []
    seed = 0
    while len(found) < count:
        state = spec.new_game(players=PLAYERS[spec.key], seed=seed)
        seed += 1
        for step in range(300):
            if state.is_over or len(found) >= count:
                break
            if cog.hint_offered(state):
                found.append(state)
            state = state.apply(spec.bot_action(state, seed=step, level="easy"))
    return found


def time_game(cog: GameCog[Any], count: int, baseline: float) -> None:
    spec = cog.spec
    decisions, hints = [], []
    for version, state in enumerate(positions(cog, count)):
        table = table_for(spec.key, state.players, version)
        seed = hint_seed(table)
        decisions.append(
            time_ms(lambda: spec.bot_action(state, seed=seed, level=DEFAULT_LEVEL))  # noqa: B023
        )
        hints.append(time_ms(lambda: cog.hint(table, state, "en")))  # noqa: B023
    print(report(f"{spec.title} decision", decisions, baseline))
    print(report(f"{spec.title} hint", hints, baseline))
    ratio = statistics.median(hints) / statistics.median(decisions)
    print(f"{spec.title}: hint/decision median ratio {ratio:.2f}")


async def lateness(until: asyncio.Future[Any]) -> list[float]:
    late: list[float] = []
    while not until.done():
        asked = time.perf_counter()
        await asyncio.sleep(TICK_SECONDS)
        late.append((time.perf_counter() - asked - TICK_SECONDS) * 1000)
    return late


async def computer_move_ms(state: GameState) -> float:
    """A computer move of another game, run as the pipeline runs it."""
    spec = GAMES["bann"]
    started = time.perf_counter()
    await asyncio.to_thread(spec.bot_action, state, seed=1, level=DEFAULT_LEVEL)
    return (time.perf_counter() - started) * 1000


async def crowd(cog: GameCog[Any], count: int) -> None:
    states = positions(cog, count)
    tables = [table_for(cog.spec.key, 4, version) for version in range(count)]
    slots = asyncio.Semaphore(HINTS_AT_ONCE)
    bann = GAMES["bann"].new_game(seed=3)

    async def hint(table: Table, state: GameState) -> None:
        async with slots:
            await asyncio.to_thread(cog.hint, table, state, "en")

    idle_move = await computer_move_ms(bann)
    idle = asyncio.ensure_future(asyncio.sleep(1.0))
    idle_late = await lateness(idle)
    started = time.perf_counter()
    flood = asyncio.ensure_future(
        asyncio.gather(*(hint(table, state) for table, state in zip(tables, states, strict=True)))
    )
    ticker = asyncio.ensure_future(lateness(flood))
    await asyncio.sleep(0.05)
    crowded_move = await computer_move_ms(bann)
    late = await ticker
    await flood
    elapsed = time.perf_counter() - started
    print(
        f"{count} {cog.spec.title} hints at once ({HINTS_AT_ONCE} at a time): all given in"
        f" {elapsed:.2f} s; event loop late by at most {max(late):.1f} ms"
        f" (idle: {max(idle_late):.1f} ms); a Bann computer move took {crowded_move:.0f} ms"
        f" (idle bot: {idle_move:.0f} ms)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--crowd", type=int, default=20)
    arguments = parser.parse_args()
    baseline = baseline_ms()
    cogs = {cog_class.spec.key: cog_class(None, None) for cog_class in game_cogs()}
    for cog in cogs.values():
        time_game(cog, arguments.positions, baseline)
    asyncio.run(crowd(cogs["barbu"], arguments.crowd))


if __name__ == "__main__":
    main()
