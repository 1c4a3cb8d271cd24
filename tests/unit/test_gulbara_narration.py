"""Gul Bara's channel text writes each player's steps in his own numbering, in which his
checkers always count down: the board keeps the first human's side all game and labels
every point with both players' numbers, and a computer's or second player's steps are
marked as written in his numbering, so the reader knows which numbers to follow."""

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


def test_the_computers_steps_count_down_in_his_numbering_and_say_so() -> None:
    """The issue's "AdaBot rolled 6-4: 7/1 1/21": in the reader's numbering a checker
    that passes the reader's 1 seemed to move backwards."""
    sentence = last_turn("en", turn(1, ["14/10", "14/10"]), NAMES, viewer=0)
    assert sentence == "Last turn: Computer rolled 4-4: 14/10 14/10 (his numbering)"
    german = last_turn("de", turn(1, ["14/10", "14/10"]), NAMES, viewer=0)
    assert german == "Letzter Zug: Computer würfelte 4-4: 14/10 14/10 (seine Zählung)"


def test_the_viewers_own_steps_keep_their_numbers() -> None:
    assert last_turn("en", turn(0, ["24/20", "6/off"]), NAMES, viewer=0).endswith(": 24/20 6/off")


def test_the_board_follows_the_first_human_seat() -> None:
    assert board_seat(table(False, False)) == 0
    assert board_seat(table(True, False)) == 1
    assert board_seat(table(True, True)) == 0
