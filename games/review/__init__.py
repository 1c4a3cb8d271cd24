"""Game reviews: every decision judged, the luck of every roll and deal measured.

Each game's reviewer lives in ``games/<key>/review.py`` as ``REVIEWER`` (a
``GameReviewer``, see ``games.review.model``) and is imported only when a review of that
game is asked for. ``review_game`` replays a logged game and reviews it; ``review_record``
does the same for a record written by ``/game export``, after checking it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence

from games.base import GameState, Step
from games.proof import GameFacts, read_record, walk
from games.review.model import (
    MARKS,
    GameReviewer,
    Judgement,
    LuckEvent,
    Review,
    SeatSummary,
    Unit,
    decision_accuracy,
)
from games.table_events import RESIGN, TIMEOUT

LOSSES = (RESIGN, TIMEOUT)
"""The table events that end a game as a loss of the seat they name."""

Progress = Callable[[int, int], None]
"""Told ``(done, total)`` decisions after each one is judged."""


def reviewer(kind: str) -> GameReviewer:
    """Game ``kind``'s reviewer; ``LookupError`` for a game that has none."""
    try:
        module = importlib.import_module(f"games.{kind}.review")
    except ModuleNotFoundError as missing:
        if missing.name != f"games.{kind}.review":
            raise
        raise LookupError(f"there is no review of {kind} games") from None
    found: GameReviewer = module.REVIEWER
    return found


def has_review(kind: str) -> bool:
    try:
        reviewer(kind)
    except LookupError:
        return False
    return True


def review_game(
    facts: GameFacts,
    actions: Sequence[tuple[int | None, str]],
    progress: Progress | None = None,
) -> Review:
    """The review of a logged game: the same log gives the same review on any machine.
    An illegal action raises ``IllegalAction`` as ``games.proof.walk`` does."""
    judge = reviewer(facts.kind)
    walked = list(walk(facts, actions))
    steps = [item for item in walked if isinstance(item, Step)]
    points = judge.decisions(facts, steps)
    judgements = []
    for done, point in enumerate(points, start=1):
        judgements.append(judge.judge(facts, point))
        if progress is not None:
            progress(done, len(points))
    luck = judge.luck(facts, steps)
    final = steps[-1].after if steps else None
    results = seat_results(judge.unit, len(facts.seats), final, steps)
    return Review(
        kind=facts.kind,
        judgements=tuple(judgements),
        luck=tuple(luck),
        seats=tuple(
            summarise(judge, seat, judgements, luck, results[seat], len(facts.seats))
            for seat in range(len(facts.seats))
        ),
    )


def review_record(text: str, progress: Progress | None = None) -> Review:
    """The review of a record from ``/game export``; ``games.proof.RecordError`` for a
    record that does not verify (nothing of it is reviewed then)."""
    facts, actions = read_record(text)
    return review_game(facts, actions, progress)


def seat_results(
    unit: Unit, seats: int, final: GameState | None, steps: Sequence[Step]
) -> list[float]:
    """What each seat scored. For the chance to win: 1 for the winner, 0 for the others,
    a half each for a draw or an abandoned game; a seat that resigned or lost on time
    scores 0 and, at a table of two, its opponent 1. For points: the final returns."""
    if unit == "points":
        if final is None or not final.is_over:
            return [0.0] * seats
        return [float(value) for value in final.returns()]
    if final is not None and final.is_over:
        returns = final.returns()
        top = max(returns)
        winners = [seat for seat, value in enumerate(returns) if value == top]
        if len(winners) == seats:
            return [0.5] * seats
        return [1.0 if seat in winners else 0.0 for seat in range(seats)]
    last = steps[-1] if steps else None
    if seats == 2 and last is not None and last.seat is not None and last.action in LOSSES:
        return [0.0 if seat == last.seat else 1.0 for seat in range(seats)]
    return [1.0 / seats] * seats


def seat_luck(unit: Unit, seats: int, seat: int, luck: Sequence[LuckEvent]) -> float:
    """A seat's total luck: its own events, and at a two-seat table valued by the chance
    to win, its opponent's events counted against it (one's good roll is the other's bad
    one)."""
    own = sum(event.luck for event in luck if event.seat == seat)
    if unit == "win" and seats == 2:
        own -= sum(event.luck for event in luck if event.seat != seat)
    return own


def summarise(
    judge: GameReviewer,
    seat: int,
    judgements: Sequence[Judgement],
    luck: Sequence[LuckEvent],
    result: float,
    seats: int,
) -> SeatSummary:
    """One seat's figures: decisions, mean loss, accuracy, marks, luck and results."""
    mine = [judgement for judgement in judgements if judgement.seat == seat]
    losses = [judgement.loss for judgement in mine]
    accuracies = [decision_accuracy(judge.unit, judge.thresholds, loss) for loss in losses]
    total_luck = seat_luck(judge.unit, seats, seat, luck)
    return SeatSummary(
        seat=seat,
        decisions=len(mine),
        error_rate=sum(losses) / len(losses) if losses else 0.0,
        accuracy=sum(accuracies) / len(accuracies) if accuracies else 100.0,
        marks={mark: sum(1 for judgement in mine if judgement.mark == mark) for mark in MARKS},
        luck=total_luck,
        result=result,
        luck_adjusted=result - total_luck,
    )
