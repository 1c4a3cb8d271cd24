"""Computer players at a table: their seats, names and levels, and the lobby's control
that adds one."""

from __future__ import annotations

from typing import Literal

import discord

from cogs.table.components import TableSelect, Target
from data import Seat
from games import DEFAULT_LEVEL, LEVELS
from texts.i18n import ENGLISH, N_, t

Level = Literal["easy", "normal", "hard"]
LEVEL_HELP = N_("Computer strength: easy for beginners, normal, or hard")
ADD_COMPUTER = N_("Add computer…")
LEVEL_NAMES = {
    "easy": N_("easy"),
    "normal": N_("normal"),
    "hard": N_("hard"),
}
_LEVEL_DESCRIPTIONS = {
    "easy": N_("Plausible moves, beatable by a beginner"),
    "normal": N_("A sound player"),
    "hard": N_("The strongest computer player"),
}


COMPUTER_NAMES = ("AdaBot", "MaxBot", "ZoeBot", "KitBot")
"""A table's computers' names, one for every seat of the largest table. They differ in
their first letters, which a picture keeps when it cuts a long name short ("Ada…" and
"Max…", where "Computer 2" and "Computer 3" both became "Compu…"), and hold no digit,
which would read as a card rank, a die or a score beside the name ("Computer 2 8♠")."""


def computer_seat(seats: list[Seat], level: str = DEFAULT_LEVEL, language: str = ENGLISH) -> Seat:
    """A new computer seat at ``level``, named apart from the table's other computers:
    ``AdaBot``, then ``MaxBot (hard)`` and so on; a level other than the default is part
    of the name, in the table's ``language``."""
    taken = {seat.name.split(" (")[0] for seat in seats}
    name = next(given for given in COMPUTER_NAMES if given not in taken)
    if level == DEFAULT_LEVEL:
        return Seat(name, level=level)
    shown = t(language, "{name} ({level})", name=name, level=t(language, LEVEL_NAMES[level]))
    return Seat(shown, level=level)


def add_computer_select(language: str, target: Target) -> TableSelect:
    """The lobby's Add computer control: choosing a level seats a computer at it."""
    options = [
        discord.SelectOption(
            label=t(language, "Add computer ({level})", level=t(language, LEVEL_NAMES[level])),
            value=level,
            description=t(language, _LEVEL_DESCRIPTIONS[level]),
        )
        for level in LEVELS
    ]
    return TableSelect(target, options=options, placeholder=t(language, ADD_COMPUTER), row=1)


def level_chosen(values: list[str]) -> str:
    """The level picked in the Add computer control (the default for anything else)."""
    return values[0] if values and values[0] in LEVELS else DEFAULT_LEVEL
