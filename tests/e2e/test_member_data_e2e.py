"""A member's own data through the real discord.py against the fake Discord, on SQLite
and on PostgreSQL: `/privacy show` hands him a file of everything stored about him and
nothing of anyone else's; `/privacy forget` asks first, refuses while he still plays and
then leaves no trace of his id or name in any column of any table, while the standings
keep every result and the record of a game he played still verifies."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import discord
from stored import stored_state
from test_hostile_components_e2e import forged
from test_hostile_input import assert_short_private_refusal
from testdb import TestDatabase, both_engines

from fakediscord import Channel, Message, SimUser
from games import GAMES
from games.proof import commitment, short_commitment, verify_record

pytestmark = both_engines()

GULBARA = GAMES["gulbara"]


async def resigned_bann(world, channel: Channel, winner: SimUser, loser: SimUser) -> Message:
    """``winner`` opens a Bann table for ``loser``, who joins and resigns; the result."""
    opened = await winner.slash(channel, "bann new", opponent=loser)
    board = (await loser.click(opened.message, "Join")).message
    asked = await loser.click(board, "Resign")
    await loser.click(asked.ephemeral[0], "Yes, resign")
    return channel.public_messages()[-1]


async def resigned_gulbara(world, database: TestDatabase, alice: SimUser, bob: SimUser) -> None:
    """Alice against Bob in Gul Bara, a turn each played, then Bob resigns: dice rolled
    at Alice's seat, recorded in the league."""
    channel = world.guild.add_text_channel("backgammon")
    opened = await alice.slash(channel, "gulbara new", opponent=bob)
    await bob.click(opened.message, "Join")
    for _ in range(2):
        state = stored_state(database)
        seat = state.current_player
        steps = []
        while state.current_player == seat and not state.is_over:
            step = GULBARA.bot_action(state, seed=len(steps))
            steps.append(step)
            state = state.apply(step)
        await (alice, bob)[seat].slash(channel, "gulbara move", notation=" ".join(steps))
    asked = await bob.slash(channel, "game resign")
    await bob.click(asked.ephemeral[0], "Yes, resign")


async def barbu_with(world, alice: SimUser, bob: SimUser) -> Channel:
    """Alice, Bob and two computers at a running Barbu table in #cards."""
    channel = world.guild.add_text_channel("cards")
    lobby = (await alice.slash(channel, "barbu new", series=1, computers=2)).message
    await bob.click(lobby, "Join")
    return channel


def shown_file(result) -> tuple[str, dict[str, Any]]:
    [answer] = result.ephemeral
    [attachment] = answer.attachments
    return answer.content, json.loads(attachment.data.decode())


def text_columns(database: TestDatabase) -> dict[str, list[str]]:
    """Every column of every table the bot keeps, by table."""
    if database.engine == "sqlite":
        tables = [
            row["name"]
            for row in database.rows("SELECT name FROM sqlite_master WHERE type = 'table'")
            if not row["name"].startswith("sqlite_")
        ]
        return {
            table: [row["name"] for row in database.rows(f"PRAGMA table_info({table})")]
            for table in tables
        }
    columns: dict[str, list[str]] = {}
    for row in database.rows(
        "SELECT table_name, column_name FROM information_schema.columns"
        " WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"
    ):
        columns.setdefault(row["table_name"], []).append(row["column_name"])
    return columns


def traces(database: TestDatabase, member: SimUser, names: list[str]) -> list[str]:
    """Every place in the database where the member's id (as a number or within text)
    or one of his names still stands."""
    found = []
    for table, columns in text_columns(database).items():
        for row in database.rows(f"SELECT * FROM {table}"):
            for column in columns:
                value = row[column]
                text = str(value)
                if value == member.id or str(member.id) in text:
                    found.append(f"{table}.{column}: id in {text[:80]}")
                found += [
                    f"{table}.{column}: {name!r} in {text[:80]}"
                    for name in names
                    if isinstance(value, str) and name.casefold() in text.casefold()
                ]
    return found


def file_traces(database: TestDatabase, member: SimUser, name: str) -> list[str]:
    """Where the SQLite file or its write-ahead log still holds the member's id (as text
    or as SQLite's 8-byte integer) or name: old versions of rewritten rows, say."""
    if database.engine != "sqlite":
        return []
    forms = [str(member.id).encode(), member.id.to_bytes(8, "big"), name.encode()]
    found = []
    for path in (Path(database.target), Path(f"{database.target}-wal")):
        data = path.read_bytes() if path.exists() else b""
        found += [f"{path.name}: {form!r}" for form in forms if form in data]
    return found


def row_counts(database: TestDatabase) -> dict[str, int]:
    return {
        table: database.rows(f"SELECT COUNT(*) AS n FROM {table}")[0]["n"]
        for table in text_columns(database)
    }


def every_row(database: TestDatabase) -> dict[str, list[str]]:
    return {
        table: sorted(repr(sorted(row.items())) for row in database.rows(f"SELECT * FROM {table}"))
        for table in text_columns(database)
    }


async def test_show_hands_the_member_his_data_and_nobody_elses(fake_discord, start_bot, database):
    world = fake_discord
    alice, bob, carol = world.alice, world.bob, world.carol
    await start_bot()
    await resigned_bann(world, world.games, alice, bob)
    await resigned_gulbara(world, database, alice, bob)
    await resigned_bann(world, world.games, carol, bob)
    cards = await barbu_with(world, alice, bob)
    barbu = max(row["id"] for row in database.rows("SELECT id FROM games"))
    [running] = database.rows("SELECT seed, state FROM games WHERE id = ?", barbu)

    summary, shown = shown_file(await alice.slash(world.games, "privacy show"))

    assert summary == (
        "Everything I store about you on this server is in this file: 3 tables, 2 league"
        " results and 2 ratings, with your dice luck, private messages and notes."
    )
    assert shown["member"] == {"id": alice.id, "name": "Alice"}
    [server] = shown["servers"]
    assert server["server"] == {"id": world.guild.id, "name": "Test Server"}
    tables = {table["game_id"]: table for table in server["tables"]}
    assert sorted(tables) == [1, 2, barbu]
    assert [table["game"] for table in tables.values()] == ["Bann", "Gul Bara", "Barbu"]
    assert tables[1]["your_seats"] == [{"seat": 0, "name": "Alice", "client_language": "en"}]
    assert tables[1]["you_opened_it"] and tables[1]["record"] == "/game export game:1"
    assert tables[barbu]["status"] == "active" and "record" not in tables[barbu]
    assert tables[barbu]["channel_id"] == cards.id
    results = server["league_results"]
    assert [(row["game_id"], row["outcome"], row["name"]) for row in results] == [
        (1, "win", "Alice"),
        (2, "win", "Alice"),
    ]
    assert {row["user_id"] for row in results} == {alice.id}
    ratings = server["league_ratings"]
    assert [(row["kind"], row["season"], row["games"], row["wins"]) for row in ratings] == [
        ("bann", "Season 1", 1, 1),
        ("gulbara", "Season 1", 1, 1),
    ]
    [luck] = server["dice_luck"]
    assert luck["game"] == "gulbara" and luck["rolls"] > 0
    assert luck["dice"] == sum(luck["faces"].values())
    assert server["private_messages"] != [], "Barbu sends her hand by DM"
    assert {row["user_id"] for row in server["private_messages"]} == {alice.id}

    text = json.dumps(shown)
    assert str(bob.id) not in text and "bob" not in text.casefold()
    assert str(carol.id) not in text and "carol" not in text.casefold()
    assert "hands" not in text and "state" not in text, "no game state, so no other hand"
    bobs_hand = json.loads(running["state"])["hands"][1]
    assert json.dumps(bobs_hand) not in text
    assert str(running["seed"]) not in text, "the running game's seed stays secret"

    bobs_summary, bobs = shown_file(await bob.slash(world.games, "privacy show"))
    assert bobs_summary.startswith("Everything I store about you on this server")
    assert str(alice.id) not in json.dumps(bobs)
    nothing = await world.dave.slash(world.games, "privacy show")
    assert nothing.ephemeral[0].content == "I store nothing about you on this server."
    assert nothing.ephemeral[0].attachments == []


async def test_german_clients_see_german_commands_and_answers(fake_discord, start_bot):
    world = fake_discord
    await start_bot()
    [privacy] = [c for c in world.commands.listing(None) if c["name"] == "privacy"]
    assert privacy["name_localizations"]["de"] == "datenschutz"
    assert {option["name_localizations"]["de"] for option in privacy["options"]} == {
        "zeigen",
        "vergessen",
    }
    world.dave.locale = "de"
    nothing = await world.dave.slash(world.games, "privacy forget")
    assert nothing.ephemeral[0].content == (
        "Ich speichere auf diesem Server nichts über dich: Es gibt nichts zu vergessen."
    )


async def test_forget_waits_for_his_games_then_leaves_no_trace(fake_discord, start_bot, database):
    world = fake_discord
    alice, bob = world.alice, world.bob
    await start_bot()
    alice.permissions = discord.Permissions(manage_guild=True)
    await alice.slash(world.games, "league season start", name="Spring")
    result = await resigned_bann(world, world.games, alice, bob)
    announced = re.search(r"commitment `([0-9a-f]{16})`", result.content)
    assert announced is not None
    await resigned_gulbara(world, database, alice, bob)
    await resigned_bann(world, world.games, bob, alice)
    reserved = world.guild.add_text_channel("reserved")
    lobby = (await world.carol.slash(reserved, "bann new", opponent=alice)).message
    await world.carol.click(lobby, "Cancel")
    alice.dms_open = False
    cards = await barbu_with(world, alice, bob)
    assert database.rows("SELECT key FROM claims WHERE key LIKE ?", f"%:{alice.id}")
    standings_before = (await bob.slash(world.games, "league standings", game="bann")).message
    ranked = re.findall(r"\*\*(.+?)\*\*", standings_before.embeds[0]["description"])
    assert sorted(ranked) == ["Alice", "Bob"]
    rows = every_row(database)

    refused = await alice.slash(world.games, "privacy forget")
    barbu = max(row["id"] for row in database.rows("SELECT id FROM games"))
    assert assert_short_private_refusal(refused, alice) == (
        f"You are still part of 1 unfinished table (game #{barbu} in <#{cards.id}>). Finish"
        " or resign the game, or leave or cancel the lobby, then ask again."
    )
    assert refused.ephemeral[0].buttons() == []
    assert every_row(database) == rows, "a refusal changes nothing"

    asked = await alice.slash(cards, "game abandon")
    await alice.click(asked.message, "Yes, abandon")
    rows = every_row(database)
    asked = await alice.slash(world.games, "privacy forget")
    [question] = asked.ephemeral
    assert question.content.startswith("Forget you on this server? Your name and Discord id")
    assert [button.label for button in question.buttons()] == ["Yes, forget me", "Cancel"]
    custom_id = question.buttons()[0].custom_id
    assert custom_id == f"md:forget:{alice.id}:{world.guild.id}"
    for stranger_id in (custom_id, f"md:keep:{alice.id}:{world.guild.id}"):
        stranger = await forged(world, bob, standings_before, stranger_id, place=2)
        assert assert_short_private_refusal(stranger, bob) == (
            "These buttons are for the member who asked."
        )
    elsewhere = f"md:forget:{alice.id}:0"
    foreign = await forged(world, alice, standings_before, elsewhere, place=2)
    assert "not one of mine" in assert_short_private_refusal(foreign, alice)
    cancelled = await alice.click(question, "Cancel")
    assert cancelled.message.content == "Nothing was forgotten."
    assert cancelled.message.buttons() == []
    assert every_row(database) == rows, "the strangers' clicks and Cancel change nothing"

    asked = await alice.slash(world.games, "privacy forget")
    invitation = (await world.carol.slash(reserved, "bann new", opponent=alice)).message
    late = await alice.click(asked.ephemeral[0], "Yes, forget me")
    assert late.message.content.startswith("You are still part of 1 unfinished table (game #")
    assert traces(database, alice, []) != [], "the click came too late: nothing changed"
    await world.carol.click(invitation, "Cancel")
    counts = row_counts(database)

    asked = await alice.slash(world.games, "privacy forget")
    done = await alice.click(asked.ephemeral[0], "Yes, forget me")

    assert done.message.content == (
        "Done: 6 tables, 3 league results and 2 ratings on this server no longer name you."
    )
    assert done.message.buttons() == []
    assert traces(database, alice, ["Alice", alice.name]) == []
    assert file_traces(database, alice, "Alice") == []
    left = row_counts(database)
    assert left.pop("claims") == counts.pop("claims") - 1, "the note that her DMs are closed"
    assert left == counts, "every game, action, result and rating is still there"
    [label] = {
        row["name"] for row in database.rows("SELECT name FROM league_ratings WHERE player_id < 0")
    }
    assert re.fullmatch(r"Player [0-9a-f]{6}", label)
    assert {row["name"] for row in database.rows("SELECT name FROM league_seats")} == {
        label,
        "Bob",
    }, "one label in every game and rating of hers"

    standings = (await bob.slash(world.games, "league standings", game="bann")).message
    names = re.findall(r"\*\*(.+?)\*\*", standings.embeds[0]["description"])
    assert names == [label if name == "Alice" else name for name in ranked], "same places"
    assert standings.embeds[0]["description"].count("1 game") == 0
    assert standings.embeds[0]["description"].count("2 games") == 2

    record = (await bob.slash(world.games, "game export", game=1)).message
    text = record.attachments[0].data.decode()
    assert verify_record(text).startswith("verified: Bann game #1")
    [seat] = re.findall(r"^seat 0: (.*)$", text, re.M)
    assert seat.startswith(f"{label} (user -")
    # The board committed to the seat as it was: with her name put back, the record's
    # facts give the commitment the channel was shown before the game.
    [row] = database.rows("SELECT seed, options, channel_id FROM games WHERE id = 1")
    original = commitment(
        "bann",
        1,
        world.guild.id,
        row["channel_id"],
        row["seed"],
        json.loads(row["options"]),
        [f"Alice (user {alice.id})", f"Bob (user {bob.id})"],
    )
    assert short_commitment(original) == announced.group(1)

    again = await alice.slash(world.games, "privacy forget")
    assert assert_short_private_refusal(again, alice) == (
        "I store nothing about you on this server: there is nothing to forget."
    )


async def test_in_a_dm_show_and_forget_cover_every_server(fake_discord, start_bot, database):
    world = fake_discord
    alice, bob = world.alice, world.bob
    other = world.fake.add_guild("Other Server")
    elsewhere = other.add_text_channel("elsewhere")
    other.members += [alice, bob]
    await start_bot()
    await resigned_bann(world, world.games, alice, bob)
    await resigned_bann(world, elsewhere, bob, alice)
    cards = await barbu_with(world, alice, bob)
    asked = await alice.slash(cards, "game abandon")
    await alice.click(asked.message, "Yes, abandon")
    dm = alice.dm_channel
    assert dm is not None, "her Barbu hand came by DM"

    _, here = shown_file(await alice.slash(elsewhere, "privacy show"))
    assert [server["server"]["name"] for server in here["servers"]] == ["Other Server"]
    assert [table["game_id"] for table in here["servers"][0]["tables"]] == [2]

    summary, shown = shown_file(await alice.slash(dm, "privacy show"))

    assert summary.startswith("Everything I store about you on 2 servers is in this file")
    assert shown["scope"] == "every server"
    assert [server["server"]["name"] for server in shown["servers"]] == [
        "Test Server",
        "Other Server",
    ]

    asked = await alice.slash(dm, "privacy forget")
    [question] = asked.ephemeral
    assert question.content.startswith("Forget you on the 2 servers where I store something")
    assert question.buttons()[0].custom_id == f"md:forget:{alice.id}:0"
    done = await alice.click(question, "Yes, forget me")
    assert done.message.content == (
        "Done: 3 tables, 2 league results and 2 ratings on every server no longer name you."
    )
    assert traces(database, alice, ["Alice", alice.name]) == []
    assert {row["user_id"] for row in database.rows("SELECT user_id FROM private_messages")} == {
        bob.id
    }, "which DM to edit is of no use once the games ended: hers are gone, Bob's stay"
    labels = {
        row["guild_id"]: row["name"]
        for row in database.rows("SELECT guild_id, name FROM league_ratings WHERE player_id < 0")
    }
    assert sorted(labels) == sorted([world.guild.id, other.id])
    assert len(set(labels.values())) == 2, "one label per server: they cannot be linked"


async def test_a_stored_name_that_is_not_utf8_still_reaches_the_file(
    fake_discord, start_bot, database
):
    """A lone surrogate in a stored seat name (the store keeps one as a JSON escape)
    cannot be written as UTF-8: the file carries it as JSON's escape too."""
    world = fake_discord
    await start_bot()
    await resigned_bann(world, world.games, world.alice, world.bob)
    seats = [
        {"name": "Zo\ud83d", "user_id": world.alice.id},
        {"name": "Bob", "user_id": world.bob.id},
    ]
    database.run("UPDATE games SET seats = ? WHERE id = 1", json.dumps(seats))

    _, shown = shown_file(await world.alice.slash(world.games, "privacy show"))

    [table] = shown["servers"][0]["tables"]
    assert table["your_seats"] == [{"seat": 0, "name": "Zo\ud83d"}]
