"""Barree's hard player plans routes through its cards: the routes are the shortest ones,
the blockade costs a wait, and its walks and sendings follow from them."""

from __future__ import annotations

import itertools
import random

import pytest

from games.barree import FIELDS, PHASE_DRIVE, PHASE_MOVE, BarreeState, bot_action, distances
from games.barree.plan import BLOCKADE_WAIT, Routes, exposure, routes
from games.base import Rng


def position(
    *, pieces: list[int], cards: list[list[int]], die: int | None, blockade: int = 1
) -> BarreeState:
    placed = {card for hand in cards for card in hand}
    return BarreeState(
        players=len(pieces),
        rounds=1,
        rng=Rng(0),
        round_no=1,
        phase=PHASE_MOVE if die else PHASE_DRIVE,
        die=die,
        blockade=blockade,
        pieces=pieces,
        cards=cards,
        hidden=[[] for _ in pieces],
        revealed=True,
        draw_pile=[field for field in FIELDS if field not in placed],
    )


def brute_force_route(start: int, cards: list[int], blockade: int) -> float:
    def cost(a: int, b: int) -> float:
        near = distances(a, blockade).get(b)
        return float(near) if near is not None else distances(a, 0)[b] + BLOCKADE_WAIT

    return min(
        sum(cost(a, b) for a, b in itertools.pairwise([start, *order]))
        for order in itertools.permutations(cards)
    )


@pytest.mark.parametrize("seed", range(8))
def test_routes_are_the_shortest_through_every_subset_of_the_hand(seed: int) -> None:
    chooser = random.Random(seed)
    blockade = chooser.randint(1, 8)
    hand = tuple(sorted(chooser.sample(FIELDS, 6)))
    routes = Routes(hand, blockade)
    for _ in range(5):
        start = chooser.choice(FIELDS)
        subset = frozenset(chooser.sample(hand, chooser.randint(1, 6)))
        expected = brute_force_route(start, sorted(subset), blockade)
        assert routes.length(start, routes.mask(subset)) == pytest.approx(expected)


def test_a_card_beyond_the_blockade_costs_the_wait_for_a_bar() -> None:
    open_board = Routes((61,), 8)
    blocked = Routes((61,), 4)
    assert open_board.length(21, 1) == 4
    assert blocked.length(21, 1) == 4 + BLOCKADE_WAIT


def test_hard_sends_a_rival_far_from_its_cards_with_its_own_farthest_card() -> None:
    # Seat 0 stands on 34 with seat 1 beside its last cards (33, 35); it holds 81 (far
    # from itself and from seat 1's cards) and 44 (next to itself).
    state = position(pieces=[34, 34], cards=[[44, 81], [33, 35]], die=None, blockade=6)
    assert bot_action(state, seed=1, level="hard") == "send:1:81"


def test_an_end_a_rival_can_walk_onto_is_exposed_to_his_sending() -> None:
    # Seat 0 (cards 14 and 54) weighs ending on 44, four steps from seat 1 on 84, or on
    # 24, out of every rival's reach; seat 1 would send it to 81 or 82, far from its cards.
    state = position(pieces=[34, 84, 86], cards=[[14, 54], [81, 82], [16]], die=1, blockade=1)
    mine = routes((14, 54), 1)
    left = frozenset({14, 54})
    assert exposure(state, 24, left, {}, mine) == 0
    assert exposure(state, 44, left, {}, mine) > 0


def test_a_rival_trapped_in_the_blockaded_row_exposes_nothing() -> None:
    state = position(pieces=[34, 74, 86], cards=[[14, 54], [81, 82], [16]], die=1, blockade=7)
    assert exposure(state, 44, frozenset({14, 54}), {}, routes((14, 54), 7)) == 0
