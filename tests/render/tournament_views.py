"""Tournament pictures' views from tournaments played out here, for the picture tests."""

from __future__ import annotations

import random
from typing import Any

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
from render.tournament import bracket_view, round_view, standings_view

NAMES = ["Maximilian Großkopf", "Bob 🎲 the very long named builder of things", "Chloé", "Dmitri"]


def _field(count: int) -> tuple[Player, ...]:
    return tuple(Player.computer(i, "easy", 1500 - i) for i in range(count))


def _names(tournament: Tournament) -> dict[str, str]:
    return {p.key: f"{NAMES[i % 4]} {i}" for i, p in enumerate(tournament.players)}


def _played(format_: Format, count: int, rounds: int, seats: int = 2) -> Tournament:
    rng = random.Random(count)
    config = Config("game", format_, rounds, seats_per_table=seats, smallest_table=seats)
    tournament = Tournament(config, _field(count))
    while not is_finished(tournament):
        tournament = tournament.with_round(pair_next_round(tournament))
        while True:
            round_ = tournament.rounds[-1]
            for table in round_.tables:
                if table.result is None:
                    n = len(table.seats)
                    places = tuple(rng.randint(1, n) for _ in range(n))
                    totals = tuple(float(rng.randint(-30, 30)) for _ in range(n))
                    absent = tuple(seat == n - 1 and n > 2 for seat in range(n))
                    result = Result(places, totals, absent)
                    tournament = tournament.with_result(round_.number, table.number, result)
            deciders = tables_to_open(tournament)
            if not deciders:
                break
            tournament = tournament.with_round(tournament.rounds[-1].with_tables(deciders))
    return tournament


def standings_views() -> list[dict[str, Any]]:
    views = []
    for format_, count, rounds, seats in (
        (Format.SWISS, 9, 4, 2),
        (Format.ROUND_ROBIN, 5, 5, 2),
        (Format.KNOCKOUT, 6, 3, 2),
        (Format.TABLE_GROUPS, 8, 2, 4),
    ):
        tournament = _played(format_, count, rounds, seats)
        tournament = tournament.withdrawn(tournament.players[-1].key)
        views.append(standings_view(tournament, _names(tournament), "Bann · Swiss", "Round 4"))
    return views


def bracket_views() -> list[dict[str, Any]]:
    views = []
    for count in (2, 6, 40):
        tournament = _played(Format.KNOCKOUT, count, 0)
        views.append(bracket_view(tournament, _names(tournament), "Gul Bara", "Final"))
    return views


def round_views() -> list[dict[str, Any]]:
    swiss = _played(Format.SWISS, 9, 2)
    groups = _played(Format.TABLE_GROUPS, 8, 1, 4)
    knockout = _played(Format.KNOCKOUT, 5, 0)
    return [
        round_view(swiss.rounds[-1], _names(swiss), "Bann", "Round 2 of 2"),
        round_view(pair_next_round(swiss), _names(swiss), "Bann", "Round 3, playing"),
        round_view(groups.rounds[-1], _names(groups), "Barbu", "Round 1 of 1"),
        *(round_view(r, _names(knockout), "Bann", "Knockout") for r in knockout.rounds),
    ]
