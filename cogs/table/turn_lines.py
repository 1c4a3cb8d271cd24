"""The lines above a board telling the turns just played, a computer's marked 🤖 and a
person's 👤, cut to fit one message."""

from __future__ import annotations

from collections.abc import Sequence

from cogs.table.game_cog import TurnLine
from cogs.table.seats import played_by_computer
from data import Table
from texts.i18n import ENGLISH
from texts.table import earlier_turns

TURN_LINE_LIMIT = 400
"""Characters; Gul Bara's longest escalating turn and Barree's busiest take about 300."""
COMPUTER_MARK = "🤖"
PERSON_MARK = "👤"
CONTENT_LIMIT = 2000


def board_log(lines: Sequence[str], language: str = ENGLISH) -> str | None:
    """The turn lines, oldest first; if they do not all fit in one message, the newest
    that do, after a line saying how many earlier turns are left out."""
    kept: list[str] = []
    length = len(earlier_turns(language, 10_000))
    for line in reversed(lines):
        line = line if len(line) <= TURN_LINE_LIMIT else line[: TURN_LINE_LIMIT - 1] + "…"
        length += len(line) + 1
        if length > CONTENT_LIMIT:
            break
        kept.insert(0, line)
    left_out = len(lines) - len(kept)
    if left_out:
        kept.insert(0, earlier_turns(language, left_out))
    return "\n".join(kept) or None


def told(table: Table, lines: Sequence[TurnLine]) -> list[str]:
    """Turn lines as the board shows them: a computer's marked 🤖, a person's 👤."""
    return [
        f"{COMPUTER_MARK if played_by_computer(table, line.seat) else PERSON_MARK} {line.text}"
        for line in lines
    ]
