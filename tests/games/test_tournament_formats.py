"""Round robin, knockout and table groups: complete, balanced, seeded, without repeats
where they can be avoided; and the suggested rounds, late entry and withdrawal."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tournament_play import new, play_out, play_round

from games import GAMES
from games.tournament import (
    CannotPair,
    Format,
    Result,
    champion,
    computers_needed,
    is_finished,
    late_entry_open,
    pair_next_round,
    rounds_missed,
    standings,
    suggested_rounds,
    table_bounds,
    tables_to_open,
    with_absentees_withdrawn,
)
from games.tournament.knockout import match_winner, seed_positions
from games.tournament.table_groups import improve_seating, met_before, seating_cost


@pytest.mark.parametrize("count", range(2, 17))
def test_a_round_robin_meets_everyone_once_and_balances_who_moves_first(count):
    tournament = new(Format.ROUND_ROBIN, count, suggested_rounds(Format.ROUND_ROBIN, count))
    tournament = play_out(tournament, random.Random(count))
    meetings = Counter(frozenset(t.seats) for r in tournament.rounds for t in r.tables)
    assert set(meetings) == {frozenset(pair) for pair in combinations(tournament_keys(count), 2)}
    assert set(meetings.values()) == {1}
    first = Counter(t.seats[0] for r in tournament.rounds for t in r.tables)
    second = Counter(t.seats[1] for r in tournament.rounds for t in r.tables)
    for key in tournament_keys(count):
        assert abs(first[key] - second[key]) <= 1
    for round_ in tournament.rounds:
        seated = [key for table in round_.tables for key in table.seats] + list(round_.byes)
        assert sorted(seated) == sorted(tournament_keys(count))
        assert len(round_.byes) == count % 2
    assert Counter(key for r in tournament.rounds for key in r.byes) == Counter(
        dict.fromkeys(tournament_keys(count), 1) if count % 2 else {}
    )


def tournament_keys(count: int) -> list[str]:
    return [f"c{i}" for i in range(count)]


def test_a_double_round_robin_repeats_the_tables_with_the_first_player_swapped():
    tournament = play_out(new(Format.ROUND_ROBIN, 4, 6), random.Random(1))
    first, second = tournament.rounds[:3], tournament.rounds[3:]
    for one, two in zip(first, second, strict=True):
        assert [t.seats for t in two.tables] == [t.seats[::-1] for t in one.tables]


def test_seeds_take_the_standard_bracket_positions():
    assert seed_positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert seed_positions(4) == [1, 4, 2, 3]


@pytest.mark.parametrize("count", range(2, 65))
def test_a_knockout_with_the_favourites_winning_ends_with_seed_one_against_seed_two(count):
    tournament = new(Format.KNOCKOUT, count, suggested_rounds(Format.KNOCKOUT, count))
    first = pair_next_round(tournament)
    size = 1 << (count - 1).bit_length()
    assert sorted(first.byes) == sorted(f"c{i}" for i in range(size - count)), "top seeds"
    while not is_finished(tournament):
        tournament = tournament.with_round(pair_next_round(tournament))
        round_ = tournament.rounds[-1]
        for table in round_.tables:
            favourite = min(table.seats, key=lambda key: int(key[1:]))
            seat = table.seats.index(favourite)
            assert seat == 0, "the higher seed moves first"
            tournament = tournament.with_result(round_.number, table.number, Result.win(seat))
    assert len(tournament.rounds) == suggested_rounds(Format.KNOCKOUT, count)
    final = tournament.rounds[-1].tables
    assert [table.seats for table in final] == [("c0", "c1")]
    assert champion(tournament) == "c0"
    places = {line.key: line.place for line in standings(tournament)}
    assert places["c0"] == 1 and places["c1"] == 2
    if count >= 4:
        assert places["c2"] == places["c3"] == 3


@settings(max_examples=40, deadline=None)
@given(count=st.integers(min_value=2, max_value=64), seed=st.integers(0, 10_000))
def test_every_knockout_player_but_the_champion_goes_out_exactly_once(count, seed):
    tournament = play_out(new(Format.KNOCKOUT, count, 0), random.Random(seed))
    winner = champion(tournament)
    assert winner is not None
    losers: Counter[str] = Counter()
    for round_ in tournament.rounds:
        for table in round_.tables:
            if table.decider_of is None:
                went_through = match_winner(round_, table)
                losers.update(key for key in table.seats if key != went_through)
    assert set(losers) == set(tournament_keys(count)) - {winner}
    assert set(losers.values()) == {1}


def test_a_drawn_knockout_game_gets_a_decider_with_the_first_player_swapped():
    tournament = new(Format.KNOCKOUT, 2, 1)
    tournament = tournament.with_round(pair_next_round(tournament))
    tournament = tournament.with_result(1, 1, Result.draw())
    (decider,) = tables_to_open(tournament)
    assert decider.decider_of == 1 and decider.seats == ("c1", "c0")
    assert not is_finished(tournament)
    round_ = tournament.rounds[0].with_tables([decider]).with_result(decider.number, Result.win(0))
    tournament = tournament.with_round(round_)
    assert tables_to_open(tournament) == []
    assert is_finished(tournament) and champion(tournament) == "c1"


def test_table_bounds_come_from_the_game_s_player_counts():
    assert table_bounds(4, 4) == (4, 4)
    assert table_bounds(2, 4) == (3, 4)


def test_a_field_that_does_not_fill_four_seat_tables_is_told_how_many_computers_fill_it():
    tournament = new(Format.TABLE_GROUPS, 6, 2, seats=4, smallest=4)
    with pytest.raises(CannotPair) as refused:
        pair_next_round(tournament)
    assert refused.value.params == {"players": 6, "computers": 2}
    assert computers_needed(6, 4, 4) == 2
    assert computers_needed(5, 3, 4) == 1


@pytest.mark.parametrize(
    ("count", "sizes"), [(6, [3, 3]), (7, [4, 3]), (9, [3, 3, 3]), (11, [4, 4, 3]), (12, [4, 4, 4])]
)
def test_tables_of_three_make_up_a_field_of_games_that_allow_them(count, sizes):
    round_ = pair_next_round(new(Format.TABLE_GROUPS, count, 2, seats=4, smallest=3))
    assert [len(table.seats) for table in round_.tables] == sizes


@settings(max_examples=30, deadline=None)
@given(
    count=st.integers(min_value=6, max_value=24),
    rounds=st.integers(min_value=1, max_value=5),
    seed=st.integers(0, 10_000),
)
def test_table_groups_seat_everyone_once_and_no_single_swap_would_avoid_a_repeat(
    count, rounds, seed
):
    rng = random.Random(seed)
    tournament = new(Format.TABLE_GROUPS, count, rounds, seats=4, smallest=3)
    for _ in range(rounds):
        before = tournament
        tournament = play_round(tournament, rng)
        round_ = tournament.rounds[-1]
        seated = [key for table in round_.tables for key in table.seats]
        assert sorted(seated) == sorted(tournament_keys(count))
        met = met_before(before)
        order = [line.key for line in standings(before)]
        if not before.rounds:
            order = tournament_keys(count)
        rank = {key: index for index, key in enumerate(order)}
        tables = [list(table.seats) for table in round_.tables]
        assert improve_seating(tables, rank, met) == [
            sorted(t, key=rank.__getitem__) for t in tables
        ]
        cost = sum(seating_cost(table, rank, met) for table in tables)
        cut = sum(
            seating_cost(order[start : start + len(table)], rank, met)
            for start, table in zip(
                [sum(len(t) for t in tables[:i]) for i in range(len(tables))], tables, strict=True
            )
        )
        assert cost <= cut, "the search never seats worse than the plain cut by score"


def test_sixteen_players_meet_sixteen_new_ones_in_round_two():
    tournament = play_round(new(Format.TABLE_GROUPS, 16, 2, seats=4, smallest=4), random.Random(3))
    second = pair_next_round(tournament)
    met = met_before(tournament)
    assert all(b not in met[a] for t in second.tables for a, b in combinations(t.seats, 2))


def test_suggested_rounds_follow_the_field():
    assert suggested_rounds(Format.SWISS, 9) == 5
    assert suggested_rounds(Format.SWISS, 64) == 6
    assert suggested_rounds(Format.SWISS, 3) == 3
    assert suggested_rounds(Format.ROUND_ROBIN, 5) == 5
    assert suggested_rounds(Format.ROUND_ROBIN, 6) == 5
    assert suggested_rounds(Format.KNOCKOUT, 6) == 3
    assert suggested_rounds(Format.TABLE_GROUPS, 8, 4) == 3
    assert suggested_rounds(Format.TABLE_GROUPS, 64, 4) == 6


def test_only_a_swiss_takes_late_entrants():
    assert late_entry_open(new(Format.SWISS, 8, 4))
    for format_ in (Format.ROUND_ROBIN, Format.KNOCKOUT, Format.TABLE_GROUPS):
        assert not late_entry_open(new(format_, 8, 4, seats=4, smallest=4))


def test_a_player_absent_in_two_rounds_is_withdrawn_and_paired_no_more():
    tournament = new(Format.TABLE_GROUPS, 8, 4, seats=4, smallest=4)
    for _ in range(2):
        tournament = tournament.with_round(pair_next_round(tournament))
        round_ = tournament.rounds[-1]
        for table in round_.tables:
            absent = tuple(key == "c5" for key in table.seats)
            result = Result(tuple(range(1, len(table.seats) + 1)), absent=absent)
            tournament = tournament.with_result(round_.number, table.number, result)
        tournament = with_absentees_withdrawn(tournament)
    assert rounds_missed(tournament, "c5") == 2
    assert tournament.player("c5").withdrawn
    with pytest.raises(CannotPair):
        pair_next_round(tournament)  # seven players do not fill tables of four


def test_a_withdrawn_knockout_player_s_opponent_goes_through_on_a_walkover():
    tournament = new(Format.KNOCKOUT, 4, 2).withdrawn("c3")
    first = pair_next_round(tournament)
    assert [table.seats for table in first.tables] == [("c1", "c2")]
    assert first.byes == ("c0",)
    tournament = tournament.with_round(first).with_result(1, 1, Result.win(1))
    final = pair_next_round(tournament)
    assert [table.seats for table in final.tables] == [("c0", "c2")]


def test_the_games_tables_follow_from_their_specs():
    barbu, barree = GAMES["barbu"], GAMES["barree"]
    assert table_bounds(barbu.min_players, barbu.max_players) == (4, 4)
    assert table_bounds(barree.min_players, barree.max_players) == (3, 4)
