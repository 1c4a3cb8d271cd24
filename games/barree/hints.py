"""Why a Barree walk or sending is good, in facts (``texts.barree.hint`` puts them into
words).

A hint shows the normal computer's choice (``bot_action``), which sees only what every
player sees. Its reasons are the choice's plain effects: the cards a walk discards, the
reveal or the round's end it brings, a piece it lands on, how near it ends to the cards
still held; for a sending, the card it costs and how far the rival ends from his cards.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from games.barree.board import distances
from games.barree.computer import bot_action
from games.barree.state import KEEP, PHASE_DRIVE, PHASE_MOVE, BarreeState, walk_options
from games.base import DEFAULT_LEVEL


@dataclass(frozen=True)
class Nearest:
    """The card nearest to a field, and the steps to it."""

    card: int
    steps: int


@dataclass(frozen=True)
class BarreeHint:
    """The normal computer's walk, sending or keep for the seat to act and its effects."""

    action: str
    kind: str
    """``walk``, ``send`` or ``keep``."""
    path: tuple[int, ...] = ()
    discards: tuple[int, ...] = ()
    lands_on: tuple[int, ...] = ()
    """The seats whose pieces stand where the walk ends."""
    reveals: bool = False
    """The walk leaves two or fewer face-up cards: everyone reveals the hidden ones."""
    goes_out: bool = False
    """The walk discards the mover's last card."""
    nearest: Nearest | None = None
    """After a walk: the mover's card nearest to where it ends (None: none reachable)."""
    target: int | None = None
    """A sending's rival seat."""
    field: int | None = None
    """A sending's field (the card it costs)."""
    rival_before: Nearest | None = None
    rival_after: Nearest | None = None
    """The rival's nearest card before and after the sending."""


def explain(state: BarreeState, seed: int, level: str = DEFAULT_LEVEL) -> BarreeHint:
    """The computer's choice for the seat to act and its effects (after the roll)."""
    return describe_action(state, bot_action(state, seed=seed, level=level))


def describe_action(state: BarreeState, action: str) -> BarreeHint:
    """The effects of the legal walk, sending or keep ``action`` of the seat to act."""
    seat = state.current
    if state.phase == PHASE_MOVE:
        option = next(option for option in walk_options(state) if option.action == action)
        after = state.apply(action)
        kinds = {event["type"] for event in after.events if event.get("seat") == seat}
        left = [card for card in state.cards[seat] if card not in option.discards]
        return BarreeHint(
            action,
            "walk",
            path=option.path,
            discards=option.discards,
            lands_on=option.lands_on,
            reveals="reveal" in kinds,
            goes_out="finished" in kinds,
            nearest=nearest(option.end, left, state.blockade),
        )
    if state.phase == PHASE_DRIVE and action != KEEP:
        _, target, field = action.split(":")
        rival, card = int(target), int(field)
        cards = state.cards[rival]
        return BarreeHint(
            action,
            "send",
            target=rival,
            field=card,
            rival_before=nearest(state.pieces[rival], cards, state.blockade),
            rival_after=nearest(card, cards, state.blockade),
        )
    return BarreeHint(action, "keep")


def nearest(start: int, cards: Iterable[int], blockade: int) -> Nearest | None:
    """The card of ``cards`` fewest steps from ``start`` without crossing the blockade."""
    reach = distances(start, blockade)
    found = [(reach[card], card) for card in cards if card in reach]
    if not found:
        return None
    steps, card = min(found)
    return Nearest(card, steps)
