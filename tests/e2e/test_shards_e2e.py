"""Two bot processes on the two shards of one bot, over one PostgreSQL database.

Each process is a bot of its own, started here in the test's event loop: the two share
only the database, the fake Discord and (where a test says so) the clock. The fake
Discord routes a server's events and interactions to shard ``(guild_id >> 22) % 2`` and
every DM to shard 0, as Discord does. The server here lives on shard 1, so its board
clicks reach one bot while the players' DM clicks reach the other: both act on the same
tables through the database, and nothing applies twice.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import signal
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass

import discord
import pytest
from e2e.test_barbu_e2e import (
    choose_contract,
    decide_doubles,
    play_card,
    seat_names,
    seeds_where,
)
from e2e.test_gulbara_e2e import open_panel, play_step
from stored import logged_actions, logged_moves, stored_game, stored_state
from testdb import TestDatabase

from bot import TableBot, create_bot, serve
from cogs.gulbara import step_label
from cogs.scheduler import ManualTime
from cogs.table.router import CHANNEL_SEEN_FOR
from fakediscord import Channel, Guild, Message, SimUser
from fakediscord.fixtures import FakeWorld
from games import GAMES, replay
from games.gulbara import from_code
from games.turn_clock import REMINDER_SHARE
from shards import ShardPlan, ShardsTaken

SHARDS = 2
ON_POSTGRESQL = pytest.mark.parametrize("database", ["postgresql"], indirect=True)


@dataclass
class Sharded:
    """One server on shard 1, its #games channel and four players, and both bots."""

    world: FakeWorld
    guild: Guild
    games: Channel
    players: list[SimUser]
    bots: list[TableBot]

    @property
    def ann(self) -> SimUser:
        return self.players[0]

    @property
    def ben(self) -> SimUser:
        return self.players[1]


def shard_of(guild_id: int) -> int:
    return (guild_id >> 22) % SHARDS


async def guild_on_shard(world, shard: int) -> Guild:
    """A new server whose events Discord sends to ``shard``."""
    while True:
        guild = world.add_guild(f"Shard {shard} Server")
        if shard_of(guild.id) == shard:
            return guild
        await asyncio.sleep(0.002)  # snowflakes of the next millisecond


def sharded_bot(
    world, database: TestDatabase, shard: int, clock: ManualTime | None = None
) -> TableBot:
    """The bot of one process; processes given one ``clock`` see the same time, as
    processes on one machine (or on synchronised ones) do."""
    return create_bot(
        database_path=database.target,
        dev_guild_id=None,
        seed_source=seeds_where(lambda start: True).__next__,  # Ann declares first
        shard_plan=ShardPlan(SHARDS, (shard,)),
        connector=world.connector(),
        guild_ready_timeout=0.01,
        clock=clock,
    )


@pytest.fixture
async def sharded(
    fake_discord, database: TestDatabase, clock: ManualTime
) -> AsyncIterator[Sharded]:
    world = fake_discord
    guild = await guild_on_shard(world, 1)
    games = guild.add_text_channel("games")
    players = [world.add_user(name, guild=guild) for name in ("ann", "ben", "cleo", "dora")]
    bots = [sharded_bot(world, database, shard, clock) for shard in range(SHARDS)]
    for bot in bots:
        await world.start_bot(bot)
    yield Sharded(world, guild, games, players, bots)
    for bot in bots:  # before the test's database goes away
        await world.stop_bot(bot)


def handled_by(bot: TableBot) -> set[int]:
    """Ids of the shards this bot runs (what it can receive)."""
    return set(bot.shards)


def assert_log_replays_to_the_snapshot(database: TestDatabase) -> None:
    row = stored_game(database)
    actions = [a for a in logged_actions(database) if not a.startswith("!")]
    players = len(json.loads(row["seats"]))
    replayed = replay(
        row["kind"],
        players=players,
        seed=row["seed"],
        options=json.loads(row["options"]),
        actions=actions,
    )
    assert replayed.to_dict() == json.loads(row["state"]), "no action applied twice or lost"
    seqs = [r["seq"] for r in database.rows("SELECT seq FROM actions WHERE game_id = ?", row["id"])]
    assert seqs == list(range(1, len(seqs) + 1)) and row["version"] >= 1


@ON_POSTGRESQL
async def test_four_players_play_a_whole_barbu_series_by_dm_on_the_other_shard(sharded, database):
    """Seven deals by one declarer, every decision of the four players clicked in a hand
    DM. Discord sends DMs to shard 0 and the table's server is on shard 1, so every move
    is applied by the process that does not hold the server, through the database. Each
    player takes his first legal option: the test is about the machinery, not the play.
    (Any ERROR logged by either bot fails the test through the error_log fixture.)"""
    world = sharded
    players = world.players
    assert [handled_by(bot) for bot in world.bots] == [{0}, {1}]
    assert [bot.get_guild(world.guild.id) is not None for bot in world.bots] == [False, True]
    syncs = [r for r in world.world.requests if r.method == "PUT" and "commands" in r.route]
    assert len(syncs) == 1, "only the process with shard 0 syncs the slash commands"
    received = interactions_received(world.bots)
    # Without autoplay every decision is a click, so the log must equal the clicks.
    lobby = (await players[0].slash(world.games, "barbu new", series=1, autoplay=False)).message
    for user in players[1:]:
        await user.click(lobby, "Join")
    assert [len(seen) for seen in received] == [0, 4], "the server's clicks go to shard 1"
    names = seat_names(database)
    clicks_before = len(world.world.interactions)
    requests_before = len(world.world.requests)
    started = time.monotonic()

    clicked: list[tuple[int, str]] = []
    state = stored_state(database)
    while not state.is_over:
        seat = state.current_player
        action = state.legal_actions()[0]
        logged = len(logged_moves(database))
        await decide_by_dm(players[seat], state, action, names)
        clicked.append((seat, action))
        assert logged_moves(database)[logged:] == [(seat, action)], "taken, no refusal"
        state = state.apply(action)

    clicks = list(world.world.interactions.values())[clicks_before:]
    assert all(click.channel.is_dm for click in clicks)
    fetches = [
        request
        for request in world.world.requests[requests_before:]
        if request.method == "GET" and request.route == "/channels/{channel_id}"
    ]
    minutes = math.ceil((time.monotonic() - started) / CHANNEL_SEEN_FOR)
    assert len(fetches) <= minutes + 1 < len(clicks), (
        f"the table's channel fetched once a minute, not per click: {len(fetches)} "
        f"fetches in {minutes} minutes of {len(clicks)} clicks"
    )
    assert [interaction.id for interaction in received[0]] == [click.id for click in clicks]
    assert len(received[1]) == 4, "no DM click reached the process holding the server"
    assert_the_series_was_applied_once(world, database, clicked)
    for user in players:
        hands = [dm for dm in user.dms if "game #" in dm.content]
        assert len(hands) == 7, f"{user.name}: one hand DM per deal, edited in place"
    history = (await world.ann.slash(world.games, "league history")).message
    listed = history.embeds[0]["description"].splitlines()
    assert [line.split(" · ")[0] for line in listed] == [f"#{stored_game(database)['id']} Barbu"]


def interactions_received(bots: list[TableBot]) -> list[list[discord.Interaction]]:
    """The interactions each bot gets from the gateway, in order: which process acted."""
    received: list[list[discord.Interaction]] = [[] for _ in bots]
    for seen, bot in zip(received, bots, strict=True):

        async def record(interaction: discord.Interaction, seen=seen) -> None:
            seen.append(interaction)

        bot.add_listener(record, "on_interaction")
    return received


async def decide_by_dm(user: SimUser, state, action: str, names: list[str]) -> None:
    """Take ``action`` from the controls of the user's hand DM of this deal."""
    hand: Message = next(dm for dm in reversed(user.dms) if "game #" in dm.content)
    assert "**Your turn" in hand.content, "the hand DM of the seat to act has its controls"
    if state.phase == "contract":
        await choose_contract(user, hand, action)
    elif state.phase == "doubling":
        await decide_doubles(user, hand, action, names)
    else:
        await play_card(user, hand, action)


def assert_the_series_was_applied_once(
    world: Sharded, database: TestDatabase, clicked: list[tuple[int, str]]
) -> None:
    assert logged_moves(database) == clicked, "every click applied once, none lost"
    game = stored_game(database)
    assert game["status"] == "finished"
    replayed = replay(
        "barbu",
        players=4,
        seed=game["seed"],
        options=json.loads(game["options"]),
        actions=[action for _, action in clicked],
    )
    assert replayed.to_dict() == json.loads(game["state"])
    assert replayed.deal_number == 7 and replayed.is_over, "the series of seven deals"
    seats = database.rows("SELECT seat, user_id, points FROM league_seats ORDER BY seat")
    assert [row["points"] for row in seats] == replayed.returns(), "the scores of the log"
    assert [row["user_id"] for row in seats] == [user.id for user in world.players]
    assert database.rows("SELECT game_id FROM league_results") == [{"game_id": game["id"]}]
    ratings = database.rows("SELECT player_id, games FROM league_ratings ORDER BY player_id")
    player_ids = sorted(user.id for user in world.players)
    assert ratings == [{"player_id": player_id, "games": 1} for player_id in player_ids]
    said = [message.content for message in world.games.public_messages()]
    deals = [text for text in said if text.startswith("📋")]
    assert len(deals) == 7, "each deal's scores posted once"
    assert all(f"deal {number} of 7 is over" in text for number, text in enumerate(deals, 1))
    finish = [text for text in said if text.startswith("🏁")]
    assert len(finish) == 1 and "Ratings:" in finish[0], "announced once, with ratings"


@ON_POSTGRESQL
async def test_one_decision_clicked_on_both_shards_at_once_applies_once(sharded, database):
    world, ann = sharded, sharded.ann
    board = (await ann.slash(world.games, "barbu new", series=1, computers=3)).message
    while (state := stored_state(database)).phase != "play":
        action = GAMES["barbu"].bot_action(state, seed=1)
        if state.phase == "contract":
            await choose_contract(ann, board, action)
        else:
            await decide_doubles(ann, ann.dms[-1], action, seat_names(database))
    assert state.current_player == 0
    card = GAMES["barbu"].bot_action(state, seed=2)
    by_button = (await ann.click(board, "My hand")).ephemeral[0]
    before = len(logged_actions(database))

    racing = await asyncio.gather(
        play_card(ann, ann.dms[-1], card), play_card(ann, by_button, card)
    )

    assert logged_actions(database)[before:].count(card) == 1, "the card is played once"
    # Both results list every private message of the moment: one refusal, seen twice; or
    # the refusal replaced the panel, which had said the card was being played.
    replies = {message.id: message.content for result in racing for message in result.ephemeral}
    replies[by_button.id] = by_button.content
    told = ("outdated", "same moment", "choose again")
    refusals = [text for text in replies.values() if any(word in text for word in told)]
    assert len(refusals) == 1, "the later click is told the game moved on"
    assert_log_replays_to_the_snapshot(database)
    hand_dms = [message for message in ann.dms if "game #" in message.content]
    assert len(hand_dms) == 1, "the deal's one DM, edited by whichever process handles a move"
    hands = [
        version.content
        for message in ann.dms
        for version in [*message.versions, message]
        if "game #" in version.content
    ]
    assert len(hands) > 1 and all(f"in **{sharded.guild.name}**" in text for text in hands), (
        "every version of the hand DM names the server, also those by the process of shard 0"
    )


# Seat 0 to play 6-5, five checkers left each (positions in seat 0's numbering).
BEAR_OFF_RACE = "GB1:,,,,2,3,,,,,,,,,,,,,-3,-2,,,,|10,10|0|6,5|9,9"


@ON_POSTGRESQL
async def test_a_gul_bara_game_on_a_server_of_the_other_shard(sharded, database):
    """The first bot hosts this server's game while the second hosts the first server's."""
    world = sharded.world
    guild = await guild_on_shard(world, 0)
    channel = guild.add_text_channel("backgammon")
    cleo, dora = world.add_user("cleo", guild=guild), world.add_user("dora", guild=guild)
    await world.wait_until_idle()
    opened = await cleo.slash(channel, "gulbara new", opponent=dora)
    await dora.click(opened.message, "Join")
    game_id = stored_game(database)["id"]
    database.run(
        "UPDATE games SET state = ? WHERE id = ?",
        json.dumps(from_code(BEAR_OFF_RACE).to_dict()),
        game_id,
    )
    board = (await cleo.slash(channel, "game board")).message
    steps = 0
    while not (state := stored_state(database)).is_over:
        user = [cleo, dora][state.current_player]
        await play_step(user, board, state, GAMES["gulbara"].bot_action(state, seed=steps))
        steps += 1
        assert steps < 60

    assert stored_game(database)["status"] == "finished"
    assert database.rows("SELECT game_id FROM league_results") == [{"game_id": game_id}]
    finish = [m for m in channel.public_messages() if m.content.startswith("🏁")]
    assert len(finish) == 1 and "Ratings:" in finish[0].content


FIVE_MINUTES = 300


def record_due_work(bots: list[TableBot]) -> list[tuple[int, float]]:
    """(process, moment) of every due table a process claimed and handled."""
    handled: list[tuple[int, float]] = []
    for process, bot in enumerate(bots):
        handle = bot.clocks.handle_due

        async def recorded(table, now: float, process=process, handle=handle) -> bool:
            handled.append((process, now))
            return await handle(table, now)

        bot.clocks.handle_due = recorded
    return handled


async def advance(bots: list[TableBot], clock: ManualTime, seconds: float) -> None:
    """Move the one clock of both processes; return when both schedulers have done what
    fell due (each asks the shared database again once a minute, as on the wall clock)."""
    clock.advance(seconds)
    for bot in bots:
        await bot.clocks.scheduler.settled()


@ON_POSTGRESQL
async def test_a_gul_bara_clock_runs_out_and_one_process_applies_the_timeout(
    sharded, database, clock
):
    """Both processes' schedulers wake at the same moment for the same table: the claim
    in the database lets exactly one of them remind the player, and exactly one of them
    end the game on time, record it in the league and say so."""
    world, ann, ben = sharded, sharded.ann, sharded.ben
    opened = await ann.slash(world.games, "gulbara new", opponent=ben, clock=FIVE_MINUTES)
    board = (await ben.click(opened.message, "Join")).message
    for _ in range(6):
        state = stored_state(database)
        user = [ann, ben][state.current_player]
        await play_step(user, board, state, state.legal_actions()[0])
    late_seat = stored_state(database).current_player
    late, other = [ann, ben][late_seat], [ben, ann][late_seat]
    handled = record_due_work(world.bots)

    await advance(world.bots, clock, FIVE_MINUTES * (1 - REMINDER_SHARE))
    said = world.games.public_messages()
    reminders = [message for message in said if "left for your turn" in message.content]
    assert [message.pinged for message in reminders] == [[late.id]], "reminded once"
    assert stored_game(database)["status"] == "active"

    await advance(world.bots, clock, FIVE_MINUTES * REMINDER_SHARE)
    assert [moment for _, moment in handled] == [
        clock.now() - FIVE_MINUTES * REMINDER_SHARE,
        clock.now(),
    ], "each due moment claimed by one process only"
    assert logged_actions(database).count("!timeout") == 1, "the timeout applied once"
    assert logged_actions(database)[-1] == "!timeout"
    assert_log_replays_to_the_snapshot(database)
    game = stored_game(database)
    assert game["status"] == "finished" and game["due_at"] is None
    assert f"{late.name.title()} lost on time" in board.embeds[0]["description"]
    assert board.buttons() == [], "the board's controls are gone"
    said = [message.content for message in world.games.public_messages()]
    assert len([text for text in said if "lost on time" in text]) == 1, "announced once"
    assert database.rows("SELECT game_id FROM league_results") == [{"game_id": game["id"]}]
    rows = database.rows("SELECT user_id, outcome, forfeit FROM league_seats ORDER BY seat")
    outcomes = {row["user_id"]: (row["outcome"], row["forfeit"]) for row in rows}
    assert outcomes == {late.id: ("loss", 2), other.id: ("win", 0)}, "a loss on time"
    history = (await ann.slash(world.games, "league history")).message
    assert f"{late.name.title()} 2nd (lost on time)" in history.embeds[0]["description"]


@ON_POSTGRESQL
async def test_a_move_clicked_as_the_clock_runs_out_applies_alone_or_not_at_all(
    sharded, database, clock
):
    """The player's click reaches the process of the server's shard at the moment both
    processes' schedulers find the deadline passed: either the step is played and the
    clock starts again, or the game is lost on time and the step refused, never both."""
    world, ann, ben = sharded, sharded.ann, sharded.ben
    opened = await ann.slash(world.games, "gulbara new", opponent=ben, clock=FIVE_MINUTES)
    board = (await ben.click(opened.message, "Join")).message
    state = stored_state(database)
    mover = [ann, ben][state.current_player]
    panel, step = await open_panel(mover, board, state)
    choice = next(c for c in state.step_choices(int(step.split("/")[0])) if c["action"] == step)
    await advance(world.bots, clock, FIVE_MINUTES - 1)
    before = len(logged_actions(database))

    clock.advance(1)  # both schedulers wake while the click is on its way
    racing = await mover.click_nowait(panel, step_label(choice["action"], choice["die"]))
    await advance(world.bots, clock, 0)
    await racing.wait_answered()
    await world.world.wait_until_idle()

    applied = logged_actions(database)[before:]
    stepped = applied[:1] == [step] and "!timeout" not in applied  # with any forced step
    assert stepped or applied == ["!timeout"], "the step or the timeout, never both"
    assert_log_replays_to_the_snapshot(database)
    game = stored_game(database)
    results = database.rows("SELECT game_id FROM league_results")
    if stepped:
        assert panel.content.startswith("✅ You played"), "the player sees his step taken"
        assert game["status"] == "active" and game["due_at"] > clock.now(), "a new deadline"
        assert results == []
    else:
        assert not panel.content.startswith("✅"), "no confirmation of a step not taken"
        # A private answer of its own, the panel itself once it said "being played", or
        # (the board still being redrawn after the timeout) a follow-up saying it is over.
        told = " ".join(m.content for m in [racing.original, *racing.followups] if m)
        assert any(said in told for said in ("outdated", "same moment", "This game is over."))
        assert game["status"] == "finished" and "lost on time" in board.embeds[0]["description"]
        assert results == [{"game_id": game["id"]}]


@ON_POSTGRESQL
async def test_a_process_asking_for_a_held_shard_refuses_with_one_line(sharded, database):
    intruder = sharded_bot(sharded.world, database, 1)
    with pytest.raises(ShardsTaken, match=r"shard\(s\) 1 of 2 are held by the live process"):
        await intruder.login("fake-token")
    await intruder.close()
    assert database.rows("SELECT shard_id FROM shard_leases ORDER BY 1") == [
        {"shard_id": 0},
        {"shard_id": 1},
    ], "the refused process took nothing"


@ON_POSTGRESQL
async def test_a_turn_ping_sent_by_one_process_is_deleted_by_the_other(sharded, database):
    """Ann and Ben alternate between the board (shard 1) and their DMs (shard 0): whichever
    process handles a move deletes the ping the other one sent."""
    world, ann, ben = sharded, sharded.ann, sharded.ben
    lobby = (await ann.slash(world.games, "barbu new", series=1, computers=2)).message
    board = (await ben.click(lobby, "Join")).message
    humans = {0: ann, 3: ben}
    for step in range(12):
        state = stored_state(database)
        user = humans[state.current_player]
        action = GAMES["barbu"].bot_action(state, seed=step)
        if state.phase == "contract":
            await choose_contract(user, board, action)
        else:
            if step % 2:
                private = user.dms[-1]
            else:
                private = (await user.click(board, "My hand")).ephemeral[0]
            if state.phase == "doubling":
                await decide_doubles(user, private, action, seat_names(database))
            else:
                await play_card(user, private, action)
        sent = world.world.message_log
        pings = [m for m in sent if m.channel is world.games and "it is your turn" in m.content]
        assert len([m for m in pings if not m.deleted]) <= 1, "one live ping at a time"
    assert len(pings) >= 4, "both processes sent pings"


async def test_on_sqlite_a_process_cannot_run_only_some_shards(fake_discord, database_path):
    bot = create_bot(
        database_path=str(database_path),
        dev_guild_id=None,
        shard_plan=ShardPlan(SHARDS, (1,)),
        connector=fake_discord.connector(),
        guild_ready_timeout=0.01,
    )
    with pytest.raises(ShardsTaken, match="need DATABASE_URL=postgresql://"):
        await bot.login("fake-token")
    await bot.close()


@ON_POSTGRESQL
async def test_sigterm_gives_the_shards_back_at_once(fake_discord, database):
    bot = sharded_bot(fake_discord, database, 0)
    running = asyncio.create_task(serve(bot, "fake-token"))
    await asyncio.wait_for(bot.wait_until_ready(), timeout=10)
    await fake_discord.wait_until_idle()
    assert database.rows("SELECT shard_id FROM shard_leases") == [{"shard_id": 0}]

    os.kill(os.getpid(), signal.SIGTERM)
    await asyncio.wait_for(running, timeout=10)

    assert bot.is_closed() and bot.store is None
    assert database.rows("SELECT shard_id FROM shard_leases") == [], "a successor need not wait"


@ON_POSTGRESQL
async def test_at_start_up_each_process_redraws_only_its_own_servers_boards(fake_discord, database):
    world = fake_discord
    guild = await guild_on_shard(world, 1)
    games = guild.add_text_channel("games")
    ann = world.add_user("ann", guild=guild)
    bots = [sharded_bot(world, database, shard) for shard in range(SHARDS)]
    for bot in bots:  # shard 0's process registers the commands
        await world.start_bot(bot)
    await ann.slash(games, "bann new", computer="normal")
    for bot in bots:
        await world.stop_bot(bot)
    # A crash between a save and its redraw left the board of shard 1's server behind.
    database.run("UPDATE games SET board_version = version - 1")

    other_shard = sharded_bot(world, database, 0)
    await world.start_bot(other_shard)
    await world.wait_until_idle()
    game = stored_game(database)
    assert game["board_version"] == game["version"] - 1, "left to the process of shard 1"

    await world.stop_bot(other_shard)
    own_shard = sharded_bot(world, database, 1)
    await world.start_bot(own_shard)
    await world.wait_until_idle()
    game = stored_game(database)
    assert game["board_version"] == game["version"]
    await world.stop_bot(own_shard)
