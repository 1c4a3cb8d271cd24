"""Barbu's review: decisions with a choice judged from the deciding seat's view only,
the same every time, and each deal's luck per seat."""

from __future__ import annotations

import random

import pytest

from games.barbu import SPEC, BarbuState, bot_action, new_game, parse_card
from games.barbu.review import REVIEWER, THRESHOLDS
from games.base import Step
from games.proof import GameFacts, walk
from games.review.model import DecisionPoint

OPTIONS = {"series": 1, "discard_king": False, "autoplay": True, "french": False}


def facts(seed: int) -> GameFacts:
    return GameFacts("barbu", 1, 2, 3, seed, dict(OPTIONS), ["ann", "bob", "cy", "di"])


def one_deal(seed: int) -> list[Step]:
    """The steps of the first deal of a game between easy computers."""
    state = new_game(seed=seed, series=1)
    actions: list[tuple[int | None, str]] = []
    while state.deal_number == 0:
        seat = state.current_player
        action = bot_action(state, seed=len(actions), level="easy")
        actions.append((seat, action))
        state = state.apply(action)
    actions.append((0, "!resign"))
    return [item for item in walk(facts(seed), actions) if isinstance(item, Step)]


@pytest.fixture(scope="module")
def deal() -> list[Step]:
    return one_deal(41)


def point_at(state: BarbuState, action: str, index: int = 7) -> DecisionPoint:
    seat = state.current_player
    assert seat is not None
    step = Step(index, seat, action, state, state.apply(action), ())
    return DecisionPoint(index, seat, (step,), state)


def test_every_decision_with_a_choice_and_only_those(deal):
    points = REVIEWER.decisions(facts(41), deal)
    numbers = {point.index for point in points}
    for step in deal:
        if step.is_table_event:
            assert step.number not in numbers
            continue
        choices = len(step.before.legal_actions())
        assert (step.number in numbers) == (choices > 1)
    phases = {point.before.phase for point in points if isinstance(point.before, BarbuState)}
    assert phases == {"contract", "doubling", "play"}


def test_judgements_are_consistent_and_repeatable(deal):
    points = REVIEWER.decisions(facts(41), deal)
    for point in points[:: max(1, len(points) // 12)]:
        judgement = REVIEWER.judge(facts(41), point)
        assert judgement == REVIEWER.judge(facts(41), point)
        assert judgement.played == point.steps[0].action
        assert judgement.best in point.before.legal_actions()
        assert judgement.loss == pytest.approx(judgement.value_best - judgement.value_played)
        assert judgement.loss >= 0
        assert judgement.mark == THRESHOLDS.mark(judgement.loss)


def swap_unseen(state: BarbuState, seat: int) -> BarbuState:
    """The same position for ``seat`` with a card of the same suit exchanged between the
    two other hands that hold the most of that suit."""
    data = state.to_dict()
    hands = data["hands"]
    others = [other for other in range(4) if other != seat]
    for suit in range(4):
        holders = [other for other in others if any(card // 13 == suit for card in hands[other])]
        if len(holders) >= 2:
            first, second = holders[:2]
            mine = next(card for card in hands[first] if card // 13 == suit)
            theirs = next(card for card in hands[second] if card // 13 == suit)
            if mine != theirs:
                hands[first][hands[first].index(mine)] = theirs
                hands[second][hands[second].index(theirs)] = mine
                return SPEC.from_dict(data)
    raise AssertionError("no two other hands share a suit")


def test_a_judgement_never_sees_the_other_hands(deal):
    judged = 0
    for point in REVIEWER.decisions(facts(41), deal)[::9]:
        state = point.before
        assert isinstance(state, BarbuState)
        twin = swap_unseen(state, point.seat)
        assert twin.hands != state.hands
        assert twin.view(point.seat) == state.view(point.seat)
        action = point.steps[0].action
        assert REVIEWER.judge(facts(41), point_at(twin, action, point.index)) == REVIEWER.judge(
            facts(41), point
        )
        judged += 1
    assert judged >= 3


def test_taking_the_king_of_hearts_for_nothing_is_a_blunder():
    """Barbu: clubs led, the king of hearts discarded on it; the last seat to play holds
    the ace of clubs and a low club."""
    data = new_game(seed=5, series=1).to_dict()
    south = [parse_card(text) for text in ("AC", "2C", "3D", "4D", "5D", "6D", "7S", "8S")]
    south += [parse_card(text) for text in ("9S", "TS", "2H", "3H", "4H")]
    played = [parse_card(text) for text in ("9C", "KH", "4C")]
    rest = [card for card in range(52) if card not in south and card not in played]
    random.Random(1).shuffle(rest)
    data.update(
        phase="play",
        contract="barbu",
        remaining=[c for c in data["remaining"] if c != "barbu"],
        first_declarer=1,
        leader=1,
        trick=played,
        hands=[sorted(south), sorted(rest[:12]), sorted(rest[12:24]), sorted(rest[24:])],
    )
    state = SPEC.from_dict(data)
    assert state.current_player == 0
    for seed in (5, 6, 7):
        # other seeds, other worlds and playouts: the review's marks must not hang on them
        judgement = REVIEWER.judge(facts(seed), point_at(state, "AC"))
        assert judgement.best == "2C"
        assert judgement.mark == "blunder"
        assert REVIEWER.judge(facts(seed), point_at(state, "2C")).mark is None


def test_each_deal_gives_every_seat_its_luck_once(deal):
    events = REVIEWER.luck(facts(41), deal)
    assert [event.seat for event in events] == [0, 1, 2, 3]
    assert {event.index for event in events} == {0}
    assert events == REVIEWER.luck(facts(41), deal)
    assert all(abs(event.luck) < 40 for event in events)


def test_a_typed_move_is_judged_as_the_same_action_written_canonically():
    state = new_game(seed=8, series=1).apply("notricks")
    while state.phase == "doubling":
        state = state.apply("pass")
    card = state.legal_actions()[-1]
    typed = REVIEWER.judge(facts(8), point_at(state, card.lower()))
    canonical = REVIEWER.judge(facts(8), point_at(state, card))
    assert typed.played == card.lower()
    assert (typed.loss, typed.best, typed.value_played) == (
        canonical.loss,
        canonical.best,
        canonical.value_played,
    )
