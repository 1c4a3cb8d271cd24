"""Tables in threads: with the server setting on, each new table opens in its own public
thread under the channel where `/x new` was typed, and plays there from start to end."""

from __future__ import annotations

import sqlite3

import discord
from stored import stored_game, stored_state

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
