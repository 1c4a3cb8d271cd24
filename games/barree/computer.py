"""Barree's computer player: ``bot_action`` at its three levels.

Normal and easy judge a sending here (``_best_send``); hard asks the route planner
(``games.barree.plan``).
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from games.barree.board import distances
from games.barree.plan import drive_action, walk_values
from games.barree.state import (
    KEEP,
    PHASE_DRIVE,
    PHASE_ROLL,
    ROLL,
    BarreeState,
    WalkOption,
    first_walk,
    send_cards,
    walk_options,
)
from games.base import DEFAULT_LEVEL, N_, IllegalAction, check_level

# How the normal and easy levels send: a sending is worth a card, more when it moves the
# leader far from its cards, a little more when the card is one hard to walk to.
NEARNESS_DECAY = 0.7
SEND_WEIGHT = 1.0
LEADER_WEIGHT = 0.15


def _nearness(start: int, targets: Iterable[int], blockade: int) -> float:
    reach = distances(start, blockade)
    return sum(NEARNESS_DECAY ** reach[card] for card in targets if card in reach)


def _best_send(state: BarreeState, end: int, hand: frozenset[int]) -> tuple[float, str | None]:
    """The value and action of the best sending from ``end`` with ``hand`` (else 0, None)."""
    best_value, best_action = 0.0, None
    fewest = min(state.held(seat) for seat in range(state.players))
    for seat in state.opponents_at(end):
        victim_cards = state.cards[seat]
        leader_bonus = LEADER_WEIGHT * (1 + int(state.held(seat) == fewest))
        before = _nearness(end, victim_cards, state.blockade)
        for card in send_cards(state, end, hand):
            harm = before - _nearness(card, victim_cards, state.blockade)
            # The card discarded should be one the mover would struggle to walk to.
            effort = 1 - _nearness(end, [card], state.blockade)
            value = SEND_WEIGHT + leader_bonus * harm + 0.2 * effort
            if best_action is None or value > best_value:
                best_value, best_action = value, f"send:{seat}:{card}"
    return best_value, best_action


def _easy_walk(state: BarreeState, options: list[WalkOption], seed: int) -> str:
    """A walk that discards at least all but one of the cards the best walk could, at
    random: plausible, but blind to what comes next."""
    most = max(len(option.discards) for option in options)
    plausible = [option.action for option in options if len(option.discards) >= most - 1]
    return random.Random(seed).choice(plausible)


def bot_action(state: BarreeState, seed: int = 0, level: str = DEFAULT_LEVEL) -> str:
    """The computer player's choice for the seat to move, from public information only.

    Hard plans routes through the cards still held (``games.barree.plan``): it takes
    the walk and sending that leave its own route shortest against its rivals', looking
    at its next roll for the best few walks, and weighs the cards a walk leaves in hand
    and how exposed its end is to a rival's sending. Normal sends a piece it lands on as
    ``_best_send`` judges and takes the walk ``walk_options`` ranks first (most cards,
    then a sending, then nearest the rest); easy sends like normal and takes any walk
    shedding all but at most one of the most it could.
    """
    check_level(level)
    if state.phase == PHASE_ROLL:
        return ROLL
    if state.phase == PHASE_DRIVE:
        if level == "hard":
            return drive_action(state)
        end = state.pieces[state.current]
        _, action = _best_send(state, end, frozenset(state.cards[state.current]))
        return action or KEEP
    if level == "normal":
        walk = first_walk(state)
        if walk is None:
            raise IllegalAction(N_("There is nothing to decide: the game is over."))
        return walk
    options = walk_options(state)
    if not options:
        raise IllegalAction(N_("There is nothing to decide: the game is over."))
    if level == "easy":
        return _easy_walk(state, options, seed)
    values = walk_values(state, options)
    top = max(values)
    best = [option.action for option, value in zip(options, values, strict=True) if value == top]
    return random.Random(seed).choice(best)
