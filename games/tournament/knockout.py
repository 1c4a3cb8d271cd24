"""Knockout: a bracket seeded by league rating, byes to the top seeds, drawn games decided.

The bracket has room for the next power of two; seeds take the standard positions (1 v N,
then the winners of 1's half meet 2's half only in the final), and the places of missing
seeds are byes, so the top seeds go through round one without a game. A match is one
table (a Gul Bara match to N points is its table option, one result); a drawn game is
followed by a decider at a new table with the first player swapped (``Table.decider_of``
names the drawn one), again until one wins. The higher seed moves first in a match's
first game. A withdrawn player's match is a walkover: his opponent goes through with a bye.

The bracket is recomputed from the entrants and the rounds' results, so it needs no
storage of its own: entrants keep the rating they were seeded by.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import ceil, log2

from games.base import N_
from games.tournament.model import CannotPair, Player, Round, Table, Tournament
from games.tournament.standings import Standing, ranked
from games.tournament.swiss import starting_order


def bracket_size(field: int) -> int:
    """The power of two the bracket is drawn for."""
    return 1 << max(0, ceil(log2(field))) if field > 1 else 1


def knockout_rounds(field: int) -> int:
    """Rounds until one player is left."""
    return max(0, ceil(log2(field))) if field > 1 else 0


def seed_positions(size: int) -> list[int]:
    """Seeds in bracket order for a power-of-two ``size``: 1, 8, 4, 5, 2, 7, 3, 6 for 8,
    so neighbours meet and seed s meets seed size + 1 − s in round one."""
    positions = [1]
    while len(positions) < size:
        mirrored = 2 * len(positions) + 1
        positions = [seed for top in positions for seed in (top, mirrored - top)]
    return positions


def first_round_slots(tournament: Tournament) -> list[Player | None]:
    """The bracket's slots in order, each the seeded player or None for a bye."""
    seeds = starting_order(tournament.players)
    return [
        seeds[seed - 1] if seed <= len(seeds) else None
        for seed in seed_positions(bracket_size(len(seeds)))
    ]


def match_winner(round_: Round, table: Table) -> str | None:
    """Who went through from ``table`` (following its deciders), None while undecided."""
    if table.result is None:
        return None
    places = table.result.places
    if places[0] != places[1]:
        return table.seats[places.index(min(places))]
    decider = next((t for t in round_.tables if t.decider_of == table.number), None)
    return None if decider is None else match_winner(round_, decider)


def deciders_needed(round_: Round) -> list[Table]:
    """The deciders this round still has to open: one for every drawn game that has
    none, its seats swapped. Add them with ``Round.with_tables``."""
    decided = {table.decider_of for table in round_.tables}
    next_number = max((table.number for table in round_.tables), default=0) + 1
    deciders: list[Table] = []
    for table in round_.tables:
        result = table.result
        drawn = result is not None and result.places[0] == result.places[1]
        if drawn and table.number not in decided:
            swapped = (table.seats[1], table.seats[0])
            deciders.append(Table(next_number, swapped, decider_of=table.number))
            next_number += 1
    return deciders


def round_winners(round_: Round) -> dict[str, str | None]:
    """For every match of the round (by its first seat), who went through."""
    return {
        table.seats[0]: match_winner(round_, table)
        for table in round_.tables
        if table.decider_of is None
    }


def surviving_slots(tournament: Tournament) -> list[str | None]:
    """The bracket's slots after the rounds played: each the key of the player still in
    for it, or None where nobody is (a bye's empty half)."""
    slots: list[str | None] = [
        None if player is None else player.key for player in first_round_slots(tournament)
    ]
    for round_ in tournament.rounds:
        winners = {
            key: winner
            for table in round_.tables
            if table.decider_of is None
            for key, winner in ((seat, match_winner(round_, table)) for seat in table.seats)
        }
        next_slots: list[str | None] = []
        for first, second in zip(slots[::2], slots[1::2], strict=True):
            present = [key for key in (first, second) if key is not None]
            if len(present) == 2:
                walkover = next((key for key in present if key in round_.byes), None)
                next_slots.append(winners.get(present[0], walkover))
            else:
                next_slots.append(present[0] if present else None)
        slots = next_slots
    return slots


def pair_knockout_round(tournament: Tournament) -> Round:
    """The next round: neighbours in the bracket meet, a lone player has a bye."""
    if len(tournament.players) < 2:
        raise CannotPair(N_("A round needs at least two players."))
    last = tournament.current_round
    if last is not None and (not last.is_complete or deciders_needed(last)):
        raise CannotPair(N_("The round before has tables still playing."))
    slots = surviving_slots(tournament)
    if sum(key is not None for key in slots) < 2:
        raise CannotPair(N_("The knockout has its winner."))
    withdrawn = {player.key for player in tournament.players if player.withdrawn}
    seed_of = {player.key: seed for seed, player in enumerate(starting_order(tournament.players))}
    tables: list[Table] = []
    byes: list[str] = []
    for first, second in zip(slots[::2], slots[1::2], strict=True):
        present = [key for key in (first, second) if key is not None and key not in withdrawn]
        if len(present) == 2:
            seats = sorted(present, key=seed_of.__getitem__)
            tables.append(Table(len(tables) + 1, (seats[0], seats[1])))
        elif present:
            byes.append(present[0])
    return Round(len(tournament.rounds) + 1, tuple(tables), tuple(byes))


def champion(tournament: Tournament) -> str | None:
    """The winner once the final is decided."""
    present = [key for key in surviving_slots(tournament) if key is not None]
    return present[0] if len(present) == 1 and tournament.rounds else None


def knockout_standings(tournament: Tournament) -> list[Standing]:
    """Places by how far each player went: the score is the rounds he went through
    (a bye counts), so the finalists come first and the players out in the same round
    share a place."""
    advanced = {player.key: 0.0 for player in tournament.players}
    games = dict.fromkeys(advanced, 0)
    for round_ in tournament.rounds:
        for key in round_.byes:
            advanced[key] += 1
        for table in round_.tables:
            for key in table.seats:
                games[key] += table.result is not None
        for winner in round_winners(round_).values():
            if winner is not None:
                advanced[winner] += 1
    withdrawn = {player.key for player in tournament.players if player.withdrawn}
    lines: Sequence[tuple[str, float, tuple[float, ...], int, bool]] = [
        (key, score, (), games[key], key in withdrawn) for key, score in advanced.items()
    ]
    return ranked(lines)
