"""Bann's board and pure rules: squares, knights, the legal moves and captures, and the
board's text in a ``BN1`` position code.

Squares are indices 0..35 (``rank * 6 + file``, a1 = 0, f6 = 35) inside the engine and
names "a1".."f6" everywhere else. A board cell holds 0 for empty, ``n`` for seat 0's
knight ``n`` and ``6 + n`` for seat 1's knight ``n``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from games.base import N_, IllegalAction

FILES = "abcdef"
DIRECTIONS = ("N", "E", "S", "W")
CASTLES = (0, 35)  # CASTLES[s] is seat s's own starting corner: a1 and f6
START_SQUARES = {1: "a1", 2: "b1", 3: "a2", 4: "c1", 5: "b2", 6: "a3"}  # seat 0's knights

_OFFSETS = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}


def _step(square: int, direction: str) -> int | None:
    file_step, rank_step = _OFFSETS[direction]
    file, rank = square % 6 + file_step, square // 6 + rank_step
    return rank * 6 + file if 0 <= file < 6 and 0 <= rank < 6 else None


STEPS: tuple[dict[str, int | None], ...] = tuple(
    {direction: _step(square, direction) for direction in DIRECTIONS} for square in range(36)
)
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(target for target in steps.values() if target is not None) for steps in STEPS
)


def square_name(square: int) -> str:
    return f"{FILES[square % 6]}{square // 6 + 1}"


def square_index(name: str) -> int:
    return (int(name[1]) - 1) * 6 + FILES.index(name[0])


def side_faces(top: int) -> tuple[int, ...]:
    """The faces a die can be tipped to: all but the top and the bottom (7 - top)."""
    return tuple(face for face in range(1, 7) if face not in (top, 7 - top))


def target_castle(seat: int) -> int:
    return CASTLES[1 - seat]


def _cell(seat: int, number: int) -> int:
    return seat * 6 + number


def owner(cell: int) -> int:
    return (cell - 1) // 6


def knight_number(cell: int) -> int:
    return (cell - 1) % 6 + 1


def _start_board() -> tuple[int, ...]:
    board = [0] * 36
    for number, name in START_SQUARES.items():
        board[square_index(name)] = _cell(0, number)
        # seat 1's army is seat 0's turned by 180 degrees
        board[35 - square_index(name)] = _cell(1, number)
    return tuple(board)


START_BOARD = _start_board()


class Move(NamedTuple):
    """A tip and a knight's step (a named tuple: menus and searches make thousands)."""

    tip: int
    knight: int
    direction: str
    origin: int
    target: int

    @property
    def action(self) -> str:
        return f"{self.tip}>{self.knight}:{self.direction}"


def legal_moves(board: tuple[int, ...], dice: tuple[int, int], seat: int) -> Iterator[Move]:
    """Every legal move of ``seat``, ordered by tip, then knight, then direction."""
    squares = knight_squares(board, seat)
    for tip in side_faces(dice[seat]):
        banned = (tip, dice[1 - seat])
        for number in range(1, 7):
            origin = squares.get(number)
            if origin is None or number in banned:
                continue
            for direction in DIRECTIONS:
                target = STEPS[origin][direction]
                if target is not None and board[target] == 0:
                    yield Move(tip, number, direction, origin, target)


def knight_squares(board: tuple[int, ...], seat: int) -> dict[int, int]:
    low, high = _cell(seat, 1), _cell(seat, 6)
    return {cell - low + 1: square for square, cell in enumerate(board) if low <= cell <= high}


def captures(board: tuple[int, ...], seat: int, target: int) -> list[int]:
    """Squares of the enemy knights a knight of ``seat`` arriving on ``target`` removes."""
    return [
        square for square in NEIGHBOURS[target] if board[square] and owner(board[square]) != seat
    ]


def board_text(board: tuple[int, ...]) -> str:
    ranks = []
    for rank in range(5, -1, -1):
        cells = board[rank * 6 : rank * 6 + 6]
        ranks.append("".join(_cell_char(cell) for cell in cells))
    return "/".join(ranks)


def _cell_char(cell: int) -> str:
    if cell == 0:
        return "."
    return str(knight_number(cell)) if owner(cell) == 0 else "abcdef"[knight_number(cell) - 1]


def parse_board(text: str) -> tuple[int, ...]:
    board = [0] * 36
    for row, rank_text in enumerate(text.split("/")):
        rank = 5 - row
        for file, char in enumerate(rank_text):
            if char == ".":
                continue
            cell = _cell(0, int(char)) if char.isdigit() else _cell(1, "abcdef".index(char) + 1)
            if cell in board:
                raise IllegalAction(
                    N_("The position code has knight '{knight}' twice."), knight=char
                )
            board[rank * 6 + file] = cell
    return tuple(board)


def position_key(board: tuple[int, ...], dice: tuple[int, int], turn: int) -> str:
    return f"BN1:{board_text(board)}|{dice[0]},{dice[1]}|{turn}"
