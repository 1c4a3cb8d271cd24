"""The tournament model: a JSON round trip keeps everything, results score by place."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tournament_play import new, play_out, play_round

from games.tournament import Format, Player, Result, seat_points


@settings(max_examples=25, deadline=None)
@given(
    format_=st.sampled_from(list(Format)),
    count=st.integers(min_value=4, max_value=12),
    seed=st.integers(min_value=0, max_value=10_000),
)
def test_a_tournament_survives_json_exactly(format_, count, seed):
    seats = 4 if format_ is Format.TABLE_GROUPS else 2
    smallest = 3 if format_ is Format.TABLE_GROUPS else 2
    tournament = new(format_, max(count, 2 * smallest), 3, seats, smallest)
    tournament = play_round(tournament, random.Random(seed))
    tournament = tournament.with_player(Player.member(42, 1234.5, joined_round=2))
    stored = json.loads(json.dumps(tournament.to_dict()))
    assert type(tournament).from_dict(stored) == tournament


def test_a_finished_tournament_survives_json_exactly():
    tournament = play_out(new(Format.KNOCKOUT, 7, 3), random.Random(1))
    assert type(tournament).from_dict(json.loads(json.dumps(tournament.to_dict()))) == tournament


def test_two_player_results_score_one_half_and_nothing():
    assert seat_points(Result.win(0)) == (1.0, 0.0)
    assert seat_points(Result.win(1)) == (0.0, 1.0)
    assert seat_points(Result.draw()) == (0.5, 0.5)


def test_a_table_scores_by_place_and_ties_share_the_places_they_cover():
    assert seat_points(Result((2, 1, 4, 3))) == (2.0, 3.0, 0.0, 1.0)
    assert seat_points(Result((1, 1, 3, 4))) == (2.5, 2.5, 1.0, 0.0)
    assert seat_points(Result((1, 2, 2))) == (2.0, 0.5, 0.5)


def test_a_finishing_order_given_by_hand_places_each_seat_and_ties_share():
    assert Result.from_order([[2], [0, 3], [1]], 4) == Result((2, 4, 1, 2))
    assert seat_points(Result.from_order([[2], [0, 3], [1]], 4)) == (1.5, 0.0, 3.0, 1.5)
    assert Result.from_order([[1], [0]], 2) == Result.win(1)
    assert Result.from_order([[0, 1, 2]], 3) == Result((1, 1, 1))


@pytest.mark.parametrize(
    "order", [[[0], [1], [2]], [[0], [1, 1], [2], [3]], [[0], [], [1, 2, 3]], [[0, 1, 2, 4]]]
)
def test_a_finishing_order_missing_or_repeating_a_seat_is_refused(order):
    with pytest.raises(ValueError):
        Result.from_order(order, 4)


def test_an_absent_seat_scores_as_last_whatever_the_computer_did_for_him():
    assert seat_points(Result((1, 2, 3, 4), absent=(True, False, False, False))) == (
        0.0,
        3.0,
        2.0,
        1.0,
    )
    both = seat_points(Result((1, 2, 3, 4), absent=(True, False, True, False)))
    assert both == (0.5, 3.0, 0.5, 2.0)
