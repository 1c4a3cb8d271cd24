"""Bann through the real discord.py against the fake Discord: whole games by clicks,
a restart in the middle, and every kind of bad input."""

from __future__ import annotations

import asyncio
import random
import sqlite3

import discord
from stored import stored_game, stored_state
from testdb import both_engines

from cogs.table.computers import ADD_COMPUTER
from fakediscord import Message, SimUser
from games import GAMES
from games.bann import BannState

BANN = GAMES["bann"]


async def play(user: SimUser, board: Message, action: str):
    """Tip with the board's button, then pick the move in the private menu."""
    tip = action.split(">")[0]
    opened = await user.click(board, f"Tip to {tip}")
    assert len(opened.ephemeral) == 1, "the tip opens one private move menu"
    menu = opened.ephemeral[0]
    return await user.select(menu, [action])


def mover(state: BannState, seats: list[SimUser]) -> SimUser:
    assert state.current_player is not None
    return seats[state.current_player]


async def start_two_player_game(world, start_bot) -> Message:
    await start_bot()
    opened = await world.alice.slash(world.games, "bann new", opponent=world.bob)
    lobby = opened.message
    assert lobby is not None and world.bob.id in lobby.pinged
    joined = await world.bob.click(lobby, "Join")
    return joined.message


async def test_two_players_play_a_whole_game_to_a_win_by_clicks(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    board = await start_two_player_game(world, start_bot)
    seats = [world.alice, world.bob]
    chooser = random.Random(5)
    images = [board.attachments[0].data]
    moves = 0
    while not (state := stored_state(database_path)).is_over:
        player = mover(state, seats)
        if player is world.alice:
            action = BANN.bot_action(state, seed=moves)
        else:
            action = chooser.choice([a for a in state.legal_actions() if a != "offer"])
        result = await play(player, board, action)
        assert result.message.content.startswith("✅ You tipped to"), "the private menu confirms"
        images.append(board.attachments[0].data)
        assert images[-1] != images[-2], "the board picture changes after every move"
        moves += 1

    assert state.winner == 0, "alice, following the computer's advice, wins"
    assert "Alice" in board.embeds[0]["description"] and "wins" in board.embeds[0]["description"]
    assert board.buttons() == [], "a finished board takes no more clicks"
    announcement = world.games.public_messages()[-1]
    assert announcement.content.startswith("🏁") and "Alice" in announcement.content
    assert stored_game(database_path)["status"] == "finished"


async def test_the_next_player_is_pinged_once_and_only_the_next_player(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    board = await start_two_player_game(world, start_bot)
    seats = [world.alice, world.bob]
    state = stored_state(database_path)
    player = mover(state, seats)
    other = seats[1 - state.current_player]
    result = await play(player, board, BANN.bot_action(state, seed=1))
    pings = [message for message in result.new_messages if message.pinged]
    assert [message.pinged for message in pings] == [[other.id]]
    state = stored_state(database_path)
    second = await play(other, board, BANN.bot_action(state, seed=2))
    assert pings[0].deleted, "the previous ping is cleaned up"
    assert [m.pinged for m in second.new_messages if m.pinged] == [[player.id]]


async def test_a_player_beats_the_computer_by_clicks(fake_discord, start_bot, database_path):
    world = fake_discord
    await start_bot()
    opened = await world.alice.slash(world.games, "bann new", computer="normal")
    board = opened.message
    assert board.image().size[0] >= 600
    moves = 0
    while not (state := stored_state(database_path)).is_over:
        assert state.current_player == 0, "the computer answers at once"
        await play(world.alice, board, BANN.bot_action(state, seed=100 + moves))
        moves += 1
        if not stored_state(database_path).is_over:
            told = board.content.splitlines()
            assert told[0].startswith("👤 Alice tips to"), "the player's own move is told"
            assert told[1].startswith("🤖 AdaBot tips to"), "the computer's move too"
        assert moves < 200
    assert stored_game(database_path)["status"] == "finished"
    assert world.games.public_messages()[-1].content.startswith("🏁")


@both_engines()
async def test_a_restart_mid_game_keeps_the_game_and_the_old_board_works(
    fake_discord, start_bot, database
):
    world = fake_discord
    board = await start_two_player_game(world, start_bot)
    seats = [world.alice, world.bob]
    for seed in range(3):
        state = stored_state(database)
        await play(mover(state, seats), board, BANN.bot_action(state, seed=seed))
    before = stored_state(database)

    await start_bot()

    assert stored_state(database).to_dict() == before.to_dict()
    action = BANN.bot_action(before, seed=9)
    await play(mover(before, seats), board, action)
    after = stored_state(database)
    assert after.to_dict() == before.apply(action).to_dict()


async def test_someone_not_seated_is_refused_and_nothing_changes(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    board = await start_two_player_game(world, start_bot)
    version = stored_game(database_path)["version"]
    result = await world.carol.click(board, board.buttons()[0].label)
    assert result.ephemeral[0].content == "You are not playing in this game."
    assert stored_game(database_path)["version"] == version


async def test_a_seated_player_out_of_turn_is_refused(fake_discord, start_bot, database_path):
    world = fake_discord
    board = await start_two_player_game(world, start_bot)
    state = stored_state(database_path)
    waiting = [world.alice, world.bob][1 - state.current_player]
    result = await waiting.click(board, board.buttons()[0].label)
    assert result.ephemeral[0].content.startswith("It is not your turn")
    text_result = await waiting.slash(world.games, "bann move", notation=state.legal_actions()[0])
    assert text_result.message.content.startswith("It is not your turn")
    assert stored_state(database_path).to_dict() == state.to_dict()


async def test_an_outdated_menu_says_the_menu_is_outdated(fake_discord, start_bot, database_path):
    """A second tip menu outdates the first; after a move every older menu is outdated,
    and the refusal blames the menu, not the board."""
    world = fake_discord
    board = await start_two_player_game(world, start_bot)
    seats = [world.alice, world.bob]
    state = stored_state(database_path)
    player = mover(state, seats)
    first, second = state.legal_actions()[:2]
    first_menu = (await player.click(board, f"Tip to {first.split('>')[0]}")).ephemeral[0]
    newest_menu = (await player.click(board, f"Tip to {second.split('>')[0]}")).ephemeral[0]

    refused = await player.select(first_menu, [first])

    assert refused.ephemeral[-1].content.startswith("This menu is outdated")
    assert stored_state(database_path).to_dict() == state.to_dict()
    await player.select(newest_menu, [second])
    after_move = stored_state(database_path)
    assert after_move.to_dict() != state.to_dict()

    again = await player.select(first_menu, [first])

    assert again.ephemeral[-1].content.startswith("This menu is outdated")
    assert stored_state(database_path).to_dict() == after_move.to_dict()


async def test_two_racing_clicks_apply_only_once(fake_discord, start_bot, database_path):
    world = fake_discord
    board = await start_two_player_game(world, start_bot)
    state = stored_state(database_path)
    player = mover(state, [world.alice, world.bob])
    action = state.legal_actions()[0]
    menu = (await player.click(board, f"Tip to {action.split('>')[0]}")).ephemeral[0]
    version = stored_game(database_path)["version"]

    results = await asyncio.gather(player.select(menu, [action]), player.select(menu, [action]))

    assert stored_game(database_path)["version"] == version + 1
    replies = [message.content for result in results for message in result.ephemeral]
    assert any("outdated" in reply for reply in replies)
    with sqlite3.connect(database_path) as db:
        logged = db.execute("SELECT action FROM actions").fetchall()
    assert logged == [(action,)]


async def test_an_illegal_or_malformed_text_move_is_explained(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await start_two_player_game(world, start_bot)
    state = stored_state(database_path)
    player = [world.alice, world.bob][state.current_player]
    top = state.dice[state.current_player]
    side = next(face for face in range(1, 7) if face not in (top, 7 - top, 2))
    off_board = "S" if state.current_player == 0 else "N"
    cases = {
        "hello": "is not a Bann action",
        f"{7 - top}>2:N": "You cannot tip",
        f"{side}>2:{off_board}": "not a legal move",
        f"{side}>1:N": "Knight 1 is banned",
    }
    for notation, explanation in cases.items():
        result = await player.slash(world.games, "bann move", notation=notation)
        assert explanation in result.message.content, notation
    assert stored_state(database_path).to_dict() == state.to_dict()


async def test_a_text_move_plays_like_a_click(fake_discord, start_bot, database_path):
    world = fake_discord
    board = await start_two_player_game(world, start_bot)
    state = stored_state(database_path)
    player = [world.alice, world.bob][state.current_player]
    action = state.legal_actions()[0]
    result = await player.slash(world.games, "bann move", notation=action)
    assert result.message.content == f"✅ You played {action}."
    assert stored_state(database_path).to_dict() == state.apply(action).to_dict()
    assert board.versions, "the board message was redrawn"


async def test_a_missing_attach_files_permission_is_explained_and_nothing_is_created(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await start_bot()
    permissions = world.games.bot_permissions
    permissions.attach_files = False
    world.games.bot_permissions = permissions
    result = await world.alice.slash(world.games, "bann new")
    assert "Attach Files" in result.message.content and result.message.is_ephemeral
    assert stored_game(database_path) == {}


@both_engines()
async def test_one_unfinished_game_per_channel(fake_discord, start_bot, database):
    world = fake_discord
    await start_bot()
    await world.alice.slash(world.games, "bann new")
    result = await world.bob.slash(world.games, "bann new")
    assert "already has a lobby of Bann" in result.message.content


async def test_draw_offer_and_acceptance_end_the_game_drawn(fake_discord, start_bot, database_path):
    world = fake_discord
    board = await start_two_player_game(world, start_bot)
    seats = [world.alice, world.bob]
    state = stored_state(database_path)
    offerer = mover(state, seats)
    await offerer.click(board, "Offer draw")
    answerer = seats[1 - state.current_player]
    assert [b.label for b in board.buttons()] == ["Accept draw", "Decline draw", "Follow"]
    names = {world.alice.id: "Alice", world.bob.id: "Bob"}
    assert board.content == f"👤 {names[offerer.id]} offers a draw.", "the channel sees the offer"
    await answerer.click(board, "Accept draw")
    assert stored_state(database_path).result == "agreement"
    assert "Drawn by agreement" in board.embeds[0]["description"]
    assert board.content == f"👤 {names[answerer.id]} accepts the draw."


async def test_a_declined_draw_is_announced_and_play_goes_on(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    board = await start_two_player_game(world, start_bot)
    seats = [world.alice, world.bob]
    state = stored_state(database_path)
    offerer = mover(state, seats)
    await offerer.click(board, "Offer draw")
    answerer = seats[1 - state.current_player]
    await answerer.click(board, "Decline draw")
    names = {world.alice.id: "Alice", world.bob.id: "Bob"}
    assert board.content == f"👤 {names[answerer.id]} declines the draw.", "a decline is told"
    after = stored_state(database_path)
    assert not after.is_over and after.current_player == state.current_player


@both_engines()
async def test_resign_and_abandon(fake_discord, start_bot, database):
    world = fake_discord
    board = await start_two_player_game(world, start_bot)
    asked = await world.bob.click(board, "Resign")
    await world.bob.click(asked.ephemeral[0], "Yes, resign")
    assert stored_game(database)["status"] == "finished"
    assert "Bob resigned: Alice wins." in board.embeds[0]["description"]

    await world.alice.slash(world.games, "bann new")
    refused = await world.carol.slash(world.games, "game abandon")
    assert "Manage Messages" in refused.message.content
    world.carol.permissions = discord.Permissions(manage_messages=True)
    await abandon(world.carol, world.games)
    assert stored_game(database)["status"] == "aborted"


async def abandon(user, channel) -> None:
    """`/game abandon`, then its confirmation."""
    asked = await user.slash(channel, "game abandon")
    await user.click(asked.message, "Yes, abandon")


async def test_game_abandon_asks_first_and_only_the_confirmation_ends_the_game(
    fake_discord, start_bot, database
):
    """The issue: one slip of `/game abandon` ended a 28-deal evening at once."""
    world = fake_discord
    board = await start_two_player_game(world, start_bot)

    asked = await world.alice.slash(world.games, "game abandon")

    question = asked.message
    assert question.is_ephemeral
    assert question.content == (
        "End Bann game #1 now, for everyone? It ends without a result and is not rated;"
        " this cannot be undone."
    )
    assert [button.label for button in question.buttons()] == ["Yes, abandon"]
    assert stored_game(database)["status"] == "active", "asking ends nothing"
    assert board.buttons(), "the board still takes moves"
    await world.alice.click(question, "Yes, abandon")

    assert stored_game(database)["status"] == "aborted"
    assert question.content == "You abandoned the game." and question.buttons() == []
    announcement = world.games.public_messages()[-1].content
    assert announcement.startswith("Bann game #1: Abandoned by Alice; the game is not rated.")
    assert "🔑 Seed" in announcement
    assert board.buttons() == [], "the board takes no more moves"


async def test_lobby_join_leave_add_computer_start_and_cancel(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await start_bot()
    lobby = (await world.alice.slash(world.games, "bann new")).message
    assert [b.label for b in lobby.buttons()] == ["Join", "Leave", "Start", "Cancel", "Hints: off"]
    assert next(b for b in lobby.buttons() if b.label == "Start").disabled

    refused = await world.bob.select(lobby, ["hard"], placeholder=ADD_COMPUTER)
    assert "Only the table's creator" in refused.ephemeral[0].content
    await world.bob.click(lobby, "Join")
    assert stored_game(database_path)["status"] == "active", "a full table starts by itself"

    await abandon(world.alice, world.games)
    lobby = (await world.alice.slash(world.games, "bann new")).message
    await world.alice.select(lobby, ["normal"], placeholder=ADD_COMPUTER)
    assert stored_game(database_path)["status"] == "active"
    assert lobby.image().size[0] >= 600, "the lobby message became the board"

    await abandon(world.alice, world.games)
    lobby = (await world.alice.slash(world.games, "bann new", opponent=world.bob)).message
    refused = await world.carol.click(lobby, "Join")
    assert "reserved for the invited player" in refused.ephemeral[0].content
    refused = await world.bob.click(lobby, "Cancel")
    assert "Only the table's creator" in refused.ephemeral[0].content
    await world.alice.click(lobby, "Cancel")
    assert stored_game(database_path)["status"] == "aborted"
    assert lobby.buttons() == []


async def test_game_board_reposts_the_board_and_retires_the_old_one(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    old_board = await start_two_player_game(world, start_bot)
    assert "to act <t:" in old_board.embeds[0]["description"], "the clock's line"
    reposted = (await world.carol.slash(world.games, "game board")).message
    assert old_board.buttons() == [], "the old board takes no more clicks"
    link = f"https://discord.com/channels/{world.guild.id}/{world.games.id}/{reposted.id}"
    assert old_board.content == f"⬇️ The board moved: {link}"
    assert old_board.embeds == [], "no status or clock left to read as current"
    assert old_board.image().size == reposted.image().size, "its picture stays"
    state = stored_state(database_path)
    player = mover(state, [world.alice, world.bob])
    await play(player, reposted, BANN.bot_action(state, seed=3))
    assert stored_state(database_path).to_dict() != state.to_dict()
