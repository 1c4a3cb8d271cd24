"""Barbu's doubling round: ``DoublingChoice``, what the seat to act may double, and
``parse_seats``, which reads the seats of a ``double:1,3`` action.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from games.barbu.cards import PASS
from games.base import N_, IllegalAction


def parse_seats(text: str) -> list[int]:
    if not text.strip():
        raise IllegalAction(N_("Name at least one seat to double, or pass."))
    parts = [part.strip() for part in text.split(",")]
    if not all(len(part) == 1 and part in "0123" for part in parts):
        raise IllegalAction(N_("Write doubles as double:1,3 (the seats you double)."))
    seats = [int(part) for part in parts]
    if len(set(seats)) != len(seats):
        raise IllegalAction(N_("Name each seat you double only once."))
    return sorted(seats)


@dataclass(frozen=True)
class DoublingChoice:
    """What the seat to act in the doubling round may do, for building its toggles.

    ``targets`` are the seats it may double (those in ``redoubles`` already doubled it, so
    doubling them is a redouble). If ``required`` is a seat, it must be among the doubled
    ones: the seat owes ``needed`` doubles of declarer in the ``deals_left`` deals of this
    series including this one.
    """

    seat: int
    declarer: int
    targets: tuple[int, ...]
    redoubles: tuple[int, ...]
    required: int | None
    needed: int
    deals_left: int

    @property
    def maximum(self) -> str:
        return self.action_for(self.targets)

    @property
    def may_pass(self) -> bool:
        return self.required is None

    def action_for(self, seats: Iterable[int]) -> str:
        """The action for doubling ``seats`` (``pass`` when empty)."""
        chosen = sorted(set(seats))
        return f"double:{','.join(map(str, chosen))}" if chosen else PASS

    def obligation_text(self) -> str | None:
        """E.g. "You must double declarer in 2 of the remaining 3 deals of this series."; one
        whole sentence for each grammatical number."""
        if self.seat == self.declarer or self.needed == 0:
            return None
        if self.deals_left == 1:
            return "You must double declarer in this deal, the last of the series."
        if self.needed == 1:
            return (
                "You must double declarer in one of the remaining "
                f"{self.deals_left} deals of this series."
            )
        return (
            f"You must double declarer in {self.needed} of the remaining {self.deals_left} "
            "deals of this series."
        )
