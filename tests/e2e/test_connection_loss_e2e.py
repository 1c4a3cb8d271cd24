"""PostgreSQL drops the bot's connection in the middle of saving a move: a private menu
confirms a move only once it is stored (until then it says the move is being played),
a move that was not stored is told as not saved, nothing is half-applied, and the very
next click plays normally on a new connection."""

from __future__ import annotations

import asyncio
import random

import asyncpg
import pytest
from stored import logged_actions, logged_moves, stored_game, stored_state
from test_faults import eventually, play_bann

from cogs.replies import MENU_OUTDATED
from cogs.table.components import DATABASE_LOST, RACED
from cogs.table.menu_answer import BEING_PLAYED
from cogs.table.pipeline import NOT_SAVED
from fakediscord import Message
from games import GAMES

ON_POSTGRESQL = pytest.mark.parametrize("database", ["postgresql"], indirect=True)


def game_board(database) -> int:
    return stored_game(database)["board_message_id"]


def shown(message: Message) -> list[str]:
    """Everything the message said, oldest first."""
    return [version.content for version in message.versions] + [message.content]


async def tip_menu(world, board: Message, action: str) -> Message:
    return (await world.alice.click(board, f"Tip to {action.split('>')[0]}")).ephemeral[0]


@ON_POSTGRESQL
async def test_a_backend_killed_while_a_move_waits_to_be_saved_is_told_as_not_saved(
    fake_discord, start_bot, database
):
    world = fake_discord
    await start_bot()
    board = (await world.alice.slash(world.games, "bann new", computer="normal")).message
    before, logged = stored_game(database), logged_actions(database)
    action = GAMES["bann"].bot_action(stored_state(database), seed=1)
    menu = await tip_menu(world, board, action)
    blocker = await asyncpg.connect(database.target)
    try:
        # Hold the game's row, so the bot's save waits on it; then cut the bot's link.
        holding = blocker.transaction()
        await holding.start()
        await blocker.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", before["id"])
        move = asyncio.create_task(world.alice.select(menu, [action]))
        waiting = "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND pid <> $1"
        mine = blocker.get_server_pid()
        pids: list[int] = []

        async def bot_waits() -> bool:
            pids[:] = [row[0] for row in await blocker.fetch(waiting, mine)]
            return bool(pids)

        for _ in range(500):
            if await bot_waits() and menu.content == BEING_PLAYED:
                break
            await asyncio.sleep(0.01)
        assert pids, "the bot's save waits for the row"
        assert menu.content == BEING_PLAYED, "the menu says the move is being played"
        await blocker.execute("SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) pid", pids)
        await holding.rollback()
        answer = await move
    finally:
        await blocker.close()

    assert shown(menu)[-2:] == [BEING_PLAYED, NOT_SAVED], "told, in the menu it came from"
    assert not any(text.startswith("✅") for text in shown(menu)), "never confirmed"
    assert answer.new_messages == []
    assert stored_game(database)["version"] == before["version"], "nothing half-applied"
    assert logged_actions(database) == logged
    await play_bann(world.alice, board, database)
    await eventually(lambda: stored_game(database)["version"] > before["version"])


@ON_POSTGRESQL
async def test_backends_killed_at_random_while_moves_are_saved_never_confirm_an_unsaved_move(
    fake_discord, start_bot, database
):
    """A second connection terminates every connection of the bot's now and then while
    Alice plays: a move may be lost, but a menu says ✅ only for a move in the log, and a
    stored move is confirmed or told as perhaps not happened (no ERROR, every click
    answered: the harness checks those)."""
    world = fake_discord
    name = f"tablebot-{database.schema}"
    database.target += f"&application_name={name}"
    await start_bot()
    await world.alice.slash(world.games, "bann new", computer="normal")
    killer = await asyncpg.connect(database.server_url)
    playing = True
    kills = 0

    async def kill_now_and_then() -> None:
        nonlocal kills
        pace = random.Random(26)
        while playing:
            await asyncio.sleep(pace.uniform(0.05, 0.4))
            killed = await killer.fetch(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE application_name = $1",
                name,
            )
            kills += len(killed)

    killing = asyncio.create_task(kill_now_and_then())
    picks = []
    try:
        for attempt in range(150):
            if len(picks) == 25:
                break
            state, game = stored_state(database), stored_game(database)
            if state.is_over:
                await world.alice.slash(world.games, "bann new", computer="normal")
                continue
            if game["board_version"] != game["version"]:
                # A move landed as the connection broke, before its board was drawn.
                await world.alice.slash(world.games, "game board")
                continue
            action = GAMES["bann"].bot_action(state, seed=attempt)
            board = next(m for m in world.games.public_messages() if m.id == game_board(database))
            tip = await world.alice.click(board, f"Tip to {action[0]}")
            menus = [message for message in tip.ephemeral if message.selects()]
            if not menus:
                continue  # the click itself lost the database, and said so
            before = logged_moves(database)
            answer = await world.alice.select(menus[0], [action])
            stored = (0, action) in logged_moves(database)[len(before) :]
            told = shown(menus[0]) + [message.content for message in answer.ephemeral]
            picks.append((action, stored, told))
    finally:
        playing = False
        await killing
        await killer.close()

    assert kills > 0 and len(picks) >= 5
    for action, stored, told in picks:
        confirmed = any(text.startswith("✅") for text in told)
        assert not confirmed or stored, f"{action} confirmed but not stored: {told}"
        if stored and not confirmed:
            assert DATABASE_LOST in told, f"{action} stored, never confirmed: {told}"
        if not stored:
            assert {NOT_SAVED, DATABASE_LOST, RACED, MENU_OUTDATED} & set(told), f"{action}: {told}"
    assert any(stored for _, stored, _ in picks), "moves get through between the kills"
