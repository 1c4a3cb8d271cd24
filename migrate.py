"""Move a bot's SQLite database into PostgreSQL.

    python -m migrate --to postgresql://user@host/db [--from tablebot.sqlite3]

The copy itself is ``data.copy_to_postgres`` (the numbered schema migrations, which both
databases get on opening, are ``data.schema``); this command adds the games, which replay
every copied game's action log so that nothing is committed unless every game checks out.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Sequence
from typing import Any

from data.copy_to_postgres import MigrationRefused, copy_to_postgres
from data.sql import DatabaseUnavailable
from games import GAMES, replay


def replays_to_stored(
    kind: str,
    players: int,
    seed: int,
    options: dict[str, Any],
    actions: list[str],
    stored: dict[str, Any],
) -> bool | None:
    """Whether a game's action log replays to its stored snapshot, read by today's rules
    (so a snapshot an older release wrote, before a field was added, still compares);
    None for a game this bot does not host."""
    if kind not in GAMES:
        return None
    replayed = replay(kind, players=players, seed=seed, options=options, actions=actions)
    return bool(replayed.to_dict() == GAMES[kind].from_dict(stored).to_dict())


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m migrate", description="Copy the SQLite database into PostgreSQL."
    )
    parser.add_argument("--to", required=True, help="the PostgreSQL URL (postgresql://…)")
    parser.add_argument(
        "--from",
        dest="source",
        default=os.environ.get("DATABASE_PATH") or "tablebot.sqlite3",
        help="the SQLite file (default: DATABASE_PATH or tablebot.sqlite3)",
    )
    arguments = parser.parse_args(argv)
    try:
        report = asyncio.run(copy_to_postgres(arguments.source, arguments.to, replays_to_stored))
    except (MigrationRefused, DatabaseUnavailable) as refused:
        print(f"error: {refused}", file=sys.stderr)
        return 1
    copied = ", ".join(f"{count} {table}" for table, count in report.rows.items())
    print(f"copied {copied}; {report.games_checked} game(s) replayed and verified.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
