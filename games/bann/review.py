"""Bann's review (``REVIEWER``): the chance to win from the mover's side, each turn (its
tip and its move, one action) judged as one decision.

**The value.** Every legal move of the turn is searched with the computer player's
alpha-beta search (``games.bann.computer``) to the same depth with a full window, so each
gets an exact score, not just a bound; the budget is ``SEARCH_DEPTH`` plies, cut to one
ply less when a depth would pass ``NODE_BUDGET`` nodes (never the clock). A score becomes
the mover's chance to win through ``CHANCE_KNOTS``, a rising table fitted on the computer
players' games (``python -m bench.bench_review --fit``), after ``KNIGHT_LEAD`` points per
knight the mover leads by are added to it; against the table a draw counts half a win. A
won or lost position found by the search is 1 or 0.

Draw offers and their answers are not judged: only moves are.

**Luck.** Bann's only chance is the opening roll, which decides who moves first; its
luck is the starter's chance to win at the start minus a half (the start is symmetric,
so either seat starting is equally likely and equally good for the starter).
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from games.bann.board import Move, knight_squares, legal_moves
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
CHANCE_KNOTS: tuple[tuple[int, float], ...] = (
    (-1600, 0.000062),
    (-1500, 0.000114),
    (-1400, 0.000207),
    (-1300, 0.000378),
    (-1200, 0.000688),
    (-1100, 0.001255),
    (-1000, 0.002286),
    (-900, 0.004162),
    (-800, 0.007564),
    (-700, 0.013709),
    (-600, 0.024724),
    (-500, 0.044191),
    (-400, 0.077765),
    (-375, 0.089246),
    (-350, 0.102234),
    (-325, 0.116869),
    (-300, 0.133288),
    (-275, 0.151619),
    (-250, 0.171970),
    (-225, 0.194426),
    (-200, 0.219040),
    (-175, 0.245818),
    (-150, 0.274718),
    (-125, 0.305640),
    (-100, 0.338418),
    (-75, 0.372823),
    (-50, 0.408567),
    (-25, 0.445304),
    (0, 0.482648),
    (25, 0.515895),
    (50, 0.549001),
    (75, 0.581679),
    (100, 0.613656),
    (125, 0.644681),
    (150, 0.674536),
    (175, 0.703038),
    (200, 0.730044),
    (225, 0.755447),
    (250, 0.779183),
    (275, 0.801222),
    (300, 0.821565),
    (325, 0.840240),
    (350, 0.857301),
    (375, 0.872816),
    (400, 0.886866),
    (500, 0.930297),
    (600, 0.957848),
    (700, 0.974804),
    (800, 0.985046),
    (900, 0.991162),
    (1000, 0.994790),
    (1100, 0.996933),
    (1200, 0.998197),
    (1300, 0.998940),
    (1400, 0.999377),
    (1500, 0.999634),
    (1600, 0.999785),
)
"""(search score with the knight lead added, the mover's chance to win), rising in both:
between two knots the chance is on the straight line between them, beyond the outer ones
it stays at theirs. Fitted by ``python -m bench.bench_review --fit --only bann --games
150``: a logistic curve of the result whose slope may change at 0. It is not symmetric:
a mover whose best move scores 0, knights even, wins about 48 %, as the best of many
scores is optimistic."""
_KNOT_SCORES = tuple(score for score, _ in CHANCE_KNOTS)
KNIGHT_LEAD = 110
"""Points added to a search score per knight the mover has more than his opponent: the
search's own knight worth undervalues a lead in knights. Fitted with ``CHANCE_KNOTS``."""


def knight_lead(state: BannState) -> int:
    """How many knights the mover has more than his opponent."""
    seat = state.turn
    return len(knight_squares(state.board, seat)) - len(knight_squares(state.board, 1 - seat))


def chance(score: int, lead: int) -> float:
    """The mover's chance to win for a search score from his side, when he leads by
    ``lead`` knights (behind: below 0) in the position judged."""
    if score > WIN // 2:
        return 1.0
    if score < -WIN // 2:
        return 0.0
    score += KNIGHT_LEAD * lead
    above = bisect.bisect_right(_KNOT_SCORES, score)
    if above == 0:
        return CHANCE_KNOTS[0][1]
    if above == len(CHANCE_KNOTS):
        return CHANCE_KNOTS[-1][1]
    (low, low_chance), (high, high_chance) = CHANCE_KNOTS[above - 1], CHANCE_KNOTS[above]
    return low_chance + (high_chance - low_chance) * (score - low) / (high - low)


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
        lead = knight_lead(state)
        values = {move.action: chance(score, lead) for move, score in scores.items()}
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
        starter_value = chance(max(scores.values()), knight_lead(start))
        return [LuckEvent(0, start.turn, starter_value - 0.5)]


REVIEWER = BannReviewer()
