"""Why a Bann move is good, in facts: what it does on the board and to the opponent's
next move (``texts.bann.hint`` puts them into words).

A hint shows the normal computer's move (``bot_action``); its search gives no reason a
player could follow, so the reasons are the move's plain effects: a win, captures, a
knight the tip bans, a threat it stops, and how close the knight comes to the castle.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.bann.board import (
    Move,
    captures,
    knight_number,
    knight_squares,
    legal_moves,
    square_name,
    target_castle,
)
from games.bann.computer import bot_action
from games.bann.state import BannState
from games.base import DEFAULT_LEVEL


@dataclass(frozen=True)
class Threats:
    """What the side to move could do to the other with one move."""

    knights: frozenset[int]
    """The other side's knight numbers it could capture."""
    castle: bool
    """Whether it could reach the other side's castle."""
    by_knight: dict[int, bool]
    """Per knight number of the side to move: whether that knight has a capture or the
    castle among its moves."""


@dataclass(frozen=True)
class BannHint:
    """The normal computer's choice for the seat to act and what it does."""

    action: str
    answer: str | None = None
    """``accept`` or ``decline`` for a draw offer; None for a move."""
    tip: int = 0
    knight: int = 0
    start: str = ""
    end: str = ""
    wins: str | None = None
    """How the move wins at once: ``castle``, ``last-knight`` or ``no-move``."""
    captured: tuple[int, ...] = ()
    """The opponent's knight numbers the move captures."""
    bans: int | None = None
    """The opponent's knight the tip bans, when that knight had a capture or the castle
    in reach."""
    stops_castle: bool = False
    """The opponent could reach the mover's castle before the move, and not after it."""
    safe_again: tuple[int, ...] = ()
    """The mover's knights the opponent could capture before the move and not after."""
    threatens: tuple[int, ...] = ()
    """The opponent's knights the mover could capture next turn and not before (if the
    opponent's next tip does not ban the capturing knight)."""
    nothing_to_capture: bool = False
    """After the move the opponent can neither capture nor reach the castle."""
    castle_steps: int = 0
    """Steps from the moved knight to the opponent's castle after the move."""
    closer: bool = False
    """The move brings the knight nearer the opponent's castle."""


def threats(board: tuple[int, ...], dice: tuple[int, int], side: int) -> Threats:
    """What ``side`` could do with its next move in this position."""
    knights: set[int] = set()
    castle = False
    by_knight: dict[int, bool] = {}
    enemy_castle = target_castle(side)
    for move in legal_moves(board, dice, side):
        taken = captures(board, side, move.target)
        knights.update(knight_number(board[square]) for square in taken)
        reaches = move.target == enemy_castle
        castle = castle or reaches
        by_knight[move.knight] = by_knight.get(move.knight, False) or bool(taken) or reaches
    return Threats(frozenset(knights), castle, by_knight)


def _steps_between(first: int, second: int) -> int:
    return abs(first % 6 - second % 6) + abs(first // 6 - second // 6)


def explain(state: BannState, seed: int, level: str = DEFAULT_LEVEL) -> BannHint:
    """The computer's choice for ``state.current_player`` at ``level`` with its effects."""
    action = bot_action(state, seed=seed, level=level)
    if state.draw_offer is not None:
        return BannHint(action, answer=action)
    return describe_move(state, action)


def describe_move(state: BannState, action: str) -> BannHint:
    """The effects of the legal move ``action`` of the seat to move."""
    mover, other = state.turn, 1 - state.turn
    move = next(
        move for move in legal_moves(state.board, state.dice, mover) if move.action == action
    )
    board, dice = _after(state, move)
    before = threats(state.board, state.dice, other)
    after = threats(board, dice, other)
    mine_before = threats(state.board, state.dice, mover)
    mine_after = threats(board, dice, mover)
    castle = target_castle(mover)
    taken = captures(state.board, mover, move.target)
    bans = before.by_knight.get(move.tip, False) and move.tip in knight_squares(board, other)
    return BannHint(
        action,
        tip=move.tip,
        knight=move.knight,
        start=square_name(move.origin),
        end=square_name(move.target),
        wins=_win(state, move, board, dice),
        captured=tuple(sorted(knight_number(state.board[square]) for square in taken)),
        bans=move.tip if bans else None,
        stops_castle=before.castle and not after.castle,
        safe_again=tuple(sorted(before.knights - after.knights)),
        threatens=tuple(sorted(mine_after.knights - mine_before.knights)),
        nothing_to_capture=not after.knights and not after.castle,
        castle_steps=_steps_between(move.target, castle),
        closer=_steps_between(move.target, castle) < _steps_between(move.origin, castle),
    )


def _after(state: BannState, move: Move) -> tuple[tuple[int, ...], tuple[int, int]]:
    board = list(state.board)
    board[move.target], board[move.origin] = board[move.origin], 0
    for square in captures(state.board, state.turn, move.target):
        board[square] = 0
    dice = (move.tip, state.dice[1]) if state.turn == 0 else (state.dice[0], move.tip)
    return tuple(board), dice


def _win(state: BannState, move: Move, board: tuple[int, ...], dice: tuple[int, int]) -> str | None:
    """How the move wins at once, if it does."""
    if move.target == target_castle(state.turn):
        return "castle"
    if not knight_squares(board, 1 - state.turn):
        return "last-knight"
    if next(legal_moves(board, dice, 1 - state.turn), None) is None:
        return "no-move"
    return None
