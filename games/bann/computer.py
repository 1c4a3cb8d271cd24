"""Bann's computer player (``bot_action``): an alpha-beta search on a mutable copy of the
position, which is much faster than building immutable states, bounded by a node budget
per level.
"""

from __future__ import annotations

import random

from games.bann.board import (
    CASTLES,
    NEIGHBOURS,
    Move,
    captures,
    knight_number,
    legal_moves,
    owner,
    position_key,
    side_faces,
    target_castle,
)
from games.bann.state import BannState
from games.base import DEFAULT_LEVEL, N_, IllegalAction, check_level

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


class SearchTimeout(Exception):
    """The node budget ran out in the middle of a depth."""


# A search move: tip, knight number, origin, target, captured squares, wins at once.
_SearchMove = tuple[int, int, int, int, tuple[int, ...], bool]


class Search:
    """Alpha-beta negamax on a mutable copy of one position."""

    def __init__(self, state: BannState, node_limit: int = NODE_LIMITS["hard"]) -> None:
        self.node_limit = node_limit
        self.board = list(state.board)
        self.dice = list(state.dice)
        self.squares = [[-1] * 7, [-1] * 7]
        for square, cell in enumerate(state.board):
            if cell:
                self.squares[owner(cell)][knight_number(cell)] = square
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
            for target in NEIGHBOURS[origin]:
                if board[target]:
                    continue
                captured = tuple(
                    square
                    for square in NEIGHBOURS[target]
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
            self.squares[1 - side][knight_number(cell)] = -1
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
            self.squares[1 - side][knight_number(cell)] = square
        self.counts[1 - side] += len(removed)
        self.dice[side] = old_top

    def negamax(self, depth: int, alpha: int, beta: int, side: int, ply: int) -> int:
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise SearchTimeout
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
            for target in NEIGHBOURS[origin]:
                if board[target]:
                    continue
                movable = True
                steps += 1
                reaches_castle = reaches_castle or target == castle
                capture = 0
                for square in NEIGHBOURS[target]:
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
            for target in NEIGHBOURS[origin]:
                if board[target]:
                    continue
                pressure += MOBILITY
                if target == own_castle:
                    pressure += CASTLE_THREAT
                for square in NEIGHBOURS[target]:
                    if own_low <= board[square] < own_low + 6:
                        threatened.add(square)
        return pressure + len(threatened) * UNDER_THREAT


def _search_root(state: BannState, seed: int, node_limit: int) -> tuple[Move, int]:
    """The best move for the seat to move and its score, by iterative deepening."""
    search = Search(state, node_limit)
    moves = list(legal_moves(state.board, state.dice, state.turn))
    # the seed only decides between moves the search finds equally good
    random.Random(f"bann-bot/{seed}").shuffle(moves)
    scores = dict.fromkeys(moves, 0)
    best_move, best_score = moves[0], -WIN
    for depth in range(1, MAX_DEPTH + 1):
        ordered = sorted(moves, key=lambda move: -scores[move])
        depth_scores: dict[Move, int] = {}
        try:
            search_depth(search, state, ordered, depth, depth_scores)
        except SearchTimeout:
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


def search_depth(
    search: Search,
    state: BannState,
    moves: list[Move],
    depth: int,
    scores: dict[Move, int],
    full_window: bool = False,
) -> None:
    """Scores the root moves at ``depth`` into ``scores``, exact for the best so far and
    upper bounds for the rest (exact for all with ``full_window``); stops with
    ``SearchTimeout`` when the budget runs out."""
    side = state.turn
    alpha = -WIN
    for move in moves:
        captured = tuple(captures(state.board, side, move.target))
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


def _would_repeat_third_time(state: BannState, search: Search) -> bool:
    key = position_key(tuple(search.board), (search.dice[0], search.dice[1]), 1 - state.turn)
    return state.history.get(key, 0) >= 2


def _easy_move(state: BannState, seed: int) -> Move:
    """A plausible but careless move: a win in one is always taken and a move that lets
    the opponent win at once is avoided when possible, otherwise any move that a two-ply
    look finds within ``EASY_MARGIN`` of the best."""
    search = Search(state, NODE_LIMITS["easy"] * 100)
    moves = list(legal_moves(state.board, state.dice, state.turn))
    scores: dict[Move, int] = {}
    search_depth(search, state, moves, 2, scores, full_window=True)
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
