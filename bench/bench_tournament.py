"""Tournaments: how long the pure part takes on a large field.

    python -m bench.bench_tournament [--players 64] [--rounds 6] [--repeats 3] [--seed 1]

A Swiss of ``--players`` computers over ``--rounds`` rounds with simulated results (the
better rated computer wins more often: the chess expectation on a 400-point scale, a
fifth of the games drawn): the time to pair each round (``pair_next_round``, the FIDE
Dutch system through caissify-pairings) and to compute the standings after it. The
same field is then seated as Barbu table groups (tables of four, the local search
against repeat meetings) for the same number of rounds. Each measurement is repeated
``--repeats`` times over the same tournament (the pairing is deterministic) and reported
with the machine's baseline workload, so figures from busy or different machines compare
as ratios.

Pairing runs once per round, off the event loop in the bot, so the figure to watch is
its worst round against the minutes a round's games take.

The parts are listed in ``PARTS``: each takes the parsed arguments and the baseline and
prints its lines, so a part that needs the bot (opening a round's tables, the boards'
p99 while it opens) is one more entry.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable

from bench.common import baseline_ms, report, time_ms
from games.tournament import (
    Config,
    Format,
    Player,
    Result,
    Round,
    Tournament,
    pair_next_round,
    standings,
)

DRAWS = 0.2
"""The share of simulated two-player games drawn."""


def field(players: int, rng: random.Random) -> tuple[Player, ...]:
    """Computers with league ratings spread as a server's are: 1000 ± a few hundred."""
    return tuple(
        Player.computer(number, "normal", round(rng.gauss(1000, 150))) for number in range(players)
    )


def expected(rating: float, other: float) -> float:
    return 1 / (1 + 10 ** ((other - rating) / 400))


def two_player_result(tournament: Tournament, seats: tuple[str, ...], rng: random.Random) -> Result:
    if rng.random() < DRAWS:
        return Result.draw()
    first, second = (tournament.player(key).rating for key in seats)
    return Result.win(0 if rng.random() < expected(first, second) else 1)


def table_result(tournament: Tournament, seats: tuple[str, ...], rng: random.Random) -> Result:
    """Places by rating with noise, and table totals that sum to zero as Barbu's do."""
    strength = [tournament.player(key).rating + rng.gauss(0, 200) for key in seats]
    order = sorted(range(len(seats)), key=lambda seat: -strength[seat])
    places = [0] * len(seats)
    for place, seat in enumerate(order, start=1):
        places[seat] = place
    totals = [float(rng.randint(-60, 60)) for _ in seats]
    totals[-1] -= sum(totals)
    return Result(tuple(places), tuple(totals))


def play(tournament: Tournament, round_: Round, rng: random.Random) -> Tournament:
    tournament = tournament.with_round(round_)
    for table in round_.tables:
        decide = two_player_result if len(table.seats) == 2 else table_result
        result = decide(tournament, table.seats, rng)
        tournament = tournament.with_result(round_.number, table.number, result)
    return tournament


def timed_pairing(tournament: Tournament, repeats: int) -> tuple[Round, list[float]]:
    """The next round and the milliseconds each of ``repeats`` pairings of it took."""
    paired: list[Round] = []
    samples = [time_ms(lambda: paired.append(pair_next_round(tournament))) for _ in range(repeats)]
    assert all(other == paired[0] for other in paired), "the pairing is deterministic"
    return paired[0], samples


def timed_standings(tournament: Tournament, repeats: int) -> list[float]:
    return [time_ms(lambda: standings(tournament)) for _ in range(repeats)]


def pairing_rounds(config: Config, args: argparse.Namespace, baseline: float) -> None:
    """Pair and play every round; per round the time to pair it and the standings."""
    rng = random.Random(args.seed)
    tournament = Tournament(config, field(args.players, rng))
    worst = 0.0
    for number in range(1, args.rounds + 1):
        round_, pair_ms = timed_pairing(tournament, args.repeats)
        tournament = play(tournament, round_, rng)
        standings_ms = timed_standings(tournament, args.repeats)
        name = f"{config.format.value} round {number} ({len(round_.tables)} tables)"
        print(report(f"{name}: pair", pair_ms, baseline))
        print(report(f"{name}: standings", standings_ms, baseline))
        worst = max(worst, *pair_ms)
    print(f"{config.format.value}: the slowest pairing took {worst:.0f} ms")


def swiss(args: argparse.Namespace, baseline: float) -> None:
    pairing_rounds(Config("bann", Format.SWISS, args.rounds), args, baseline)


def table_groups(args: argparse.Namespace, baseline: float) -> None:
    config = Config("barbu", Format.TABLE_GROUPS, args.rounds, seats_per_table=4, smallest_table=4)
    pairing_rounds(config, args, baseline)


PARTS: list[Callable[[argparse.Namespace, float], None]] = [swiss, table_groups]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    baseline = baseline_ms()
    print(f"baseline workload: {baseline:.2f} ms")
    for part in PARTS:
        part(args, baseline)


if __name__ == "__main__":
    main()
