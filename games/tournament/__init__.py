"""Tournaments of the hosted games, the pure part: the data model (``model``), the
pairing of each format (``swiss``, ``round_robin``, ``knockout``, ``table_groups``), the
scores and tie-breaks of the standings (``standings``), and one entry point per question
whatever the format (``formats``). No I/O: storage and Discord live above and keep a
``Tournament`` as its ``to_dict()``.
"""

from games.tournament.formats import (
    MISSED_ROUNDS_TO_WITHDRAW,
    is_finished,
    late_entrant,
    late_entry_open,
    pair_next_round,
    round_over,
    rounds_missed,
    standings,
    suggested_rounds,
    tables_to_open,
    with_absentees_withdrawn,
)
from games.tournament.knockout import champion
from games.tournament.model import (
    CannotPair,
    Config,
    Format,
    Player,
    Result,
    Round,
    Table,
    Tournament,
)
from games.tournament.standings import Standing, seat_points
from games.tournament.table_groups import computers_needed, table_bounds

__all__ = [
    "MISSED_ROUNDS_TO_WITHDRAW",
    "CannotPair",
    "Config",
    "Format",
    "Player",
    "Result",
    "Round",
    "Standing",
    "Table",
    "Tournament",
    "champion",
    "computers_needed",
    "is_finished",
    "late_entrant",
    "late_entry_open",
    "pair_next_round",
    "round_over",
    "rounds_missed",
    "seat_points",
    "standings",
    "suggested_rounds",
    "table_bounds",
    "tables_to_open",
    "with_absentees_withdrawn",
]
