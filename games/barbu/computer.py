"""Barbu's computer player (``bot_action``).

It sees exactly what ``view(seat)`` shows. Card play is determinized Monte Carlo: deal
the unseen cards to the other seats consistently with everything their play revealed
(voids, trump ceilings, heart-only leads, Domino passes), try every legal card in each
such world with a random playout, and keep the card with the best average deal score
after doubles. Contract choice and doubling use the same playouts from the deal's start.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from games.barbu.cards import (
    DOMINO_PRIZES,
    HEART_LEAD_CONTRACTS,
    HEARTS,
    KING_OF_HEARTS,
    PASS,
    POSITIVE_CONTRACTS,
    QUEEN,
    RANKS,
    SUITS,
    Card,
    DominoRows,
    card_name,
    domino_lay,
    domino_playable,
    legal_trick_cards,
    next_unfinished,
    parse_card,
    settle,
    trick_ends_deal,
    trick_points,
    trick_winner,
)
from games.barbu.state import BarbuState
from games.barbu.views import BarbuView
from games.base import DEFAULT_LEVEL, N_, IllegalAction, check_level

PLAY_PLAYOUTS = 480
CONTRACT_PLAYOUTS = 220
DOUBLING_PLAYOUTS = 96
MIN_WORLDS = 6
# Hard plays its playouts the way a careful player would (``_sensible_card``), which
# costs more per playout but judges both cards and doubles far better than random play;
# at 160 playouts per card it played no better than normal, at 480 and more it beats it.
HARD_PLAY_PLAYOUTS = 640
HARD_DOUBLING_PLAYOUTS = 200
SENSIBLE_NOISE = 0.1
# Hard doubles only where the playouts expect it to gain at least this much; in Trumps
# declarer's chosen suit plays better than the playouts see, so it asks for more there.
HARD_DOUBLING_MARGIN = {"trumps": 12.0}
HARD_DOUBLING_MARGIN_OTHERWISE = 2.0
# Easy plays like a careful player without looking ahead, and carelessly this often.
EASY_NOISE = 0.35
EASY_CONTRACT_PLAYOUTS = 28
# Random playouts under-rate a player who then plays carefully, so the computer doubles
# when it expects to lose a little less than this to the doubled player.
DOUBLING_CONFIDENCE = 2.0
# Average declarer score per contract when everyone plays at random: a hand is good for a
# contract when it beats this, so declarer spends contracts where his hand helps most.
DECLARER_PAR = {
    "notricks": -6.5,
    "noqueens": -6.0,
    "nolasttwo": -7.5,
    "nohearts": -7.5,
    "barbu": -5.0,
    "trumps": 16.25,
    "domino": 16.25,
}


@dataclass
class _Position:
    """A deal in progress rebuilt from one seat's view, with the unseen cards dealt out."""

    contract: str
    trump: int | None
    start_rank: int | None
    discard_king: bool
    hands: list[list[Card]]
    leader: int
    trick: list[Card]
    tricks_played: int
    points: list[int]
    queens_taken: int
    rows: DominoRows
    turn: int
    finished: list[int]
    ended: bool = False


Policy = Callable[[_Position, int, list[Card], random.Random], Card]


@dataclass(frozen=True)
class Decision:
    """The computer player's action and the averages of the playouts it chose by.

    ``by_action``: for a card, the seat's average deal score (after doubles) with each
    legal card; for a contract, the declarer's average contract score in each. ``leads``:
    in the doubling round, how far the seat is expected to finish ahead of each seat it
    may double (negative: behind)."""

    action: str
    by_action: Mapping[str, float] = field(default_factory=dict)
    leads: Mapping[int, float] = field(default_factory=dict)
    obliged: int | None = None
    """A seat doubled only because the rules oblige it (declarer, while doubles are owed)."""


def _random_card(position: _Position, seat: int, options: list[Card], rng: random.Random) -> Card:
    return options[rng.randrange(len(options))]


def _danger(contract: str, card: Card) -> int:
    """How costly a card is to keep in a negative contract: the one to shed when void."""
    rank = card % 13
    if contract == "barbu":
        return 100 if card == KING_OF_HEARTS else rank + (13 if card // 13 == HEARTS else 0)
    if contract == "noqueens":
        return 100 if rank == QUEEN else rank + (20 if rank > QUEEN else 0)
    if contract == "nohearts":
        return rank + (26 if card // 13 == HEARTS else 0)
    return rank


def _sensible_card(position: _Position, seat: int, options: list[Card], rng: random.Random) -> Card:
    """How a careful player plays, for playouts: in negative contracts lead low, follow
    with the highest card that does not win and shed the most dangerous card when void;
    in Trumps win as cheaply as possible; in Domino open the way for the longest suit.
    One card in ``SENSIBLE_NOISE`` is random, so the playouts still vary."""
    if len(options) == 1:
        return options[0]
    if rng.random() < SENSIBLE_NOISE:
        return options[rng.randrange(len(options))]
    contract = position.contract
    if contract == "domino":
        hand = position.hands[seat]
        return max(options, key=lambda card: (sum(1 for c in hand if c // 13 == card // 13), card))
    trick = position.trick
    if contract == "trumps":
        if not trick:
            return max(options, key=lambda card: (card % 13, card))
        winning = [c for c in options if trick_winner([*trick, c], position.trump) == len(trick)]
        return min(winning or options, key=lambda card: (card % 13, card))
    if not trick:
        return min(options, key=lambda card: (card % 13, card))
    led = trick[0] // 13
    if options[0] // 13 == led:
        best = trick[trick_winner(trick, None)]
        under = [card for card in options if card < best]
        if under:
            return max(under)
        return max(options) if len(trick) == 3 else min(options)
    return max(options, key=lambda card: (_danger(contract, card), card))


def _playout(position: _Position, rng: random.Random, policy: Policy = _random_card) -> list[int]:
    """Raw scores after everyone plays ``policy``'s cards to the end of the deal."""
    if position.contract == "domino":
        return _domino_playout(position, rng, policy)
    return _trick_playout(position, rng, policy)


def _trick_playout(position: _Position, rng: random.Random, policy: Policy) -> list[int]:
    contract, trump, discard_king = position.contract, position.trump, position.discard_king
    hands = position.hands
    leader, trick = position.leader, position.trick
    tricks, points, queens = position.tricks_played, position.points, position.queens_taken
    if position.ended:
        return points
    while True:
        while len(trick) < 4:
            seat = (leader + len(trick)) % 4
            options = legal_trick_cards(hands[seat], trick, contract, trump, discard_king)
            position.leader, position.trick = leader, trick
            card = policy(position, seat, options, rng)
            hands[seat].remove(card)
            trick.append(card)
        winner = (leader + trick_winner(trick, trump)) % 4
        tricks += 1
        points[winner] += trick_points(contract, trick, tricks)
        queens += sum(1 for card in trick if card % 13 == QUEEN)
        if trick_ends_deal(contract, trick, queens, tricks):
            return points
        leader, trick = winner, []


def _domino_playout(position: _Position, rng: random.Random, policy: Policy) -> list[int]:
    hands, rows, finished = position.hands, position.rows, position.finished
    assert position.start_rank is not None
    seat = position.turn
    while len(finished) < 3:
        options = domino_playable(hands[seat], rows, position.start_rank)
        if options:
            card = policy(position, seat, options, rng)
            hands[seat].remove(card)
            domino_lay(rows, card)
            if not hands[seat]:
                finished.append(seat)
                if len(finished) == 3:
                    break
        seat = next_unfinished(seat, finished)
    finished.append(next(other for other in range(4) if other not in finished))
    raw = [0, 0, 0, 0]
    for place, finisher in enumerate(finished):
        raw[finisher] = DOMINO_PRIZES[place]
    return raw


def _apply_to_position(position: _Position, seat: int, card: Card | None) -> _Position:
    """A copy of ``position`` after ``seat`` plays ``card`` (None: a Domino pass)."""
    copy = _Position(
        position.contract,
        position.trump,
        position.start_rank,
        position.discard_king,
        [list(hand) for hand in position.hands],
        position.leader,
        list(position.trick),
        position.tricks_played,
        list(position.points),
        position.queens_taken,
        list(position.rows),
        position.turn,
        list(position.finished),
    )
    if card is None:
        copy.turn = next_unfinished(seat, copy.finished)
        return copy
    copy.hands[seat].remove(card)
    if copy.contract == "domino":
        domino_lay(copy.rows, card)
        if not copy.hands[seat]:
            copy.finished.append(seat)
        copy.turn = next_unfinished(seat, copy.finished)
        return copy
    copy.trick.append(card)
    if len(copy.trick) == 4:
        winner = (copy.leader + trick_winner(copy.trick, copy.trump)) % 4
        copy.tricks_played += 1
        copy.points[winner] += trick_points(copy.contract, copy.trick, copy.tricks_played)
        copy.queens_taken += sum(1 for c in copy.trick if c % 13 == QUEEN)
        copy.ended = trick_ends_deal(
            copy.contract, copy.trick, copy.queens_taken, copy.tricks_played
        )
        copy.leader, copy.trick = winner, []
    return copy


def _own_hand(view: BarbuView) -> list[Card]:
    """The cards of the seat whose view this is (a public view has none)."""
    return [parse_card(card) for card in view["hand"] or []]


def _unseen_constraints(view: BarbuView) -> tuple[list[Card], list[set[Card]]]:
    """Cards this seat has not seen, and per seat the cards its play shows it cannot hold."""
    seen = set(_own_hand(view))
    excluded: list[set[Card]] = [set(), set(), set(), set()]
    contract = view["contract"]
    if contract == "domino":
        _domino_constraints(view, seen, excluded)
    elif contract is not None:
        trump = SUITS.index(view["trump"]) if view["trump"] else None
        tricks = [(t["leader"], [parse_card(c) for c in t["cards"]]) for t in view["tricks"]]
        if view["trick"]:
            current = [parse_card(entry["card"]) for entry in view["trick"]]
            tricks.append((view["trick"][0]["seat"], current))
        for leader, cards in tricks:
            _trick_constraints(contract, trump, view["discard_king"], leader, cards, excluded)
            seen.update(cards)
    unseen = [card for card in range(52) if card not in seen]
    return unseen, excluded


def _suit_cards(suit: int) -> set[Card]:
    return set(range(suit * 13, suit * 13 + 13))


def _trick_constraints(
    contract: str,
    trump: int | None,
    discard_king: bool,
    leader: int,
    cards: list[Card],
    excluded: list[set[Card]],
) -> None:
    led_suit = cards[0] // 13
    if contract in HEART_LEAD_CONTRACTS and led_suit == HEARTS:
        excluded[leader].update(card for card in range(52) if card // 13 != HEARTS)
    for index in range(1, len(cards)):
        seat, card, before = (leader + index) % 4, cards[index], cards[:index]
        best_trump = max((c for c in before if c // 13 == trump), default=-1)
        if card // 13 != led_suit:
            excluded[seat] |= _suit_cards(led_suit)
            if discard_king and contract == "barbu" and card != KING_OF_HEARTS:
                excluded[seat].add(KING_OF_HEARTS)
            winning_trump = card // 13 == trump and card > best_trump
            if contract == "trumps" and trump is not None and not winning_trump:
                excluded[seat].update(c for c in _suit_cards(trump) if c > best_trump)
        elif contract == "trumps" and led_suit == trump and card < best_trump:
            excluded[seat].update(c for c in _suit_cards(trump) if c > best_trump)


def _domino_constraints(view: BarbuView, seen: set[Card], excluded: list[set[Card]]) -> None:
    if view["domino"] is None or view["start_rank"] is None:
        return
    start_rank = RANKS.index(view["start_rank"])
    rows: DominoRows = [None, None, None, None]
    everything = list(range(52))
    for move in view["domino"]["moves"]:
        if move["card"] == PASS:
            excluded[move["seat"]].update(domino_playable(everything, rows, start_rank))
        else:
            card = parse_card(move["card"])
            domino_lay(rows, card)
            seen.add(card)


def _sample_hands(
    seat: int,
    view: BarbuView,
    unseen: list[Card],
    excluded: list[set[Card]],
    rng: random.Random,
) -> list[list[Card]]:
    """One deal of the unseen cards to the other seats that fits what their play showed."""
    sizes = list(view["hand_sizes"])
    own = _own_hand(view)
    others = [other for other in range(4) if other != seat]
    for _ in range(12):
        hands = _try_sample(seat, own, others, sizes, unseen, excluded, rng)
        if hands is not None:
            return hands
    pool = list(unseen)
    rng.shuffle(pool)
    hands = [[], [], [], []]
    hands[seat] = own
    for other in others:
        hands[other], pool = pool[: sizes[other]], pool[sizes[other] :]
    return hands


def _try_sample(
    seat: int,
    own: list[Card],
    others: list[int],
    sizes: list[int],
    unseen: list[Card],
    excluded: list[set[Card]],
    rng: random.Random,
) -> list[list[Card]] | None:
    holders = {card: [o for o in others if card not in excluded[o]] for card in unseen}
    pool = list(unseen)
    rng.shuffle(pool)
    pool.sort(key=lambda card: len(holders[card]))
    room = {other: sizes[other] for other in others}
    hands: list[list[Card]] = [[], [], [], []]
    hands[seat] = list(own)
    for card in pool:
        candidates = [other for other in holders[card] if room[other] > 0]
        if not candidates:
            return None
        chosen = rng.choices(candidates, weights=[room[other] for other in candidates])[0]
        hands[chosen].append(card)
        room[chosen] -= 1
    return hands


def _position_from_view(view: BarbuView, hands: list[list[Card]], seat: int) -> _Position:
    """The deal as ``seat`` sees it while it is his turn to play, with ``hands`` dealt."""
    contract = view["contract"]
    assert contract is not None
    trick = [parse_card(entry["card"]) for entry in view["trick"]]
    leader = view["trick"][0]["seat"] if view["trick"] else view["leader"]
    rows: DominoRows = [None, None, None, None]
    finished: list[int] = []
    if view["domino"] is not None:
        for suit, row in enumerate(view["domino"]["rows"].values()):
            rows[suit] = (RANKS.index(row[0]), RANKS.index(row[1])) if row else None
        finished = list(view["domino"]["finished"])
    queens = sum(1 for pile in view["penalty_cards"] for card in pile if card[0] == "Q")
    return _Position(
        contract=contract,
        trump=SUITS.index(view["trump"]) if view["trump"] else None,
        start_rank=RANKS.index(view["start_rank"]) if view["start_rank"] else None,
        discard_king=view["discard_king"],
        hands=hands,
        leader=leader if leader is not None else view["declarer"],
        trick=trick,
        tricks_played=len(view["tricks"]),
        points=list(view["deal_points"]),
        queens_taken=queens if contract == "noqueens" else 0,
        rows=rows,
        turn=seat,
        finished=finished,
    )


def _choose_card(view: BarbuView, seat: int, rng: random.Random, level: str) -> Decision:
    legal = view["legal"]
    moves = [None if action == PASS else parse_card(action) for action in legal]
    unseen, excluded = _unseen_constraints(view)
    if level == "easy":
        hands = _sample_hands(seat, view, unseen, excluded, rng)
        position = _position_from_view(view, hands, seat)
        cards = [move for move in moves if move is not None]
        card = cards[rng.randrange(len(cards))] if rng.random() < EASY_NOISE else None
        chosen = card if card is not None else _sensible_card(position, seat, cards, rng)
        return Decision(card_name(chosen))
    hard = level == "hard"
    policy: Policy = _sensible_card if hard else _random_card
    doubles = [(doubler, doubled) for doubler, doubled in view["doubles"]]
    worlds = max(MIN_WORLDS, (HARD_PLAY_PLAYOUTS if hard else PLAY_PLAYOUTS) // len(moves))
    totals = [0.0] * len(moves)
    for _ in range(worlds):
        hands = _sample_hands(seat, view, unseen, excluded, rng)
        position = _position_from_view(view, hands, seat)
        for index, move in enumerate(moves):
            after = _apply_to_position(position, seat, move)
            totals[index] += settle(_playout(after, rng, policy), doubles)[seat]
    best = max(range(len(moves)), key=lambda index: totals[index])
    averages = {action: total / worlds for action, total in zip(legal, totals, strict=True)}
    return Decision(legal[best], by_action=averages)


def _fresh_position(view: BarbuView, hands: list[list[Card]], action: str) -> _Position:
    name, _, detail = action.partition(":")
    return _Position(
        contract=name,
        trump=SUITS.index(detail) if name == "trumps" else None,
        start_rank=RANKS.index(detail) if name == "domino" else None,
        discard_king=view["discard_king"],
        hands=hands,
        leader=view["declarer"],
        trick=[],
        tricks_played=0,
        points=[0, 0, 0, 0],
        queens_taken=0,
        rows=[None, None, None, None],
        turn=view["declarer"],
        finished=[],
    )


def _choose_contract(view: BarbuView, seat: int, rng: random.Random, level: str) -> Decision:
    """The contract (with suit or rank) where this hand beats the declarer's par most."""
    legal = view["legal"]
    unseen, excluded = _unseen_constraints(view)
    budget = EASY_CONTRACT_PLAYOUTS if level == "easy" else CONTRACT_PLAYOUTS
    playouts = max(1 if level == "easy" else MIN_WORLDS, budget // len(legal))
    totals = dict.fromkeys(legal, 0.0)
    for _ in range(playouts):
        hands = _sample_hands(seat, view, unseen, excluded, rng)
        for action in legal:
            position = _fresh_position(view, [list(hand) for hand in hands], action)
            totals[action] += _playout(position, rng)[seat]

    def advantage(action: str) -> float:
        return totals[action] / playouts - contract_par(action)

    averages = {action: total / playouts for action, total in totals.items()}
    return Decision(max(legal, key=advantage), by_action=averages)


def contract_par(action: str) -> float:
    """What a declarer scores in the contract of ``action`` on average (``DECLARER_PAR``)."""
    return DECLARER_PAR[action.partition(":")[0]]


def _choose_doubles(view: BarbuView, seat: int, rng: random.Random, level: str) -> Decision:
    """Doubles where the deal's expected outcome favours this seat over the target.

    The deal is played out from its start in many determinizations; normal plays them
    at random and allows for that (``DOUBLING_CONFIDENCE``), hard plays them carefully
    and doubles only an expected gain of ``HARD_DOUBLING_MARGIN`` (any gain for a
    double of declarer it still owes); easy doubles only when the rules oblige it to."""
    choice, contract = view["doubling"], view["contract_action"]
    assert choice is not None and contract is not None and view["contract"] is not None
    chosen: list[int] = []
    leads: dict[int, float] = {}
    if level != "easy":
        hard = level == "hard"
        playouts = HARD_DOUBLING_PLAYOUTS if hard else DOUBLING_PLAYOUTS
        policy: Policy = _sensible_card if hard else _random_card
        threshold = (
            HARD_DOUBLING_MARGIN.get(view["contract"], HARD_DOUBLING_MARGIN_OTHERWISE)
            if hard
            else -DOUBLING_CONFIDENCE
        )
        unseen, excluded = _unseen_constraints(view)
        expected = [0.0, 0.0, 0.0, 0.0]
        for _ in range(playouts):
            hands = _sample_hands(seat, view, unseen, excluded, rng)
            raw = _playout(_fresh_position(view, hands, contract), rng, policy)
            expected = [total + score for total, score in zip(expected, raw, strict=True)]
        owed = hard and choice["needed"] > 0 and view["contract"] not in POSITIVE_CONTRACTS

        def bar(target: int) -> float:
            # a double of declarer still owed is spent anyway: better on a negative
            # contract that does not lose than forced later, perhaps in Trumps
            return min(threshold, 0.0) if owed and target == view["declarer"] else threshold

        leads = {
            target: (expected[seat] - expected[target]) / playouts for target in choice["targets"]
        }
        chosen = [target for target in choice["targets"] if leads[target] > bar(target)]
    obliged = None
    if choice["required"] is not None and choice["required"] not in chosen:
        obliged = choice["required"]
        chosen.append(obliged)
    chosen.sort()
    action = f"double:{','.join(map(str, chosen))}" if chosen else PASS
    return Decision(action, leads=leads, obliged=obliged)


def decide(view: BarbuView, seed: int = 0, level: str = DEFAULT_LEVEL) -> Decision:
    """The computer player's choice for the seat whose ``view`` this is, with the averages
    of its playouts (none at a single legal action, or where easy plays without them).

    Budgets are counts of playouts, never time, so a decision depends only on the view,
    the seed and the level."""
    check_level(level)
    seat = view["seat"]
    legal = view["legal"]
    if seat is None or not legal:
        raise IllegalAction(N_("The game is over."))
    if len(legal) == 1:
        return Decision(legal[0])
    rng = random.Random(seed)
    if view["phase"] == "contract":
        return _choose_contract(view, seat, rng, level)
    if view["phase"] == "doubling":
        return _choose_doubles(view, seat, rng, level)
    return _choose_card(view, seat, rng, level)


def bot_action(state: BarbuState, seed: int = 0, level: str = DEFAULT_LEVEL) -> str:
    """The computer player's action for ``state.current_player``, from its view only."""
    check_level(level)
    seat = state.current_player
    if seat is None:
        raise IllegalAction(N_("The game is over."))
    return decide(state.view(seat), seed, level).action
