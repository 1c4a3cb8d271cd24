"""How long the event loop stalls while `/game replay` renders in a worker thread.

    python -m bench.bench_replay_stall [--replays N]

The bot renders replays with ``asyncio.to_thread``; the thread still shares the
interpreter lock with the event loop, so C code that holds the lock for long (image
encoding, palette mapping) would delay every other game's clicks. A ticker on the loop
asks to wake every 5 ms; the worst lateness over the replays is the longest a click would
have waited. The idle line is the same ticker with no replay running, for comparison.

With ``--crowd N``, N members ask for replays at once and a board render (a short job in
a worker thread, as every move's board is drawn) is started meanwhile: its wait shows
whether replays can hold up the threads other games need.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from bench.bench_archive import UPLOAD_LIMIT, played
from games.replays import replay_frames
from render.replay import render_replay
from texts.replays import caption

TICK_SECONDS = 0.005


def render_one() -> None:
    facts, actions = played("gulbara", seed=5, options={}, limit=100, computer=False)
    frames = [(frame.view, caption("en", frame)) for frame in replay_frames(facts, actions)]
    render_replay(facts.kind, frames, facts.seats, UPLOAD_LIMIT)


async def lateness_while(work: asyncio.Future[object] | None, seconds: float) -> list[float]:
    """Milliseconds each tick woke later than asked, until ``work`` is done (or for
    ``seconds`` when there is no work)."""
    late: list[float] = []
    stop_at = time.perf_counter() + seconds
    while (work is not None and not work.done()) or (
        work is None and time.perf_counter() < stop_at
    ):
        asked = time.perf_counter()
        await asyncio.sleep(TICK_SECONDS)
        late.append((time.perf_counter() - asked - TICK_SECONDS) * 1000)
    return late


async def measure(replays: int) -> None:
    idle = await lateness_while(None, 2.0)
    print(f"idle loop: worst lateness {max(idle):.1f} ms, median {statistics.median(idle):.2f} ms")
    for number in range(1, replays + 1):
        started = time.perf_counter()
        work = asyncio.ensure_future(asyncio.to_thread(render_one))
        late = await lateness_while(work, 0)
        await work
        took = time.perf_counter() - started
        print(
            f"replay {number} (Gul Bara, 100 moves, {took:.2f} s): worst lateness "
            f"{max(late):.1f} ms, p99 {sorted(late)[int(0.99 * (len(late) - 1))]:.1f} ms, "
            f"{sum(1 for value in late if value > 100)} ticks over 100 ms of {len(late)}"
        )


def board_render() -> None:
    time.sleep(0.01)


async def crowd(members: int) -> None:
    from cogs.archive import replay_work

    replays = [asyncio.ensure_future(replay_work(render_one)) for _ in range(members)]
    await asyncio.sleep(0.2)
    asked = time.perf_counter()
    await asyncio.to_thread(board_render)
    waited = (time.perf_counter() - asked) * 1000 - 10
    await asyncio.gather(*replays)
    print(f"{members} replays at once: a 10 ms board render waited {waited:.0f} ms for a thread")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--replays", type=int, default=3)
    parser.add_argument("--crowd", type=int, default=0)
    arguments = parser.parse_args()
    asyncio.run(measure(arguments.replays))
    if arguments.crowd:
        asyncio.run(crowd(arguments.crowd))


if __name__ == "__main__":
    main()
