"""Bann: two armies of numbered knights on a 6×6 board, steered by dice that ban.

Squares are indices 0..35 (``rank * 6 + file``, a1 = 0, f6 = 35) inside the engine and
names "a1".."f6" everywhere else. A board cell holds 0 for empty, ``n`` for seat 0's
knight ``n`` and ``6 + n`` for seat 1's knight ``n``.

The module also holds the computer player (``bot_action``): an alpha-beta search on a
mutable copy of the position, which is much faster than building immutable states.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any, NamedTuple, TypedDict

from games.base import DEFAULT_LEVEL, N_, GameSpec, GameState, IllegalAction, Rng, check_level

FILES = "abcdef"
DIRECTIONS = ("N", "E", "S", "W")
CASTLES = (0, 35)  # CASTLES[s] is seat s's own starting corner: a1 and f6
START_SQUARES = {1: "a1", 2: "b1", 3: "a2", 4: "c1", 5: "b2", 6: "a3"}  # seat 0's knights

_OFFSETS = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
_MOVE_PATTERN = re.compile(r"([1-6])>([1-6]):([NESW])")
_CODE_PATTERN = re.compile(r"BN1:([.1-6a-f]{6}(?:/[.1-6a-f]{6}){5})\|([1-6]),([1-6])\|([01])")


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


def _step(square: int, direction: str) -> int | None:
    file_step, rank_step = _OFFSETS[direction]
    file, rank = square % 6 + file_step, square // 6 + rank_step
    return rank * 6 + file if 0 <= file < 6 and 0 <= rank < 6 else None


_STEPS: tuple[dict[str, int | None], ...] = tuple(
    {direction: _step(square, direction) for direction in DIRECTIONS} for square in range(36)
)
_NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(target for target in steps.values() if target is not None) for steps in _STEPS
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


def _owner(cell: int) -> int:
    return (cell - 1) // 6


def _number(cell: int) -> int:
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


def _moves(board: tuple[int, ...], dice: tuple[int, int], seat: int) -> Iterator[Move]:
    """Every legal move of ``seat``, ordered by tip, then knight, then direction."""
    squares = _knight_squares(board, seat)
    for tip in side_faces(dice[seat]):
        banned = (tip, dice[1 - seat])
        for number in range(1, 7):
            origin = squares.get(number)
            if origin is None or number in banned:
                continue
            for direction in DIRECTIONS:
                target = _STEPS[origin][direction]
                if target is not None and board[target] == 0:
                    yield Move(tip, number, direction, origin, target)


def _knight_squares(board: tuple[int, ...], seat: int) -> dict[int, int]:
    low, high = _cell(seat, 1), _cell(seat, 6)
    return {cell - low + 1: square for square, cell in enumerate(board) if low <= cell <= high}


def _captures(board: tuple[int, ...], seat: int, target: int) -> list[int]:
    """Squares of the enemy knights a knight of ``seat`` arriving on ``target`` removes."""
    return [
        square for square in _NEIGHBOURS[target] if board[square] and _owner(board[square]) != seat
    ]


def _board_text(board: tuple[int, ...]) -> str:
    ranks = []
    for rank in range(5, -1, -1):
        cells = board[rank * 6 : rank * 6 + 6]
        ranks.append("".join(_cell_char(cell) for cell in cells))
    return "/".join(ranks)


def _cell_char(cell: int) -> str:
    if cell == 0:
        return "."
    return str(_number(cell)) if _owner(cell) == 0 else "abcdef"[_number(cell) - 1]


def _parse_board(text: str) -> tuple[int, ...]:
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


def _position_key(board: tuple[int, ...], dice: tuple[int, int], turn: int) -> str:
    return f"BN1:{_board_text(board)}|{dice[0]},{dice[1]}|{turn}"


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
        actions = [move.action for move in _moves(self.board, self.dice, self.turn)]
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
                {"seat": _owner(cell), "number": _number(cell), "square": square_name(square)}
                for square, cell in enumerate(self.board)
                if cell
            ],
            "dice": list(self.dice),
            "banned": sorted(set(self.dice)),
            "turn": self.current_player,
            "castles": [square_name(square) for square in CASTLES],
            "last_move": _copy_move(self.last_move),
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
            "board": _board_text(self.board),
            "dice": list(self.dice),
            "turn": self.turn,
            "rng": self.rng.to_dict(),
            "history": dict(self.history),
            "opening_roll": list(self.opening_roll) if self.opening_roll else None,
            "last_move": _copy_move(self.last_move),
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
        return _position_key(self.board, self.dice, self.turn)

    def captured_count(self) -> list[int]:
        """How many knights each seat has lost."""
        return [6 - len(_knight_squares(self.board, seat)) for seat in (0, 1)]

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
                    "'{action}' is not a Bann action: write tip>knight:direction like 4>3:N,"
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
        origin = _knight_squares(self.board, self.turn).get(number)
        if origin is None:
            raise IllegalAction(N_("Your knight {number} has been captured."), number=number)
        if number in (tip, self.dice[1 - self.turn]):
            raise IllegalAction(
                N_("Knight {number} is banned: a die shows {number}."), number=number
            )
        target = _STEPS[origin][direction]
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
                if _owner(occupant) == self.turn
                else N_(
                    "It is not a legal move: {square} is occupied by the opponent's knight"
                    " {number}."
                )
            )
            raise IllegalAction(occupied, square=square_name(target), number=_number(occupant))
        return Move(tip, number, direction, origin, target)

    def _board_after(self, move: Move) -> tuple[tuple[int, ...], list[int], tuple[int, int]]:
        """The board, the squares captured and the dice after ``move``."""
        mover = self.turn
        board = list(self.board)
        board[move.target], board[move.origin] = board[move.origin], 0
        captured = _captures(self.board, mover, move.target)
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
        after._settle()
        return after

    def _settle(self) -> None:
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
        if cell and _owner(cell) == seat:
            return seat, "castle"
        if not _knight_squares(board, 1 - seat):
            return seat, "last-knight"
    if next(_moves(board, dice, turn), None) is None:
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
    key = _position_key(START_BOARD, (1, 1), first)
    return BannState(
        board=START_BOARD, dice=(1, 1), turn=first, rng=rng, history={key: 1}, opening_roll=roll
    )


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
    board = _parse_board(match[1])
    dice = (int(match[2]), int(match[3]))
    turn = int(match[4])
    state = BannState(
        board=board,
        dice=dice,
        turn=turn,
        rng=Rng(0),
        history={_position_key(board, dice, turn): 1},
    )
    state._settle()
    return state


def from_dict(data: dict[str, Any]) -> BannState:
    return BannState(
        board=_parse_board(data["board"]),
        dice=(int(data["dice"][0]), int(data["dice"][1])),
        turn=int(data["turn"]),
        rng=Rng.from_dict(data["rng"]),
        history={str(key): int(count) for key, count in data["history"].items()},
        opening_roll=_pair(data["opening_roll"]) if data["opening_roll"] else None,
        last_move=_copy_move(data["last_move"]),
        draw_offer=data["draw_offer"],
        offer_used=bool(data["offer_used"]),
        winner=data["winner"],
        result=data["result"],
    )


def _copy_move(last_move: BannMove | None) -> BannMove | None:
    if last_move is None:
        return None
    copy = last_move.copy()
    copy["captured"] = list(last_move["captured"])
    return copy


def _pair(values: list[int]) -> tuple[int, int]:
    return int(values[0]), int(values[1])


# --- the computer player ---------------------------------------------------------------

WIN = 100_000
KNIGHT_VALUE = 100
CAPTURE_READY = 70  # the side to move will cash an available capture, minus the risk of recapture
UNDER_THREAT = 20  # a knight the opponent could take next: the side to move can often save it
CASTLE_THREAT = 80  # an enemy knight next to an empty own castle must be answered at once
MOBILITY = 3  # per free step: knights with room to move are harder to ban into a loss
ACCEPT_DRAW_BELOW = -150  # accept an offer when the position is worse than this
# Search budgets in nodes, never in time, so a decision is the same on any machine.
NODE_LIMITS = {"easy": 300, "normal": 1_500, "hard": 15_000}
# easy picks at random among the moves scoring within this margin of the best one
EASY_MARGIN = 160
MAX_DEPTH = 6
DEPTH_GROWTH = 10
# bonus by Manhattan distance to the enemy castle: the last steps matter most
ADVANCE = (0, 60, 36, 24, 16, 11, 7, 4, 2, 1, 0)
_DISTANCE = tuple(
    tuple(abs(square % 6 - castle % 6) + abs(square // 6 - castle // 6) for square in range(36))
    for castle in range(36)
)
_KNIGHT_WORTH = tuple(
    tuple(KNIGHT_VALUE + ADVANCE[_DISTANCE[target_castle(seat)][square]] for square in range(36))
    for seat in (0, 1)
)
_SIDE_FACES = tuple(side_faces(top) if top else () for top in range(7))


class _SearchTimeout(Exception):
    """The node budget ran out in the middle of a depth."""


# A search move: tip, knight number, origin, target, captured squares, wins at once.
_SearchMove = tuple[int, int, int, int, tuple[int, ...], bool]


class _Search:
    """Alpha-beta negamax on a mutable copy of one position."""

    def __init__(self, state: BannState, node_limit: int = NODE_LIMITS["hard"]) -> None:
        self.node_limit = node_limit
        self.board = list(state.board)
        self.dice = list(state.dice)
        self.squares = [[-1] * 7, [-1] * 7]
        for square, cell in enumerate(state.board):
            if cell:
                self.squares[_owner(cell)][_number(cell)] = square
        self.counts = [
            sum(1 for square in self.squares[seat][1:] if square >= 0) for seat in (0, 1)
        ]
        self.nodes = 0
        self.cache: dict[tuple[int, ...], tuple[int, list[tuple[int, int, bool]]]] = {}

    def generate(self, side: int) -> list[_SearchMove]:
        """Legal moves, best-looking first (wins, then big captures, then advances)."""
        board, squares = self.board, self.squares[side]
        forbidden = self.dice[1 - side]
        tips = _SIDE_FACES[self.dice[side]]
        castle = CASTLES[1 - side]
        enemy_low = 7 if side == 0 else 1
        enemy_count = self.counts[1 - side]
        distance = _DISTANCE[castle]
        scored: list[tuple[int, _SearchMove]] = []
        for number in range(1, 7):
            origin = squares[number]
            if origin < 0 or number == forbidden:
                continue
            for target in _NEIGHBOURS[origin]:
                if board[target]:
                    continue
                captured = tuple(
                    square
                    for square in _NEIGHBOURS[target]
                    if enemy_low <= board[square] < enemy_low + 6
                )
                wins = target == castle or len(captured) == enemy_count
                order = wins * 10_000 + len(captured) * 100 + distance[origin] - distance[target]
                for tip in tips:
                    if tip != number:
                        scored.append((order, (tip, number, origin, target, captured, wins)))
        scored.sort(key=lambda pair: -pair[0])
        return [move for _, move in scored]

    def make(self, side: int, move: _SearchMove) -> tuple[int, list[tuple[int, int]]]:
        tip, number, origin, target, captured, _ = move
        board = self.board
        board[target], board[origin] = board[origin], 0
        self.squares[side][number] = target
        removed = []
        for square in captured:
            cell = board[square]
            removed.append((square, cell))
            board[square] = 0
            self.squares[1 - side][_number(cell)] = -1
        self.counts[1 - side] -= len(captured)
        old_top = self.dice[side]
        self.dice[side] = tip
        return old_top, removed

    def unmake(self, side: int, move: _SearchMove, undo: tuple[int, list[tuple[int, int]]]) -> None:
        _, number, origin, target, _, _ = move
        old_top, removed = undo
        board = self.board
        board[origin], board[target] = board[target], 0
        self.squares[side][number] = origin
        for square, cell in removed:
            board[square] = cell
            self.squares[1 - side][_number(cell)] = square
        self.counts[1 - side] += len(removed)
        self.dice[side] = old_top

    def negamax(self, depth: int, alpha: int, beta: int, side: int, ply: int) -> int:
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise _SearchTimeout
        if depth == 0:
            return self.evaluate(side, ply)
        moves = self.generate(side)
        if not moves:
            return ply - WIN
        if moves[0][5]:
            return WIN - ply - 1
        best = -WIN
        for move in moves:
            undo = self.make(side, move)
            score = -self.negamax(depth - 1, -beta, -alpha, 1 - side, ply + 1)
            self.unmake(side, move, undo)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best

    def evaluate(self, side: int, ply: int) -> int:
        """Score for ``side``, who moves next: material, advance, and one-move tactics."""
        key = (*self.board, side)
        terms = self.cache.get(key)
        if terms is None:
            terms = self.cache[key] = self.board_terms(side)
        score, options = terms
        # the opponent's die bans one of our knights; our own tip can always spare another
        forbidden = self.dice[1 - side]
        best_capture = -1
        for number, capture, reaches_castle in options:
            if number == forbidden:
                continue
            if reaches_castle:
                return WIN - ply - 1
            best_capture = max(best_capture, capture)
        if best_capture < 0:
            return ply - WIN
        if best_capture >= self.counts[1 - side]:
            return WIN - ply - 1
        return score + best_capture * CAPTURE_READY

    def board_terms(self, side: int) -> tuple[int, list[tuple[int, int, bool]]]:
        """The dice-independent part of ``evaluate``: a static score for ``side`` and, per
        movable knight of ``side``, its best capture and whether it reaches the castle."""
        board, squares = self.board, self.squares
        enemy = 1 - side
        own_worth, enemy_worth = _KNIGHT_WORTH[side], _KNIGHT_WORTH[enemy]
        score = 0
        for square in squares[side]:
            if square >= 0:
                score += own_worth[square]
        for square in squares[enemy]:
            if square >= 0:
                score -= enemy_worth[square]
        enemy_low = 7 if side == 0 else 1
        castle = CASTLES[enemy]
        options = []
        steps = 0
        for number in range(1, 7):
            origin = squares[side][number]
            if origin < 0:
                continue
            best_capture, movable, reaches_castle = 0, False, False
            for target in _NEIGHBOURS[origin]:
                if board[target]:
                    continue
                movable = True
                steps += 1
                reaches_castle = reaches_castle or target == castle
                capture = 0
                for square in _NEIGHBOURS[target]:
                    if enemy_low <= board[square] < enemy_low + 6:
                        capture += 1
                best_capture = max(best_capture, capture)
            if movable:
                options.append((number, best_capture, reaches_castle))
        return score + steps * MOBILITY - self.enemy_pressure(side), options

    def enemy_pressure(self, side: int) -> int:
        """What the opponent of ``side`` threatens for his next move (ignoring bans) and
        how freely he moves."""
        board, own_castle = self.board, CASTLES[side]
        own_low = 1 if side == 0 else 7
        threatened = set()
        pressure = 0
        for origin in self.squares[1 - side]:
            if origin < 0:
                continue
            for target in _NEIGHBOURS[origin]:
                if board[target]:
                    continue
                pressure += MOBILITY
                if target == own_castle:
                    pressure += CASTLE_THREAT
                for square in _NEIGHBOURS[target]:
                    if own_low <= board[square] < own_low + 6:
                        threatened.add(square)
        return pressure + len(threatened) * UNDER_THREAT


def _search_root(state: BannState, seed: int, node_limit: int) -> tuple[Move, int]:
    """The best move for the seat to move and its score, by iterative deepening."""
    search = _Search(state, node_limit)
    moves = list(_moves(state.board, state.dice, state.turn))
    # the seed only decides between moves the search finds equally good
    random.Random(f"bann-bot/{seed}").shuffle(moves)
    scores = dict.fromkeys(moves, 0)
    best_move, best_score = moves[0], -WIN
    for depth in range(1, MAX_DEPTH + 1):
        ordered = sorted(moves, key=lambda move: -scores[move])
        depth_scores: dict[Move, int] = {}
        try:
            _search_depth(search, state, ordered, depth, depth_scores)
        except _SearchTimeout:
            # the previous best is searched first, so a part of the depth is still
            # sound: a move that beat it at this depth is better
            if depth_scores:
                best_move = max(depth_scores, key=lambda move: depth_scores[move])
                best_score = depth_scores[best_move]
            break
        scores.update(depth_scores)
        best_move = max(ordered, key=lambda move: scores[move])
        best_score = scores[best_move]
        # a decided game needs no deeper look, and a next depth costs about ten times more
        if abs(best_score) > WIN // 2 or search.nodes * DEPTH_GROWTH > node_limit:
            break
    return best_move, best_score


def _search_depth(
    search: _Search,
    state: BannState,
    moves: list[Move],
    depth: int,
    scores: dict[Move, int],
    full_window: bool = False,
) -> None:
    """Scores the root moves at ``depth`` into ``scores``, exact for the best so far and
    upper bounds for the rest (exact for all with ``full_window``); stops with
    ``_SearchTimeout`` when the budget runs out."""
    side = state.turn
    alpha = -WIN
    for move in moves:
        captured = tuple(_captures(state.board, side, move.target))
        wins = move.target == target_castle(side) or len(captured) == search.counts[1 - side]
        search_move = (move.tip, move.knight, move.origin, move.target, captured, wins)
        undo = search.make(side, search_move)
        if wins:
            score = WIN - 1
        elif _would_repeat_third_time(state, search):
            score = 0
        else:
            score = -search.negamax(depth - 1, -WIN, -alpha, 1 - side, 1)
        search.unmake(side, search_move, undo)
        scores[move] = score
        if not full_window:
            alpha = max(alpha, score)


def _would_repeat_third_time(state: BannState, search: _Search) -> bool:
    key = _position_key(tuple(search.board), (search.dice[0], search.dice[1]), 1 - state.turn)
    return state.history.get(key, 0) >= 2


def _easy_move(state: BannState, seed: int) -> Move:
    """A plausible but careless move: a win in one is always taken and a move that lets
    the opponent win at once is avoided when possible, otherwise any move that a two-ply
    look finds within ``EASY_MARGIN`` of the best."""
    search = _Search(state, NODE_LIMITS["easy"] * 100)
    moves = list(_moves(state.board, state.dice, state.turn))
    scores: dict[Move, int] = {}
    _search_depth(search, state, moves, 2, scores, full_window=True)
    best = max(scores.values())
    if best > WIN // 2:
        return max(moves, key=lambda move: scores[move])
    safe = [move for move in moves if scores[move] > -WIN // 2] or moves
    close = [move for move in safe if scores[move] >= best - EASY_MARGIN]
    return random.Random(f"bann-easy/{seed}").choice(close)


def bot_action(state: BannState, seed: int = 0, level: str = DEFAULT_LEVEL) -> str:
    """The computer's action for ``state.current_player``; never offers a draw itself.

    The search is bounded by a node budget per level, never by the clock, so the same
    position, seed and level give the same move on any machine under any load.
    """
    check_level(level)
    if state.is_over:
        raise IllegalAction(N_("The game is over."))
    if level == "easy" and state.draw_offer is None:
        return _easy_move(state, seed).action
    best_move, mover_score = _search_root(state, seed, NODE_LIMITS[level])
    if state.draw_offer is not None:
        # the search speaks for the seat to move, which is the offerer
        return "accept" if -mover_score < ACCEPT_DRAW_BELOW else "decline"
    return best_move.action


SPEC = GameSpec(
    key="bann",
    title="Bann",
    min_players=2,
    max_players=2,
    position=1,
    new_game=new_game,
    from_dict=from_dict,
    bot_action=bot_action,
    on_timeout="loss",
    # The opening roll decides who starts; no other die: not a dice game.
    dice=None,
    hidden_information=False,
    options=(),
)
