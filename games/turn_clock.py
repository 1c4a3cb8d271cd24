"""Turn clocks: deadlines, the one reminder, what a timeout does, lobby expiry, pauses.

Pure rules on plain JSON-safe dicts (kept in a table's ``extra["clock"]``). The moment
"now" is always an argument, so the caller's clock decides what time it is and tests
move time forward without waiting.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games import GAMES
from games.base import N_, GameState

MINUTE = 60
HOUR = 60 * MINUTE
DAY = 24 * HOUR

CLOCK_CHOICES: dict[str, int] = {
    N_("5 minutes (brisk live table)"): 5 * MINUTE,
    N_("10 minutes (live table)"): 10 * MINUTE,
    N_("30 minutes (relaxed)"): 30 * MINUTE,
    N_("2 hours (on and off)"): 2 * HOUR,
    N_("1 day (correspondence)"): DAY,
    N_("3 days (correspondence, a week's game)"): 3 * DAY,
}
"""The time per decision a player can pick at ``/<game> new`` or a server as its default."""

DEFAULT_CLOCK = 10 * MINUTE
"""Long enough to fetch a drink or answer the door; short enough that three friends
waiting on a fourth get their game back within ten minutes."""

REMINDER_SHARE = 0.3
"""The one reminder comes when this share of the time per decision is left (three
minutes of ten): early enough to come back, late enough not to nag someone thinking."""

LOBBY_EXPIRY_CHOICES: dict[str, int] = {
    N_("15 minutes"): 15 * MINUTE,
    N_("1 hour"): HOUR,
    N_("6 hours"): 6 * HOUR,
    N_("1 day"): DAY,
}
DEFAULT_LOBBY_EXPIRY = HOUR
"""A lobby nobody started within an hour has been forgotten; the channel is freed."""

MAX_PAUSE = 7 * DAY
"""A paused game nobody resumes within a week is abandoned unrated."""


def clock_for(kind: str, server_clocks: dict[str, int]) -> int:
    """The time per decision of a new table of ``kind``: the server's, else the default."""
    return server_clocks.get(kind, DEFAULT_CLOCK)


def timeout_outcome(kind: str) -> str:
    """What a run-out clock does in game ``kind``, as its spec declares: "loss" (the
    absent player loses on time) or "substitute" (a computer takes the seat)."""
    return GAMES[kind].on_timeout


def progress_marker(kind: str, state: GameState) -> int | None:
    """The deal or round a game is in, so a table of substitutes stops after it ends."""
    return GAMES[kind].progress_marker(state)


@dataclass(frozen=True)
class Due:
    """What the scheduler must do for a table now."""

    kind: str  # "remind", "expire", "pause_over" or "lobby_expired"
    seat: int | None = None


def new_clock(seconds: int) -> dict[str, Any]:
    return {"seconds": int(seconds), "seat": None, "deadline": None, "reminded": False}


def start_turn(clock: dict[str, Any], seat: int | None, now: float) -> dict[str, Any]:
    """The clock after ``seat`` is to decide from ``now`` (None: nobody human is waited on).

    A paused clock keeps running its pause: the decision's time starts at the resume.
    """
    fresh = dict(clock)
    fresh["seat"] = seat
    fresh["reminded"] = False
    if fresh.get("paused_since") is not None:
        fresh["deadline"] = None
        fresh["remaining"] = fresh["seconds"] if seat is not None else None
        return fresh
    fresh["deadline"] = now + fresh["seconds"] if seat is not None else None
    return fresh


def due_at(clock: dict[str, Any] | None) -> float | None:
    """The next moment something happens to this clock (None: nothing will)."""
    if not clock:
        return None
    if clock.get("paused_since") is not None:
        return float(clock["paused_since"]) + MAX_PAUSE
    deadline = clock.get("deadline")
    if deadline is None:
        return None
    if not clock.get("reminded"):
        return float(deadline) - REMINDER_SHARE * float(clock["seconds"])
    return float(deadline)


def what_is_due(clock: dict[str, Any] | None, now: float) -> Due | None:
    at = due_at(clock)
    if clock is None or at is None or at > now:
        return None
    if clock.get("paused_since") is not None:
        return Due("pause_over")
    if now >= clock["deadline"]:
        return Due("expire", clock["seat"])
    return Due("remind", clock["seat"])


def reminded(clock: dict[str, Any]) -> dict[str, Any]:
    return {**clock, "reminded": True}


def lobby_due(created_at: float, expiry: int) -> float:
    return created_at + expiry


# ---- pause by agreement ------------------------------------------------------------


def propose_pause(clock: dict[str, Any], seat: int) -> dict[str, Any]:
    return {**clock, "pause_votes": [seat]}


def accept_pause(clock: dict[str, Any], seat: int) -> dict[str, Any]:
    votes = sorted({*clock.get("pause_votes", []), seat})
    return {**clock, "pause_votes": votes}


def pause_agreed(clock: dict[str, Any], human_seats: list[int]) -> bool:
    return set(human_seats) <= set(clock.get("pause_votes", []))


def pause(clock: dict[str, Any], now: float) -> dict[str, Any]:
    """Stop the clock, keeping the time the seat to act has left."""
    deadline = clock.get("deadline")
    remaining = max(0.0, deadline - now) if deadline is not None else None
    paused = {**clock, "paused_since": now, "remaining": remaining, "deadline": None}
    paused.pop("pause_votes", None)
    return paused


def resume(clock: dict[str, Any], now: float) -> dict[str, Any]:
    """Run the clock again; the seat to act gets the time it had left when paused."""
    remaining = clock.get("remaining")
    resumed = {
        key: value for key, value in clock.items() if key not in ("paused_since", "remaining")
    }
    resumed["deadline"] = now + remaining if remaining is not None else None
    if remaining is not None and remaining <= REMINDER_SHARE * clock["seconds"]:
        # A reminder already sent, or due while paused, is not sent again on resuming.
        resumed["reminded"] = True
    return resumed


def is_paused(clock: dict[str, Any] | None) -> bool:
    return clock is not None and clock.get("paused_since") is not None
