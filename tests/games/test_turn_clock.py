"""The pure clock rules: deadlines, the one reminder, timeouts per game, pauses."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from games import GAMES
from games import turn_clock as rules
from texts.common import duration

NOW = 1_000_000.0


def running(seconds: int = 600, seat: int | None = 1) -> dict:
    return rules.start_turn(rules.new_clock(seconds), seat, NOW)


def test_a_turn_gets_the_full_time_and_one_reminder_before_the_deadline():
    clock = running()
    assert clock["deadline"] == NOW + 600
    reminder_at = NOW + 600 * (1 - rules.REMINDER_SHARE)
    assert rules.due_at(clock) == reminder_at
    assert rules.what_is_due(clock, reminder_at - 1) is None
    assert rules.what_is_due(clock, reminder_at) == rules.Due("remind", 1)
    clock = rules.reminded(clock)
    assert rules.due_at(clock) == NOW + 600
    assert rules.what_is_due(clock, NOW + 599) is None
    assert rules.what_is_due(clock, NOW + 600) == rules.Due("expire", 1)


def test_a_computer_or_nobody_to_act_has_no_deadline():
    clock = running(seat=None)
    assert rules.due_at(clock) is None
    assert rules.what_is_due(clock, NOW + 10**9) is None


def test_two_player_games_end_in_a_loss_the_others_get_a_substitute():
    outcomes = {kind: rules.timeout_outcome(kind) for kind in GAMES}
    assert outcomes == {
        "bann": "loss",
        "gulbara": "loss",
        "barbu": "substitute",
        "barree": "substitute",
    }


def test_a_new_two_player_game_loses_on_time_as_its_spec_declares(nim):
    assert rules.timeout_outcome("nim") == "loss"
    assert rules.progress_marker("nim", GAMES["nim"].new_game(players=2, seed=1)) is None


def test_the_progress_marker_is_the_deal_or_round():
    barbu = GAMES["barbu"].new_game(players=4, seed=1)
    barree = GAMES["barree"].new_game(players=3, seed=1)
    assert rules.progress_marker("barbu", barbu) == barbu.deal_number
    assert rules.progress_marker("barree", barree) == barree.round_no
    assert rules.progress_marker("bann", GAMES["bann"].new_game(players=2, seed=1)) is None


def test_a_pause_needs_every_human_and_keeps_the_time_left():
    clock = rules.propose_pause(running(), 0)
    assert not rules.pause_agreed(clock, [0, 1])
    clock = rules.accept_pause(clock, 1)
    assert rules.pause_agreed(clock, [0, 1])
    paused = rules.pause(clock, NOW + 100)
    assert rules.is_paused(paused) and "pause_votes" not in paused
    assert rules.due_at(paused) == NOW + 100 + rules.MAX_PAUSE
    assert rules.what_is_due(paused, NOW + 100 + rules.MAX_PAUSE) == rules.Due("pause_over")
    resumed = rules.resume(paused, NOW + 5000)
    assert not rules.is_paused(resumed)
    assert resumed["deadline"] == NOW + 5000 + 500


def test_a_reminder_due_during_the_pause_is_not_sent_again_after_it():
    clock = rules.reminded(running())
    resumed = rules.resume(rules.pause(clock, NOW + 550), NOW + 9000)
    assert resumed["reminded"] and rules.due_at(resumed) == NOW + 9000 + 50


def test_a_turn_starting_while_paused_waits_for_the_resume():
    paused = rules.pause(running(), NOW)
    turned = rules.start_turn(paused, 0, NOW + 10)
    assert turned["deadline"] is None and rules.is_paused(turned)
    assert rules.resume(turned, NOW + 50)["deadline"] == NOW + 50 + 600


@given(
    seconds=st.sampled_from(list(rules.CLOCK_CHOICES.values())),
    elapsed=st.floats(min_value=0, max_value=4 * rules.DAY),
)
def test_nothing_is_ever_due_before_it_is_due(seconds: int, elapsed: float):
    clock = running(seconds)
    due = rules.what_is_due(clock, NOW + elapsed)
    at = rules.due_at(clock)
    assert (due is not None) == (at is not None and NOW + elapsed >= at)
    if due is not None and due.kind == "expire":
        assert elapsed >= seconds


def test_clocks_read_like_a_person_says_them():
    assert duration("en", 600) == "10 minutes"
    assert duration("en", rules.DAY) == "1 day"
    assert duration("en", 3 * rules.DAY) == "3 days"
    assert duration("en", 2 * rules.HOUR) == "2 hours"
    assert duration("de", rules.HOUR) == "1 Stunde"
    assert duration("de", 3 * rules.DAY) == "3 Tage"
