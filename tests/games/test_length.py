"""A table's length before it starts (games.length): decisions read from an action log's
timestamps, their median or the default, the estimate for a table's options and seats,
the rounding, and the decisions per part each game declares, checked against computer
play."""

from __future__ import annotations

import statistics

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import GAMES
from games.barbu import BarbuState
from games.base import Length
from games.length import (
    DEFAULT_SECONDS_PER_DECISION,
    MEASURED_AT_LEAST,
    LoggedStep,
    decision_times,
    estimate,
    readable,
    seconds_per_decision,
)
from texts.table import length_line

DEALS = ("{count} deal", "{count} deals")


def test_a_save_begun_by_a_person_is_a_decision_as_long_as_the_gap_before_it():
    log = [
        LoggedStep(0, "a", 100.0),  # nothing before it to measure from
        LoggedStep(1, "b", 130.0),  # 30 s
        LoggedStep(2, "computer", 130.0),  # answered in the same save: no decision
        LoggedStep(0, "c", 135.0),  # 5 s
        LoggedStep(0, "auto", 135.0),  # played itself in that save
        LoggedStep(2, "computer", 200.0),  # a computer's save (after a timeout, say)
        LoggedStep(1, "!resign", 260.0),  # a table event, nobody's decision
        LoggedStep(1, "d", 262.0),  # 2 s after the save before it
    ]
    assert decision_times(log, people={0, 1}) == [30.0, 5.0, 2.0]


def test_the_median_needs_enough_decisions_else_the_default_holds():
    assert seconds_per_decision([]) == DEFAULT_SECONDS_PER_DECISION
    few = [3.0] * (MEASURED_AT_LEAST - 1)
    assert seconds_per_decision(few) == DEFAULT_SECONDS_PER_DECISION
    enough = [3.0] * (MEASURED_AT_LEAST - 1) + [86_400.0] * (MEASURED_AT_LEAST - 2)
    assert seconds_per_decision(enough) == 3.0, "a night away does not move the median"


def test_computers_take_their_share_of_the_decisions_off_the_time():
    length = Length(28, DEALS, 40.0)
    people = estimate(length, players=4, computers=0, seconds_per_decision=7.0)
    alone = estimate(length, players=4, computers=3, seconds_per_decision=7.0)
    assert (people.seconds, people.people) == (2 * 3600, 4), "7840 s: about 2 hours"
    assert (alone.seconds, alone.people, alone.computers) == (35 * 60, 1, 3), "1960 s"


@pytest.mark.parametrize(
    ("seconds", "said"),
    [
        (1, 5 * 60),
        (8 * 60, 10 * 60),
        (57 * 60, 55 * 60),
        (58 * 60, 3600),
        (90 * 60 - 1, 3600),
        (90 * 60 + 1, 2 * 3600),
        (47 * 3600, 47 * 3600),
        (63 * 3600, 3 * 86400),
    ],
)
def test_a_time_is_rounded_as_a_person_says_it(seconds, said):
    assert readable(seconds) == said


@given(st.floats(min_value=0, max_value=1e8, allow_nan=False))
def test_a_rounded_time_is_a_whole_number_of_its_unit_and_close(seconds):
    said = readable(seconds)
    assert said % 300 == 0 and said > 0
    # Whole hours from one hour on: an hour and a half is the farthest off, by a third.
    assert abs(said - seconds) <= max(150, seconds / 3 + 1) or seconds < 300


def test_barbus_length_follows_its_series_and_autoplay():
    spec = GAMES["barbu"]
    assert spec.length is not None
    full = spec.length(spec.with_defaults({}))
    one = spec.length(spec.with_defaults({"series": 1}))
    by_hand = spec.length(spec.with_defaults({"series": 1, "autoplay": False}))
    assert (full.parts, one.parts) == (28, 7)
    assert by_hand.decisions_per_part > one.decisions_per_part
    assert [key for key, game in GAMES.items() if game.length is not None] == ["barbu", "barree"]


def test_the_line_in_both_languages():
    barbu = GAMES["barbu"]
    assert barbu.length is not None
    length = barbu.length(barbu.with_defaults({}))
    full = estimate(length, players=4, computers=0, seconds_per_decision=7.0)
    alone = estimate(length, players=4, computers=3, seconds_per_decision=7.0)
    assert length_line("en", full) == "28 deals · about 2 hours with 4 people"
    assert length_line("de", full) == "28 Spiele · etwa 2 Stunden mit 4 Personen"
    assert length_line("en", alone) == (
        "28 deals · about 35 minutes with 1 person (the computers play at once)"
    )
    assert length_line("de", alone) == (
        "28 Spiele · etwa 35 Minuten mit 1 Person (die Computer spielen sofort)"
    )


def measured_decisions(key: str, players: int, level: str, games: int, **options: object):
    """The decisions a part takes in computer play, all seats together; a Barbu card
    that is a seat's only one plays itself (``autoplay``)."""
    spec = GAMES[key]
    per_part = []
    for seed in range(games):
        state = spec.new_game(players=players, seed=seed, **options)
        decisions = step = 0
        while not state.is_over:
            forced = isinstance(state, BarbuState) and state.autoplay and state.forced_play()
            action = forced or spec.bot_action(state, seed=step, level=level)
            decisions += not forced
            state = state.apply(action)
            step += 1
        assert spec.length is not None
        per_part.append(decisions / spec.length(spec.with_defaults(options)).parts)
    return statistics.mean(per_part)


@pytest.mark.parametrize(
    ("key", "players", "level", "games", "options"),
    [
        ("barbu", 4, "easy", 6, {"series": 1}),
        ("barbu", 4, "easy", 6, {"series": 1, "autoplay": False}),
        ("barbu", 4, "easy", 6, {"series": 1, "french": True}),
        ("barree", 2, "normal", 40, {}),
        ("barree", 4, "normal", 40, {}),
    ],
)
def test_the_declared_decisions_per_part_match_computer_play(key, players, level, games, options):
    spec = GAMES[key]
    assert spec.length is not None
    declared = spec.length(spec.with_defaults(options)).decisions_per_part
    measured = measured_decisions(key, players, level, games, **options)
    assert measured == pytest.approx(declared, rel=0.15)
