"""Bann written again from the rule book, slowly and literally, to check the engine.

A position is a dict square -> (seat, number) with squares like "a1", the two dice
tops and the seat to move. Nothing here is shared with ``games.bann``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

FILES = "abcdef"
# Directions are seen from player 1: north is towards rank 6, east towards file f.
STEPS = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
SEAT0_START = {"a1": 1, "b1": 2, "a2": 3, "c1": 4, "b2": 5, "a3": 6}
OWN_CORNER = ("a1", "f6")


def turned(square: str) -> str:
    """The square 180° around the board's centre."""
    return FILES[5 - FILES.index(square[0])] + str(7 - int(square[1]))


def neighbour(square: str, direction: str) -> str | None:
    column, row = FILES.index(square[0]), int(square[1])
    dx, dy = STEPS[direction]
    column, row = column + dx, row + dy
    if 0 <= column < 6 and 1 <= row <= 6:
        return FILES[column] + str(row)
    return None


def neighbours(square: str) -> list[str]:
    return [n for d in STEPS if (n := neighbour(square, d)) is not None]


def side_faces(top: int) -> list[int]:
    return [face for face in range(1, 7) if face not in (top, 7 - top)]


@dataclass
class Position:
    knights: dict[str, tuple[int, int]]
    tops: list[int]
    to_move: int
    seen: dict[str, int] = field(default_factory=dict)
    winner: int | None = None
    drawn: bool = False

    @property
    def over(self) -> bool:
        return self.winner is not None or self.drawn

    def code(self) -> str:
        ranks = []
        for row in range(6, 0, -1):
            text = ""
            for column in FILES:
                piece = self.knights.get(f"{column}{row}")
                if piece is None:
                    text += "."
                else:
                    seat, number = piece
                    text += str(number) if seat == 0 else "abcdef"[number - 1]
            ranks.append(text)
        return f"BN1:{'/'.join(ranks)}|{self.tops[0]},{self.tops[1]}|{self.to_move}"

    def moves_after_tip(self, tip: int) -> list[str]:
        """Every legal turn with the mover's die tipped to ``tip``."""
        seat = self.to_move
        banned = {tip, self.tops[1 - seat]}
        turns = []
        for square, (owner, number) in self.knights.items():
            if owner != seat or number in banned:
                continue
            for direction in STEPS:
                target = neighbour(square, direction)
                if target is not None and target not in self.knights:
                    turns.append(f"{tip}>{number}:{direction}")
        return turns

    def legal_turns(self) -> list[str]:
        if self.over:
            return []
        return [t for tip in side_faces(self.tops[self.to_move]) for t in self.moves_after_tip(tip)]

    def play(self, turn: str) -> None:
        assert turn in self.legal_turns(), turn
        seat = self.to_move
        tip, rest = turn.split(">")
        number, direction = rest.split(":")
        self.tops[seat] = int(tip)
        square = next(s for s, p in self.knights.items() if p == (seat, int(number)))
        target = neighbour(square, direction)
        assert target is not None
        del self.knights[square]
        self.knights[target] = (seat, int(number))
        for near in neighbours(target):
            piece = self.knights.get(near)
            if piece is not None and piece[0] != seat:
                del self.knights[near]
        if target == OWN_CORNER[1 - seat]:
            self.winner = seat
            return
        if not any(owner != seat for owner, _ in self.knights.values()):
            self.winner = seat
            return
        self.to_move = 1 - seat
        self.count_position()
        if self.seen[self.code()] >= 3:
            self.drawn = True
            return
        if not self.legal_turns():
            self.winner = seat

    def count_position(self) -> None:
        self.seen[self.code()] = self.seen.get(self.code(), 0) + 1


def start(first: int) -> Position:
    knights = {}
    for square, number in SEAT0_START.items():
        knights[square] = (0, number)
        knights[turned(square)] = (1, number)
    position = Position(knights=knights, tops=[1, 1], to_move=first)
    # The rule book says "occurs": the opening position is its first occurrence.
    position.count_position()
    return position


def from_code(code: str) -> Position:
    """A position from a BN1 code (board, dice tops, seat to move)."""
    board, tops, to_move = code.removeprefix("BN1:").split("|")
    knights = {}
    for index, rank in enumerate(board.split("/")):
        row = 6 - index
        for column, char in zip(FILES, rank, strict=True):
            if char in "123456":
                knights[f"{column}{row}"] = (0, int(char))
            elif char != ".":
                knights[f"{column}{row}"] = (1, "abcdef".index(char) + 1)
    position = Position(
        knights=knights, tops=[int(t) for t in tops.split(",")], to_move=int(to_move)
    )
    position.count_position()
    return position
