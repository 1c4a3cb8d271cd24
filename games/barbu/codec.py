"""Barbu's serialisation: a state from its ``to_dict`` form."""

from __future__ import annotations

from typing import Any

from games.barbu.state import BarbuState, copy_deal
from games.base import Rng


def from_dict(data: dict[str, Any]) -> BarbuState:
    # The option is on by default, for games saved before it existed too.
    state = BarbuState(
        Rng.from_dict(data["rng"]),
        int(data["series"]),
        bool(data["discard_king"]),
        bool(data.get("autoplay", True)),
        bool(data.get("french", False)),
    )
    state.first_declarer = data["first_declarer"]
    state.deal_number = data["deal_number"]
    state.remaining = list(data["remaining"])
    state.declarer_doubled = list(data["declarer_doubled"])
    state.phase = data["phase"]
    state.hands = [list(hand) for hand in data["hands"]]
    state.contract = data["contract"]
    state.trump = data["trump"]
    state.start_rank = data["start_rank"]
    state.doubles = {(doubler, doubled) for doubler, doubled in data["doubles"]}
    state.doubling_step = data["doubling_step"]
    state.leader = data["leader"]
    state.trick = list(data["trick"])
    state.tricks = [(leader, list(cards), winner) for leader, cards, winner in data["tricks"]]
    state.taken = [list(pile) for pile in data["taken"]]
    state.points = list(data["points"])
    state.rows = [(row[0], row[1]) if row else None for row in data["rows"]]
    state.domino_turn = data["domino_turn"]
    state.finished = list(data["finished"])
    state.domino_moves = [(mover, card) for mover, card in data["domino_moves"]]
    state.history = [copy_deal(entry) for entry in data["history"]]
    state.totals = list(data["totals"])
    return state
