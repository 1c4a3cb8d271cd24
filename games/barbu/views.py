"""What ``BarbuState.view`` shows a seat: the view and its parts as ``TypedDict``s."""

from __future__ import annotations

from typing import NotRequired, TypedDict


class BarbuTrickCard(TypedDict):
    seat: int
    card: str


class BarbuTrick(TypedDict):
    leader: int
    cards: list[str]
    winner: int


class BarbuDeal(TypedDict):
    """One finished deal of the score sheet: ``raw`` contract scores, ``scores`` after
    the doubles (``[doubler, doubled]`` pairs)."""

    declarer: int
    contract: str  # the action that chose it, e.g. "trumps:H"
    raw: list[int]
    doubles: list[list[int]]
    scores: list[int]


class BarbuDoubling(TypedDict):
    """``DoublingChoice`` for the seat to act, as plain data."""

    targets: list[int]
    redoubles: list[int]
    required: int | None
    needed: int
    deals_left: int
    maximum: str
    may_pass: bool
    obligation: str | None


class BarbuDominoMove(TypedDict):
    seat: int
    card: str  # or "pass"


class BarbuDomino(TypedDict):
    """The Domino layout: per suit letter the lowest and highest rank laid (None: not
    opened), the seats out in order, and every lay or pass so far."""

    rows: dict[str, list[str] | None]
    finished: list[int]
    moves: list[BarbuDominoMove]


class BarbuView(TypedDict):
    """What ``BarbuState.view`` shows; see there for the meaning of the keys."""

    game: str
    seat: int | None
    phase: str
    deal: int
    total_deals: int
    series: int
    total_series: int
    discard_king: bool
    declarer: int
    dealer: int
    to_act: int | None
    remaining_contracts: list[str]
    contract: str | None
    contract_action: str | None
    contract_label: str | None
    trump: str | None
    start_rank: str | None
    doubles: list[list[int]]
    doubling_acted: list[int]
    declarer_doubled: list[int]
    hand_sizes: list[int]
    hand: list[str] | None
    legal: list[str]
    doubling: BarbuDoubling | None
    leader: int | None
    trick: list[BarbuTrickCard]
    tricks: list[BarbuTrick]
    tricks_won: list[int]
    penalty_cards: list[list[str]]
    deal_points: list[int]
    domino: BarbuDomino | None
    history: list[BarbuDeal]
    totals: list[int]
    french: NotRequired[bool]
    """Present (true) only in the simple French form: a modern game's view, and with it
    every position digest of its record, is the one it always was."""
