"""Check a game record exported with ``/game export``::

    python -m games.verify game-42.txt

Recomputes the commitment from the revealed seed, replays every action with the open
rules and every table event (a resignation, a pause, ...) as the bot applies it,
re-derives every die and shuffle, and prints "verified" (exit status 0) or the first line
where the record differs (exit status 1), whatever the file holds.
"""

from __future__ import annotations

import sys
from pathlib import Path

from games.proof import RecordError, verify_record


def main(arguments: list[str]) -> int:
    if len(arguments) != 1:
        print("usage: python -m games.verify <record.txt>", file=sys.stderr)
        return 2
    try:
        text = Path(arguments[0]).read_bytes().decode("utf-8-sig")
    except OSError as unreadable:
        print(f"cannot read {arguments[0]}: {unreadable.strerror}", file=sys.stderr)
        return 2
    except UnicodeDecodeError as garbled:
        print(f"NOT verified: byte {garbled.start}: not UTF-8 text, so not a game record")
        return 1
    try:
        print(verify_record(text))
    except RecordError as difference:
        print(f"NOT verified: {difference}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
