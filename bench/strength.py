"""How strong a computer player is: it plays many games against baselines or another level.

    python -m bench.strength GAME [--player hard] [--opponent NAME] [--games N]
                                  [--players P] [--jobs 2] [--first-seed 0]
    python -m bench.strength gulbara --player hard@middle   # hard in one phase only
    python -m bench.strength barbu --option french=true     # a table option (repeatable)

GAME is bann, gulbara, barree or barbu. ``--player`` and ``--opponent`` are computer
levels (easy, normal, hard; ``default`` calls ``bot_action`` without a level) or the
baseline players of ``bench/baselines.py`` (bann: 1ply, 2ply, 3ply; gulbara:
stage-greedy; barree: greedy; barbu: rule-based). The measured player takes one seat,
the opponent all others.

Where a player's edge comes from: ``--player LEVEL@PHASE`` plays LEVEL only while its
own position is in PHASE and plays like the opponent otherwise, so its gain over equal
strength is what that phase's play alone is worth. Gul Bara's phases, by the mover's
own checkers: opening (pip count above 300), middle (150 to 300), bear-in (below 150
with a checker outside home), bear-off (all checkers home). Barbu's phases are the
deal's: contract (declarer's choice), doubling (the answers), play (the cards).

``--option NAME=VALUE`` plays every game with that table option of the game (``french=true``,
``head_rule=pass``, ``series=2``), as `/<game> new` would open the table.

Fairness: every seed is played once with the measured player in each seat, so seats
and the first player are swapped evenly (in Bann and Gul Bara the seed also decides who
starts). Barbu games are one declarer series (seven deals) each, so 64 games are 448
deals.

Printed: the share of games won (a tie shares the win) and the points per game (Barbu:
per deal, measured player minus the opponents' average) with 95% confidence intervals,
the decision times (p95, max) of the measured player's decisions with more than one
choice, and the machine's load average at the end.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing import Pool
from typing import Any

from bench.baselines import BASELINES
from bench.common import percentile
from games import GAMES, GameState
from games import gulbara as gulbara_rules
from games.barbu import settle
from games.barbu.state import BarbuState

LEVELS = ("easy", "normal", "hard")
MOVE_CAP = {"bann": 600, "gulbara": 4000, "barree": 2000, "barbu": 10_000}
Player = Callable[[GameState, int], str]


def _gulbara_pips(state: GameState) -> int:
    assert isinstance(state, gulbara_rules.GulbaraState)
    return gulbara_rules.pip_count(state.board, state.turn)


def _barbu_phase(state: GameState) -> str:
    assert isinstance(state, BarbuState)
    return state.phase


def _gulbara_all_home(state: GameState) -> bool:
    assert isinstance(state, gulbara_rules.GulbaraState)
    mine, _theirs = gulbara_rules.perspective(state.board, state.off, state.turn)
    return not any(mine[gulbara_rules.HOME_TOP + 1 :])


PHASES: dict[str, dict[str, Callable[[GameState], bool]]] = {
    "gulbara": {
        "opening": lambda state: _gulbara_pips(state) > 300,
        "middle": lambda state: 150 <= _gulbara_pips(state) <= 300,
        "bear-in": lambda state: _gulbara_pips(state) < 150 and not _gulbara_all_home(state),
        "bear-off": _gulbara_all_home,
    },
    "barbu": {
        "contract": lambda state: _barbu_phase(state) == "contract",
        "doubling": lambda state: _barbu_phase(state) == "doubling",
        "play": lambda state: _barbu_phase(state) == "play",
    },
}


def player(game: str, name: str) -> Player:
    spec = GAMES[game]
    if name == "default":
        return lambda state, seed: spec.bot_action(state, seed=seed)
    if name in LEVELS:
        return lambda state, seed: spec.bot_action(state, seed=seed, level=name)
    try:
        return BASELINES[game][name]
    except KeyError:
        choices = ", ".join([*LEVELS, "default", *BASELINES[game]])
        raise SystemExit(f"unknown player {name!r} for {game}; choose from {choices}") from None


@dataclass
class GameResult:
    win_share: float
    points: float
    deals: int
    decisions_ms: list[float]
    finished: bool = True
    decisions_cpu_ms: list[float] = field(default_factory=list)
    doubling: dict[str, list[float]] = field(default_factory=dict)
    domino_doubled_declarer: list[int] = field(default_factory=list)


def _options(game: str) -> dict[str, Any]:
    return {"series": 1} if game == "barbu" else {}


def table_option(game: str, text: str) -> tuple[str, Any]:
    """``NAME=VALUE`` read as the game's option ``NAME`` takes it (a number, true or
    false, or one of its choices); exits naming what it takes otherwise."""
    name, _, raw = text.partition("=")
    declared = {option.name: option for option in GAMES[game].options}
    option = declared.get(name)
    if option is None:
        raise SystemExit(f"{game} has no option {name!r}; choose from {', '.join(declared)}")
    value: Any = raw
    if isinstance(option.default, bool):
        value = {"true": True, "false": False}.get(raw.lower(), raw)
    elif isinstance(option.default, int) and raw.isdigit():
        value = int(raw)
    if not option.accepts(value):
        raise SystemExit(f"option {name} must be {option.allowed()}")
    return name, value


Task = tuple[str, str, str, int, int, int, dict[str, Any]]


def play_one(task: Task) -> GameResult:
    game, measured_name, opponent_name, players, seed, seat, options = task
    level, _, phase = measured_name.partition("@")
    measured, opponent = player(game, level), player(game, opponent_name)
    in_phase = PHASES[game][phase] if phase else lambda state: True
    state = GAMES[game].new_game(players=players, seed=seed, **_options(game), **options)
    decisions: list[float] = []
    decisions_cpu: list[float] = []
    moves = 0
    while not state.is_over and moves < MOVE_CAP[game]:
        mover = state.current_player
        assert mover is not None
        decision_seed = seed * 10_000 + moves
        if mover == seat and in_phase(state):
            start, start_cpu = time.perf_counter(), time.process_time()
            action = measured(state, decision_seed)
            elapsed = (time.perf_counter() - start) * 1000
            elapsed_cpu = (time.process_time() - start_cpu) * 1000
            if len(state.legal_actions()) > 1:
                decisions.append(elapsed)
                decisions_cpu.append(elapsed_cpu)
        else:
            action = opponent(state, decision_seed)
        state = state.apply(action)
        moves += 1
    if game == "barbu":
        result = _barbu_result(state, seat, decisions)
        result.decisions_cpu_ms = decisions_cpu
        return result
    scores = state.returns() if state.is_over else [0.0] * players
    mine = scores[seat]
    best = max(scores)
    winners = [index for index, score in enumerate(scores) if score == best]
    share = 1 / len(winners) if seat in winners else 0.0
    others = [score for index, score in enumerate(scores) if index != seat]
    return GameResult(
        share, mine - statistics.fmean(others), 1, decisions, state.is_over, decisions_cpu
    )


def _barbu_result(state: Any, seat: int, decisions: list[float]) -> GameResult:
    doubling: dict[str, list[float]] = defaultdict(list)
    domino_doubled: list[int] = []
    differences = []
    for deal in state.history:
        scores = deal["scores"]
        others = [score for index, score in enumerate(scores) if index != seat]
        differences.append(scores[seat] - statistics.fmean(others))
        pairs = {tuple(pair) for pair in deal["doubles"]}
        own = {pair for pair in pairs if pair[0] == seat}
        contract = deal["contract"].partition(":")[0]
        if own:
            gain = scores[seat] - settle(deal["raw"], pairs - own)[seat]
            doubling[contract].append(gain)
        if contract == "domino" and deal["declarer"] != seat:
            domino_doubled.append(int((seat, deal["declarer"]) in pairs))
    totals = state.returns()
    best = max(totals)
    winners = [index for index, total in enumerate(totals) if total == best]
    share = 1 / len(winners) if seat in winners else 0.0
    return GameResult(
        share,
        statistics.fmean(differences),
        len(differences),
        decisions,
        state.is_over,
        doubling=doubling,
        domino_doubled_declarer=domino_doubled,
    )


def interval(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% confidence interval (normal approximation)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.inf
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def run(args: argparse.Namespace) -> list[GameResult]:
    seats = args.players
    seeds = max(1, args.games // seats)
    tasks: list[Task] = [
        (args.game, args.player, args.opponent, seats, args.first_seed + index, seat, args.options)
        for index in range(seeds)
        for seat in range(seats)
    ]
    if args.jobs == 1:
        return [play_one(task) for task in tasks]
    with Pool(args.jobs) as pool:
        return list(pool.imap(play_one, tasks))


def summary(args: argparse.Namespace, results: list[GameResult], seconds: float) -> list[str]:
    win, win_half = interval([result.win_share for result in results])
    points, points_half = interval([result.points for result in results])
    unit = "per deal" if args.game == "barbu" else "per game"
    decisions = [ms for result in results for ms in result.decisions_ms]
    deals = sum(result.deals for result in results)
    unfinished = sum(not result.finished for result in results)
    options = "".join(f", {name}={value}" for name, value in args.options.items())
    lines = [
        f"{args.game} ({args.players} players{options}): {args.player} vs {args.opponent}, "
        f"{len(results)} games" + (f", {deals} deals" if args.game == "barbu" else ""),
        f"  won {100 * win:.1f}% ± {100 * win_half:.1f}% of games "
        f"(equal strength: {100 / args.players:.1f}%)",
        f"  points {unit}: {points:+.2f} ± {points_half:.2f}",
    ]
    if unfinished:
        lines.append(
            f"  {unfinished} games stopped at {MOVE_CAP[args.game]} moves (scored as draws)"
        )
    cpu = [ms for result in results for ms in result.decisions_cpu_ms]
    if decisions:
        lines.append(
            f"  decisions: n={len(decisions)} median={statistics.median(decisions):.1f} ms "
            f"p95={percentile(decisions, 0.95):.1f} ms max={max(decisions):.1f} ms "
            f"(CPU time, unaffected by other processes: p95={percentile(cpu, 0.95):.1f} ms "
            f"max={max(cpu):.1f} ms)"
        )
    if args.game == "barbu" and args.options.get("french"):
        lines.append("  no doubling round (the French form): every deal score is the raw score")
    elif args.game == "barbu":
        lines += _doubling_lines(results)
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    lines.append(f"  {seconds:.0f} s with {args.jobs} jobs; load average {load}")
    return lines


def _doubling_lines(results: list[GameResult]) -> list[str]:
    gains: dict[str, list[float]] = defaultdict(list)
    for result in results:
        for contract, values in result.doubling.items():
            gains[contract] += values
    lines = ["  its doubles, per contract: deals doubled, mean points they won"]
    for contract, values in sorted(gains.items()):
        mean, half = interval(values)
        lines.append(f"    {contract}: {len(values)} deals, {mean:+.2f} ± {half:.2f}")
    domino = [flag for result in results for flag in result.domino_doubled_declarer]
    if domino:
        lines.append(
            f"  doubled the Domino declarer in {100 * statistics.fmean(domino):.0f}% "
            f"of {len(domino)} Domino deals as a non-declarer"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("--player", default="hard")
    parser.add_argument("--opponent", default=None)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args()
    spec = GAMES[args.game]
    args.options = dict(table_option(args.game, text) for text in args.option)
    args.players = args.players or spec.min_players
    if not spec.min_players <= args.players <= spec.max_players:
        raise SystemExit(f"{spec.title} takes {spec.min_players}-{spec.max_players} players")
    args.opponent = args.opponent or next(iter(BASELINES[args.game]))
    level, _, phase = args.player.partition("@")
    if phase and phase not in PHASES.get(args.game, {}):
        choices = ", ".join(PHASES.get(args.game, {})) or "none"
        raise SystemExit(f"unknown phase {phase!r} for {args.game}; choose from {choices}")
    player(args.game, level)
    player(args.game, args.opponent)
    start = time.perf_counter()
    results = run(args)
    print("\n".join(summary(args, results, time.perf_counter() - start)))


if __name__ == "__main__":
    main()
