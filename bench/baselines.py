"""Baseline players better than random, to measure the computer players against.

Each is written from a one-line description, independently of the engines' own
computer players, and decides from what its seat may see:

- Bann: a 1-, 2- or 3-ply alpha-beta searcher on material and distance to the castle.
- Gul Bara: stage-greedy, the end position of each stage with the best pip count,
  points made and checkers off.
- Barree: greedy, the walk that discards most cards, then ends nearest the rest; it
  always sends a piece it lands on, spending its card farthest from its own piece.
- Barbu: rule-based, follows with the highest card that does not win, sheds dangerous
  cards when void, leads low from suits without its own penalty cards, picks the
  contract whose rough hand estimate beats that contract's par by most, doubles (and
  redoubles) when its hand looks clearly better than par.

A baseline is a function ``(state, seed) -> action``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games import GameState
from games import bann as bann_rules
from games import gulbara as gulbara_rules
from games.bann.board import captures, legal_moves
from games.bann.computer import Search
from games.barbu import (
    ACE,
    HEARTS,
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


def _bann_evaluate(search: Search, side: int) -> int:
    """Material (100 a knight) and closeness to the enemy castle (up to 10 a knight)."""
    score = 0
    for seat, sign in ((side, 1), (1 - side, -1)):
        castle = bann_rules.target_castle(seat)
        for square in search.squares[seat][1:]:
            if square >= 0:
                distance = abs(square % 6 - castle % 6) + abs(square // 6 - castle // 6)
                score += sign * (100 + 10 - distance)
    return score


def _bann_negamax(search: Search, depth: int, alpha: int, beta: int, side: int) -> int:
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
        search = Search(state)
        side = state.turn
        moves = list(legal_moves(state.board, state.dice, side))
        random.Random(seed).shuffle(moves)
        best_action, best_score = moves[0].action, -_BANN_WIN - 2
        for move in moves:
            captured = tuple(captures(state.board, side, move.target))
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

# Average declarer score per contract at the table (its par): declarer picks the
# contract whose estimate beats its par by most.
_BARBU_PAR = {
    "notricks": -6.5,
    "noqueens": -6.0,
    "nolasttwo": -7.5,
    "nohearts": -7.5,
    "barbu": -5.0,
    "trumps": 16.25,
    "domino": 16.25,
}
# Chance that a card of this rank takes a trick in a no-trump deal, from the two up.
_TRICK_CHANCE = (0, 0, 0, 0, 0, 0.02, 0.05, 0.1, 0.15, 0.25, 0.4, 0.6, 0.85)


def _suit(card: int) -> int:
    return card // 13


def _rank(card: int) -> int:
    return card % 13


def _suit_cards(hand: list[int], suit: int) -> list[int]:
    return [card for card in hand if _suit(card) == suit]


def _winner_risk(card: int, hand: list[int]) -> float:
    """Chance that ``card`` has to take a trick: high cards, unless low cards of the same
    suit let their holder duck often enough (a long suit with low cards is safe)."""
    same = _suit_cards(hand, _suit(card))
    low = sum(1 for other in same if _rank(other) <= 5)
    return _TRICK_CHANCE[_rank(card)] * (0.5 if low >= 2 else 1.0) * (0.6 if low >= 3 else 1.0)


def _expected_tricks(hand: list[int]) -> float:
    return sum(_winner_risk(card, hand) for card in hand)


def _trump_tricks(hand: list[int], trump: int) -> float:
    """Tricks a hand may take with ``trump`` as trumps: sure honours, length and aces."""
    trumps = sorted((_rank(card) for card in _suit_cards(hand, trump)), reverse=True)
    tricks = sum(1.0 for index, rank in enumerate(trumps) if rank >= ACE - index)
    tricks += max(0, len(trumps) - 3) * 0.9
    tricks += sum(0.8 for card in hand if _rank(card) == ACE and _suit(card) != trump)
    return tricks


def _hand_estimate(contract: str, hand: list[int], detail: str) -> float:
    """The raw score this hand can expect in ``contract`` (declarer or not)."""
    if contract == "notricks":
        return -2 * _expected_tricks(hand)
    if contract == "nolasttwo":
        late = sum(_winner_risk(card, hand) for card in hand if _rank(card) >= QUEEN)
        return -30 * min(1.0, late / 3)
    if contract == "noqueens":
        risk = 0.0
        for suit in range(4):
            same = _suit_cards(hand, suit)
            guards = sum(1 for card in same if _rank(card) < QUEEN)
            if any(_rank(card) == QUEEN for card in same):
                risk += 6 * (0.2 if guards >= 3 else 0.5 if guards == 2 else 0.85)
            risk += sum(1.5 * _winner_risk(card, hand) for card in same if _rank(card) > QUEEN)
        return -risk
    if contract == "nohearts":
        hearts = _suit_cards(hand, HEARTS)
        risk = sum(2.5 * _winner_risk(card, hand) for card in hand)
        risk += 6 * _winner_risk(ACE + 13 * HEARTS, hand) if ACE + 13 * HEARTS in hand else 0
        return -risk - 0.3 * max(0, 4 - len(hearts))
    if contract == "barbu":
        hearts = _suit_cards(hand, HEARTS)
        if KING_OF_HEARTS in hand:
            return -20 * (0.25 if len(hearts) >= 4 else 0.5 if len(hearts) >= 2 else 0.8)
        if ACE + 13 * HEARTS in hand:
            return -20 * (0.1 if len(hearts) >= 3 else 0.35)
        return -2.0
    if contract == "trumps":
        return 5 * _trump_tricks(hand, SUITS.index(detail))
    start = RANKS.index(detail)
    distance = sum(abs(_rank(card) - start) for card in hand)
    return 45 - 1.2 * distance


def _barbu_contract(view: dict[str, Any]) -> str:
    hand = [parse_card(card) for card in view["hand"]]

    def advantage(action: str) -> tuple[float, str]:
        name, _, detail = action.partition(":")
        return _hand_estimate(name, hand, detail) - _BARBU_PAR[name], action

    return max(view["legal"], key=advantage)


def _barbu_doubles(view: dict[str, Any]) -> str:
    """Declarer redoubles when his contract looks well above par; the others double the
    declarer (or, in a negative contract, anyone) when their own hand looks safer than
    the par of the contract."""
    choice = view["doubling"]
    hand = [parse_card(card) for card in view["hand"]]
    contract = view["contract"]
    estimate = _hand_estimate(contract, hand, view["contract_action"].partition(":")[2])
    par = _BARBU_PAR[contract]
    chosen = set()
    if view["seat"] == view["declarer"]:
        if estimate - par > 5:
            chosen.update(choice["targets"])
    elif contract == "trumps":
        if estimate > par + 5:
            chosen.add(view["declarer"])
    elif contract != "domino" and estimate > par / 3:
        chosen.update(choice["targets"])
    if choice["required"] is not None:
        chosen.add(choice["required"])
    return f"double:{','.join(map(str, sorted(chosen)))}" if chosen else PASS


def _barbu_domino(view: dict[str, Any], legal: list[int]) -> int:
    """Lay first the card that frees most of one's own cards in its suit, far ends first
    among equals, so rivals get as few new openings as possible."""
    hand = [parse_card(card) for card in view["hand"]]

    def priority(card: int) -> tuple[int, int, int]:
        behind = [other for other in _suit_cards(hand, _suit(card)) if other != card]
        freed = sum(
            1
            for other in behind
            if (_rank(other) > _rank(card)) == (_rank(card) >= RANKS.index(view["start_rank"]))
        )
        return freed, len(behind), -_rank(card)

    return max(legal, key=priority)


def _danger(contract: str, card: int) -> int:
    """How much holding ``card`` late in a negative contract can cost, roughly."""
    if contract == "barbu":
        return 100 if card == KING_OF_HEARTS else _rank(card) + (20 if _suit(card) == HEARTS else 0)
    if contract == "noqueens":
        return 100 if _rank(card) == QUEEN else _rank(card) + 30 * (_rank(card) > QUEEN)
    if contract == "nohearts":
        return _rank(card) + (40 if _suit(card) == HEARTS else 0)
    return _rank(card)


def _barbu_trumps_card(trick: list[int], legal: list[int], trump: int) -> int:
    if not trick:
        aces = [card for card in legal if _rank(card) == ACE]
        return max(aces) if aces else min(legal, key=lambda card: (_rank(card), card))
    winning = [card for card in legal if trick_winner([*trick, card], trump) == len(trick)]
    return min(winning or legal, key=lambda card: (_rank(card), card))


def _barbu_lead(contract: str, hand: list[int], legal: list[int]) -> int:
    """The lowest card, from a suit where it is least likely to win; never a suit that
    holds one's own penalty card if another will do."""

    def badness(card: int) -> tuple[int, int, int]:
        same = _suit_cards(hand, _suit(card))
        guarded = any(_danger(contract, other) >= 40 for other in same)
        return int(guarded), _rank(card), -len(same)

    return min(legal, key=badness)


def _barbu_trick_card(view: dict[str, Any], legal: list[int]) -> int:
    contract = view["contract"]
    trick = [parse_card(entry["card"]) for entry in view["trick"]]
    if contract == "trumps":
        return _barbu_trumps_card(trick, legal, SUITS.index(view["trump"]))
    hand = [parse_card(card) for card in view["hand"]]
    if not trick:
        return _barbu_lead(contract, hand, legal)
    led = _suit(trick[0])
    if any(_suit(card) == led for card in legal):
        best = trick[trick_winner(trick, None)]
        under = [card for card in legal if card < best]
        if under:
            return max(under)
        # Winning anyway: with the highest card that costs nothing by itself.
        harmless = [card for card in legal if _danger(contract, card) < 40] or legal
        return max(harmless)
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
