"""Reading (and, for set-ups, writing) the bot's database from end-to-end tests.

The tests read the real database the bot writes, never a mock of the store: an SQLite
file given by its path, or any test database (SQLite or a PostgreSQL schema) given as
the ``database`` fixture.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from testdb import SqliteTestDatabase, TestDatabase

from games import GAMES

Where = Path | TestDatabase


def _db(where: Where) -> TestDatabase:
    return where if isinstance(where, TestDatabase) else SqliteTestDatabase(where)


def stored_game(where: Where) -> dict[str, Any]:
    """The newest game row, read straight from the bot's database."""
    rows = _db(where).rows("SELECT * FROM games ORDER BY id DESC LIMIT 1")
    return rows[0] if rows else {}


def stored_state(where: Where) -> Any:
    """The newest game's state, rebuilt by its engine."""
    row = stored_game(where)
    return GAMES[row["kind"]].from_dict(json.loads(row["state"]))


def logged_moves(where: Where) -> list[tuple[int | None, str]]:
    """(seat, action) of every logged action, oldest first."""
    rows = _db(where).rows("SELECT seat, action FROM actions ORDER BY game_id, seq")
    return [(row["seat"], row["action"]) for row in rows]


def logged_actions(where: Where) -> list[str]:
    return [action for _, action in logged_moves(where)]


def write_state(where: Where, data: dict[str, Any]) -> None:
    """Put the newest game into the position ``data`` (a state's to_dict) for a set-up."""
    _db(where).run(
        "UPDATE games SET state = ? WHERE id = (SELECT MAX(id) FROM games)", json.dumps(data)
    )


async def arrange(world: Any, where: Where, **changes: object) -> Any:
    """Change fields of the stored state and post its board (`/game board`).

    The bot reads the game afresh on every interaction, so this is the position it plays on.
    """
    write_state(where, stored_state(where).to_dict() | changes)
    return (await world.alice.slash(world.games, "game board")).message


def typed(action: str) -> str:
    """An engine action as a player types it: ``double:`` and ``send:`` name players as
    the pictures number them, from 1, where the engine counts seats from 0."""
    verb, _, rest = action.partition(":")
    if verb == "double":
        return "double:" + ",".join(str(int(seat) + 1) for seat in rest.split(","))
    if verb == "send":
        seat, _, field = rest.partition(":")
        return f"send:{int(seat) + 1}:{field}"
    return action


def board_in(channel: Any, where: Where) -> Any:
    """The message of ``channel`` the newest game shows its board in (a board grown old
    or buried under newer messages is posted anew)."""
    board_id = stored_game(where)["board_message_id"]
    return next(message for message in channel.public_messages() if message.id == board_id)
