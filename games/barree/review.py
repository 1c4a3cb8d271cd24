"""Barree's game review: every turn's walk and sending judged in expected minus points,
and the luck of every roll.

A position's value, from the mover's side, is the minus points the mover expects to hold
when the round ends, negated so that more is better, and counted against his rivals':
the rivals' average minus points less his own (``+1.5``: one and a half cards fewer
than a rival on average). A round is a race, and the fewest minus points win it: a
sending that keeps a rival from his cards is worth what it costs him.

Nobody sees the hidden cards before the reveal, nor the order of the draw pile, so a
position is valued from what everyone sees: the hidden cards and the draw pile are dealt
anew from the cards nobody has seen in each of ``PLAYOUTS`` worlds, with fresh dice, and
the round is played out to its end by the normal computer player (``bot_action``).

A turn's walk and its sending are one decision, unless the walk revealed the hidden
cards: the sending is then a decision of its own, taken knowing them. The candidates
are the hard computer's best walks (``games.barree.plan.walk_values``), each followed
by the hard computer's sending where it lands on a rival, and the turn as played; each
candidate meets the same worlds and the same dice, so the differences between them
carry little of the playouts' noise. The best turn found and the one played then meet
again in fresh worlds, which give the value lost: the worlds that picked the best turn
flatter it. A loss those worlds find marked is measured once more, in twice as many
fresh worlds. A turn with a single outcome and nothing to send is not judged.

Luck of a roll: the value after the roll minus the value averaged over the die's six
faces (the bar and 1 to 5), exact over the faces, each valued by the same playouts; the
face that came is valued like the others, so the luck of a roll is what the face was
worth, not the card a bar drew. Luck is counted in the roller's own minus points
(negated), the unit of his result, so that the result less the luck is his result as
average dice would have left it.

Budgets are counts of playouts, drawn from a generator seeded with the record's seed and
the move number only, so a record gets the same review on every machine.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from games.barree.computer import bot_action
from games.barree.plan import drive_action, walk_values
from games.barree.state import (
    BAR,
    PHASE_DRIVE,
    PHASE_MOVE,
    PHASE_ROLL,
    ROLL,
    BarreeState,
    WalkOption,
    walk_options,
)
from games.base import Rng, Step
from games.proof import GameFacts
from games.review.model import DecisionPoint, Judgement, LuckEvent, Thresholds, Unit

PLAYOUTS = 24
"""Worlds (each played out once) per candidate of a decision, to find the best one."""
VERIFYING_PLAYOUTS = 48
"""Fresh worlds in which the best turn found and the one played meet again, for the
value lost: the best of several noisy averages is too high by its luck, and these worlds
did not choose it."""
SECOND_LOOK = 0.5
SECOND_LOOK_PLAYOUTS = 96
"""A loss of at least ``SECOND_LOOK`` minus points in the verifying worlds (the
inaccuracy threshold) is measured again in this many fresh worlds, which alone give it:
in 48 worlds a mark found was often not found from another seed."""
LUCK_PLAYOUTS = 8
"""Worlds per die face in a roll's luck: every face meets the same worlds and dice, so
the luck stays unbiased with few; a long round has more rolls than decisions."""
SHORTLIST = 4
"""The hard computer's best walks judged beside the one played."""
HORIZON = 60
"""Actions a playout plays at most (about twenty turns of three players, more than most
rounds between computers last); a round still going then counts the cards each seat
holds, so a long, wandering round costs no more to review than this."""
FACES = range(BAR, 6)

THRESHOLDS = Thresholds(inaccuracy=0.5, mistake=1.0, blunder=2.0)
"""Minus points lost (see the README's game review section for the measurement)."""


def _generator(facts: GameFacts, index: int) -> random.Random:
    """The one source of a decision's worlds: the record's seed and the move number."""
    return random.Random(f"barree review {facts.seed} {index}")


def _state(step: Step) -> BarreeState:
    state = step.before
    assert isinstance(state, BarreeState)
    return state


@dataclass(frozen=True)
class BarreeReviewer:
    """The ``GameReviewer`` of Barree (``REVIEWER``)."""

    unit: Unit = "points"
    thresholds: Thresholds = THRESHOLDS

    def decisions(self, facts: GameFacts, steps: Sequence[Step]) -> list[DecisionPoint]:
        """Each turn's walk with its sending; a sending after a walk that revealed the
        hidden cards is a decision of its own, taken knowing them."""
        points = []
        for position, step in enumerate(steps):
            state = _state(step)
            if step.is_table_event or state.phase != PHASE_MOVE:
                continue
            following = next(
                (later for later in steps[position + 1 :] if not later.is_table_event), None
            )
            drive = None
            if following is not None and _state(following).phase == PHASE_DRIVE:
                drive = following
            revealing = drive is not None and _state(drive).revealed != state.revealed
            turn = (step,) if drive is None or revealing else (step, drive)
            if len(state.legal_actions()) > 1 or len(turn) > 1:
                points.append(DecisionPoint(step.number, state.current, turn, state))
            if drive is not None and revealing:
                points.append(DecisionPoint(drive.number, state.current, (drive,), drive.before))
        return points

    def judge(self, facts: GameFacts, point: DecisionPoint) -> Judgement:
        state = point.before
        assert isinstance(state, BarreeState)
        played = tuple(step.action for step in point.steps)
        candidates = _candidates(state, played)
        rng = _generator(facts, point.index)
        found = turn_values(state, candidates, PLAYOUTS, rng)
        best = max(candidates, key=lambda turn: found[turn])
        values = found
        if best != played:
            values = turn_values(state, [best, played], VERIFYING_PLAYOUTS, rng)
            if values[best] - values[played] >= SECOND_LOOK:
                values = turn_values(state, [best, played], SECOND_LOOK_PLAYOUTS, rng)
            if values[best] <= values[played]:
                best = played
        loss = values[best] - values[played]
        return Judgement(
            index=point.index,
            seat=point.seat,
            played=" ".join(played),
            best=" ".join(best),
            loss=loss,
            mark=self.thresholds.mark(loss),
            value_played=values[played],
            value_best=values[best],
        )

    def luck(self, facts: GameFacts, steps: Sequence[Step]) -> list[LuckEvent]:
        events = []
        for step in steps:
            state = _state(step)
            if step.action != ROLL or state.phase != PHASE_ROLL:
                continue
            came = roll_of(step)
            values = face_values(state, _generator(facts, step.number))
            average = sum(values) / len(values)
            events.append(LuckEvent(step.number, state.current, values[came] - average))
        return events


def roll_of(step: Step) -> int:
    """The face the die showed in the roll ``step``."""
    for event in step.chance:
        if event.kind == f"{BAR}..5":
            return int(event.outcome)
    raise ValueError(f"move {step.number} rolled no die")


def _canonical(state: BarreeState, walk: str) -> WalkOption:
    """The walk option with the same outcome (end field, cards shed) as the walk played."""
    after = state.apply(walk)
    end = after.pieces[state.current]
    shed = tuple(sorted(set(state.cards[state.current]) - set(after.cards[state.current])))
    return next(
        option
        for option in walk_options(state)
        if option.end == end and tuple(sorted(set(option.discards))) == shed
    )


def _candidates(state: BarreeState, played: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The turns to compare: the one played, and the hard computer's best walks with its
    sending (the played walk with the hard computer's sending too). A walk that reveals
    the hidden cards is compared without its sending, which is decided knowing them; a
    sending on its own is compared with every other and with keeping."""
    if state.phase == PHASE_DRIVE:
        return [played, *[(action,) for action in state.legal_actions() if (action,) != played]]
    options = walk_options(state)
    values = walk_values(state, options)
    ranked = sorted(range(len(options)), key=lambda index: -values[index])
    walks = [options[index].action for index in ranked[:SHORTLIST]]
    played_walk = _canonical(state, played[0]).action
    if played_walk not in walks:
        walks.append(played_walk)
    turns = [played]
    for walk in walks:
        after = state.apply(walk)
        sends = after.phase == PHASE_DRIVE and after.revealed == state.revealed
        turn = (walk, drive_action(after)) if sends else (walk,)
        if walk == played_walk:
            turn = (played[0], *turn[1:])
        if turn not in turns:
            turns.append(turn)
    return turns


def turn_values(
    state: BarreeState, turns: Sequence[tuple[str, ...]], worlds: int, rng: random.Random
) -> dict[tuple[str, ...], float]:
    """Each turn's value for the mover over ``worlds`` playouts: the minus points it
    expects in this round against the rivals' average (more is better)."""
    totals = dict.fromkeys(turns, 0.0)
    for _ in range(worlds):
        world = world_dealt_anew(state, rng)
        dice = rng.getrandbits(64)
        for turn in turns:
            played = world
            for action in turn:
                played = played.apply(action)
            minus = _playout(played, state.round_no, dice)
            totals[turn] += _against_rivals(minus, state.current)
    return {turn: total / worlds for turn, total in totals.items()}


def face_values(state: BarreeState, rng: random.Random) -> list[float]:
    """The roller's value after each face of the die (index = face, the bar 0): minus the
    minus points he expects in this round, in the unit of his result."""
    totals = [0.0] * len(FACES)
    for _ in range(LUCK_PLAYOUTS):
        world = world_dealt_anew(state, rng)
        dice = rng.getrandbits(64)
        for face in FACES:
            minus = _playout(world.with_die(face), state.round_no, dice)
            totals[face] -= minus[state.current]
    return [total / LUCK_PLAYOUTS for total in totals]


def world_dealt_anew(state: BarreeState, rng: random.Random) -> BarreeState:
    """``state`` with what nobody has seen dealt anew: the hidden cards, the draw pile's
    order and the dice to come."""
    world = state.copy()
    world.rng = Rng(rng.getrandbits(64))
    unseen = sorted([card for hand in state.hidden for card in hand] + state.draw_pile)
    rng.shuffle(unseen)
    world.hidden = []
    for hand in state.hidden:
        world.hidden.append(unseen[: len(hand)])
        unseen = unseen[len(hand) :]
    world.draw_pile = unseen
    return world


def _playout(state: BarreeState, round_no: int, dice: int) -> list[int]:
    """Every seat's minus points when round ``round_no`` ends, the normal computer playing
    every seat and ``dice`` seeding the die and the reshuffles; a round still going after
    ``HORIZON`` actions counts the cards each seat holds then."""
    played = state.copy()
    played.rng = Rng(dice)
    for _ in range(HORIZON):
        if played.is_over or played.round_no != round_no:
            return played.round_minus[round_no - 1]
        played.play(bot_action(played, level="normal"))
    if played.is_over or played.round_no != round_no:
        return played.round_minus[round_no - 1]
    return [played.held(seat) for seat in range(played.players)]


def _against_rivals(minus: Sequence[int], seat: int) -> float:
    """The rivals' average minus points less ``seat``'s."""
    rivals = [points for other, points in enumerate(minus) if other != seat]
    return sum(rivals) / len(rivals) - minus[seat]


REVIEWER = BarreeReviewer()
