"""The dice luck of /league profile, counted on known logs."""

from __future__ import annotations

import random
from collections import Counter

from games import GAMES
from games.luck import DiceLuck, luck_in_game
from games.proof import GameFacts, Step, walk


def random_game(kind: str, players: int, seed: int) -> tuple[GameFacts, list]:
    chooser = random.Random(seed)
    facts = GameFacts(kind, 1, 1, 1, seed, {}, [f"P{n}" for n in range(players)])
    state = GAMES[kind].new_game(players=players, seed=seed)
    actions = []
    while not state.is_over:
        action = chooser.choice(state.legal_actions())
        actions.append((state.current_player, action))
        state = state.apply(action)
    return facts, actions


def test_gulbara_rolls_faces_and_doubles_match_the_dice_the_board_showed():
    facts, actions = random_game("gulbara", 2, 11)
    turn_rolls: dict[int, list[list[int]]] = {0: [], 1: []}
    for step in walk(facts, actions):
        if isinstance(step, Step) and step.after.played == [] and step.after.turn is not None:
            rolled_now = step.after.rolls[step.after.turn] != step.before.rolls[step.after.turn]
            if rolled_now and len(step.chance) == 1:
                turn_rolls[step.after.turn].append(sorted(step.after.roll))
    for seat in (0, 1):
        luck = luck_in_game(facts, actions, seat)
        seen = turn_rolls[seat]
        assert seen, "the game had turns for both seats"
        # Opening throws (one die each) and turns that passed for want of a move
        # are counted too, so the board's turn rolls are a part of the tally.
        assert luck.pair_rolls >= len(seen)
        assert luck.doubles >= sum(roll[0] == roll[1] for roll in seen)
        board_faces = Counter(face for roll in seen for face in roll)
        assert all(luck.faces[face] >= count for face, count in board_faces.items())


def test_the_tally_of_a_known_log():
    luck = DiceLuck(games=1)
    for throw in ([6, 6], [3, 1], [2, 2], [5, 4], [1, 6], [4, 4]):
        luck.add_throw(throw, 1)
    luck.add_throw([3], 1)
    assert luck.rolls == 7 and luck.dice == 13 and luck.pair_rolls == 6
    assert luck.faces == {1: 2, 2: 2, 3: 2, 4: 3, 5: 1, 6: 3}
    assert luck.doubles == 3 and luck.expected_doubles == 1.0
    assert round(luck.expected_per_face, 3) == round(13 / 6, 3)
    assert round(luck.average or 0, 3) == round(47 / 13, 3)


def test_barree_counts_single_dice_with_the_bar_face_and_no_doubles():
    facts, actions = random_game("barree", 2, 5)
    rolls = [
        event["die"]
        for step in walk(facts, actions)
        if isinstance(step, Step) and step.action == "roll"
        for event in step.after.events
        if event["type"] == "roll" and event["seat"] == 0
    ]
    luck = luck_in_game(facts, actions, 0)
    assert sorted(luck.faces) == [0, 1, 2, 3, 4, 5]
    assert luck.pair_rolls == 0 and luck.doubles == 0
    assert luck.rolls >= len(rolls) >= 1, "turn rolls plus the starting roll"
    assert all(luck.faces[face] >= count for face, count in Counter(rolls).items())


def test_merging_adds_games_and_throws():
    first, second = DiceLuck(games=1), DiceLuck(games=1)
    first.add_throw([1, 1], 1)
    second.add_throw([2, 3], 1)
    first.merge(second)
    assert (first.games, first.rolls, first.doubles, first.faces[1]) == (2, 2, 1, 2)
