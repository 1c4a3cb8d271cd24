"""Barree engine against the rule book re-implementation (docs/rules/barree.md).

The test keeps its own model of each round and takes from the engine only what chance
decides (die rolls, drawn cards, the deal); walks, discards, sending, the blockade,
revealing, the end of the round and the minus points must all agree.
"""

from __future__ import annotations

import random

from rules_lawyer import book_barree as book

from games import GAMES, IllegalAction


def check_setup(data: dict) -> book.Round:
    players = data["players"]
    held = [set(data["cards"][s]) | set(data["hidden"][s]) for s in range(players)]
    assert all(len(data["cards"][s]) == 7 and len(data["hidden"][s]) == 2 for s in range(players))
    everything = [c for hand in held for c in hand] + data["draw_pile"] + data["discard_pile"]
    assert sorted(everything) == book.FIELDS, "the 48 cards, each once"
    setup = next(e for e in data["events"] if e["type"] == "setup")
    assert book.row(setup["blockade_card"]) == data["blockade"]
    starter = data["starter"]
    drawn = [data["pieces"][(starter + i) % players] for i in range(players)]
    assert data["discard_pile"] == [*drawn, setup["blockade_card"]], (
        "from the starter round the table each piece goes to a drawn card, then the "
        "starter draws the blockade"
    )
    rolls = data["start_rolls"]
    for earlier in rolls[:-1]:
        best = max(r for r in earlier if r is not None)
        assert [r for r in earlier if r is not None].count(best) > 1, "only ties re-roll"
    last = rolls[-1]
    best = max(r for r in last if r is not None)
    assert [r for r in last if r is not None].count(best) == 1
    assert last.index(best) == data["starter"] == data["current"]
    return book.Round(
        players=players,
        starter=data["starter"],
        pieces=list(data["pieces"]),
        face_up=[set(hand) for hand in data["cards"]],
        hidden=[set(hand) for hand in data["hidden"]],
        original=[frozenset(hand) for hand in data["cards"]],
        blockade=data["blockade"],
        current=data["starter"],
    )


def check_table(data: dict, table: book.Round) -> None:
    held = [c for s in range(table.players) for c in data["cards"][s] + data["hidden"][s]]
    assert sorted(held + data["draw_pile"] + data["discard_pile"]) == book.FIELDS
    assert data["pieces"] == table.pieces
    assert data["blockade"] == table.blockade
    assert data["revealed"] == table.revealed
    for seat in range(table.players):
        assert set(data["cards"][seat]) | set(data["hidden"][seat]) == table.held(seat), seat
    assert data["finisher"] == table.finisher
    if not table.ended:
        assert data["current"] == table.current


def rolled(state) -> int:
    return next(e["die"] for e in state.events if e["type"] == "roll")


def bar_roll(before: dict, after: dict, table: book.Round) -> None:
    card = next(e["card"] for e in after["events"] if e["type"] == "bar")
    reshuffled = not before["draw_pile"]
    assert card in (before["discard_pile"] if reshuffled else before["draw_pile"])
    table.blockade = book.row(card)
    if not any(e["type"] == "round_over" for e in after["events"]):
        assert after["blockade"] == table.blockade
        assert after["discard_pile"][-1] == card


def move(state, table: book.Round, die: int, chooser: random.Random):
    outcomes = table.outcomes(die)
    every_walk = book.walks(table.pieces[table.current], die, table.blockade)
    legal_walks = set(every_walk)
    offered = {}
    for action in state.legal_actions():
        path = tuple(int(f) for f in action.split("-"))
        assert path in legal_walks, action
        offered[(path[-1], book.walk_discards(path, table.usable(table.current)))] = path
    assert set(offered) == set(outcomes), "one offered walk per distinct outcome"
    path = chooser.choice(every_walk)
    state = state.apply("-".join(str(f) for f in path))
    table.walk(path)
    # "If your move ends on a field occupied by an opponent": the move is complete on
    # landing, so cards revealed by it may already send.
    table.move_complete()
    sends = table.sends()
    if state.to_dict()["phase"] == "drive":
        assert table.opponents_at(path[-1])
        assert set(state.legal_actions()) == sends | {"keep"}
        choice = chooser.choice(sorted(sends | {"keep"}))
        state = state.apply(choice)
        if choice != "keep":
            table.send(choice)
            table.move_complete()
    else:
        assert not sends, "landing on a piece with a usable card offers to send it"
    return state


def play_random_match(seed: int, players: int, rounds: int) -> None:
    chooser = random.Random(seed)
    state = GAMES["barree"].new_game(players=players, seed=seed, rounds=rounds)
    table = check_setup(state.to_dict())
    minus = [0] * players
    while not state.is_over:
        before = state.to_dict()
        round_no = before["round_no"]
        assert state.legal_actions() == ["roll"]
        state = state.apply("roll")
        die = rolled(state)
        assert die in range(6)
        if die == book.BAR:
            bar_roll(before, state.to_dict(), table)
        elif table.outcomes(die):
            state = move(state, table, die, chooser)
        table.end_turn()
        data = state.to_dict()
        if table.ended:
            assert data["round_minus"][round_no - 1] == table.minus
            minus = [total + points for total, points in zip(minus, table.minus, strict=True)]
            if round_no == rounds:
                assert state.is_over
                assert state.returns() == [-float(points) for points in minus]
                return
            assert data["round_no"] == round_no + 1
            table = check_setup(data)
            continue
        check_table(data, table)
        assert not state.is_over


def test_random_two_player_matches_follow_the_rule_book() -> None:
    for seed in range(4):
        play_random_match(seed, players=2, rounds=2)


def test_random_three_and_four_player_rounds_follow_the_rule_book() -> None:
    for seed in range(3):
        play_random_match(seed, players=3, rounds=1)
        play_random_match(seed, players=4, rounds=1)


def test_walks_off_the_lines_or_into_the_blockade_are_refused() -> None:
    chooser = random.Random(3)
    state = GAMES["barree"].new_game(players=2, seed=8)
    while True:
        state = state.apply("roll")
        if state.to_dict()["phase"] == "move":
            break
    data = state.to_dict()
    start, blockade, die = data["pieces"][data["current"]], data["blockade"], data["die"]
    legal = set(book.walks(start, die, blockade))
    for _ in range(300):
        path = [start]
        for _ in range(die):
            path.append(chooser.choice(book.FIELDS))
        if tuple(path) in legal:
            continue
        try:
            state.apply("-".join(str(f) for f in path))
        except IllegalAction:
            continue
        raise AssertionError(f"walk {path} was accepted")
