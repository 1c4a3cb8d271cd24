"""Barree's review: a turn's walk and sending judged as one decision from what everyone
sees, the same every time, and every roll's luck exact over the six faces."""

from __future__ import annotations

import dataclasses
import random

import pytest

from games.barree import PHASE_DRIVE, PHASE_MOVE, ROLL, BarreeState, bot_action, new_game, review
from games.barree.review import REVIEWER, THRESHOLDS, face_values, roll_of
from games.base import Step
from games.proof import GameFacts, walk
from games.review import review_game
from games.review.model import DecisionPoint

SEED = 12


def facts(players: int, seed: int = SEED) -> GameFacts:
    names = ["ann", "bob", "cy", "di"][:players]
    return GameFacts("barree", 1, 2, 3, seed, {"rounds": 1}, names)


def played_game(players: int, level: str, seed: int = SEED) -> list[Step]:
    state = new_game(players=players, seed=seed)
    actions: list[tuple[int | None, str]] = []
    while not state.is_over:
        action = bot_action(state, seed=len(actions), level=level)
        actions.append((state.current_player, action))
        state = state.apply(action)
    return [item for item in walk(facts(players, seed), actions) if isinstance(item, Step)]


@pytest.fixture(scope="module")
def game() -> list[Step]:
    return played_game(3, "easy")


@pytest.fixture(autouse=True)
def few_playouts(monkeypatch):
    """These tests check what is judged and that nothing unseen counts, not accuracy."""
    monkeypatch.setattr(review, "PLAYOUTS", 6)
    monkeypatch.setattr(review, "VERIFYING_PLAYOUTS", 6)
    monkeypatch.setattr(review, "SECOND_LOOK_PLAYOUTS", 6)
    monkeypatch.setattr(review, "LUCK_PLAYOUTS", 2)


def test_a_turn_is_its_walk_and_its_sending(game):
    points = REVIEWER.decisions(facts(3), game)
    assert points
    judged = {point.index for point in points}
    for point in points:
        state = point.before
        assert isinstance(state, BarreeState)
        assert state.phase == PHASE_MOVE or (state.phase == PHASE_DRIVE and len(point.steps) == 1)
        assert all(step.seat == point.seat for step in point.steps)
        if len(point.steps) == 2:
            assert point.steps[1].before.phase == PHASE_DRIVE
    for step in game:
        state = step.before
        single = len(state.legal_actions()) == 1 and step.after.phase != PHASE_DRIVE
        if state.phase == PHASE_MOVE and single:
            assert step.number not in judged


def test_judgements_are_consistent_and_repeatable(game):
    for point in REVIEWER.decisions(facts(3), game)[::5]:
        judgement = REVIEWER.judge(facts(3), point)
        assert judgement == REVIEWER.judge(facts(3), point)
        assert judgement.played == " ".join(step.action for step in point.steps)
        assert judgement.loss == pytest.approx(judgement.value_best - judgement.value_played)
        assert judgement.loss >= 0
        assert judgement.mark == THRESHOLDS.mark(judgement.loss)
        assert -9 <= judgement.value_played <= 9


def with_other_unseen_cards(state: BarreeState) -> BarreeState:
    """The same position with the hidden cards and the draw pile dealt otherwise."""
    twin = state.copy()
    unseen = [card for hand in state.hidden for card in hand] + state.draw_pile
    unseen = unseen[7:] + unseen[:7]
    twin.hidden = [unseen[index * 2 : index * 2 + 2] for index in range(state.players)]
    twin.draw_pile = unseen[state.players * 2 :]
    return twin


def test_a_judgement_never_sees_the_hidden_cards_or_the_draw_pile(game):
    compared = 0
    for point in REVIEWER.decisions(facts(3), game):
        state = point.before
        assert isinstance(state, BarreeState)
        if state.revealed:
            continue
        twin = with_other_unseen_cards(state)
        assert twin.hidden != state.hidden and twin.view(None) == state.view(None)
        steps = [Step(s.number, s.seat, s.action, twin, twin, ()) for s in point.steps[:1]]
        after = twin.apply(point.steps[0].action)
        steps += [Step(s.number, s.seat, s.action, after, after, ()) for s in point.steps[1:]]
        again = DecisionPoint(point.index, point.seat, tuple(steps), twin)
        assert REVIEWER.judge(facts(3), again) == REVIEWER.judge(facts(3), point)
        compared += 1
        if compared == 3:
            break
    assert compared == 3


def test_every_roll_has_its_luck_against_the_six_faces(game):
    opening = game[:30]
    events = REVIEWER.luck(facts(3), opening)
    rolls = [step for step in opening if step.action == ROLL]
    assert [event.index for event in events] == [step.number for step in rolls]
    assert [event.seat for event in events] == [step.seat for step in rolls]
    assert events == REVIEWER.luck(facts(3), opening)
    for step, event in zip(rolls, events, strict=True):
        values = face_values(step.before, review._generator(facts(3), step.number))
        assert event.luck == pytest.approx(values[roll_of(step)] - sum(values) / 6)
        shown = step.after.die if step.after.current == step.before.current else None
        assert shown is None or roll_of(step) == shown
    assert len(face_values(rolls[0].before, random.Random(1))) == 6


def test_a_table_event_between_walk_and_sending_leaves_them_one_decision(game):
    point = next(p for p in REVIEWER.decisions(facts(3), game) if len(p.steps) == 2)
    walk_step, drive_step = point.steps
    hint = Step(
        drive_step.number, drive_step.seat, "!hint", drive_step.before, drive_step.before, ()
    )
    later = dataclasses.replace(drive_step, number=drive_step.number + 1)
    steps = [walk_step, hint, later]
    (again,) = REVIEWER.decisions(facts(3), steps)
    assert [step.action for step in again.steps] == [walk_step.action, drive_step.action]


def test_a_whole_review_is_the_same_bytes_twice():
    state = new_game(players=2, seed=3)
    actions: list[tuple[int | None, str]] = []
    while not state.is_over:
        action = bot_action(state, seed=len(actions), level="normal")
        actions.append((state.current_player, action))
        state = state.apply(action)
    game = GameFacts("barree", 1, 2, 3, 3, {"rounds": 1}, ["ann", "bob"])
    first = review_game(game, actions)
    assert first.judgements and first.luck
    assert first.to_json() == review_game(game, actions).to_json()
    assert [seat.result for seat in first.seats] == state.returns()


def test_a_sending_after_the_reveal_is_judged_on_its_own_knowing_the_cards():
    """Seed 30: easy's walk at move 34 reveals the hidden cards and lands on a rival."""
    steps = played_game(3, "easy", seed=30)
    walked, drove = steps[33], steps[34]
    assert not walked.before.revealed and drove.before.revealed
    points = {point.index: point for point in REVIEWER.decisions(facts(3, 30), steps)}
    assert [step.action for step in points[34].steps] == [walked.action]
    assert [step.action for step in points[35].steps] == [drove.action]
    sending = REVIEWER.judge(facts(3, 30), points[35])
    assert sending.best in drove.before.legal_actions()
    turn = REVIEWER.judge(facts(3, 30), points[34])
    assert turn.played == walked.action
