"""One bot process per SQLite file.

Two copies of the bot on one database would both answer every click and both post
boards. Each process takes an exclusive OS lock on a file next to the database and
holds it for its lifetime; the kernel releases it when the process ends, even by
SIGKILL, so a crash never leaves a stale lock behind.

The lock file sits beside the database file itself, its symlinks resolved: a symlink
(to the file or to its folder) is another name for the same database, never a second
one. The database file is not locked directly: closing a descriptor of it would drop
the POSIX locks SQLite holds on it in this process.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path


class DatabaseInUse(Exception):
    """Another process already runs a bot on this database file."""


class DatabaseLock:
    """The held lock; ``release`` gives it up (closing the process does too)."""

    def __init__(self, descriptor: int, path: Path) -> None:
        self._descriptor: int | None = descriptor
        self.path = path

    def release(self) -> None:
        if self._descriptor is not None:
            os.close(self._descriptor)
            self._descriptor = None


def lock_path_for(database_path: str | Path) -> Path:
    path = Path(database_path).resolve()
    return path.with_name(path.name + ".lock")


def claim_database(database_path: str | Path) -> DatabaseLock | None:
    """Lock ``database_path`` for this process; raise DatabaseInUse if another holds it.

    An in-memory database (``:memory:``) belongs to one process anyway: None.
    """
    if str(database_path) == ":memory:":
        return None
    database_file = Path(database_path).resolve()
    path = lock_path_for(database_file)
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.read(descriptor, 32).decode(errors="replace").strip() or "another process"
        os.close(descriptor)
        named = str(database_path)
        if Path(database_path).absolute() != database_file:
            named += f" (the file {database_file})"
        raise DatabaseInUse(
            f"another copy of the bot (pid {holder}) is already running on {named}; "
            "stop it first, or give this copy its own DATABASE_PATH."
        ) from None
    os.ftruncate(descriptor, 0)
    os.write(descriptor, str(os.getpid()).encode())
    return DatabaseLock(descriptor, path)
