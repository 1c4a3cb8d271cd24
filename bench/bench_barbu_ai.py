"""Barbu computer player in one seat against three random players.

Targets (issue 4): a better average deal score than the random players in every contract
over at least 200 deals, at most 250 ms p95 per decision.

    python -m bench.bench_barbu_ai [--games N] [--series S]

Each game is S declarer series of seven deals (default 4, so the default 8 games give
224 deals); the computer's seat rotates from game to game.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections import defaultdict

from bench.common import baseline_ms, report, time_ms
from games.barbu import CONTRACT_TITLES, CONTRACTS, SPEC, BarbuState

DealScores = dict[str, list[float]]


def timed_decision(state: BarbuState, seed: int) -> tuple[str, float]:
    chosen: list[str] = []
    elapsed = time_ms(lambda: chosen.append(SPEC.bot_action(state, seed=seed)))
    return chosen[0], elapsed


def play(
    seed: int,
    computer_seat: int,
    series: int,
    decisions_ms: list[float],
    computer: DealScores,
    randoms: DealScores,
) -> list[float]:
    """One game; records each deal score per contract and returns the final totals."""
    state: BarbuState = SPEC.new_game(players=4, seed=seed, series=series)
    chooser = random.Random(seed)
    while not state.is_over:
        legal = state.legal_actions()
        if state.current_player == computer_seat:
            action, elapsed = timed_decision(state, seed)
            # A forced move is not a decision; timing it would flatter the median.
            if len(legal) > 1:
                decisions_ms.append(elapsed)
        else:
            action = chooser.choice(legal)
        deals_before = len(state.history)
        state = state.apply(action)
        if len(state.history) > deals_before:
            deal = state.history[-1]
            contract = deal["contract"].partition(":")[0]
            scores = deal["scores"]
            computer[contract].append(scores[computer_seat])
            others = [score for seat, score in enumerate(scores) if seat != computer_seat]
            randoms[contract].extend(others)
    return state.returns()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--series", type=int, default=4, choices=range(1, 5))
    arguments = parser.parse_args()

    baseline = baseline_ms()
    decisions_ms: list[float] = []
    computer: DealScores = defaultdict(list)
    randoms: DealScores = defaultdict(list)
    wins = 0
    for game in range(arguments.games):
        computer_seat = game % 4
        returns = play(
            2000 + game, computer_seat, arguments.series, decisions_ms, computer, randoms
        )
        wins += returns[computer_seat] == max(returns)

    deals = sum(len(scores) for scores in computer.values())
    print(
        f"barbu computer vs 3 random players: {arguments.games} games, {deals} deals, "
        f"computer top score in {wins} games ({100 * wins / arguments.games:.0f} %)"
    )
    print(f"{'contract':<12} {'deals':>5} {'computer':>9} {'random':>8}  better")
    better_everywhere = True
    for contract in CONTRACTS:
        mine, theirs = computer[contract], randoms[contract]
        if not mine:
            continue
        better = statistics.mean(mine) > statistics.mean(theirs)
        better_everywhere &= better
        print(
            f"{CONTRACT_TITLES[contract]:<12} {len(mine):>5} {statistics.mean(mine):>9.2f} "
            f"{statistics.mean(theirs):>8.2f}  {'yes' if better else 'NO'}"
        )
    print(f"better than random in every contract: {'yes' if better_everywhere else 'NO'}")
    print(report("barbu bot_action (decisions with a choice)", decisions_ms, baseline))


if __name__ == "__main__":
    main()
