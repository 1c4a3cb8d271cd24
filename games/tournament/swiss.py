"""Swiss rounds for two-player games: the FIDE Dutch system (Handbook C.04.3 as in force
from February 2026), paired by caissify-pairings.

caissify-pairings pairs one round from a snapshot of each player: score, colour history,
float history, byes, and the games played so far. It leaves deriving that history to its
caller, which this module does from the rounds' results, as its documentation spells out:
a player floated down when he met an opponent with a lower score before the round (up if
higher), and a bye or a forfeit win counts as a downfloat, as FIDE has it. The colour
history lists played games only: the engine reads its last two entries as the last two
games (FIDE's "same colour twice running"), so an unplayed round must not sit between
them. Colour is who moves first: white is seat 0.

Starting numbers follow the league rating (best first; entry order breaks ties), as FIDE
ranks a field by rating. A round a player was not paired in (a late entrant's first
rounds; Decision: they score 0, with no half-point byes) has no colour and no float, and a
withdrawn player is left out of the round being paired. A two-player seat marked absent is
a forfeit: the game does not count as played, so the two may meet again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from caissify_pairings import generate_pairings

from games.base import N_
from games.tournament.model import CannotPair, Player, Round, Table, Tournament
from games.tournament.standings import seat_points


def starting_order(players: Sequence[Player]) -> list[Player]:
    """The field by league rating, best first (FIDE's initial ranking)."""
    return sorted(players, key=lambda player: -player.rating)


def pair_swiss_round(tournament: Tournament) -> Round:
    """The next round's tables, paired by the Dutch system; at most one bye, to a player
    of the lowest score group who has had none."""
    if any(not round_.is_complete for round_ in tournament.rounds):
        raise CannotPair(N_("The round before has tables still playing."))
    order = starting_order(tournament.players)
    if sum(not player.withdrawn for player in order) < 2:
        raise CannotPair(N_("A round needs at least two players."))
    history = SwissHistory(tournament, order)
    pairings = generate_pairings(
        system="dutch",
        players=[history.snapshot(player) for player in order if not player.withdrawn],
        previous_pairings=history.played,
        round_number=len(tournament.rounds) + 1,
        total_rounds=max(tournament.config.rounds, len(tournament.rounds) + 1),
    )
    key_of = {number: player.key for number, player in enumerate(order, start=1)}
    tables: list[Table] = []
    byes: list[str] = []
    for pairing in sorted(pairings, key=lambda pairing: int(pairing["table"])):
        black = pairing.get("black_id")
        if black is None:
            byes.append(key_of[int(pairing["white_id"])])
        else:
            seats = (key_of[int(pairing["white_id"])], key_of[int(black)])
            tables.append(Table(len(tables) + 1, seats))
    # When no pairing keeps FIDE's absolute rules the engine only logs a warning and hands
    # out extra or second byes (or a rematch): that round cannot be paired.
    rematch = any(
        tuple(history.number[key] for key in seats) in history.played
        or tuple(history.number[key] for key in reversed(seats)) in history.played
        for seats in (table.seats for table in tables)
    )
    second_bye = any(history.byes[key] + history.forfeit_wins[key] for key in byes)
    if rematch or second_bye or len(byes) > sum(not p.withdrawn for p in order) % 2:
        raise CannotPair(N_("Every pairing left would repeat a game or give a second bye."))
    return Round(len(tournament.rounds) + 1, tuple(tables), tuple(byes))


class SwissHistory:
    """Each player's score, colours, floats and byes, and the pairs who played, as the
    Dutch system reads them, from the rounds so far."""

    def __init__(self, tournament: Tournament, order: Sequence[Player]) -> None:
        self.number = {player.key: n for n, player in enumerate(order, start=1)}
        self.score = dict.fromkeys(self.number, 0.0)
        self.colours: dict[str, list[str]] = {key: [] for key in self.number}
        self.floats: dict[str, list[str]] = {key: [] for key in self.number}
        self.byes = dict.fromkeys(self.number, 0)
        self.forfeit_wins = dict.fromkeys(self.number, 0)
        self.played: set[tuple[int, int]] = set()
        for round_ in tournament.rounds:
            self._add(round_)

    def _add(self, round_: Round) -> None:
        before = dict(self.score)
        unpaired = set(self.number)
        for key in round_.byes:
            unpaired.discard(key)
            self.score[key] += 1.0
            self.floats[key].append("down")
            self.byes[key] += 1
        for table in round_.tables:
            if table.result is None:
                continue
            points = seat_points(table.result)
            forfeit = table.result.absent is not None and any(table.result.absent)
            if not forfeit:
                self.played.add((self.number[table.seats[0]], self.number[table.seats[1]]))
            for seat, key in enumerate(table.seats):
                unpaired.discard(key)
                self.score[key] += points[seat]
                other = table.seats[1 - seat]
                if forfeit:
                    won = points[seat] > points[1 - seat]
                    self.forfeit_wins[key] += won
                    self.floats[key].append("down" if won else "none")
                else:
                    self.colours[key].append("white" if seat == 0 else "black")
                    self.floats[key].append(_float(before, key, other))
        for key in unpaired:
            self.floats[key].append("none")

    def snapshot(self, player: Player) -> dict[str, Any]:
        """The player as the pairing engine takes him."""
        key = player.key
        return {
            "id": self.number[key],
            "name": key,
            "score": self.score[key],
            "rating": round(player.rating),
            "starting_number": self.number[key],
            "color_hist": list(self.colours[key]),
            "float_history": list(self.floats[key]),
            "bye_count": self.byes[key],
            "forfeit_win_count": self.forfeit_wins[key],
        }


def _float(before: dict[str, float], key: str, other: str) -> str:
    if before[key] > before[other]:
        return "down"
    if before[key] < before[other]:
        return "up"
    return "none"
