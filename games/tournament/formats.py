"""One entry point per question, whatever the format: pair the next round, the standings,
the rounds to suggest, late entry, withdrawal, the end."""

from __future__ import annotations

from collections.abc import Callable
from math import ceil, log2

from games.tournament.knockout import (
    champion,
    deciders_needed,
    knockout_rounds,
    knockout_standings,
    pair_knockout_round,
)
from games.tournament.model import Format, Player, Round, Table, Tournament
from games.tournament.round_robin import pair_round_robin_round, rounds_per_cycle
from games.tournament.standings import Standing, points_standings
from games.tournament.swiss import pair_swiss_round
from games.tournament.table_groups import pair_table_group_round

MISSED_ROUNDS_TO_WITHDRAW = 2
"""A player who missed this many rounds (a no-show, or a seat a computer played for him)
is withdrawn."""

SMALL_SWISS = 16
"""A Swiss of at most this many players gets one round more than log2 of its field: with
draws, log2 rounds often leave two players level at the top."""

_PAIRERS: dict[Format, Callable[[Tournament], Round]] = {
    Format.SWISS: pair_swiss_round,
    Format.ROUND_ROBIN: pair_round_robin_round,
    Format.KNOCKOUT: pair_knockout_round,
    Format.TABLE_GROUPS: pair_table_group_round,
}


def pair_next_round(tournament: Tournament) -> Round:
    """The next round's tables and byes (raises ``CannotPair`` with the reason)."""
    return _PAIRERS[tournament.config.format](tournament)


def standings(tournament: Tournament) -> list[Standing]:
    """The standings, best first, from the results so far."""
    if tournament.config.format is Format.KNOCKOUT:
        return knockout_standings(tournament)
    return points_standings(tournament)


def tables_to_open(tournament: Tournament) -> list[Table]:
    """The tables the current round still needs once its games ended: a knockout's
    deciders for drawn games (none in every other format). Add them with
    ``Round.with_tables``; the round is over when this is empty and every table ended."""
    last = tournament.current_round
    if last is None or tournament.config.format is not Format.KNOCKOUT:
        return []
    return deciders_needed(last)


def suggested_rounds(format_: Format, field: int, seats_per_table: int = 2) -> int:
    """The rounds to offer for ``field`` entrants (the organiser may choose others).
    Swiss: ceil(log2 n), one more for a field of at most 16, never more than a round
    robin's; round robin: everyone meets everyone; knockout: until one is left; table
    groups: ceil(log2 n), or fewer when that lets everyone meet everyone, at least 2."""
    if field < 2:
        return 0
    log_rounds = ceil(log2(field))
    match format_:
        case Format.SWISS:
            extra = 1 if field <= SMALL_SWISS else 0
            return min(log_rounds + extra, rounds_per_cycle(field))
        case Format.ROUND_ROBIN:
            return rounds_per_cycle(field)
        case Format.KNOCKOUT:
            return knockout_rounds(field)
        case Format.TABLE_GROUPS:
            meet_everyone = ceil((field - 1) / max(1, seats_per_table - 1))
            return max(2, min(log_rounds, meet_everyone))


def late_entry_open(tournament: Tournament) -> bool:
    """A Swiss takes late entrants until half its rounds have started; they score 0 for
    the rounds they missed (Decision: no half-point byes)."""
    started = len(tournament.rounds)
    return tournament.config.format is Format.SWISS and 2 * started < tournament.config.rounds


def late_entrant(tournament: Tournament, player: Player) -> Tournament:
    """With ``player`` entered for the next round (check ``late_entry_open`` first)."""
    entered = Player(
        player.key,
        player.rating,
        member_id=player.member_id,
        computer_level=player.computer_level,
        joined_round=len(tournament.rounds) + 1,
    )
    return tournament.with_player(entered)


def rounds_missed(tournament: Tournament, key: str) -> int:
    """The rounds in which ``key``'s seat was marked absent."""
    return sum(
        1
        for round_ in tournament.rounds
        for table in round_.tables
        if key in table.seats
        and table.result is not None
        and table.result.is_absent(table.seats.index(key))
    )


def with_absentees_withdrawn(tournament: Tournament) -> Tournament:
    """With every player who missed two rounds withdrawn (he is paired no more)."""
    for player in tournament.active_players():
        if rounds_missed(tournament, player.key) >= MISSED_ROUNDS_TO_WITHDRAW:
            tournament = tournament.withdrawn(player.key)
    return tournament


def round_over(tournament: Tournament) -> bool:
    """Whether the current round has ended: every table has its result and no decider is
    still owed (True before the first round: nothing is playing)."""
    last = tournament.current_round
    return last is None or (last.is_complete and not tables_to_open(tournament))


def is_finished(tournament: Tournament) -> bool:
    """Whether the last round is played (a knockout: whether it has its champion)."""
    if tournament.current_round is None or not round_over(tournament):
        return False
    if tournament.config.format is Format.KNOCKOUT:
        return champion(tournament) is not None
    return len(tournament.rounds) >= tournament.config.rounds
