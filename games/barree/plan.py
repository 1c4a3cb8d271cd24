"""Barree's hard computer player: routes through the cards still held.

A round is a race to visit every field whose card one holds, so a position is judged by
the shortest route from a piece through all of its owner's cards (an open travelling
salesman path over at most nine fields, solved exactly once per hand and blockade by
dynamic programming over subsets, then read for any end field and any cards left). A
route that must cross the blockaded row pays a wait for the bar on top of the open-board
distance. A walk is worth what it shortens the mover's route; a sending what it
shortens the mover's route (the card spent) and lengthens the rival's. The best few
walks are judged again by what the mover's next roll (one of five lengths or a bar) can
make of them, sendings included. Every walk then pays for the cards it leaves in hand
and for its end's exposure: the steps the rivals, who all move before the mover's next
turn, are expected to add to his route by landing on him and sending him away.

Measured (``python -m bench.strength barree --player hard --opponent normal --players 3
--games 600 --first-seed 1000``): hard won 42.2% ± 3.8% of 3-player games against two
normal players (equal strength 33.3%; the route plan without the cards held and the
exposure won 36.1% ± 5.3% of 300), with decisions of p95 30 ms and at most 73 ms of
CPU time.

Pure: it sees the same public view as everyone (hidden cards are not counted until
revealed) and uses no randomness, so the seed only breaks exact ties.
"""

from __future__ import annotations

from functools import cache, lru_cache

from games.barree.board import distances, row_of, walk_outcomes
from games.barree.state import KEEP, BarreeState, WalkOption

# Steps a route waits, in effect, for a bar to move the blockade out of its way: each
# roll is a bar one time in six, and any player's bar may free the way.
BLOCKADE_WAIT = 4.0
# A rival's step counts as much as one of the mover's own: a round is a race.
RIVAL_WEIGHT = 1.0
_FAR = 1_000.0
# Walks judged again with the mover's next roll, best first by route.
SHORTLIST = 6
# A rival who walks onto the mover's piece sends it to one of his own cards. Every rival
# moves before the mover's next turn, so at three or four players a walk's end is
# exposed more often; this weighs the steps such sendings are expected to add to the
# mover's route (half: a rival prefers shedding cards to landing on him).
EXPOSURE_WEIGHT = 0.5
# A card shed now is a minus point fewer whenever the round ends, where a route counts it
# only by the steps it saves: a rival's sending or finish can leave the rest of the route
# unwalked, and the more rivals, the likelier (measured at four players: 1.5 beat 0 and 3).
HELD_WEIGHT = 1.5
_FACES = 6
_MOST_STEPS = 5
_WALK_LENGTHS = range(1, _MOST_STEPS + 1)


def _step_cost(start: int, target: int, blockade: int) -> float:
    """Steps from ``start`` to ``target``, plus the wait when the blockade is in the way."""
    near = distances(start, blockade).get(target)
    if near is not None:
        return float(near)
    return distances(start, 0)[target] + BLOCKADE_WAIT


class Routes:
    """Shortest routes through subsets of one hand under one blockade.

    ``suffix[mask][i]`` is the shortest route that starts on card ``i`` and visits every
    card of ``mask`` (which holds ``i``).
    """

    def __init__(self, cards: tuple[int, ...], blockade: int) -> None:
        self.cards = cards
        self.blockade = blockade
        self.index = {card: position for position, card in enumerate(cards)}
        count = len(cards)
        between = [[_step_cost(a, b, blockade) for b in cards] for a in cards]
        suffix = [[_FAR] * count for _ in range(1 << count)]
        for mask in range(1, 1 << count):
            row = suffix[mask]
            members = [i for i in range(count) if mask >> i & 1]
            if len(members) == 1:
                row[members[0]] = 0.0
                continue
            for i in members:
                rest = suffix[mask & ~(1 << i)]
                costs = between[i]
                row[i] = min(costs[j] + rest[j] for j in members if j != i)
        self.suffix = suffix

    def mask(self, cards: frozenset[int]) -> int:
        return sum(1 << self.index[card] for card in cards)

    def length(self, start: int, mask: int) -> float:
        """Shortest route from ``start`` through the cards of ``mask``."""
        if not mask:
            return 0.0
        row = self.suffix[mask]
        return min(
            _step_cost(start, card, self.blockade) + row[i]
            for i, card in enumerate(self.cards)
            if mask >> i & 1
        )


@lru_cache(maxsize=256)
def routes(cards: tuple[int, ...], blockade: int) -> Routes:
    return Routes(cards, blockade)


def _routes_for(state: BarreeState, seat: int) -> Routes:
    return routes(tuple(sorted(state.cards[seat])), state.blockade)


def _rivals_term(state: BarreeState, moved: dict[int, int] | None = None) -> float:
    """The rivals' routes, weighted, with the pieces of ``moved`` on other fields."""
    total = 0.0
    for seat in range(state.players):
        if seat == state.current:
            continue
        rival = _routes_for(state, seat)
        where = (moved or {}).get(seat, state.pieces[seat])
        total += rival.length(where, rival.mask(frozenset(state.cards[seat])))
    return RIVAL_WEIGHT * total


def _best_drive(
    state: BarreeState, end: int, left: frozenset[int], mine: Routes
) -> tuple[float, str, frozenset[int], dict[int, int]]:
    """The best of keeping and every sending from ``end``: its value (the rivals'
    routes, weighted, minus the mover's), its action, the cards the mover keeps and
    the rival piece it moves."""
    keep_value = _rivals_term(state) - mine.length(end, mine.mask(left))
    best: tuple[float, str, frozenset[int], dict[int, int]] = (keep_value, KEEP, left, {})
    occupied = {field for seat, field in enumerate(state.pieces) if seat != state.current}
    occupied.add(end)
    usable = sorted(
        card for card in left if row_of(card) != state.blockade and card not in occupied
    )
    for seat in state.opponents_at(end):
        for card in usable:
            kept = left - {card}
            value = _rivals_term(state, {seat: card}) - mine.length(end, mine.mask(kept))
            if value > best[0]:
                best = (value, f"send:{seat}:{card}", kept, {seat: card})
    return best


_Outcome = tuple[float, frozenset[int], dict[int, int]]


def _walk_outcome(state: BarreeState, option: WalkOption, mine: Routes) -> _Outcome:
    """The value of a walk (with its best sending), the cards kept and the rival moved."""
    left = frozenset(state.cards[state.current]) - frozenset(option.discards)
    if option.lands_on:
        value, _action, kept, moved = _best_drive(state, option.end, left, mine)
        return value, kept, moved
    return _rivals_term(state) - mine.length(option.end, mine.mask(left)), left, {}


def walk_values(state: BarreeState, options: list[WalkOption]) -> list[float]:
    """How good each walk leaves the mover: the rivals' routes (weighted) minus its own
    after the best sending, less the cards it still holds and its end's ``exposure``
    (weighted). The best ``SHORTLIST`` walks are judged again as the mover expects them
    after its next roll too."""
    mine = _routes_for(state, state.current)
    outcomes = [_walk_outcome(state, option, mine) for option in options]
    values = [value for value, _kept, _moved in outcomes]
    ranked = sorted(range(len(options)), key=lambda index: -values[index])
    for index in ranked[:SHORTLIST]:
        _value, kept, moved = outcomes[index]
        values[index] = _after_next_roll(state, options[index].end, kept, moved, mine)
    held = len(state.cards[state.current])
    return [
        value
        - EXPOSURE_WEIGHT * exposure(state, option.end, kept, moved, mine)
        - HELD_WEIGHT * (held - len(option.discards))
        for value, option, (_value, kept, moved) in zip(values, options, outcomes, strict=True)
    ]


@cache
def _walk_ends(start: int, steps: int, blockade: int) -> frozenset[int]:
    """The fields a piece on ``start`` can end on with a walk of ``steps``."""
    return frozenset(end for end, _discarded in walk_outcomes(start, steps, blockade, ()))


def exposure(
    state: BarreeState, end: int, left: frozenset[int], moved: dict[int, int], mine: Routes
) -> float:
    """The steps the mover's route on ``end`` expects to gain before his next turn from
    rivals landing on him (each with the chance of a roll that reaches him) and sending
    him to one of their usable cards (on average)."""
    pieces = [moved.get(seat, where) for seat, where in enumerate(state.pieces)]
    pieces[state.current] = end
    mask = mine.mask(left)
    here = mine.length(end, mask)
    expected = 0.0
    for seat, start in enumerate(pieces):
        if seat == state.current:
            continue
        reaching = sum(end in _walk_ends(start, steps, state.blockade) for steps in _WALK_LENGTHS)
        usable = [
            card
            for card in state.cards[seat]
            if row_of(card) != state.blockade and card not in pieces
        ]
        if not reaching or not usable:
            continue
        added = sum(mine.length(card, mask) - here for card in usable) / len(usable)
        expected += reaching / _FACES * max(added, 0.0)
    return expected


def _after_next_roll(
    state: BarreeState, start: int, left: frozenset[int], moved: dict[int, int], mine: Routes
) -> float:
    """The rivals' routes (weighted) minus the mover's it expects once it has played its
    next roll as well as it can, sending a rival it lands on where that helps (a bar,
    or a piece trapped in the blockaded row, leaves everything as it is)."""
    pieces = {seat: moved.get(seat, where) for seat, where in enumerate(state.pieces)}
    rivals_now = _rivals_term(state, pieces)
    now = rivals_now - mine.length(start, mine.mask(left))
    if not left:
        return now
    total = now
    for steps in _WALK_LENGTHS:
        best = now
        for end, discarded in walk_outcomes(start, steps, mine.blockade, left):
            kept = left - discarded
            best = max(best, rivals_now - mine.length(end, mine.mask(kept)))
            if kept:
                best = max(best, _best_send_after(state, pieces, end, kept, mine))
        total += best
    return total / _FACES


def _best_send_after(
    state: BarreeState, pieces: dict[int, int], end: int, kept: frozenset[int], mine: Routes
) -> float:
    """The rivals' routes (weighted) minus the mover's after its best sending of a rival
    standing on ``end`` (very low if none stands there)."""
    best = -_FAR
    for seat, where in pieces.items():
        if seat == state.current or where != end:
            continue
        for card in kept:
            if row_of(card) == state.blockade or card in pieces.values():
                continue
            mover_route = mine.length(end, mine.mask(kept - {card}))
            best = max(best, _rivals_term(state, {**pieces, seat: card}) - mover_route)
    return best


def drive_action(state: BarreeState) -> str:
    """Send or keep, where the mover's piece stands after its walk."""
    mine = _routes_for(state, state.current)
    end = state.pieces[state.current]
    held = frozenset(state.cards[state.current])
    _value, action, _kept, _moved = _best_drive(state, end, held, mine)
    return action
