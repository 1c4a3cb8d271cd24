"""A rematch's seating (games.rematch): everyone one seat on, and a seed whose opening
lets the same seat number (now the next player) begin, in every game."""

from __future__ import annotations

import itertools

import pytest
from game_roots import NIM_ROOT
from hypothesis import given
from hypothesis import strategies as st

from games import GAMES, add_game_root, remove_game_root
from games.rematch import SEEDS_TRIED, rematch_seed, rotated, starter


def test_everyone_moves_one_seat_on():
    assert rotated(["Ann", "Ben"]) == ["Ben", "Ann"]
    assert rotated(["Ann", "Ben", "Cleo", "Dora"]) == ["Ben", "Cleo", "Dora", "Ann"]


@pytest.mark.parametrize("key", ["bann", "gulbara", "barbu", "barree"])
@given(first_seed=st.integers(min_value=0, max_value=10**12), data=st.data())
def test_the_seed_gives_the_wanted_seat_the_start(key, first_seed, data):
    spec = GAMES[key]
    players = data.draw(st.integers(spec.min_players, spec.max_players))
    options = spec.with_defaults({})
    begins = data.draw(st.integers(0, players - 1))
    seeds = itertools.count(first_seed)

    seed = rematch_seed(spec, players, options, begins, seeds.__next__)

    assert starter(spec, players, seed, options) == begins
    assert seed >= first_seed


def test_the_next_player_begins_a_four_player_rematch():
    spec = GAMES["barbu"]
    options = spec.with_defaults({"series": 1})
    players = ["Ann", "Ben", "Cleo", "Dora"]
    first = 2024
    begun_by = players[starter(spec, 4, first, options)]
    seated = rotated(players)
    seed = rematch_seed(
        spec, 4, options, starter(spec, 4, first, options), itertools.count(7).__next__
    )
    assert seated[starter(spec, 4, seed, options)] == players[(players.index(begun_by) + 1) % 4]


def test_a_game_that_always_starts_at_seat_0_keeps_the_first_seed():
    """Nim's seat 0 always begins: the seating alone hands the start on, and a seat that
    can never begin is not searched for longer than SEEDS_TRIED."""
    nim = next(spec for spec in add_game_root(NIM_ROOT) if spec.key == "nim")
    try:
        drawn = itertools.count(1)
        assert rematch_seed(nim, 2, {}, 0, drawn.__next__) == 1
        assert rematch_seed(nim, 2, {}, 1, drawn.__next__) == 1 + SEEDS_TRIED
    finally:
        remove_game_root(NIM_ROOT)
