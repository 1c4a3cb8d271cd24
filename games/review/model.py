"""The shared vocabulary of game reviews: decisions, judgements, luck and summaries.

A game's reviewer (``games/<game>/review.py``, its ``REVIEWER``) values positions from
the mover's side in the game's unit, judges each decision against the best one it finds
within a fixed budget, and measures the luck of every die roll or deal. Everything here
is plain data that serialises to the same bytes on every machine.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from games.base import GameState, Step
from games.proof import GameFacts

Unit = Literal["win", "points"]
"""``"win"``: the chance to win, 0..1, from the mover's side; ``"points"``: expected points
(Barbu: per deal, more is better) or expected minus points (Barree, turned by its
reviewer so that more is better for the mover)."""

MARKS = ("inaccuracy", "mistake", "blunder")

DIGITS = 6
"""Decimal places every float of a serialised review is rounded to: the last bits of a
float sum may differ between platforms' libm, six places do not."""


@dataclass(frozen=True)
class Thresholds:
    """The value lost at or above which a decision gets each mark (in the game's unit)."""

    inaccuracy: float
    mistake: float
    blunder: float

    def mark(self, loss: float) -> str | None:
        """The heaviest mark ``loss`` reaches, or None below the inaccuracy threshold;
        judged at the places a review is written with, so a loss shown as 0.05 is marked
        as 0.05 is."""
        loss = rounded(loss)
        if loss >= self.blunder:
            return "blunder"
        if loss >= self.mistake:
            return "mistake"
        if loss >= self.inaccuracy:
            return "inaccuracy"
        return None


WIN_THRESHOLDS = Thresholds(inaccuracy=0.05, mistake=0.10, blunder=0.20)
"""For games valued by the chance to win: 5, 10 and 20 percentage points."""


@dataclass(frozen=True)
class DecisionPoint:
    """One judged decision of a record: the steps that make it up, from one position."""

    index: int
    """The record's move number of the decision's first step (1-based)."""
    seat: int
    steps: tuple[Step, ...]
    before: GameState
    """The position the mover decided in (``steps[0].before``)."""


@dataclass(frozen=True)
class Judgement:
    index: int
    seat: int
    played: str
    """The decision's actions as the record writes them, joined by a space."""
    best: str
    """The best decision found, in the same notation."""
    loss: float
    """``value_best - value_played``, never negative, in the game's unit."""
    mark: str | None
    value_played: float
    """The mover's value after what he played."""
    value_best: float


@dataclass(frozen=True)
class LuckEvent:
    """Chance acting on a seat (a roll, a deal): the value after it minus its average over
    every outcome that could have come, from ``seat``'s side. In a two-seat game valued
    by the chance to win, one seat's luck is the other's bad luck: the summary counts an
    event for a seat against its opponent."""

    index: int
    """The record's move number it happened at (0: the start)."""
    seat: int
    luck: float


class GameReviewer(Protocol):
    unit: Unit
    thresholds: Thresholds

    def decisions(self, facts: GameFacts, steps: Sequence[Step]) -> list[DecisionPoint]:
        """Every decision of ``steps`` with more than one legal choice (table events,
        ``!resign`` and the like, are never decisions)."""
        ...

    def judge(self, facts: GameFacts, point: DecisionPoint) -> Judgement:
        """The decision judged within a fixed budget (nodes, rollouts): its randomness is
        seeded from ``facts.seed`` and ``point.index`` only, never the clock."""
        ...

    def luck(self, facts: GameFacts, steps: Sequence[Step]) -> list[LuckEvent]: ...


@dataclass(frozen=True)
class SeatSummary:
    seat: int
    decisions: int
    error_rate: float
    """The mean value lost per judged decision, in the game's unit."""
    accuracy: float
    """0..100: the mean of each decision's accuracy (see ``decision_accuracy``)."""
    marks: Mapping[str, int]
    luck: float
    result: float
    """What the seat scored (the record's returns)."""
    luck_adjusted: float
    """``result - luck``."""


@dataclass(frozen=True)
class Review:
    kind: str
    judgements: tuple[Judgement, ...]
    luck: tuple[LuckEvent, ...]
    seats: tuple[SeatSummary, ...]

    def to_json(self) -> str:
        """The review as compact JSON with sorted keys and rounded floats: the same record
        gives the same bytes on every machine."""
        data = {
            "kind": self.kind,
            "judgements": [_rounded(vars(judgement)) for judgement in self.judgements],
            "luck": [_rounded(vars(event)) for event in self.luck],
            "seats": [_rounded({**vars(seat), "marks": dict(seat.marks)}) for seat in self.seats],
        }
        return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> Review:
        data = json.loads(text)
        return cls(
            kind=data["kind"],
            judgements=tuple(Judgement(**judgement) for judgement in data["judgements"]),
            luck=tuple(LuckEvent(**event) for event in data["luck"]),
            seats=tuple(SeatSummary(**seat) for seat in data["seats"]),
        )


def rounded(value: float) -> float:
    """``value`` at ``DIGITS`` places, without a negative zero."""
    return round(value, DIGITS) + 0.0


def _rounded(fields: Mapping[str, Any]) -> dict[str, Any]:
    return {
        key: rounded(value) if isinstance(value, float) else value for key, value in fields.items()
    }


def decision_accuracy(unit: Unit, thresholds: Thresholds, loss: float) -> float:
    """How accurate one decision was, 0..100, from the value it lost.

    For the chance to win, lichess's curve over the percentage points lost
    (103.1668·e^(−0.04354·points) − 3.1669, clipped): no loss is 100, 10 points about 64,
    20 points about 40. For points, halving at every mistake's worth of loss:
    100·2^(−loss / mistake threshold)."""
    if unit == "win":
        curve = 103.1668 * math.exp(-0.04354 * loss * 100) - 3.1669
        return min(100.0, max(0.0, curve))
    return 100.0 * math.pow(2.0, -loss / thresholds.mistake)
