"""Tournaments through the real discord.py against the fake Discord: an organiser
announces one, members join with the button or the command, computers fill the field, and
the bot runs the rounds by itself: every table of a round opens at once in a thread of its
own (its players pinged), a no-show loses on time and two missed rounds withdraw him, the
next round is paired when the last table ends, the standings follow each round in the
announcement's thread and equal a recount from the stored results, and the podium ends
it. A restart in the middle of a round loses nothing and opens nothing twice. Bad input
gets a short private answer and changes nothing.
"""

from __future__ import annotations

import asyncio
import json
from collections import defaultdict

import discord
import pytest
from e2e.test_hostile_input import assert_short_private_refusal
from e2e.test_shards_e2e import guild_on_shard, sharded_bot
from testdb import both_engines

from cogs.scheduler import ManualTime
from cogs.tournament import OPENING_LEASE
from fakediscord import Message

SWISS_ROUNDS = 4


async def eventually(check, what: str, timeout: float = 30.0):
    """Wait (polling) until ``check()`` is true: the tournament moves on in the background."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not (found := check()):
        assert asyncio.get_running_loop().time() < deadline, f"never: {what}"
        await asyncio.sleep(0.05)
    return found


def rounds_paired(database, tournament_id: int = 1) -> int:
    rows = database.rows(
        "SELECT COUNT(*) AS n FROM tournament_rounds WHERE tournament_id = ?", tournament_id
    )
    return int(rows[0]["n"])


def tables_of(database, round_number: int, tournament_id: int = 1) -> list[dict]:
    return database.rows(
        "SELECT number, seats, game_id, result FROM tournament_tables"
        " WHERE tournament_id = ? AND round = ? ORDER BY number",
        tournament_id,
        round_number,
    )


async def quiet(world, thread, round_number: int) -> None:
    """Wait until the round's start is told and the bot has nothing in flight, so a
    restart stops it between two steps (as a crash would) rather than in a request."""
    await eventually(
        lambda: any(
            m.content.startswith(f"🎲 Round {round_number} has started")
            for m in thread.public_messages()
        ),
        f"round {round_number}'s start told",
    )
    await world.fake.wait_until_idle()


def round_open(database, round_number: int) -> bool:
    """Whether every table of the round has its game started and its board shown."""
    tables = tables_of(database, round_number)
    if not tables or not all(table["game_id"] for table in tables):
        return False
    games = database.rows(
        "SELECT status, board_message_id FROM games WHERE id IN"
        f" ({', '.join(str(table['game_id']) for table in tables)})"
    )
    return all(game["status"] != "lobby" and game["board_message_id"] for game in games)


def round_complete(database, round_number: int) -> bool:
    tables = tables_of(database, round_number)
    return bool(tables) and all(table["result"] is not None for table in tables)


def recount(database, up_to: int, tournament_id: int = 1) -> dict[str, float]:
    """Each entrant's score after round ``up_to`` from the stored results alone: a win 1,
    a draw ½, a bye 1, an absent player nothing."""
    scores: dict[str, float] = defaultdict(float)
    for row in database.rows(
        "SELECT key FROM tournament_entrants WHERE tournament_id = ?", tournament_id
    ):
        scores[row["key"]] = 0.0
    for row in database.rows(
        "SELECT byes FROM tournament_rounds WHERE tournament_id = ? AND number <= ?",
        tournament_id,
        up_to,
    ):
        for key in json.loads(row["byes"]):
            scores[key] += 1.0
    for row in database.rows(
        "SELECT seats, result FROM tournament_tables WHERE tournament_id = ?"
        " AND round <= ? AND result IS NOT NULL",
        tournament_id,
        up_to,
    ):
        seats, result = json.loads(row["seats"]), json.loads(row["result"])
        places = result["places"]
        absent = result.get("absent") or [False] * len(seats)
        for seat, key in enumerate(seats):
            if absent[seat]:
                continue
            beaten = sum(
                1
                for other, place in enumerate(places)
                if place > places[seat] or (absent[other] and other != seat)
            )
            tied = sum(
                1
                for other, place in enumerate(places)
                if other != seat and place == places[seat] and not absent[other]
            )
            scores[key] += beaten + tied / 2
    return dict(scores)


def standings_in(message: Message) -> dict[str, float]:
    """Name → score from a standings message's lines ("` 1` **Name** 3 (…)")."""
    found = {}
    for line in message.content.splitlines()[1:]:
        name = line.split("**")[1]
        score = float(line.split("**")[2].split("(")[0].strip())
        found[name] = score
    return found


def names_by_key(database, tournament_id: int = 1) -> dict[str, str]:
    rows = database.rows(
        "SELECT key, name FROM tournament_entrants WHERE tournament_id = ?", tournament_id
    )
    return {row["key"]: row["name"] for row in rows}


async def create_swiss(world, **options) -> Message:
    world.alice.permissions = discord.Permissions(manage_guild=True)
    created = await world.alice.slash(
        world.games, "tournament create", game="bann", format="swiss", name="Spring Cup", **options
    )
    return created.message


@both_engines()
async def test_a_swiss_of_nine_with_a_no_show_and_a_restart(
    fake_discord, start_bot, database, clock: ManualTime
):
    world = fake_discord
    bot = await start_bot()
    announcement = await create_swiss(world, rounds=SWISS_ROUNDS)
    assert announcement.content.startswith("🏆 **Spring Cup**")
    joined = await world.bob.click(announcement, "Join")
    assert joined.ephemeral[0].content == "✅ You are entered in **Spring Cup**."
    await world.alice.slash(world.games, "tournament join")
    for _ in range(7):
        await world.alice.slash(world.games, "tournament add-computer", level="easy")
    assert len(database.rows("SELECT key FROM tournament_entrants")) == 9

    started = await world.alice.slash(world.games, "tournament start")
    assert started.message.content == "🏆 **Spring Cup** has started."
    thread = world.guild.thread("Spring Cup")
    names = names_by_key(database)
    members = {"Alice": world.alice, "Bob": world.bob}

    for round_number in range(1, SWISS_ROUNDS + 1):
        tables = await eventually(
            lambda r=round_number: round_open(database, r) and tables_of(database, r),
            f"round {round_number} opens",
        )
        if round_number == 2:
            # A restart in the middle of the round: nothing lost, nothing opened twice.
            await quiet(world, thread, round_number)
            bot = await start_bot()
            opened = [(t["number"], t["seats"], t["game_id"]) for t in tables]
            assert [
                (t["number"], t["seats"], t["game_id"]) for t in tables_of(database, 2)
            ] == opened
        games = database.rows("SELECT id FROM games ORDER BY id")
        assert len(games) == sum(len(tables_of(database, r)) for r in range(1, round_number + 1))
        byes = json.loads(
            database.rows("SELECT byes FROM tournament_rounds WHERE number = ?", round_number)[0][
                "byes"
            ]
        )
        seated = [key for table in tables for key in json.loads(table["seats"])]
        assert len(byes) == 1 and sorted(seated + byes) == sorted(names), "9 players: one bye"
        for table in tables:
            game = database.rows(
                "SELECT channel_id, status FROM games WHERE id = ?", table["game_id"]
            )[0]
            table_thread = world.channel_by_id(game["channel_id"])
            assert table_thread.parent is world.games
            players = [names[key] for key in json.loads(table["seats"])]
            line = table_thread_start(world, table_thread)
            for name in players:
                if name in members:
                    assert f"<@{members[name].id}>" in line.content, "its players are pinged"
            if game["status"] != "active":
                continue
            if "Bob" in players and round_number == 2:
                continue  # Bob does not show up this round
            player = members["Alice"] if "Alice" in players else members["Bob"]
            asked = await player.slash(table_thread, "game resign")
            await player.click(asked.message, "Yes, resign")
        if round_number == 2:
            clock.advance(7 * 24 * 3600)
            await bot.clocks.scheduler.settled()
        await eventually(
            lambda r=round_number: round_complete(database, r), f"round {round_number} ends"
        )
        posted = await eventually(
            lambda r=round_number: [
                m
                for m in thread.public_messages()
                if m.content.startswith(f"📊 Standings after round {r}")
            ],
            f"the standings after round {round_number}",
        )
        expected = {names[key]: score for key, score in recount(database, round_number).items()}
        assert standings_in(posted[0]) == expected, "the standings equal a recount"
        assert posted[0].image().width == 660, "with the standings picture"

    podium = await eventually(
        lambda: [
            m
            for m in world.games.public_messages()
            if m.content.startswith("🏆 **Spring Cup** is over!")
        ],
        "the podium",
    )
    assert podium[0].content.count("\n") >= 3
    assert database.rows("SELECT status FROM tournaments")[0]["status"] == "finished"
    bob = database.rows("SELECT missed, withdrawn FROM tournament_entrants WHERE name = 'Bob'")[0]
    assert bob == {"missed": 1, "withdrawn": 0}


def table_thread_start(world, table_thread) -> Message:
    """The channel line a table's thread was started from."""
    return next(m for m in world.games.public_messages() if m.id == table_thread.id)


def entrants(database) -> list[tuple]:
    rows = database.rows("SELECT key, member_id, withdrawn FROM tournament_entrants ORDER BY key")
    return [tuple(row.values()) for row in rows]


async def test_bad_input_gets_a_short_private_answer_and_changes_nothing(
    fake_discord, start_bot, database
):
    world = fake_discord
    await start_bot()
    world.carol.locale = "de"
    refused = await world.dave.slash(
        world.games, "tournament create", game="bann", format="round_robin"
    )
    assert assert_short_private_refusal(refused, world.dave).startswith(
        "Organising a tournament needs"
    )
    assert database.rows("SELECT id FROM tournaments") == []
    world.alice.permissions = discord.Permissions(manage_guild=True)
    wrong = await world.alice.slash(world.games, "tournament create", game="barbu", format="swiss")
    assert assert_short_private_refusal(wrong, world.alice) == (
        "Barbu cannot be played as a Swiss tournament."
    )
    created = await world.alice.slash(
        world.games,
        "tournament create",
        game="bann",
        format="round_robin",
        name="Cup",
        max_players=2,
    )
    announcement = created.message
    await world.alice.click(announcement, "Join")

    alone = await world.alice.slash(world.games, "tournament start")
    assert assert_short_private_refusal(alone, world.alice) == (
        "A tournament needs at least 2 players; **Cup** has 1."
    )
    await world.bob.slash(world.games, "tournament join")
    before = entrants(database)
    twice = await world.bob.click(announcement, "Join")
    assert assert_short_private_refusal(twice, world.bob) == ("You are entered in **Cup** already.")
    full = await world.carol.click(announcement, "Join")
    assert assert_short_private_refusal(full, world.carol) == "**Cup** ist voll (2 Spieler)."
    not_organiser = await world.bob.slash(world.games, "tournament start")
    assert assert_short_private_refusal(not_organiser, world.bob) == (
        "Only the organiser (or a member with Manage Server) can do that."
    )
    assert entrants(database) == before
    assert database.rows("SELECT status FROM tournaments") == [{"status": "registration"}]

    await world.alice.slash(world.games, "tournament start")
    await eventually(
        lambda: tables_of(database, 1) and tables_of(database, 1)[0]["game_id"], "round 1"
    )
    assert "Status: running." in announcement.content
    assert announcement.buttons() == [], "a round robin takes nobody once it runs"
    started = await world.dave.slash(world.games, "tournament join")
    assert assert_short_private_refusal(started, world.dave) == (
        "**Cup** has started: entry is closed."
    )
    leaving = await world.bob.slash(world.games, "tournament leave")
    assert assert_short_private_refusal(leaving, world.bob) == (
        "Your game of this round is still being played: finish it (or resign) before leaving."
    )
    again = await world.alice.slash(world.games, "tournament start")
    assert assert_short_private_refusal(again, world.alice) == "**Cup** has started already."
    assert entrants(database) == before
    assert len(database.rows("SELECT id FROM games")) == 1


SCENARIOS = {
    "a round robin of five at Gul Bara": {
        "game": "gulbara",
        "format": "round_robin",
        "computers": 4,
        "humans": ("alice",),
        "options": {},
        "rounds": 5,
    },
    "a Barbu table-group event of eight": {
        "game": "barbu",
        "format": "table_groups",
        "computers": 6,
        "humans": ("alice", "bob"),
        "options": {"rounds": 2, "series": 1},
        "rounds": 2,
    },
    "a knockout of six": {
        "game": "bann",
        "format": "knockout",
        "computers": 5,
        "humans": ("alice",),
        "options": {},
        "rounds": 3,
    },
}


def recount_places(database, up_to: int, seats_per_table: int) -> dict[str, float]:
    """Scores by place from the stored results alone (the rule book): with n at a table,
    first n−1 … last 0, ties sharing, absent players sharing the last places; a bye scores
    first place's points at a full table."""
    scores = {key: 0.0 for key in names_by_key(database)}
    for row in database.rows("SELECT byes FROM tournament_rounds WHERE number <= ?", up_to):
        for key in json.loads(row["byes"]):
            scores[key] += seats_per_table - 1
    for row in database.rows(
        "SELECT seats, result FROM tournament_tables WHERE round <= ? AND result IS NOT NULL",
        up_to,
    ):
        seats, result = json.loads(row["seats"]), json.loads(row["result"])
        absent = result.get("absent") or [False] * len(seats)
        places = [
            len(seats) + 1 if absent[seat] else place for seat, place in enumerate(result["places"])
        ]
        for seat, key in enumerate(seats):
            worse = sum(1 for place in places if place > places[seat])
            tied = sum(1 for place in places if place == places[seat]) - 1
            scores[key] += worse + tied / 2
    return scores


def recount_knockout(database, up_to: int) -> dict[str, float]:
    """Rounds each player went through, from the stored results: a bye, or a game won (a
    drawn game's decider decides)."""
    advanced = {key: 0.0 for key in names_by_key(database)}
    for number in range(1, up_to + 1):
        byes = database.rows("SELECT byes FROM tournament_rounds WHERE number = ?", number)
        for key in json.loads(byes[0]["byes"]):
            advanced[key] += 1
        tables = database.rows(
            "SELECT number, decider_of, seats, result FROM tournament_tables WHERE round = ?",
            number,
        )
        decider_of = {row["decider_of"]: row for row in tables if row["decider_of"] is not None}
        for table in tables:
            if table["decider_of"] is not None:
                continue
            game = table
            while (places := json.loads(game["result"])["places"])[0] == places[1]:
                game = decider_of[game["number"]]
            advanced[json.loads(game["seats"])[places.index(1)]] += 1
    return advanced


async def play_human_seats(world, database, round_number: int, humans) -> None:
    """Each human at a two-player table of the round resigns (he is there, and loses)."""
    names = names_by_key(database)
    for table in tables_of(database, round_number):
        if table["game_id"] is None:
            continue  # a decider about to open
        game = database.rows(
            "SELECT channel_id, status, seats FROM games WHERE id = ?", table["game_id"]
        )[0]
        if game["status"] != "active" or len(json.loads(game["seats"])) != 2:
            continue
        for key in json.loads(table["seats"]):
            member = getattr(world, names[key].lower(), None)
            if names[key].lower() in humans and member is not None:
                thread = world.channel_by_id(game["channel_id"])
                asked = await member.slash(thread, "game resign")
                await member.click(asked.message, "Yes, resign")
                break


@both_engines()
@pytest.mark.parametrize("scenario", list(SCENARIOS))
async def test_a_tournament_runs_round_by_round_through_a_restart(
    fake_discord, start_bot, database, clock: ManualTime, scenario
):
    plan = SCENARIOS[scenario]
    world = fake_discord
    bot = await start_bot()
    world.alice.permissions = discord.Permissions(manage_guild=True)
    created = await world.alice.slash(
        world.games,
        "tournament create",
        game=plan["game"],
        format=plan["format"],
        name="Cup",
        **plan["options"],
    )
    for human in plan["humans"]:
        await getattr(world, human).click(created.message, "Join")
    for _ in range(plan["computers"]):
        await world.alice.slash(world.games, "tournament add-computer", level="easy")
    started = await world.alice.slash(world.games, "tournament start")
    assert started.message.content == "🏆 **Cup** has started."
    thread = world.guild.thread("Cup")
    names = names_by_key(database)
    seats_per_table = 4 if plan["game"] == "barbu" else 2

    for round_number in range(1, plan["rounds"] + 1):
        await eventually(
            lambda r=round_number: round_open(database, r),
            f"round {round_number} opens",
        )
        if round_number == 2:
            await quiet(world, world.guild.thread("Cup"), round_number)
            bot = await start_bot()
        games = len(database.rows("SELECT id FROM games"))
        assert games == len(database.rows("SELECT number FROM tournament_tables")), (
            "one game a table"
        )
        for _ in range(400):
            if round_complete(database, round_number) and not database.rows(
                "SELECT number FROM tournament_tables WHERE round = ? AND result IS NULL",
                round_number,
            ):
                break
            await play_human_seats(world, database, round_number, plan["humans"])
            clock.advance(7 * 24 * 3600)
            await bot.clocks.scheduler.settled()
            await asyncio.sleep(0.05)
        posted = await eventually(
            lambda r=round_number: [
                m
                for m in thread.public_messages()
                if m.content.startswith(f"📊 Standings after round {r}")
            ],
            f"the standings after round {round_number}",
        )
        if plan["format"] == "knockout":
            expected = recount_knockout(database, round_number)
        else:
            expected = recount_places(database, round_number, seats_per_table)
        assert standings_in(posted[0]) == {names[k]: v for k, v in expected.items()}

    await eventually(
        lambda: database.rows("SELECT status FROM tournaments")[0]["status"] == "finished",
        "the end",
    )
    await eventually(
        lambda: [
            m for m in world.games.public_messages() if m.content.startswith("🏆 **Cup** is over!")
        ],
        "the podium",
    )
    if plan["game"] == "barbu":
        absentees = database.rows(
            "SELECT name, missed, withdrawn FROM tournament_entrants WHERE member_id IS NOT NULL"
            " ORDER BY name"
        )
        assert absentees == [
            {"name": "Alice", "missed": 2, "withdrawn": 1},
            {"name": "Bob", "missed": 2, "withdrawn": 1},
        ], "a computer played their seats twice: withdrawn"


async def resign_at_table(world, database, member, round_number: int) -> None:
    """``member`` resigns his game of the round."""
    for table in tables_of(database, round_number):
        game = database.rows(
            "SELECT channel_id, seats, status FROM games WHERE id = ?", table["game_id"]
        )[0]
        if game["status"] == "active" and str(member.id) in game["seats"]:
            thread = world.channel_by_id(game["channel_id"])
            asked = await member.slash(thread, "game resign")
            await member.click(asked.message, "Yes, resign")
            return
    raise AssertionError(f"{member} has no running game in round {round_number}")


async def test_check_in_a_timed_start_late_entry_pause_history_and_profile(
    fake_discord, start_bot, database, clock: ManualTime
):
    world = fake_discord
    bot = await start_bot()
    world.alice.permissions = discord.Permissions(manage_guild=True)
    created = await world.alice.slash(
        world.games,
        "tournament create",
        game="bann",
        format="swiss",
        name="Autumn Open",
        rounds=4,
        start_in=60,
    )
    announcement = created.message
    assert [button.label for button in announcement.buttons()] == ["Join", "Check in"]
    await world.bob.click(announcement, "Join")
    await world.carol.click(announcement, "Join")
    early = await world.carol.click(announcement, "Check in")
    assert early.ephemeral[0].content.startswith("Check-in for **Autumn Open** opens <t:")
    for _ in range(3):
        await world.alice.slash(world.games, "tournament add-computer", level="easy")

    clock.advance(31 * 60)
    checked = await world.carol.click(announcement, "Check in")
    assert checked.ephemeral[0].content == "✅ You are checked in for **Autumn Open**."
    stranger = await world.dave.slash(world.games, "tournament check-in")
    assert stranger.message.content == "You are not entered in **Autumn Open**."

    clock.advance(30 * 60)
    thread = world.guild.thread("Autumn Open")
    await eventually(
        lambda: database.rows("SELECT status FROM tournaments")[0]["status"] == "running",
        "the timed start",
    )
    dropped = await eventually(
        lambda: [m for m in thread.public_messages() if m.content.startswith("Not checked in")],
        "who was dropped",
    )
    assert dropped[0].content == "Not checked in, so not playing: Bob."
    await eventually(lambda: len(tables_of(database, 1)) == 2, "round 1 of four players")

    late = await world.dave.click(announcement, "Join")
    assert late.ephemeral[0].content == "✅ You are entered in **Autumn Open** from round 2."
    paused = await world.alice.slash(world.games, "tournament pause")
    assert paused.message.content == "⏸️ **Autumn Open** is paused: no new round opens."
    await resign_at_table(world, database, world.carol, 1)
    await eventually(lambda: round_complete(database, 1), "round 1 ends")
    await asyncio.sleep(0.2)
    assert rounds_paired(database) == 1, "no new round while paused"

    await world.alice.slash(world.games, "tournament resume")
    await eventually(lambda: rounds_paired(database) == 2, "round 2 after resuming")
    seated = {key for table in tables_of(database, 2) for key in json.loads(table["seats"])}
    byes = json.loads(
        database.rows("SELECT byes FROM tournament_rounds WHERE number = 2")[0]["byes"]
    )
    dave = database.rows("SELECT key FROM tournament_entrants WHERE name = 'Dave'")[0]["key"]
    assert dave in seated | set(byes), "the late entrant plays from round 2"
    cancelled = await world.alice.slash(world.games, "tournament cancel")
    assert cancelled.message.content == "**Autumn Open** is cancelled."

    await world.alice.slash(
        world.games, "tournament create", game="bann", format="swiss", name="Quick", rounds=1
    )
    await world.carol.slash(world.games, "tournament join")
    await world.alice.slash(world.games, "tournament add-computer", level="easy")
    await world.alice.slash(world.games, "tournament start")
    await eventually(
        lambda: (t := tables_of(database, 1, tournament_id=2)) and t[0]["game_id"], "its game"
    )
    game = database.rows(
        "SELECT channel_id FROM games WHERE id = ?", tables_of(database, 1, 2)[0]["game_id"]
    )[0]
    asked = await world.carol.slash(world.channel_by_id(game["channel_id"]), "game resign")
    await world.carol.click(asked.message, "Yes, resign")
    await eventually(
        lambda: (
            database.rows("SELECT status FROM tournaments WHERE id = 2")[0]["status"] == "finished"
        ),
        "the end",
    )
    history = await world.bob.slash(world.games, "tournament history")
    assert history.message.content.splitlines() == [
        "🏆 **Past tournaments**",
        "**Quick** (Bann, Swiss): 1st Computer 1 (easy) · 2nd Carol",
    ]
    world.dave.locale = "de"
    german = await world.dave.slash(world.games, "tournament history")
    assert german.message.content.splitlines()[1] == (
        "**Quick** (Bann, Schweizer System): 1. Computer 1 (easy) · 2. Carol"
    )
    cog = bot.get_cog("Tournaments")
    season = await bot.league.league.current_season(world.guild.id)
    moments = await cog.moments(world.guild.id, world.carol.id, "bann", season)
    assert [moment.label for moment in moments] == ["Quick: 2nd"]


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)
async def test_two_processes_carrying_a_round_on_at_once_pair_and_open_it_once(
    fake_discord, database
):
    """Two processes on one PostgreSQL database both find round two owed (the round
    before ended while the tournament was paused) and carry the tournament on at once:
    the round is paired once and each of its tables opened once."""
    world = fake_discord
    guild = await guild_on_shard(world, 1)
    channel = guild.add_text_channel("games")
    ann, ben = (world.add_user(name, guild=guild) for name in ("ann", "ben"))
    ann.permissions = discord.Permissions(manage_guild=True)
    bots = [sharded_bot(world, database, shard) for shard in (0, 1)]
    for bot in bots:
        await world.start_bot(bot)
    try:
        created = await ann.slash(
            channel, "tournament create", game="bann", format="swiss", name="Duel", rounds=3
        )
        for member in (ann, ben):
            await member.click(created.message, "Join")
        for _ in range(6):
            await ann.slash(channel, "tournament add-computer", level="easy")
        await ann.slash(channel, "tournament start")
        await eventually(lambda: all(t["game_id"] for t in tables_of(database, 1)), "round 1")
        await ann.slash(channel, "tournament pause")
        for member in (ann, ben):
            for table in tables_of(database, 1):
                game = database.rows(
                    "SELECT channel_id, seats, status FROM games WHERE id = ?", table["game_id"]
                )[0]
                if game["status"] == "active" and str(member.id) in game["seats"]:
                    asked = await member.slash(
                        world.channel_by_id(game["channel_id"]), "game resign"
                    )
                    await member.click(asked.message, "Yes, resign")
        await eventually(lambda: round_complete(database, 1), "round 1 ends while paused")
        assert rounds_paired(database) == 1
        database.run("UPDATE tournaments SET status = 'running'")

        await asyncio.gather(*(bot.get_cog("Tournaments").advance(1) for bot in bots))
        await world.fake.wait_until_idle()

        assert rounds_paired(database) == 2
        tables = tables_of(database, 2)
        assert len(tables) == 4 and all(table["game_id"] for table in tables)
        games = database.rows("SELECT id FROM games")
        assert len(games) == 8, "one game for each table of the two rounds, none twice"
        lines = [m for m in channel.public_messages() if ", round 2, table" in m.content]
        assert len(lines) == 4, "each table's line posted once"
    finally:
        for bot in bots:
            await world.stop_bot(bot)


async def test_a_thread_discord_refuses_is_opened_again_once_its_claim_ran_out(
    fake_discord, start_bot, database, clock: ManualTime
):
    world = fake_discord
    bot = await start_bot()
    announcement = await create_swiss(world, rounds=3)
    for member in (world.alice, world.bob):
        await member.click(announcement, "Join")
    await world.alice.slash(world.games, "tournament add-computer", level="easy")
    await world.alice.slash(world.games, "tournament add-computer", level="easy")
    world.fail(
        "POST", "/channels/{channel_id}/messages/{message_id}/threads", status=403, code=50013
    )

    await world.alice.slash(world.games, "tournament start")
    await world.fake.wait_until_idle()
    assert not all(table["game_id"] for table in tables_of(database, 1)), "one table is owed"
    clock.advance(OPENING_LEASE + 1)

    await eventually(lambda: all(table["game_id"] for table in tables_of(database, 1)), "the retry")
    await world.fake.wait_until_idle()
    lines = [m for m in world.games.public_messages() if ", round 1, table" in m.content]
    assert len(lines) == 2, "each table's line once: the refused one's went with it"
    assert len(database.rows("SELECT id FROM games")) == 2
    assert bot.is_ready()


async def test_a_game_abandoned_elsewhere_is_scored_by_the_organiser_with_a_log_line(
    fake_discord, start_bot, database
):
    world = fake_discord
    await start_bot()
    world.alice.permissions = discord.Permissions(manage_guild=True)
    created = await world.alice.slash(
        world.games, "tournament create", game="bann", format="round_robin", name="Pair"
    )
    for member in (world.alice, world.bob):
        await member.click(created.message, "Join")
    await world.alice.slash(world.games, "tournament start")
    await eventually(lambda: round_open(database, 1), "round 1")
    game = database.rows("SELECT id, channel_id FROM games")[0]
    table_thread = world.channel_by_id(game["channel_id"])
    asked = await world.alice.slash(table_thread, "game abandon")
    await world.alice.click(asked.message, "Yes, abandon")
    thread = world.guild.thread("Pair")
    notice = await eventually(
        lambda: [m for m in thread.public_messages() if m.content.startswith("⚠️")],
        "the organiser told",
    )
    assert notice[0].content == (
        f"⚠️ Game #{game['id']} ended without a result: <@{world.alice.id}>, score it with"
        f" `/tournament score game:{game['id']}` and its winner; the round waits for it."
    )

    refused = await world.bob.slash(
        world.games, "tournament score", game=game["id"], winner=world.bob
    )
    assert assert_short_private_refusal(refused, world.bob) == (
        "Only the organiser (or a member with Manage Server) can do that."
    )
    scored = await world.alice.slash(
        world.games, "tournament score", game=game["id"], winner=world.bob
    )
    line = f"📝 Alice scored game #{game['id']}, decided elsewhere: Bob wins."
    assert scored.message.content == line

    podium = await eventually(
        lambda: [m for m in world.games.public_messages() if "**Pair** is over!" in m.content],
        "the podium",
    )
    assert podium[0].content.splitlines()[1:] == ["🥇 Bob", "🥈 Alice"]
    assert line in [m.content for m in thread.public_messages()]
    (logged,) = json.loads(database.rows("SELECT log FROM tournaments")[0]["log"])
    assert (logged["event"], logged["game"], logged["by"]) == ("scored", game["id"], world.alice.id)


async def test_an_abandoned_barbu_table_is_scored_by_places_and_bad_places_change_nothing(
    fake_discord, start_bot, database
):
    world = fake_discord
    await start_bot()
    world.alice.permissions = discord.Permissions(manage_guild=True)
    created = await world.alice.slash(
        world.games,
        "tournament create",
        game="barbu",
        format="table_groups",
        name="Four",
        rounds=2,
        series=1,
    )
    for member in (world.alice, world.bob, world.carol):
        await member.click(created.message, "Join")
    await world.alice.slash(world.games, "tournament add-computer", level="easy")
    await world.alice.slash(world.games, "tournament start")
    await eventually(lambda: round_open(database, 1), "round 1")
    game = database.rows("SELECT id, channel_id FROM games")[0]
    number = game["id"]
    bob, alice = f"<@{world.bob.id}>", f"<@{world.alice.id}>"

    async def refusal(**options) -> str:
        answer = await world.alice.slash(world.games, "tournament score", game=number, **options)
        return assert_short_private_refusal(answer, world.alice)

    assert await refusal(places=f"{bob}, {alice}, Carol, Computer 1 (easy)") == (
        f"Game #{number} is still being played: only a game that ended without a result"
        " can be scored."
    )
    table_thread = world.channel_by_id(game["channel_id"])
    asked = await world.alice.slash(table_thread, "game abandon")
    await world.alice.click(asked.message, "Yes, abandon")
    notice = await eventually(
        lambda: [m for m in world.guild.thread("Four").public_messages() if "⚠️" in m.content],
        "the organiser told",
    )
    assert notice[0].content == (
        f"⚠️ Game #{number} ended without a result: {alice}, score it with"
        f" `/tournament score game:{number}` and the players' places; the round waits for it."
    )

    assert await refusal() == (
        f"Game #{number} has 4 players: give their places, first to last, with `places`"
        " (for example `@Ann, @Bo = @Cy, @Di`)."
    )
    assert await refusal(winner=world.bob) == await refusal()
    assert await refusal(places=f"{bob}, {alice} = Carol") == (
        f"Every player of game #{number} needs a place; without one: Computer 1 (easy)."
    )
    assert await refusal(places=f"{bob}, {alice} = Bob, Carol, Computer 1 (easy)") == (
        "Bob is given more than one place."
    )
    assert await refusal(places=f"{bob}, {alice}, Dave, Carol, Computer 1 (easy)") == (
        f"Dave did not play game #{number}."
    )
    assert await refusal(places=f"{bob}, {alice}, Carol, Computer 1 (easy)", winner=world.bob) == (
        "Give either `winner` or `places`, not both."
    )
    assert tables_of(database, 1)[0]["result"] is None, "a refusal changes nothing"
    assert json.loads(database.rows("SELECT log FROM tournaments")[0]["log"] or "[]") == []

    scored = await world.alice.slash(
        world.games,
        "tournament score",
        game=number,
        places=f"{bob}, {alice} = carol, @Computer 1 (easy)",
    )
    line = (
        f"📝 Alice scored game #{number}, decided elsewhere:"
        " 1st Bob, 2nd Alice & Carol, 4th Computer 1 (easy)."
    )
    assert scored.message.content == line
    assert line in [m.content for m in world.guild.thread("Four").public_messages()]
    (logged,) = json.loads(database.rows("SELECT log FROM tournaments")[0]["log"])
    assert (logged["event"], logged["game"], logged["by"]) == ("scored", number, world.alice.id)
    assert json.loads(tables_of(database, 1)[0]["result"])["places"] == [2, 1, 2, 4]

    posted = await eventually(
        lambda: [
            m
            for m in world.guild.thread("Four").public_messages()
            if m.content.startswith("📊 Standings after round 1")
        ],
        "the standings after round 1",
    )
    assert standings_in(posted[0]) == {
        "Bob": 3.0,
        "Alice": 1.5,
        "Carol": 1.5,
        "Computer 1 (easy)": 0.0,
    }
    assert standings_in(posted[0]) == {
        name: recount_places(database, 1, 4)[key] for key, name in names_by_key(database).items()
    }
    await eventually(lambda: round_open(database, 2), "round 2 opens by itself")
