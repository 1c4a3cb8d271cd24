"""Provable fairness: the random source, the commitment, and records that
``python -m games.verify`` accepts exactly when nothing in them was changed."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import GAMES
from games.base import Rng, journaling
from games.proof import (
    GameFacts,
    RecordError,
    commitment,
    computer_seed,
    verify_record,
    write_record,
)
from games.verify import main as verify_main

PLAYERS = {"bann": 2, "gulbara": 2, "barree": 3, "barbu": 4}
OPTIONS: dict[str, dict[str, object]] = {"barbu": {"series": 1}, "barree": {"rounds": 2}}


def played_game(kind: str, seed: int = 4242, choices: int = 7) -> tuple[GameFacts, list]:
    """A whole game of random legal moves and the facts of its table."""
    chooser = random.Random(choices)
    facts = GameFacts(
        kind, 31, 555, 777, seed, OPTIONS.get(kind, {}), [f"P{n}" for n in range(PLAYERS[kind])]
    )
    state = GAMES[kind].new_game(players=len(facts.seats), seed=seed, **facts.options)
    actions = []
    while not state.is_over:
        action = chooser.choice(state.legal_actions())
        actions.append((state.current_player, action))
        state = state.apply(action)
    return facts, actions


@pytest.fixture(scope="module", params=sorted(PLAYERS))
def record(request: pytest.FixtureRequest) -> tuple[str, GameFacts, list, str]:
    facts, actions = played_game(request.param)
    return request.param, facts, actions, write_record(facts, actions)


def lines_of(text: str) -> list[str]:
    return text.splitlines()


def replaced(text: str, number: int, line: str) -> str:
    lines = lines_of(text)
    lines[number - 1] = line
    return "\n".join(lines) + "\n"


def reported_line(error: RecordError) -> int:
    match = re.match(r"line (\d+)", str(error))
    assert match, f"the error names a line: {error}"
    return int(match.group(1))


def check_fails_at(text: str, lines: range | int) -> str:
    with pytest.raises(RecordError) as caught:
        verify_record(text)
    where = reported_line(caught.value)
    allowed = range(lines, lines + 1) if isinstance(lines, int) else lines
    assert where in allowed, f"reported line {where}, expected {allowed}: {caught.value}"
    return str(caught.value)


# ---- the random source ------------------------------------------------------------------


def test_a_source_replays_exactly_from_its_two_numbers():
    first = Rng(99)
    drawn = [first.die() for _ in range(5)]
    again = Rng.from_dict(Rng(99).to_dict())
    assert [again.die() for _ in range(5)] == drawn
    resumed = Rng.from_dict(first.to_dict())
    assert resumed.die() == Rng(99, 5).die()


def test_dice_faces_are_fair_over_many_throws():
    source = Rng(2024)
    counts = Counter(source.die() for _ in range(60_000))
    assert sorted(counts) == [1, 2, 3, 4, 5, 6]
    chi_square = sum((count - 10_000) ** 2 / 10_000 for count in counts.values())
    assert chi_square < 20.5, "five degrees of freedom: p < 0.001 above 20.5"


def test_a_range_that_does_not_divide_two_to_the_64_is_not_biased():
    source = Rng(7)
    counts = Counter(source.randint(0, 2) for _ in range(30_000))
    assert all(abs(count - 10_000) < 500 for count in counts.values())


@given(st.integers(min_value=0, max_value=2**63 - 1), st.integers(2, 60))
@settings(max_examples=40, deadline=None)
def test_a_shuffle_is_a_permutation_and_repeats_from_the_same_draw(seed, size):
    items, again = list(range(size)), list(range(size))
    Rng(seed, 3).shuffle(items)
    Rng(seed, 3).shuffle(again)
    assert sorted(items) == list(range(size)) and items == again


def test_the_journal_lists_each_draw_with_whose_roll_it_is():
    with journaling() as journal:
        source = Rng(5)
    values = source.dice(2, seat=1)
    source.copy().randint(0, 3)
    assert [event.draw for event in journal] == [0, 1]
    assert journal[0].line() == f"seat 1 dice -> {values[0]} {values[1]}"
    assert journal[1].seat is None


def test_the_commitment_binds_seed_game_place_options_and_seats():
    seats = ["Ann (user 5)", "Bo (computer)"]
    base = commitment("gulbara", 12, 1, 2, 123456, {"match_to": 3}, seats)
    assert re.fullmatch(r"[0-9a-f]{64}", base)
    assert base != commitment("gulbara", 12, 1, 2, 123457, {"match_to": 3}, seats)
    assert base != commitment("gulbara", 13, 1, 2, 123456, {"match_to": 3}, seats)
    assert base != commitment("barree", 12, 1, 2, 123456, {"match_to": 3}, seats)
    assert base != commitment("gulbara", 12, 1, 2, 123456, {"match_to": 5}, seats)
    assert base != commitment("gulbara", 12, 1, 2, 123456, {"match_to": 3}, seats[::-1])
    assert base != commitment("gulbara", 12, 1, 23, 123456, {"match_to": 3}, seats), "no '12/3'"


def test_computer_seeds_are_not_the_game_seed_plus_a_counter():
    seeds = [computer_seed(1000, step) for step in range(50)]
    assert len(set(seeds)) == 50
    assert all(abs(seed - 1000) > 10**6 for seed in seeds)


# ---- records ------------------------------------------------------------------------------


def test_an_untouched_record_is_verified(record):
    kind, _facts, actions, text = record
    answer = verify_record(text)
    assert answer.startswith("verified:") and GAMES[kind].title in answer
    assert f"every action ({len(actions)})" in answer


def test_a_record_names_the_seed_the_commitment_and_every_action(record):
    _kind, facts, actions, text = record
    assert f"seed: {facts.seed}\n" in text
    assert f"commitment: {facts.commitment}\n" in text
    moves = [line for line in lines_of(text) if re.match(r"\d+\. seat ", line)]
    assert [line.split(": ", 1)[1] for line in moves] == [action for _, action in actions]


def test_a_changed_die_is_found(record):
    kind, _facts, _actions, text = record
    if kind == "barbu":
        pattern = re.compile(r"  chance: 0\.\.3 -> (\d)")
    else:
        pattern = re.compile(r"  chance: seat \d (?:dice|\d\.\.\d) -> (\d)")
    number, line = next(
        (n, line) for n, line in enumerate(lines_of(text), start=1) if pattern.match(line)
    )
    value = pattern.match(line).group(1)
    other = str((int(value) + 1) % 4 if kind == "barbu" else int(value) % 5 + 1)
    tampered = replaced(text, number, line.replace(f"-> {value}", f"-> {other}", 1))
    message = check_fails_at(tampered, number)
    assert "the seed gives" in message


def test_a_changed_card_is_found(record):
    kind, _facts, _actions, text = record
    shuffles = [(n, line) for n, line in enumerate(lines_of(text), start=1) if "shuffle of" in line]
    if kind in ("bann", "gulbara"):
        assert shuffles == [], f"{kind} has no cards"
        return
    number, line = shuffles[-1]
    head, cards = line.split(" -> ")
    deck = cards.split()
    deck[0], deck[-1] = deck[-1], deck[0]
    check_fails_at(replaced(text, number, f"{head} -> {' '.join(deck)}"), number)


def test_a_changed_action_is_found_at_that_move(record):
    kind, facts, actions, text = record
    state = GAMES[kind].new_game(players=len(facts.seats), seed=facts.seed, **facts.options)
    for index, (_seat, action) in enumerate(actions):
        others = [other for other in state.legal_actions() if other != action]
        if others and index > len(actions) // 3:
            break
        state = state.apply(action)
    lines = lines_of(text)
    number = next(n for n, line in enumerate(lines, 1) if line.startswith(f"{index + 1}. seat "))
    following = next(
        n for n, line in enumerate(lines, 1) if n > number and not line.startswith("  ")
    )
    seat, _ = actions[index]
    legal_but_different = replaced(text, number, f"{index + 1}. seat {seat}: {others[0]}")
    check_fails_at(legal_but_different, range(number, following))
    illegal = replaced(text, number, f"{index + 1}. seat {seat}: nonsense")
    assert "not legal here" in check_fails_at(illegal, number)


def test_a_wrong_seat_a_wrong_seed_or_a_wrong_commitment_is_found(record):
    _kind, facts, actions, text = record
    lines = lines_of(text)
    first_move = next(n for n, line in enumerate(lines, 1) if line.startswith("1. seat "))
    wrong_seat = (actions[0][0] + 1) % len(facts.seats)
    message = check_fails_at(
        replaced(text, first_move, f"1. seat {wrong_seat}: {actions[0][1]}"), first_move
    )
    assert f"seat {actions[0][0]} was to act" in message
    seed_line = lines.index(f"seed: {facts.seed}") + 1
    commitment_line = seed_line - 1
    assert "commitment" in check_fails_at(replaced(text, seed_line, "seed: 1"), commitment_line)
    forged = replaced(text, commitment_line, "commitment: " + "0" * 64)
    check_fails_at(forged, commitment_line)


def test_the_command_line_says_verified_or_where_it_differs(tmp_path: Path, record):
    _kind, _facts, _actions, text = record
    good, bad = tmp_path / "game.txt", tmp_path / "tampered.txt"
    good.write_text(text)
    bad.write_text(text.replace("returns: ", "returns: 9 ", 1))
    run = [sys.executable, "-m", "games.verify"]
    passed = subprocess.run([*run, str(good)], capture_output=True, text=True, check=False)
    assert passed.returncode == 0 and passed.stdout.startswith("verified")
    failed = subprocess.run([*run, str(bad)], capture_output=True, text=True, check=False)
    assert failed.returncode == 1 and failed.stdout.startswith("NOT verified: line ")


def test_a_file_that_is_no_record_or_has_foreign_options_is_refused_with_a_reason(record):
    _kind, _facts, _actions, text = record
    with pytest.raises(RecordError, match="line 1: not a game record"):
        verify_record("hello\n")
    options_line = next(
        n for n, line in enumerate(lines_of(text), 1) if line.startswith("options:")
    )
    commitment_line = next(
        n for n, line in enumerate(lines_of(text), 1) if line.startswith("commitment:")
    )
    forged = replace(_facts, options={"colour": "red"})
    foreign = replaced(text, options_line, 'options: {"colour": "red"}')
    foreign = replaced(foreign, commitment_line, f"commitment: {forged.commitment}")
    assert "not" in check_fails_at(foreign, options_line)


def test_other_seats_or_options_under_the_same_commitment_are_refused(record):
    """A record that hands the dice to other players, or claims other options, no longer
    matches the commitment the board showed before the first move."""
    kind, facts, _actions, text = record
    lines = lines_of(text)
    commitment_line = lines.index(f"commitment: {facts.commitment}") + 1
    first_seat, second_seat = (lines.index(f"seat {n}: {facts.seats[n]}") + 1 for n in (0, 1))
    swapped = replaced(text, first_seat, f"seat 0: {facts.seats[1]}")
    swapped = replaced(swapped, second_seat, f"seat 1: {facts.seats[0]}")
    assert "commitment does not belong" in check_fails_at(swapped, commitment_line)
    options_line = lines.index(f"options: {json.dumps(facts.options, sort_keys=True)}") + 1
    other = {option.name: option.default for option in GAMES[kind].options} | facts.options
    first = GAMES[kind].options[0] if GAMES[kind].options else None
    if first is not None:
        other[first.name] = not other[first.name] if first.maximum is None else first.maximum
        assert other != facts.options
        changed = replaced(text, options_line, f"options: {json.dumps(other, sort_keys=True)}")
        assert "commitment does not belong" in check_fails_at(changed, commitment_line)


@pytest.mark.parametrize("odd", ["\u2028", "\x85", "\x0b", "\x1c", "\u2029", " "])
def test_a_name_with_characters_other_tools_break_lines_at_still_verifies(odd):
    facts, actions = played_game("bann")
    facts = replace(facts, seats=[f"Al{odd}ice{odd}", "**@everyone** <@1>"])
    assert verify_record(write_record(facts, actions)).startswith("verified")


def test_the_command_line_answers_garbled_bytes_and_accepts_a_byte_order_mark(
    tmp_path: Path, record, capsys
):
    _kind, _facts, _actions, text = record
    garbled, marked = tmp_path / "garbled.txt", tmp_path / "notepad.txt"
    garbled.write_bytes(text.encode()[:200] + b"\xff\xfe" + text.encode()[200:])
    marked.write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert verify_main([str(garbled)]) == 1
    answer = capsys.readouterr().out
    assert answer == "NOT verified: byte 200: not UTF-8 text, so not a game record\n"
    assert verify_main([str(marked)]) == 0
    assert capsys.readouterr().out.startswith("verified")


def test_a_wrong_commitment_is_named_before_a_million_lines_of_moves_are_read(record):
    """Whoever hands out a huge forged record learns at once that its commitment fails."""
    _kind, facts, _actions, text = record
    lines = lines_of(text)
    commitment_line = lines.index(f"commitment: {facts.commitment}") + 1
    forged = replaced(text, commitment_line, "commitment: " + "0" * 64)
    start = forged.index("\nstart\n") + len("\nstart\n")
    flood = forged[:start] + "this is not a move\n" + forged[start:]
    check_fails_at(flood, commitment_line)
