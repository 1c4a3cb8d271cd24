"""Barree's board: the 48 fields, the lines joining them, and how far a piece can walk.

A field is ``10 * row + column`` (rows 1–8, columns 1–6); a card names a field. The
blockaded row cannot be entered or crossed; ``distances`` and ``walk_outcomes`` respect it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from functools import cache

ROWS = 8
COLUMNS = 6
FIELDS: tuple[int, ...] = tuple(10 * row + column for row in range(1, 9) for column in range(1, 7))
DIAGONALS: tuple[tuple[int, int], ...] = ((21, 32), (45, 34), (56, 65), (76, 85))


def row_of(field: int) -> int:
    return field // 10


def _grid_lines() -> list[tuple[int, int]]:
    lines = []
    for field in FIELDS:
        if field % 10 < COLUMNS:
            lines.append((field, field + 1))
        if row_of(field) < ROWS:
            lines.append((field, field + 10))
    return lines


LINES: tuple[tuple[int, int], ...] = (*_grid_lines(), *DIAGONALS)


def _neighbours() -> dict[int, tuple[int, ...]]:
    linked: dict[int, set[int]] = {field: set() for field in FIELDS}
    for a, b in LINES:
        linked[a].add(b)
        linked[b].add(a)
    # Sorted so that walks are explored in lexicographic order (canonical walks).
    return {field: tuple(sorted(others)) for field, others in linked.items()}


NEIGHBOURS: dict[int, tuple[int, ...]] = _neighbours()


@cache
def distances(start: int, blockade: int) -> dict[int, int]:
    """Steps from ``start`` to every field reachable without touching the blockaded row."""
    if row_of(start) == blockade:
        return {start: 0}
    found = {start: 0}
    queue = deque([start])
    while queue:
        field = queue.popleft()
        for other in NEIGHBOURS[field]:
            if other not in found and row_of(other) != blockade:
                found[other] = found[field] + 1
                queue.append(other)
    return found


def walk_outcomes(
    start: int, steps: int, blockade: int, cards: Iterable[int]
) -> dict[tuple[int, frozenset[int]], tuple[int, ...]]:
    """Every distinct (end field, cards discarded) of a walk, with its canonical walk.

    The canonical walk is the lexicographically smallest one; keeping the smallest path
    per state at every step yields it, because all walks of a step have equal length.
    """
    if row_of(start) == blockade:
        return {}
    targets = frozenset(cards)
    layer: dict[tuple[int, frozenset[int]], tuple[int, ...]] = {(start, frozenset()): (start,)}
    for _ in range(steps):
        following: dict[tuple[int, frozenset[int]], tuple[int, ...]] = {}
        for (field, discarded), path in layer.items():
            for other in NEIGHBOURS[field]:
                if row_of(other) == blockade:
                    continue
                key = (other, (discarded | {other}) if other in targets else discarded)
                candidate = (*path, other)
                known = following.get(key)
                if known is None or candidate < known:
                    following[key] = candidate
        layer = following
    return layer
