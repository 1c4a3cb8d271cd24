"""Turn clocks through the real discord.py against the fake Discord. The bot's clock is a
ManualTime: the tests move it forward and wait until the scheduler has done its work."""

from __future__ import annotations

import csv
import io
import json
import re

import discord
from stored import board_in, logged_actions, logged_moves, stored_game, stored_state
from testdb import both_engines

from cogs.scheduler import ManualTime
from fakediscord import Message
from games import GAMES
from games.turn_clock import DEFAULT_CLOCK, DEFAULT_LOBBY_EXPIRY, MAX_PAUSE, REMINDER_SHARE

BANN = GAMES["bann"]
REMINDER_AT = DEFAULT_CLOCK * (1 - REMINDER_SHARE)


async def advance(bot, clock: ManualTime, seconds: float) -> None:
    clock.advance(seconds)
    await bot.clocks.scheduler.settled()


async def bann_game(world, start_bot, **options):
    bot = await start_bot()
    lobby = (
        await world.alice.slash(world.games, "bann new", opponent=world.bob, **options)
    ).message
    board = (await world.bob.click(lobby, "Join")).message
    return bot, board


def seats_of(world):
    return [world.alice, world.bob]


def deadline_on(board: Message) -> int:
    found = re.search(r"to act <t:(\d+):R>", board.embeds[0]["description"])
    assert found, f"the board shows a deadline: {board.embeds[0]['description']!r}"
    return int(found[1])


async def play_bann(user, board: Message, action: str):
    menu = (await user.click(board, f"Tip to {action.split('>')[0]}")).ephemeral[0]
    return await user.select(menu, [action])


@both_engines()
async def test_the_board_counts_down_and_the_player_to_act_is_reminded_once(
    fake_discord, start_bot, database, clock
):
    world = fake_discord
    bot, board = await bann_game(world, start_bot)
    state = stored_state(database)
    to_act = seats_of(world)[state.current_player]
    assert deadline_on(board) == int(clock.now() + DEFAULT_CLOCK)

    await advance(bot, clock, REMINDER_AT - 1)
    assert not any("left for your turn" in m.content for m in world.games.public_messages())
    await advance(bot, clock, 1)
    reminders = [m for m in world.games.public_messages() if "left for your turn" in m.content]
    assert [m.pinged for m in reminders] == [[to_act.id]], "one ping, to the player to act"
    await advance(bot, clock, DEFAULT_CLOCK * REMINDER_SHARE - 1)
    reminders = [m for m in world.games.public_messages() if "left for your turn" in m.content]
    assert len(reminders) == 1, "no second reminder"
    assert stored_game(database)["status"] == "active"
    assert board.buttons(), "the reminder leaves the board's controls working"
    await play_bann(to_act, board, BANN.bot_action(stored_state(database), seed=1))
    assert stored_state(database).current_player != state.current_player


async def test_a_move_starts_the_next_players_clock(fake_discord, start_bot, database, clock):
    world = fake_discord
    bot, board = await bann_game(world, start_bot)
    await advance(bot, clock, 300)
    state = stored_state(database)
    await play_bann(seats_of(world)[state.current_player], board, BANN.bot_action(state, seed=3))
    assert deadline_on(board) == int(clock.now() + DEFAULT_CLOCK)
    await advance(bot, clock, DEFAULT_CLOCK - 1)
    assert stored_game(database)["status"] == "active", "the mover's used time is not charged"


@both_engines()
async def test_bann_absent_player_loses_on_time_and_the_league_records_it(
    fake_discord, start_bot, database, clock
):
    world = fake_discord
    bot, board = await bann_game(world, start_bot)
    late = seats_of(world)[stored_state(database).current_player]
    other = world.bob if late is world.alice else world.alice
    await advance(bot, clock, DEFAULT_CLOCK)

    game = stored_game(database)
    assert game["status"] == "finished" and game["due_at"] is None
    assert f"{late.name.title()} lost on time" in board.embeds[0]["description"]
    assert board.buttons() == []
    announcement = world.games.public_messages()[-1]
    assert "lost on time" in announcement.content and other.name.title() in announcement.content
    assert logged_actions(database)[-1] == "!timeout"
    rows = database.rows("SELECT user_id, outcome, forfeit FROM league_seats")
    seats = sorted((row["user_id"], row["outcome"], row["forfeit"]) for row in rows)
    assert seats == sorted([(late.id, "loss", 2), (other.id, "win", 0)]), "a loss on time"
    history = await world.carol.slash(world.games, "league history")
    assert f"{late.name.title()} 2nd (lost on time)" in history.message.embeds[0]["description"]
    exported = (await world.carol.slash(world.games, "league export")).message.attachments[0]
    rows = csv.DictReader(io.StringIO(exported.data.decode("utf-8")))
    assert {(row["user_id"], row["forfeit"]) for row in rows} == {
        (str(late.id), "2"),
        (str(other.id), "0"),
    }, "the export tells a loss on time from a resignation"


async def test_gul_bara_absent_player_loses_on_time(fake_discord, start_bot, database, clock):
    world = fake_discord
    bot = await start_bot()
    lobby = (await world.alice.slash(world.games, "gulbara new", opponent=world.bob)).message
    board = (await world.bob.click(lobby, "Join")).message
    await advance(bot, clock, DEFAULT_CLOCK)
    assert stored_game(database)["status"] == "finished"
    assert "lost on time" in board.embeds[0]["description"]
    assert "lost on time" in world.games.public_messages()[-1].content


async def test_the_clock_option_sets_a_correspondence_pace(
    fake_discord, start_bot, database, clock
):
    world = fake_discord
    bot, board = await bann_game(world, start_bot, clock=86400)
    assert deadline_on(board) == int(clock.now() + 86400)
    await advance(bot, clock, DEFAULT_CLOCK * 2)
    assert stored_game(database)["status"] == "active"
    await advance(bot, clock, 86400)
    assert stored_game(database)["status"] == "finished"


@both_engines()
async def test_a_move_racing_its_own_timeout_wins_when_saved_first(
    fake_discord, start_bot, database, clock
):
    world = fake_discord
    bot, board = await bann_game(world, start_bot)
    # The scheduler reads the table as its deadline comes...
    read_by_scheduler = await bot.store.load(stored_game(database)["id"])
    state = stored_state(database)
    await play_bann(seats_of(world)[state.current_player], board, BANN.bot_action(state, seed=4))
    # ...but the last-second move is saved first: the timeout finds a newer version.
    deadline = clock.now() + DEFAULT_CLOCK
    assert await bot.clocks.handle_due(read_by_scheduler, deadline) is False
    assert stored_game(database)["status"] == "active"
    assert "!timeout" not in logged_actions(database)
    await advance(bot, clock, DEFAULT_CLOCK - 1)
    assert stored_game(database)["status"] == "active", "the next player has a full clock"


async def test_a_timeout_saved_first_makes_the_late_move_outdated(
    fake_discord, start_bot, database, clock
):
    world = fake_discord
    bot, board = await bann_game(world, start_bot)
    state = stored_state(database)
    player = seats_of(world)[state.current_player]
    action = BANN.bot_action(state, seed=5)
    menu = (await player.click(board, f"Tip to {action.split('>')[0]}")).ephemeral[0]
    await advance(bot, clock, DEFAULT_CLOCK)
    late = await player.select(menu, [action])
    assert "This game is over" in late.ephemeral[0].content
    assert logged_actions(database)[-1] == "!timeout"
    assert stored_game(database)["status"] == "finished"


@both_engines()
async def test_a_deadline_passed_while_the_bot_was_down_is_handled_once_at_start_up(
    fake_discord, start_bot, database, clock
):
    world = fake_discord
    bot, _ = await bann_game(world, start_bot)
    await world.stop_bot(bot)
    clock.advance(DEFAULT_CLOCK * 3)
    bot = await start_bot()
    await bot.clocks.scheduler.settled()
    assert stored_game(database)["status"] == "finished"
    bot = await start_bot()
    await bot.clocks.scheduler.settled()
    endings = [m for m in world.games.public_messages() if "lost on time" in m.content]
    assert len(endings) == 1, "the timeout is applied once, not again at the next start"
    assert logged_actions(database).count("!timeout") == 1


async def test_clocks_go_on_from_the_stored_deadline_after_a_restart(
    fake_discord, start_bot, database, clock
):
    world = fake_discord
    bot, board = await bann_game(world, start_bot)
    deadline = deadline_on(board)
    await advance(bot, clock, 100)
    bot = await start_bot()
    await advance(bot, clock, deadline - clock.now() - 1)
    assert stored_game(database)["status"] == "active"
    await advance(bot, clock, 1)
    assert stored_game(database)["status"] == "finished"


async def test_a_pause_by_agreement_stops_the_clock_until_resumed(
    fake_discord, start_bot, database, clock
):
    world = fake_discord
    bot, board = await bann_game(world, start_bot)
    await advance(bot, clock, 100)
    proposed = await world.alice.slash(world.games, "game pause")
    assert "others must accept" in proposed.message.content
    assert "waiting for Bob" in board.embeds[0]["description"]
    outsider = await world.carol.click(board, "Accept pause")
    assert "seated" in outsider.ephemeral[0].content
    await world.bob.click(board, "Accept pause")
    assert "Paused" in board.embeds[0]["description"]
    assert "Resume" in [button.label for button in board.buttons()]

    await advance(bot, clock, DEFAULT_CLOCK * 10)
    assert stored_game(database)["status"] == "active", "a paused clock does not run out"
    state = stored_state(database)
    player = seats_of(world)[state.current_player]
    refused = await player.click(board, f"Tip to {BANN.bot_action(state, seed=1).split('>')[0]}")
    assert "paused" in refused.ephemeral[0].content

    await world.bob.click(board, "Resume")
    resumed = board_in(world.games, database)
    assert resumed is not board, "a board older than fifty minutes is posted anew"
    assert deadline_on(resumed) == int(clock.now() + DEFAULT_CLOCK - 100), "the time left is kept"
    await advance(bot, clock, DEFAULT_CLOCK - 100)
    assert stored_game(database)["status"] == "finished"


async def test_a_pause_nobody_resumes_ends_the_game_unrated(
    fake_discord, start_bot, database, clock
):
    world = fake_discord
    bot, board = await bann_game(world, start_bot)
    await world.alice.slash(world.games, "game pause")
    await world.bob.slash(world.games, "game pause")
    await advance(bot, clock, MAX_PAUSE)
    game = stored_game(database)
    assert game["status"] == "aborted"
    final_board = board_in(world.games, database)
    assert "not rated" in final_board.embeds[0]["description"]
    assert final_board.buttons() == [] and board.buttons() == []
    assert database.rows("SELECT game_id FROM league_results") == []


async def test_a_lobby_nobody_starts_closes_itself_and_frees_the_channel(
    fake_discord, start_bot, database, clock
):
    world = fake_discord
    bot = await start_bot()
    lobby = (await world.alice.slash(world.games, "barbu new")).message
    await advance(bot, clock, DEFAULT_LOBBY_EXPIRY - 1)
    assert stored_game(database)["status"] == "lobby"
    await advance(bot, clock, 1)
    assert stored_game(database)["status"] == "aborted"
    assert "nobody started" in lobby.embeds[0]["description"]
    assert lobby.buttons() == []
    again = await world.bob.slash(world.games, "bann new")
    assert again.message.embeds and "table #" in again.message.embeds[0]["title"]


@both_engines()
async def test_everyone_may_view_the_settings_and_each_change_needs_manage_server(
    fake_discord, start_bot, database, clock
):
    world = fake_discord
    await start_bot()
    shown = await world.bob.slash(world.games, "settings")
    fields = {field["name"]: field["value"] for field in shown.message.embeds[0]["fields"]}
    assert "Bann: 10 minutes" in fields["Time per decision"]
    assert fields["Lobby expiry"] == "1 hour" and fields["Tables in threads"] == "off"
    changes = {
        "clock": {"game": "bann", "clock": 86400},
        "lobby_expiry": {"lobby_expiry": 900},
        "rate_computer_games": {"rate_computer_games": True},
        "threads": {"threads": True},
    }
    for name, options in changes.items():
        refused = await world.bob.slash(world.games, "settings", **options)
        assert "Manage Server" in refused.message.content, name
        assert not refused.message.embeds, f"{name}: a refusal changes and shows nothing"
    assert database.rows("SELECT guild_id FROM guild_settings") == []

    world.bob.permissions = discord.Permissions(manage_guild=True)
    for options in changes.values():
        if "threads" not in options:
            await world.bob.slash(world.games, "settings", **options)
    shown = await world.carol.slash(world.games, "settings")
    fields = {field["name"]: field["value"] for field in shown.message.embeds[0]["fields"]}
    assert "Bann: 1 day" in fields["Time per decision"]
    assert "Barbu: 10 minutes" in fields["Time per decision"]
    assert fields["Lobby expiry"] == "15 minutes"
    assert fields["Games with computers"] == "rated"

    lobby = (await world.alice.slash(world.games, "bann new", opponent=world.bob)).message
    board = (await world.bob.click(lobby, "Join")).message
    assert deadline_on(board) == int(clock.now() + 86400), "the server's clock for Bann"
    extra = json.loads(stored_game(database)["extra"])
    assert extra["clock"]["seconds"] == 86400


async def play_text(world, database, kind: str, seat_users: dict, seat: int) -> None:
    """Play one turn of ``seat`` by text command: until another seat has acted or must."""
    spec = GAMES[kind]
    start = len(logged_moves(database))
    for step in range(200):
        state = stored_state(database)
        others_acted = any(s != seat for s, _ in logged_moves(database)[start:])
        if state.is_over or state.current_player != seat or others_acted:
            return
        action = spec.bot_action(state, seed=step)
        await seat_users[seat].slash(world.games, f"{kind} move", notation=action)
    raise AssertionError("the seat never finished its turn")


@both_engines()
async def test_barree_substitute_plays_on_and_the_player_takes_the_seat_back(
    fake_discord, start_bot, database, clock
):
    world = fake_discord
    bot = await start_bot()
    lobby = (await world.alice.slash(world.games, "barree new")).message
    await world.bob.click(lobby, "Join")
    board = (await world.alice.click(lobby, "Start")).message
    users = {0: world.alice, 1: world.bob}
    late = stored_state(database).current_player
    present = 1 - late
    await advance(bot, clock, DEFAULT_CLOCK)

    assert stored_game(database)["status"] == "active", "the game goes on"
    assert stored_state(database).current_player == present, "the computer played at once"
    told = [m for m in world.games.public_messages() if "ran out of time" in m.content]
    assert len(told) == 1 and f"a computer plays for {users[late].name.title()}" in told[0].content
    assert f"A computer plays for {users[late].name.title()}" in board.embeds[0]["description"]
    assert deadline_on(board) == int(clock.now() + DEFAULT_CLOCK), "the present player's clock"
    stranger = await users[present].click(board, "Take my seat back")
    assert "no seat to take back" in stranger.ephemeral[0].content

    await play_text(world, database, "barree", users, present)
    assert stored_state(database).current_player == present, "the substitute answers again"
    back = await users[late].click(board, "Take my seat back")
    assert "Welcome back" in back.ephemeral[0].content
    assert "Take my seat back" not in [button.label for button in board.buttons()]
    await play_text(world, database, "barree", users, present)
    state = stored_state(database)
    assert state.current_player == late, "after taking the seat back, the player decides again"
    assert world.games.public_messages()[-1].pinged == [users[late].id]
    actions = logged_actions(database)
    assert "!away" in actions and "!back" in actions


async def test_rejoin_by_command(fake_discord, start_bot, database, clock):
    world = fake_discord
    bot = await start_bot()
    lobby = (await world.alice.slash(world.games, "barree new")).message
    await world.bob.click(lobby, "Join")
    await world.alice.click(lobby, "Start")
    users = {0: world.alice, 1: world.bob}
    late = users[stored_state(database).current_player]
    refused = await late.slash(world.games, "game rejoin")
    assert "no seat to take back" in refused.message.content
    await advance(bot, clock, DEFAULT_CLOCK)
    back = await late.slash(world.games, "game rejoin")
    assert "Welcome back" in back.message.content
    assert json.loads(stored_game(database)["extra"])["away"] == {}


async def test_barbu_with_every_human_timed_out_ends_unrated_after_the_deal(
    fake_discord, start_bot, database, clock
):
    world = fake_discord
    bot = await start_bot()
    board = (await world.alice.slash(world.games, "barbu new", computers=3)).message
    deal = stored_state(database).deal_number
    assert stored_state(database).current_player == 0, "the computers wait for Alice"
    await advance(bot, clock, DEFAULT_CLOCK)

    game = stored_game(database)
    assert game["status"] == "aborted" and game["due_at"] is None
    assert stored_state(database).deal_number == deal + 1, "the deal was played out"
    assert "unrated" in board.embeds[0]["description"]
    assert board.buttons() == []
    assert database.rows("SELECT game_id FROM league_results") == []


async def test_a_click_on_a_board_left_behind_by_a_timeout_says_the_game_is_over(
    fake_discord, start_bot, database, clock
):
    world = fake_discord
    bot, board = await bann_game(world, start_bot)
    bot.tables.keeper.retry_delays = (60.0,)
    player = seats_of(world)[stored_state(database).current_player]
    tip = next(b for b in board.buttons() if b.label.startswith("Tip") and not b.disabled)
    world.fail("PATCH", "/channels/{channel_id}/messages/{message_id}", status=503, count=1)
    await advance(bot, clock, DEFAULT_CLOCK)
    assert stored_game(database)["status"] == "finished"
    assert "lost on time" not in board.embeds[0]["description"], "the redraw failed"

    answer = (await player.click(board, tip.label)).ephemeral

    assert "This game is over" in answer[-1].content
