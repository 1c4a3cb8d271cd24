"""Gul Bara board render + PNG encode timings (target: ≤ 15 ms median per board).

    python -m bench.bench_render_gulbara [--repeats N]

Renders a spread of real positions (opening, mid-game with this turn's arrows and the
last turn tinted, an escalation chain, a finished match), from both seats' side.
"""

from __future__ import annotations

import argparse
import random
from typing import Any

from bench.common import baseline_ms, report, time_ms
from games import gulbara
from render.gulbara import render_gulbara

NAMES = ["Jürgen Größe", "Bob"]


def sample_views() -> list[dict[str, Any]]:
    chooser = random.Random(11)
    views = []
    state = gulbara.new_game(seed=11, match_to=3)
    views.append(state.view(None))
    for _ in range(60):
        state = state.apply(chooser.choice(state.legal_steps()))
    while not state.played:
        state = state.apply(chooser.choice(state.legal_steps()))
    views.append(state.view(None))
    chain = gulbara.from_code("GB1:,,,,,,,3,3,3,3,3,-1,,,,,,,,,,,|0,14|0|1,1,1,1|5,5")
    for _ in range(6):
        chain = chain.apply(chain.legal_steps()[0])
    views.append(chain.view(None))
    while not state.is_over:
        state = state.apply(chooser.choice(state.legal_steps()))
    views.append(state.view(None))
    return views


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=40)
    args = parser.parse_args()
    baseline = baseline_ms()
    views = sample_views()
    for view in views:
        render_gulbara(view, NAMES)
    samples = [
        time_ms(lambda view=view, viewer=viewer: render_gulbara(view, NAMES, viewer=viewer))
        for _ in range(args.repeats)
        for view in views
        for viewer in (0, 1)
    ]
    print(report("gulbara render + encode", samples, baseline))
    size = len(render_gulbara(views[1], NAMES))
    print(f"mid-game PNG: {size / 1024:.1f} KiB")


if __name__ == "__main__":
    main()
