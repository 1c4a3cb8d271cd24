"""Gul Bara's computer player (``bot_action``): a one-ply search over whole stages, each
end position judged by a static evaluation, then by the dice each side can play next;
hard looks one double further inside an escalation chain, and at the end of a turn values
its best few plays by the opponent's best answer to each of its 21 rolls.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import Any

from games.base import DEFAULT_LEVEL, N_, IllegalAction, Rng, check_level
from games.gulbara.board import (
    CHECKERS,
    HEAD_RULES,
    HOME_TOP,
    OPPONENT_PATH,
    POINTS,
    QUARTER_TOP,
    START_POINT,
    Mover,
    die_choices,
    perspective,
    step_notation,
)
from games.gulbara.state import GulbaraState

# Evaluation weights, in pips: what a feature is worth compared with one pip of race.
_WEIGHT_BORNE_OFF = 4.0
_WEIGHT_POINT_HELD = 1.0
_WEIGHT_BLOCK = 0.8
_WEIGHT_RUN = 0.8
_WEIGHT_BLOCKED = 0.5
_WEIGHT_HEAD = 1.5
_HEAD_LOCKED = 8.0
_WEIGHT_MOBILITY = 4.0
_WEIGHT_WASTE = 4.0
_HOME_WASTE = (0.0, 2.5, 1.6, 0.9, 0.4, 0.15, 0.0)
_BLOCK_CAP = 15
_SHORTLIST = 40
_EASY_CHOICES = 4
# normal treats plays this close (in pips) to the best one as equally good
_NORMAL_MARGIN = 4.0
_WON = 10_000.0
# hard judges this many of the best plays of a chain's double by the next double's best play
_CHAIN_LOOKAHEAD = 3
# hard values this many of its best plays ending a turn, within this many pips of the
# best, by the opponent's replies to each of its 21 rolls
_HARD_FILTER = 3
_HARD_FILTER_MARGIN = 8.0
_OPPONENT_POINT = tuple([0] + [(point + 11) % POINTS + 1 for point in range(1, POINTS + 1)])


def _runs(flags: list[bool]) -> Iterator[tuple[int, int]]:
    """``(start, length)`` of each run of consecutive true flags."""
    start = None
    for index, flag in enumerate([*flags, False]):
        if flag and start is None:
            start = index
        elif not flag and start is not None:
            yield start, index - start
            start = None


def _blocking(holder: list[int], walker: list[int]) -> float:
    """How much ``holder``'s points hinder ``walker``'s checkers, both indexed along the
    walker's path from its last point (index 0) to its first (index 23)."""
    value = 0.0
    for index, count in enumerate(holder):
        if count:
            value += _WEIGHT_BLOCK * min(_BLOCK_CAP, sum(walker[index + 1 : index + 7]))
    for start, length in _runs([count > 0 for count in holder]):
        if length > 1 and any(walker[start + length :]):
            value += _WEIGHT_RUN * (length - 1) ** 2
    return value


def _head_penalty(board: list[int], freed_at: int) -> float:
    """Cost of still being bound by the head rule (``board`` indexed by own points), which
    frees the others once the runner stands on ``freed_at`` or lower."""
    if sum(board[freed_at + 1 :]) != CHECKERS:
        return 0.0
    runner = max((p for p in range(freed_at + 1, START_POINT) if board[p]), default=24)
    return _HEAD_LOCKED + _WEIGHT_HEAD * (runner - freed_at)


def _waste(board: list[int]) -> float:
    """Pips a side can expect to lose when bearing off checkers that sit deep in its home
    (a checker on the 1-point takes a whole die to remove)."""
    return sum(board[point] * _HOME_WASTE[point] for point in range(1, HOME_TOP + 1))


def _other_numbering(board: Sequence[int]) -> list[int]:
    """A side's checkers (index 0 off) in the other side's numbering: the numberings are
    half a board apart, so the same map turns either into the other."""
    own = [board[0]] + [0] * POINTS
    for point in range(1, POINTS + 1):
        own[_OPPONENT_POINT[point]] = board[point]
    return own


def evaluate(mine: list[int], theirs: list[int], freed_at: int = QUARTER_TOP) -> float:
    """How good a position is for ``mine`` (both lists in mine's numbering, index 0 off),
    under the head rule that frees the others from ``freed_at`` (``HEAD_RULES``).

    Every maximal play moves the same number of pips, so what separates plays is what
    they cost later: racing (pip counts, borne-off checkers, pips that bearing off from
    deep points will waste), blocking (points held in front of the other side's
    checkers, longer runs worth more) and the head rule (a side whose runner has not yet
    freed the others cannot bring them into play).
    """
    if mine[0] == CHECKERS:
        return _WON
    their_own = _other_numbering(theirs)
    value = float(pip_total(their_own) - pip_total(mine))
    value += _WEIGHT_BORNE_OFF * (mine[0] - theirs[0])
    value -= _WEIGHT_WASTE * (_waste(mine) - _waste(their_own))
    value += _WEIGHT_POINT_HELD * (
        sum(1 for count in mine[1:] if count) - sum(1 for count in theirs[1:] if count)
    )
    mine_on_their_path = [mine[point] for point in OPPONENT_PATH]
    their_path_walkers = [their_own[index + 1] for index in range(POINTS)]
    theirs_on_my_path = theirs[1:]
    my_walkers = mine[1:]
    value += _blocking(mine_on_their_path, their_path_walkers)
    value -= _blocking(theirs_on_my_path, my_walkers) * (1 + _WEIGHT_BLOCKED)
    value += _head_penalty(their_own, freed_at) - _head_penalty(mine, freed_at)
    return value


def pip_total(board: list[int]) -> int:
    """Pips still to travel for a side, ``board`` indexed by its own points."""
    return sum(point * board[point] for point in range(1, POINTS + 1))


def stage_plays(state: GulbaraState) -> dict[bytes, Step]:
    """Every distinct end position of a maximal play of the current stage, each with a
    legal first step that leads to it (positions are the mover's ``mine`` as bytes)."""
    mover, mine = state.mover()
    return play_ends(mover, mine, state.dice, state.legal_moves())


Step = tuple[int, int, int]
"""A checker's step: from point, die, to point (the mover's numbering)."""


def play_ends(
    mover: Mover, mine: list[int], dice: tuple[int, ...], firsts: list[Step]
) -> dict[bytes, Step]:
    """``stage_plays`` for any board and dice, ``firsts`` being the legal first steps."""
    return {end: path[0] for end, path in play_paths(mover, mine, dice, firsts).items()}


def play_paths(
    mover: Mover, mine: list[int], dice: tuple[int, ...], firsts: list[Step]
) -> dict[bytes, tuple[Step, ...]]:
    """Every distinct end position of a maximal play of ``dice`` from ``mine`` (restored
    afterwards), each with the steps of the first play found that reaches it, in a fixed
    order; ``firsts`` are the legal first steps."""
    memo: dict[Any, int] = {}
    ends: dict[bytes, tuple[Step, ...]] = {}
    seen: set[tuple[bytes, tuple[int, ...]]] = set()

    def walk(dice: tuple[int, ...], path: tuple[Step, ...]) -> None:
        key = (bytes(mine), dice)
        if key in seen:
            return
        seen.add(key)
        best = mover.longest(mine, dice, memo)
        if best == 0 or mine[0] == CHECKERS:
            ends.setdefault(key[0], path)
            return
        for die, rest in die_choices(dice):
            for source in mover.sources(mine):
                target = mover.target(mine, source, die)
                if target < 0:
                    continue
                mine[source] -= 1
                mine[target] += 1
                if 1 + mover.longest(mine, rest, memo) == best:
                    walk(rest, (*path, (source, die, target)))
                mine[source] += 1
                mine[target] -= 1

    for source, die, target in firsts:
        rest = list(dice)
        rest.remove(die)
        mine[source] -= 1
        mine[target] += 1
        walk(tuple(rest), ((source, die, target),))
        mine[source] += 1
        mine[target] -= 1
    return ends


def _unplayable(mover: Mover, board: list[int], die: int) -> int:
    """0 if two or more checkers can play ``die``, 1 if one can, 2 if none can."""
    playable = 0
    for source in mover.sources(board):
        if mover.target(board, source, die) >= 0:
            playable += 1
            if playable == 2:
                return 0
    return 2 - playable


def mobility_loss(mover: Mover, board: list[int]) -> float:
    """Roughly the pips a side expects to lose on its next roll because dice are blocked."""
    loss = 0.0
    for die in range(1, 7):
        stuck = _unplayable(mover, board, die)
        if stuck == 2:
            loss += die * 10 / 36 + 4 * die / 36
        elif stuck == 1:
            loss += 2 * die / 36
    return loss


def _chain_loss(mover: Mover, board: list[int], next_die: int) -> float:
    """Pips of the rest of an escalation chain lost if ``next_die`` cannot be played 4 times."""
    playable = mover.longest(board, (next_die,) * 4, {})
    if playable == 4:
        return 0.0
    return 4 * sum(range(next_die, 7)) - playable * next_die


def _refine(mover: Mover, end: list[int], theirs: list[int], next_double: int | None) -> float:
    """Mobility on the next rolls: the opponent's (blocked by us) against our own."""
    their_own = _other_numbering(theirs)
    my_points = [False] + [bool(end[_OPPONENT_POINT[point]]) for point in range(1, POINTS + 1)]
    opponent = Mover(my_points, end[0], mover.freed_at)
    value = _WEIGHT_MOBILITY * (mobility_loss(opponent, their_own) - mobility_loss(mover, end))
    if next_double is not None and end[0] < CHECKERS:
        value -= _chain_loss(mover, end, next_double)
    return value


def _next_double_value(
    mover: Mover, board: list[int], theirs: list[int], die: int, fallback: float
) -> float:
    """The evaluation of the best play of the chain's next double ``die`` from ``board``
    (the same player moves again before anyone rolls), or ``fallback`` if no checker
    can play it."""
    dice = (die,) * 4
    firsts = mover.first_steps(board, dice) if board[0] < CHECKERS else []
    if not firsts:
        return fallback
    full = mover.longest(board, dice, {}) == 4
    following = die + 1 if die < 6 and full else None
    # a double played only in part ends the chain: the doubles after it are lost
    lost = 0.0 if full else 4.0 * sum(range(die + 1, 7))
    return -lost + max(
        evaluate(list(end), theirs, mover.freed_at) + _refine(mover, list(end), theirs, following)
        for end in play_ends(mover, board, dice, firsts)
    )


@lru_cache(maxsize=4096)
def after_their_roll(end: bytes, theirs: bytes, freed_at: int) -> float:
    """Our evaluation of the position ``end`` leaves once the opponent has rolled, averaged
    over its 21 rolls, each played at its best by its own evaluation (the doubles of a
    chain after the first left out: they would add about the same to every play of ours).
    Cached, since every step of a stage asks again for the same end positions."""
    their_own = _other_numbering(theirs)
    ours = _other_numbering(end)
    blocked = [count > 0 for count in ours]
    blocked[0] = False
    opponent = Mover(blocked, ours[0], freed_at)
    total = 0.0
    for high in range(1, 7):
        for low in range(1, high + 1):
            dice = (high,) * 4 if high == low else (high, low)
            firsts = opponent.first_steps(their_own, dice)
            if firsts:
                value = -max(
                    evaluate(list(after), ours, freed_at)
                    for after in play_ends(opponent, their_own, dice, firsts)
                )
            else:
                value = evaluate(list(end), list(theirs), freed_at)
            total += (1 if high == low else 2) * value
    return total / 36


def bot_action(state: GulbaraState, seed: int = 0, level: str = DEFAULT_LEVEL) -> str:
    """The first step of the stage play whose end position scores best (ties broken by
    the seed).

    Every end position gets a quick static evaluation; the best few are then judged
    again with the dice each side will be able to play next (and, inside an escalation
    chain, whether the next double can be played four times). Hard plays the best of
    them, judging the best ``_CHAIN_LOOKAHEAD`` plays of a chain's double by the best
    play of the next double from there, and the best ``_HARD_FILTER`` plays that end the
    turn (within ``_HARD_FILTER_MARGIN``) by ``after_their_roll``; normal any within
    ``_NORMAL_MARGIN`` of the best, easy any of the four best by the quick evaluation.
    """
    check_level(level)
    if state.over:
        raise IllegalAction(N_("The game is over."))
    ends = stage_plays(state)
    _, theirs = perspective(state.board, state.off, state.turn)
    freed_at = HEAD_RULES[state.head_rule]
    quick = sorted(
        ((evaluate(list(end), theirs, freed_at), end, first) for end, first in ends.items()),
        reverse=True,
    )
    if level == "easy":
        _value, _end, first = Rng(seed).choice(quick[:_EASY_CHOICES])
        return step_notation(first[0], first[1])
    mover, mine = state.mover()
    chain = state.chain_to_come()
    full_stage = mover.longest(mine, state.dice, {}) == len(state.dice)
    next_double = chain[0] if chain and full_stage else None
    scored = sorted(
        (value + _refine(mover, list(end), theirs, next_double), end, first)
        for value, end, first in quick[:_SHORTLIST]
    )
    if level == "hard" and next_double is not None:
        scored = sorted(
            (_next_double_value(mover, list(end), theirs, next_double, value), end, first)
            for value, end, first in scored[-_CHAIN_LOOKAHEAD:]
        )
    elif level == "hard":
        top = scored[-1][0]
        kept = [item for item in scored[-_HARD_FILTER:] if item[0] >= top - _HARD_FILTER_MARGIN]
        scored = sorted(
            (after_their_roll(end, bytes(theirs), freed_at), end, first)
            for _value, end, first in kept
        )
    top = scored[-1][0]
    margin = _NORMAL_MARGIN if level == "normal" else 0.0
    best = [first for value, _end, first in scored if value >= top - margin]
    source, die, _target = best[0] if len(best) == 1 else Rng(seed).choice(best)
    return step_notation(source, die)
