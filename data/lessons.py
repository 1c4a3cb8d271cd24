"""Each member's progress in the lessons: which step of which game's lesson, the moves
made in that step, and whether it is solved. It names nothing but the member and a
game's key, and lives beside his other data (``data/members.py`` shows and forgets it).

A change is saved only over the version it was made from (``StaleVersion`` otherwise), so
two quick taps on one lesson's controls apply once. The version counts the member's
changes over all his lessons: a control carries it, and finds its lesson again by it.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, replace

from data.sql import IntegrityError, Row
from data.store import StaleVersion, Store

_COLUMNS = "user_id, kind, step, moves, solved, version"


@dataclass(frozen=True)
class LessonProgress:
    """Where a member stands in one game's lesson."""

    user_id: int
    kind: str
    step: int = 0
    moves: tuple[str, ...] = ()
    """Every action played in the step since its position, the other seats' included."""
    solved: bool = False
    version: int = 0
    """0 for progress not saved yet."""

    def at(self, step: int, moves: tuple[str, ...] = (), *, solved: bool = False) -> LessonProgress:
        """The same lesson at another step, moves and solution (unsaved until ``save``)."""
        return replace(self, step=step, moves=moves, solved=solved)


def _progress(row: Row) -> LessonProgress:
    return LessonProgress(
        user_id=row["user_id"],
        kind=row["kind"],
        step=row["step"],
        moves=tuple(json.loads(row["moves"])),
        solved=bool(row["solved"]),
        version=row["version"],
    )


class LessonBook:
    """Reads and writes the lesson_progress rows on the store's database."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def get(self, user_id: int, kind: str) -> LessonProgress | None:
        row = await self._store.db.fetchrow(
            f"SELECT {_COLUMNS} FROM lesson_progress WHERE user_id = ? AND kind = ?",
            user_id,
            kind,
        )
        return _progress(row) if row else None

    async def at_version(self, user_id: int, version: int) -> LessonProgress | None:
        """The member's lesson whose controls were drawn at ``version``, if it is still there."""
        row = await self._store.db.fetchrow(
            f"SELECT {_COLUMNS} FROM lesson_progress WHERE user_id = ? AND version = ?",
            user_id,
            version,
        )
        return _progress(row) if row else None

    async def of_member(self, user_id: int) -> list[LessonProgress]:
        rows = await self._store.db.fetch(
            f"SELECT {_COLUMNS} FROM lesson_progress WHERE user_id = ? ORDER BY kind", user_id
        )
        return [_progress(row) for row in rows]

    async def save(self, progress: LessonProgress) -> LessonProgress:
        """Write ``progress`` over the version it was read at (0: a lesson not begun);
        the saved progress with its new version. StaleVersion if the lesson changed
        meanwhile (another tap, another process), changing nothing."""
        try:
            async with self._store.transaction() as db:
                await db.lock(f"lessons:{progress.user_id}")
                newest = await db.fetchval(
                    "SELECT COALESCE(MAX(version), 0) FROM lesson_progress WHERE user_id = ?",
                    progress.user_id,
                )
                saved = replace(progress, version=int(newest) + 1)
                values = (
                    saved.step,
                    json.dumps(list(saved.moves)),
                    int(saved.solved),
                    saved.version,
                    time.time(),
                )
                if progress.version == 0:
                    changed = await db.execute(
                        "INSERT INTO lesson_progress"
                        " (step, moves, solved, version, updated_at, user_id, kind)"
                        " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, kind) DO NOTHING",
                        *values,
                        progress.user_id,
                        progress.kind,
                    )
                else:
                    changed = await db.execute(
                        "UPDATE lesson_progress SET step = ?, moves = ?, solved = ?, version = ?,"
                        " updated_at = ? WHERE user_id = ? AND kind = ? AND version = ?",
                        *values,
                        progress.user_id,
                        progress.kind,
                        progress.version,
                    )
                if changed != 1:
                    raise StaleVersion(f"the {progress.kind} lesson of {progress.user_id} moved on")
        except IntegrityError:
            raise StaleVersion(f"the lessons of {progress.user_id} moved on") from None
        return saved

    async def forget(self, user_id: int) -> int:
        """Delete every lesson of the member; how many there were."""
        return await self._store.db.write("DELETE FROM lesson_progress WHERE user_id = ?", user_id)
