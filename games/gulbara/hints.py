"""Why a Gul Bara play is good, in facts (``texts.gulbara.hint`` puts them into words).

A hint shows the normal computer's play of the dice of the current stage: the steps
``bot_action`` takes one after another, each with the seed the computer would get for it,
until the stage's dice are used or the turn ends. It never looks past the stage: the
next roll is still unknown to the player and must stay so. The reasons are the play's
plain effects: checkers borne off, the last checkers home, the head rule lifted, points
taken and the opponent's dice that no longer play, and where an escalation chain goes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from games.base import DEFAULT_LEVEL
from games.gulbara.board import (
    CHECKERS,
    HOME_TOP,
    POINTS,
    QUARTER_TOP,
    Mover,
    perspective,
    to_seat0,
)
from games.gulbara.computer import bot_action
from games.gulbara.state import GulbaraState

FACES = range(1, 7)


@dataclass(frozen=True)
class GulbaraHint:
    """The normal computer's play of the stage for the seat to act and its effects."""

    seat: int
    steps: tuple[str, ...]
    """The steps in the mover's numbering (``24/18``, ``3/off``)."""
    borne_off: int = 0
    wins: bool = False
    """The play bears off the last checker."""
    all_home: bool = False
    """The play brings the last checkers home: bearing off may begin."""
    head_freed: bool = False
    """The runner reaches the opponent's start quarter: every checker may move now."""
    new_points: tuple[int, ...] = ()
    """Points (mover's numbering) the mover holds after the play and not before."""
    blocked_dice: tuple[int, ...] = ()
    """Dice the opponent could play before the play and cannot play at all after it."""
    hindered_dice: tuple[int, ...] = ()
    """Dice that would have taken an opponent's checker onto one of the new points."""
    chain_next: int | None = None
    """Inside an escalation chain played in full: the double that follows."""
    chain_ends: bool = False
    """Inside an escalation chain: the double cannot be played in full, the chain ends."""


def stage_steps(
    state: GulbaraState, seed_of: Callable[[int], int], level: str = DEFAULT_LEVEL
) -> list[str]:
    """The computer's steps for the rest of the current stage, the ``n``-th with the seed
    ``seed_of(n)``; they stop where the stage's dice are used or the turn ends."""
    stage = _stage(state)
    steps: list[str] = []
    current = state
    while True:
        step = bot_action(current, seed=seed_of(len(steps)), level=level)
        steps.append(step)
        current = current.apply(step)
        if current.over or _stage(current) != stage:
            return steps


def _stage(state: GulbaraState) -> tuple[int, int, int]:
    """Changes when a game, a roll (anyone's) or a double of the chain begins."""
    return state.game_number, sum(state.rolls), len(state.stages)


def explain(
    state: GulbaraState, seed_of: Callable[[int], int], level: str = DEFAULT_LEVEL
) -> GulbaraHint:
    """The computer's play of the stage for ``state.current_player`` and its effects."""
    return describe_play(state, stage_steps(state, seed_of, level))


def describe_play(state: GulbaraState, steps: list[str]) -> GulbaraHint:
    """The effects of the legal ``steps`` of the seat to act (within one stage)."""
    seat = state.turn
    mine, theirs = perspective(state.board, state.off, seat)
    after = list(mine)
    for step in steps:
        source, _, target = step.partition("/")
        after[int(source)] -= 1
        after[0 if target == "off" else int(target)] += 1
    chain = state.chain_to_come()
    full = len(steps) == len(state.dice)
    new_points = tuple(point for point in range(POINTS, 0, -1) if after[point] and not mine[point])
    return GulbaraHint(
        seat=seat,
        steps=tuple(steps),
        borne_off=after[0] - mine[0],
        wins=after[0] == CHECKERS,
        all_home=any(mine[HOME_TOP + 1 :]) and not any(after[HOME_TOP + 1 :]),
        head_freed=_head_bound(mine) and not _head_bound(after),
        new_points=new_points,
        blocked_dice=tuple(sorted(_playable(mine, theirs) - _playable(after, theirs))),
        hindered_dice=_landings(mine, theirs, list(new_points)),
        chain_next=chain[0] if chain and full else None,
        chain_ends=bool(chain) and not full,
    )


def _head_bound(mine: list[int]) -> bool:
    return sum(mine[QUARTER_TOP + 1 :]) == CHECKERS


def _landings(mine: list[int], theirs: list[int], points: list[int]) -> tuple[int, ...]:
    """The dice that would take one of the opponent's movable checkers onto one of
    ``points`` (all in the mover's numbering)."""
    opponent, their_own = _opponent(mine, theirs)
    targets = {to_seat0(point, 1) for point in points}
    return tuple(
        sorted(
            {
                source - target
                for source in opponent.sources(their_own)
                for target in targets
                if 0 < source - target <= max(FACES)
            }
        )
    )


def _opponent(mine: list[int], theirs: list[int]) -> tuple[Mover, list[int]]:
    """The opponent's steps against ``mine``'s points and the opponent's checkers, in the
    opponent's numbering (both lists in the mover's, index 0 the borne-off checkers)."""
    their_own = [theirs[0]] + [0] * POINTS
    held = [False] * (POINTS + 1)
    for point in range(1, POINTS + 1):
        theirs_point = to_seat0(point, 1)
        their_own[theirs_point] = theirs[point]
        held[theirs_point] = mine[point] > 0
    return Mover(held, mine[0]), their_own


def _playable(mine: list[int], theirs: list[int]) -> set[int]:
    """The dice the opponent could play with some checker against ``mine``'s points."""
    opponent, their_own = _opponent(mine, theirs)
    sources = opponent.sources(their_own)
    return {
        die
        for die in FACES
        if any(opponent.target(their_own, source, die) >= 0 for source in sources)
    }
