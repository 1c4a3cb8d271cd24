"""Game review benchmark (issue 30): is the review calibrated, does it tell strong play
from weak, is its luck unbiased, what does it cost, is it deterministic?

    python -m bench.bench_review [--games N] [--only bann,gulbara] [--jobs N] [--fit]
        [--first-seed N]

Per game (one function each, ``bench_<game>``), over ``--games`` games between computer
players (a third each easy, normal and hard against the same level; Barbu four seats
over one series of 7 deals, Barree three seats over one round):

- calibration: the mover's predicted chance to win after the best play found, in tenths,
  against how often the mover won (within 5 points per tenth); for Barbu and Barree the
  predicted points (Barbu: the mover's deal score; Barree: the rivals' average minus
  points less the mover's at the round's end) against the points scored, by ranges of
  the prediction, with the mean error and its spread;
- error rate per level (easy > normal > hard) and the share of hard's decisions marked
  mistake or blunder (≤ 5 %);
- planted blunders: a play the hard player judges far worse, in a game still open, put
  in place of the played one at up to four decisions of each game, marked mistake or
  blunder (≥ 90 %); Barbu's and Barree's plants are confirmed far worse than the play
  they replace by a larger valuation from other seeds before they are planted, Gul
  Bara's by a valuation two rolls deeper than the review's;
- seed agreement (Barbu, Barree): decisions judged again from other seeds, how far the
  value lost moves and whether the heavy marks agree;
- luck: each seat's total per game, mean with a 95 % interval (≈ 0), and how often the
  luck-adjusted result moves a lucky winner's margin toward zero;
- cost: per game decisions, CPU seconds (≤ 30 s) and p95 per decision (Barbu also a whole
  game of four series, 28 deals; Barree also two and four players);
- determinism: the same game reviewed twice gives byte-identical JSON.

``--fit`` instead refits the value curves (Gul Bara's logistic weights, Bann's chance
table) on other games of the computer players and prints them for the reviewers.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing import Pool
from typing import TYPE_CHECKING, Any

from bench.common import baseline_ms, percentile
from games import GAMES
from games.base import LEVELS, Step
from games.proof import GameFacts, computer_seed, walk
from games.review import review_game, reviewer
from games.review.__main__ import as_json
from games.review.model import DecisionPoint, Judgement, Review

if TYPE_CHECKING:
    from games.gulbara.review import Turn

FIT_SEEDS = 1_000_000
"""Games for ``--fit`` start at this seed, far from the benchmark's own."""
PLANTS_PER_GAME = 4
JOBS = [1]
"""Processes that play and review the games (``--jobs``)."""
FIRST_SEED = [0]
"""The benchmark's first game's seed (``--first-seed``): a later one measures on games
no earlier run saw."""


@dataclass
class Reviewed:
    facts: GameFacts
    actions: list[tuple[int | None, str]]
    levels: tuple[str, ...]
    review: Review
    seconds: float
    per_decision: list[float] = field(default_factory=list)


def computer_game(
    kind: str, seed: int, levels: Sequence[str], options: dict[str, Any] | None = None
) -> tuple[GameFacts, list[tuple[int | None, str]]]:
    """A game between computer players at ``levels`` (one per seat)."""
    spec = GAMES[kind]
    options = options or {}
    facts = GameFacts(
        kind, seed, 1, 1, seed, options, [f"{level} {n}" for n, level in enumerate(levels)]
    )
    state = spec.new_game(players=len(levels), seed=seed, **options)
    actions: list[tuple[int | None, str]] = []
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        action = spec.bot_action(state, seed=computer_seed(seed, len(actions)), level=levels[seat])
        actions.append((seat, action))
        state = state.apply(action)
    return facts, actions


class DecisionTimer:
    """CPU seconds per judged decision, from ``review_game``'s progress calls (the first
    includes the replay of the log)."""

    def __init__(self) -> None:
        self.times: list[float] = []
        self.last = time.process_time()

    def progress(self, _done: int, _total: int) -> None:
        now = time.process_time()
        self.times.append(now - self.last)
        self.last = now


def reviewed_games(
    kind: str,
    games: int,
    players: int = 2,
    options: dict[str, Any] | None = None,
) -> list[Reviewed]:
    """``games`` computer games from seed ``FIRST_SEED[0]`` on, each level against itself
    in turn, each reviewed (in ``JOBS[0]`` processes; CPU times are each process's own)."""
    work = [
        (kind, FIRST_SEED[0] + number, (LEVELS[number % len(LEVELS)],) * players, options)
        for number in range(games)
    ]
    if JOBS[0] == 1:
        return [played_and_reviewed(*item) for item in work]
    with Pool(JOBS[0]) as pool:
        return pool.starmap(played_and_reviewed, work, chunksize=1)


def played_and_reviewed(
    kind: str, seed: int, levels: tuple[str, ...], options: dict[str, Any] | None
) -> Reviewed:
    facts, actions = computer_game(kind, seed, levels, options)
    return reviewed(facts, actions, levels)


def reviewed(
    facts: GameFacts, actions: list[tuple[int | None, str]], levels: tuple[str, ...]
) -> Reviewed:
    timer = DecisionTimer()
    start = time.process_time()
    review = review_game(facts, actions, timer.progress)
    return Reviewed(facts, actions, levels, review, time.process_time() - start, timer.times)


def calibration(runs: Sequence[Reviewed]) -> None:
    """Predicted chance to win (after the best play found) per tenth against the wins.
    The ± counts each game once: its positions share one outcome, so they are not
    independent (a cluster-robust interval over the games)."""
    bins: list[list[float]] = [[] for _ in range(10)]
    outcomes: list[dict[int, list[float]]] = [{} for _ in range(10)]
    for number, run in enumerate(runs):
        for judgement in run.review.judgements:
            tenth = min(9, int(judgement.value_best * 10))
            bins[tenth].append(judgement.value_best)
            result = run.review.seats[judgement.seat].result
            outcomes[tenth].setdefault(number, []).append(result)
    total = sum(len(values) for values in bins)
    print(f"  calibration over {total} positions (predicted vs won, percent):")
    worst = 0.0
    for tenth, (values, by_game) in enumerate(zip(bins, outcomes, strict=True)):
        if not values:
            print(f"    {tenth * 10:3d}-{tenth * 10 + 10:3d} %: n=0")
            continue
        predicted = 100 * statistics.fmean(values)
        share = statistics.fmean(result for results in by_game.values() for result in results)
        spread = sum(sum(r - share for r in results) ** 2 for results in by_game.values())
        margin = 196 * math.sqrt(spread) / len(values)
        won = 100 * share
        worst = max(worst, abs(predicted - won))
        print(
            f"    {tenth * 10:3d}-{tenth * 10 + 10:3d} %: n={len(values):5d}"
            f" games={len(by_game):4d} predicted {predicted:5.1f} won {won:5.1f} (±{margin:.1f})"
            f" diff {won - predicted:+5.1f}"
        )
    print(f"  largest difference: {worst:.1f} points (target ≤ 5)")


Cluster = Callable[[Reviewed, Judgement], object]
"""Which decisions share a fate (a game, a deal): their losses are not independent."""


def by_game(run: Reviewed, _judgement: Judgement) -> object:
    return run.facts.seed


def error_rates(runs: Sequence[Reviewed], cluster: Cluster = by_game) -> None:
    """Each level's mean loss per decision, with a 95 % interval that counts each cluster
    of decisions once (a cluster-robust interval of the ratio of sums)."""
    print("  error rate per level (mean loss per decision ± 95 %, marks per 100 decisions):")
    for level in LEVELS:
        losses: dict[object, list[float]] = {}
        heavy = marked = 0
        for run in runs:
            for judgement in run.review.judgements:
                if run.levels[judgement.seat] != level:
                    continue
                losses.setdefault(cluster(run, judgement), []).append(judgement.loss)
                marked += judgement.mark is not None
                heavy += judgement.mark in ("mistake", "blunder")
        decisions = sum(len(group) for group in losses.values())
        if not decisions:
            continue
        rate = sum(sum(group) for group in losses.values()) / decisions
        spread = sum(sum(loss - rate for loss in group) ** 2 for group in losses.values())
        margin = 1.96 * math.sqrt(spread) / decisions
        print(
            f"    {level:6s}: decisions {decisions:5d} in {len(losses):4d} clusters"
            f" error rate {rate:.4f} ± {margin:.4f} marked {100 * marked / decisions:5.1f}"
            f" mistake+blunder {100 * heavy / decisions:5.1f} %"
        )


Plant = Callable[[DecisionPoint, random.Random], str | None]
"""A play the hard player judges far worse than the best at a decision, or None."""


def planted_blunders(
    kind: str, runs: Sequence[Reviewed], plant: Plant, per_game: int = PLANTS_PER_GAME
) -> None:
    judge = reviewer(kind)
    chooser = random.Random(f"plant/{kind}")
    heavy = total = 0
    for run in runs:
        steps = [item for item in walk(run.facts, run.actions) if isinstance(item, Step)]
        planted = 0
        for point in judge.decisions(run.facts, steps):
            if planted >= per_game:
                break
            play = plant(point, chooser)
            if play is None:
                continue
            fake = tuple(
                Step(point.index, point.seat, action, point.before, point.before, ())
                for action in play.split()
            )
            judgement = judge.judge(
                run.facts, DecisionPoint(point.index, point.seat, fake, point.before)
            )
            total += 1
            planted += 1
            heavy += judgement.mark in ("mistake", "blunder")
    share = 100 * heavy / total if total else 0.0
    print(
        f"  planted blunders marked mistake or blunder: {heavy} of {total} = {share:.1f} %"
        " (target ≥ 90)"
    )


AGREEMENT_EVERY = 6
"""Every this many decisions of a game is judged a second time for ``seed_agreement``."""
OTHER_SEEDS = 7_919
"""Added to a record's seed for the second judgement: other worlds, other playout dice."""


def seed_agreement(kind: str, runs: Sequence[Reviewed]) -> None:
    """The review's own noise: decisions judged again from other seeds (other worlds and
    playouts, the same budgets), how far the value lost moves and how often the heavy
    marks (mistake, blunder) agree."""
    judge = reviewer(kind)
    heavy = ("mistake", "blunder")
    moved: list[float] = []
    same_heavy = either_heavy = both_heavy = 0
    for run in runs:
        steps = [item for item in walk(run.facts, run.actions) if isinstance(item, Step)]
        other = dataclasses.replace(run.facts, seed=run.facts.seed + OTHER_SEEDS)
        first = {judgement.index: judgement for judgement in run.review.judgements}
        for point in judge.decisions(run.facts, steps)[::AGREEMENT_EVERY]:
            one, two = first[point.index], judge.judge(other, point)
            moved.append(abs(one.loss - two.loss))
            same_heavy += (one.mark in heavy) == (two.mark in heavy)
            either_heavy += one.mark in heavy or two.mark in heavy
            both_heavy += one.mark in heavy and two.mark in heavy
    print(
        f"  the same {len(moved)} decisions judged from other seeds: value lost moves by"
        f" {statistics.fmean(moved):.3f} on average (p90 {percentile(moved, 0.9):.3f});"
        f" mistake-or-worse agrees in {100 * same_heavy / len(moved):.1f} %,"
        f" and {both_heavy} of the {either_heavy} marked so by either are marked so by both"
    )


def luck(runs: Sequence[Reviewed]) -> None:
    seats = len(runs[0].facts.seats)
    for seat in range(seats):
        totals = [run.review.seats[seat].luck for run in runs]
        mean = statistics.fmean(totals)
        spread = 1.96 * statistics.stdev(totals) / math.sqrt(len(totals)) if len(totals) > 1 else 0
        print(
            f"  luck of seat {seat}: mean {mean:+.4f} ± {spread:.4f} (95 %)"
            f" over {len(totals)} games"
        )
    toward = lucky = 0
    for run in runs:
        results = [summary.result for summary in run.review.seats]
        winner = max(range(seats), key=lambda seat: results[seat])
        if results.count(results[winner]) > 1 or run.review.seats[winner].luck <= 0:
            continue
        lucky += 1
        margin = results[winner] - max(r for s, r in enumerate(results) if s != winner)
        adjusted = [summary.luck_adjusted for summary in run.review.seats]
        adjusted_margin = adjusted[winner] - max(a for s, a in enumerate(adjusted) if s != winner)
        toward += abs(adjusted_margin) < abs(margin)
    print(f"  lucky winners whose luck-adjusted margin is nearer zero: {toward} of {lucky}")


def cost(runs: Sequence[Reviewed], baseline: float) -> None:
    seconds = [run.seconds for run in runs]
    decisions = [len(run.review.judgements) for run in runs]
    per_decision = [value for run in runs for value in run.per_decision]
    print(
        f"  cost per game: decisions median {statistics.median(decisions):.0f}"
        f" max {max(decisions)},"
        f" CPU s median {statistics.median(seconds):.2f} max {max(seconds):.2f} (target ≤ 30),"
        f" per decision p95 {1000 * percentile(per_decision, 0.95):.1f} ms"
        f" max {1000 * max(per_decision):.1f} ms; baseline workload {baseline:.2f} ms"
    )


def determinism(runs: Sequence[Reviewed]) -> None:
    run = runs[0]
    again = review_game(run.facts, run.actions)
    same = again.to_json() == run.review.to_json() and as_json(again) == as_json(run.review)
    print(f"  determinism: the same game reviewed twice gives identical JSON: {same}")


def bench_win_game(kind: str, games: int, plant: Plant, baseline: float) -> None:
    print(f"{GAMES[kind].title}: {games} computer games")
    runs = reviewed_games(kind, games)
    calibration(runs)
    error_rates(runs)
    planted_blunders(kind, runs, plant)
    luck(runs)
    cost(runs, baseline)
    determinism(runs)


# --- Gul Bara ------------------------------------------------------------------------

GULBARA_PLANT_GAP = 40.0
"""Pips of the computer's evaluation by which a planted play is worse than its best one
(about five rolls' worth)..."""
GULBARA_CONFIRM_GAP = 0.20
"""...and that loses at least this chance to win against the play played when both are
valued two rolls deeper than the review values them (``two_ply_value``): a blunder by a
deeper valuation, not only by the evaluation's pips (the blunder threshold, as Barree's
plants; one and a half times it, as Barbu's, only 8 of the 141 40-pip plays of the 45
games reach in a race without hitting)."""
OPEN_GAME = (0.1, 0.9)
"""A game still open: the best play's chance to win between these. In a decided game no
play is far worse in chances, however many pips it wastes."""


def plant_gulbara(point: DecisionPoint, chooser: random.Random) -> str | None:
    """The play the computer's evaluation finds worst, when it is ``GULBARA_PLANT_GAP``
    pips below its best, the game is still open and ``two_ply_value`` confirms it
    ``GULBARA_CONFIRM_GAP`` worse than the play played."""
    from games.gulbara import review as gulbara_review
    from games.gulbara.board import HEAD_RULES, perspective
    from games.gulbara.computer import evaluate
    from games.gulbara.state import GulbaraState

    state = point.before
    assert isinstance(state, GulbaraState)
    mine, theirs = perspective(state.board, state.off, state.turn)
    turn = gulbara_review.turn_of(state, state.turn)
    chain = state.chain_to_come()
    plays, values = gulbara_review.best_play(mine, theirs, state.dice, turn, chain)
    if not OPEN_GAME[0] <= max(values.values()) <= OPEN_GAME[1]:
        return None
    freed_at = HEAD_RULES[state.head_rule]
    scored = sorted((evaluate(list(end), theirs, freed_at), path) for end, path in plays.items())
    (worst, path), best = scored[0], scored[-1][0]
    if worst > best - GULBARA_PLANT_GAP:
        return None
    played = gulbara_review.played_end(mine, [step.action for step in point.steps])
    planted = gulbara_review.played_end(mine, path)
    full = len(path) == len(state.dice)
    rest = chain if full else []
    gap = two_ply_value(played, theirs, turn, rest) - two_ply_value(planted, theirs, turn, rest)
    return " ".join(path) if gap >= GULBARA_CONFIRM_GAP else None


def two_ply_value(end: list[int], theirs: list[int], turn: Turn, chain: Sequence[int]) -> float:
    """The mover's chance to win after a stage ending in ``end``, two rolls deeper than
    the review's 1-ply: the rest of the mover's escalation chain (``chain``), then each
    of the opponent's 21 rolls played out at its best by the review's 0-ply values (its
    doubles escalating), and the mover's position after each valued by the average over
    its own 21 rolls, each played at its best (``roll_value``)."""
    from games.gulbara import review as gulbara_review
    from games.gulbara.board import CHECKERS

    mine = played_out(end, theirs, turn, [(double,) * 4 for double in chain])
    if mine[0] == CHECKERS:
        mover = gulbara_review.mover_of(mine, theirs, turn.freed_at)
        return gulbara_review.after_stage_value(mover, mine, theirs, turn, None)
    their_side, our_side = gulbara_review.flipped(mine, theirs)
    other = turn.turned()
    rolled = dataclasses.replace(other, own_rolls=other.own_rolls + 1)
    total = 0.0
    for their_roll in gulbara_review.ROLLS:
        dice, chain_to_come = gulbara_review.roll_dice(their_roll, rolled)
        stages = [dice, *((double,) * 4 for double in chain_to_come)]
        answered = played_out(their_side, our_side, rolled, stages)
        if answered[0] == CHECKERS:
            answer = gulbara_review.mover_of(answered, our_side, turn.freed_at)
            value = 1 - gulbara_review.after_stage_value(answer, answered, our_side, rolled, None)
        else:
            ours, their_end = gulbara_review.flipped(answered, our_side)
            value = sum(
                gulbara_review.roll_weight(roll)
                * gulbara_review.roll_value(ours, their_end, roll, rolled.turned())
                for roll in gulbara_review.ROLLS
            )
        total += gulbara_review.roll_weight(their_roll) * value
    return total


def played_out(
    mine: list[int], theirs: list[int], turn: Turn, stages: Sequence[tuple[int, ...]]
) -> list[int]:
    """``mine`` after the dice of each of ``stages`` in turn, while every stage is played
    in full (an escalation chain ends at a double not played four times), each at its
    best by the review's 0-ply values (the doubles still to come credited as the review
    does)."""
    from games.gulbara import review as gulbara_review
    from games.gulbara.board import CHECKERS

    board = list(mine)
    for number, stage in enumerate(stages):
        following = [stage_dice[0] for stage_dice in stages[number + 1 :]]
        _plays, values = gulbara_review.best_play(board, theirs, stage, turn, following)
        mover = gulbara_review.mover_of(board, theirs, turn.freed_at)
        full = mover.longest(list(board), stage, {}) == len(stage)
        if values:
            board = list(max(values, key=values.__getitem__))
        if not full or board[0] == CHECKERS:
            break
    return board


def bench_gulbara(games: int, baseline: float) -> None:
    bench_win_game("gulbara", games, plant_gulbara, baseline)


# --- Bann ----------------------------------------------------------------------------

BANN_PLANT_GAP = 300
"""Search points by which a planted move is worse than the best: three knights, or a lost
game against a won one; the planted move must also leave the game open (a score of at most
``BANN_PLANT_GAP``), as walking past a castle win into an even game does."""


def plant_bann(point: DecisionPoint, chooser: random.Random) -> str | None:
    """A move the hard player's search (two plies, every move exactly) finds far worse
    than its best, leaving the game open."""
    from games.bann.board import legal_moves
    from games.bann.computer import NODE_LIMITS, Search, search_depth
    from games.bann.state import BannState

    state = point.before
    assert isinstance(state, BannState)
    moves = list(legal_moves(state.board, state.dice, state.turn))
    scores: dict[Any, int] = {}
    search = Search(state, NODE_LIMITS["hard"] * 100)
    search_depth(search, state, moves, 2, scores, full_window=True)
    best = max(scores.values())
    ceiling = min(best - BANN_PLANT_GAP, BANN_PLANT_GAP)
    far = [move.action for move in moves if scores[move] <= ceiling]
    return chooser.choice(far) if far else None


def bench_bann(games: int, baseline: float) -> None:
    bench_win_game("bann", games, plant_bann, baseline)


# --- games valued in points: Barbu and Barree ------------------------------------------

Scored = Callable[[Sequence[Step], Judgement], tuple[float, float]]
"""A judged decision's prediction of the mover's points and what he then scored, from
the game's steps."""


def points_calibration(runs: Sequence[Reviewed], scored: Scored, edges: Sequence[float]) -> None:
    """Predicted points against the points scored, by ranges of the prediction, with the
    mean error and its spread."""
    pairs: list[tuple[float, float]] = []
    for run in runs:
        steps = [item for item in walk(run.facts, run.actions) if isinstance(item, Step)]
        pairs.extend(scored(steps, judgement) for judgement in run.review.judgements)
    print(f"  calibration over {len(pairs)} positions (predicted vs scored points):")
    bounds = [-math.inf, *edges, math.inf]
    for low, high in itertools.pairwise(bounds):
        inside = [(p, s) for p, s in pairs if low <= p < high]
        if inside:
            predicted = statistics.fmean(p for p, _ in inside)
            got = statistics.fmean(s for _, s in inside)
            print(
                f"    [{low:6.1f}, {high:6.1f}): n={len(inside):5d} predicted {predicted:7.2f}"
                f" scored {got:7.2f} diff {got - predicted:+6.2f}"
            )
    errors = [p - s for p, s in pairs]
    half = 1.96 * statistics.stdev(errors) / math.sqrt(len(errors))
    print(
        f"  mean error (predicted - scored) {statistics.fmean(errors):+.2f} ± {half:.2f} (95 %),"
        f" spread (sd) {statistics.stdev(errors):.2f},"
        f" mean absolute {statistics.fmean(abs(e) for e in errors):.2f}"
    )


BARBU_PLANT_GAP = 16.0
"""A planted blunder: a card the hard computer's own playouts rate this many points of the
deal below its choice..."""
BARBU_CONFIRM_WORLDS = 128
BARBU_CONFIRM_GAP = 24.0
"""...and that this many fresh worlds of the review's careful playouts (four times its
verifying budget, other seeds) confirm loses at least this much against the card the
hard player played: one and a half times the blunder threshold, so that the plant is a
blunder by the review's own valuation, not by one lucky set of playouts."""
BARBU_GAMES_OPTIONS = {"series": 1}
"""The benchmark's games are one declarer series (7 deals) each; the cost is measured on
a whole game of four series as well."""
BARBU_EDGES = (-40.0, -20.0, -10.0, -5.0, 0.0, 5.0, 10.0, 20.0, 40.0)
BARBU_LUCK_DEALS = 200
BARBU_PLANTS_PER_GAME = 20
"""A game of one series has about 280 decisions: room for more plants than elsewhere."""


def plant_barbu(point: DecisionPoint, chooser: random.Random) -> str | None:
    """A card the hard computer rates far below its choice, confirmed far worse than the
    card played by a larger, independent valuation."""
    from games.barbu.computer import decide
    from games.barbu.review import action_values
    from games.barbu.state import BarbuState

    state = point.before
    assert isinstance(state, BarbuState)
    if state.phase != "play":
        return None
    view = state.view(point.seat)
    decision = decide(view, chooser.getrandbits(32), "hard")
    by_action = decision.by_action
    best = by_action[decision.action]
    far = [action for action, value in by_action.items() if value <= best - BARBU_PLANT_GAP]
    played = point.steps[0].action
    far = [action for action in far if action != played]
    if not far:
        return None
    confirming = random.Random(f"plant confirm {chooser.getrandbits(64)}")
    values = action_values(view, [played, *far], BARBU_CONFIRM_WORLDS, confirming)
    confirmed = [action for action in far if values[action] <= values[played] - BARBU_CONFIRM_GAP]
    return chooser.choice(confirmed) if confirmed else None


def barbu_scored(steps: Sequence[Step], judgement: Judgement) -> tuple[float, float]:
    """The deal score a judgement predicts (a contract's par added back) and the score."""
    from games.barbu.computer import contract_par
    from games.barbu.state import BarbuState

    final, before = steps[-1].after, steps[judgement.index - 1].before
    assert isinstance(final, BarbuState) and isinstance(before, BarbuState)
    predicted = judgement.value_played
    if before.phase == "contract":
        predicted += contract_par(judgement.played)
    return predicted, final.history[before.deal_number]["scores"][judgement.seat]


def barbu_deal_luck(deals: int) -> None:
    """Each seat's luck over many first deals (nothing played), counted from declarer."""
    from games.barbu import new_game
    from games.barbu.review import REVIEWER

    by_seat: list[list[float]] = [[], [], [], []]
    for number in range(deals):
        state = new_game(seed=FIT_SEEDS + number, series=1)
        facts = GameFacts("barbu", number, 1, 1, FIT_SEEDS + number, {}, ["a", "b", "c", "d"])
        step = Step(1, state.declarer, state.legal_actions()[0], state, state, ())
        for event in REVIEWER.luck(facts, [step]):
            by_seat[(event.seat - state.declarer) % 4].append(event.luck)
    print(f"  luck of {deals} first deals, by seat counted from declarer:")
    for offset, values in enumerate(by_seat):
        half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
        print(
            f"    declarer+{offset}: mean {statistics.fmean(values):+.2f} ± {half:.2f} (95 %),"
            f" sd {statistics.stdev(values):.1f}"
        )


def barbu_deals(runs: Sequence[Reviewed]) -> Cluster:
    """Decisions clustered by deal: a game of one series holds seven deals, each played
    from fresh hands, so a level's error rate over a few games still has many clusters."""
    from games.barbu.state import BarbuState

    deal_of: dict[tuple[int, int], int] = {}
    for run in runs:
        steps = [item for item in walk(run.facts, run.actions) if isinstance(item, Step)]
        for judgement in run.review.judgements:
            before = steps[judgement.index - 1].before
            assert isinstance(before, BarbuState)
            deal_of[run.facts.seed, judgement.index] = before.deal_number
    return lambda run, judgement: (run.facts.seed, deal_of[run.facts.seed, judgement.index])


def bench_barbu(games: int, baseline: float) -> None:
    print(f"Barbu: {games} computer games of one series (7 deals)")
    runs = reviewed_games("barbu", games, players=4, options=dict(BARBU_GAMES_OPTIONS))
    points_calibration(runs, barbu_scored, BARBU_EDGES)
    error_rates(runs, barbu_deals(runs))
    hard = [run for run in runs if run.levels[0] == "hard"]
    planted_blunders("barbu", hard, plant_barbu, BARBU_PLANTS_PER_GAME)
    seed_agreement("barbu", runs)
    luck(runs)
    barbu_deal_luck(BARBU_LUCK_DEALS)
    cost(runs, baseline)
    whole = computer_game("barbu", FIT_SEEDS - 1, ("normal",) * 4)
    print("  a whole game of four series (28 deals) between normal computers:")
    cost([reviewed(*whole, ("normal",) * 4)], baseline)
    determinism(runs)


BARREE_PLANT_GAP = 6.0
BARREE_PLANT_CARDS = 1
"""A planted blunder: a walk the hard computer's route plan rates this many steps below
its best one, shedding at least this many cards fewer than the roll allows..."""
BARREE_CONFIRM_WORLDS = 192
BARREE_CONFIRM_GAP = 2.0
"""...and that this many fresh worlds of the review's playouts (four times its verifying
budget, other seeds) confirm loses at least the blunder threshold against the turn
played, twice what a mistake needs: a walk made good a turn later is not planted."""
BARREE_PLANTS_PER_GAME = 8
"""Plants are sought in every game, not only the hard players': few walks pass the
confirmation, and it measures the plant against the turn played, however good."""
BARREE_PLAYERS = 3
BARREE_EDGES = (-4.0, -2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 4.0)


def plant_barree(point: DecisionPoint, chooser: random.Random) -> str | None:
    """A walk the hard plan rates far below its best, shedding fewer cards than the roll
    allows, confirmed far worse than the turn played by a larger, independent
    valuation."""
    from games.barree.plan import walk_values
    from games.barree.review import turn_values
    from games.barree.state import PHASE_MOVE, BarreeState, walk_options

    state = point.before
    assert isinstance(state, BarreeState)
    if state.phase != PHASE_MOVE:
        return None
    options = walk_options(state)
    values = walk_values(state, options)
    most = max(len(option.discards) for option in options)
    far = [
        option.action
        for option, value in zip(options, values, strict=True)
        if value <= max(values) - BARREE_PLANT_GAP
        and len(option.discards) <= most - BARREE_PLANT_CARDS
    ]
    if not far:
        return None
    walk = chooser.choice(far)
    played = tuple(step.action for step in point.steps)
    confirming = random.Random(f"plant confirm {chooser.getrandbits(64)}")
    found = turn_values(state, [played, (walk,)], BARREE_CONFIRM_WORLDS, confirming)
    return walk if found[(walk,)] <= found[played] - BARREE_CONFIRM_GAP else None


def barree_scored(steps: Sequence[Step], judgement: Judgement) -> tuple[float, float]:
    """The value a judgement predicts (the rivals' average minus points less the mover's
    at the round's end) and what it came to."""
    from games.barree.state import BarreeState

    before = steps[judgement.index - 1].before
    final = steps[-1].after
    assert isinstance(before, BarreeState) and isinstance(final, BarreeState)
    minus = final.round_minus[before.round_no - 1]
    rivals = [points for seat, points in enumerate(minus) if seat != judgement.seat]
    return judgement.value_played, sum(rivals) / len(rivals) - minus[judgement.seat]


def bench_barree(games: int, baseline: float) -> None:
    print(f"Barree: {games} computer games of one round, {BARREE_PLAYERS} players")
    runs = reviewed_games("barree", games, players=BARREE_PLAYERS)
    points_calibration(runs, barree_scored, BARREE_EDGES)
    error_rates(runs)
    planted_blunders("barree", runs, plant_barree, BARREE_PLANTS_PER_GAME)
    seed_agreement("barree", runs)
    luck(runs)
    cost(runs, baseline)
    for players in (2, 4):
        other = computer_game("barree", FIT_SEEDS + players, ("normal",) * players)
        print(f"  a game of {players} normal computers:")
        cost([reviewed(*other, ("normal",) * players)], baseline)
    determinism(runs)


# --- fitting the value curves ----------------------------------------------------------


def logistic_fit(rows: Sequence[tuple[Sequence[float], float]]) -> list[float]:
    """Maximum-likelihood weights of a logistic regression (Newton's method)."""
    size = len(rows[0][0])
    weights = [0.0] * size
    for _ in range(30):
        gradient = [0.0] * size
        hessian = [[0.0] * size for _ in range(size)]
        for features, outcome in rows:
            logit = sum(w * x for w, x in zip(weights, features, strict=True))
            chance = 1 / (1 + math.exp(-max(-30.0, min(30.0, logit))))
            for i in range(size):
                gradient[i] += (outcome - chance) * features[i]
                for j in range(size):
                    hessian[i][j] += chance * (1 - chance) * features[i] * features[j]
        step = _solve(hessian, gradient)
        weights = [w + s for w, s in zip(weights, step, strict=True)]
        if max(abs(s) for s in step) < 1e-8:
            break
    return weights


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    size = len(vector)
    rows = [[*matrix[i], vector[i]] for i in range(size)]
    for column in range(size):
        pivot = max(range(column, size), key=lambda row: abs(rows[row][column]))
        rows[column], rows[pivot] = rows[pivot], rows[column]
        for row in range(size):
            if row != column:
                factor = rows[row][column] / rows[column][column]
                for k in range(column, size + 1):
                    rows[row][k] -= factor * rows[column][k]
    return [rows[i][size] / rows[i][i] for i in range(size)]


def fit_gulbara(games: int) -> None:
    """Gul Bara's weights: at each decision the review judges, the position its best play
    leaves (the value the review reports), against whether the mover won. Fitting on the
    positions before the roll instead rates the best of many plays too high."""
    from games.gulbara import review as gulbara_review
    from games.gulbara.board import CHECKERS, perspective
    from games.gulbara.state import GulbaraState

    rows: list[tuple[list[float], float]] = []
    gammons = 0
    judge = reviewer("gulbara")
    for number in range(games):
        level = LEVELS[number % len(LEVELS)]
        facts, actions = computer_game("gulbara", FIT_SEEDS + number, (level, level))
        steps = [item for item in walk(facts, actions) if isinstance(item, Step)]
        final = steps[-1].after
        assert isinstance(final, GulbaraState)
        gammons += max(final.score) == 2
        for point in judge.decisions(facts, steps):
            state = point.before
            assert isinstance(state, GulbaraState)
            mine, theirs = perspective(state.board, state.off, state.turn)
            turn = gulbara_review.turn_of(state, state.turn)
            chain = state.chain_to_come()
            _plays, values = gulbara_review.best_play(mine, theirs, state.dice, turn, chain)
            best_end: bytes = max(values, key=values.__getitem__)
            best = list(best_end)
            if best[0] == CHECKERS:
                continue
            mover = gulbara_review.mover_of(mine, theirs, turn.freed_at)
            full = mover.longest(list(mine), state.dice, {}) == len(state.dice)
            credit = gulbara_review.chain_credit(mover, best, chain[0] if chain and full else None)
            their_side, our_side = gulbara_review.flipped(best, theirs)
            features = gulbara_review.chance_features(their_side, our_side, turn.turned(), -credit)
            rows.append((list(features), float(final.winner != point.seat)))
    weights = logistic_fit(rows)
    print(
        f"gulbara: {len(rows)} positions of {games} games;"
        f" WEIGHTS = {tuple(round(w, 4) for w in weights)}"
    )
    print(
        f"gulbara: won double in {gammons} of {games} games = {gammons / games:.2f} (GAMMON_SHARE)"
    )


def fit_bann(games: int) -> None:
    """Bann's chance table: the best move's search score of each decision against the
    mover's result (a draw a half), by a logistic regression whose slope may change at a
    score of 0 (the review's ``chance_features``), printed as its ``CHANCE_WEIGHTS``. The
    mover's curve is not symmetric: a best-of-many score is optimistic, and it is flatter
    above 0 than below. Decided scores (a win or loss found) are left out: the review counts them 1
    or 0."""
    from games.bann import review as bann_review
    from games.bann.computer import WIN
    from games.bann.state import BannState

    rows: list[tuple[Sequence[float], float]] = []
    judge = reviewer("bann")
    for number in range(games):
        level = LEVELS[number % len(LEVELS)]
        facts, actions = computer_game("bann", FIT_SEEDS + number, (level, level))
        steps = [item for item in walk(facts, actions) if isinstance(item, Step)]
        returns = steps[-1].after.returns()
        for point in judge.decisions(facts, steps):
            assert isinstance(point.before, BannState)
            best = max(bann_review.move_scores(point.before).values())
            if abs(best) <= WIN // 2:
                outcome = 0.5 if returns[point.seat] == 0 else float(returns[point.seat] > 0)
                rows.append((bann_review.chance_features(best), outcome))
    weights = logistic_fit(rows)
    print(
        f"bann: {len(rows)} positions of {games} games;"
        f" CHANCE_WEIGHTS = {tuple(round(w, 4) for w in weights)}"
    )


GAMES_BENCHED: dict[str, Callable[[int, float], None]] = {
    "bann": bench_bann,
    "gulbara": bench_gulbara,
    "barbu": bench_barbu,
    "barree": bench_barree,
}
FITS: dict[str, Callable[[int], None]] = {"bann": fit_bann, "gulbara": fit_gulbara}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=60, help="computer games per kind")
    parser.add_argument("--only", default=",".join(GAMES_BENCHED), help="comma-separated game keys")
    parser.add_argument("--fit", action="store_true", help="refit the value curves instead")
    parser.add_argument("--jobs", type=int, default=1, help="processes reviewing the games")
    parser.add_argument("--first-seed", type=int, default=0, help="the first game's seed")
    options = parser.parse_args()
    JOBS[0] = options.jobs
    FIRST_SEED[0] = options.first_seed
    kinds = [kind for kind in options.only.split(",") if kind]
    if options.fit:
        for kind in kinds:
            FITS[kind](options.games)
        return
    baseline = baseline_ms()
    print(f"baseline workload: {baseline:.2f} ms")
    for kind in kinds:
        GAMES_BENCHED[kind](options.games, baseline)


if __name__ == "__main__":
    main()
