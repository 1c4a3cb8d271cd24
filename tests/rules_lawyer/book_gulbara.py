"""Gul Bara written again from the rule book, slowly and literally, to check the engine.

A ``Side`` is one player's view: ``mine[p]`` and ``theirs[p]`` count checkers on point
``p`` (1..24) of *his* numbering, ``off`` his borne-off checkers and ``their_off`` the
opponent's. Nothing here is shared with ``games.gulbara``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

CHECKERS = 15
HEAD_RULES = {"reach": 12, "pass": 11}
"""The head rule's two readings (a table option), each with the highest of my points on
which my first checker frees the other fourteen: once it has reached my 12..7, or once it
has passed my 12 (the opponent's starting corner) and stands on my 11 or lower."""


def opposite(point: int) -> int:
    """The other player's number for the same point (the mapping is its own inverse)."""
    return (point + 11) % 24 + 1


@dataclass(frozen=True)
class Side:
    mine: tuple[int, ...]  # index 0 unused, 1..24
    theirs: tuple[int, ...]
    off: int
    their_off: int
    freed_at: int = HEAD_RULES["reach"]


def side_of(board: list[int], off: list[int], seat: int, head_rule: str = "reach") -> Side:
    """``board`` in seat 0's numbering (+ seat 0, − seat 1), seen by ``seat`` at a table
    with ``head_rule``."""
    sign = 1 if seat == 0 else -1
    mine, theirs = [0] * 25, [0] * 25
    for point in range(1, 25):
        seat0_point = point if seat == 0 else opposite(point)
        value = board[seat0_point - 1] * sign
        mine[point] = max(value, 0)
        theirs[point] = max(-value, 0)
    return Side(tuple(mine), tuple(theirs), off[seat], off[1 - seat], HEAD_RULES[head_rule])


def board_of(side: Side, seat: int) -> tuple[list[int], list[int]]:
    """Back to seat 0's numbering: (board, off)."""
    board = [0] * 24
    for point in range(1, 25):
        seat0_point = point if seat == 0 else opposite(point)
        sign = 1 if seat == 0 else -1
        board[seat0_point - 1] = sign * side.mine[point] - sign * side.theirs[point]
    off = [side.off, side.their_off] if seat == 0 else [side.their_off, side.off]
    return board, off


def head_rule_allows(side: Side, source: int) -> bool:
    """Until a checker stands on the point that frees the others (or beyond), only the
    first runner may move."""
    if side.off or any(side.mine[p] for p in range(1, side.freed_at + 1)):
        return True
    runners = [p for p in range(side.freed_at + 1, 24) if side.mine[p]]
    if runners:
        return source in runners
    return source == 24


def makes_forbidden_prime(mine: tuple[int, ...], side: Side) -> bool:
    """Six consecutive points of the opponent's path held by me, with no opponent
    checker already beyond them (borne-off checkers are beyond everything)."""
    held = [False] + [mine[opposite(q)] > 0 for q in range(1, 25)]  # by his numbering
    theirs_at = [0] + [side.theirs[opposite(q)] for q in range(1, 25)]
    for low in range(1, 20):
        if all(held[q] for q in range(low, low + 6)):
            past = side.their_off > 0 or any(theirs_at[q] for q in range(1, low))
            if not past:
                return True
    return False


def steps_for_die(side: Side, die: int) -> list[tuple[int, int]]:
    """Every legal single step (source, target) with ``die``; target 0 means off."""
    result = []
    all_home = all(side.mine[p] == 0 for p in range(7, 25))
    highest = max((p for p in range(1, 25) if side.mine[p]), default=0)
    for source in range(1, 25):
        if not side.mine[source] or not head_rule_allows(side, source):
            continue
        target = source - die
        if target >= 1:
            if side.theirs[target]:
                continue
        elif not all_home or (target < 0 and source != highest):
            continue
        target = max(target, 0)
        after = list(side.mine)
        after[source] -= 1
        if target:
            after[target] += 1
        if target and makes_forbidden_prime(tuple(after), side):
            continue
        result.append((source, target))
    return result


def moved(side: Side, source: int, target: int) -> Side:
    mine = list(side.mine)
    mine[source] -= 1
    off = side.off
    if target:
        mine[target] += 1
    else:
        off += 1
    return Side(tuple(mine), side.theirs, off, side.their_off, side.freed_at)


@lru_cache(maxsize=200_000)
def most_dice(side: Side, dice: tuple[int, ...]) -> int:
    """How many of ``dice`` can be played one after another from ``side``."""
    if side.off == CHECKERS:
        return 0
    best = 0
    for die in set(dice):
        rest = list(dice)
        rest.remove(die)
        for source, target in steps_for_die(side, die):
            best = max(best, 1 + most_dice(moved(side, source, target), tuple(rest)))
            if best == len(dice):
                return best
    return best


def notation(source: int, target: int) -> str:
    return f"{source}/{target if target else 'off'}"


def legal_first_steps(side: Side, dice: tuple[int, ...]) -> dict[str, set[int]]:
    """Notation -> the dice it may use, for steps that start a play using the most dice
    (and the higher die when only one of two different dice can be played)."""
    most = most_dice(side, dice)
    if most == 0:
        return {}
    choices: dict[str, set[int]] = {}
    for die in set(dice):
        rest = list(dice)
        rest.remove(die)
        for source, target in steps_for_die(side, die):
            if 1 + most_dice(moved(side, source, target), tuple(rest)) == most:
                choices.setdefault(notation(source, target), set()).add(die)
    if most == 1 and len(set(dice)) == 2:
        higher = max(dice)
        if any(higher in dice_used for dice_used in choices.values()):
            choices = {n: {higher} for n, used in choices.items() if higher in used}
    return choices


def parse_step(text: str) -> tuple[int, int]:
    source, target = text.split("/")
    return int(source), 0 if target == "off" else int(target)


def dice_of_roll(first: int, second: int) -> tuple[int, ...]:
    return (first,) * 4 if first == second else (max(first, second), min(first, second))


def game_points(loser_off: int) -> int:
    return 2 if loser_off == 0 else 1
