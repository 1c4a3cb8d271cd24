"""Reading (and, for set-ups, writing) the bot's SQLite file from end-to-end tests.

The tests read the real database the bot writes, never a mock of the store.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from games import GAMES


def stored_game(database_path: Path) -> dict[str, Any]:
    """The newest game row, read straight from the bot's SQLite file."""
    with sqlite3.connect(database_path) as db:
        db.row_factory = sqlite3.Row
        row = db.execute("SELECT * FROM games ORDER BY id DESC LIMIT 1").fetchone()
    return dict(row) if row else {}


def stored_state(database_path: Path) -> Any:
    """The newest game's state, rebuilt by its engine."""
    row = stored_game(database_path)
    return GAMES[row["kind"]].from_dict(json.loads(row["state"]))


def logged_moves(database_path: Path) -> list[tuple[int | None, str]]:
    """(seat, action) of every logged action, oldest first."""
    with sqlite3.connect(database_path) as db:
        return list(db.execute("SELECT seat, action FROM actions ORDER BY game_id, seq"))


def logged_actions(database_path: Path) -> list[str]:
    return [action for _, action in logged_moves(database_path)]


def write_state(database_path: Path, data: dict[str, Any]) -> None:
    """Put the newest game into the position ``data`` (a state's to_dict) for a set-up."""
    with sqlite3.connect(database_path) as db:
        db.execute(
            "UPDATE games SET state = ? WHERE id = (SELECT MAX(id) FROM games)",
            (json.dumps(data),),
        )


async def arrange(world: Any, database_path: Path, **changes: object) -> Any:
    """Change fields of the stored state and post its board (`/game board`).

    The bot reads the game afresh on every interaction, so this is the position it plays on.
    """
    write_state(database_path, stored_state(database_path).to_dict() | changes)
    return (await world.alice.slash(world.games, "game board")).message
