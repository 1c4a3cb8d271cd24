"""Gul Bara engine and computer player benchmark.

    python -m bench.bench_gulbara_ai [--games N] [--positions N]

Measures ``legal_actions()`` on positions from random games and on spread-out positions
playing a whole 1-1 escalation chain (24 steps), then plays the computer player against
a random player (seats alternating) and reports its wins, points and decision times.
Targets (issue 3): legal_actions ≤ 20 ms p99, ≥ 90% wins, ≤ 250 ms p95 per decision.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from bench.common import baseline_ms, report
from games import gulbara
from games.gulbara import GulbaraState


def fresh(state: GulbaraState, dice: tuple[int, ...] | None = None) -> GulbaraState:
    """The same position without cached legal steps, optionally with other dice."""
    data = state.to_dict()
    if dice is not None:
        data["dice"] = list(dice)
        data["stage_die"] = dice[0] if len(set(dice)) == 1 and len(dice) > 1 else None
    return gulbara.from_dict(data)


def random_game_positions(count: int, rng: random.Random) -> list[GulbaraState]:
    positions: list[GulbaraState] = []
    seed = 0
    while len(positions) < count:
        state = gulbara.new_game(seed=seed)
        seed += 1
        while not state.is_over and len(positions) < count:
            positions.append(state)
            state = state.apply(rng.choice(state.legal_steps()))
    return positions


def spread_position(rng: random.Random) -> GulbaraState:
    """Seat 0's checkers scattered one per point where possible, about to play 1-1 with
    the grace period over: the longest chain the rules allow."""
    points = list(range(1, 25))
    rng.shuffle(points)
    theirs = sorted(points[:5])
    mine = points[5:]
    board = [0] * 24
    for index in range(15):
        board[mine[index % len(mine)] - 1] += 1
    for index in range(15):
        board[theirs[index % len(theirs)] - 1] -= 1
    code = "GB1:" + ",".join(str(value) if value else "" for value in board) + "|0,0|0|1,1,1,1|9,9"
    return gulbara.from_code(code, seed=rng.randrange(1000))


def time_legal_actions(states: list[GulbaraState]) -> list[float]:
    samples = []
    for state in states:
        probe = fresh(state)
        start = time.perf_counter()
        probe.legal_actions()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def chain_states(count: int, rng: random.Random) -> list[GulbaraState]:
    """Every position along 1-1 chains played by the computer from spread positions."""
    states: list[GulbaraState] = []
    for _ in range(count):
        state = spread_position(rng)
        mover = state.turn
        while not state.is_over and state.turn == mover:
            states.append(state)
            state = state.apply(gulbara.bot_action(state, seed=1))
    return states


def play_match(bot_seat: int, seed: int, rng: random.Random, decisions: list[float]) -> Any:
    state = gulbara.new_game(seed=seed)
    while not state.is_over:
        if state.turn == bot_seat:
            start = time.perf_counter()
            action = gulbara.bot_action(state, seed=seed)
            decisions.append((time.perf_counter() - start) * 1000)
        else:
            action = rng.choice(state.legal_steps())
        state = state.apply(action)
    return state.returns()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--chains", type=int, default=30)
    args = parser.parse_args()
    rng = random.Random(2026)
    baseline = baseline_ms()

    positions = random_game_positions(args.positions, rng)
    doubles = [fresh(state, (1, 1, 1, 1)) for state in positions[:: max(1, len(positions) // 500)]]
    chains = chain_states(args.chains, rng)
    print(report("legal_actions, random-game positions", time_legal_actions(positions), baseline))
    print(report("legal_actions, same positions with 1-1", time_legal_actions(doubles), baseline))
    print(report("legal_actions, spread 1-1 chains", time_legal_actions(chains), baseline))

    chain_decisions = []
    for state in chains:
        start = time.perf_counter()
        gulbara.bot_action(state, seed=1)
        chain_decisions.append((time.perf_counter() - start) * 1000)
    print(report("bot decision, spread 1-1 chains", chain_decisions, baseline))

    decisions: list[float] = []
    wins = points_for = points_against = 0
    for game in range(args.games):
        bot_seat = game % 2
        scores = play_match(bot_seat, seed=game, rng=rng, decisions=decisions)
        wins += scores[bot_seat] > scores[1 - bot_seat]
        points_for += int(scores[bot_seat])
        points_against += int(scores[1 - bot_seat])
    print(
        f"computer vs random: {wins}/{args.games} wins ({100 * wins / args.games:.1f}%), "
        f"points {points_for}:{points_against}"
    )
    print(report("bot decision, games vs random", decisions, baseline))


if __name__ == "__main__":
    main()
