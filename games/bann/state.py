"""Bann's state: ``BannState`` with its rules (``apply``, ``legal_actions``, the draw
offer, the end of the game), its view and the view's ``TypedDict``s, and ``new_game``.
"""

from __future__ import annotations

import re
from typing import Any, TypedDict

from games.bann.board import (
    CASTLES,
    START_BOARD,
    STEPS,
    Move,
    board_text,
    captures,
    knight_number,
    knight_squares,
    legal_moves,
    owner,
    position_key,
    side_faces,
    square_name,
    target_castle,
)
from games.base import N_, GameState, IllegalAction, Rng

_MOVE_PATTERN = re.compile(r"([1-6])>([1-6]):([NESW])")


class BannKnight(TypedDict):
    seat: int
    number: int
    square: str


# "from" is a keyword, hence the call form; squares are names like "c2"
BannMove = TypedDict(
    "BannMove",
    {"seat": int, "action": str, "knight": int, "from": str, "to": str, "captured": list[str]},
)


class BannView(TypedDict):
    """What ``BannState.view`` shows (everyone sees the same); ``turn`` is the seat to act."""

    game: str
    knights: list[BannKnight]
    dice: list[int]
    banned: list[int]
    turn: int | None
    castles: list[str]
    last_move: BannMove | None
    captured_count: list[int]
    opening_roll: list[int] | None
    draw_offer: int | None
    over: bool
    winner: int | None
    result: str | None


class BannState(GameState):
    """One Bann position. ``turn`` is the seat whose move it is; while a draw offer is
    pending the *other* seat is the ``current_player`` and must accept or decline."""

    players = 2

    def __init__(
        self,
        *,
        board: tuple[int, ...],
        dice: tuple[int, int],
        turn: int,
        rng: Rng,
        history: dict[str, int],
        opening_roll: tuple[int, int] | None = None,
        last_move: BannMove | None = None,
        draw_offer: int | None = None,
        offer_used: bool = False,
        winner: int | None = None,
        result: str | None = None,
    ) -> None:
        self.board = board
        self.dice = dice
        self.turn = turn
        self.rng = rng
        self.history = history
        self.opening_roll = opening_roll
        self.last_move = last_move
        self.draw_offer = draw_offer
        self.offer_used = offer_used
        self.winner = winner
        self.result = result

    def _replace(self, **changes: Any) -> BannState:
        fields: dict[str, Any] = {
            "board": self.board,
            "dice": self.dice,
            "turn": self.turn,
            "rng": self.rng.copy(),
            "history": dict(self.history),
            "opening_roll": self.opening_roll,
            "last_move": self.last_move,
            "draw_offer": self.draw_offer,
            "offer_used": self.offer_used,
            "winner": self.winner,
            "result": self.result,
        }
        fields.update(changes)
        return BannState(**fields)

    # --- the engine contract -------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        if self.is_over:
            return None
        return self.turn if self.draw_offer is None else 1 - self.draw_offer

    @property
    def is_over(self) -> bool:
        return self.result is not None

    def legal_actions(self) -> list[str]:
        if self.is_over:
            return []
        if self.draw_offer is not None:
            return ["accept", "decline"]
        actions = [move.action for move in legal_moves(self.board, self.dice, self.turn)]
        if not self.offer_used:
            actions.append("offer")
        return actions

    def apply(self, action: str) -> BannState:
        if self.is_over:
            raise IllegalAction(N_("The game is over."))
        word = action.strip().lower()
        if self.draw_offer is not None:
            return self._answer_offer(word)
        if word in ("accept", "decline"):
            raise IllegalAction(N_("There is no draw offer to answer."))
        if word == "offer":
            if self.offer_used:
                raise IllegalAction(
                    N_("You have already offered a draw this turn; make your move.")
                )
            return self._replace(draw_offer=self.turn, offer_used=True)
        return self._play(self._check_move(action))

    def returns(self) -> list[float]:
        if self.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]

    def view(self, seat: int | None = None) -> BannView:
        """The public picture; Bann hides nothing, so every seat sees the same."""
        return {
            "game": "bann",
            "knights": [
                {"seat": owner(cell), "number": knight_number(cell), "square": square_name(square)}
                for square, cell in enumerate(self.board)
                if cell
            ],
            "dice": list(self.dice),
            "banned": sorted(set(self.dice)),
            "turn": self.current_player,
            "castles": [square_name(square) for square in CASTLES],
            "last_move": copy_move(self.last_move),
            "captured_count": self.captured_count(),
            "opening_roll": list(self.opening_roll) if self.opening_roll else None,
            "draw_offer": self.draw_offer,
            "over": self.is_over,
            "winner": self.winner,
            "result": self.result,
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": "bann",
            "board": board_text(self.board),
            "dice": list(self.dice),
            "turn": self.turn,
            "rng": self.rng.to_dict(),
            "history": dict(self.history),
            "opening_roll": list(self.opening_roll) if self.opening_roll else None,
            "last_move": copy_move(self.last_move),
            "draw_offer": self.draw_offer,
            "offer_used": self.offer_used,
            "winner": self.winner,
            "result": self.result,
        }

    def describe(self, action: str) -> str:
        word = action.strip().lower()
        if word in ("offer", "accept", "decline"):
            self.apply(word)
            return {
                "offer": "Offers a draw.",
                "accept": "Accepts the draw.",
                "decline": "Declines the draw.",
            }[word]
        details = self.move_details(action)
        sentence = (
            f"Tip to {details['tip']}, knight {details['knight']} {details['from']}→{details['to']}"
        )
        if details["captured"]:
            sentence += ", captures " + " and ".join(details["captured"])
        return sentence + (", wins." if details["wins"] else ".")

    # --- Bann specifics ------------------------------------------------------------

    def code(self) -> str:
        """The code ``BN1:<rank 6>/…/<rank 1>|<top0>,<top1>|<turn>``; each rank lists files
        a–f: ``.`` empty, ``1``–``6`` seat 0's knights, ``a``–``f`` seat 1's knights 1–6."""
        return position_key(self.board, self.dice, self.turn)

    def captured_count(self) -> list[int]:
        """How many knights each seat has lost."""
        return [6 - len(knight_squares(self.board, seat)) for seat in (0, 1)]

    def move_details(self, action: str) -> dict[str, Any]:
        """What the move ``action`` of the current player does, for labels and logs.

        ``wins`` is True when the move ends the game in the mover's favour: castle
        reached, last enemy knight captured, or the opponent left without a move.
        """
        if self.draw_offer is not None:
            raise IllegalAction(N_("Answer the draw offer first: accept or decline."))
        move = self._check_move(action)
        board, captured, dice = self._board_after(move)
        decided = _decided(board, dice, 1 - self.turn)
        return {
            "tip": move.tip,
            "knight": move.knight,
            "from": square_name(move.origin),
            "to": square_name(move.target),
            "captured": sorted(square_name(square) for square in captured),
            "wins": decided is not None and decided[0] == self.turn,
        }

    def _answer_offer(self, word: str) -> BannState:
        if word == "accept":
            return self._replace(draw_offer=None, result="agreement")
        if word == "decline":
            return self._replace(draw_offer=None)
        raise IllegalAction(N_("Answer the draw offer first: accept or decline."))

    def _check_move(self, action: str) -> Move:
        match = _MOVE_PATTERN.fullmatch(action.strip().upper())
        if match is None:
            raise IllegalAction(
                N_(
                    "'{action}' is not a Bann action: write tip>knight:direction like 4>5:N,"
                    " or offer, accept, decline."
                ),
                action=action,
            )
        tip, number, direction = int(match[1]), int(match[2]), match[3]
        top = self.dice[self.turn]
        if tip in (top, 7 - top):
            faces = ", ".join(str(face) for face in side_faces(top)[:-1])
            raise IllegalAction(
                N_("You cannot tip from {top} to {tip}: tip to a side face ({faces} or {last})."),
                top=top,
                tip=tip,
                faces=faces,
                last=side_faces(top)[-1],
            )
        origin = knight_squares(self.board, self.turn).get(number)
        if origin is None:
            raise IllegalAction(N_("Your knight {number} has been captured."), number=number)
        if number in (tip, self.dice[1 - self.turn]):
            raise IllegalAction(
                N_("Knight {number} is banned: a die shows {number}."), number=number
            )
        target = STEPS[origin][direction]
        if target is None:
            raise IllegalAction(
                N_(
                    "It is not a legal move: knight {number} on {square} cannot go {direction},"
                    " off the board."
                ),
                number=number,
                square=square_name(origin),
                direction=direction,
            )
        if self.board[target]:
            occupant = self.board[target]
            occupied = (
                N_("It is not a legal move: {square} is occupied by your knight {number}.")
                if owner(occupant) == self.turn
                else N_(
                    "It is not a legal move: {square} is occupied by the opponent's knight"
                    " {number}."
                )
            )
            raise IllegalAction(
                occupied, square=square_name(target), number=knight_number(occupant)
            )
        return Move(tip, number, direction, origin, target)

    def _board_after(self, move: Move) -> tuple[tuple[int, ...], list[int], tuple[int, int]]:
        """The board, the squares captured and the dice after ``move``."""
        mover = self.turn
        board = list(self.board)
        board[move.target], board[move.origin] = board[move.origin], 0
        captured = captures(self.board, mover, move.target)
        for square in captured:
            board[square] = 0
        dice = (move.tip, self.dice[1]) if mover == 0 else (self.dice[0], move.tip)
        return tuple(board), captured, dice

    def _play(self, move: Move) -> BannState:
        mover = self.turn
        board, captured, dice = self._board_after(move)
        after = self._replace(
            board=board,
            dice=dice,
            turn=1 - mover,
            offer_used=False,
            last_move={
                "seat": mover,
                "action": move.action,
                "knight": move.knight,
                "from": square_name(move.origin),
                "to": square_name(move.target),
                "captured": sorted(square_name(square) for square in captured),
            },
        )
        key = after.code()
        after.history[key] = after.history.get(key, 0) + 1
        after.settle()
        return after

    def settle(self) -> None:
        """Ends the game if the position on the board decides it (only called on fresh
        states that nothing else references yet)."""
        decided = _decided(self.board, self.dice, self.turn)
        if decided is not None:
            self.winner, self.result = decided
        elif self.history.get(self.code(), 0) >= 3:
            self.result = "repetition"


def _decided(board: tuple[int, ...], dice: tuple[int, int], turn: int) -> tuple[int, str] | None:
    """The winner and why, if the position alone decides the game: a castle taken, the
    last knight of a side captured, or ``turn`` left without a move."""
    for seat in (0, 1):
        cell = board[target_castle(seat)]
        if cell and owner(cell) == seat:
            return seat, "castle"
        if not knight_squares(board, 1 - seat):
            return seat, "last-knight"
    if next(legal_moves(board, dice, turn), None) is None:
        return 1 - turn, "no-move"
    return None


def new_game(players: int = 2, seed: int = 0) -> BannState:
    """A new game: the seeded opening roll decides who moves first, both dice show 1."""
    if players != 2:
        raise IllegalAction(N_("Bann is played by exactly 2 players."))
    rng = Rng(seed)
    roll = (rng.die(0), rng.die(1))
    while roll[0] == roll[1]:
        roll = (rng.die(0), rng.die(1))
    first = 0 if roll[0] > roll[1] else 1
    key = position_key(START_BOARD, (1, 1), first)
    return BannState(
        board=START_BOARD, dice=(1, 1), turn=first, rng=rng, history={key: 1}, opening_roll=roll
    )


def copy_move(last_move: BannMove | None) -> BannMove | None:
    if last_move is None:
        return None
    copy = last_move.copy()
    copy["captured"] = list(last_move["captured"])
    return copy
