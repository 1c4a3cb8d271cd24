"""Whole copies of an SQLite database through SQLite's online backup API: what
``python -m data.backup`` and ``python -m data.restore`` do.

The copy is made in one step, so it reads the source in one read transaction: in WAL
mode the running bot's writes go on meanwhile, and the copy holds exactly the
transactions committed before it began, each one whole (a move's new state together
with its logged actions). A file copy (``cp``) of a live database can mix pages of two
moments and misses what still sits in the ``-wal`` file.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from data.schema import MIGRATIONS
from data.single_instance import DatabaseInUse, claim_database

# How long a copy waits for SQLite's locks (a checkpoint, a recovery) before giving up.
BUSY_SECONDS = 30


class CopyRefused(Exception):
    """The copy cannot be made; the message says why, and nothing was changed."""


@dataclass(frozen=True)
class Contents:
    """What a database file holds, for the commands' report."""

    games: int
    unfinished: int
    actions: int
    schema: int
    size: int
    """The file's size in bytes."""

    def describe(self) -> str:
        return (
            f"{self.games:,} games ({self.unfinished:,} unfinished), {self.actions:,} logged"
            f" actions, schema {self.schema}, {_size(self.size)}"
        )


@dataclass(frozen=True)
class Copied:
    contents: Contents
    seconds: float
    replaced: Contents | None = None
    """What the restored-over database held, if it held anything."""


def _size(size: int) -> str:
    return f"{size / 1000:,.0f} kB" if size < 1_000_000 else f"{size / 1_000_000:,.1f} MB"


def duration(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.1f} s"


def back_up(source: Path, destination: Path) -> Copied:
    """Copy the live database ``source`` into the new file ``destination``."""
    if destination.exists():
        raise CopyRefused(f"{destination} already exists: a backup never overwrites a file.")
    _check_tablebot_database(source)
    # Written under another name and renamed when whole: a half-made backup never passes
    # for a backup.
    partial = destination.with_name(f".{destination.name}.partial")
    started = time.perf_counter()
    try:
        destination.parent.mkdir(parents=True, exist_ok=True)
        partial.unlink(missing_ok=True)
        with _reading(source) as live, _writing(partial) as copy:
            live.backup(copy)
            # One self-contained file: no -wal beside it to carry away.
            copy.execute("PRAGMA journal_mode=DELETE").fetchall()
            _check_intact(copy, partial)
        partial.replace(destination)
    except (OSError, sqlite3.Error) as failed:
        raise CopyRefused(f"cannot write the backup {destination}: {failed}") from None
    finally:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
    return Copied(contents_of(destination), time.perf_counter() - started)


def restore(backup: Path, target: Path, *, replace: bool) -> Copied:
    """Put the backup ``backup`` in place as the database ``target``; refused while a bot
    runs on ``target``, and, unless ``replace``, when ``target`` already holds games."""
    _check_tablebot_database(backup)
    with _reading(backup) as db:
        _check_intact(db, backup)
    restored = contents_of(backup)
    if restored.schema > len(MIGRATIONS):
        raise CopyRefused(
            f"{backup} is at schema version {restored.schema}, newer than this release's"
            f" {len(MIGRATIONS)}: restore it with the release that made it."
        )
    target.parent.mkdir(parents=True, exist_ok=True)
    # The bot's own lock on the file: no bot runs on it, or starts on it while it is
    # being replaced.
    try:
        lock = claim_database(target)
    except DatabaseInUse:
        raise CopyRefused(f"a bot is running on {target}: stop it first, then restore.") from None
    try:
        replaced = _replaced_contents(target)
        if replaced is not None and replaced.games and not replace:
            raise CopyRefused(
                f"{target} holds {replaced.games:,} games: add --replace to put the backup in"
                " their place."
            )
        started = time.perf_counter()
        try:
            with _reading(backup) as source, _writing(target) as live:
                source.backup(live)
        except sqlite3.Error as failed:
            # The copy is one write transaction of the target: it is whole or not there.
            raise CopyRefused(f"cannot write {target}: {failed}.") from None
    finally:
        if lock is not None:
            lock.release()
    return Copied(contents_of(target), time.perf_counter() - started, replaced)


def contents_of(path: Path) -> Contents:
    with _reading(path) as db:
        games, unfinished = db.execute(
            "SELECT COUNT(*), COUNT(*) FILTER (WHERE status IN ('lobby', 'active')) FROM games"
        ).fetchone()
        actions = db.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
        schema = db.execute("PRAGMA user_version").fetchone()[0]
    return Contents(games, unfinished, actions, schema, path.stat().st_size)


def _check_tablebot_database(path: Path) -> None:
    if not path.is_file():
        raise CopyRefused(f"there is no database file at {path}.")
    try:
        with _reading(path) as db:
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
    except sqlite3.DatabaseError as unreadable:
        raise CopyRefused(f"{path} is not an SQLite database ({unreadable}).") from None
    if not {"games", "actions"} <= tables:
        raise CopyRefused(f"{path} is an SQLite database, but not the bot's: it has no games.")


def _replaced_contents(target: Path) -> Contents | None:
    """What ``target`` holds now: None if there is nothing there yet."""
    if not target.exists() or target.stat().st_size == 0:
        return None
    _check_tablebot_database(target)
    return contents_of(target)


def _check_intact(db: sqlite3.Connection, path: Path) -> None:
    verdict = db.execute("PRAGMA quick_check").fetchall()
    if verdict != [("ok",)]:
        raise CopyRefused(f"{path} fails SQLite's integrity check: {verdict[0][0]}")


@contextlib.contextmanager
def _reading(path: Path) -> Iterator[sqlite3.Connection]:
    """A read-only connection to an existing file (never created, never written)."""
    uri = f"file:{quote(str(path.resolve()))}?mode=ro"
    db = sqlite3.connect(uri, uri=True, timeout=BUSY_SECONDS)
    try:
        yield db
    finally:
        db.close()


@contextlib.contextmanager
def _writing(path: Path) -> Iterator[sqlite3.Connection]:
    db = sqlite3.connect(path, timeout=BUSY_SECONDS)
    try:
        yield db
    finally:
        db.close()
