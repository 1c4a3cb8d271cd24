"""Gul Bara's channel text names points as the board shows them: the board keeps the
first human's numbering all game, so a computer's or second player's steps are
converted, and the text and the picture agree."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from cogs.gulbara import board_seat
from texts.gulbara import last_turn

NAMES = ["alice", "Computer"]


def turn(seat: int, steps: list[str]) -> dict[str, Any]:
    return {"seat": seat, "roll": [4, 4], "passed": False, "stages": [4], "steps": steps}


def table(*computers: bool) -> Any:
    return SimpleNamespace(seats=[SimpleNamespace(is_computer=flag) for flag in computers])


def test_the_computers_steps_are_told_in_the_boards_numbering() -> None:
    sentence = last_turn("en", turn(1, ["14/10", "14/10"]), NAMES, viewer=0)
    assert sentence == "Last turn: Computer rolled 4-4: 2/22 2/22"


def test_the_viewers_own_steps_keep_their_numbers() -> None:
    assert last_turn("en", turn(0, ["24/20", "6/off"]), NAMES, viewer=0).endswith(": 24/20 6/off")


def test_the_board_follows_the_first_human_seat() -> None:
    assert board_seat(table(False, False)) == 0
    assert board_seat(table(True, False)) == 1
    assert board_seat(table(True, True)) == 0
