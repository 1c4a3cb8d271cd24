"""Bann's review (``REVIEWER``): the chance to win from the mover's side, each turn (its
tip and its move, one action) judged as one decision.

**The value.** Every legal move of the turn is searched with the computer player's
alpha-beta search (``games.bann.computer``) to the same depth with a full window, so each
gets an exact score, not just a bound; the budget is ``SEARCH_DEPTH`` plies, cut to one
ply less when a depth would pass ``NODE_BUDGET`` nodes (never the clock). A score becomes
the mover's chance to win through a logistic curve whose slope changes at 0
(``CHANCE_WEIGHTS``), fitted on the computer players' games (``python -m bench.bench_review
--fit``), against which a draw counts half a win; a won or lost position found by the
search is 1 or 0.

Draw offers and their answers are not judged: only moves are.

**Luck.** Bann's only chance is the opening roll, which decides who moves first; its
luck is the starter's chance to win at the start minus a half (the start is symmetric,
so either seat starting is equally likely and equally good for the starter).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from games.bann.board import Move, legal_moves
from games.bann.computer import WIN, Search, SearchTimeout, search_depth
from games.bann.state import BannState
from games.base import Step
from games.proof import GameFacts
from games.review.model import (
    WIN_THRESHOLDS,
    DecisionPoint,
    Judgement,
    LuckEvent,
    Thresholds,
    Unit,
)

SEARCH_DEPTH = 3
NODE_BUDGET = 60_000
CHANCE_WEIGHTS = (-0.1474, 1.1406, -0.2701)
"""Logit of the mover's chance to win: a constant, per hundred search points (a knight),
and per hundred points above 0. Fitted by ``python -m bench.bench_review --fit --only bann
--games 150``. The curve is not symmetric: a mover whose best move scores 0 wins about
46 %, as the best of many scores is optimistic, and above 0 the chance rises more slowly
than it falls below."""
SCORE_LIMIT = 800
"""Scores beyond this many points count as this many: the fit saw few of them, and short
of a win or loss the search has found, no score makes the result certain."""


def chance(score: int) -> float:
    """The mover's chance to win for a search score from his side."""
    if score > WIN // 2:
        return 1.0
    if score < -WIN // 2:
        return 0.0
    logit = sum(
        weight * feature
        for weight, feature in zip(CHANCE_WEIGHTS, chance_features(score), strict=True)
    )
    return 1 / (1 + math.exp(-logit))


def chance_features(score: int) -> tuple[float, float, float]:
    """What ``CHANCE_WEIGHTS`` weigh, for a score short of a found win or loss: a
    constant, the score and the score above 0, in hundreds (knights), bounded at
    ``SCORE_LIMIT``. The fit (``--fit``) and the review read the score alike."""
    bounded = max(-SCORE_LIMIT, min(SCORE_LIMIT, score)) / 100
    return 1.0, bounded, max(0.0, bounded)


def move_scores(state: BannState) -> dict[Move, int]:
    """Every legal move of ``state`` with its exact search score at the deepest depth up
    to ``SEARCH_DEPTH`` that fits ``NODE_BUDGET`` (each depth searched afresh)."""
    moves = list(legal_moves(state.board, state.dice, state.turn))
    scores: dict[Move, int] = {}
    for depth in range(1, SEARCH_DEPTH + 1):
        search = Search(state, NODE_BUDGET)
        found: dict[Move, int] = {}
        try:
            search_depth(search, state, moves, depth, found, full_window=True)
        except SearchTimeout:
            break
        scores = found
    return scores


class BannReviewer:
    unit: Unit = "win"
    thresholds: Thresholds = WIN_THRESHOLDS

    def decisions(self, facts: GameFacts, steps: Sequence[Step]) -> list[DecisionPoint]:
        points = []
        for step in steps:
            before = step.before
            if step.is_table_event or not isinstance(before, BannState):
                continue
            if before.draw_offer is not None or step.action.strip().lower() == "offer":
                continue
            if len(list(legal_moves(before.board, before.dice, before.turn))) > 1:
                points.append(DecisionPoint(step.number, before.turn, (step,), before))
        return points

    def judge(self, facts: GameFacts, point: DecisionPoint) -> Judgement:
        state = point.before
        assert isinstance(state, BannState)
        scores = move_scores(state)
        values = {move.action: chance(score) for move, score in scores.items()}
        played = point.steps[0].action.strip().upper()
        best = max(values, key=lambda action: values[action])
        if values[best] <= values[played]:
            best = played
        loss = values[best] - values[played]
        return Judgement(
            index=point.index,
            seat=point.seat,
            played=point.steps[0].action,
            best=point.steps[0].action if best == played else best,
            loss=loss,
            mark=self.thresholds.mark(loss),
            value_played=values[played],
            value_best=values[best],
        )

    def luck(self, facts: GameFacts, steps: Sequence[Step]) -> list[LuckEvent]:
        if not steps:
            return []
        start = steps[0].before
        assert isinstance(start, BannState)
        scores = move_scores(start)
        starter_value = chance(max(scores.values()))
        return [LuckEvent(0, start.turn, starter_value - 0.5)]


REVIEWER = BannReviewer()
