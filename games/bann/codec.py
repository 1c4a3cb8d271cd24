"""Bann's serialisation: a state from its ``to_dict`` form or from a ``BN1`` position
code (``BannState.code`` writes one).
"""

from __future__ import annotations

import re
from typing import Any

from games.bann.board import parse_board, position_key
from games.bann.state import BannState, copy_move
from games.base import N_, IllegalAction, Rng

_CODE_PATTERN = re.compile(r"BN1:([.1-6a-f]{6}(?:/[.1-6a-f]{6}){5})\|([1-6]),([1-6])\|([01])")


def from_code(code: str) -> BannState:
    """The position of a BN1 code, with a fresh random source and no earlier history."""
    match = _CODE_PATTERN.fullmatch(code.strip())
    if match is None:
        raise IllegalAction(
            N_(
                "'{code}' is not a Bann position code: expected BN1:<6 ranks>|<top0>,<top1>|<turn>."
            ),
            code=code,
        )
    board = parse_board(match[1])
    dice = (int(match[2]), int(match[3]))
    turn = int(match[4])
    state = BannState(
        board=board,
        dice=dice,
        turn=turn,
        rng=Rng(0),
        history={position_key(board, dice, turn): 1},
    )
    state.settle()
    return state


def from_dict(data: dict[str, Any]) -> BannState:
    return BannState(
        board=parse_board(data["board"]),
        dice=(int(data["dice"][0]), int(data["dice"][1])),
        turn=int(data["turn"]),
        rng=Rng.from_dict(data["rng"]),
        history={str(key): int(count) for key, count in data["history"].items()},
        opening_roll=_pair(data["opening_roll"]) if data["opening_roll"] else None,
        last_move=copy_move(data["last_move"]),
        draw_offer=data["draw_offer"],
        offer_used=bool(data["offer_used"]),
        winner=data["winner"],
        result=data["result"],
    )


def _pair(values: list[int]) -> tuple[int, int]:
    return int(values[0]), int(values[1])
