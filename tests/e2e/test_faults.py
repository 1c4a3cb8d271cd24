"""Discord failing the bot: a board edit failing beyond discord.py's retries, a permission
removed mid-game (also from a DM control), a moderator deleting the board, the reply to
`/… new` failing after the lobby row was written. No table is left stuck or unseen."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from stored import stored_game, stored_state
from test_barbu_e2e import choose_contract

from cogs.replies import CAUGHT_UP, OUTDATED
from cogs.table import keeper as keeper_module
from data import ConnectionLost
from fakediscord import Message, SimUser
from games import GAMES

BOARD_EDIT = ("PATCH", "/channels/{channel_id}/messages/{message_id}")
CHANNEL_POST = ("POST", "/channels/{channel_id}/messages")
REPLY_EDIT = ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
FAST_RETRIES = (0.02, 0.02, 0.02, 0.02)


async def eventually(check: Callable[[], bool], timeout: float = 15.0) -> None:
    # Generous: a loaded CI machine may take seconds; a passing check returns at once.
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        assert loop.time() < deadline, "the bot did not get there in time"
        await asyncio.sleep(0.01)


def shown_version(board: Message) -> int:
    """The table version the board message draws (its picture is named after it)."""
    return int(board.attachments[0].filename.rsplit("-", 1)[1].removesuffix(".png"))


async def play_bann(user: SimUser, board: Message, database_path: Path):
    state = stored_state(database_path)
    action = GAMES["bann"].bot_action(state, seed=1)
    menu = (await user.click(board, f"Tip to {action.split('>')[0]}")).ephemeral[0]
    return await user.select(menu, [action])


async def bann_against_the_computer(world, start_bot, retries=FAST_RETRIES):
    bot = await start_bot()
    bot.tables.keeper.retry_delays = retries
    board = (await world.alice.slash(world.games, "bann new", computer="normal")).message
    return bot, board


async def test_a_board_edit_failing_beyond_retries_lands_by_the_background_retry(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    _, board = await bann_against_the_computer(world, start_bot)
    world.fail(*BOARD_EDIT, status=503, count=2)

    result = await play_bann(world.alice, board, database_path)

    assert result.response_type is not None
    game = stored_game(database_path)
    await eventually(lambda: stored_game(database_path)["board_version"] == game["version"])
    assert shown_version(board) == game["version"]
    await play_bann(world.alice, board, database_path)
    assert stored_game(database_path)["version"] > game["version"], "the board takes clicks"


async def test_a_click_on_a_board_left_behind_redraws_it_instead_of_calling_it_outdated(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    _, board = await bann_against_the_computer(world, start_bot, retries=(60.0,))
    world.fail(*BOARD_EDIT, status=503, count=1)
    await play_bann(world.alice, board, database_path)
    game = stored_game(database_path)
    assert shown_version(board) < game["version"], "the edit failed: the board is behind"

    tip = next(b for b in board.buttons() if b.label.startswith("Tip") and not b.disabled)
    answer = (await world.alice.click(board, tip.label)).ephemeral

    assert [message.content for message in answer] == [CAUGHT_UP]
    assert OUTDATED not in answer[0].content
    assert shown_version(board) == game["version"] == stored_game(database_path)["version"]
    await play_bann(world.alice, board, database_path)
    assert stored_game(database_path)["version"] > game["version"]


async def test_a_permission_lost_for_good_gives_one_channel_line_and_a_log_line(
    fake_discord, start_bot, database_path, caplog
):
    world = fake_discord
    _, board = await bann_against_the_computer(world, start_bot)
    world.fail(*BOARD_EDIT, status=403, code=50013, count=100)
    before = len(world.games.public_messages())

    def warnings() -> list[str]:
        return [m.content for m in world.games.public_messages()[before:] if "⚠️" in m.content]

    with caplog.at_level(logging.WARNING, logger="tablebot"):
        await play_bann(world.alice, board, database_path)
        await eventually(lambda: any("gave up" in r.getMessage() for r in caplog.records))
        # The line follows the log line; the background retry is no task the fake waits for.
        await eventually(lambda: bool(warnings()))
        await world.wait_until_idle()

    lines = warnings()
    assert len(lines) == 1 and "game #1" in lines[0] and "/game board" in lines[0]
    assert all(record.exc_info is None for record in caplog.records), "no traceback"
    world.fail(*BOARD_EDIT, count=0)
    result = await world.alice.slash(world.games, "game board")
    assert shown_version(result.message) == stored_game(database_path)["version"]


async def test_a_deleted_channel_ends_the_retries_with_a_log_line_and_no_traceback(
    fake_discord, start_bot, database_path, caplog
):
    world = fake_discord
    _, board = await bann_against_the_computer(world, start_bot)
    world.fail(*BOARD_EDIT, status=404, code=10003, count=100)
    world.fail(*CHANNEL_POST, status=404, code=10003, count=100)

    with caplog.at_level(logging.WARNING, logger="tablebot"):
        await play_bann(world.alice, board, database_path)
        await eventually(lambda: any("could not tell" in r.getMessage() for r in caplog.records))

    gave_up = [r for r in caplog.records if "gave up" in r.getMessage()]
    assert len(gave_up) == 1 and gave_up[0].exc_info is None


async def test_a_board_deleted_by_a_moderator_comes_back_with_the_next_move(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    _, board = await bann_against_the_computer(world, start_bot)
    world.delete_message(board)
    await world.wait_until_idle()
    state = stored_state(database_path)
    action = GAMES["bann"].bot_action(state, seed=2)

    await world.alice.slash(world.games, "bann move", notation=action)

    new_board = world.games.public_messages()[-1]
    game = stored_game(database_path)
    assert new_board is not board and shown_version(new_board) == game["version"]
    assert game["board_message_id"] == new_board.id
    assert new_board.image().size == board.image().size, "the picture, read from its start"
    await play_bann(world.alice, new_board, database_path)
    assert stored_game(database_path)["version"] > game["version"]


async def test_attach_files_removed_mid_game_refuses_a_dm_control_like_a_board_click(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await start_bot()
    board = (await world.alice.slash(world.games, "barbu new", series=1, computers=3)).message
    state = stored_state(database_path)
    if state.phase == "contract":
        await choose_contract(world.alice, board, GAMES["barbu"].bot_action(state, seed=1))
    assert stored_state(database_path).current_player == 0, "alice decides in her DM"
    hand = world.alice.dms[-1]
    version = stored_game(database_path)["version"]
    permissions = world.games.bot_permissions
    permissions.attach_files = False
    world.games.bot_permissions = permissions
    await world.wait_until_idle()

    result = await world.alice.click(hand, custom_id=hand.buttons()[0].custom_id)

    assert len(result.ephemeral) == 1 and "Attach Files" in result.ephemeral[0].content
    assert stored_game(database_path)["version"] == version, "nothing was played"


async def test_a_failed_reply_to_new_still_shows_the_lobby_in_the_channel(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await start_bot()
    world.fail(*REPLY_EDIT, status=404, code=10015, count=1)

    await world.alice.slash(world.games, "bann new")

    lobby = world.games.public_messages()[-1]
    assert [b.label for b in lobby.buttons()][:1] == ["Join"]
    assert stored_game(database_path)["board_message_id"] == lobby.id
    joined = await world.bob.click(lobby, "Join")
    assert joined.message.attachments, "the lobby started the game"


async def test_a_lobby_that_cannot_be_shown_at_all_is_removed(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await start_bot()
    world.fail(*REPLY_EDIT, status=404, code=10015, count=1)
    world.fail(*CHANNEL_POST, status=503, count=1)

    await world.alice.slash(world.games, "bann new")

    assert stored_game(database_path) == {}, "no row without a message"
    again = await world.alice.slash(world.games, "bann new")
    assert again.message is not None and again.message.buttons()[0].label == "Join"


async def test_a_lobby_without_its_message_is_posted_at_start_up_and_board_and_abandon_work(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await start_bot()
    await world.alice.slash(world.games, "bann new")
    with sqlite3.connect(database_path) as db:
        # As if the process died between writing the row and posting the lobby.
        db.execute("UPDATE games SET board_message_id = NULL, board_version = NULL")
    before = len(world.games.public_messages())

    await start_bot()

    posted = world.games.public_messages()[before:]
    assert len(posted) == 1 and posted[0].buttons()[0].label == "Join"
    shown = await world.carol.slash(world.games, "game board")
    assert shown.message.buttons()[0].label == "Join", "/game board shows the lobby to all"
    asked = await world.alice.slash(world.games, "game abandon")
    await world.alice.click(asked.message, "Yes, abandon")
    assert "Abandoned" in world.games.public_messages()[-1].content
    assert stored_game(database_path)["status"] == "aborted"


async def test_a_fourth_open_lobby_on_one_server_is_refused(fake_discord, start_bot, database_path):
    world = fake_discord
    await start_bot()
    channels = [world.games] + [world.guild.add_text_channel(f"table-{n}") for n in range(3)]
    await world.wait_until_idle()
    for channel in channels[:3]:
        opened = await world.alice.slash(channel, "bann new")
        assert opened.message.buttons()[0].label == "Join"

    refused = await world.alice.slash(channels[3], "bann new")

    assert len(refused.ephemeral) == 1 and "3 open tables" in refused.ephemeral[0].content
    with sqlite3.connect(database_path) as db:
        assert db.execute("SELECT COUNT(*) FROM games").fetchone() == (3,)
    other = await world.bob.slash(channels[3], "bann new")
    assert other.message.buttons()[0].label == "Join", "the limit is per user"


async def test_a_dm_control_checks_the_channel_even_when_it_is_not_in_the_bots_cache(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    bot = await start_bot()
    board = (await world.alice.slash(world.games, "barbu new", series=1, computers=3)).message
    state = stored_state(database_path)
    if state.phase == "contract":
        await choose_contract(world.alice, board, GAMES["barbu"].bot_action(state, seed=1))
    hand = world.alice.dms[-1]
    version = stored_game(database_path)["version"]
    permissions = world.games.bot_permissions
    permissions.attach_files = False
    world.games.bot_permissions = permissions
    await world.wait_until_idle()
    guild = bot.get_channel(world.games.id).guild
    guild._remove_channel(guild.get_channel(world.games.id))

    result = await world.alice.click(hand, custom_id=hand.buttons()[0].custom_id)

    assert len(result.ephemeral) == 1 and "Attach Files" in result.ephemeral[0].content
    assert stored_game(database_path)["version"] == version, "nothing was played"


async def test_a_lobby_opened_as_the_bot_starts_is_posted_once_not_twice(
    fake_discord, start_bot, database_path, monkeypatch
):
    """A `/… new` answered between the gateway's READY and the start-up board sync: its
    row is written, its message not yet recorded. The sync leaves it to the command for
    the grace period, goes on as soon as the command records it, and posts it only if the
    command never does."""
    world = fake_discord
    monkeypatch.setattr(keeper_module, "REDRAW_GRACE", 6.0)
    bot = await start_bot()
    lobby = (await world.alice.slash(world.games, "bann new")).message
    posted = len(world.games.messages)
    game = stored_game(database_path)

    def in_flight() -> None:
        with sqlite3.connect(database_path) as db:
            db.execute(
                "UPDATE games SET board_message_id = NULL, board_version = NULL WHERE id = ?",
                (game["id"],),
            )

    in_flight()
    sync = asyncio.create_task(bot.tables.keeper.sync_all())
    await asyncio.sleep(0.5)
    await bot.tables.store.mark_board(game["id"], lobby.id, game["version"])
    recorded = time.monotonic()
    await sync
    assert len(world.games.messages) == posted, "the sync posted a second lobby"
    assert time.monotonic() - recorded < 3.0, "the sync sat out the grace after the record"

    monkeypatch.setattr(keeper_module, "REDRAW_GRACE", 1.0)
    in_flight()
    await bot.tables.keeper.sync_all()
    assert len(world.games.messages) == posted + 1, "a lobby never recorded is posted"
    assert stored_game(database_path)["board_message_id"] == world.games.messages[-1].id


async def test_a_database_break_during_a_background_redraw_is_outlasted(
    fake_discord, start_bot, database_path
):
    """The board edit fails, and the database connection breaks as the background retry
    reads the table: the next retry redraws the board, with no unhandled error."""
    world = fake_discord
    bot, board = await bann_against_the_computer(world, start_bot, retries=(0.5, 0.02, 0.02))
    store = bot.tables.store
    load = store.load
    breaks = []

    async def breaking_once(game_id: int):
        if not breaks:
            breaks.append(game_id)
            raise ConnectionLost("the server closed the connection")
        return await load(game_id)

    world.fail(*BOARD_EDIT, status=503, count=2)
    await play_bann(world.alice, board, database_path)
    game = stored_game(database_path)
    assert shown_version(board) < game["version"], "the edit failed: the board is behind"
    store.load = breaking_once
    try:
        await eventually(lambda: stored_game(database_path)["board_version"] == game["version"])
    finally:
        store.load = load
    assert breaks, "the retry met the broken connection"
    assert shown_version(board) == game["version"]
