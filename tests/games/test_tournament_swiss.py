"""Swiss pairings (caissify-pairings, FIDE Dutch) checked two ways: against the rules a
Swiss must keep, written out here without the library, over random tournaments; and
against the other Dutch implementation, py4swiss, fed the same history in its own form
(FIDE's Tournament Report File)."""

from __future__ import annotations

import random
from collections import Counter, defaultdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from py4swiss.engines import DutchEngine
from py4swiss.trf import ParsedTrf
from py4swiss.trf.codes import PlayerCode
from py4swiss.trf.results import RoundResult
from py4swiss.trf.results.color_token import ColorToken
from py4swiss.trf.results.result_token import ResultToken
from py4swiss.trf.sections import PlayerSection, XSection
from tournament_play import field, new, two_player_result

from games.tournament import (
    CannotPair,
    Config,
    Format,
    Player,
    Result,
    Tournament,
    late_entrant,
    late_entry_open,
    pair_next_round,
    seat_points,
    standings,
)
from games.tournament.swiss import starting_order


def scores_before(tournament: Tournament) -> dict[str, float]:
    """Each player's score, recounted from the results here."""
    scores = {player.key: 0.0 for player in tournament.players}
    for round_ in tournament.rounds:
        for key in round_.byes:
            scores[key] += 1
        for table in round_.tables:
            assert table.result is not None
            for key, points in zip(table.seats, seat_points(table.result), strict=True):
                scores[key] += points
    return scores


def check_round(tournament: Tournament, paired: Tournament) -> None:
    """The rules every Swiss round keeps, checked on the round ``paired`` added."""
    round_ = paired.rounds[-1]
    active = {player.key for player in tournament.active_players()}
    seated = [key for table in round_.tables for key in table.seats] + list(round_.byes)
    assert sorted(seated) == sorted(active), "every active player exactly once"
    assert len(round_.byes) == len(active) % 2, "a bye only for an odd field"
    met = {frozenset(table.seats) for r in tournament.rounds for table in r.tables}
    assert all(frozenset(table.seats) not in met for table in round_.tables), "no rematch"
    earlier_byes = Counter(key for r in tournament.rounds for key in r.byes)
    scores = scores_before(tournament)
    for key in round_.byes:
        assert earlier_byes[key] == 0, "at most one bye per player"
        candidates = [k for k in active if earlier_byes[k] == 0]
        assert scores[key] == min(scores[k] for k in candidates), "the bye to the lowest group"
    colours: dict[str, list[int]] = defaultdict(list)
    for r in paired.rounds:
        for table in r.tables:
            colours[table.seats[0]].append(+1)
            colours[table.seats[1]].append(-1)
    # FIDE's one exception: in the final round a topscorer (more than half the points
    # possible so far) and his opponent may break the colour rules.
    last_round = len(paired.rounds) == paired.config.rounds
    half_the_points = (len(paired.rounds) - 1) / 2
    exempt = {
        key
        for table in round_.tables
        if last_round and any(scores[seat] > half_the_points for seat in table.seats)
        for key in table.seats
    }
    for key, history in colours.items():
        if key in exempt:
            continue
        assert abs(sum(history)) <= 2, f"{key} moved first {history}"
        assert all(len(set(history[i : i + 3])) > 1 for i in range(len(history) - 2)), (
            f"{key} had the same side three times running: {history}"
        )


@settings(max_examples=60, deadline=None)
@given(
    count=st.integers(min_value=2, max_value=20),
    rounds=st.integers(min_value=1, max_value=7),
    seed=st.integers(min_value=0, max_value=100_000),
)
def test_random_swiss_tournaments_keep_the_pairing_rules(count, rounds, seed):
    rng = random.Random(seed)
    rounds = min(rounds, count - 1)
    tournament = new(Format.SWISS, count, rounds)
    for _ in range(rounds):
        try:
            paired = tournament.with_round(pair_next_round(tournament))
        except CannotPair:
            return
        check_round(tournament, paired)
        tournament = paired
        round_ = paired.rounds[-1]
        for table in round_.tables:
            tournament = tournament.with_result(round_.number, table.number, two_player_result(rng))


def test_round_one_pairs_the_top_half_against_the_bottom_half_by_rating():
    tournament = new(Format.SWISS, 8, 3)
    round_ = pair_next_round(tournament)
    top = {"c0", "c1", "c2", "c3"}
    assert all(len(top & set(table.seats)) == 1 for table in round_.tables)
    assert {frozenset(table.seats) for table in round_.tables} == {
        frozenset(("c0", "c4")),
        frozenset(("c1", "c5")),
        frozenset(("c2", "c6")),
        frozenset(("c3", "c7")),
    }


def test_a_withdrawn_player_is_paired_no_more():
    rng = random.Random(4)
    tournament = new(Format.SWISS, 6, 4)
    round_ = pair_next_round(tournament)
    tournament = tournament.with_round(round_)
    for table in round_.tables:
        tournament = tournament.with_result(1, table.number, two_player_result(rng))
    tournament = tournament.withdrawn("c2")
    second = pair_next_round(tournament)
    assert "c2" not in second.players()
    assert len(second.byes) == 1
    assert "c2" in {line.key for line in standings(tournament)}


def test_a_late_entrant_is_paired_from_his_first_round_and_scored_nothing_before():
    rng = random.Random(9)
    tournament = new(Format.SWISS, 7, 4)
    assert late_entry_open(tournament)
    tournament = tournament.with_round(pair_next_round(tournament))
    round_ = tournament.rounds[0]
    for table in round_.tables:
        tournament = tournament.with_result(1, table.number, two_player_result(rng))
    assert late_entry_open(tournament)
    tournament = late_entrant(tournament, Player.member(77, 1600.0))
    second = pair_next_round(tournament)
    assert "m77" in second.players()
    assert second.byes == ()
    assert next(line for line in standings(tournament) if line.key == "m77").score == 0
    tournament = tournament.with_round(second)
    for table in second.tables:
        tournament = tournament.with_result(2, table.number, two_player_result(rng))
    assert not late_entry_open(tournament), "half of the four rounds have started"


def py4swiss_round(tournament: Tournament) -> set[frozenset[str | None]]:
    """The next round as py4swiss pairs it (the Dutch rules before February 2026), from
    the same history written as FIDE's Tournament Report File: it derives colours, floats
    and byes from the results itself."""
    order = starting_order(tournament.players)
    number = {player.key: n for n, player in enumerate(order, start=1)}
    key_of = {n: key for key, n in number.items()}
    results: dict[str, list[RoundResult]] = {player.key: [] for player in order}
    tokens = {1.0: ResultToken.WIN, 0.5: ResultToken.DRAW, 0.0: ResultToken.LOSS}
    for round_ in tournament.rounds:
        for key in round_.byes:
            results[key].append(
                RoundResult(
                    id=0,
                    color=ColorToken.BYE_OR_NOT_PAIRED,
                    result=ResultToken.PAIRING_ALLOCATED_BYE,
                )
            )
        for table in round_.tables:
            assert table.result is not None
            points = seat_points(table.result)
            for seat, key in enumerate(table.seats):
                colour = ColorToken.WHITE if seat == 0 else ColorToken.BLACK
                opponent = number[table.seats[1 - seat]]
                results[key].append(
                    RoundResult(id=opponent, color=colour, result=tokens[points[seat]])
                )
    scores = scores_before(tournament)
    trf = ParsedTrf(
        player_sections=[
            PlayerSection(
                code=PlayerCode.PLAYER,
                starting_number=number[player.key],
                fide_rating=round(player.rating),
                points_times_ten=round(scores[player.key] * 10),
                rank=number[player.key],
                results=results[player.key],
            )
            for player in order
        ],
        x_section=XSection(number_of_rounds=tournament.config.rounds),
    )
    trf.validate_contents()
    return {
        frozenset(key_of.get(n) for n in (pairing.white, pairing.black))
        for pairing in DutchEngine.generate_pairings(trf)
    }


def test_the_pairings_agree_with_py4swiss_on_who_meets_whom():
    """py4swiss follows the Dutch rules as they were before February 2026 and differs
    now and then (a bye, a colour); round one is the same under both, and most later
    rounds too."""
    agreed = later_rounds = 0
    for seed in range(30):
        rng = random.Random(seed)
        count = rng.randint(4, 14)
        rounds = min(5, count - 1)
        tournament = Tournament(Config("game", Format.SWISS, rounds), field(count))
        for _ in range(rounds):
            round_ = pair_next_round(tournament)
            ours = {frozenset(table.seats) for table in round_.tables} | {
                frozenset((key, None)) for key in round_.byes
            }
            theirs = py4swiss_round(tournament)
            if round_.number == 1:
                assert ours == theirs, f"seed {seed}: round one"
            else:
                later_rounds += 1
                agreed += ours == theirs
            tournament = tournament.with_round(round_)
            for table in round_.tables:
                result = two_player_result(rng)
                tournament = tournament.with_result(round_.number, table.number, result)
    print(f"{agreed} of {later_rounds} later rounds agree")
    assert agreed >= 0.8 * later_rounds, f"{agreed} of {later_rounds} later rounds agree"


def test_a_game_lost_by_a_no_show_is_not_played_so_the_two_may_meet_again():
    forfeited = new(Format.SWISS, 2, 2)
    forfeited = forfeited.with_round(pair_next_round(forfeited))
    no_show = Result((2, 1), absent=(True, False))
    forfeited = forfeited.with_result(1, 1, no_show)
    assert standings(forfeited)[0].score == 1.0
    assert {frozenset(t.seats) for t in pair_next_round(forfeited).tables} == {
        frozenset(("c0", "c1"))
    }
    played = new(Format.SWISS, 2, 2)
    played = played.with_round(pair_next_round(played)).with_result(1, 1, Result.win(1))
    with pytest.raises(CannotPair):
        pair_next_round(played)
