"""Back up the bot's SQLite database while the bot runs.

    python -m data.backup PATH [--database FILE]

The database is the one the bot opens (``DATABASE_PATH``, from the environment or
``.env``; ``--database`` names another). The copy is consistent: it holds every move
saved before it began and none half-saved (data.snapshots). A PostgreSQL database is
backed up with ``pg_dump`` (README, "Backups").
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from dotenv import load_dotenv

from data.location import database_from_env
from data.snapshots import CopyRefused, back_up, duration
from data.sql import is_postgres_url, redacted

POSTGRESQL = "is a PostgreSQL database: back it up with pg_dump -Fc (README, Backups)."


def main(argv: Sequence[str] | None = None) -> int:
    load_dotenv()
    parser = argparse.ArgumentParser(
        prog="python -m data.backup", description="Copy the bot's SQLite database, live."
    )
    parser.add_argument("path", type=Path, help="the new backup file")
    parser.add_argument(
        "--database", default=database_from_env(), help="the bot's database (its settings')"
    )
    arguments = parser.parse_args(argv)
    if is_postgres_url(arguments.database):
        print(f"error: {redacted(arguments.database)} {POSTGRESQL}", file=sys.stderr)
        return 1
    source = Path(arguments.database)
    try:
        copied = back_up(source, arguments.path)
    except CopyRefused as refused:
        print(f"error: {refused}", file=sys.stderr)
        return 1
    print(
        f"backed up {source} into {arguments.path}: {copied.contents.describe()},"
        f" in {duration(copied.seconds)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
