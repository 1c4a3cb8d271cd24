"""Tables in threads: with the server setting on, each new table opens in its own public
thread under the channel where `/x new` was typed, and plays there from start to end. A
thread the bot may not open or post in leaves the table in the channel, its opener told
why, and never an announcement of an empty thread."""

from __future__ import annotations

import sqlite3

import discord
import pytest
from stored import stored_game, stored_state

from fakediscord import BOT_DEFAULT_PERMISSIONS
from games import GAMES

BANN = GAMES["bann"]


async def turn_threads_on(world) -> None:
    world.dave.permissions = discord.Permissions(manage_guild=True)
    changed = await world.dave.slash(world.games, "settings", threads=True)
    fields = {field["name"]: field["value"] for field in changed.message.embeds[0]["fields"]}
    assert fields["Tables in threads"] == "on"


async def test_a_table_in_its_own_thread_from_start_to_end(fake_discord, start_bot, database_path):
    world = fake_discord
    await start_bot()
    await turn_threads_on(world)
    opened = await world.alice.slash(world.games, "bann new", computer="normal")
    assert "own thread" in opened.message.content
    thread = world.guild.thread("Bann – Alice")
    assert thread.parent is world.games and thread.id == opened.message.id
    assert stored_game(database_path)["channel_id"] == thread.id
    board = thread.public_messages()[0]
    assert board.embeds[0]["title"].startswith("Bann")

    moves = 0
    while not (state := stored_state(database_path)).is_over:
        action = BANN.bot_action(state, seed=100 + moves)
        menu = (await world.alice.click(board, f"Tip to {action.split('>')[0]}")).ephemeral[0]
        await world.alice.select(menu, [action])
        moves += 1
        assert moves < 200
    assert stored_game(database_path)["status"] == "finished"
    assert thread.public_messages()[-1].content.startswith("🏁"), "the result is told in the thread"
    assert [m.id for m in world.games.public_messages()] == [opened.message.id]
    board_here = await world.alice.slash(world.games, "game board")
    assert "There is no game in this channel" in board_here.message.content


async def test_one_channel_hosts_several_tables_at_once(fake_discord, start_bot, database_path):
    world = fake_discord
    await start_bot()
    await turn_threads_on(world)
    await world.alice.slash(world.games, "bann new", opponent=world.bob)
    await world.carol.slash(world.games, "gulbara new", opponent=world.dave)
    bann, gulbara = world.guild.thread("Bann – Alice"), world.guild.thread("Gul Bara – Carol")
    await world.bob.click(bann.public_messages()[0], "Join")
    await world.dave.click(gulbara.public_messages()[0], "Join")
    with sqlite3.connect(database_path) as db:
        rows = set(db.execute("SELECT kind, status, channel_id FROM games"))
    assert rows == {("bann", "active", bann.id), ("gulbara", "active", gulbara.id)}
    shown = await world.bob.slash(bann, "game board")
    assert shown.message.embeds[0]["title"].startswith("Bann")


async def test_with_threads_off_the_table_stays_in_the_channel(fake_discord, start_bot):
    world = fake_discord
    await start_bot()
    opened = await world.alice.slash(world.games, "bann new", opponent=world.bob)
    assert opened.message.embeds[0]["title"].startswith("Bann: table")
    assert world.guild.threads == []


def without(permissions: discord.Permissions, name: str) -> discord.Permissions:
    fewer = discord.Permissions(permissions.value)
    setattr(fewer, name, False)
    return fewer


def false_announcements(world) -> list[str]:
    return [m.content for m in world.games.public_messages() if "own thread" in m.content]


@pytest.mark.parametrize("missing", ["send_messages_in_threads", "create_public_threads"])
async def test_without_thread_permissions_a_table_opens_in_the_channel_and_its_opener_is_told(
    fake_discord, start_bot, database_path, missing
):
    world = fake_discord
    await start_bot()
    await turn_threads_on(world)
    world.games.bot_permissions = without(BOT_DEFAULT_PERMISSIONS, missing)

    opened = await world.alice.slash(world.games, "bann new", opponent=world.bob)

    assert opened.message.embeds[0]["title"].startswith("Bann: table")
    assert world.guild.threads == [] and false_announcements(world) == []
    assert stored_game(database_path)["channel_id"] == world.games.id
    name = {"send_messages_in_threads": "Send Messages in Threads"}.get(
        missing, "Create Public Threads"
    )
    (told,) = [m.content for m in opened.ephemeral]
    assert f"**{name}**" in told and "your table is here" in told
    joined = await world.bob.click(opened.message, "Join")
    assert joined.message.attachments, "the game starts in the channel"


@pytest.mark.parametrize("seats", ["lobby", "full"])
async def test_a_thread_refusing_the_table_brings_it_back_to_the_channel(
    fake_discord, start_bot, database_path, seats
):
    """Discord answers 403 to the table's first message in its new thread: the channel
    shows the table where the announcement was, never an announcement of an empty thread."""
    world = fake_discord
    await start_bot()
    await turn_threads_on(world)
    world.fail("POST", "/channels/{channel_id}/messages", status=403, code=50013)
    options = {"opponent": world.bob} if seats == "lobby" else {"computer": "normal"}

    opened = await world.alice.slash(world.games, "bann new", **options)

    assert false_announcements(world) == []
    assert world.guild.thread("Bann – Alice").public_messages() == []
    game = stored_game(database_path)
    assert game["channel_id"] == world.games.id and game["board_message_id"] == opened.message.id
    (told,) = [m.content for m in opened.ephemeral]
    assert "Discord did not let me open or post in one here" in told
    if seats == "lobby":
        assert opened.message.embeds[0]["title"].startswith("Bann: table")
        board = (await world.bob.click(opened.message, "Join")).message
    else:
        board = opened.message
    assert board.attachments and board.channel is world.games
    state, version = stored_state(database_path), stored_game(database_path)["version"]
    player = [world.alice, world.bob][state.current_player]
    action = BANN.bot_action(state, seed=1)
    menu = (await player.click(board, f"Tip to {action.split('>')[0]}")).ephemeral[0]
    await player.select(menu, [action])
    assert stored_game(database_path)["version"] > version, "the table plays"


async def test_a_thread_refusing_the_table_in_a_channel_with_a_game_opens_none(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await start_bot()
    await world.carol.slash(world.games, "bann new", opponent=world.dave)
    await turn_threads_on(world)
    world.fail("POST", "/channels/{channel_id}/messages", status=403, code=50013)

    opened = await world.alice.slash(world.games, "bann new", opponent=world.bob)

    assert false_announcements(world) == []
    with sqlite3.connect(database_path) as db:
        assert list(db.execute("SELECT creator_id FROM games")) == [(world.carol.id,)]
    (told,) = [m.content for m in opened.ephemeral]
    assert "no table was opened" in told
