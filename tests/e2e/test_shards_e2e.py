"""Two bot processes on the two shards of one bot, over one PostgreSQL database.

The fake Discord routes a server's events and interactions to shard
``(guild_id >> 22) % 2`` and every DM to shard 0, as Discord does. The server here lives
on shard 1, so its board clicks reach one bot while the players' DM clicks reach the
other: both act on the same tables through the database, and nothing applies twice.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
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
from e2e.test_gulbara_e2e import play_step
from stored import logged_actions, stored_game, stored_state
from testdb import TestDatabase

from bot import TableBot, create_bot, serve
from fakediscord import Channel, Guild, Message, SimUser
from fakediscord.fixtures import FakeWorld
from games import GAMES, replay
from games.gulbara import from_code
from shards import ShardPlan, ShardsTaken

SHARDS = 2
ON_POSTGRESQL = pytest.mark.parametrize("database", ["postgresql"], indirect=True)


@dataclass
class Sharded:
    """One server on shard 1, its #games channel and players, and both bots."""

    world: FakeWorld
    guild: Guild
    games: Channel
    ann: SimUser
    ben: SimUser
    bots: list[TableBot]


def shard_of(guild_id: int) -> int:
    return (guild_id >> 22) % SHARDS


async def guild_on_shard(world, shard: int) -> Guild:
    """A new server whose events Discord sends to ``shard``."""
    while True:
        guild = world.add_guild(f"Shard {shard} Server")
        if shard_of(guild.id) == shard:
            return guild
        await asyncio.sleep(0.002)  # snowflakes of the next millisecond


def sharded_bot(world, database: TestDatabase, shard: int) -> TableBot:
    return create_bot(
        database_path=database.target,
        dev_guild_id=None,
        seed_source=seeds_where(lambda start: True).__next__,  # Ann declares first
        shard_plan=ShardPlan(SHARDS, (shard,)),
        connector=world.connector(),
        guild_ready_timeout=0.01,
    )


@pytest.fixture
async def sharded(fake_discord, database: TestDatabase) -> AsyncIterator[Sharded]:
    world = fake_discord
    guild = await guild_on_shard(world, 1)
    games = guild.add_text_channel("games")
    ann = world.add_user("ann", guild=guild)
    ben = world.add_user("ben", guild=guild)
    bots = [sharded_bot(world, database, shard) for shard in range(SHARDS)]
    for bot in bots:
        await world.start_bot(bot)
    yield Sharded(world, guild, games, ann, ben, bots)
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
        row["kind"], players=players, seed=row["seed"], options=json.loads(row["options"]),
        actions=actions,
    )
    assert replayed.to_dict() == json.loads(row["state"]), "no action applied twice or lost"
    seqs = [r["seq"] for r in database.rows("SELECT seq FROM actions WHERE game_id = ?", row["id"])]
    assert seqs == list(range(1, len(seqs) + 1)) and row["version"] >= 1


def arrange_state(database: TestDatabase, **changes: object) -> dict:
    """Change fields of the newest game's stored state (the bot reads it afresh)."""
    state = stored_state(database).to_dict() | changes
    database.run(
        "UPDATE games SET state = ? WHERE id = ?", json.dumps(state), stored_game(database)["id"]
    )
    return state


def assert_each_logged_action_applied_once(database: TestDatabase, start: dict, since: int):
    """Replaying the actions logged after ``start`` gives exactly the stored state."""
    row = stored_game(database)
    state = GAMES[row["kind"]].from_dict(start)
    for action in logged_actions(database)[since:]:
        state = state.apply(action)
    assert state.to_dict() == json.loads(row["state"]), "no action applied twice or lost"


@ON_POSTGRESQL
async def test_a_barbu_series_ends_with_dm_clicks_on_the_other_shard(sharded, database):
    """The last deal of a series (the six before it arranged: the computers' thinking for a
    whole series takes half a minute), its contract chosen on the board (shard 1), every
    doubling and card from the hand DM (shard 0), then the result and the league."""
    world, ann = sharded, sharded.ann
    assert [handled_by(bot) for bot in world.bots] == [{0}, {1}]
    syncs = [r for r in world.world.requests if r.method == "PUT" and "commands" in r.route]
    assert len(syncs) == 1, "only the process with shard 0 syncs the slash commands"
    assert [bot.get_guild(world.guild.id) is not None for bot in world.bots] == [False, True]
    ann.permissions = discord.Permissions(manage_guild=True)
    rated = await ann.slash(world.games, "settings", rate_computer_games=True)
    fields = {field["name"]: field["value"] for field in rated.message.embeds[0]["fields"]}
    assert fields["Games with computers"] == "rated"
    await ann.slash(world.games, "barbu new", series=1, computers=3)
    before = len(logged_actions(database))
    start = arrange_state(
        database,
        first_declarer=0,
        deal_number=6,
        remaining=["notricks"],
        declarer_doubled=[0, 2, 2, 2],
    )
    board = (await ann.slash(world.games, "game board")).message

    routes = set()
    step = 0
    while not (state := stored_state(database)).is_over:
        assert state.current_player == 0, "the computers answer at once"
        action = GAMES["barbu"].bot_action(state, seed=step)
        if state.phase == "contract":
            await choose_contract(ann, board, action)
            routes.add("board")
        else:
            hand: Message = ann.dms[-1]
            if state.phase == "doubling":
                await decide_doubles(ann, hand, action, seat_names(database))
            else:
                await play_card(ann, hand, action)
            routes.add("dm")
        step += 1
        assert step < 200

    assert routes == {"board", "dm"}
    assert stored_game(database)["status"] == "finished"
    assert stored_state(database).deal_number == 7, "the series of seven deals is over"
    assert_each_logged_action_applied_once(database, start, before)
    results = database.rows("SELECT game_id, rated FROM league_results")
    assert results == [{"game_id": stored_game(database)["id"], "rated": 1}], "recorded once"
    games_counted = database.rows("SELECT player_id, games FROM league_ratings ORDER BY 1")
    assert games_counted == [{"player_id": 0, "games": 1}, {"player_id": ann.id, "games": 1}]
    finish = [m for m in world.games.public_messages() if m.content.startswith("🏁")]
    assert len(finish) == 1 and "Ratings:" in finish[0].content, "announced once, with ratings"


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
    # Both results list every private message of the moment: one refusal, seen twice.
    replies = {message.id: message.content for result in racing for message in result.ephemeral}
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
async def test_at_start_up_each_process_redraws_only_its_own_servers_boards(
    fake_discord, database
):
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
