"""Barree board render + PNG encode time. Target: ≤ 15 ms median.

    python -m bench.bench_render_barree [--views N]

The views come from computer-played games of 2, 3 and 4 players at every stage, so the
sample mixes early boards (many cards, no path) with late ones (walks, reveals, results).
"""

from __future__ import annotations

import argparse
import statistics
from typing import Any

from bench.common import baseline_ms, report, time_ms
from games.barree import SPEC
from render.barree import render_barree

NAMES = ["Alice", "Bob", "Charlotte", "Dan"]


def sample_views(count: int) -> list[dict[str, Any]]:
    views: list[dict[str, Any]] = []
    seed = 0
    while len(views) < count:
        players = 2 + seed % 3
        state = SPEC.new_game(players=players, seed=seed, rounds=1 + seed % 2)
        step = 0
        while not state.is_over and len(views) < count:
            if step % 7 == 0:
                views.append(state.view(None))
            state = state.apply(SPEC.bot_action(state, seed=seed))
            step += 1
        views.append(state.view(None))
        seed += 1
    return views[:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--views", type=int, default=200)
    arguments = parser.parse_args()

    views = sample_views(arguments.views)
    render_barree(views[0], NAMES)  # warm the font and board caches, as a running bot has
    baseline = baseline_ms()
    sizes: list[int] = []
    samples = []
    for view in views:
        names = NAMES[: view["players"]]
        samples.append(
            time_ms(lambda view=view, names=names: sizes.append(len(render_barree(view, names))))
        )
    print(report("barree render+encode", samples, baseline))
    median_kib, max_kib = statistics.median(sizes) / 1024, max(sizes) / 1024
    print(f"PNG size: median {median_kib:.0f} KiB, max {max_kib:.0f} KiB")


if __name__ == "__main__":
    main()
