"""The review model: marks by thresholds, and a review that survives JSON unchanged."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from games.review.__main__ import as_text
from games.review.model import (
    MARKS,
    WIN_THRESHOLDS,
    Judgement,
    LuckEvent,
    Review,
    SeatSummary,
    Thresholds,
    decision_accuracy,
)


def test_marks_start_at_their_thresholds():
    thresholds = Thresholds(inaccuracy=0.05, mistake=0.10, blunder=0.20)
    assert thresholds.mark(0.0) is None
    assert thresholds.mark(0.0499) is None
    assert thresholds.mark(0.05) == "inaccuracy"
    assert thresholds.mark(0.0999) == "inaccuracy"
    assert thresholds.mark(0.10) == "mistake"
    assert thresholds.mark(0.20) == "blunder"
    assert thresholds.mark(1.0) == "blunder"


@given(st.floats(0, 1), st.floats(0, 1))
def test_a_bigger_loss_never_gets_a_lighter_mark(smaller, bigger):
    smaller, bigger = sorted((smaller, bigger))
    severity = {None: -1, **{mark: rank for rank, mark in enumerate(MARKS)}}
    assert severity[WIN_THRESHOLDS.mark(smaller)] <= severity[WIN_THRESHOLDS.mark(bigger)]


def test_accuracy_is_100_without_loss_and_falls_with_it():
    points = Thresholds(1.0, 2.0, 4.0)
    assert decision_accuracy("win", WIN_THRESHOLDS, 0.0) > 99.99
    assert 60 < decision_accuracy("win", WIN_THRESHOLDS, 0.10) < 67
    assert decision_accuracy("win", WIN_THRESHOLDS, 1.0) == 0.0
    assert decision_accuracy("points", points, 0.0) == 100.0
    assert decision_accuracy("points", points, 2.0) == 50.0


def sample_review() -> Review:
    return Review(
        kind="gulbara",
        judgements=(
            Judgement(3, 0, "a1-b2 c3-d4", "a1-c3", 0.123456789, "inaccuracy", 0.4, 0.523456789),
            Judgement(4, 1, "x", "x", 0.0, None, 0.6, 0.6),
        ),
        luck=(LuckEvent(0, 0, -0.0), LuckEvent(2, 1, 0.1 + 0.2)),
        seats=(
            SeatSummary(0, 1, 0.123456789, 61.5, {"inaccuracy": 1}, 0.3, 1.0, 0.7),
            SeatSummary(1, 1, 0.0, 100.0, {}, -0.3, 0.0, 0.3),
        ),
    )


def test_json_round_trip_keeps_the_review_at_six_places():
    review = sample_review()
    again = Review.from_json(review.to_json())
    assert again.kind == "gulbara"
    assert again.judgements[0].loss == 0.123457
    assert again.judgements[0].played == "a1-b2 c3-d4"
    assert again.luck[1].luck == 0.3
    assert again.seats[0].marks == {"inaccuracy": 1}
    assert again.to_json() == review.to_json()


def test_json_has_no_negative_zero_and_is_compact():
    text = sample_review().to_json()
    assert "-0.0" not in text
    assert ": " not in text


def test_a_seat_without_minus_points_is_printed_with_a_result_of_0():
    """Barree's returns negate the minus points: a clean seat's result is -0.0."""
    review = sample_review()
    clean = SeatSummary(1, 1, 0.0, 100.0, {}, 0.0, -0.0, 0.0)
    text = as_text(Review(review.kind, review.judgements, review.luck, (clean,)))
    assert "result 0," in text
    assert "-0," not in text
