"""Barree computer player against a random player in 2-player games.

Targets (issue 5): at least 80 % wins over 200 games, at most 250 ms p95 per decision.

    python -m bench.bench_barree_ai [--games N] [--rounds R]
"""

from __future__ import annotations

import argparse
import random
import statistics

from bench.common import baseline_ms, report, time_ms
from games.barree import PHASE_ROLL, SPEC, BarreeState


def timed_decision(state: BarreeState, seed: int) -> tuple[str, float]:
    chosen: list[str] = []
    elapsed = time_ms(lambda: chosen.append(SPEC.bot_action(state, seed=seed)))
    return chosen[0], elapsed


def play(seed: int, computer_seat: int, rounds: int, decisions_ms: list[float]) -> list[float]:
    """One match; returns the per-seat returns (minus their minus points)."""
    state: BarreeState = SPEC.new_game(players=2, seed=seed, rounds=rounds)
    chooser = random.Random(seed)
    while not state.is_over:
        if state.current_player == computer_seat:
            action, elapsed = timed_decision(state, seed)
            # A roll is not a decision; timing it would flatter the median.
            if state.phase != PHASE_ROLL:
                decisions_ms.append(elapsed)
        else:
            action = chooser.choice(state.legal_actions())
        state = state.apply(action)
    return state.returns()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=1)
    arguments = parser.parse_args()

    baseline = baseline_ms()
    decisions_ms: list[float] = []
    wins = ties = 0
    computer_minus: list[float] = []
    random_minus: list[float] = []
    for game in range(arguments.games):
        computer_seat = game % 2
        returns = play(1000 + game, computer_seat, arguments.rounds, decisions_ms)
        mine, theirs = returns[computer_seat], returns[1 - computer_seat]
        wins += mine > theirs
        ties += mine == theirs
        computer_minus.append(-mine)
        random_minus.append(-theirs)

    games = arguments.games
    print(
        f"barree computer vs random, 2 players, {games} games of {arguments.rounds} round(s): "
        f"wins {wins} ({100 * wins / games:.1f} %), ties {ties}, losses {games - wins - ties}"
    )
    print(
        f"mean minus points: computer {statistics.mean(computer_minus):.2f}, "
        f"random {statistics.mean(random_minus):.2f}"
    )
    print(report("barree bot_action (walks and sendings)", decisions_ms, baseline))


if __name__ == "__main__":
    main()
