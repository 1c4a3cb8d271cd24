"""Gul Bara property tests: random legal play against an independent brute force.

The brute force below re-implements the movement rules of docs/rules/gulbara.md naively (every
single step, every sequence of steps, whole-board prime check) without the engine's
search, and checks that each turn the engine let a random player make was a play of
maximal length, stage by stage, with the higher-die rule and the escalation chain.
"""

from __future__ import annotations

import itertools
import json
import random
from functools import lru_cache

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from games.gulbara import GulbaraState, from_code, from_dict, new_game

Board = tuple[int, ...]


def board_index(seat: int, point: int) -> int:
    """Index into the seat-0 board of ``seat``'s own point ((p + 11) mod 24 + 1)."""
    return (point if seat == 0 else (point + 11) % 24 + 1) - 1


def own_points(board: Board, seat: int) -> dict[int, int]:
    sign = 1 if seat == 0 else -1
    counts = {}
    for point in range(1, 25):
        value = board[board_index(seat, point)] * sign
        if value > 0:
            counts[point] = value
    return counts


def illegal_prime(board: Board, off: tuple[int, int], seat: int) -> bool:
    """``seat`` holds six consecutive points of the opponent's path with no opponent
    checker past them."""
    other = 1 - seat
    held = set()
    for point in range(1, 25):
        if board[board_index(other, point)] * (1 if seat == 0 else -1) > 0:
            held.add(point)
    theirs = own_points(board, other)
    for low in range(1, 20):
        blocked = all(point in held for point in range(low, low + 6))
        if blocked and not off[other] and not any(point < low for point in theirs):
            return True
    return False


def single_steps(
    board: Board, off: tuple[int, int], seat: int, die: int
) -> list[tuple[int, Board, tuple[int, int]]]:
    mine = own_points(board, seat)
    theirs = own_points(board, 1 - seat)
    opponent_points = {
        point
        for point in range(1, 25)
        if board_index(seat, point) in {board_index(1 - seat, their) for their in theirs}
    }
    reached_quarter = off[seat] > 0 or any(point <= 12 for point in mine)
    movable = list(mine)
    if not reached_quarter:
        movable = [point for point in mine if point != 24] or [24]
    sign = 1 if seat == 0 else -1
    results = []
    for point in movable:
        target = point - die
        new_board = list(board)
        new_off = list(off)
        new_board[board_index(seat, point)] -= sign
        if target >= 1:
            if target in opponent_points:
                continue
            new_board[board_index(seat, target)] += sign
            if illegal_prime(tuple(new_board), off, seat):
                continue
        else:
            if any(other > 6 for other in mine):
                continue
            if target < 0 and any(other > point for other in mine):
                continue
            new_off[seat] += 1
        results.append((point, tuple(new_board), (new_off[0], new_off[1])))
    return results


@lru_cache(maxsize=200_000)
def longest(board: Board, off: tuple[int, int], seat: int, dice: tuple[int, ...]) -> int:
    if off[seat] == 15:
        return 0
    best = 0
    for index, die in enumerate(dice):
        rest = dice[:index] + dice[index + 1 :]
        for _point, new_board, new_off in single_steps(board, off, seat, die):
            best = max(best, 1 + longest(new_board, new_off, seat, rest))
    return best


def parse(step: str) -> tuple[int, int]:
    source, target = step.split("/")
    return int(source), 0 if target == "off" else int(target)


def check_turn(
    board: Board,
    off: tuple[int, int],
    seat: int,
    roll: list[int],
    escalates: bool,
    steps: list[str],
) -> None:
    """Assert ``steps`` is a legal maximal play of ``roll`` from the given position."""
    first, second = roll
    dice = (first,) * 4 if first == second else (first, second)
    double = first if first == second else None
    position = 0
    while True:
        best = longest(board, off, seat, dice)
        remaining = list(dice)
        played = 0
        while played < best and position < len(steps):
            source, target = parse(steps[position])
            options = []
            for die in set(remaining):
                for point, new_board, new_off in single_steps(board, off, seat, die):
                    landed = 0 if new_off[seat] > off[seat] else source - die
                    if point == source and landed == target:
                        rest = list(remaining)
                        rest.remove(die)
                        value = longest(new_board, new_off, seat, tuple(rest))
                        options.append((value, die, new_board, new_off))
            assert options, f"{steps[position]} is not a single legal step: {steps}"
            _value, die, new_board, new_off = max(options)
            if best == 1 and len(dice) == 2 and first != second and die != max(dice):
                assert not single_steps(board, off, seat, max(dice)), "higher-die rule broken"
            board, off = new_board, new_off
            remaining.remove(die)
            played += 1
            position += 1
        assert played == best, f"stage {dice} played {played} of a possible {best}: {steps}"
        if off[seat] == 15:
            break
        if double is not None and escalates and not remaining and double < 6:
            double += 1
            dice = (double,) * 4
            continue
        break
    assert position == len(steps), f"more steps than the rules allow: {steps}"


def conserved(state: GulbaraState) -> bool:
    white = sum(value for value in state.board if value > 0) + state.off[0]
    black = -sum(value for value in state.board if value < 0) + state.off[1]
    return white == 15 and black == 15


def random_game(seed: int, undo_rate: float) -> tuple[list[GulbaraState], list[str]]:
    chooser = random.Random(seed)
    state = new_game(seed=seed)
    states, actions = [state], []
    while not state.is_over:
        actions_now = state.legal_actions()
        assert actions_now, "the seat to move always has something to do"
        if state.can_undo and chooser.random() < undo_rate:
            action = "undo"
        else:
            action = chooser.choice(state.legal_steps())
        state = state.apply(action)
        states.append(state)
        actions.append(action)
        assert len(actions) < 5000, "a game must end"
    return states, actions


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_random_play_ends_conserves_checkers_and_replays(seed: int) -> None:
    states, actions = random_game(seed, undo_rate=0.15)
    assert all(conserved(state) for state in states)
    final = states[-1]
    assert final.is_over and final.current_player is None
    assert sorted(final.returns()) in ([0.0, 1.0], [0.0, 2.0])
    replay = new_game(seed=seed)
    for action in actions:
        replay = replay.apply(action)
    assert replay.to_dict() == final.to_dict()
    middle = states[len(states) // 2]
    assert from_dict(json.loads(json.dumps(middle.to_dict()))).to_dict() == middle.to_dict()


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_every_turn_is_a_maximal_play_by_brute_force(seed: int) -> None:
    states, _actions = random_game(seed, undo_rate=0.1)
    for before, after in itertools.pairwise(states):
        if after.is_over or before.turn != after.turn or after.start != before.start:
            ended = [turn for turn in after.recent if not turn["passed"]][-1]
            seat = ended["seat"]
            start = before.start
            check_turn(
                tuple(start["board"]),
                tuple(start["off"]),
                seat,
                ended["roll"],
                before.rolls[seat] >= 4,
                ended["steps"],
            )
            passes = []
            for turn in reversed(after.recent):
                if not turn["passed"]:
                    break
                passes.append(turn)
            for turn in passes:
                first, second = turn["roll"]
                dice = (first,) * 4 if first == second else (first, second)
                board, off = tuple(after.board), tuple(after.off)
                assert longest(board, off, turn["seat"], dice) == 0, "a pass with a legal step"


def random_position(chooser: random.Random) -> tuple[Board, tuple[int, int], int, tuple[int, ...]]:
    """Checkers scattered at random (sometimes all of the mover's at home), a random roll."""
    seat = chooser.randrange(2)
    board = [0] * 24
    off = [0, 0]
    for side in (seat, 1 - seat):
        sign = 1 if side == 0 else -1
        home_only = side == seat and chooser.random() < 0.3
        candidates = [
            point
            for point in range(1, 25)
            if (not home_only or point <= 6) and board[board_index(side, point)] == 0
        ]
        chooser.shuffle(candidates)
        points = candidates[: chooser.randint(1, 12 if side == seat else 6)]
        off[side] = chooser.randint(0, 10) if home_only else 0
        for _ in range(15 - off[side]):
            board[board_index(side, chooser.choice(points))] += sign
    first, second = chooser.randint(1, 6), chooser.randint(1, 6)
    dice = (first,) * 4 if first == second else (first, second)
    return tuple(board), (off[0], off[1]), seat, dice


def brute_force_first_steps(
    board: Board, off: tuple[int, int], seat: int, dice: tuple[int, ...]
) -> set[str]:
    best = longest(board, off, seat, dice)
    steps: dict[str, int] = {}
    for die in set(dice):
        rest = list(dice)
        rest.remove(die)
        for point, new_board, new_off in single_steps(board, off, seat, die):
            if 1 + longest(new_board, new_off, seat, tuple(rest)) == best:
                target = point - die
                steps.setdefault(f"{point}/{target if target > 0 else 'off'}", die)
    if best == 1 and len(dice) == 2 and dice[0] != dice[1]:
        higher = {step for step, die in steps.items() if die == max(dice)}
        return higher or set(steps)
    return set(steps)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_legal_steps_match_brute_force_on_random_positions(seed: int) -> None:
    board, off, seat, dice = random_position(random.Random(seed))
    assume(not illegal_prime(board, off, 0) and not illegal_prime(board, off, 1))
    points = ",".join(str(value) if value else "" for value in board)
    dice_text = ",".join(str(die) for die in dice)
    state = from_code(f"GB1:{points}|{off[0]},{off[1]}|{seat}|{dice_text}|0,0")
    expected = brute_force_first_steps(board, off, seat, dice)
    if expected:
        assert state.current_player == seat
        assert set(state.legal_steps()) == expected
    else:
        assert state.recent[0]["seat"] == seat and state.recent[0]["passed"]
