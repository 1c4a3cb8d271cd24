"""Barbu picture timings: table, hand and score sheet, render + PNG encode.

Target (issue 4): at most 25 ms median per image.

    python -m bench.bench_render_barbu [--repeats N]

The views come from a seeded random game: the table mid-trick in No Hearts (penalty cards
on show, doubles set), the table during Domino, a hand on its owner's turn and the score
sheet after all 28 deals.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from typing import Any

from bench.common import baseline_ms, report, time_ms
from games.barbu import BarbuState, new_game
from render.barbu import render_barbu_hand, render_barbu_scores, render_barbu_table

NAMES = ["Jürgen Größe", "Bob", "Chloé", "Dmitri Ivanovich"]


def advance(
    state: BarbuState, done: Callable[[BarbuState], bool], rng: random.Random
) -> BarbuState:
    while not done(state):
        actions = state.legal_actions()
        doubles = [action for action in actions if action.startswith("double:")]
        state = state.apply(rng.choice(doubles or actions))
    return state


def sample_views() -> dict[str, dict[str, Any]]:
    rng = random.Random(3)
    hearts = advance(new_game(seed=9).apply("nohearts"), lambda s: len(s.tricks) >= 6, rng)
    hearts = advance(hearts, lambda s: len(s.trick) == 2, rng)
    domino = advance(hearts, lambda s: "domino" in s.contract_choices(), rng).apply("domino:8")
    domino = advance(domino, lambda s: s.phase == "play" and len(s.domino_moves) >= 24, rng)
    over = advance(domino, lambda s: s.is_over, rng)
    return {
        "table (No Hearts, mid-trick)": hearts.view(None),
        "table (Domino)": domino.view(None),
        "hand (own turn)": hearts.view(hearts.current_player),
        "score sheet (28 deals)": over.view(None),
    }


def timings(render: Callable[..., bytes], view: dict[str, Any], repeats: int) -> list[float]:
    render(view, NAMES)
    return [time_ms(lambda: render(view, NAMES)) for _ in range(repeats)]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeats", type=int, default=60)
    arguments = parser.parse_args()

    views = sample_views()
    renderers = {
        "table (No Hearts, mid-trick)": render_barbu_table,
        "table (Domino)": render_barbu_table,
        "hand (own turn)": render_barbu_hand,
        "score sheet (28 deals)": render_barbu_scores,
    }
    baseline = baseline_ms()
    for name, render in renderers.items():
        samples = timings(render, views[name], arguments.repeats)
        print(report(f"barbu {name}", samples, baseline))


if __name__ == "__main__":
    main()
