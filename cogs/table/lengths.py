"""How long a table will play, as its lobby says before it starts (``games.length``): the
game's parts for the table's options, and a person's decision as long as this bot's
finished games of that kind measure it."""

from __future__ import annotations

import time

from data import Store, Table
from games import GAMES
from games.length import (
    ENTRIES_MEASURED,
    GAMES_MEASURED,
    Estimate,
    LoggedStep,
    decision_times,
    estimate,
    seconds_per_decision,
)
from texts.table import length_line

MEASURE_EVERY = 600.0
"""Seconds a kind's measured decision time is kept before the logs are read again: a
lobby is drawn at every seat taken, the logs of ten games change slowly."""


class GameLengths:
    """Estimates a table's length from the finished games in the database."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._measured: dict[str, tuple[float, float]] = {}

    async def estimate(self, table: Table) -> Estimate | None:
        """The length of ``table`` as it is seated, each seat still free taken by a
        person; None for a game that does not tell its length."""
        spec = GAMES[table.kind]
        if spec.length is None:
            return None
        computers = sum(1 for seat in table.seats if seat.is_computer)
        return estimate(
            spec.length(spec.with_defaults(table.options)),
            players=max(len(table.seats), spec.min_players),
            computers=computers,
            seconds_per_decision=await self.seconds_per_decision(table.kind),
        )

    async def line(self, table: Table) -> str | None:
        """The lobby's line: "28 deals · about 2 hours with 4 people"."""
        found = await self.estimate(table)
        return None if found is None else length_line(table.language, found)

    async def seconds_per_decision(self, kind: str) -> float:
        """A person's decision in ``kind``: the median of the newest finished games', or
        the default before there are enough of them."""
        now = time.monotonic()
        kept = self._measured.get(kind)
        if kept is not None and now - kept[0] < MEASURE_EVERY:
            return kept[1]
        times: list[float] = []
        for game in await self.store.finished_logs(kind, GAMES_MEASURED, ENTRIES_MEASURED):
            people = {index for index, seat in enumerate(game.seats) if not seat.is_computer}
            log = [LoggedStep(entry.seat, entry.action, entry.at) for entry in game.actions]
            times.extend(decision_times(log, people))
        measured = seconds_per_decision(times)
        self._measured[kind] = (now, measured)
        return measured
