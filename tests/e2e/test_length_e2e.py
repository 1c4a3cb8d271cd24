"""A long game says how long it is before it starts: the lobby of a Barbu table shows its
deals and a rough time, measured from this bot's finished games (or the default before
there are any), in the server's language; a table that starts at once tells its opener.
"""

from __future__ import annotations

import json

import discord
from testdb import TestDatabase, both_engines

from cogs.table.computers import ADD_COMPUTER
from fakediscord import Message

FINISHED_CHANNEL = 99


def length_of(lobby: Message) -> str:
    fields = {field["name"]: field["value"] for field in lobby.embeds[0].get("fields", [])}
    return fields["Length"] if "Length" in fields else fields["Dauer"]


def finished_barbu_game(database: TestDatabase, seconds_per_card: float, decisions: int) -> None:
    """A finished Barbu game of four people in another channel, each decision
    ``seconds_per_card`` after the one before."""
    seats = [{"name": name, "user_id": 500 + n} for n, name in enumerate("ABCD")]
    database.run(
        "INSERT INTO games (kind, guild_id, channel_id, creator_id, status, seats, options,"
        " seed, state, version, created_at, updated_at, extra)"
        " VALUES ('barbu', 1, ?, 500, 'finished', ?, '{}', 1, NULL, 1, 0, 0, '{}')",
        FINISHED_CHANNEL,
        json.dumps(seats),
    )
    game_id = database.rows("SELECT MAX(id) AS id FROM games")[0]["id"]
    for seq in range(1, decisions + 2):
        database.run(
            "INSERT INTO actions (game_id, seq, seat, action, at) VALUES (?, ?, ?, 'x', ?)",
            game_id,
            seq,
            seq % 4,
            1000.0 + seq * seconds_per_card,
        )


@both_engines()
async def test_a_barbu_lobby_tells_its_length_by_the_default_before_any_game_ended(
    fake_discord, start_bot
):
    world = fake_discord
    await start_bot()

    full = (await world.alice.slash(world.games, "barbu new")).message

    assert length_of(full) == "28 deals · about 2 hours with 4 people"
    await world.alice.select(full, ["hard"], placeholder=ADD_COMPUTER)
    assert length_of(full) == (
        "28 deals · about 2 hours with 3 people (the computers play at once)"
    )
    await world.alice.click(full, "Cancel")

    short = (await world.alice.slash(world.games, "barbu new", series=1)).message
    assert length_of(short) == "7 deals · about 35 minutes with 4 people"


@both_engines()
async def test_a_barbu_lobby_tells_its_length_as_the_finished_games_measure_it(
    fake_discord, start_bot, database
):
    world = fake_discord
    await start_bot()
    finished_barbu_game(database, seconds_per_card=20.0, decisions=30)

    lobby = (await world.alice.slash(world.games, "barbu new", series=2)).message

    assert length_of(lobby) == "14 deals · about 3 hours with 4 people", "14·40·20 s"


async def test_the_lobby_line_speaks_the_servers_language(fake_discord, start_bot):
    world = fake_discord
    await start_bot()
    world.alice.permissions = discord.Permissions(manage_guild=True)
    await world.alice.slash(world.games, "settings", language="de")

    lobby = (await world.alice.slash(world.games, "barbu new")).message

    assert "Dauer" in [field["name"] for field in lobby.embeds[0]["fields"]]
    assert length_of(lobby) == "28 Spiele · etwa 2 Stunden mit 4 Personen"


async def test_a_table_full_at_once_tells_its_opener_its_length(fake_discord, start_bot):
    world = fake_discord
    await start_bot()

    opened = await world.alice.slash(world.games, "barbu new", computers=3)

    notes = [m.content for m in opened.ephemeral if m.content.startswith("⏱️")]
    assert notes == [
        "⏱️ This game: 28 deals · about 35 minutes with 1 person (the computers play at once)."
    ]
    assert opened.message is not None and "Deal 1 of 28" in opened.message.embeds[0]["description"]


async def test_a_game_short_enough_shows_no_length(fake_discord, start_bot):
    world = fake_discord
    await start_bot()

    lobby = (await world.alice.slash(world.games, "bann new")).message

    assert "Length" not in [field["name"] for field in lobby.embeds[0].get("fields", [])]
