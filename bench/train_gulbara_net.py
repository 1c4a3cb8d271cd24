"""Train the Gul Bara hard player's network by TD(λ), TD-Gammon style.

    python -m bench.train_gulbara_net [--games 12000] [--hidden 60] [--seed 1]
                                      [--against-greedy N] [--rate 0.01]
                                      [--start weights.npz] [--out games/gulbara_net.npz]

The network plays both sides (self-play), or, every ``--against-greedy``-th game, one
side against the stage-greedy baseline of ``bench.baselines`` (then only its own
positions are learned from). It chooses at every stage the end position it rates best,
and a random one in ``EXPLORE`` of the stages. After each game every recorded position
(the board right after a stage, seen by the player who played it) moves towards its
λ-return: the network's own rating of the next recorded position (turned round when the
other player recorded it), the last one towards the result. The games are played by a
compact simulator of the rules built on ``games.gulbara``'s move generator (about 12
games a second on one core), so training needs no table or actions.

The shipped weights came from two runs (about 30 CPU minutes in all):

    python -m bench.train_gulbara_net --games 5000 --seed 1 --against-greedy 2 --out a.npz
    python -m bench.train_gulbara_net --games 5000 --seed 2 --against-greedy 1 --rate 0.02 \
        --start a.npz

Everything is seeded, so the same arguments write the same weights. One core; set
``OPENBLAS_NUM_THREADS=1``, or numpy's matrix products spin a second thread.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from bench.baselines import OFF_WEIGHT, PIP_WEIGHT, POINT_MADE_WEIGHT
from games.gulbara import (
    CHECKERS,
    GRACE_ROLLS,
    START_POINT,
    mover_against,
    network_inputs,
    play_ends,
)
from games.gulbara_net import WEIGHTS_FILE, Boards, Floats, Network, their_own

LAMBDA = 0.7
LEARNING_RATE = 0.01
# a stage is played at random this often, so the network also sees unlikely positions
EXPLORE = 0.02
REPORT_EVERY = 500


@dataclass
class Record:
    """The positions of one game, each seen by the player who had just moved."""

    inputs: list[Floats] = field(default_factory=list)
    sides: list[int] = field(default_factory=list)
    winner: int = -1
    points: int = 0


Chooser = Callable[[list[bytes], Boards, Floats], int]


def network_chooser(network: Network, explore: random.Random, rate: float) -> Chooser:
    """Pick the end the network rates best (a random one with probability ``rate``)."""

    def choose(ends: list[bytes], boards: Boards, inputs: Floats) -> int:
        if rate and explore.random() < rate:
            return explore.randrange(len(ends))
        chances = network.win_chances(inputs)
        chances[boards[:, 0] == CHECKERS] = 1.0
        return int(np.argmax(chances))

    return choose


def stage_greedy(ends: list[bytes], boards: Boards, inputs: Floats) -> int:
    """``bench.baselines``' stage-greedy player: best pips, points made, checkers off."""
    made = (boards[:, 1:] > 0).sum(axis=1)
    pips = boards[:, 1:].astype(np.int64) @ np.arange(1, 25)
    value = -PIP_WEIGHT * pips + POINT_MADE_WEIGHT * made + OFF_WEIGHT * boards[:, 0]
    return min(range(len(ends)), key=lambda index: (-value[index], ends[index]))


def play_stage(
    choose: Chooser,
    mine: list[int],
    theirs: list[int],
    dice: tuple[int, ...],
    chain: tuple[int | None, tuple[bool, bool]],
) -> tuple[list[int], Floats, bool] | None:
    """The mover's chosen end for ``dice`` with its network inputs and whether every die
    was played, or None when no checker can move."""
    mover = mover_against(theirs)
    firsts = mover.first_steps(mine, dice)
    if not firsts:
        return None
    ends = list(play_ends(mover, mine, dice, firsts))
    full = mover.longest(mine, dice, {}) == len(dice)
    next_die, escalates = chain
    boards: Boards = np.frombuffer(b"".join(ends), dtype=np.uint8).reshape(len(ends), -1)
    inputs = network_inputs(mover, ends, theirs, next_die if full else None, escalates)
    best = choose(ends, boards, inputs)
    return list(ends[best]), inputs[best], full


def opening(dice: random.Random) -> tuple[int, tuple[int, ...]]:
    while True:
        first, second = dice.randint(1, 6), dice.randint(1, 6)
        if first != second:
            return (0 if first > second else 1), (max(first, second), min(first, second))


def play_game(players: tuple[Chooser, Chooser], seed: int, learners: set[int]) -> Record:
    """One game, ``players[0]`` being seat 0; the seed decides the dice. Positions are
    recorded for the seats in ``learners`` only."""
    dice_source = random.Random(seed)
    record = Record()
    side, dice = opening(dice_source)
    rolls = [0, 0]
    rolls[side] = 1
    boards = {0: [0] * (START_POINT + 1), 1: [0] * (START_POINT + 1)}
    boards[0][START_POINT] = boards[1][START_POINT] = CHECKERS
    while record.winner < 0:
        recorded = record if side in learners else None
        if play_turn(players[side], boards, side, dice, rolls, recorded):
            record.winner = side
            record.points = 2 if boards[1 - side][0] == 0 else 1
            break
        side = 1 - side
        rolls[side] += 1
        first, second = dice_source.randint(1, 6), dice_source.randint(1, 6)
        dice = (first,) * 4 if first == second else (max(first, second), min(first, second))
    return record


def play_turn(
    choose: Chooser,
    boards: dict[int, list[int]],
    side: int,
    dice: tuple[int, ...],
    rolls: list[int],
    record: Record | None,
) -> bool:
    """Play ``side``'s roll (and its escalation chain) in place; True if it won."""
    chains = rolls[side] > GRACE_ROLLS and len(dice) == 4
    escalates = (rolls[side] + 1 > GRACE_ROLLS, rolls[1 - side] + 1 > GRACE_ROLLS)
    mine = boards[side]
    while True:
        theirs = their_own(boards[1 - side])
        next_die = dice[0] + 1 if chains and dice[0] < 6 else None
        played = play_stage(choose, mine, theirs, dice, (next_die, escalates))
        if played is None:
            return False
        mine, inputs, full = played
        boards[side] = mine
        if record is not None:
            record.inputs.append(inputs)
            record.sides.append(side)
        if mine[0] == CHECKERS:
            return True
        if next_die is None or not full:
            return False
        dice = (next_die,) * 4


def lambda_returns(chances: Floats, sides: list[int], winner: int) -> Floats:
    """Each position's target, seen by its own mover (see the module docstring)."""
    targets = np.empty_like(chances)
    targets[-1] = float(sides[-1] == winner)
    for index in range(len(sides) - 2, -1, -1):
        following, later = chances[index + 1], targets[index + 1]
        if sides[index] != sides[index + 1]:
            following, later = 1 - following, 1 - later
        targets[index] = (1 - LAMBDA) * following + LAMBDA * later
    return targets


def learn(network: Network, record: Record, rate: float) -> float:
    """One gradient step of the cross-entropy towards the λ-returns; the mean error."""
    inputs = np.stack(record.inputs)
    hidden = network.hidden(inputs)
    chances = network.output(hidden)
    targets = lambda_returns(chances, record.sides, record.winner)
    error = chances - targets
    hidden_error = np.outer(error, network.out_weights) * hidden * (1 - hidden)
    network.out_weights -= rate * (hidden.T @ error)
    network.out_bias -= rate * error.sum(keepdims=True)
    network.hidden_weights -= rate * (inputs.T @ hidden_error)
    network.hidden_bias -= rate * hidden_error.sum(axis=0)
    return float(np.abs(error).mean())


def input_count() -> int:
    """The width of the network's input, read off the encoding of the starting position."""
    mine, theirs = [0] * (START_POINT + 1), [0] * (START_POINT + 1)
    mine[START_POINT] = CHECKERS
    theirs[their_own(mine).index(CHECKERS)] = CHECKERS
    ends = [bytes(mine)]
    return network_inputs(mover_against(theirs), ends, theirs, None, (False, False)).shape[1]


def train(args: argparse.Namespace) -> Network:
    """Self-play, with every ``--against-greedy``-th game against stage-greedy instead
    (only the network's own positions are learned from those)."""
    network = (
        Network.load(args.start)
        if args.start
        else Network.fresh(input_count(), args.hidden, args.seed)
    )
    start = time.perf_counter()
    errors: list[float] = []
    for game in range(args.games):
        seed = args.seed * 1_000_000 + game
        player = network_chooser(network, random.Random(f"explore {seed}"), EXPLORE)
        if args.against_greedy and game % args.against_greedy == 0:
            seat = (game // args.against_greedy) % 2
            players = (player, stage_greedy) if seat == 0 else (stage_greedy, player)
            record = play_game(players, seed, {seat})
        else:
            record = play_game((player, player), seed, {0, 1})
        if record.sides:
            errors.append(learn(network, record, args.rate))
        if (game + 1) % REPORT_EVERY == 0:
            print(
                f"{game + 1} games, mean TD error {np.mean(errors):.4f}, "
                f"{time.perf_counter() - start:.0f} s",
                flush=True,
            )
            errors = []
            # an interrupted run leaves the weights so far
            network.save(args.out)
    return network


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12_000)
    parser.add_argument("--hidden", type=int, default=60)
    parser.add_argument("--rate", type=float, default=LEARNING_RATE)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--against-greedy", type=int, default=0)
    parser.add_argument("--start", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=WEIGHTS_FILE)
    args = parser.parse_args()
    train(args).save(args.out)


if __name__ == "__main__":
    main()
