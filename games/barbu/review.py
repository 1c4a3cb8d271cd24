"""Barbu's game review: every contract choice, doubling answer and card with a choice
judged in expected points of the deal, and the luck of every deal.

Hidden information stays hidden: a decision is judged from the deciding seat's view
only (``BarbuState.view``: its own hand, the cards played, the doubles), exactly as the
computer player decides (``games.barbu.computer``). The unseen cards are dealt to the
other seats in ``worlds`` consistent with everything their play showed (voids, trump
ceilings, heart leads, Domino passes), and each legal action is played out in every
world by the careful playout player of the hard computer (``_sensible_card``). Every
action of a decision meets the same worlds and the same playout dice, so the
differences between actions carry far less noise than the averages themselves. The
best action found and the one played then meet again in fresh worlds, which give the
value lost: the worlds that picked the best action flatter it. A loss those worlds find
near a mark is measured once more, in four times as many fresh worlds.

The values, from the mover's side, more being better:

- a card: the seat's expected deal score after the doubles;
- a doubling answer: the same with this answer's doubles added to those already made
  (the answers still to come are not foreseen);
- a contract: declarer's expected contract score minus what a declarer scores there on
  average (``DECLARER_PAR``), since every contract must be played once a series and
  a choice spends one: the contract where the hand beats the average most is best.

Luck of a deal, for each seat: how much better its dealt hand scores than a random
hand, averaged over the contracts declarer could still choose (in the French form the
one the deal plays), each seat's hand judged with the other hands unseen. A mean over
contracts rather than declarer's best one keeps it unbiased: declarer's choice is a
decision, judged on its own.

Budgets are counts of playouts, and the worlds and playouts are drawn from a generator
seeded with the record's seed and the decision's move number only, so a record gets the
same review on every machine.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from games.barbu.cards import PASS, RANKS, SUITS, Card, parse_card, settle
from games.barbu.computer import (
    _apply_to_position,
    _fresh_position,
    _playout,
    _position_from_view,
    _sample_hands,
    _sensible_card,
    _unseen_constraints,
    contract_par,
)
from games.barbu.doubling import parse_seats
from games.barbu.state import BarbuState
from games.barbu.views import BarbuView
from games.base import Step
from games.proof import GameFacts
from games.review.model import DecisionPoint, Judgement, LuckEvent, Thresholds, Unit

CARD_PLAYOUTS = 96
"""Playouts per card decision to find the best card, shared among its legal cards."""
CONTRACT_PLAYOUTS = 176
"""Playouts per contract choice to find the best one, shared among its contracts (with
suits and ranks)."""
DOUBLING_WORLDS = 24
"""Worlds per doubling answer to find the best one: one playout each serves every answer."""
MIN_WORLDS = 8
"""Each action of a decision meets at least this many worlds."""
VERIFYING_WORLDS = 32
"""Fresh worlds in which the best action found and the one played meet again, for the
value lost: the best of many noisy averages is too high by its luck, and these worlds
did not choose it."""
SECOND_LOOK = 2.0
SECOND_LOOK_WORLDS = 128
"""A loss of at least ``SECOND_LOOK`` points in the verifying worlds (half the
inaccuracy threshold) is measured again in this many fresh worlds, which alone give it:
in 32 worlds a deal's doubles move the loss by several points, so a mark found there
was often not found from another seed."""
LUCK_WORLDS = 6
"""Worlds per seat and contract in a deal's luck, and as many random deals for the
average it is measured against."""

THRESHOLDS = Thresholds(inaccuracy=4.0, mistake=8.0, blunder=16.0)
"""Points of the deal lost (see the README's game review section for the measurement)."""


def _generator(facts: GameFacts, index: int) -> random.Random:
    """The one source of a decision's worlds: the record's seed and the move number."""
    return random.Random(f"barbu review {facts.seed} {index}")


def _state(point_or_step: DecisionPoint | Step) -> BarbuState:
    state = point_or_step.before
    assert isinstance(state, BarbuState)
    return state


@dataclass(frozen=True)
class BarbuReviewer:
    """The ``GameReviewer`` of Barbu (``REVIEWER``)."""

    unit: Unit = "points"
    thresholds: Thresholds = THRESHOLDS

    def decisions(self, facts: GameFacts, steps: Sequence[Step]) -> list[DecisionPoint]:
        points = []
        for step in steps:
            if step.is_table_event:
                continue
            state = _state(step)
            seat = state.current_player
            if seat is not None and len(state.legal_actions()) > 1:
                points.append(DecisionPoint(step.number, seat, (step,), state))
        return points

    def judge(self, facts: GameFacts, point: DecisionPoint) -> Judgement:
        view = _state(point).view(point.seat)
        rng = _generator(facts, point.index)
        legal = view["legal"]
        chosen = _legal_form(point.steps[0])
        found = action_values(view, legal, _selection_worlds(view), rng)
        best = max(legal, key=lambda action: found[action])
        values = found
        if best != chosen:
            values = action_values(view, [best, chosen], VERIFYING_WORLDS, rng)
            if values[best] - values[chosen] >= SECOND_LOOK:
                values = action_values(view, [best, chosen], SECOND_LOOK_WORLDS, rng)
            if values[best] <= values[chosen]:
                best = chosen
        loss = values[best] - values[chosen]
        return Judgement(
            index=point.index,
            seat=point.seat,
            played=" ".join(step.action for step in point.steps),
            best=best,
            loss=loss,
            mark=self.thresholds.mark(loss),
            value_played=values[chosen],
            value_best=values[best],
        )

    def luck(self, facts: GameFacts, steps: Sequence[Step]) -> list[LuckEvent]:
        """Each seat's luck in every deal, at the move that dealt it (0: the start)."""
        events: list[LuckEvent] = []
        deal = None
        dealt_at = 0
        for step in steps:
            state = _state(step)
            if step.is_table_event or state.is_over:
                continue
            if state.deal_number != deal:
                deal = state.deal_number
                rng = _generator(facts, dealt_at)
                events.extend(
                    LuckEvent(dealt_at, seat, luck)
                    for seat, luck in enumerate(deal_luck(state, rng))
                )
            dealt_at = step.number
        return events


def _legal_form(step: Step) -> str:
    """The legal action as ``legal_actions`` writes it that the step played (a typed move
    may write it otherwise: ``ac``, ``double:3,1``)."""
    state = _state(step)
    if step.action in state.legal_actions():
        return step.action
    reached = step.after.to_dict()
    return next(
        action for action in state.legal_actions() if state.apply(action).to_dict() == reached
    )


def _selection_worlds(view: BarbuView) -> int:
    """Worlds in which every legal action of a decision is tried to find the best one."""
    if view["phase"] == "contract":
        budget = CONTRACT_PLAYOUTS
    elif view["phase"] == "doubling":
        return DOUBLING_WORLDS
    else:
        budget = CARD_PLAYOUTS
    return max(MIN_WORLDS, budget // len(view["legal"]))


def action_values(
    view: BarbuView, actions: Sequence[str], worlds: int, rng: random.Random
) -> dict[str, float]:
    """Each of the legal ``actions`` of the seat whose ``view`` this is, valued from that
    view only, over ``worlds`` deals of the unseen cards."""
    if view["phase"] == "contract":
        return _contract_values(view, actions, worlds, rng)
    if view["phase"] == "doubling":
        return _doubling_values(view, actions, worlds, rng)
    return _card_values(view, actions, worlds, rng)


def _card_values(
    view: BarbuView, actions: Sequence[str], worlds: int, rng: random.Random
) -> dict[str, float]:
    seat = view["seat"]
    assert seat is not None
    moves = [None if action == PASS else parse_card(action) for action in actions]
    doubles = [(doubler, doubled) for doubler, doubled in view["doubles"]]
    unseen, excluded = _unseen_constraints(view)
    totals = [0.0] * len(actions)
    for _ in range(worlds):
        hands = _sample_hands(seat, view, unseen, excluded, rng)
        position = _position_from_view(view, hands, seat)
        dice = rng.getrandbits(64)
        for index, move in enumerate(moves):
            after = _apply_to_position(position, seat, move)
            raw = _playout(after, random.Random(dice), _sensible_card)
            totals[index] += settle(raw, doubles)[seat]
    return {action: total / worlds for action, total in zip(actions, totals, strict=True)}


def _contract_values(
    view: BarbuView, actions: Sequence[str], worlds: int, rng: random.Random
) -> dict[str, float]:
    seat = view["seat"]
    assert seat is not None
    unseen, excluded = _unseen_constraints(view)
    totals = dict.fromkeys(actions, 0.0)
    for _ in range(worlds):
        hands = _sample_hands(seat, view, unseen, excluded, rng)
        dice = rng.getrandbits(64)
        for action in actions:
            position = _fresh_position(view, [list(hand) for hand in hands], action)
            totals[action] += _playout(position, random.Random(dice), _sensible_card)[seat]
    return {action: totals[action] / worlds - contract_par(action) for action in actions}


def _doubling_values(
    view: BarbuView, actions: Sequence[str], worlds: int, rng: random.Random
) -> dict[str, float]:
    seat, contract = view["seat"], view["contract_action"]
    assert seat is not None and contract is not None
    made = {(doubler, doubled) for doubler, doubled in view["doubles"]}
    answers = {
        action: made | {(seat, target) for target in _doubled_seats(action)} for action in actions
    }
    unseen, excluded = _unseen_constraints(view)
    totals = dict.fromkeys(actions, 0.0)
    for _ in range(worlds):
        hands = _sample_hands(seat, view, unseen, excluded, rng)
        raw = _playout(_fresh_position(view, hands, contract), rng, _sensible_card)
        for action, doubles in answers.items():
            totals[action] += settle(raw, doubles)[seat]
    return {action: total / worlds for action, total in totals.items()}


def _doubled_seats(action: str) -> list[int]:
    if action == PASS:
        return []
    return parse_seats(action.partition(":")[2])


def deal_luck(state: BarbuState, rng: random.Random) -> list[float]:
    """Each seat's luck in the deal just dealt in ``state``: its hand's expected contract
    score minus a random hand's, averaged over the contracts declarer could choose."""
    contracts = list(state.offered_contracts()) if state.phase == "contract" else []
    if not contracts:
        assert state.contract is not None
        contracts = [state.contract]
    table = state.view(None)
    luck = [0.0, 0.0, 0.0, 0.0]
    for contract in contracts:
        for world in range(LUCK_WORLDS):
            action = _contract_action(contract, world)
            deck = list(range(52))
            rng.shuffle(deck)
            dice = rng.getrandbits(64)
            average = _raw_scores(table, [deck[seat::4] for seat in range(4)], action, dice)
            for seat in range(4):
                hands = _deal_around(state.hands[seat], seat, rng)
                luck[seat] += _raw_scores(table, hands, action, dice)[seat] - average[seat]
    return [total / (len(contracts) * LUCK_WORLDS) for total in luck]


def _contract_action(contract: str, world: int) -> str:
    """The contract as an action, its suit or starting rank taken in turn by the worlds."""
    if contract == "trumps":
        return f"trumps:{SUITS[world % len(SUITS)]}"
    if contract == "domino":
        return f"domino:{RANKS[world * 5 % len(RANKS)]}"
    return contract


def _deal_around(hand: list[Card], seat: int, rng: random.Random) -> list[list[Card]]:
    """``seat`` holding ``hand``, the other cards dealt at random to the other seats."""
    rest = [card for card in range(52) if card not in hand]
    rng.shuffle(rest)
    others = [other for other in range(4) if other != seat]
    hands: list[list[Card]] = [[], [], [], []]
    hands[seat] = list(hand)
    for place, other in enumerate(others):
        hands[other] = rest[place :: len(others)]
    return hands


def _raw_scores(table: BarbuView, hands: list[list[Card]], action: str, dice: int) -> list[int]:
    """The contract scores of one careful playout of ``action`` from the deal's start."""
    position = _fresh_position(table, hands, action)
    return _playout(position, random.Random(dice), _sensible_card)


REVIEWER = BarbuReviewer()
