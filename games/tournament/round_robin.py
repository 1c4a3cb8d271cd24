"""Round robin by FIDE's Berger tables (Handbook C.05), from caissify-pairings.

Pairing numbers follow the league rating (best first, entry order breaking ties) and stay
fixed for the event. An odd field gets a phantom player: whoever the table pairs with it
has a bye that round. Rounds beyond one cycle replay the tables with colours reversed
(a double round robin). White, as Berger gives it, is seat 0: the player who moves first.
A withdrawn player's opponent has a bye instead.
"""

from __future__ import annotations

from caissify_pairings.engines.round_robin import berger_round

from games.base import N_
from games.tournament.model import CannotPair, Round, Table, Tournament
from games.tournament.swiss import starting_order


def rounds_per_cycle(field: int) -> int:
    """Rounds for everyone to meet everyone once: n − 1, or n for an odd field."""
    return field - 1 if field % 2 == 0 else field


def pair_round_robin_round(tournament: Tournament) -> Round:
    """The next round of the Berger schedule."""
    order = starting_order(tournament.players)
    if len(order) < 2:
        raise CannotPair(N_("A round needs at least two players."))
    size = len(order) + len(order) % 2
    number = len(tournament.rounds) + 1
    cycle, within = divmod(number - 1, size - 1)
    by_number = {position: player for position, player in enumerate(order, start=1)}
    tables: list[Table] = []
    byes: list[str] = []
    for white, black in berger_round(size, within + 1):
        if cycle % 2 == 1:
            white, black = black, white
        pair = [by_number.get(white), by_number.get(black)]
        present = [player for player in pair if player is not None and not player.withdrawn]
        if len(present) == 2:
            tables.append(Table(len(tables) + 1, (present[0].key, present[1].key)))
        elif present:
            byes.append(present[0].key)
    return Round(number, tuple(tables), tuple(byes))
