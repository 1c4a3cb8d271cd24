"""Baseline players better than random, to measure the computer players against.

Each is written from a one-line description, independently of the engines' own
computer players, and decides from what its seat may see:

- Bann: a 1-, 2- or 3-ply alpha-beta searcher on material and distance to the castle.
- Gul Bara: stage-greedy, the end position of each stage with the best pip count,
  points made and checkers off.
- Barree: greedy, the walk that discards most cards, then ends nearest the rest; it
  always sends a piece it lands on, spending its card farthest from its own piece.
- Barbu: rule-based, follows with the highest card that does not win, sheds dangerous
  cards when void, doubles on good hands.

A baseline is a function ``(state, seed) -> action``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games import GameState
from games import bann as bann_rules
from games import gulbara as gulbara_rules
from games.barbu import (
    ACE,
    HEARTS,
    KING,
    KING_OF_HEARTS,
    PASS,
    QUEEN,
    RANKS,
    SUITS,
    parse_card,
    trick_winner,
)
from games.barree import (
    KEEP,
    PHASE_DRIVE,
    PHASE_ROLL,
    ROLL,
    BarreeState,
    distances,
    send_options,
    walk_options,
)

Baseline = Callable[[GameState, int], str]

# --- Bann ---------------------------------------------------------------------------

_BANN_WIN = 1_000_000


def _bann_evaluate(search: bann_rules._Search, side: int) -> int:
    """Material (100 a knight) and closeness to the enemy castle (up to 10 a knight)."""
    score = 0
    for seat, sign in ((side, 1), (1 - side, -1)):
        castle = bann_rules.target_castle(seat)
        for square in search.squares[seat][1:]:
            if square >= 0:
                distance = abs(square % 6 - castle % 6) + abs(square // 6 - castle // 6)
                score += sign * (100 + 10 - distance)
    return score


def _bann_negamax(search: bann_rules._Search, depth: int, alpha: int, beta: int, side: int) -> int:
    moves = search.generate(side)
    if not moves:
        return -_BANN_WIN
    if moves[0][5]:
        return _BANN_WIN
    if depth == 0:
        return _bann_evaluate(search, side)
    best = -_BANN_WIN - 1
    for move in moves:
        undo = search.make(side, move)
        score = -_bann_negamax(search, depth - 1, -beta, -alpha, 1 - side)
        search.unmake(side, move, undo)
        best = max(best, score)
        alpha = max(alpha, score)
        if alpha >= beta:
            break
    return best


def bann_searcher(plies: int) -> Baseline:
    def choose(state: GameState, seed: int) -> str:
        assert isinstance(state, bann_rules.BannState)
        if state.draw_offer is not None:
            return "decline"
        search = bann_rules._Search(state)
        side = state.turn
        moves = list(bann_rules._moves(state.board, state.dice, side))
        random.Random(seed).shuffle(moves)
        best_action, best_score = moves[0].action, -_BANN_WIN - 2
        for move in moves:
            captured = tuple(bann_rules._captures(state.board, side, move.target))
            wins = (
                move.target == bann_rules.target_castle(side)
                or len(captured) == (search.counts[1 - side])
            )
            if wins:
                return move.action
            search_move = (move.tip, move.knight, move.origin, move.target, captured, wins)
            undo = search.make(side, search_move)
            score = -_bann_negamax(search, plies - 1, -_BANN_WIN - 1, -best_score, 1 - side)
            search.unmake(side, search_move, undo)
            if score > best_score:
                best_action, best_score = move.action, score
        return best_action

    return choose


# --- Gul Bara -------------------------------------------------------------------------

PIP_WEIGHT = 1.0
POINT_MADE_WEIGHT = 4.0
OFF_WEIGHT = 8.0


def gulbara_stage_greedy(state: GameState, seed: int) -> str:
    assert isinstance(state, gulbara_rules.GulbaraState)
    ends = gulbara_rules.stage_plays(state)

    def value(end: bytes) -> float:
        board = list(end)
        made = sum(1 for count in board[1:] if count)
        return (
            -PIP_WEIGHT * gulbara_rules.pip_total(board)
            + POINT_MADE_WEIGHT * made
            + OFF_WEIGHT * board[0]
        )

    ranked = sorted(ends, key=lambda end: (-value(end), end))
    source, die, _target = ends[ranked[0]]
    return gulbara_rules.step_notation(source, die)


# --- Barree ---------------------------------------------------------------------------


def barree_greedy(state: GameState, seed: int) -> str:
    assert isinstance(state, BarreeState)
    if state.phase == PHASE_ROLL:
        return ROLL
    if state.phase == PHASE_DRIVE:
        sends = send_options(state)
        if not sends:
            return KEEP
        reach = distances(state.pieces[state.current], state.blockade)
        return max(sends, key=lambda send: (reach.get(send.field, 99), send.action)).action
    hand = state.cards[state.current]

    def rank(option: Any) -> tuple[int, int, str]:
        left = [card for card in hand if card not in option.discards]
        reach = distances(option.end, state.blockade)
        return (-len(option.discards), sum(reach.get(card, 20) for card in left), option.action)

    return min(walk_options(state), key=rank).action


# --- Barbu ----------------------------------------------------------------------------


def _suit(card: int) -> int:
    return card // 13


def _rank(card: int) -> int:
    return card % 13


def _danger(contract: str, card: int) -> int:
    """How much holding ``card`` late in a negative contract can cost, roughly."""
    if contract == "barbu":
        return 100 if card == KING_OF_HEARTS else _rank(card) + (20 if _suit(card) == HEARTS else 0)
    if contract == "noqueens":
        return 100 if _rank(card) == QUEEN else _rank(card) + 30 * (_rank(card) > QUEEN)
    if contract == "nohearts":
        return _rank(card) + (40 if _suit(card) == HEARTS else 0)
    return _rank(card)


def _hand_estimate(contract: str, hand: list[int], detail: str) -> float:
    """A rough deal score this hand can expect as declarer, against a par of 0."""
    high = sum(1 for card in hand if _rank(card) >= KING)
    middle = sum(1 for card in hand if QUEEN - 2 <= _rank(card) <= QUEEN)
    low = sum(1 for card in hand if _rank(card) <= 4)
    if contract == "notricks":
        return 6 - 3 * high - middle + low
    if contract == "nolasttwo":
        return 8 - 4 * sum(1 for card in hand if _rank(card) == ACE) - 1.5 * high + low
    if contract == "noqueens":
        queens = [card for card in hand if _rank(card) == QUEEN]
        return 6 - sum(6 for q in queens if sum(1 for c in hand if _suit(c) == _suit(q)) < 4)
    if contract == "nohearts":
        hearts = [card for card in hand if _suit(card) == HEARTS]
        return 6 - sum(1 for card in hearts if _rank(card) >= 9) * 3 - 0.5 * len(hearts) + low
    if contract == "barbu":
        hearts = sum(1 for card in hand if _suit(card) == HEARTS)
        if KING_OF_HEARTS in hand:
            return -10 + 2 * hearts
        return 6 if ACE + 13 * HEARTS in hand and hearts >= 3 else 2
    if contract == "trumps":
        trump = SUITS.index(detail)
        trumps = [card for card in hand if _suit(card) == trump]
        return 6 * len(trumps) + 5 * sum(1 for card in trumps if _rank(card) >= QUEEN) - 40
    start = RANKS.index(detail)
    near = sum(1 for card in hand if abs(_rank(card) - start) <= 2)
    return 4 * near - 12


def _barbu_contract(view: dict[str, Any]) -> str:
    hand = [parse_card(card) for card in view["hand"]]

    def estimate(action: str) -> tuple[float, str]:
        name, _, detail = action.partition(":")
        return _hand_estimate(name, hand, detail), action

    return max(view["legal"], key=estimate)


def _barbu_doubles(view: dict[str, Any]) -> str:
    choice = view["doubling"]
    hand = [parse_card(card) for card in view["hand"]]
    seat, declarer = view["seat"], view["declarer"]
    good = _hand_estimate(view["contract"], hand, view["contract_action"].partition(":")[2]) > 0
    chosen = set()
    if seat == declarer:
        if good:
            chosen.update(choice["targets"])
    elif good and declarer in choice["targets"]:
        chosen.add(declarer)
    if choice["required"] is not None:
        chosen.add(choice["required"])
    return f"double:{','.join(map(str, sorted(chosen)))}" if chosen else PASS


def _barbu_domino(view: dict[str, Any], legal: list[int]) -> int:
    hand = [parse_card(card) for card in view["hand"]]

    def priority(card: int) -> tuple[int, int]:
        same_suit = sum(1 for other in hand if _suit(other) == _suit(card))
        return same_suit, -_rank(card)

    return max(legal, key=priority)


def _barbu_trick_card(view: dict[str, Any], legal: list[int]) -> int:
    contract = view["contract"]
    trump = SUITS.index(view["trump"]) if view["trump"] else None
    trick = [parse_card(entry["card"]) for entry in view["trick"]]
    if contract == "trumps":
        if not trick:
            return max(legal, key=_rank)
        winning = [card for card in legal if trick_winner([*trick, card], trump) == len(trick)]
        return min(winning or legal, key=_rank)
    if not trick:
        return min(legal, key=lambda card: (_rank(card), card))
    led = _suit(trick[0])
    if any(_suit(card) == led for card in legal):
        best = trick[trick_winner(trick, None)]
        under = [card for card in legal if card < best]
        if under:
            return max(under)
        last = len(trick) == 3
        return max(legal) if last else min(legal)
    return max(legal, key=lambda card: (_danger(contract, card), card))


def barbu_rule_based(state: GameState, seed: int) -> str:
    seat = state.current_player
    view = state.view(seat)
    legal_actions = view["legal"]
    if len(legal_actions) == 1:
        return str(legal_actions[0])
    if view["phase"] == "contract":
        return _barbu_contract(view)
    if view["phase"] == "doubling":
        return _barbu_doubles(view)
    legal = [parse_card(action) for action in legal_actions if action != PASS]
    if view["contract"] == "domino":
        card = _barbu_domino(view, legal)
    else:
        card = _barbu_trick_card(view, legal)
    return RANKS[_rank(card)] + SUITS[_suit(card)]


BASELINES: dict[str, dict[str, Baseline]] = {
    "bann": {
        "1ply": bann_searcher(1),
        "2ply": bann_searcher(2),
        "3ply": bann_searcher(3),
    },
    "gulbara": {"stage-greedy": gulbara_stage_greedy},
    "barree": {"greedy": barree_greedy},
    "barbu": {"rule-based": barbu_rule_based},
}
