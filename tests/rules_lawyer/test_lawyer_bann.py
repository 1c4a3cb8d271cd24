"""Bann engine against the rule book re-implementation (docs/rules/bann.md)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from rules_lawyer import book_bann as book

from games import GAMES, IllegalAction
from games.bann import from_code

TURN_WORDS = {"offer", "accept", "decline"}


def engine_turns(state) -> set[str]:
    return {action for action in state.legal_actions() if action not in TURN_WORDS}


def check_same(state, position: book.Position) -> None:
    assert state.is_over == position.over, position.code()
    if position.over:
        expected = [0.0, 0.0] if position.drawn else [1.0, -1.0][:: 1 - 2 * position.winner]
        assert state.returns() == expected, position.code()
        return
    assert state.code() == position.code()
    assert state.current_player == position.to_move
    assert engine_turns(state) == set(position.legal_turns()), position.code()


def play_random_game(seed: int) -> None:
    chooser = random.Random(seed)
    state = GAMES["bann"].new_game(players=2, seed=seed)
    opening = state.view(None)["opening_roll"]
    assert opening[0] != opening[1]
    position = book.start(first=0 if opening[0] > opening[1] else 1)
    check_same(state, position)
    while not position.over:
        if chooser.random() < 0.02 and "offer" in state.legal_actions():
            state = state.apply("offer")
            if chooser.random() < 0.3:
                state = state.apply("accept")
                position.drawn = True
            else:
                state = state.apply("decline")
            check_same(state, position)
            continue
        turns = position.legal_turns()
        # Shuffling in a few hopeless tries keeps the refusals honest too.
        wrong = f"{position.tops[position.to_move]}>1:N"
        try:
            state.apply(wrong)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"tipping onto the same top was accepted in {position.code()}")
        turn = chooser.choice(turns)
        state = state.apply(turn)
        position.play(turn)
        check_same(state, position)


def test_random_games_follow_the_rule_book() -> None:
    for seed in range(30):
        play_random_game(seed)


def test_shuffling_knights_repeats_into_a_draw() -> None:
    """Random play in a corner of the game tree where only two knights can move, so
    positions repeat and the third occurrence must draw."""
    code = "BN1:.....a/....../....../....../....../1.....|3,3|0"
    for seed in range(30):
        chooser = random.Random(seed)
        state, position = from_code(code), book.from_code(code)
        check_same(state, position)
        for _ in range(200):
            if position.over:
                break
            turn = chooser.choice(position.legal_turns())
            state = state.apply(turn)
            position.play(turn)
            check_same(state, position)


def test_the_third_occurrence_of_a_position_is_a_draw() -> None:
    code = "BN1:....../....a./....../....../.1..../......|3,3|0"
    cycle = ["2>1:N", "2>1:S", "3>1:S", "3>1:N"]
    state, position = from_code(code), book.from_code(code)
    for turn in cycle * 2:
        assert not state.is_over
        state = state.apply(turn)
        position.play(turn)
        check_same(state, position)
    assert state.is_over and state.returns() == [0.0, 0.0]


SQUARES = [f"{c}{r}" for c in book.FILES for r in range(1, 7)]


@st.composite
def codes(draw) -> str:
    squares = draw(st.permutations(SQUARES))
    knights: dict[str, tuple[int, int]] = {}
    index = 0
    for seat in (0, 1):
        numbers = draw(st.sets(st.integers(1, 6), min_size=1, max_size=6))
        for number in sorted(numbers):
            while squares[index] == book.OWN_CORNER[1 - seat]:
                index += 1
            knights[squares[index]] = (seat, number)
            index += 1
    tops = [draw(st.integers(1, 6)), draw(st.integers(1, 6))]
    position = book.Position(knights=knights, tops=tops, to_move=draw(st.integers(0, 1)))
    return position.code()


@settings(max_examples=300, deadline=None)
@given(codes())
def test_any_position_has_the_rule_book_moves(code: str) -> None:
    state = from_code(code)
    position = book.from_code(code)
    if not position.legal_turns():
        assert state.is_over and state.returns()[position.to_move] == -1.0
    else:
        check_same(state, position)


EVERY_TURN = [f"{t}>{k}:{d}" for t in range(1, 7) for k in range(1, 7) for d in "NESW"]


@settings(max_examples=60, deadline=None)
@given(codes())
def test_every_turn_outside_the_rule_book_is_refused(code: str) -> None:
    state = from_code(code)
    if state.is_over:
        return
    legal = set(book.from_code(code).legal_turns())
    for turn in EVERY_TURN:
        try:
            state.apply(turn)
        except IllegalAction:
            assert turn not in legal, (code, turn)
        else:
            assert turn in legal, (code, turn)
