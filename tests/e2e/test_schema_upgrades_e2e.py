"""Upgrades: a database a newer release has upgraded stops today's bot with one line."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

from testdb import TestDatabase, both_engines

from data import Store
from data.schema import MIGRATIONS

ROOT = Path(__file__).resolve().parents[2]
NEWER = len(MIGRATIONS) + 1


async def _migrated(target: str) -> None:
    await (await Store.open(target)).close()


def schema_version(database: TestDatabase) -> int:
    if database.engine == "sqlite":
        return int(database.rows("PRAGMA user_version")[0]["user_version"])
    return int(database.rows("SELECT version FROM schema_version")[0]["version"])


def set_schema_version(database: TestDatabase, version: int) -> None:
    if database.engine == "sqlite":
        database.run(f"PRAGMA user_version = {version}")
    else:
        database.run("UPDATE schema_version SET version = ?", version)


def start_the_bot(database: TestDatabase, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``python bot.py`` with a token and the database in its settings, as an operator."""
    settings = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DATABASE_PATH")}
    setting = "DATABASE_PATH" if database.engine == "sqlite" else "DATABASE_URL"
    return subprocess.run(
        [sys.executable, str(ROOT / "bot.py")],
        cwd=cwd,
        env=settings | {setting: database.target, "DISCORD_TOKEN": "stops-before-discord"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@both_engines()
def test_a_database_from_a_newer_release_stops_the_bot_with_one_line(database, tmp_path):
    asyncio.run(_migrated(database.target))
    set_schema_version(database, NEWER)
    games_before = database.rows("SELECT * FROM games")

    finished = start_the_bot(database, tmp_path)

    assert finished.returncode == 2
    lines = finished.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in finished.stderr, finished.stderr
    assert lines[0].startswith("error: the database ")
    assert (
        f"is at schema version {NEWER}, newer than this release's {len(MIGRATIONS)}: a newer"
        " release of the bot has upgraded it; run that release, or restore a backup made"
        " before the upgrade." in lines[0]
    )
    assert (
        schema_version(database) == NEWER and database.rows("SELECT * FROM games") == games_before
    )
