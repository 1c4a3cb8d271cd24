"""Gul Bara's board and pure rules: the points of each seat's path, the step notation,
and ``Mover``, which finds the legal steps of a roll (head rule, primes, bearing off, the
higher-die rule).

Each seat numbers the points 24→1 along its own path; seat 1's point ``p`` is seat 0's
point ``(p + 11) % 24 + 1``. The board is stored in seat 0's numbering, signed (+ for
seat 0, − for seat 1), exactly like the ``GB1`` position code.
"""

from __future__ import annotations

import itertools
from typing import Any

from games.base import whole_number

CHECKERS = 15
POINTS = 24
START_POINT = 24
HOME_TOP = 6
# a checker on this point or lower has reached the opponent's start quarter (head rule)
QUARTER_TOP = 12
HEAD_RULES = {"reach": QUARTER_TOP, "pass": QUARTER_TOP - 1}
"""The head rule's readings (a table option), each with the highest point on which the
first checker frees the other fourteen: ``reach`` the opponent's starting quarter, or
``pass`` its corner (the opponent's 24, your 12)."""
DEFAULT_HEAD_RULE = "reach"


# My points in the order the opponent passes them last-to-first: index 0 is the
# opponent's point 1. A window of six consecutive indices is a possible prime, and an
# opponent checker at a lower index than the window is already past it.
OPPONENT_PATH = tuple((point + 11) % POINTS + 1 for point in range(1, POINTS + 1))
_PATH_INDEX = {point: index for index, point in enumerate(OPPONENT_PATH)}
_PRIME = 6


def to_seat0(point: int, seat: int) -> int:
    """Seat 0's number for ``seat``'s point (the mapping is its own inverse)."""
    return point if seat == 0 else (point + 11) % POINTS + 1


def step_notation(source: int, die: int) -> str:
    target = source - die
    return f"{source}/{target if target > 0 else 'off'}"


def split_steps(text: str) -> list[str]:
    """The single steps of a typed move: ``24/18 18/13``, ``24/18/13`` (one checker
    through 18) and ``24/20(2)`` (two checkers) all work; commas count as spaces.
    Malformed parts are returned as they are, for ``apply`` to refuse with a reason."""
    steps: list[str] = []
    for part in text.replace(",", " ").lower().split():
        path, count = part, 1
        if part.endswith(")") and "(" in part:
            head, _, repeat = part[:-1].partition("(")
            repeats = whole_number(repeat, max_digits=1)
            if repeats is not None and 0 < repeats <= 4:
                path, count = head, repeats
        hops = [f"{a}/{b}" for a, b in itertools.pairwise(path.split("/"))] or [path]
        steps.extend(hops * count)
    return steps


def die_choices(dice: tuple[int, ...]) -> list[tuple[int, tuple[int, ...]]]:
    """Each distinct die with the dice left after playing it, higher die first."""
    choices = []
    for die in sorted(set(dice), reverse=True):
        rest = list(dice)
        rest.remove(die)
        choices.append((die, tuple(rest)))
    return choices


class Mover:
    """Step generation for the seat to move; the opponent cannot change during a turn.

    ``mine`` is indexed by the mover's point (index 0 counts borne-off checkers) and is
    changed in place and restored by the searches. ``freed_at`` is the head rule: the
    highest point on which the first checker frees the others (``HEAD_RULES``).
    """

    __slots__ = ("blocked", "first_past", "freed_at")

    def __init__(self, blocked: list[bool], opponent_off: int, freed_at: int = QUARTER_TOP) -> None:
        self.blocked = blocked
        self.freed_at = freed_at
        held = [index for index, point in enumerate(OPPONENT_PATH) if blocked[point]]
        # a prime whose window starts after this index has an opponent checker past it
        self.first_past = -1 if opponent_off or not held else min(held)

    def sources(self, mine: list[int]) -> list[int]:
        """Points a checker may leave, highest first, honouring the head rule."""
        if sum(mine[self.freed_at + 1 :]) == CHECKERS:
            runners = [p for p in range(START_POINT - 1, self.freed_at, -1) if mine[p]]
            return runners or ([START_POINT] if mine[START_POINT] else [])
        return [p for p in range(POINTS, 0, -1) if mine[p]]

    def target(self, mine: list[int], source: int, die: int) -> int:
        """Where a checker from ``source`` lands with ``die`` (0 = off), or -1 if illegal."""
        target = source - die
        if target > 0:
            if self.blocked[target] or self._makes_prime(mine, source, target):
                return -1
            return target
        if any(mine[HOME_TOP + 1 :]):
            return -1
        if target < 0 and any(mine[source + 1 : HOME_TOP + 1]):
            return -1
        return 0

    def _makes_prime(self, mine: list[int], source: int, target: int) -> bool:
        index = _PATH_INDEX[target]
        last_start = min(index, len(OPPONENT_PATH) - _PRIME, self.first_past - _PRIME)
        if last_start < max(0, index - _PRIME + 1):
            return False
        mine[source] -= 1
        mine[target] += 1
        try:
            return any(
                all(mine[OPPONENT_PATH[k]] for k in range(start, start + _PRIME))
                for start in range(max(0, index - _PRIME + 1), last_start + 1)
            )
        finally:
            mine[source] += 1
            mine[target] -= 1

    def longest(self, mine: list[int], dice: tuple[int, ...], memo: dict[Any, int]) -> int:
        """How many of ``dice`` can be played from here (stops early at all of them)."""
        if not dice:
            return 0
        key = (bytes(mine), dice)
        known = memo.get(key)
        if known is not None:
            return known
        best = 0
        for die, rest in die_choices(dice):
            for source in self.sources(mine):
                target = self.target(mine, source, die)
                if target < 0:
                    continue
                mine[source] -= 1
                mine[target] += 1
                length = 1 + self.longest(mine, rest, memo)
                mine[source] += 1
                mine[target] -= 1
                if length > best:
                    best = length
                    if best == len(dice):
                        memo[key] = best
                        return best
        memo[key] = best
        return best

    def first_steps(self, mine: list[int], dice: tuple[int, ...]) -> list[tuple[int, int, int]]:
        """The steps that begin a play of maximal length (with the higher-die rule)."""
        memo: dict[Any, int] = {}
        scored = []
        for die, rest in die_choices(dice):
            for source in self.sources(mine):
                target = self.target(mine, source, die)
                if target < 0:
                    continue
                mine[source] -= 1
                mine[target] += 1
                scored.append((1 + self.longest(mine, rest, memo), (source, die, target)))
                mine[source] += 1
                mine[target] -= 1
        if not scored:
            return []
        best = max(length for length, _step in scored)
        chosen = [step for length, step in scored if length == best]
        if best == 1 and len(dice) == 2 and dice[0] != dice[1]:
            higher = [step for step in chosen if step[1] == max(dice)]
            return higher or chosen
        return chosen


def perspective(board: list[int], off: list[int], seat: int) -> tuple[list[int], list[int]]:
    """``seat``'s and the opponent's checkers per point of ``seat``'s numbering.

    Index 0 of each list holds that side's borne-off checkers.
    """
    sign = 1 if seat == 0 else -1
    mine = [off[seat]] + [0] * POINTS
    theirs = [off[1 - seat]] + [0] * POINTS
    for point in range(1, POINTS + 1):
        value = board[to_seat0(point, seat) - 1] * sign
        if value > 0:
            mine[point] = value
        elif value < 0:
            theirs[point] = -value
    return mine, theirs


def pip_count(board: list[int], seat: int) -> int:
    sign = 1 if seat == 0 else -1
    return sum(
        point * max(0, board[to_seat0(point, seat) - 1] * sign) for point in range(1, POINTS + 1)
    )
