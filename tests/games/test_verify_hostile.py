"""``python -m games.verify`` against records made to break it: any text, options of any
JSON shape and depth, wrongly typed header values, and table events (``!resign``,
``!abandon``, ...) the bot never logs. Each gets "NOT verified: line N: …" and exit
status 1, never a traceback, and a forged line is named before the lines after it are
read."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_proof import played_game

from games import GAMES, IllegalAction
from games.proof import RECORD_TITLE, GameFacts, RecordError, verify_record, write_record
from games.table_events import (
    ABANDON,
    AWAY,
    BACK,
    EVENTS,
    HINT,
    PAUSE,
    RESIGN,
    RESUME,
    TIMEOUT,
)
from games.verify import main as verify_main

KINDS = ("bann", "gulbara", "barree", "barbu")
HOSTILE = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# Each example of these writes and checks a whole game.
WHOLE_GAMES = settings(HOSTILE, max_examples=40)


@cache
def game(kind: str) -> tuple[GameFacts, tuple[tuple[int | None, str], ...]]:
    facts, actions = played_game(kind)
    return facts, tuple(actions)


@cache
def record(kind: str) -> str:
    facts, actions = game(kind)
    return write_record(facts, actions)


@cache
def states(kind: str) -> tuple:
    """The position before each action of the game, and the last one."""
    facts, actions = game(kind)
    state = GAMES[kind].new_game(players=len(facts.seats), seed=facts.seed, **facts.options)
    found = [state]
    for _seat, action in actions:
        state = state.apply(action)
        found.append(state)
    return tuple(found)


def line_number(text: str, starts: str) -> int:
    return next(n for n, line in enumerate(text.split("\n"), 1) if line.startswith(starts))


def with_line(text: str, number: int, line: str) -> str:
    lines = text.split("\n")
    lines[number - 1] = line
    return "\n".join(lines)


def refusal(text: str) -> str:
    """The verifier's answer to a record it must refuse."""
    with pytest.raises(RecordError) as refused:
        verify_record(text)
    return str(refused.value)


def refused_at(text: str) -> int:
    answer = refusal(text)
    found = re.match(r"line (\d+)\b", answer)
    assert found, f"the answer names a line: {answer}"
    return int(found.group(1))


def answered(tmp_path: Path, data: bytes, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    path = tmp_path / "record.txt"
    path.write_bytes(data)
    status = verify_main([str(path)])
    return status, capsys.readouterr().out


# ---- any text -------------------------------------------------------------------------


@HOSTILE
@given(st.text() | st.text().map(lambda rest: f"{RECORD_TITLE}\n{rest}"))
def test_any_text_is_refused_with_a_reason(text):
    assert refusal(text)


@HOSTILE
@given(
    st.sampled_from(KINDS),
    st.lists(st.integers(0, 10**6), max_size=6),
    st.lists(st.text(), min_size=1, max_size=6),
)
def test_a_record_with_lines_replaced_by_any_text_is_refused_or_verified(kind, where, texts):
    """Text shaped like a record gets as far as it can into the check."""
    lines = record(kind).split("\n")
    for index, text in zip(where, texts, strict=False):
        lines[index % len(lines)] = text
    try:
        answer = verify_record("\n".join(lines))
    except RecordError as refused:
        answer = str(refused)
    assert answer


@HOSTILE
@given(st.sampled_from(KINDS), st.integers(0, 10**6), st.sampled_from(range(8)), st.text())
def test_any_value_in_any_line_of_a_record_is_refused_or_verified(kind, where, part, value):
    """The key of each line kept and its value replaced: a number, a seat, a move, a die
    or a position of any text, in any place."""
    lines = record(kind).split("\n")
    index = where % len(lines)
    pieces = re.split(r"(: |\. seat | -> |\.\.)", lines[index])
    pieces[(2 * part) % len(pieces)] = value
    lines[index] = "".join(pieces)
    try:
        answer = verify_record("\n".join(lines))
    except RecordError as refused:
        answer = str(refused)
    assert answer


@settings(max_examples=25, deadline=None)
@given(st.binary(max_size=400))
def test_any_bytes_on_the_command_line_get_not_verified(tmp_path_factory, binary):
    path = tmp_path_factory.mktemp("bytes") / "record.txt"
    path.write_bytes(binary)
    printed = subprocess.run(
        [sys.executable, "-m", "games.verify", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (printed.returncode, printed.stderr) == (1, "")
    assert re.fullmatch(r"NOT verified: (line|byte) \d+: .+\n", printed.stdout)


# ---- options and header values of the wrong type ------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=8,
)


@st.composite
def foreign_options(draw: st.DrawFn) -> tuple[str, object]:
    """A game and options the bot never stores for it: no JSON object, a name the game
    does not declare, or a value of the wrong type, out of range or not one of its choices."""
    kind = draw(st.sampled_from(KINDS))
    declared = {option.name: option for option in GAMES[kind].options}
    unknown = st.text(max_size=8).filter(lambda name: name not in declared)
    wrong: list[st.SearchStrategy[dict[str, object]]] = [
        st.dictionaries(unknown, JSON, min_size=1, max_size=2)
    ]
    for name, option in declared.items():
        if option.choices:
            offered = [choice.value for choice in option.choices]
            values = JSON.filter(lambda value, offered=offered: value not in offered)
        elif isinstance(option.default, bool):
            values = JSON.filter(lambda value: not isinstance(value, bool))
        else:
            low, high = option.minimum or 0, option.maximum or 0
            outside = st.integers(max_value=low - 1) | st.integers(min_value=high + 1)
            values = outside | JSON.filter(lambda value: type(value) is not int)
        wrong.append(st.fixed_dictionaries({name: values}))
    return kind, draw(JSON.filter(lambda value: not isinstance(value, dict)) | st.one_of(wrong))


def with_options(kind: str, options: object) -> str:
    """The record with other options, under the commitment they would give when they are
    an object: so only the options themselves can be refused."""
    text = record(kind)
    options_line = line_number(text, "options: ")
    text = with_line(text, options_line, f"options: {json.dumps(options)}")
    if isinstance(options, dict):
        facts, _ = game(kind)
        committed = replace(facts, options=options).commitment
        text = with_line(text, line_number(text, "commitment: "), f"commitment: {committed}")
    return text


@HOSTILE
@given(foreign_options())
def test_options_the_bot_never_stores_are_refused_at_their_line(chosen):
    kind, options = chosen
    text = with_options(kind, options)
    assert refused_at(text) == line_number(text, "options: ")


@pytest.mark.parametrize("options", ["[1, 2]", "null", '"series"', "4", "true"])
def test_options_that_are_no_object_are_named(tmp_path, capsys, options):
    options_line = line_number(record("barbu"), "options: ")
    text = with_line(record("barbu"), options_line, f"options: {options}")
    assert answered(tmp_path, text.encode(), capsys) == (
        1,
        f"NOT verified: line {options_line}: the options are not a JSON object\n",
    )


@pytest.mark.parametrize(
    "options, reason",
    [
        ({"series": "2"}, "the option “series” must be a whole number from 1 up to 4"),
        ({"series": 2.0}, "the option “series” must be a whole number from 1 up to 4"),
        ({"series": True}, "the option “series” must be a whole number from 1 up to 4"),
        ({"series": 0}, "the option “series” must be a whole number from 1 up to 4"),
        ({"series": 10**30}, "the option “series” must be a whole number from 1 up to 4"),
        ({"autoplay": 1}, "the option “autoplay” must be true or false"),
        ({"autoplay": None}, "the option “autoplay” must be true or false"),
        ({"colour": "red"}, "“colour” is not an option of Barbu"),
    ],
)
def test_an_option_of_the_wrong_type_or_range_is_named(options, reason):
    text = with_options("barbu", options)
    assert refusal(text) == f"line {line_number(text, 'options: ')}: {reason}"


@pytest.mark.parametrize(
    "options",
    [
        "[" * 100_000 + "]" * 100_000,
        '{"series": ' * 100_000,
        '{"series": ' + "[" * 100_000,
        "[" * 100_000,
    ],
)
def test_options_nested_a_hundred_thousand_deep_get_not_verified(options):
    options_line = line_number(record("barbu"), "options: ")
    text = with_line(record("barbu"), options_line, f"options: {options}")
    assert refused_at(text) == options_line


def test_deeply_nested_options_print_no_traceback(tmp_path):
    options_line = line_number(record("bann"), "options: ")
    text = with_line(record("bann"), options_line, "options: " + "[" * 100_000)
    path = tmp_path / "nested.txt"
    path.write_text(text)
    printed = subprocess.run(
        [sys.executable, "-m", "games.verify", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert printed.returncode == 1 and printed.stderr == ""
    assert (
        printed.stdout == f"NOT verified: line {options_line}: the options are nested too deeply\n"
    )


@pytest.mark.parametrize(
    "starts, line",
    [
        ("game id: ", "game id: thirty-one"),
        ("seed: ", "seed: " + "9" * 5000),
        ("server: ", "server: "),
        ("seat 1: ", "seat " + "1" * 5000 + ": P1"),
        ("1. seat ", "1" * 5000 + ". seat 1: 3>6:S"),
        ("1. seat ", "1. seat " + "1" * 5000 + ": 3>6:S"),
    ],
)
def test_numbers_that_are_no_numbers_or_too_long_are_named(starts, line):
    number = line_number(record("bann"), starts)
    assert refused_at(with_line(record("bann"), number, line)) == number


def test_a_record_with_no_players_or_too_many_is_refused():
    text = record("bann")
    start = line_number(text, "start")
    without = text.replace("seat 0: P0\nseat 1: P1\n", "")
    assert "Bann is played by 2 to 2 players, the record seats 0" in refusal(without)
    crowded = text.replace("seat 1: P1\n", "seat 1: P1\nseat 2: P2\n")
    assert refusal(crowded).startswith(f"line {start + 1}: Bann is played by 2 to 2 players")


def test_a_game_whose_rules_refuse_to_start_with_the_records_options_is_named(monkeypatch):
    """Options each in range may still not make a game together (a later game's rules)."""

    def refusing(**_chosen: object) -> None:
        raise IllegalAction("these options do not go together")

    text = record("bann")
    monkeypatch.setitem(GAMES, "bann", replace(GAMES["bann"], new_game=refusing))
    assert refusal(text) == (
        f"line {line_number(text, 'start')}: the game cannot start: these options do not go"
        " together"
    )


# ---- table events -----------------------------------------------------------------------

SEATS = st.sampled_from([None, 0, 1, 2, 3, 4, 99])
FORGED = st.sampled_from([*EVENTS, "!resigned", "!", "!win", "!undo"])


def possible_alone(kind: str, index: int, seat: int | None, event: str) -> bool:
    """Whether the bot could log ``event`` alone before the game's ``index``-th action and
    the game then go on exactly as recorded: a hint given to the seat to act, or a
    computer taking over that seat in a game where a run-out clock does that."""
    before = states(kind)[index]
    substitutes = event == AWAY and GAMES[kind].on_timeout == "substitute"
    return (event == HINT or substitutes) and not before.is_over and seat == before.current_player


@HOSTILE
@given(st.sampled_from(KINDS), st.integers(0, 10**6), SEATS, FORGED)
def test_a_table_event_slipped_into_a_game_is_refused_at_its_line(kind, where, seat, event):
    """One event more in a genuine game: refused at its line, or at the move after it
    when it was possible but ended or paused the game."""
    facts, actions = game(kind)
    index = where % (len(actions) + 1)
    forged = write_record(facts, [*actions[:index], (seat, event), *actions[index:]])
    lines = [line_number(forged, f"{index + 1}. seat ")]
    if index < len(actions):
        lines.append(line_number(forged, f"{index + 2}. seat "))
    if possible_alone(kind, index, seat, event):
        assert verify_record(forged).startswith("verified")
    else:
        assert refused_at(forged) in lines


@st.composite
def table_logs(draw: st.DrawFn) -> tuple[str, GameFacts, list[tuple[int | None, str]]]:
    """A game's log as the bot writes it: moves, pauses agreed and ended, hints given to
    the players to act, computers taking seats whose clock ran out and their players back,
    and an ending (the last move, a resignation, a loss on time, an abandoned game or a
    table left to the computers)."""
    kind = draw(st.sampled_from(KINDS))
    facts, actions = game(kind)
    seats = len(facts.seats)
    stop = draw(st.integers(0, len(actions)))
    away: set[int] = set()
    log: list[tuple[int | None, str]] = []
    for seat, action in actions[:stop]:
        if draw(st.integers(0, 9)) == 0:
            log += [
                (draw(st.integers(0, seats - 1)), PAUSE),
                (draw(st.integers(0, seats - 1)), RESUME),
            ]
        if GAMES[kind].on_timeout == "substitute" and draw(st.integers(0, 9)) == 0:
            if seat in away:
                away.discard(seat)
                log.append((seat, BACK))
            else:
                away.add(seat)
                log.append((seat, AWAY))
        if seat not in away and draw(st.integers(0, 9)) == 0:
            log.append((seat, HINT))
        log.append((seat, action))
    over = states(kind)[stop].is_over
    endings = ["resign", "abandon"] + (["timeout"] if GAMES[kind].on_timeout == "loss" else [])
    # A table whose players have all run out of time ends unrated with no event of its own.
    endings += ["computers"] if away else []
    ending = "moves" if over else draw(st.sampled_from(endings))
    status = "aborted" if ending == "computers" else "finished"
    if ending == "resign":
        log.append((draw(st.integers(0, seats - 1)), RESIGN))
    elif ending == "timeout":
        log.append((states(kind)[stop].current_player, TIMEOUT))
    elif ending == "abandon":
        if draw(st.booleans()):
            log.append((draw(st.integers(0, seats - 1)), PAUSE))
        log.append((None, ABANDON))
        status = "aborted"
    return write_record(replace(facts, status=status), log), facts, log


@WHOLE_GAMES
@given(table_logs())
def test_every_table_event_the_bot_logs_verifies(logged):
    text, _facts, log = logged
    answer = verify_record(text)
    assert answer.startswith("verified") and f"every action ({len(log)})" in answer


@WHOLE_GAMES
@given(table_logs(), st.integers(0, 10**6), st.sampled_from([*range(2, 6), 99]))
def test_a_table_event_moved_to_a_seat_that_does_not_exist_is_refused(logged, which, seat):
    text, facts, log = logged
    events = [
        n for n, (who, action) in enumerate(log) if action.startswith("!") and who is not None
    ]
    assume(events and seat >= len(facts.seats))
    index = events[which % len(events)]
    event_line = line_number(text, f"{index + 1}. seat ")
    moved = with_line(text, event_line, f"{index + 1}. seat {seat}: {log[index][1]}")
    assert refusal(moved) == (
        f"line {event_line}: there is no seat {seat}: the game has seats 0 to"
        f" {len(facts.seats) - 1}"
    )


@WHOLE_GAMES
@given(table_logs())
def test_a_record_whose_status_its_log_does_not_give_is_refused(logged):
    text, _facts, _log = logged
    status_line = line_number(text, "status: ")
    said = text.split("\n")[status_line - 1].removeprefix("status: ")
    other = {"finished": "aborted", "aborted": "finished"}[said]
    assert refusal(with_line(text, status_line, f"status: {other}")) == (
        f"line {status_line}: the record says the game is {other}, but its log leaves it {said}"
    )


def forged_record(kind: str, log: list[tuple[int | None, str]]) -> str:
    return write_record(game(kind)[0], log)


def opening(kind: str, moves: int) -> list[tuple[int | None, str]]:
    return list(game(kind)[1][:moves])


def to_act(kind: str, moves: int) -> int:
    return states(kind)[moves].current_player


def after_four(kind: str, *lines: tuple[int | None, str]) -> list[tuple[int | None, str]]:
    return [*opening(kind, 4), *lines]


FIFTH = {kind: game(kind)[1][4] for kind in KINDS}


@pytest.mark.parametrize(
    "kind, log, reason",
    [
        (
            "bann",
            lambda: after_four("bann", (None, RESIGN)),
            "the bot logs this event for the seat it happened to, not “-”",
        ),
        (
            "bann",
            lambda: after_four("bann", (0, RESIGN), FIFTH["bann"]),
            "the game had already ended with “!resign”",
        ),
        ("bann", lambda: [*game("bann")[1], (0, RESIGN)], "the game was already over"),
        (
            "bann",
            lambda: after_four("bann", (0, ABANDON)),
            "an abandoned game is logged for no seat (“-”), not seat 0",
        ),
        ("bann", lambda: after_four("bann", (0, "!win")), "the bot logs no such table event"),
        (
            "bann",
            lambda: after_four("bann", (to_act("bann", 4), AWAY)),
            "when a clock runs out in Bann, the player loses",
        ),
        (
            "barbu",
            lambda: after_four("barbu", (to_act("barbu", 4), TIMEOUT)),
            "when a clock runs out in Barbu, a computer takes the seat",
        ),
        (
            "bann",
            lambda: after_four("bann", (1 - to_act("bann", 4), TIMEOUT)),
            f"only the clock of the seat to act runs, and seat {to_act('bann', 4)} was to act",
        ),
        (
            "barbu",
            lambda: after_four("barbu", (0, BACK)),
            "no computer played seat 0, so it had no seat to take back",
        ),
        ("bann", lambda: after_four("bann", (0, RESUME)), "the game was not paused"),
        ("bann", lambda: after_four("bann", (0, PAUSE), (1, PAUSE)), "the game was already paused"),
        (
            "bann",
            lambda: after_four("bann", (0, PAUSE), FIFTH["bann"]),
            "the game was paused: nobody plays before “!resume”",
        ),
        (
            "bann",
            lambda: after_four("bann", (0, PAUSE), (to_act("bann", 4), TIMEOUT)),
            "the game was paused, so no clock ran",
        ),
        (
            "barbu",
            lambda: after_four("barbu", (to_act("barbu", 4), AWAY), (to_act("barbu", 4), AWAY)),
            f"a computer played seat {to_act('barbu', 4)}, so its clock did not run",
        ),
        (
            "bann",
            lambda: after_four("bann", (1 - to_act("bann", 4), HINT)),
            f"only the seat to act gets a hint, and seat {to_act('bann', 4)} was to act",
        ),
        (
            "bann",
            lambda: after_four("bann", (0, PAUSE), (to_act("bann", 4), HINT)),
            "the game was paused: nobody asks for a hint before “!resume”",
        ),
        (
            "barbu",
            lambda: after_four("barbu", (to_act("barbu", 4), AWAY), (to_act("barbu", 4), HINT)),
            f"a computer played seat {to_act('barbu', 4)}, so it asked for no hint",
        ),
        (
            "bann",
            lambda: after_four("bann", (None, HINT)),
            "the bot logs this event for the seat it happened to, not “-”",
        ),
        ("bann", lambda: [*game("bann")[1], (0, HINT)], "the game was already over"),
    ],
)
def test_each_table_event_the_bot_could_not_have_logged_is_named_at_its_line(kind, log, reason):
    logged = log()
    text = forged_record(kind, logged)
    forged_line = line_number(text, f"{len(logged)}. seat ")
    where = f"line {forged_line} (move {len(logged)} “{logged[-1][1]}”)"
    assert refusal(text) == f"{where}: {reason}"


def test_a_computer_plays_the_seat_it_took_to_the_end_of_the_game():
    seat = to_act("barbu", 4)
    log = after_four("barbu", (seat, AWAY), *game("barbu")[1][4:])
    assert verify_record(forged_record("barbu", log)).startswith("verified")


def test_a_game_whose_log_stops_while_it_runs_is_no_record_of_an_ended_game():
    text = forged_record("bann", after_four("bann", (0, PAUSE), (1, RESUME)))
    assert refusal(text) == (
        f"line {line_number(text, 'status: ')}: the record says the game is finished, but its"
        " log stops while the game runs on"
    )


def test_a_position_line_after_a_table_event_is_refused():
    text = forged_record("bann", after_four("bann", (0, RESIGN)))
    event_line = line_number(text, "5. seat 0: !resign")
    text = with_line(text, event_line, "5. seat 0: !resign\n  position: 000000000000")
    assert refused_at(text) == event_line + 1


def test_four_hundred_thousand_forged_events_are_refused_at_the_first(tmp_path, capsys):
    """The issue's file: a finished game, then 400,000 lines of ``1. seat 99: !resign``."""
    text = record("bann")
    end = text.index("\nend\n")
    first = text[:end].count("\n") + 2
    moves = len(game("bann")[1])
    flood = "\n1. seat 99: !resign" * 400_000
    assert answered(tmp_path, (text[:end] + flood + text[end:]).encode(), capsys) == (
        1,
        f"NOT verified: line {first}: numbered 1, but it is move {moves + 1}\n",
    )
    renumbered = "".join(f"\n{moves + n}. seat 99: !resign" for n in range(1, 400_001))
    assert answered(tmp_path, (text[:end] + renumbered + text[end:]).encode(), capsys) == (
        1,
        f"NOT verified: line {first}: there is no seat 99: the game has seats 0 to 1\n",
    )
