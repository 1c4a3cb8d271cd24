"""Gul Bara's review (``REVIEWER``): the chance to win from the mover's side, each stage
of a roll judged as one decision, the luck of every roll exact over the 21 rolls.

**The value.** A position with a seat to roll is valued by a logistic curve over the
computer player's static evaluation (``games.gulbara.computer.evaluate``, a pip-equivalent
lead: race, blocks, head rule), scaled by the square root of the pips both sides still
travel (a lead of 10 pips is worth more near the end of a race than at its start), with a
tempo term for the side to roll and a term that flattens the curve once escalation chains
can swing the race. Its weights were fitted on the games of the computer players
(``python -m bench.bench_review --fit``), and the same benchmark shows its calibration.
In a match the chance to win the game becomes the chance to win the match through a
match-equity table (each later game even, the gammons share measured on computer games).

**A decision** is the play of one stage: the two dice of a roll, or the four steps of one
double of an escalation chain. Every distinct end position of a maximal play is valued
as above (0-ply: the opponent to roll next, or inside a chain the mover with the chain's
remaining pips to come). For a stage that ends the turn, as GNU Backgammon's move filters
do, the best ``FILTER_COUNT`` within ``FILTER_MARGIN`` of the best, and the play played,
are then valued one stage deeper (1-ply: the opponent's 21 rolls, each answered by its
best play at 0-ply), and these values are the decision's: the best against the one
played. Inside a chain the 0-ply values are compared. That is a fixed budget (a fixed
count of plays, each one evaluation per reply), so a review is the same on every
machine.

**Luck** of a roll: the value of the best play of the roll that came minus the average of
the same over all 21 rolls (a double escalating as the chain it starts), exact; a roll
with no legal step is valued as it leaves the position. The opening roll's luck is seat
0's value of the opening that came minus its average over the 30 openings.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from games.base import GameState, Step
from games.gulbara.board import (
    CHECKERS,
    HEAD_RULES,
    POINTS,
    Mover,
    perspective,
    step_notation,
    to_seat0,
)
from games.gulbara.computer import evaluate, pip_total, play_paths
from games.gulbara.state import GRACE_ROLLS, UNDO, GulbaraState
from games.proof import GameFacts
from games.review.model import (
    WIN_THRESHOLDS,
    DecisionPoint,
    Judgement,
    LuckEvent,
    Thresholds,
    Unit,
)

WEIGHTS = (0.2675, 0.7869, 0.1312, -0.4631)
"""Logistic weights of: a constant, the lead over the pip scale, the tempo (10 over the
pip scale) and the lead over the pip scale per side whose doubles escalate, halved
(``chance_features``); fitted on 90 games on the positions at the start of each turn.
Refitted on the values the review reports (``python -m bench.bench_review --fit --only
gulbara --games 75``: ``(0.3402, 0.6703, 0.0813, -0.3665)``) they measured no better on
45 games (largest gap per tenth 8.4 points against these weights' 7.8), so these stay."""
PIP_SCALE_OFFSET = 30
"""Added to both sides' pips before the square root, so the curve stays finite at the
very end of a race."""
FILTER_COUNT = 5
"""The plays of a decision valued again one stage deeper (``filtered_values``): at most
this many of the best at 0-ply ..."""
FILTER_MARGIN = 0.10
"""... within this chance to win of the best; a fixed budget, never the clock."""
GAMMON_SHARE = 0.69
"""The share of won games that are won double (the loser bore off nothing) while that is
still possible, measured on computer games."""

Board = list[int]
"""A side's checkers by its own point numbers, index 0 its borne-off checkers."""

ROLLS = tuple((high, low) for high in range(1, 7) for low in range(1, high + 1))
"""The 21 distinct rolls."""
OPENINGS = tuple(
    (first, second) for first in range(1, 7) for second in range(1, 7) if first != second
)
"""The 30 opening rolls: seat 0's die and seat 1's."""


def roll_weight(roll: tuple[int, int]) -> float:
    return (1 if roll[0] == roll[1] else 2) / 36


@dataclass(frozen=True)
class Turn:
    """What a value depends on besides the checkers, from one seat's side."""

    own_rolls: int
    """The seat's rolls so far (the one being played included, for the seat to move)."""
    other_rolls: int
    own_need: int
    """Match points the seat still needs."""
    other_need: int
    freed_at: int
    """The head rule (``HEAD_RULES``)."""

    def turned(self) -> Turn:
        return Turn(self.other_rolls, self.own_rolls, self.other_need, self.own_need, self.freed_at)


def turn_of(state: GulbaraState, seat: int) -> Turn:
    return Turn(
        state.rolls[seat],
        state.rolls[1 - seat],
        state.match_to - state.score[seat],
        state.match_to - state.score[1 - seat],
        HEAD_RULES[state.head_rule],
    )


def flipped(mine: Board, theirs: Board) -> tuple[Board, Board]:
    """The same position from the other side: its checkers and ours in its numbering."""
    other = [theirs[0]] + [0] * POINTS
    ours = [mine[0]] + [0] * POINTS
    for point in range(1, POINTS + 1):
        other[to_seat0(point, 1)] = theirs[point]
        ours[to_seat0(point, 1)] = mine[point]
    return other, ours


def chance_features(
    mine: Board, theirs: Board, turn: Turn, lead: float = 0.0
) -> tuple[float, float, float, float]:
    """What ``WEIGHTS`` weigh for the side to roll (``mine``); ``lead`` pips are added to
    its side (pips it will move before the other rolls count against the other)."""
    pips = pip_total(mine) + pip_total(flipped(mine, theirs)[0])
    total = max(0.0, pips - abs(lead))
    scale = math.sqrt(total + PIP_SCALE_OFFSET)
    value = (evaluate(mine, theirs, turn.freed_at) + lead) / scale
    escalating = (turn.own_rolls >= GRACE_ROLLS) + (turn.other_rolls >= GRACE_ROLLS)
    return 1.0, value, 10 / scale, value * escalating / 2


def game_chance(mine: Board, theirs: Board, turn: Turn, lead: float = 0.0) -> float:
    """The chance that the side to roll (``mine``) wins this game (``lead`` as in
    ``chance_features``)."""
    features = chance_features(mine, theirs, turn, lead)
    logit = sum(weight * feature for weight, feature in zip(WEIGHTS, features, strict=True))
    return 1 / (1 + math.exp(-max(-40.0, min(40.0, logit))))


@cache
def match_equity(own_need: int, other_need: int) -> float:
    """The chance to win a match needing ``own_need`` points against ``other_need``
    before a game starts, each game even and won double at ``GAMMON_SHARE``."""
    if own_need <= 0:
        return 1.0
    if other_need <= 0:
        return 0.0
    single, double = 1 - GAMMON_SHARE, GAMMON_SHARE
    win = single * match_equity(own_need - 1, other_need) + double * match_equity(
        own_need - 2, other_need
    )
    lose = single * match_equity(own_need, other_need - 1) + double * match_equity(
        own_need, other_need - 2
    )
    return (win + lose) / 2


def match_chance(game: float, mine: Board, theirs: Board, turn: Turn) -> float:
    """The chance to win the match from the chance to win this game."""
    if turn.own_need == 1 and turn.other_need == 1:
        return game
    own_double = GAMMON_SHARE if theirs[0] == 0 else 0.0
    other_double = GAMMON_SHARE if mine[0] == 0 else 0.0
    win = (1 - own_double) * match_equity(turn.own_need - 1, turn.other_need)
    win += own_double * match_equity(turn.own_need - 2, turn.other_need)
    lose = (1 - other_double) * match_equity(turn.own_need, turn.other_need - 1)
    lose += other_double * match_equity(turn.own_need, turn.other_need - 2)
    return game * win + (1 - game) * lose


def to_roll_value(mine: Board, theirs: Board, turn: Turn, lead: float = 0.0) -> float:
    """The side to roll's chance to win (the match, in a match)."""
    return match_chance(game_chance(mine, theirs, turn, lead), mine, theirs, turn)


def chain_credit(mover: Mover, end: Board, next_double: int | None) -> float:
    """The pips credited to the mover for the doubles of its escalation chain still to
    come from ``next_double`` on: all of them if the next double can be played four
    times, else the steps it can."""
    if next_double is None:
        return 0.0
    playable = mover.longest(end, (next_double,) * 4, {})
    return 4.0 * sum(range(next_double, 7)) if playable == 4 else playable * next_double


def after_stage_value(
    mover: Mover, end: Board, theirs: Board, turn: Turn, next_double: int | None
) -> float:
    """The mover's chance to win after a stage ending in ``end``: the opponent rolls next,
    or inside an escalation chain the mover first plays ``next_double`` and the doubles
    after it (``chain_credit``)."""
    if end[0] == CHECKERS:
        points = 2 if theirs[0] == 0 else 1
        return match_equity(turn.own_need - points, turn.other_need)
    their_side, our_side = flipped(end, theirs)
    credit = chain_credit(mover, end, next_double)
    return 1 - to_roll_value(their_side, our_side, turn.turned(), -credit)


def stage_plays(mover: Mover, mine: Board, dice: tuple[int, ...]) -> dict[bytes, tuple[str, ...]]:
    """Every distinct end position of a maximal legal play of ``dice``, with the steps of
    one play that reaches it (in the record's notation), in a fixed order."""
    board = list(mine)
    paths = play_paths(mover, board, dice, mover.first_steps(board, dice))
    return {
        end: tuple(step_notation(source, die) for source, die, _ in path)
        for end, path in paths.items()
    }


def mover_of(mine: Board, theirs: Board, freed_at: int) -> Mover:
    blocked = [count > 0 for count in theirs]
    blocked[0] = False
    return Mover(blocked, theirs[0], freed_at)


def played_end(mine: Board, actions: Sequence[str]) -> Board:
    """``mine`` after the steps ``actions`` (each ``from/to`` or ``from/off``)."""
    end = list(mine)
    for action in actions:
        source, _, target = "".join(action.split()).lower().partition("/")
        end[int(source)] -= 1
        end[0 if target == "off" else int(target)] += 1
    return end


def best_play(
    mine: Board, theirs: Board, dice: tuple[int, ...], turn: Turn, chain: Sequence[int]
) -> tuple[dict[bytes, tuple[str, ...]], dict[bytes, float]]:
    """The plays of a stage and the mover's value after each (``turn`` counting the
    roll being played, ``chain`` the doubles that follow this one if it is played in
    full)."""
    mover = mover_of(mine, theirs, turn.freed_at)
    plays = stage_plays(mover, mine, dice)
    full = mover.longest(list(mine), dice, {}) == len(dice)
    next_double = chain[0] if chain and full else None
    values = {end: after_stage_value(mover, list(end), theirs, turn, next_double) for end in plays}
    return plays, values


def roll_dice(roll: tuple[int, int], rolled: Turn) -> tuple[tuple[int, ...], list[int]]:
    """The dice ``roll`` gives to play first, and the doubles its escalation chain may
    go on with (``rolled``: the turn counting this roll)."""
    high, low = roll
    if high != low:
        return (high, low), []
    chain = list(range(high + 1, 7)) if rolled.own_rolls > GRACE_ROLLS else []
    return (high,) * 4, chain


def roll_value(mine: Board, theirs: Board, roll: tuple[int, int], turn: Turn) -> float:
    """The chance to win of the side about to roll once ``roll`` has come and is played
    at its best (``turn`` before the roll)."""
    rolled = Turn(
        turn.own_rolls + 1, turn.other_rolls, turn.own_need, turn.other_need, turn.freed_at
    )
    dice, chain = roll_dice(roll, rolled)
    _plays, values = best_play(mine, theirs, dice, rolled, chain)
    if not values:
        their_side, our_side = flipped(mine, theirs)
        return 1 - to_roll_value(their_side, our_side, rolled.turned())
    return max(values.values())


def one_ply_value(mover: Mover, end: Board, theirs: Board, turn: Turn) -> float:
    """The mover's chance to win after a stage that ends its turn in ``end``, one stage
    deeper than ``after_stage_value``: averaged over the opponent's 21 rolls, each played
    at its best by the 0-ply value (``roll_value``, its doubles escalating)."""
    if end[0] == CHECKERS:
        return after_stage_value(mover, end, theirs, turn, None)
    their_side, our_side = flipped(end, theirs)
    other = turn.turned()
    return 1 - sum(
        roll_weight(roll) * roll_value(their_side, our_side, roll, other) for roll in ROLLS
    )


def filtered_values(
    mine: Board,
    theirs: Board,
    dice: tuple[int, ...],
    turn: Turn,
    chain: Sequence[int],
    extra: bytes | None = None,
) -> tuple[dict[bytes, tuple[str, ...]], dict[bytes, float]]:
    """The plays of a stage and the mover's values of the ones a decision compares. For a
    stage that ends the turn, the 1-ply values (``one_ply_value``) of the plays that pass
    the move filter: the ``FILTER_COUNT`` best at 0-ply within ``FILTER_MARGIN`` of the
    best, and ``extra`` (the play played) if it is a play. Inside an escalation chain the
    0-ply values of every play: the next stage is the mover's own double, which the
    chain's credit already counts, and the opponent's dice come only after the chain."""
    plays, values = best_play(mine, theirs, dice, turn, chain)
    mover = mover_of(mine, theirs, turn.freed_at)
    if chain and mover.longest(list(mine), dice, {}) == len(dice):
        return plays, values
    ranked = sorted(values, key=lambda end: (-values[end], end))
    top = values[ranked[0]] if ranked else 0.0
    kept = [end for end in ranked[:FILTER_COUNT] if values[end] >= top - FILTER_MARGIN]
    if extra is not None and extra in values and extra not in kept:
        kept.append(extra)
    return plays, {end: one_ply_value(mover, list(end), theirs, turn) for end in kept}


def roll_luck(mine: Board, theirs: Board, roll: tuple[int, int], turn: Turn) -> float:
    came = roll_value(mine, theirs, roll, turn)
    average = sum(roll_weight(each) * roll_value(mine, theirs, each, turn) for each in ROLLS)
    return came - average


def opening_value(state: GulbaraState, opening: tuple[int, int]) -> float:
    """Seat 0's chance to win after the opening dice ``opening`` (seat 0's, seat 1's)."""
    starter = 0 if opening[0] > opening[1] else 1
    mine, theirs = perspective(state.board, state.off, starter)
    need = [state.match_to - points for points in state.score]
    turn = Turn(0, 0, need[starter], need[1 - starter], HEAD_RULES[state.head_rule])
    value = roll_value(mine, theirs, (max(opening), min(opening)), turn)
    return value if starter == 0 else 1 - value


@dataclass(frozen=True)
class _Stage:
    number: int
    """The logged move number of the step that played its first step."""
    before: GulbaraState
    steps: tuple[Step, ...]


def _turn_key(state: GameState) -> tuple[int, int, int]:
    assert isinstance(state, GulbaraState)
    return state.game_number, state.rolls[0], state.rolls[1]


def _stages_of_turn(steps: Sequence[Step]) -> list[_Stage]:
    """The stages a turn's logged steps (undos included) leave played, each from the
    position it was played in; a stage the log leaves unfinished (the game was resigned
    or abandoned in the middle of it) is no decision."""
    kept: list[Step] = []
    for step in steps:
        if "".join(step.action.split()).lower() == UNDO:
            kept.pop()
        else:
            kept.append(step)
    state = steps[0].before
    assert isinstance(state, GulbaraState)
    stages: list[_Stage] = []
    current: list[Step] = []
    start = state
    stage_count = len(state.stages)
    for step in kept:
        if current and len(state.stages) != stage_count:
            stages.append(_Stage(current[0].number, start, tuple(current)))
            current, start, stage_count = [], state, len(state.stages)
        current.append(step)
        following = state.apply(step.action)
        assert isinstance(following, GulbaraState)
        state = following
    unfinished = (
        not state.over and _turn_key(state) == _turn_key(start) and len(state.stages) == stage_count
    )
    if current and not unfinished:
        stages.append(_Stage(current[0].number, start, tuple(current)))
    return stages


class GulbaraReviewer:
    unit: Unit = "win"
    thresholds: Thresholds = WIN_THRESHOLDS

    def decisions(self, facts: GameFacts, steps: Sequence[Step]) -> list[DecisionPoint]:
        points = []
        turn: list[Step] = []
        for step in [*steps, None]:
            if step is not None and step.is_table_event:
                continue
            if turn and (step is None or _turn_key(step.before) != _turn_key(turn[0].before)):
                for stage in _stages_of_turn(turn):
                    if self._choices(stage.before) > 1:
                        seat = stage.before.turn
                        points.append(DecisionPoint(stage.number, seat, stage.steps, stage.before))
                turn = []
            if step is not None:
                turn.append(step)
        return points

    @staticmethod
    def _choices(state: GulbaraState) -> int:
        mine, theirs = perspective(state.board, state.off, state.turn)
        mover = mover_of(mine, theirs, HEAD_RULES[state.head_rule])
        return len(stage_plays(mover, mine, state.dice))

    def judge(self, facts: GameFacts, point: DecisionPoint) -> Judgement:
        state = point.before
        assert isinstance(state, GulbaraState)
        mine, theirs = perspective(state.board, state.off, state.turn)
        actions = [step.action for step in point.steps]
        chosen = bytes(played_end(mine, actions))
        plays, values = filtered_values(
            mine, theirs, state.dice, turn_of(state, state.turn), state.chain_to_come(), chosen
        )
        best = max(values, key=lambda end: values[end])
        if values[best] <= values[chosen]:
            best = chosen
        loss = max(0.0, values[best] - values[chosen])
        return Judgement(
            index=point.index,
            seat=point.seat,
            played=" ".join(actions),
            best=" ".join(actions) if best == chosen else " ".join(plays[best]),
            loss=loss,
            mark=self.thresholds.mark(loss),
            value_played=values[chosen],
            value_best=values[best],
        )

    def luck(self, facts: GameFacts, steps: Sequence[Step]) -> list[LuckEvent]:
        if not steps:
            return []
        events = []
        start = steps[0].before
        assert isinstance(start, GulbaraState)
        events.append(_opening_luck(0, start))
        for step in steps:
            after, before = step.after, step.before
            assert isinstance(after, GulbaraState) and isinstance(before, GulbaraState)
            if step.is_table_event:
                continue
            if after.game_number != before.game_number and not after.over:
                events.append(_opening_luck(step.number, after))
                continue
            rolls = [event for event in step.chance if event.kind == "dice"]
            counts = list(after.rolls)
            found = []
            for event in reversed(rolls):
                seat = event.seat
                assert seat is not None
                counts[seat] -= 1
                high, low = sorted((int(face) for face in event.outcome.split()), reverse=True)
                mine, theirs = perspective(after.board, after.off, seat)
                turn = Turn(
                    counts[seat],
                    counts[1 - seat],
                    after.match_to - after.score[seat],
                    after.match_to - after.score[1 - seat],
                    HEAD_RULES[after.head_rule],
                )
                found.append(
                    LuckEvent(step.number, seat, roll_luck(mine, theirs, (high, low), turn))
                )
            events.extend(reversed(found))
        return events


def _opening_luck(number: int, state: GulbaraState) -> LuckEvent:
    assert state.opening is not None
    came = opening_value(state, (state.opening[0], state.opening[1]))
    average = sum(opening_value(state, opening) for opening in OPENINGS) / len(OPENINGS)
    return LuckEvent(number, 0, came - average)


REVIEWER = GulbaraReviewer()
