"""The copy of a bot's SQLite database into PostgreSQL (the command is ``python -m migrate``).

Copies every table (games, action logs, league seasons, results, seats, ratings and
settings, the servers' settings, the players' private messages the bot edits, what was
done once per key, the finished games' rematch offers, the members' places in the
lessons, who follows which table or member, the games' reviews, the members' puzzle
answers, and the tournaments with their entrants, rounds and tables) in one PostgreSQL
transaction (only the shard leases, which live seconds, are not copied), then replays
every copied game's action log from its seed (with the ``Replayer`` the caller gives, as
storage knows no game) and compares the result with its stored snapshot. Nothing is committed unless
every game checks out, and a target that already holds games is refused, so the command
can never mix two bots' data. The source file is only read.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from data.sql import Executor, is_postgres_url
from data.sqlite import SqliteDatabase
from data.store import Store

# Parents before children, so foreign keys hold at every insert.
TABLES = (
    "games",
    "actions",
    "league_seasons",
    "league_results",
    "league_seats",
    "league_ratings",
    "league_settings",
    "guild_settings",
    "private_messages",
    "claims",
    "rematches",
    "lesson_progress",
    "table_follows",
    "member_follows",
    "reviews",
    "puzzle_answers",
    "tournaments",
    "tournament_entrants",
    "tournament_rounds",
    "tournament_tables",
)
# Tables whose ids PostgreSQL generates: their sequences continue after the copied ids.
GENERATED_IDS = ("games", "league_seasons", "tournaments")
BATCH = 1000

Replayer = Callable[[str, int, int, dict[str, Any], list[str], dict[str, Any]], bool | None]
"""(kind, players, seed, options, actions, stored snapshot) -> whether replaying the actions
from the seeded start gives the stored state (as today's rules read it: a snapshot an
older release wrote may lack a field added since), or None for a game the caller does not
know."""


class MigrationRefused(Exception):
    """The copy was not made; the message says why."""


@dataclass(frozen=True)
class Report:
    rows: dict[str, int]
    games_checked: int


async def copy_to_postgres(source: str, target: str, replayed: Replayer) -> Report:
    """Copy the SQLite database at ``source`` into the PostgreSQL database ``target``."""
    if not is_postgres_url(target):
        raise MigrationRefused(f"--to must be a postgresql:// URL, not {target!r}.")
    if is_postgres_url(source) or not os.path.exists(source):
        raise MigrationRefused(f"--from must be an existing SQLite file, not {source!r}.")
    sqlite = await Store.open(source)
    try:
        postgres = await Store.open(target)
        try:
            return await _copy(sqlite, postgres, replayed)
        finally:
            await postgres.close()
    finally:
        await sqlite.close()


async def _copy(sqlite: Store, postgres: Store, replayed: Replayer) -> Report:
    async with postgres.transaction() as tx:
        if int(await tx.fetchval("SELECT COUNT(*) FROM games")):
            raise MigrationRefused(
                "the target database already holds games: migrate into an empty database."
            )
        rows = {table: await _copy_table(sqlite, tx, table) for table in TABLES}
        for table in GENERATED_IDS:
            await tx.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                f" COALESCE(MAX(id), 1), MAX(id) IS NOT NULL) FROM {table}"
            )
        checked = await _check_games(tx, replayed)
    return Report(rows, checked)


async def _copy_table(sqlite: Store, tx: Executor, table: str) -> int:
    """Copy ``table`` in batches, so a large database never sits in memory at once."""
    assert isinstance(sqlite.db, SqliteDatabase)
    columns = [str(row["name"]) for row in await sqlite.db.fetch(f"PRAGMA table_info({table})")]
    names = ", ".join(columns)
    insert = f"INSERT INTO {table} ({names}) VALUES ({', '.join('?' for _ in columns)})"
    copied = 0
    async with sqlite.db.connection.execute(f"SELECT {names} FROM {table}") as cursor:
        while rows := list(await cursor.fetchmany(BATCH)):
            await tx.executemany(insert, [tuple(row) for row in rows])
            copied += len(rows)
    return copied


async def _check_games(tx: Executor, replayed: Replayer) -> int:
    """Replay every copied game with a state; raise MigrationRefused naming any that differ."""
    games = await tx.fetch(
        "SELECT id, kind, seats, options, seed, state FROM games WHERE state IS NOT NULL"
        " ORDER BY id"
    )
    broken = []
    for game in games:
        game_id, kind = game["id"], game["kind"]
        logged = await tx.fetch(
            "SELECT action FROM actions WHERE game_id = ? ORDER BY seq", game_id
        )
        actions = [row["action"] for row in logged]
        try:
            stored = json.loads(game["state"])
            players = len(json.loads(game["seats"]))
            options = json.loads(game["options"])
            matches = replayed(kind, players, game["seed"], options, actions, stored)
        except (ValueError, TypeError, KeyError, IndexError) as unreadable:
            # Malformed JSON or options, or an action the rules refuse (an IllegalAction).
            broken.append(f"#{game_id} ({str(unreadable)[:80]})")
            continue
        if matches is None:
            broken.append(f"#{game_id} (unknown game {kind!r})")
        elif not matches:
            broken.append(f"#{game_id}")
    if broken:
        raise MigrationRefused(
            "nothing was copied: replaying the action log does not give the stored state of"
            f" game(s) {', '.join(broken)}."
        )
    return len(games)
