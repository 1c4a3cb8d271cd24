"""Put a backup made by ``python -m data.backup`` back as the bot's SQLite database.

    python -m data.restore BACKUP [--database FILE] [--replace]

The database is the one the bot opens (``DATABASE_PATH``, from the environment or
``.env``; ``--database`` names another). Refused while a bot runs on it, and, unless
``--replace`` is given, when it already holds games. The bot upgrades a backup made by
an older release when it starts on it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from dotenv import load_dotenv

from data.location import database_from_env
from data.snapshots import CopyRefused, duration, restore
from data.sql import is_postgres_url, redacted

POSTGRESQL = "is a PostgreSQL database: restore its dump with pg_restore (README, Backups)."


def main(argv: Sequence[str] | None = None) -> int:
    load_dotenv()
    parser = argparse.ArgumentParser(
        prog="python -m data.restore", description="Put a backup back as the bot's database."
    )
    parser.add_argument("backup", type=Path, help="the backup file")
    parser.add_argument(
        "--database", default=database_from_env(), help="the bot's database (its settings')"
    )
    parser.add_argument(
        "--replace", action="store_true", help="replace a database that holds games"
    )
    arguments = parser.parse_args(argv)
    if is_postgres_url(arguments.database):
        print(f"error: {redacted(arguments.database)} {POSTGRESQL}", file=sys.stderr)
        return 1
    target = Path(arguments.database)
    try:
        copied = restore(arguments.backup, target, replace=arguments.replace)
    except CopyRefused as refused:
        print(f"error: {refused} Nothing was changed.", file=sys.stderr)
        return 1
    replaced = "" if copied.replaced is None else f"; it replaced {copied.replaced.describe()}"
    print(
        f"restored {arguments.backup} into {target}: {copied.contents.describe()},"
        f" in {duration(copied.seconds)}{replaced}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
