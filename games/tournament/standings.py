"""Scores, tie-breaks and places, computed from the rounds' results alone, as the players'
rule book (docs/rules/tournaments.md) states them.

Points by place: at a table of n seats first scores n − 1, last 0, and a tie for a place
shares the points of the places it covers, so a two-player win is 1, a draw ½ each, a
loss 0. A seat a computer played for an absent player scores as last (absent seats share
the last places). A bye scores as a win (1 in a two-player event) and, wherever a
tie-break looks at opponents, counts as a win against an opponent with the player's own
score: among players tied on score every bye then weighs the same. Rounds a player did
not take part in (a late entrant's first rounds, a withdrawn player's last) score 0 and
add nothing to any tie-break. The number of wins counts games won at the board, byes not.

Tie-breaks, in order: Swiss: Buchholz, Sonneborn–Berger, wins; round robin:
Sonneborn–Berger, the points scored in the games between the tied players, wins; table
groups: the sum of the player's table totals (the game's final scores, higher is better:
Barree's are its minus points negated), then the number of first places. A knockout
places players by the round they went out in (``knockout.knockout_standings``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import groupby

from games.tournament.model import Format, Result, Round, Table, Tournament


@dataclass(frozen=True)
class Standing:
    """A player's line: ``place`` is shared by players equal on score and every tie-break
    (the next place skips them, as in 1, 2, 2, 4)."""

    key: str
    place: int
    score: float
    tiebreaks: tuple[float, ...]
    games: int
    withdrawn: bool = False


@dataclass
class Game:
    """One game or bye of one player, as the tie-breaks see it."""

    opponents: tuple[str, ...]
    points: float
    won: bool
    first: bool
    total: float = 0.0
    bye: bool = False


@dataclass
class Record:
    games: list[Game] = field(default_factory=list)

    @property
    def score(self) -> float:
        return sum(game.points for game in self.games)


def seat_points(result: Result) -> tuple[float, ...]:
    """The points of each seat of a table by its place (absent seats as last)."""
    seats = len(result.places)
    ranked = sorted(range(seats), key=lambda seat: _rank_key(result, seat))
    points = [0.0] * seats
    position = 0
    for _, group in groupby(ranked, key=lambda seat: _rank_key(result, seat)):
        tied = list(group)
        covered = range(position, position + len(tied))
        share = sum(seats - 1 - place for place in covered) / len(tied)
        for seat in tied:
            points[seat] = share
        position += len(tied)
    return tuple(points)


def _rank_key(result: Result, seat: int) -> tuple[bool, int]:
    absent = result.is_absent(seat)
    return (absent, 0 if absent else result.places[seat])


def bye_points(tournament: Tournament) -> float:
    """A bye scores as a win: first place's points at a full table."""
    return float(tournament.config.seats_per_table - 1)


def records(tournament: Tournament, rounds: Sequence[Round] | None = None) -> dict[str, Record]:
    """Every entrant's games and byes over ``rounds`` (default: all), decided tables only.
    A knockout table settled by a decider counts both games as played."""
    played: dict[str, Record] = {player.key: Record() for player in tournament.players}
    for round_ in tournament.rounds if rounds is None else rounds:
        for key in round_.byes:
            played[key].games.append(
                Game((), bye_points(tournament), won=False, first=True, bye=True)
            )
        for table in round_.tables:
            if table.result is not None:
                _record_table(played, table, table.result)
    return played


def _record_table(played: dict[str, Record], table: Table, result: Result) -> None:
    points = seat_points(result)
    best = max(points)
    for seat, key in enumerate(table.seats):
        opponents = tuple(other for other in table.seats if other != key)
        won = points[seat] == best and points.count(best) == 1 and not result.is_absent(seat)
        first = points[seat] == best and not result.is_absent(seat)
        total = 0.0 if result.totals is None else result.totals[seat]
        played[key].games.append(Game(opponents, points[seat], won, first, total))


def points_standings(tournament: Tournament) -> list[Standing]:
    """The standings by points after every decided table, best first (Swiss, round robin,
    table groups; a knockout's come from ``knockout.knockout_standings``)."""
    played = records(tournament)
    scores = {key: record.score for key, record in played.items()}
    tiebreaks = _TIEBREAKS[tournament.config.format](played, scores)
    withdrawn = {player.key for player in tournament.players if player.withdrawn}
    return ranked(
        [
            (key, scores[key], tiebreaks[key], len(record.games), key in withdrawn)
            for key, record in played.items()
        ]
    )


def ranked(lines: Sequence[tuple[str, float, tuple[float, ...], int, bool]]) -> list[Standing]:
    """Lines (key, score, tie-breaks, games, withdrawn) in order, with shared places."""
    order = sorted(lines, key=lambda line: (-line[1], *(-value for value in line[2])))
    result: list[Standing] = []
    for index, (key, score, breaks, games, withdrawn) in enumerate(order):
        tied_with_previous = index > 0 and (score, breaks) == (order[index - 1][1:3])
        place = result[-1].place if tied_with_previous else index + 1
        result.append(Standing(key, place, score, breaks, games, withdrawn))
    return result


def _opponent_score(game: Game, own: float, scores: dict[str, float]) -> float:
    return own if game.bye else scores[game.opponents[0]]


def buchholz(record: Record, own: float, scores: dict[str, float]) -> float:
    return sum(_opponent_score(game, own, scores) for game in record.games)


def sonneborn_berger(record: Record, own: float, scores: dict[str, float]) -> float:
    return sum(game.points * _opponent_score(game, own, scores) for game in record.games)


def wins(record: Record) -> float:
    return float(sum(game.won for game in record.games if not game.bye))


def _swiss(played: dict[str, Record], scores: dict[str, float]) -> dict[str, tuple[float, ...]]:
    return {
        key: (
            buchholz(record, scores[key], scores),
            sonneborn_berger(record, scores[key], scores),
            wins(record),
        )
        for key, record in played.items()
    }


def _round_robin(
    played: dict[str, Record], scores: dict[str, float]
) -> dict[str, tuple[float, ...]]:
    berger = {key: sonneborn_berger(record, scores[key], scores) for key, record in played.items()}
    groups: dict[tuple[float, float], set[str]] = defaultdict(set)
    for key in played:
        groups[scores[key], berger[key]].add(key)
    return {
        key: (berger[key], direct_encounter(record, groups[scores[key], berger[key]]), wins(record))
        for key, record in played.items()
    }


def direct_encounter(record: Record, tied: set[str]) -> float:
    """The points the player scored in his games against the others of ``tied``."""
    return sum(
        (game.points for game in record.games if not game.bye and game.opponents[0] in tied),
        0.0,
    )


def _table_groups(
    played: dict[str, Record], _scores: dict[str, float]
) -> dict[str, tuple[float, ...]]:
    return {
        key: (
            sum(game.total for game in record.games if not game.bye),
            float(sum(game.first for game in record.games if not game.bye)),
        )
        for key, record in played.items()
    }


_TIEBREAKS: dict[
    Format, Callable[[dict[str, Record], dict[str, float]], dict[str, tuple[float, ...]]]
] = {
    Format.SWISS: _swiss,
    Format.ROUND_ROBIN: _round_robin,
    Format.TABLE_GROUPS: _table_groups,
}
