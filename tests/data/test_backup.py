"""``python -m data.backup`` and ``python -m data.restore``: a copy holds every row, the
database is the one the bot's settings name, and every refusal is one line that changes
nothing. (A backup taken during play, and a restore refused while the bot runs:
tests/e2e/test_backup_e2e.py.)"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from data import Seat, Store
from data.backup import main as backup
from data.restore import main as restore
from data.schema import MIGRATIONS

TABLES = ("games", "actions", "league_seasons", "league_results", "guild_settings")


async def _a_bot_database(path: Path, games: int) -> None:
    store = await Store.open(path)
    for channel in range(games):
        table = await store.create_table(
            kind="bann",
            guild_id=1,
            channel_id=channel,
            creator_id=3,
            seats=[Seat("Alice", 3), Seat("Bob", 4)],
            options={},
            seed=channel,
        )
        table.status = "active"
        await store.save(table, expected_version=0, actions=[(0, f"move {channel}")])
    await store.close()


def a_bot_database(path: Path, games: int = 3) -> Path:
    asyncio.run(_a_bot_database(path, games))
    return path


def everything(path: Path) -> dict[str, list[tuple]]:
    with sqlite3.connect(path) as db:
        return {
            table: db.execute(f"SELECT * FROM {table} ORDER BY 1").fetchall() for table in TABLES
        }


def one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    said = capsys.readouterr()
    lines = said.err.strip().splitlines()
    assert said.out == "" and len(lines) == 1, said
    assert lines[0].startswith("error: ")
    return lines[0]


def test_a_restored_backup_holds_every_row_and_both_say_what_they_copied(tmp_path, capsys):
    live = a_bot_database(tmp_path / "live.sqlite3")
    copy = tmp_path / "backup.sqlite3"
    fresh = tmp_path / "elsewhere" / "tablebot.sqlite3"

    assert backup([str(copy), "--database", str(live)]) == 0
    assert restore([str(copy), "--database", str(fresh)]) == 0

    said = capsys.readouterr().out.splitlines()
    assert said[0].startswith(f"backed up {live} into {copy}: 3 games (3 unfinished), 3 logged")
    assert said[1].startswith(f"restored {copy} into {fresh}: 3 games (3 unfinished), 3 logged")
    assert all(" kB, in " in line and line.endswith(" ms") for line in said)
    assert everything(fresh) == everything(live)


def test_the_commands_use_the_database_the_bots_settings_name(tmp_path, monkeypatch, capsys):
    live = a_bot_database(tmp_path / "live.sqlite3")
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("DATABASE_PATH", str(live))

    assert backup([str(tmp_path / "backup.sqlite3")]) == 0

    assert f"backed up {live} into" in capsys.readouterr().out
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "restored.sqlite3"))
    assert restore([str(tmp_path / "backup.sqlite3")]) == 0
    assert everything(tmp_path / "restored.sqlite3") == everything(live)


def test_a_backup_never_overwrites_a_file(tmp_path, capsys):
    live = a_bot_database(tmp_path / "live.sqlite3")
    earlier = tmp_path / "monday.sqlite3"
    earlier.write_bytes(b"last week's backup")

    assert backup([str(earlier), "--database", str(live)]) == 1

    assert one_error_line(capsys) == (
        f"error: {earlier} already exists: a backup never overwrites a file."
    )
    assert earlier.read_bytes() == b"last week's backup"


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (None, "there is no database file at"),
        (b"these are my notes, not a database" * 40, "is not an SQLite database"),
        ("other app", "is an SQLite database, but not the bot's"),
    ],
)
def test_a_backup_of_something_else_is_refused_and_writes_nothing(tmp_path, capsys, content, said):
    source = tmp_path / "source.sqlite3"
    if isinstance(content, bytes):
        source.write_bytes(content)
    elif content is not None:
        with sqlite3.connect(source) as db:
            db.execute("CREATE TABLE notes (text TEXT)")
    copy = tmp_path / "backup.sqlite3"

    assert backup([str(copy), "--database", str(source)]) == 1

    assert said in one_error_line(capsys)
    assert sorted(path.name for path in tmp_path.iterdir()) == (
        [] if content is None else ["source.sqlite3"]
    )


@pytest.mark.parametrize(("command", "tool"), [(backup, "pg_dump"), (restore, "pg_restore")])
def test_a_postgresql_database_is_pointed_to_its_own_tools(tmp_path, capsys, command, tool):
    url = "postgresql://tablebot:s3cret@127.0.0.1/tablebot"

    assert command([str(tmp_path / "backup"), "--database", url]) == 1

    line = one_error_line(capsys)
    assert tool in line and "s3cret" not in line and "README" in line
    assert list(tmp_path.iterdir()) == []


def test_a_restore_over_a_database_with_games_needs_replace(tmp_path, capsys):
    copy = a_bot_database(tmp_path / "backup.sqlite3", games=2)
    current = a_bot_database(tmp_path / "tablebot.sqlite3", games=5)
    before = everything(current)

    assert restore([str(copy), "--database", str(current)]) == 1

    assert one_error_line(capsys) == (
        f"error: {current} holds 5 games: add --replace to put the backup in their place."
        " Nothing was changed."
    )
    assert everything(current) == before

    assert restore([str(copy), "--database", str(current), "--replace"]) == 0

    assert "; it replaced 5 games (5 unfinished)" in capsys.readouterr().out
    assert everything(current) == everything(copy)


def test_a_backup_from_a_newer_release_is_not_restored(tmp_path, capsys):
    copy = a_bot_database(tmp_path / "backup.sqlite3")
    with sqlite3.connect(copy) as db:
        db.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    target = tmp_path / "tablebot.sqlite3"

    assert restore([str(copy), "--database", str(target)]) == 1

    line = one_error_line(capsys)
    assert f"schema version {len(MIGRATIONS) + 1}, newer than this release's" in line
    assert not target.exists()


def test_a_backup_that_cannot_be_written_is_one_line(tmp_path, capsys):
    live = a_bot_database(tmp_path / "live.sqlite3")
    blocker = tmp_path / "backups"
    blocker.write_text("a file where the folder would be")

    assert backup([str(blocker / "monday.sqlite3"), "--database", str(live)]) == 1

    assert one_error_line(capsys).startswith(f"error: cannot write the backup {blocker}")
    assert blocker.read_text() == "a file where the folder would be"


def test_a_backup_goes_into_a_new_folder(tmp_path, capsys):
    live = a_bot_database(tmp_path / "live.sqlite3")

    assert backup([str(tmp_path / "backups" / "monday.sqlite3"), "--database", str(live)]) == 0

    assert everything(tmp_path / "backups" / "monday.sqlite3") == everything(live)
    assert [p.name for p in (tmp_path / "backups").iterdir()] == ["monday.sqlite3"]
