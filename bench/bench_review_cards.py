"""How well the Barbu and Barree reviews judge (issue 30): calibration, discrimination,
luck and cost, on games between the computer players.

    python -m bench.bench_review_cards barbu [--games 6] [--series 1] [--cost-series 4]
    python -m bench.bench_review_cards barree [--games 60]

Per game kind it prints:

- calibration: the value a judged decision predicted for the mover (Barbu: his deal
  score, a contract's par added back; Barree: minus his minus points at the round's
  end) against what he then scored, by tenths of the predictions, with the mean error
  and its spread;
- error rates per level (easy, normal and hard seats at the same tables): the mean value
  lost per decision and the share of each mark;
- planted blunders: at a hard seat's decision, the action the hard computer judged far
  worse than its own choice, and how often the review marks it a mistake or blunder;
- luck: each seat's total per game, its mean with a 95% confidence interval, and how
  often the luck-adjusted result moves the winner's margin toward zero when the winner
  was the luckier;
- cost per whole game reviewed (decisions, CPU seconds of one core, p95 per decision);
- determinism: the same game reviewed twice gives the same judgements and luck.

The tables are seeded, so a run repeats itself; quote the machine's load (``uptime``)
with the figures.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import statistics
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bench.common import baseline_ms, percentile
from games.barbu import BarbuState
from games.barbu import new_game as new_barbu
from games.barbu.computer import contract_par, decide
from games.barbu.review import REVIEWER as BARBU
from games.barree import BarreeState, walk_options
from games.barree import bot_action as barree_action
from games.barree import new_game as new_barree
from games.barree.plan import walk_values
from games.barree.review import REVIEWER as BARREE
from games.base import GameState, Step
from games.proof import GameFacts, walk
from games.review.model import MARKS, DecisionPoint, GameReviewer, Judgement, LuckEvent

LEVELS = ("easy", "normal", "hard")
SEATINGS = (("easy", "normal", "hard", "hard"), ("hard", "easy", "normal", "normal"))
Z95 = 1.96


@dataclass
class Played:
    """A game between computers: its facts, its steps, each seat's level and the actions
    the hard computer judged far worse than its own choice (move number: action)."""

    facts: GameFacts
    steps: list[Step]
    levels: Sequence[str]
    planted: dict[int, str] = field(default_factory=dict)


@dataclass
class Reviewed:
    judgements: list[Judgement]
    luck: list[LuckEvent]
    cpu_seconds: float
    per_decision: list[float]


def review(reviewer: GameReviewer, played: Played) -> Reviewed:
    started = time.process_time()
    per_decision = []
    judgements = []
    for point in reviewer.decisions(played.facts, played.steps):
        before = time.process_time()
        judgements.append(reviewer.judge(played.facts, point))
        per_decision.append(time.process_time() - before)
    luck = reviewer.luck(played.facts, played.steps)
    return Reviewed(judgements, luck, time.process_time() - started, per_decision)


def steps_of(facts: GameFacts, actions: Sequence[tuple[int | None, str]]) -> list[Step]:
    return [item for item in walk(facts, actions) if isinstance(item, Step)]


# ---- Barbu ----------------------------------------------------------------------------

BARBU_PLANT_MARGIN = 16.0
"""Points below the hard computer's own choice, in its own playouts, that make a card a
planted blunder."""


def play_barbu(seed: int, series: int, levels: Sequence[str]) -> Played:
    options = {"series": series, "discard_king": False, "autoplay": True, "french": False}
    facts = GameFacts("barbu", seed, 1, 1, seed, options, ["a", "b", "c", "d"])
    state = new_barbu(seed=seed, series=series)
    actions: list[tuple[int | None, str]] = []
    planted: dict[int, str] = {}
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        decision = decide(state.view(seat), len(actions), levels[seat])
        if levels[seat] == "hard" and state.phase == "play" and decision.by_action:
            worst = min(decision.by_action, key=lambda action: decision.by_action[action])
            if decision.by_action[decision.action] - decision.by_action[worst] >= (
                BARBU_PLANT_MARGIN
            ):
                planted[len(actions) + 1] = worst
        actions.append((seat, decision.action))
        state = state.apply(decision.action)
    return Played(facts, steps_of(facts, actions), levels, planted)


def barbu_scored(steps: Sequence[Step]) -> dict[int, list[int]]:
    """Each move number's deal scores (of the deal it belongs to)."""
    final = steps[-1].after
    assert isinstance(final, BarbuState)
    scores = {}
    for step in steps:
        state = step.before
        assert isinstance(state, BarbuState)
        if state.deal_number < len(final.history):
            scores[step.number] = final.history[state.deal_number]["scores"]
    return scores


def barbu_prediction(judgement: Judgement, before: GameState) -> float:
    """What the judgement predicts of the mover's deal score."""
    assert isinstance(before, BarbuState)
    if before.phase == "contract":
        return judgement.value_played + contract_par(judgement.played)
    return judgement.value_played


def bench_barbu(games: int, series: int, cost_series: int) -> None:
    print(f"Barbu: {games} games of {series} series between computers, seats {SEATINGS}")
    played = [
        play_barbu(1000 + game, series, SEATINGS[game % len(SEATINGS)]) for game in range(games)
    ]
    reviewed = [review(BARBU, game) for game in played]
    predictions: list[tuple[float, float]] = []
    for game, result in zip(played, reviewed, strict=True):
        scored = barbu_scored(game.steps)
        befores = {step.number: step.before for step in game.steps}
        for judgement in result.judgements:
            if judgement.index in scored:
                predicted = barbu_prediction(judgement, befores[judgement.index])
                predictions.append((predicted, scored[judgement.index][judgement.seat]))
    calibration(predictions, "predicted deal score", BARBU_BUCKETS)
    levels(played, reviewed)
    planted(BARBU, played)
    luck(played, reviewed, lambda game: list(game.steps[-1].after.returns()))
    barbu_deal_luck(200)
    print("cost:")
    cost_game = play_barbu(2000, cost_series, SEATINGS[0])
    cost(BARBU, cost_game, f"{cost_series} series ({7 * cost_series} deals)")
    determinism(BARBU, played[0])


BARBU_BUCKETS = (-40.0, -20.0, -10.0, -5.0, 0.0, 5.0, 10.0, 20.0, 40.0)


def barbu_deal_luck(deals: int) -> None:
    """Each seat's luck over many first deals (no play needed), for its bias."""
    per_seat: dict[int, list[float]] = defaultdict(list)
    for deal in range(deals):
        state = new_barbu(seed=5000 + deal, series=1)
        facts = GameFacts("barbu", deal, 1, 1, 5000 + deal, {}, ["a", "b", "c", "d"])
        step = Step(1, state.current_player, state.legal_actions()[0], state, state, ())
        for event in BARBU.luck(facts, [step]):
            per_seat[(event.seat - state.declarer) % 4].append(event.luck)
    print(f"luck of {deals} first deals (seat counted from declarer):")
    for seat, values in sorted(per_seat.items()):
        print(
            f"  declarer+{seat}: mean {interval(values)} points, sd {statistics.stdev(values):.1f}"
        )


# ---- Barree ---------------------------------------------------------------------------

BARREE_PLANT_STEPS = 6.0
BARREE_PLANT_CARDS = 2
"""A planted blunder: the walk the hard computer's plan rates lowest, when it is this many
route steps below its best and sheds this many cards fewer than the roll allows."""
BARREE_BUCKETS = (-4.0, -2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 4.0)
BARREE_SEATINGS = (
    ("easy", "normal", "hard"),
    ("hard", "easy", "normal"),
    ("normal", "hard", "easy", "hard"),
    ("easy", "hard"),
    ("normal", "hard"),
)


def play_barree(seed: int, levels: Sequence[str]) -> Played:
    names = ["a", "b", "c", "d"][: len(levels)]
    facts = GameFacts("barree", seed, 1, 1, seed, {"rounds": 1}, names)
    state = new_barree(players=len(levels), seed=seed)
    actions: list[tuple[int | None, str]] = []
    planted: dict[int, str] = {}
    while not state.is_over:
        seat = state.current
        if levels[seat] == "hard" and state.phase == "move":
            options = walk_options(state)
            values = walk_values(state, options)
            most = max(len(option.discards) for option in options)
            worst = min(range(len(options)), key=lambda index: values[index])
            walked_past = most - len(options[worst].discards) >= BARREE_PLANT_CARDS
            if walked_past and max(values) - values[worst] >= BARREE_PLANT_STEPS:
                planted[len(actions) + 1] = options[worst].action
        action = barree_action(state, seed=len(actions), level=levels[seat])
        actions.append((seat, action))
        state = state.apply(action)
    return Played(facts, steps_of(facts, actions), levels, planted)


def bench_barree(games: int) -> None:
    print(f"Barree: {games} one-round games between computers, seats {BARREE_SEATINGS}")
    played = [
        play_barree(3000 + game, BARREE_SEATINGS[game % len(BARREE_SEATINGS)])
        for game in range(games)
    ]
    reviewed = [review(BARREE, game) for game in played]
    predictions: list[tuple[float, float]] = []
    for game, result in zip(played, reviewed, strict=True):
        final = game.steps[-1].after
        assert isinstance(final, BarreeState)
        minus = final.round_minus[0]
        for judgement in result.judgements:
            rivals = [points for seat, points in enumerate(minus) if seat != judgement.seat]
            scored = sum(rivals) / len(rivals) - minus[judgement.seat]
            predictions.append((judgement.value_played, scored))
    calibration(predictions, "rivals' average minus points less the mover's", BARREE_BUCKETS)
    levels(played, reviewed)
    planted(BARREE, played)
    luck(played, reviewed, lambda game: list(game.steps[-1].after.returns()))
    print("cost:")
    for players in (2, 3, 4):
        typical = play_barree(4000 + players, ("normal",) * players)
        cost(BARREE, typical, f"{players} players, one round")
    determinism(BARREE, played[0])


# ---- shared tables --------------------------------------------------------------------


def interval(values: Sequence[float]) -> str:
    mean = statistics.fmean(values)
    half = Z95 * statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else 0.0
    return f"{mean:+.2f} ± {half:.2f}"


def calibration(pairs: Sequence[tuple[float, float]], what: str, edges: Sequence[float]) -> None:
    print(f"calibration over {len(pairs)} judged decisions ({what} against scored):")
    print("  bucket            n   predicted   scored   error")
    bounds = [float("-inf"), *edges, float("inf")]
    for low, high in itertools.pairwise(bounds):
        inside = [(p, s) for p, s in pairs if low <= p < high]
        if not inside:
            continue
        predicted = statistics.fmean(p for p, _ in inside)
        scored = statistics.fmean(s for _, s in inside)
        print(
            f"  [{low:>6.1f}, {high:>6.1f}) {len(inside):5d} {predicted:10.2f} {scored:8.2f}"
            f" {predicted - scored:+7.2f}"
        )
    errors = [p - s for p, s in pairs]
    print(
        f"  mean error {statistics.fmean(errors):+.2f} (95% CI {interval(errors)}),"
        f" spread (sd) {statistics.stdev(errors):.2f},"
        f" mean absolute {statistics.fmean(abs(e) for e in errors):.2f}"
    )


def levels(played: Sequence[Played], reviewed: Sequence[Reviewed]) -> None:
    losses: dict[str, list[float]] = defaultdict(list)
    marks: dict[str, Counter[str | None]] = defaultdict(Counter)
    for game, result in zip(played, reviewed, strict=True):
        for judgement in result.judgements:
            level = game.levels[judgement.seat]
            losses[level].append(judgement.loss)
            marks[level][judgement.mark] += 1
    print("error rates per level (mean points lost per decision, share of each mark):")
    for level in LEVELS:
        count = len(losses[level])
        if not count:
            continue
        shares = ", ".join(f"{mark} {100 * marks[level][mark] / count:.1f}%" for mark in MARKS)
        heavy = 100 * (marks[level]["mistake"] + marks[level]["blunder"]) / count
        print(
            f"  {level:6s} n={count:5d} error rate {interval(losses[level])}  {shares}"
            f"  (mistake or blunder {heavy:.1f}%)"
        )


def planted(reviewer: GameReviewer, played: Sequence[Played]) -> None:
    marked = Counter[str | None]()
    for game in played:
        steps = {step.number: step for step in game.steps}
        for number, action in game.planted.items():
            step = steps[number]
            after = step.before.apply(action)
            fake = Step(number, step.seat, action, step.before, after, ())
            assert step.seat is not None
            point = DecisionPoint(number, step.seat, (fake,), step.before)
            marked[reviewer.judge(game.facts, point).mark] += 1
    total = sum(marked.values())
    if not total:
        print("planted blunders: none found")
        return
    heavy = marked["mistake"] + marked["blunder"]
    print(
        f"planted blunders: {total}, marked mistake or blunder {100 * heavy / total:.1f}%"
        f" ({dict(marked)})"
    )


def luck(
    played: Sequence[Played],
    reviewed: Sequence[Reviewed],
    returns: Callable[[Played], list[float]],
) -> None:
    per_seat: dict[int, list[float]] = defaultdict(list)
    luckier_winners = toward_zero = 0
    for game, result in zip(played, reviewed, strict=True):
        totals = [0.0] * len(game.levels)
        for event in result.luck:
            totals[event.seat] += event.luck
        for seat, total in enumerate(totals):
            per_seat[seat].append(total)
        scores = returns(game)
        order = sorted(range(len(scores)), key=lambda seat: -scores[seat])
        winner, second = order[0], order[1]
        if totals[winner] > totals[second]:
            luckier_winners += 1
            margin = scores[winner] - scores[second]
            adjusted = margin - (totals[winner] - totals[second])
            toward_zero += abs(adjusted) < margin
    print("luck per game (each seat's total, mean with 95% CI):")
    for seat, values in sorted(per_seat.items()):
        print(f"  seat {seat}: {interval(values)} over {len(values)} games")
    print(
        f"  the winner was the luckier of the first two in {luckier_winners} games; the"
        f" luck-adjusted result moved his margin toward zero in {toward_zero}"
    )


def cost(reviewer: GameReviewer, game: Played, what: str) -> None:
    result = review(reviewer, game)
    per_decision = [1000 * seconds for seconds in result.per_decision]
    print(
        f"  {what}: {len(per_decision)} decisions, {result.cpu_seconds:.1f} CPU s in all"
        f" (luck included), p95 per decision {percentile(per_decision, 0.95):.0f} ms,"
        f" max {max(per_decision):.0f} ms"
    )


def determinism(reviewer: GameReviewer, game: Played) -> None:
    def dump(result: Reviewed) -> str:
        return json.dumps(
            [[vars(j) for j in result.judgements], [vars(e) for e in result.luck]],
            sort_keys=True,
        )

    same = dump(review(reviewer, game)) == dump(review(reviewer, game))
    print(f"determinism: the same game reviewed twice gives the same review: {same}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=("barbu", "barree"))
    parser.add_argument("--games", type=int)
    parser.add_argument("--series", type=int, default=1)
    parser.add_argument("--cost-series", type=int, default=4)
    arguments = parser.parse_args()
    print(f"baseline workload: {baseline_ms():.1f} ms")
    random.seed(0)
    if arguments.game == "barbu":
        bench_barbu(arguments.games or 6, arguments.series, arguments.cost_series)
    else:
        bench_barree(arguments.games or 60)


if __name__ == "__main__":
    main()
