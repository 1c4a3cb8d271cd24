"""Swiss rounds for two-player games: the FIDE Dutch system, paired by py4swiss.

py4swiss reads a tournament as FIDE's Tournament Report File (TRF) holds it: each player's
starting number, score and one entry per round (the opponent, the colour, the result, or
a bye). From that history it works out everything the Dutch rules look at (score groups,
colour preferences, floats, who already had a bye) itself, so this module only writes
the history down. Colour is who moves first: white is seat 0.

Starting numbers follow the league rating (best first; entry order breaks ties), as FIDE
ranks a field by rating. A round a player was not paired in (a late entrant's first rounds;
Decision: they score 0, with no half-point byes) is a zero-point bye in the file, and a
withdrawn player is left out of the round being paired. A two-player seat marked absent is
a forfeit: the game does not count as played, so the two may meet again.
"""

from __future__ import annotations

from py4swiss.engines import DutchEngine
from py4swiss.engines.common import PairingError
from py4swiss.trf import ParsedTrf
from py4swiss.trf.codes import PlayerCode
from py4swiss.trf.results import RoundResult
from py4swiss.trf.results.color_token import ColorToken
from py4swiss.trf.results.result_token import ResultToken
from py4swiss.trf.sections import PlayerSection, XSection

from games.base import N_
from games.tournament.model import CannotPair, Player, Round, Table, Tournament
from games.tournament.standings import records, seat_points

_TOKEN_BY_POINTS = {1.0: ResultToken.WIN, 0.5: ResultToken.DRAW, 0.0: ResultToken.LOSS}


def starting_order(players: list[Player] | tuple[Player, ...]) -> list[Player]:
    """The field by league rating, best first (FIDE's initial ranking)."""
    return sorted(players, key=lambda player: -player.rating)


def pair_swiss_round(tournament: Tournament) -> Round:
    """The next round's tables, paired by the Dutch system; at most one bye, to a player
    of the lowest score group who has had none."""
    if any(not round_.is_complete for round_ in tournament.rounds):
        raise CannotPair(N_("The round before has tables still playing."))
    paired = [player for player in tournament.players if not player.withdrawn]
    if len(paired) < 2:
        raise CannotPair(N_("A round needs at least two players."))
    order = starting_order(tournament.players)
    number_of = {player.key: number for number, player in enumerate(order, start=1)}
    key_of = {number: key for key, number in number_of.items()}
    scores = {key: record.score for key, record in records(tournament).items()}
    trf = ParsedTrf(
        player_sections=[
            _player_section(tournament, player, number_of, scores[player.key]) for player in order
        ],
        x_section=XSection(
            number_of_rounds=max(tournament.config.rounds, len(tournament.rounds) + 1),
            zeroed_ids={number_of[player.key] for player in order if player.withdrawn},
        ),
    )
    trf.validate_contents()
    try:
        pairings = DutchEngine.generate_pairings(trf)
    except PairingError as error:
        raise CannotPair(N_("Every pairing left would repeat a game.")) from error
    tables: list[Table] = []
    byes: list[str] = []
    for pairing in pairings:
        if pairing.white == 0 or pairing.black == 0:
            byes.append(key_of[pairing.white or pairing.black])
        else:
            seats = (key_of[pairing.white], key_of[pairing.black])
            tables.append(Table(len(tables) + 1, seats))
    return Round(len(tournament.rounds) + 1, tuple(tables), tuple(byes))


def _player_section(
    tournament: Tournament, player: Player, number_of: dict[str, int], score: float
) -> PlayerSection:
    results = [_round_result(round_, player.key, number_of) for round_ in tournament.rounds]
    return PlayerSection(
        code=PlayerCode.PLAYER,
        starting_number=number_of[player.key],
        fide_rating=round(player.rating),
        points_times_ten=round(score * 10),
        rank=number_of[player.key],
        results=results,
    )


def _round_result(round_: Round, key: str, number_of: dict[str, int]) -> RoundResult:
    if key in round_.byes:
        return RoundResult(
            id=0, color=ColorToken.BYE_OR_NOT_PAIRED, result=ResultToken.PAIRING_ALLOCATED_BYE
        )
    for table in round_.tables:
        if key not in table.seats or table.result is None:
            continue
        seat = table.seats.index(key)
        opponent = table.seats[1 - seat]
        color = ColorToken.WHITE if seat == 0 else ColorToken.BLACK
        points = seat_points(table.result)[seat]
        if table.result.absent is not None and any(table.result.absent):
            token = ResultToken.FORFEIT_WIN if points == 1.0 else ResultToken.FORFEIT_LOSS
        else:
            token = _TOKEN_BY_POINTS[points]
        return RoundResult(id=number_of[opponent], color=color, result=token)
    return RoundResult(id=0, color=ColorToken.BYE_OR_NOT_PAIRED, result=ResultToken.ZERO_POINT_BYE)
