"""Playing tournaments out for the tests: results drawn from a seeded random source, every
round through the public entry points, as the Discord layer will."""

from __future__ import annotations

import random

from games.tournament import (
    Config,
    Format,
    Player,
    Result,
    Tournament,
    is_finished,
    pair_next_round,
    tables_to_open,
)


def field(count: int, *, rating_step: float = 10.0) -> tuple[Player, ...]:
    """``count`` computers, c0 rated best."""
    return tuple(Player.computer(i, "easy", 1500 - i * rating_step) for i in range(count))


def two_player_result(rng: random.Random, draws: bool = True) -> Result:
    choices = [Result.win(0), Result.win(1)] + ([Result.draw()] if draws else [])
    return rng.choice(choices)


def table_result(rng: random.Random, seats: int) -> Result:
    places = tuple(rng.randint(1, seats) for _ in range(seats))
    totals = tuple(float(rng.randint(-40, 40)) for _ in range(seats))
    absent = tuple(rng.random() < 0.1 for _ in range(seats))
    return Result(places, totals, absent)


def play_round(tournament: Tournament, rng: random.Random, draws: bool = True) -> Tournament:
    """Pair the next round and play it to its end (with any knockout deciders)."""
    tournament = tournament.with_round(pair_next_round(tournament))
    while True:
        round_ = tournament.current_round
        assert round_ is not None
        for table in round_.tables:
            if table.result is None:
                seats = len(table.seats)
                result = two_player_result(rng, draws) if seats == 2 else table_result(rng, seats)
                tournament = tournament.with_result(round_.number, table.number, result)
        deciders = tables_to_open(tournament)
        if not deciders:
            return tournament
        current = tournament.current_round
        assert current is not None
        tournament = tournament.with_round(current.with_tables(deciders))


def play_out(tournament: Tournament, rng: random.Random, draws: bool = True) -> Tournament:
    while not is_finished(tournament):
        tournament = play_round(tournament, rng, draws)
    return tournament


def new(format_: Format, count: int, rounds: int, seats: int = 2, smallest: int = 2) -> Tournament:
    config = Config("game", format_, rounds, seats_per_table=seats, smallest_table=smallest)
    return Tournament(config, field(count))
