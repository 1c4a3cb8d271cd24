"""A table's computers keep distinct names in every picture, even where a narrow column
cuts a name short (the Barbu score sheet's player columns are the narrowest)."""

from __future__ import annotations

from cogs.table.computers import computer_seat
from data import Seat
from render.barbu import SHEET_PLAYER_WIDTH, TEXT_SIZE
from render.toolkit.text import fit_text, font


def test_three_computers_stay_apart_in_the_narrowest_name_column() -> None:
    seats = [Seat("Alice", 1)]
    for level in ("normal", "hard", "easy"):
        seats.append(computer_seat(seats, level))
    names = [seat.name for seat in seats]
    assert len(set(names)) == 4
    assert not any(character.isdigit() for name in names for character in name)
    shown = [fit_text(name, font(TEXT_SIZE, "Bold"), SHEET_PLAYER_WIDTH - 34) for name in names]
    assert len(set(shown)) == 4, shown
