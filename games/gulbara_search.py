"""Gul Bara's hard computer player: short rollouts of the best few stage plays.

The static evaluation (``gulbara.evaluate`` with the mobility refinement) picks the most
promising end positions of the stage being played. Each is then played on for a few
turns of both sides with random dice, escalation chains included, by a quick policy
that plays one die at a time, and the evaluation of where the rollout stops is
averaged. Every candidate meets the same dice (common random numbers), so the
comparison measures the plays, not the luck.

Budgets are counted in rollouts and turns, never in time, and the dice come from a
source seeded by the position at the start of the stage, so all steps of one stage
follow the same plan and a position always gets the same decision.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Sequence
from functools import lru_cache

from games.gulbara import (
    CHECKERS,
    GRACE_ROLLS,
    HOME_TOP,
    POINTS,
    GulbaraState,
    _Mover,
    evaluate,
)

# Candidates (best first by the static judgement) that are rolled out, rollouts each,
# and half-turns (one side's roll) played in each rollout before it is judged.
CANDIDATES = 10
ROLLOUTS = 32
HALF_TURNS = 4
# A finished game in a rollout, in the evaluation's units (pips): a gammon counts double.
FINISHED = 120.0

_OPPONENT_POINT = tuple([0] + [(point + 11) % POINTS + 1 for point in range(1, POINTS + 1)])


def _in_their_numbering(own: Sequence[int]) -> list[int]:
    """A side's checkers (own numbering) on the points of the other side's numbering."""
    moved = [own[0]] + [0] * POINTS
    for point in range(1, POINTS + 1):
        moved[_OPPONENT_POINT[point]] = own[point]
    return moved


def _quick_step(mover: _Mover, board: list[int], die: int) -> bool:
    """Play one ``die`` by a quick rule: bear off if possible, else make or keep points
    and move the checker farthest back; False if no checker can play it."""
    best_score = -1.0
    best: tuple[int, int] | None = None
    for source in mover.sources(board):
        target = mover.target(board, source, die)
        if target < 0:
            continue
        if target == 0:
            score = 100.0 + source
        else:
            score = source * 0.1
            if board[target] == 0:
                score += 2.0
            if board[source] == 1:
                score -= 1.5 if source <= HOME_TOP else 1.0
        if score > best_score:
            best_score, best = score, (source, target)
    if best is None:
        return False
    source, target = best
    board[source] -= 1
    board[target] += 1
    return True


def _play_roll(boards: list[list[int]], side: int, first: int, second: int, rolls: int) -> None:
    """One side's roll with the quick policy, an escalating double's chain included."""
    mine, theirs = boards[side], boards[1 - side]
    blocked = [False] + [theirs[_OPPONENT_POINT[point]] > 0 for point in range(1, POINTS + 1)]
    mover = _Mover(blocked, theirs[0])
    if first != second:
        _quick_step(mover, mine, max(first, second))
        if mine[0] < CHECKERS:
            _quick_step(mover, mine, min(first, second))
        return
    die = first
    while True:
        for _ in range(4):
            if mine[0] == CHECKERS or not _quick_step(mover, mine, die):
                return
        if die == 6 or rolls <= GRACE_ROLLS:
            return
        die += 1


def _judge(boards: list[list[int]], side: int) -> float:
    """The evaluation for ``side``; a finished game counts ``FINISHED`` (double for a gammon)."""
    mine, theirs = boards[side], boards[1 - side]
    for winner, sign in ((mine, 1.0), (theirs, -1.0)):
        if winner[0] == CHECKERS:
            loser = theirs if winner is mine else mine
            return sign * FINISHED * (2 if loser[0] == 0 else 1)
    return evaluate(mine, _in_their_numbering(theirs))


def _rollout(
    mine: list[int], their_own: list[int], side: int, rolls: tuple[int, int], dice: list[int]
) -> float:
    """Play ``HALF_TURNS`` rolls from the opponent's on (changing both boards), then
    judge for the mover."""
    boards = [mine, their_own] if side == 0 else [their_own, mine]
    counts = list(rolls)
    turn = 1 - side
    for half in range(HALF_TURNS):
        if boards[0][0] == CHECKERS or boards[1][0] == CHECKERS:
            break
        counts[turn] += 1
        _play_roll(boards, turn, dice[2 * half], dice[2 * half + 1], counts[turn])
        turn = 1 - turn
    return _judge(boards, side)


def _stage_key(state: GulbaraState) -> int:
    """A number for the position at the start of this turn, which seeds the rollout dice."""
    start = state.start
    key = bytes(
        [state.turn, *(value % 256 for value in start["board"]), *start["off"], *start["dice"]]
    )
    return zlib.crc32(key)


@lru_cache(maxsize=4096)
def _rollout_value(
    dice_key: int, end: bytes, their_own: tuple[int, ...], side: int, rolls: tuple[int, int]
) -> float:
    """The mean rollout judgement of one end position (cached: every step of a stage asks
    again for the same candidates, and the answer depends on these arguments alone)."""
    source = random.Random(dice_key)
    total = 0.0
    for _ in range(ROLLOUTS):
        dice = [source.randint(1, 6) for _ in range(2 * HALF_TURNS)]
        total += _rollout(list(end), list(their_own), side, rolls, dice)
    return total / ROLLOUTS


def rollout_values(state: GulbaraState, ends: Sequence[bytes], their_own: list[int]) -> list[float]:
    """The mean rollout judgement of each end position (mover's numbering, index 0 off)
    for the seat to move, all against the same dice."""
    dice_key = _stage_key(state)
    rolls = (state.rolls[0], state.rolls[1])
    return [_rollout_value(dice_key, end, tuple(their_own), state.turn, rolls) for end in ends]
