"""What the table machinery logs besides the moves, as a record's check replays it.

The bot writes these events into a game's log next to the moves (``cogs/``): a
resignation, a loss on time, a computer taking the seat of a player whose clock ran out and
the player taking it back, a pause by agreement and its end, an abandoned game, and a hint
the player to act asked for (in a game with hints on, which the league leaves unrated). The
rules never see them (``games.base.TABLE_EVENT``); ``TableEvents`` follows them through a
record the way the bot applies them, so a record cannot claim one the bot never logs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.base import GameSpec, GameState, Step

RESIGN = "!resign"
TIMEOUT = "!timeout"
AWAY = "!away"
BACK = "!back"
PAUSE = "!pause"
RESUME = "!resume"
ABANDON = "!abandon"
HINT = "!hint"

EVENTS = (RESIGN, TIMEOUT, AWAY, BACK, PAUSE, RESUME, ABANDON, HINT)
ENDINGS = {RESIGN: "finished", TIMEOUT: "finished", ABANDON: "aborted"}
"""The events that end a game, each with the status the game is stored with after it."""


class ImpossibleEvent(ValueError):
    """A logged line the bot could not have logged where it stands; says why."""


@dataclass
class TableEvents:
    """A table as the events of its log so far leave it."""

    spec: GameSpec[Any]
    away: set[int] = field(default_factory=set)
    """The seats a computer plays since their player's clock ran out."""
    paused: bool = False
    ended_by: str | None = None

    def follow(self, step: Step) -> None:
        """Take one logged line; raise ``ImpossibleEvent`` if the bot could not log it
        after the lines before it."""
        if self.ended_by is not None:
            raise ImpossibleEvent(f"the game had already ended with “{self.ended_by}”")
        if step.before.is_over:
            raise ImpossibleEvent("the game was already over")
        if not step.is_table_event:
            if self.paused:
                raise ImpossibleEvent("the game was paused: nobody plays before “!resume”")
            return
        if step.action not in EVENTS:
            raise ImpossibleEvent("the bot logs no such table event")
        if step.action == ABANDON:
            self._abandon(step.seat)
            return
        seat = _seated(step)
        if step.action == RESIGN:
            self.ended_by = RESIGN
        elif step.action in (TIMEOUT, AWAY):
            self._clock_ran_out(step.action, seat, step.before)
        elif step.action == BACK:
            self._back(seat)
        elif step.action == HINT:
            self._hint(seat, step.before)
        else:
            self._pause_or_resume(step.action)

    def status(self, is_over: bool) -> str | None:
        """The status the bot stores a game with when its log ends here; None while the
        game runs on."""
        if self.ended_by is not None:
            return ENDINGS[self.ended_by]
        if is_over:
            return "finished"
        # A table whose every human player ran out of time ends unrated after its deal.
        return "aborted" if self.away else None

    def _back(self, seat: int) -> None:
        if seat not in self.away:
            raise ImpossibleEvent(f"no computer played seat {seat}, so it had no seat to take back")
        self.away.remove(seat)

    def _hint(self, seat: int, before: GameState) -> None:
        """A hint is given to the player whose turn it is, on a board he may play on."""
        if self.paused:
            raise ImpossibleEvent("the game was paused: nobody asks for a hint before “!resume”")
        if seat != before.current_player:
            raise ImpossibleEvent(
                f"only the seat to act gets a hint, and seat {before.current_player} was to act"
            )
        if seat in self.away:
            raise ImpossibleEvent(f"a computer played seat {seat}, so it asked for no hint")

    def _pause_or_resume(self, event: str) -> None:
        pausing = event == PAUSE
        if pausing and self.paused:
            raise ImpossibleEvent("the game was already paused")
        if not pausing and not self.paused:
            raise ImpossibleEvent("the game was not paused")
        self.paused = pausing

    def _abandon(self, seat: int | None) -> None:
        if seat is not None:
            raise ImpossibleEvent(f"an abandoned game is logged for no seat (“-”), not seat {seat}")
        self.ended_by = ABANDON

    def _clock_ran_out(self, event: str, seat: int, before: GameState) -> None:
        """A loss on time or a computer taking the seat, whichever the game's rules say a
        clock that runs out does."""
        if self.spec.on_timeout != {TIMEOUT: "loss", AWAY: "substitute"}[event]:
            outcome = {"loss": "the player loses", "substitute": "a computer takes the seat"}
            raise ImpossibleEvent(
                f"when a clock runs out in {self.spec.title}, {outcome[self.spec.on_timeout]}"
            )
        if self.paused:
            raise ImpossibleEvent("the game was paused, so no clock ran")
        if seat != before.current_player:
            raise ImpossibleEvent(
                f"only the clock of the seat to act runs, and seat {before.current_player} was"
                " to act"
            )
        if seat in self.away:
            raise ImpossibleEvent(f"a computer played seat {seat}, so its clock did not run")
        if event == TIMEOUT:
            self.ended_by = TIMEOUT
        else:
            self.away.add(seat)


def _seated(step: Step) -> int:
    if step.seat is None:
        raise ImpossibleEvent("the bot logs this event for the seat it happened to, not “-”")
    return step.seat
