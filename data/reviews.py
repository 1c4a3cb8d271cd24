"""Stored game reviews and the members' answers to puzzles.

A review (``/game review``) is worked out once per ended game and kept as the JSON the
review engine writes, with the engine's version: a second request reads it back at once,
and a review made by another engine version counts as missing, so it is made anew. A
review knows seats by their number only, never a member.

A puzzle answer names the member (``user_id``) on a server: only his first answer to a
puzzle is kept, so trying again after being shown the best move counts nothing. It
belongs to no one else's record: forgetting him deletes it (``data/members.py``
lists and deletes the rows).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from data.store import Store

IN_CLAUSE = 500
"""Game ids per ``IN (…)`` list: far below either engine's limit on parameters."""


@dataclass(frozen=True)
class StoredReview:
    game_id: int
    engine: str
    review: str
    """The review as the engine's JSON."""
    made_at: float


@dataclass(frozen=True)
class PuzzleTally:
    """A member's answered and solved puzzles of one game on a server."""

    answered: int
    solved: int


class ReviewBook:
    """Reads and writes the reviews and puzzle_answers rows on the store's database."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def get(self, game_id: int, engine: str) -> StoredReview | None:
        """The game's review made by ``engine``, or None (none yet, or an older engine's)."""
        row = await self._store.db.fetchrow(
            "SELECT game_id, engine, review, made_at FROM reviews WHERE game_id = ? AND engine = ?",
            game_id,
            engine,
        )
        if row is None:
            return None
        return StoredReview(row["game_id"], row["engine"], row["review"], row["made_at"])

    async def save(self, game_id: int, engine: str, review: str) -> None:
        """Keep the game's review, replacing one an older engine made."""
        await self._store.db.write(
            "INSERT INTO reviews (game_id, engine, review, made_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (game_id) DO UPDATE SET engine = excluded.engine,"
            " review = excluded.review, made_at = excluded.made_at",
            game_id,
            engine,
            review,
            time.time(),
        )

    async def of_games(self, game_ids: Sequence[int], engine: str) -> dict[int, str]:
        """The reviews by ``engine`` among ``game_ids``: game id -> the review's JSON."""
        found: dict[int, str] = {}
        for start in range(0, len(game_ids), IN_CLAUSE):
            batch = list(game_ids[start : start + IN_CLAUSE])
            rows = await self._store.db.fetch(
                "SELECT game_id, review FROM reviews WHERE engine = ?"
                f" AND game_id IN ({', '.join('?' for _ in batch)})",
                engine,
                *batch,
            )
            found.update((int(row["game_id"]), str(row["review"])) for row in rows)
        return found

    async def reviewed_in(self, guild_id: int, kind: str, engine: str) -> list[StoredReview]:
        """The server's reviewed games of ``kind`` by ``engine``, newest game first."""
        rows = await self._store.db.fetch(
            "SELECT r.game_id, r.engine, r.review, r.made_at FROM reviews r"
            " JOIN games g ON g.id = r.game_id"
            " WHERE g.guild_id = ? AND g.kind = ? AND r.engine = ? ORDER BY r.game_id DESC",
            guild_id,
            kind,
            engine,
        )
        return [StoredReview(r["game_id"], r["engine"], r["review"], r["made_at"]) for r in rows]

    async def answer_puzzle(
        self, user_id: int, guild_id: int, kind: str, puzzle: str, *, solved: bool
    ) -> bool:
        """Keep the member's answer to the puzzle; False (nothing kept) if he answered it
        before."""
        changed = await self._store.db.write(
            "INSERT INTO puzzle_answers (user_id, guild_id, kind, puzzle, solved, answered_at)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, guild_id, puzzle) DO NOTHING",
            user_id,
            guild_id,
            kind,
            puzzle,
            int(solved),
            time.time(),
        )
        return changed == 1

    async def answered(self, user_id: int, guild_id: int) -> set[str]:
        """The puzzles the member has answered on the server."""
        rows = await self._store.db.fetch(
            "SELECT puzzle FROM puzzle_answers WHERE user_id = ? AND guild_id = ?",
            user_id,
            guild_id,
        )
        return {str(row["puzzle"]) for row in rows}

    async def tallies(self, user_id: int, guild_id: int) -> Mapping[str, PuzzleTally]:
        """The member's answered and solved puzzles on the server, per game."""
        rows = await self._store.db.fetch(
            "SELECT kind, COUNT(*) AS answered, SUM(solved) AS solved FROM puzzle_answers"
            " WHERE user_id = ? AND guild_id = ? GROUP BY kind ORDER BY kind",
            user_id,
            guild_id,
        )
        return {
            str(row["kind"]): PuzzleTally(int(row["answered"]), int(row["solved"] or 0))
            for row in rows
        }
