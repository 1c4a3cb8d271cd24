"""Proof and memory timings: export + verification of Barbu, and animated replays.

Targets (issue 14): a replay of a 100-move game renders in under 2 s; export plus
verification of a full Barbu series in under 1 s.

    python -m bench.bench_archive [--repeats N]

Games are played from fixed seeds by random legal moves, or by the computer players
where random play would end a game too soon (Bann) and for the "typical game" replay
sizes (except Barbu, whose computer is too slow to play a whole series here). The replay
timing covers everything ``/game replay`` does off the event loop: replaying the log,
drawing every frame, choosing the palette, and encoding. Each line gives wall time and
this process's processor time; on a shared machine the second is the work itself.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from bench.common import baseline_ms, report, time_ms
from games import GAMES
from games.proof import GameFacts, verify_record, write_record
from games.replays import replay_frames
from render.replay import render_replay
from texts.replays import caption

UPLOAD_LIMIT = 10 * 1024 * 1024
PLAYERS = {"bann": 2, "gulbara": 2, "barree": 2, "barbu": 4}
NAMES = ["Jürgen Größe", "Bob", "Chloé", "Dmitri Ivanovich"]


def played(
    kind: str, *, seed: int, options: dict[str, Any], limit: int | None = None, computer: bool
) -> tuple[GameFacts, list[tuple[int | None, str]]]:
    players = PLAYERS[kind]
    facts = GameFacts(kind, 1, 1, 1, seed, options, NAMES[:players])
    state = GAMES[kind].new_game(players=players, seed=seed, **options)
    chooser = random.Random(seed)
    actions: list[tuple[int | None, str]] = []
    while not state.is_over and (limit is None or len(actions) < limit):
        if computer:
            action = GAMES[kind].bot_action(state, seed=len(actions))
        else:
            action = chooser.choice(state.legal_actions())
        actions.append((state.current_player, action))
        state = state.apply(action)
    return facts, actions


def cpu_ms(function: Callable[[], object]) -> float:
    """Processor time of this process only: what the work costs when other programs
    share the machine's cores (wall time then also counts their turns)."""
    start = time.process_time()
    function()
    return (time.process_time() - start) * 1000


def measure(name: str, function: Callable[[], object], repeats: int, baseline: float) -> None:
    walls, cpus = [], []
    for _ in range(repeats):
        cpus.append(cpu_ms(function))
        walls.append(time_ms(function))
    print(f"{report(name, walls, baseline)}; cpu median={statistics.median(cpus):.0f} ms")


def replay_bytes(facts: GameFacts, actions: list[tuple[int | None, str]]) -> tuple[int, str, int]:
    frames = [(frame.view, caption("en", frame)) for frame in replay_frames(facts, actions)]
    movie = render_replay(facts.kind, frames, facts.seats, UPLOAD_LIMIT)
    return len(movie.data), movie.extension, movie.frames


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    arguments = parser.parse_args()
    baseline = baseline_ms()

    for series in (1, 4):
        facts, actions = played("barbu", seed=11, options={"series": series}, computer=False)
        name = f"barbu export+verify ({7 * series} deals, {len(actions)} actions)"
        measure(
            name,
            lambda facts=facts, actions=actions: verify_record(write_record(facts, actions)),
            arguments.repeats,
            baseline,
        )

    for kind in ("bann", "gulbara", "barree", "barbu"):
        options = {"series": 4} if kind == "barbu" else {}
        facts, actions = played(kind, seed=5, options=options, limit=100, computer=kind == "bann")
        measure(
            f"{kind} replay of {len(actions)} actions",
            lambda facts=facts, actions=actions: replay_bytes(facts, actions),
            arguments.repeats,
            baseline,
        )

    for kind in ("bann", "gulbara", "barree", "barbu"):
        options = {"series": 1} if kind == "barbu" else {}
        facts, actions = played(kind, seed=21, options=options, computer=kind != "barbu")
        size, extension, frames = replay_bytes(facts, actions)
        who = "random play" if kind == "barbu" else "computer players"
        print(
            f"{kind} typical game ({who}, {len(actions)} actions): "
            f"{frames} frames, {size / 1024:.0f} KiB {extension}"
        )


if __name__ == "__main__":
    main()
