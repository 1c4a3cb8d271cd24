"""Spectating through the real discord.py against the fake Discord: a member follows a
table with `/game watch` or the board's **Follow** button (anyone may press it; again
stops) and gets a direct message when it ends, in his own language, with its result and a
link to the final board; closed DMs are skipped without a word in public; forged Follow
clicks are refused; tables that ended while no process could tell their followers are
told at the next start, once even when two processes start at once; and a tournament
round tells the followers of its players where they play.
"""

from __future__ import annotations

import asyncio
import json

import pytest
from e2e.test_hostile_components_e2e import BUTTON, SELECT, every_row, forged
from e2e.test_hostile_input import assert_short_private_refusal
from e2e.test_member_data_e2e import shown_file
from e2e.test_shards_e2e import guild_on_shard, sharded_bot
from stored import board_in, stored_game
from testdb import TestDatabase, both_engines

from bot import TableBot
from data import Table
from fakediscord import Message, SimUser
from games.turn_clock import DEFAULT_CLOCK, DEFAULT_LOBBY_EXPIRY

FOLLOW = "Follow"
ON_POSTGRESQL = pytest.mark.parametrize("database", ["postgresql"], indirect=True)


async def bann_game(world) -> Message:
    """Alice and Bob at a Bann table in #games: its board."""
    opened = await world.alice.slash(world.games, "bann new", opponent=world.bob)
    return (await world.bob.click(opened.message, "Join")).message


async def resign(world, player: SimUser) -> None:
    asked = await player.slash(world.games, "game resign")
    await player.click(asked.message, "Yes, resign")


def link_to_board(world, database) -> str:
    game = stored_game(database)
    return f"https://discord.com/channels/{world.guild.id}/{game['channel_id']}/{game['board_message_id']}"


def followers(database) -> list[int]:
    rows = database.rows("SELECT follower_id FROM table_follows ORDER BY follower_id")
    return [row["follower_id"] for row in rows]


@both_engines()
async def test_a_follower_by_command_and_one_by_button_are_told_how_the_game_ended(
    fake_discord, start_bot, database
):
    world = fake_discord
    await start_bot()
    board = await bann_game(world)
    assert [button.label for button in board.buttons()][-1] == FOLLOW

    by_command = await world.carol.slash(world.games, "game watch")
    by_button = await world.dave.click(board, FOLLOW)
    seated = await world.bob.click(board, FOLLOW)

    assert by_command.message.is_ephemeral
    assert by_command.message.content == (
        "👁️ You follow Bann game #1: I will send you a direct message when it ends."
    )
    assert [m.content for m in by_button.ephemeral] == [by_command.message.content]
    assert seated.ephemeral[0].content == by_command.message.content, "a player may follow"
    assert followers(database) == sorted([world.bob.id, world.carol.id, world.dave.id])
    assert world.carol.dms == [] and world.dave.dms == []

    await resign(world, world.alice)

    for follower in (world.carol, world.dave, world.bob):
        (told,) = follower.dms
        assert told.content.splitlines() == [
            f"**Bann** game #1 in **Test Server**, <#{world.games.id}>",
            "🏁 The game you follow has ended. Alice resigned: Bob wins.",
            f"The final board: {link_to_board(world, database)}",
        ]
    assert str(board.id) in link_to_board(world, database), "the board the game ended on"
    assert followers(database) == [], "each told once, and the follows are done"
    assert world.alice.dms == []


async def test_following_again_stops_and_the_dm_speaks_the_followers_language(
    fake_discord, start_bot, database
):
    world = fake_discord
    await start_bot()
    board = await bann_game(world)
    world.carol.locale = "de"
    world.dave.locale = "de"

    await world.dave.click(board, FOLLOW)
    stopped = await world.dave.click(board, FOLLOW)
    followed = await world.carol.click(board, FOLLOW)
    await resign(world, world.bob)

    assert stopped.ephemeral[0].content == "Du folgst der Bann-Partie #1 nicht mehr."
    assert followed.ephemeral[0].content == (
        "👁️ Du folgst der Bann-Partie #1: Ich schicke dir eine Direktnachricht, wenn sie endet."
    )
    assert world.dave.dms == [], "he stopped following"
    (told,) = world.carol.dms
    assert told.content.splitlines() == [
        f"**Bann**-Partie #1 auf **Test Server**, <#{world.games.id}>",
        "🏁 Die Partie, der du folgst, ist zu Ende. Bob hat aufgegeben: Alice gewinnt.",
        f"Das letzte Brett: {link_to_board(world, database)}",
    ]
    assert world.games.public_messages()[-1].content.startswith("🏳️ Bann game #1:"), (
        "the channel speaks the server's language"
    )


async def test_closed_dms_are_skipped_without_a_word_in_public(fake_discord, start_bot, database):
    world = fake_discord
    await start_bot()
    board = await bann_game(world)
    world.carol.dms_open = False
    await world.carol.click(board, FOLLOW)
    await world.dave.click(board, FOLLOW)
    channel_before = len(world.games.public_messages())

    await resign(world, world.alice)

    assert world.carol.dms == [] and len(world.dave.dms) == 1
    said = [m.content for m in world.games.public_messages()[channel_before:]]
    assert not any(str(world.carol.id) in text for text in said), "nothing said in public"
    sent = [r for r in world.fake.requests if r.route == "/channels/{channel_id}/messages"]
    assert [r.status for r in sent].count(403) == 1, "one attempt, no retry"
    assert followers(database) == []


async def test_a_lobby_followed_and_cancelled_says_so(fake_discord, start_bot):
    world = fake_discord
    await start_bot()
    lobby = (await world.alice.slash(world.games, "bann new")).message
    followed = await world.carol.slash(world.games, "game watch")
    assert followed.message.content.startswith("👁️ You follow Bann game #1")

    await world.alice.click(lobby, "Cancel")

    (told,) = world.carol.dms
    assert told.content.splitlines()[1:] == [
        "🏁 The table you follow was closed before its game began."
    ]


async def test_a_loss_on_time_and_a_lobby_that_expired_tell_their_followers(
    fake_discord, start_bot, database, clock
):
    world = fake_discord
    bot = await start_bot()
    board = await bann_game(world)
    await world.carol.click(board, FOLLOW)
    lobby = world.guild.add_text_channel("lobby")
    await world.dave.slash(lobby, "bann new")
    await world.carol.slash(lobby, "game watch")

    clock.advance(DEFAULT_LOBBY_EXPIRY + DEFAULT_CLOCK)
    await bot.clocks.scheduler.settled()
    await world.fake.wait_until_idle()

    told = sorted(message.content.splitlines()[1] for message in world.carol.dms)
    assert len(told) == 2
    assert told[0].startswith("🏁 The game you follow has ended. ")
    assert "lost on time" in told[0]
    assert told[1] == "🏁 The table you follow was closed before its game began."


async def test_an_abandoned_game_tells_its_followers(fake_discord, start_bot, database):
    world = fake_discord
    await start_bot()
    await bann_game(world)
    await world.carol.slash(world.games, "game watch")

    asked = await world.alice.slash(world.games, "game abandon")
    await world.alice.click(asked.message, "Yes, abandon")

    (told,) = world.carol.dms
    assert told.content.splitlines()[1:] == [
        "🏁 The game you follow has ended. Abandoned; the game is not rated.",
        f"The final board: {link_to_board(world, database)}",
    ]


async def test_an_ended_game_and_an_empty_channel_have_nothing_to_follow(
    fake_discord, start_bot, database
):
    world = fake_discord
    await start_bot()
    board = await bann_game(world)
    await resign(world, world.alice)

    nothing_here = await world.carol.slash(world.games, "game watch")
    forged_on_ended = await forged(world, world.carol, board, "tb:1:3:follow:", place=BUTTON)

    assert nothing_here.message.content.startswith("There is no game in this channel.")
    assert assert_short_private_refusal(forged_on_ended, world.carol) == (
        "Bann game #1 has ended: there is nothing left to follow."
    )
    assert followers(database) == []


async def test_forged_follow_clicks_are_refused_and_change_nothing(
    fake_discord, start_bot, database
):
    """A Follow custom_id forged onto another channel's message, onto a Barbu hand in a DM,
    for a game that does not exist, or sent as a select: one short private refusal, and
    no follow is stored."""
    world = fake_discord
    await start_bot()
    board = await bann_game(world)
    bann = stored_game(database)
    elsewhere = world.guild.add_text_channel("cards")
    await world.carol.slash(elsewhere, "barbu new", series=1, computers=3)
    hand = world.carol.dms[-1]
    other_board = next(m for m in elsewhere.public_messages() if m.attachments and m.components)
    follow = f"tb:{bann['id']}:{bann['version']}:follow:"
    before = every_row(database)

    for message, custom_id, kind in (
        (other_board, follow, BUTTON),
        (hand, follow, BUTTON),
        (board, f"tb:999999:{bann['version']}:follow:", BUTTON),
        (board, f"ts:{bann['id']}:{bann['version']}:follow:", SELECT),
    ):
        refused = await forged(world, world.carol, message, custom_id, kind=kind, place=kind)
        assert_short_private_refusal(refused, world.carol)

    assert every_row(database) == before, "nothing stored"
    assert followers(database) == []


async def end_behind_the_bots_back(database: TestDatabase, game_id: int) -> None:
    """The game's end is saved, and the process that saved it stops before telling anyone."""
    database.run("UPDATE games SET status = 'finished' WHERE id = ?", game_id)


@both_engines()
async def test_followers_of_a_table_that_ended_unseen_are_told_at_the_next_start(
    fake_discord, start_bot, database
):
    world = fake_discord
    await start_bot()
    board = await bann_game(world)
    await world.carol.click(board, FOLLOW)
    await end_behind_the_bots_back(database, stored_game(database)["id"])

    await start_bot()
    await start_bot()

    (told,) = world.carol.dms
    assert "🏁 The game you follow has ended." in told.content
    assert followers(database) == []


@ON_POSTGRESQL
async def test_two_processes_starting_at_once_tell_each_follower_once(fake_discord, database):
    world = fake_discord
    guild = await guild_on_shard(world, 1)
    games = guild.add_text_channel("games")
    players = [world.add_user(name, guild=guild) for name in ("ann", "ben")]
    watchers = [world.add_user(f"watcher{n}", guild=guild) for n in range(12)]
    bots: list[TableBot] = [sharded_bot(world, database, shard) for shard in (0, 1)]
    for bot in bots:
        await world.start_bot(bot)
    try:
        opened = await players[0].slash(games, "bann new", opponent=players[1])
        board = (await players[1].click(opened.message, "Join")).message
        for watcher in watchers:
            await watcher.click(board, FOLLOW)
        await end_behind_the_bots_back(database, stored_game(database)["id"])

        await asyncio.gather(*(bot.tables.spectators.deliver_missed() for bot in bots))
        await world.fake.wait_until_idle()

        assert [len(watcher.dms) for watcher in watchers] == [1] * len(watchers)
        assert followers(database) == []
    finally:
        for bot in bots:
            await world.stop_bot(bot)


# ---- following members, and a tournament round --------------------------------------------


async def round_tables(world, bot: TableBot) -> list[Table]:
    """Two tables of a round: Alice's in #games and Bob's in #second, each against a computer."""
    second = world.guild.add_text_channel("second")
    await world.alice.slash(world.games, "bann new", computer="normal")
    await world.bob.slash(second, "bann new", computer="normal")
    assert bot.store is not None
    tables = [await bot.store.open_table_in(channel.id) for channel in (world.games, second)]
    assert all(tables)
    return [table for table in tables if table is not None]


@both_engines()
async def test_a_round_tells_each_follower_where_the_members_he_follows_play(
    fake_discord, start_bot, database
):
    world = fake_discord
    bot = await start_bot()
    tables = await round_tables(world, bot)
    world.dave.locale = "de"
    carol = await world.carol.slash(world.games, "game watch", member=world.alice)
    await world.dave.slash(world.games, "game watch", member=world.alice)
    await world.dave.slash(world.games, "game watch", member=world.bob)
    await world.bob.slash(world.games, "game watch", member=world.alice)

    sent = await bot.tables.spectators.round_started("Spring Cup", 2, tables)
    again = await bot.tables.spectators.round_started("Spring Cup", 2, tables)

    assert carol.message.content == (
        "👁️ You follow Alice: I will send you a direct message when a tournament round"
        " Alice plays in starts."
    )
    assert (sent, again) == (3, 0), "Carol, Dave and Bob, each once"
    alice_board, bob_board = (
        f"https://discord.com/channels/{world.guild.id}/{table.channel_id}/{table.board_message_id}"
        for table in tables
    )
    assert world.carol.dms[0].content.splitlines() == [
        "🏆 Round 2 of **Spring Cup** has started in **Test Server**.",
        f"Alice at Bann game #{tables[0].id}: {alice_board}",
    ]
    assert world.dave.dms[0].content.splitlines() == [
        "🏆 Runde 2 von **Spring Cup** hat auf **Test Server** begonnen.",
        f"Alice in der Bann-Partie #{tables[0].id}: {alice_board}",
        f"Bob in der Bann-Partie #{tables[1].id}: {bob_board}",
    ]
    assert len(world.bob.dms) == 1, "Bob plays elsewhere and is told where Alice plays"


async def test_following_a_member_toggles_and_refuses_oneself(fake_discord, start_bot, database):
    world = fake_discord
    bot = await start_bot()
    tables = await round_tables(world, bot)

    followed = await world.carol.slash(world.games, "game watch", member=world.alice)
    stopped = await world.carol.slash(world.games, "game watch", member=world.alice)
    oneself = await world.carol.slash(world.games, "game watch", member=world.carol)
    await world.alice.slash(world.games, "game watch", member=world.alice)
    sent = await bot.tables.spectators.round_started("Spring Cup", 1, tables)

    assert followed.message.content.startswith("👁️ You follow Alice")
    assert stopped.message.content == "You no longer follow Alice."
    assert oneself.message.content == "You cannot follow yourself."
    assert sent == 0 and world.carol.dms == []
    assert database.rows("SELECT * FROM member_follows") == []


async def test_a_round_skips_closed_dms_and_a_follower_at_the_same_table(fake_discord, start_bot):
    world = fake_discord
    bot = await start_bot()
    opened = await world.alice.slash(world.games, "bann new", opponent=world.bob)
    await world.bob.click(opened.message, "Join")
    assert bot.store is not None
    table = await bot.store.open_table_in(world.games.id)
    assert table is not None
    await world.bob.slash(world.games, "game watch", member=world.alice)
    await world.carol.slash(world.games, "game watch", member=world.alice)
    world.carol.dms_open = False

    sent = await bot.tables.spectators.round_started("Spring Cup", 1, [table])

    assert sent == 0
    assert world.bob.dms == [], "he plays Alice himself"
    assert world.carol.dms == []


# ---- privacy --------------------------------------------------------------------------------


async def test_privacy_show_lists_the_follows_and_forget_removes_them(
    fake_discord, start_bot, database
):
    world = fake_discord
    await start_bot()
    board = await bann_game(world)
    await world.carol.click(board, FOLLOW)
    await world.carol.slash(world.games, "game watch", member=world.alice)
    await world.dave.slash(world.games, "game watch", member=world.carol)

    shown = await world.carol.slash(world.games, "privacy show")

    content, document = shown_file(shown)
    assert content.endswith("It lists the 2 tables and members you follow, too.")
    (server,) = document["servers"]
    assert [(f.get("game_id"), f.get("member_id")) for f in server["follows"]] == [
        (1, None),
        (None, world.alice.id),
    ]
    assert server["members_following_you"] == 1, "Dave, who is not named"
    assert str(world.dave.id) not in json.dumps(document)

    asked = await world.carol.slash(world.games, "privacy forget")
    assert "You stop following the 2 tables and members you follow." in asked.message.content
    done = await world.carol.click(asked.message, "Yes, forget me")

    assert "You no longer follow any table or member." in done.message.content
    assert database.rows("SELECT * FROM table_follows") == []
    assert database.rows("SELECT * FROM member_follows") == [], "his, and the one of him"
    await resign(world, world.alice)
    assert world.carol.dms == []
    assert board_in(world.games, database) is not None
