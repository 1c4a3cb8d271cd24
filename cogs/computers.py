"""Computer players at a table: their seats, names and levels, and the lobby's control
that adds one."""

from __future__ import annotations

from typing import Literal

import discord

from cogs.table.components import TableSelect, Target
from data import Seat
from games import DEFAULT_LEVEL, LEVELS
from texts.i18n import N_

Level = Literal["easy", "normal", "hard"]
LEVEL_HELP = N_("Computer strength: easy for beginners, normal, or hard")
ADD_COMPUTER = N_("Add computer…")
_LEVEL_DESCRIPTIONS = {
    "easy": N_("Plausible moves, beatable by a beginner"),
    "normal": N_("A sound player"),
    "hard": N_("The strongest computer player"),
}


def computer_seat(seats: list[Seat], level: str = DEFAULT_LEVEL) -> Seat:
    """A new computer seat at ``level``, named apart from the table's other computers:
    ``Computer (hard)``, then ``Computer 2 (easy)`` and so on. The default level keeps
    the plain name (``Computer``, ``Computer 2``) that tables had before levels."""
    count = sum(seat.is_computer for seat in seats)
    name = "Computer" if count == 0 else f"Computer {count + 1}"
    return Seat(name if level == DEFAULT_LEVEL else f"{name} ({level})", level=level)


def seat_line(seat: Seat) -> str:
    """A seat as the lobby lists it: a computer always with its level."""
    if seat.is_computer and (seat.level or DEFAULT_LEVEL) == DEFAULT_LEVEL:
        return f"{seat.name} ({DEFAULT_LEVEL})"
    return seat.name


def add_computer_select(target: Target) -> TableSelect:
    """The lobby's Add computer control: choosing a level seats a computer at it."""
    options = [
        discord.SelectOption(
            label=f"Add computer ({level})",
            value=level,
            description=_LEVEL_DESCRIPTIONS[level],
        )
        for level in LEVELS
    ]
    return TableSelect(target, options=options, placeholder=ADD_COMPUTER, row=1)


def level_chosen(values: list[str]) -> str:
    """The level picked in the Add computer control (the default for anything else)."""
    return values[0] if values and values[0] in LEVELS else DEFAULT_LEVEL
