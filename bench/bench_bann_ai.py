"""The Bann computer player against a uniformly random player.

Run from the project root: ``python -m bench.bench_bann_ai [--games N]``. Seats alternate
(the computer sits at seat 0 in even games); the random player picks uniformly among its
moves (it never offers a draw). Prints the win rate and the computer's decision times.
Targets: at least 95 % wins over 200 games, at most 250 ms p95 per decision.
"""

from __future__ import annotations

import argparse
import random
import time

from bench.common import baseline_ms, report
from games.bann import BannState, bot_action, new_game

MAX_PLIES = 1000  # a safety net: games end long before by castle, capture, ban or repetition


def play(game: int, decision_ms: list[float]) -> BannState:
    """One game; the computer's decision times are appended to ``decision_ms``."""
    computer = game % 2
    chooser = random.Random(f"bench-bann/{game}")
    state = new_game(seed=game)
    for _ in range(MAX_PLIES):
        if state.is_over:
            break
        if state.current_player == computer:
            start = time.perf_counter()
            action = bot_action(state, seed=game)
            decision_ms.append((time.perf_counter() - start) * 1000)
        else:
            action = chooser.choice([a for a in state.legal_actions() if a != "offer"])
        state = state.apply(action)
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="number of games (default 200)")
    games = parser.parse_args().games
    baseline = baseline_ms()
    decision_ms: list[float] = []
    wins = draws = 0
    for game in range(games):
        final = play(game, decision_ms)
        wins += final.winner == game % 2
        draws += final.winner is None
    losses = games - wins - draws
    print(
        f"bann bot vs random: {games} games, wins={wins} draws={draws} losses={losses} "
        f"win rate={wins / games:.1%}"
    )
    print(report("bann bot decision", decision_ms, baseline))


if __name__ == "__main__":
    main()
