"""Gul Bara's serialisation: a state from its ``to_dict`` form or from a ``GB1`` position
code (``GulbaraState.code`` writes one).
"""

from __future__ import annotations

from typing import Any

from games.base import Rng
from games.gulbara.board import CHECKERS, DEFAULT_HEAD_RULE, HEAD_RULES, POINTS
from games.gulbara.state import CODE_PREFIX, GulbaraState, base_fields


def _parse_ints(text: str, what: str) -> list[int]:
    try:
        return [int(part) if part.strip() else 0 for part in text.split(",")]
    except ValueError as error:
        raise ValueError(f"The {what} of a GB1 code must be whole numbers.") from error


def from_code(code: str, seed: int = 0, head_rule: str = DEFAULT_HEAD_RULE) -> GulbaraState:
    """The position of a ``GB1`` code as a single game under ``head_rule`` (the code holds
    the position, not the table's options), with a fresh random source.

    Equal dice (``3,3,3,3`` or ``4,4``) are the rest of a double stage, which escalates
    when the mover's roll count is above the grace period; a lone die ends the turn.
    A position in which the mover has no legal step is settled at once (next stage,
    or the turn passes and the opponent rolls).
    """
    text = code.strip()
    if not text.startswith(CODE_PREFIX) or text.count("|") != 4:
        raise ValueError("A GB1 code looks like GB1:<24 points>|<off>|<turn>|<dice>|<rolls>.")
    points_text, off_text, turn_text, dice_text, rolls_text = text[len(CODE_PREFIX) :].split("|")
    board = _parse_ints(points_text, "points")
    off = _parse_ints(off_text, "borne-off counts")
    rolls = _parse_ints(rolls_text, "roll counts")
    dice = tuple(_parse_ints(dice_text, "dice")) if dice_text.strip() else ()
    if len(board) != POINTS or len(off) != 2 or len(rolls) != 2 or turn_text not in ("0", "1"):
        raise ValueError("A GB1 code needs 24 points, two off counts, a turn 0/1, two rolls.")
    for seat, sign in ((0, 1), (1, -1)):
        on_board = sum(max(0, value * sign) for value in board)
        if on_board + off[seat] != CHECKERS:
            raise ValueError(f"Seat {seat} must have 15 checkers on the board and off.")
    if any(not 1 <= die <= 6 for die in dice) or len(dice) > 4:
        raise ValueError("Dice are 1 to 6, at most four of them.")
    if len(dice) > 2 and len(set(dice)) != 1:
        raise ValueError("Three or four dice to play must be equal (a double).")
    stage_die = dice[0] if len(dice) >= 2 and len(set(dice)) == 1 else None
    if head_rule not in HEAD_RULES:
        raise ValueError(f"The head rule is one of {', '.join(HEAD_RULES)}.")
    fields = base_fields(1, True, Rng(seed), head_rule)
    fields.update(
        board=board,
        off=off,
        turn=int(turn_text),
        dice=dice,
        roll=list(dice[:2]),
        stage_die=stage_die,
        stages=[] if stage_die is None else [stage_die],
        rolls=rolls,
        start={"board": board, "off": off, "dice": list(dice), "stage_die": stage_die},
    )
    state = GulbaraState(**fields)
    for seat in (0, 1):
        if off[seat] == CHECKERS:
            state.turn = seat
            state.finish_game()
            return state
    state.settle()
    return state


def from_dict(data: dict[str, Any]) -> GulbaraState:
    fields = dict(data)
    fields["rng"] = Rng.from_dict(data["rng"])
    return GulbaraState(**fields)
