"""Why a Barbu card, contract or double is good, in facts (``texts.barbu.hint`` puts
them into words).

A hint is made from the seat's own view only (``explain`` takes a ``BarbuView``), so it
knows exactly what the player knows: his hand, the cards played, the doubles. It is the
normal computer's decision (``decide``, which ``bot_action`` uses too) with the averages
of its playouts, and for a card the card's plain effect on the trick or the Domino
layout.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.barbu.cards import (
    PASS,
    RANKS,
    SUITS,
    Card,
    DominoRows,
    card_name,
    domino_lay,
    domino_playable,
    is_penalty_card,
    parse_card,
    trick_points,
    trick_winner,
)
from games.barbu.computer import Decision, contract_par, decide
from games.barbu.views import BarbuView
from games.base import DEFAULT_LEVEL


@dataclass(frozen=True)
class CardEffect:
    """What a card does where it is played.

    ``kind``: ``lead_top`` (no higher card of its suit is out), ``lead_bottom`` (no
    lower one is out), ``lead``; ``takes`` (last to play, it wins the trick), ``ahead``
    (it beats the cards so far), ``under`` (it stays below the trick's best card, which
    ``other`` names); ``trumps`` (a trump on a plain suit the seat lacks); ``discard``
    (the seat has no card of the led suit, ``led`` names it); ``opens`` (a Domino suit),
    ``extends`` (next to ``other`` in the layout)."""

    kind: str
    card: str
    other: str | None = None
    led: str | None = None
    points: int = 0
    """What taking the trick is worth to the taker (``takes``)."""
    costly: bool = False
    """The card would cost points to whoever takes it (a discard of it sheds it)."""
    frees: str | None = None
    """Domino: a card of the hand that the lay makes playable."""
    higher_out: int = 0
    """A lead: how many higher cards of its suit the seat has not seen yet."""


@dataclass(frozen=True)
class BarbuHint:
    """The normal computer's decision for the seat to act, and why."""

    action: str
    phase: str
    expected: float | None = None
    """The playouts' average: the seat's deal score with this card, or declarer's
    contract score in this contract."""
    runner_up: float | None = None
    """The same average for the next best card (None: no other card was judged)."""
    par: float | None = None
    """What a declarer scores in the chosen contract on average."""
    effect: CardEffect | None = None
    trump: str | None = None
    """The trump suit's letter in Trumps."""
    doubles: tuple[int, ...] = ()
    """The seats the decision doubles for the first time."""
    redoubles: tuple[int, ...] = ()
    """The seats the decision doubles back (they doubled this seat)."""
    leads: tuple[tuple[int, float], ...] = ()
    """How far the seat is expected to finish ahead of each seat it may double."""
    obliged: int | None = None
    """A seat doubled only because the rules oblige it (declarer, while doubles are owed)."""


def explain(view: BarbuView, seed: int, level: str = DEFAULT_LEVEL) -> BarbuHint:
    """The computer's decision for the seat whose ``view`` this is, with its reasons."""
    decision = decide(view, seed, level)
    phase = view["phase"]
    if phase == "contract":
        return _contract(decision, phase)
    if phase == "doubling":
        return _doubling(view, decision, phase)
    return _card(view, decision, phase)


def _contract(decision: Decision, phase: str) -> BarbuHint:
    chosen = decision.action
    return BarbuHint(
        chosen,
        phase,
        expected=decision.by_action.get(chosen),
        par=contract_par(chosen),
    )


def _doubling(view: BarbuView, decision: Decision, phase: str) -> BarbuHint:
    seat = view["seat"]
    named = () if decision.action == PASS else decision.action.partition(":")[2].split(",")
    targets = [int(target) for target in named]
    doubled_me = {doubler for doubler, doubled in view["doubles"] if doubled == seat}
    return BarbuHint(
        decision.action,
        phase,
        doubles=tuple(target for target in targets if target not in doubled_me),
        redoubles=tuple(target for target in targets if target in doubled_me),
        leads=tuple(sorted(decision.leads.items())),
        obliged=decision.obliged,
    )


def _card(view: BarbuView, decision: Decision, phase: str) -> BarbuHint:
    chosen = decision.action
    others = [value for action, value in decision.by_action.items() if action != chosen]
    return BarbuHint(
        chosen,
        phase,
        expected=decision.by_action.get(chosen),
        runner_up=max(others) if others else None,
        effect=card_effect(view, chosen) if chosen != PASS else None,
        trump=view["trump"],
    )


def card_effect(view: BarbuView, action: str) -> CardEffect:
    """The plain effect of playing the legal card ``action`` from the seat's view."""
    card = parse_card(action)
    if view["contract"] == "domino":
        return _domino_effect(view, card)
    trick = [parse_card(entry["card"]) for entry in view["trick"]]
    if not trick:
        return _lead_effect(view, card)
    trump = SUITS.index(view["trump"]) if view["trump"] else None
    led = trick[0] // 13
    name = card_name(card)
    contract = view["contract"] or ""
    if card // 13 != led and card // 13 != trump:
        costly = is_penalty_card(contract, card)
        return CardEffect("discard", name, led=SUITS[led], costly=costly)
    best = trick[trick_winner(trick, trump)]
    winning = trick_winner([*trick, card], trump) == len(trick)
    if not winning:
        return CardEffect("under", name, other=card_name(best))
    if len(trick) == 3:
        points = trick_points(contract, [*trick, card], len(view["tricks"]) + 1)
        return CardEffect("takes", name, other=card_name(best), points=points)
    kind = "trumps" if card // 13 == trump and led != trump else "ahead"
    return CardEffect(kind, name, other=card_name(best), led=SUITS[led])


def _lead_effect(view: BarbuView, card: Card) -> CardEffect:
    suit = card // 13
    seen = {parse_card(text) for text in view["hand"] or []}
    seen.update(parse_card(text) for trick in view["tricks"] for text in trick["cards"])
    out = [other for other in range(suit * 13, suit * 13 + 13) if other not in seen]
    name = card_name(card)
    higher = sum(1 for other in out if other > card)
    if not higher:
        return CardEffect("lead_top", name)
    if not any(other < card for other in out):
        return CardEffect("lead_bottom", name)
    return CardEffect("lead", name, higher_out=higher)


def _domino_effect(view: BarbuView, card: Card) -> CardEffect:
    domino, start = view["domino"], view["start_rank"]
    assert domino is not None and start is not None
    rows: DominoRows = [
        (RANKS.index(row[0]), RANKS.index(row[1])) if row else None
        for row in domino["rows"].values()
    ]
    hand = [parse_card(text) for text in view["hand"] or []]
    playable_before = set(domino_playable(hand, rows, RANKS.index(start)))
    suit, rank = divmod(card, 13)
    row = rows[suit]
    after = list(rows)
    domino_lay(after, card)
    rest = [other for other in hand if other != card]
    freed = sorted(set(domino_playable(rest, after, RANKS.index(start))) - playable_before)
    frees = card_name(freed[0]) if freed else None
    if row is None:
        return CardEffect("opens", card_name(card), frees=frees)
    neighbour = suit * 13 + (row[0] if rank < row[0] else row[1])
    return CardEffect("extends", card_name(card), other=card_name(neighbour), frees=frees)
