"""How long a table will play, estimated before it starts: its parts (deals, rounds) times
the decisions a part takes (a fact of the game, ``GameSpec.length``) times the time a
person takes for a decision, as measured in this bot's finished games.

Pure functions on plain values: storage hands over the finished games' action logs, the
Discord layer says the result in words.

A decision's time is read from an action log's timestamps: every save of a table writes
its actions with one timestamp, so a save that begins with a person's action ends a
decision that took the time since the save before it (the computers' answers and the
cards that played themselves are saved with it and take no time of their own). The
median of those gaps shrugs off the few long ones (a night, a pause, a door bell).
"""

from __future__ import annotations

import statistics
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from games.base import TABLE_EVENT, Length
from games.turn_clock import DAY, HOUR, MINUTE

DEFAULT_SECONDS_PER_DECISION = 7.0
"""A person's decision when this bot has measured none: a duplicate bridge club allows
7 to 7½ minutes for a board, its auction and 52 cards, some 60 decisions in all, so
about 7 seconds each."""
MEASURED_AT_LEAST = 20
"""Decisions measured before their median replaces the default: fewer are too few."""
GAMES_MEASURED = 10
"""The newest finished games of a kind whose logs are measured, ENTRIES_MEASURED of their
log entries at most: decisions enough for a steady median, few enough to read in a few
milliseconds (ten whole Barbu games are 16,000 entries)."""
ENTRIES_MEASURED = 2000


@dataclass(frozen=True)
class LoggedStep:
    """One entry of a finished game's action log: who acted, what, and when."""

    seat: int | None
    action: str
    at: float


@dataclass(frozen=True)
class Estimate:
    """A table's length: its parts and about how many seconds they take."""

    length: Length
    seconds: int
    """Rounded as a person says it (``readable``)."""
    people: int
    computers: int


def decision_times(log: Sequence[LoggedStep], people: Collection[int]) -> list[float]:
    """The seconds each decision of a person took in one game (seats in ``people``).

    The first save has nothing before it to be measured from; a table event (a
    resignation, a seat taken over) is nobody's decision.
    """
    times: list[float] = []
    previous: float | None = None
    for index, step in enumerate(log):
        starts_a_save = index == 0 or log[index - 1].at != step.at
        if not starts_a_save:
            continue
        decided = step.seat in people and not step.action.startswith(TABLE_EVENT)
        if previous is not None and decided:
            times.append(step.at - previous)
        previous = step.at
    return times


def seconds_per_decision(times: Iterable[float]) -> float:
    """The median of the measured decisions, or the default for fewer than
    MEASURED_AT_LEAST of them."""
    measured = list(times)
    if len(measured) < MEASURED_AT_LEAST:
        return DEFAULT_SECONDS_PER_DECISION
    return float(statistics.median(measured))


def estimate(
    length: Length, *, players: int, computers: int, seconds_per_decision: float
) -> Estimate:
    """The time of a table of ``players`` seats, ``computers`` of them computers: the
    people's share of every part's decisions, each taking ``seconds_per_decision`` (a
    computer's take no time worth telling)."""
    people = players - computers
    decisions = length.parts * length.decisions_per_part * people / players
    seconds = readable(decisions * seconds_per_decision)
    return Estimate(length, seconds, people, computers)


def readable(seconds: float) -> int:
    """``seconds`` rounded as a person says a rough time: to five minutes under an
    hour (five at least), to whole hours under two days, else to whole days."""
    if seconds < HOUR - 2.5 * MINUTE:
        return max(5, round(seconds / (5 * MINUTE)) * 5) * MINUTE
    if seconds < 2 * DAY - HOUR / 2:
        return max(1, round(seconds / HOUR)) * HOUR
    return round(seconds / DAY) * DAY
