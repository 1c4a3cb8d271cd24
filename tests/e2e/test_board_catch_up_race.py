"""A click on a board whose redraw is still in flight, in this process or in another
that shares the database, is told the board is outdated; only a board left behind by a
fault is redrawn with "the board had fallen behind"."""

from __future__ import annotations

import time

import pytest
from stored import stored_game
from test_faults import shown_version

from cogs.replies import CAUGHT_UP, OUTDATED

ON_POSTGRESQL = pytest.mark.parametrize("database", ["postgresql"], indirect=True)


def tip_button(board) -> str:
    return next(b for b in board.buttons() if b.label.startswith("Tip") and not b.disabled).label


@ON_POSTGRESQL
async def test_a_board_another_process_is_drawing_is_outdated_until_it_is_overdue(
    fake_discord, start_bot, database
):
    world = fake_discord
    await start_bot()
    board = (await world.alice.slash(world.games, "bann new", computer="normal")).message
    game = stored_game(database)
    # Another process has just saved a change and is drawing it.
    database.run(
        "UPDATE games SET version = ?, updated_at = ? WHERE id = ?",
        game["version"] + 1, time.time(), game["id"],
    )

    answer = (await world.alice.click(board, tip_button(board))).ephemeral
    assert [message.content for message in answer] == [OUTDATED]
    assert shown_version(board) == game["version"], "left to the process drawing it"

    # That process died before drawing: a minute later the board counts as left behind.
    database.run("UPDATE games SET updated_at = ? WHERE id = ?", time.time() - 60, game["id"])
    answer = (await world.alice.click(board, tip_button(board))).ephemeral
    assert [message.content for message in answer] == [CAUGHT_UP]
    assert shown_version(board) == game["version"] + 1
