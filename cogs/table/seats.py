"""Who plays each seat right now: its member, a computer, or a computer standing in for a
member whose clock ran out; and the headline of a loss on time."""

from __future__ import annotations

from data import Table
from texts import table as table_text
from texts.i18n import ENGLISH


def away_seats(table: Table) -> set[int]:
    """Seats whose player ran out of time and is being played by a computer."""
    return {int(seat) for seat in table.extra.get("away", {})}


def human_seats(table: Table) -> list[int]:
    """Seats played by a person right now (not computers, not substitutes)."""
    away = away_seats(table)
    return [i for i, seat in enumerate(table.seats) if not seat.is_computer and i not in away]


def played_by_computer(table: Table, seat: int) -> bool:
    return table.seats[seat].is_computer or seat in away_seats(table)


def time_loss_headline(table: Table, seat: int, language: str = ENGLISH) -> str:
    """Only two-player games are lost on time, so the other seat is the one winner."""
    winner = next(s.name for index, s in enumerate(table.seats) if index != seat)
    return table_text.time_loss_headline(language, table.seats[seat].name, winner)
