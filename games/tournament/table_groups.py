"""Swiss-style table groups for games of three or four players (Barbu, Barree).

Each round sorts the field by score (then the tie-breaks, then rating) and cuts it into
tables in that order, so players of similar score sit together; then a small local search
swaps players between tables while that lowers the number of pairs who met before, and,
among equally few repeats, keeps the tables' score ranges narrow. It stops when no single
swap helps, so it is quick and always ends with tables at least as good as the cut.

Tables are as large as the game wants (its most players); a field that does not divide
uses tables one smaller where the game allows that (Barree: tables of 4 and 3), as equal
as possible. A game of a fixed number (Barbu, four) cannot, and a field that does not
split is refused with the number of computers that would fill it. There are no byes.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from itertools import combinations, permutations
from math import ceil

from games.base import N_
from games.tournament.model import CannotPair, Round, Table, Tournament
from games.tournament.standings import points_standings

REPEAT_WEIGHT = 1000
"""How much one repeated meeting costs against one place of score-rank spread at a
table: any repeat that can be avoided is avoided before tables are kept tight."""


def table_bounds(min_players: int, max_players: int) -> tuple[int, int]:
    """The smallest and largest table for a game that seats ``min_players`` to
    ``max_players``: its most, and one fewer where it allows (never a table of two for a
    game of more)."""
    return max(min_players, max_players - 1, 2), max_players


def table_sizes(field: int, smallest: int, largest: int) -> list[int] | None:
    """The tables for ``field`` players, largest first, or None if it does not split."""
    if field < smallest:
        return None
    count = ceil(field / largest)
    base, extra = divmod(field, count)
    sizes = [base + 1] * extra + [base] * (count - extra)
    return sizes if sizes[-1] >= smallest else None


def computers_needed(field: int, smallest: int, largest: int) -> int:
    """How many computers would make ``field`` split into tables."""
    extra = 0
    while table_sizes(field + extra, smallest, largest) is None:
        extra += 1
    return extra


def met_before(tournament: Tournament) -> dict[str, set[str]]:
    """Everyone each player shared a table with."""
    met: dict[str, set[str]] = defaultdict(set)
    for round_ in tournament.rounds:
        for table in round_.tables:
            for one, other in permutations(table.seats, 2):
                met[one].add(other)
    return met


def pair_table_group_round(tournament: Tournament) -> Round:
    """The next round's tables."""
    if any(not round_.is_complete for round_ in tournament.rounds):
        raise CannotPair(N_("The round before has tables still playing."))
    config = tournament.config
    paired = {player.key for player in tournament.active_players()}
    rating = {player.key: player.rating for player in tournament.players}
    order = [line.key for line in points_standings(tournament) if line.key in paired]
    if not tournament.rounds:
        order.sort(key=lambda key: -rating[key])
    sizes = table_sizes(len(order), config.smallest_table, config.seats_per_table)
    if sizes is None:
        raise CannotPair(
            N_("{players} players do not fill the tables: {computers} computers would."),
            players=len(order),
            computers=computers_needed(len(order), config.smallest_table, config.seats_per_table),
        )
    tables = _cut(order, sizes)
    tables = improve_seating(
        tables, {key: rank for rank, key in enumerate(order)}, met_before(tournament)
    )
    return Round(
        len(tournament.rounds) + 1,
        tuple(Table(number, tuple(seats)) for number, seats in enumerate(tables, start=1)),
    )


def _cut(order: Sequence[str], sizes: Sequence[int]) -> list[list[str]]:
    tables: list[list[str]] = []
    start = 0
    for size in sizes:
        tables.append(list(order[start : start + size]))
        start += size
    return tables


def seating_cost(table: Sequence[str], rank: dict[str, int], met: Mapping[str, set[str]]) -> int:
    """Repeated meetings at a table (heavily) and its spread of score ranks."""
    repeats = sum(other in met.get(one, ()) for one, other in combinations(table, 2))
    ranks = [rank[key] for key in table]
    return REPEAT_WEIGHT * repeats + max(ranks) - min(ranks)


Swap = tuple[int, int, int]
"""A swap's gain and the seats it exchanges at the first and the second table."""


def improve_seating(
    tables: list[list[str]], rank: dict[str, int], met: Mapping[str, set[str]]
) -> list[list[str]]:
    """Swap players between tables, always the swap that lowers the cost most (the first
    such in table and seat order), until no swap lowers it. Each table keeps its size;
    seats stay in score order. A pair of tables' best swap is kept until one of the two
    changes, so each step only looks again at the tables it changed."""
    tables = [list(table) for table in tables]
    costs = [seating_cost(table, rank, met) for table in tables]
    best_of: dict[tuple[int, int], Swap | None] = {}
    while True:
        best: tuple[Swap, int, int] | None = None
        for pair in combinations(range(len(tables)), 2):
            if pair not in best_of:
                best_of[pair] = _best_swap(tables, costs, pair, rank, met)
            found = best_of[pair]
            if found is not None and (best is None or found[0] > best[0][0]):
                best = (found, *pair)
        if best is None:
            return tables
        (_, i, j), first, second = best
        tables[first][i], tables[second][j] = tables[second][j], tables[first][i]
        for index in (first, second):
            tables[index].sort(key=rank.__getitem__)
            costs[index] = seating_cost(tables[index], rank, met)
        for pair in [pair for pair in best_of if first in pair or second in pair]:
            del best_of[pair]


def _best_swap(
    tables: list[list[str]],
    costs: list[int],
    pair: tuple[int, int],
    rank: dict[str, int],
    met: Mapping[str, set[str]],
) -> Swap | None:
    first, second = pair
    if costs[first] + costs[second] == 0:
        return None
    best: Swap | None = None
    for i, a in enumerate(tables[first]):
        for j, b in enumerate(tables[second]):
            one = [*tables[first][:i], b, *tables[first][i + 1 :]]
            two = [*tables[second][:j], a, *tables[second][j + 1 :]]
            gain = (
                costs[first]
                + costs[second]
                - seating_cost(one, rank, met)
                - seating_cost(two, rank, met)
            )
            if gain > 0 and (best is None or gain > best[0]):
                best = (gain, i, j)
    return best
