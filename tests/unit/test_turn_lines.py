"""Every turn is seen: a recorded game of each kind, replayed the way the bot plays it
(a person's click, then the computers' answers, each batch redrawing the board), gives
every turn its own line under the board and never runs two turns together in one line."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise
from types import SimpleNamespace
from typing import Any

import pytest

from cogs.bann import BannCog
from cogs.barbu import BarbuCog
from cogs.barree import BarreeCog
from cogs.gulbara import GulbaraCog
from cogs.table.game_cog import GameCog, Step
from cogs.table.turn_lines import CONTENT_LIMIT, board_log
from games import GAMES, GameState
from games.barree import ROLL, BarreeState
from games.gulbara import GulbaraState

PERSON = 0
"""The seat whose every action is a click of its own, as a person's is."""

COGS: dict[str, type[GameCog[Any]]] = {
    "bann": BannCog,
    "gulbara": GulbaraCog,
    "barbu": BarbuCog,
    "barree": BarreeCog,
}
GAME_OPTIONS: dict[str, dict[str, Any]] = {
    "bann": {},
    "gulbara": {"match_to": 1},
    "barbu": {"series": 1},
    "barree": {"rounds": 1},
}
PLAYERS = {"bann": 2, "gulbara": 2, "barbu": 4, "barree": 3}
NAMES = ["Alice", "AdaBot", "MaxBot", "ZoeBot"]


def recorded_log(kind: str, seed: int) -> list[str]:
    """A whole game's action log, every seat played by the computer at easy."""
    spec = GAMES[kind]
    state = spec.new_game(players=PLAYERS[kind], seed=seed, **GAME_OPTIONS[kind])
    actions: list[str] = []
    while not state.is_over:
        action = spec.bot_action(state, seed=seed + len(actions), level="easy")
        actions.append(action)
        state = state.apply(action)
        assert len(actions) < 5000
    return actions


def batches(kind: str, seed: int, log: list[str]) -> Iterator[list[Step[Any]]]:
    """The log cut as the pipeline plays it: each of the person's actions opens a batch
    that the computers' answers complete."""
    state = GAMES[kind].new_game(players=PLAYERS[kind], seed=seed, **GAME_OPTIONS[kind])
    batch: list[Step[Any]] = []
    for action in log:
        seat = state.current_player
        assert seat is not None
        if seat == PERSON and batch:
            yield batch
            batch = []
        after = state.apply(action)
        batch.append(Step(seat, state, action, after))
        state = after
    yield batch


def table(kind: str) -> Any:
    players = PLAYERS[kind]
    seats = [
        SimpleNamespace(name=NAMES[seat], is_computer=seat != PERSON) for seat in range(players)
    ]
    return SimpleNamespace(seats=seats, names=NAMES[:players], language="en")


def told(kind: str, seed: int) -> tuple[list[str], list[tuple[int, str]], GameState]:
    """The log, every line the board showed (with its seat), and the final state."""
    log = recorded_log(kind, seed)
    cog = COGS[kind](None, None)  # narrating needs neither the bot nor the tables
    lines = [
        (line.seat, line.text)
        for batch in batches(kind, seed, log)
        for line in cog.turn_lines(table(kind), batch)
    ]
    final = GAMES[kind].new_game(players=PLAYERS[kind], seed=seed, **GAME_OPTIONS[kind])
    for action in log:
        final = final.apply(action)
    return log, lines, final


@pytest.mark.parametrize("kind", ["bann", "barbu"])
@pytest.mark.parametrize("seed", [3, 11])
def test_a_game_whose_every_action_is_a_turn_tells_each_on_its_own_line(
    kind: str, seed: int
) -> None:
    log, lines, _ = told(kind, seed)
    assert len(lines) == len(log), "one line per turn"
    for seat, text in lines:
        assert NAMES[seat] in text, text
        others = [name for index, name in enumerate(NAMES) if index != seat]
        assert not any(text.startswith(name) for name in others), text


@pytest.mark.parametrize("seed", [3, 11, 29])
def test_gul_bara_tells_every_turn_autoplayed_passed_or_clicked_once(seed: int) -> None:
    log, lines, final = told("gulbara", seed)
    assert isinstance(final, GulbaraState)
    assert len(lines) == sum(final.rolls), "a line for every roll, the last turn's included"
    seats = [seat for seat, _ in lines]
    assert all(first != second for first, second in pairwise(seats)), (
        "turns alternate, so two lines of one seat in a row would be one turn split or lost"
    )
    for seat, text in lines:
        assert text.startswith(f"{NAMES[seat]} rolled "), text
        assert text.count(" rolled ") == 1, f"one turn per line: {text}"
    steps_told = sum(
        sum("/" in word for word in text.split(": ", 1)[1].split())
        for _, text in lines
        if ": " in text
    )
    steps_kept = len([action for action in log if action != "undo"])
    assert steps_told == steps_kept, "every step of every turn is on its turn's line"


@pytest.mark.parametrize("seed", [3, 11, 29])
def test_barree_tells_each_roll_with_what_came_of_it_on_one_line(seed: int) -> None:
    log, lines, final = told("barree", seed)
    assert isinstance(final, BarreeState)
    rolls = log.count(ROLL)
    rolled_lines = [text for _, text in lines if " rolls " in text]
    assert len(rolled_lines) == rolls, "every roll is told, a fruitless one too"
    for seat, text in lines:
        assert text.startswith(NAMES[seat]), text
        assert text.count(" rolls ") <= 1, f"one turn per line: {text}"
    fruitless = [text for text in rolled_lines if "blockade moves" in text or "trapped" in text]
    assert fruitless, "the recorded game has bars or stuck pieces, and they are told"


def test_a_board_too_short_for_every_turn_says_how_many_earlier_ones_are_left_out() -> None:
    lines = [f"🤖 AdaBot rolls {turn}. " + "x" * 180 for turn in range(30)]
    shown = board_log(lines)
    assert shown is not None and len(shown) <= CONTENT_LIMIT
    first, *newest = shown.splitlines()
    assert (
        first == f"⋯ {len(lines) - len(newest)} earlier turns were played; the newest turns follow."
    )
    assert newest == lines[-len(newest) :], "the newest turns, whole and in order"


def test_a_board_with_room_shows_every_turn_whole() -> None:
    lines = [f"👤 Alice rolls {turn}. " + "y" * 300 for turn in range(4)]
    assert board_log(lines) == "\n".join(lines)
