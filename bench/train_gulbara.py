"""Fit the Gul Bara hard player's learned evaluation from the outcomes of played games.

    python -m bench.train_gulbara [--rounds 3] [--games 1200] [--jobs 2] [--seed 1]
                                  [--out games/gulbara_weights.py]

Each round plays ``--games`` games, half of them the current player against the
stage-greedy baseline and half against itself, seats alternating. The current player
is the hand-tuned hard player in the first round and the learned player fitted so far
after that. At the start of every turn the position is recorded from the side of the
player who has just moved, labelled with whether that player went on to win. A
logistic regression (``games.gulbara.position_features`` to the chance of winning) is
then fitted by stochastic gradient descent on the positions of all rounds so far.

Everything is seeded, so the same arguments write the same weights.
"""

from __future__ import annotations

import argparse
import math
import pickle
import random
import time
from collections.abc import Callable
from multiprocessing import Pool
from pathlib import Path

from bench.baselines import gulbara_stage_greedy
from games import gulbara
from games.gulbara import GRACE_ROLLS, GulbaraState

Position = tuple[tuple[int, ...], tuple[int, ...], bool, bool]
Sample = tuple[Position, int]
Game = list[Sample]
Weights = tuple[float, ...]
Policy = Callable[[GulbaraState, int], str]

EPOCHS = 4
TD_ITERATIONS = 4
TD_EPOCHS = 2
LAMBDA = 0.5
LEARNING_RATE = 0.02
L2 = 1e-5
# one decision in this many takes a random play instead, so the data sees more positions
EXPLORE = 20


def policy(weights: Weights | None) -> Policy:
    if weights is None:

        def by_hand(state: GulbaraState, seed: int) -> str:
            source, die, _target = gulbara.hand_step(state, seed)
            return gulbara.step_notation(source, die)

        return by_hand

    def choose(state: GulbaraState, seed: int) -> str:
        source, die, _target = gulbara.learned_step(state, weights)
        return gulbara.step_notation(source, die)

    return choose


def turn_sample(state: GulbaraState) -> tuple[Position, int]:
    """A turn's start, seen by the player who moved last, and that seat."""
    mover = 1 - state.turn
    mine, theirs = gulbara.perspective(state.board, state.off, mover)
    escalations = (state.rolls[mover] + 1 > GRACE_ROLLS, state.rolls[state.turn] > GRACE_ROLLS)
    return (tuple(mine), tuple(theirs), *escalations), mover


def play_game(task: tuple[Weights | None, bool, int, int]) -> Game:
    weights, against_baseline, seed, seat = task
    measured = policy(weights)
    other = gulbara_stage_greedy if against_baseline else measured
    explore = random.Random(seed * 2 + seat)
    state = gulbara.new_game(seed=seed)
    recorded: list[tuple[Position, int]] = []
    moves = 0
    while not state.is_over:
        decision_seed = seed * 10_000 + moves
        if explore.randrange(EXPLORE) == 0 and not state.played:
            action = explore.choice(state.legal_steps())
        elif state.turn == seat:
            action = measured(state, decision_seed)
        else:
            action = other(state, decision_seed)
        state = state.apply(action)
        moves += 1
        if not state.is_over and not state.played:
            recorded.append(turn_sample(state))
    winner = state.winner
    return [(position, int(side == winner)) for position, side in recorded]


def play_round(weights: Weights | None, games: int, first_seed: int, jobs: int) -> list[Game]:
    tasks = [(weights, index % 4 < 2, first_seed + index // 2, index % 2) for index in range(games)]
    with Pool(jobs) as pool:
        return list(pool.imap(play_game, tasks, chunksize=4))


Sparse = list[tuple[int, float]]
Encoded = list[list[tuple[Sparse, int]]]


def encode(games: list[Game]) -> Encoded:
    """Each position's non-zero features, with its label, game by game."""
    encoded = []
    for game in games:
        positions = []
        for (mine, theirs, my_escalation, their_escalation), label in game:
            features = gulbara.position_features(
                list(mine), list(theirs), my_escalation, their_escalation
            )
            positions.append(([(i, value) for i, value in enumerate(features) if value], label))
        encoded.append(positions)
    return encoded


def chance(features: Sparse, weights: list[float]) -> float:
    score = sum(value * weights[index] for index, value in features)
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, score))))


def td_targets(game: list[tuple[Sparse, int]], weights: list[float]) -> list[float]:
    """λ-returns: each position's target mixes the model's value of the next recorded
    position (seen from the same player) with that position's own target, the last one
    being the result. Two neighbours with equal labels were seen by the same player."""
    targets = [0.0] * len(game)
    targets[-1] = float(game[-1][1])
    for index in range(len(game) - 2, -1, -1):
        same_side = game[index][1] == game[index + 1][1]
        following = chance(game[index + 1][0], weights)
        later = targets[index + 1]
        if not same_side:
            following, later = 1 - following, 1 - later
        targets[index] = (1 - LAMBDA) * following + LAMBDA * later
    return targets


def descend(
    samples: list[tuple[Sparse, float]], weights: list[float], epochs: int, seed: int
) -> None:
    """Logistic regression towards soft targets by stochastic gradient descent."""
    order = list(range(len(samples)))
    shuffle = random.Random(seed)
    step = 0
    for _epoch in range(epochs):
        shuffle.shuffle(order)
        for index in order:
            features, target = samples[index]
            step += 1
            rate = LEARNING_RATE / (1 + step / 200_000)
            error = target - chance(features, weights)
            for position, value in features:
                weights[position] += rate * (error * value - L2 * weights[position])


def fit(encoded: Encoded, size: int, seed: int) -> Weights:
    """Fit the results first, then refine with TD(λ) targets from the model itself."""
    weights = [0.0] * size
    results = [(features, float(label)) for game in encoded for features, label in game]
    descend(results, weights, EPOCHS, seed)
    for iteration in range(TD_ITERATIONS):
        targets = [
            (features, target)
            for game in encoded
            for (features, _label), target in zip(game, td_targets(game, weights), strict=True)
        ]
        descend(targets, weights, TD_EPOCHS, seed + 1 + iteration)
    return tuple(weights)


def log_loss(encoded: Encoded, weights: Weights) -> float:
    listed = list(weights)
    total = 0.0
    count = 0
    for game in encoded:
        for features, label in game:
            won = chance(features, listed)
            total -= math.log(max(1e-12, won if label else 1 - won))
            count += 1
    return total / count


def write_module(path: Path, weights: Weights, args: argparse.Namespace) -> None:
    command = (
        f"python -m bench.train_gulbara --rounds {args.rounds} --games {args.games} "
        f"--jobs {args.jobs} --seed {args.seed}"
    )
    lines = [
        '"""Weights of the Gul Bara hard player\'s learned evaluation (generated, do not edit).',
        "",
        "Regenerate with",
        "",
        f"    {command}",
        "",
        "One weight per entry of ``games.gulbara.position_features``, log-odds of a win.",
        '"""',
        "",
        "WEIGHTS = (",
        *(f"    {weight:.6f}," for weight in weights),
        ")",
        "",
    ]
    path.write_text("\n".join(lines))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=1200)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=Path("games/gulbara_weights.py"))
    args = parser.parse_args()
    samples: list[Game] = []
    weights: Weights | None = None
    for round_number in range(args.rounds):
        start = time.perf_counter()
        first_seed = 1_000_000 * args.seed + round_number * args.games
        fresh = play_round(weights, args.games, first_seed, args.jobs)
        samples += fresh
        encoded = encode(samples)
        size = len(gulbara.position_features([0] * 25, [0] * 25, False, False))
        weights = fit(encoded, size, args.seed + round_number)
        print(
            f"round {round_number + 1}: {sum(map(len, fresh))} new positions, "
            f"{sum(map(len, samples))} in all, "
            f"log loss {log_loss(encoded, weights):.4f}, {time.perf_counter() - start:.0f} s",
            flush=True,
        )
        if args.keep:
            with open(args.keep, "wb") as file:
                pickle.dump(samples, file)
        write_module(args.out.with_suffix(f".round{round_number + 1}"), weights, args)
    assert weights is not None
    write_module(args.out, weights, args)


if __name__ == "__main__":
    main()
