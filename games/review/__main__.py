"""Review a game record exported with ``/game export``::

    python -m games.review game-42.txt [--json]

Checks the record first (as ``python -m games.verify`` does) and refuses one that does
not verify (exit status 1). Then prints one line per judged decision (index, seat,
played, best, value lost, mark) and a summary per seat, or with ``--json`` the same as
``{"decisions": [...], "seats": [...]}``, byte for byte the same on every machine.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from games.proof import RecordError
from games.review import review_record
from games.review.model import Review, rounded


def as_json(review: Review) -> str:
    """The review in the shape others build on (issue 30 §6)."""
    data: dict[str, Any] = {
        "decisions": [
            {
                "index": judgement.index,
                "seat": judgement.seat,
                "played": judgement.played,
                "best": judgement.best,
                "loss": rounded(judgement.loss),
                "mark": judgement.mark,
            }
            for judgement in review.judgements
        ],
        "seats": [
            {
                "seat": seat.seat,
                "decisions": seat.decisions,
                "error_rate": rounded(seat.error_rate),
                "accuracy": rounded(seat.accuracy),
                "marks": dict(seat.marks),
                "luck": rounded(seat.luck),
            }
            for seat in review.seats
        ],
    }
    return json.dumps(data, ensure_ascii=False)


def as_text(review: Review) -> str:
    lines = []
    for judgement in review.judgements:
        mark = judgement.mark or "-"
        lines.append(
            f"{judgement.index}. seat {judgement.seat}: played {judgement.played} | best"
            f" {judgement.best} | lost {judgement.loss:.4f} | {mark}"
        )
    for seat in review.seats:
        marks = ", ".join(f"{count} {mark}" for mark, count in seat.marks.items())
        # rounded: a Barree seat without minus points has a result of -0.0, shown as "-0"
        lines.append(
            f"seat {seat.seat}: {seat.decisions} decisions, error rate {seat.error_rate:.4f},"
            f" accuracy {seat.accuracy:.1f}, {marks}; luck {seat.luck:+.4f}, result"
            f" {rounded(seat.result):g}, luck-adjusted {seat.luck_adjusted:+.4f}"
        )
    return "\n".join(lines)


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.review", description=__doc__)
    parser.add_argument("record", help="a game record written by /game export")
    parser.add_argument("--json", action="store_true", help="print the review as JSON")
    options = parser.parse_args(arguments)
    try:
        text = Path(options.record).read_bytes().decode("utf-8-sig")
    except OSError as unreadable:
        print(f"cannot read {options.record}: {unreadable.strerror}", file=sys.stderr)
        return 2
    except UnicodeDecodeError as garbled:
        print(f"NOT reviewed: byte {garbled.start}: not UTF-8 text, so not a game record")
        return 1
    try:
        review = review_record(text)
    except RecordError as difference:
        print(f"NOT reviewed: the record does not verify: {difference}")
        return 1
    except LookupError as missing:
        print(f"NOT reviewed: {missing}")
        return 1
    print(as_json(review) if options.json else as_text(review))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
