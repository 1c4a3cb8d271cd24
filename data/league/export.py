"""The league's results as a file: one CSV row per seat of every recorded game."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from data.league.records import FORFEIT_ON_TIME, RecordedResult, SeatResult

EXPORT_HEADER = (
    "game_id",
    "game",
    "finished_at",
    "rated",
    "seat",
    "user_id",
    "name",
    "placement",
    "outcome",
    "points",
    "forfeit",
    "rating_before",
    "rating_after",
    "link",
)


def results_csv(
    results: Sequence[RecordedResult], link_of: Callable[[RecordedResult], str | None]
) -> str:
    """One CSV row per seat of each of ``results``, in their order, under EXPORT_HEADER;
    ``link_of`` gives the link column (the caller knows where boards are shown)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(EXPORT_HEADER)
    for result in results:
        link = link_of(result)
        for seat in result.seats:
            writer.writerow(_export_row(result, seat, link))
    return buffer.getvalue()


def _export_row(result: RecordedResult, seat: SeatResult, link: str | None) -> list[Any]:
    finished = datetime.fromtimestamp(result.finished_at, UTC).isoformat(timespec="seconds")
    return [
        result.game_id,
        result.kind,
        finished,
        int(result.rated),
        seat.seat,
        "" if seat.user_id is None else seat.user_id,
        seat.name,
        seat.placement,
        seat.outcome,
        f"{seat.points:g}",
        FORFEIT_ON_TIME if seat.on_time else int(seat.forfeit),
        "" if seat.rating_before is None else seat.rating_before,
        "" if seat.rating_after is None else seat.rating_after,
        link or "",
    ]
