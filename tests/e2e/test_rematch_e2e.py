"""The rematch: the result message's **Rematch** button, through the real discord.py
against the fake Discord. The same players (computers at their levels) and options, each
one seat on, the player after the previous starter beginning, a new seed and commitment;
it opens once every person has asked, outlives a restart, and refuses whoever may not
have it, a click too many or too late, and a channel that has a game of its own.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import discord
from stored import stored_game
from testdb import TestDatabase, both_engines

from cogs.table.records import commitment_of
from data import Seat, Table
from fakediscord import Message, SimUser
from games import GAMES
from games.turn_clock import DEFAULT_LOBBY_EXPIRY


def game(database: TestDatabase, game_id: int) -> dict[str, Any]:
    return database.rows("SELECT * FROM games WHERE id = ?", game_id)[0]


def seat_ids(row: dict[str, Any]) -> list[int | None]:
    return [seat["user_id"] for seat in json.loads(row["seats"])]


def first_to_act(row: dict[str, Any]) -> int | None:
    return (
        GAMES[row["kind"]]
        .new_game(
            players=len(json.loads(row["seats"])), seed=row["seed"], **json.loads(row["options"])
        )
        .current_player
    )


def commitment(row: dict[str, Any]) -> str:
    table = Table(
        id=row["id"],
        kind=row["kind"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        creator_id=row["creator_id"],
        status=row["status"],
        seats=[Seat.from_dict(seat) for seat in json.loads(row["seats"])],
        options=json.loads(row["options"]),
        seed=row["seed"],
        state=None,
        version=row["version"],
        board_message_id=row["board_message_id"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )
    return commitment_of(table)


async def resigned_bann_game(world, start_bot) -> Message:
    """Alice and Bob start a Bann game and Alice resigns it: its result message."""
    await start_bot()
    opened = await world.alice.slash(world.games, "bann new", opponent=world.bob)
    await world.bob.click(opened.message, "Join")
    return await resign(world, world.alice)


async def resign(world, player: SimUser) -> Message:
    asked = await player.slash(world.games, "game resign")
    await player.click(asked.message, "Yes, resign")
    result = world.games.public_messages()[-1]
    assert result.content.startswith("🏳️"), "the result is announced"
    return result


@both_engines()
async def test_a_bann_rematch_opens_after_a_restart_with_the_other_player_starting(
    fake_discord, start_bot, database
):
    world = fake_discord
    result = await resigned_bann_game(world, start_bot)
    first = stored_game(database)
    assert [button.label for button in result.buttons()] == ["Rematch"]

    asked = await world.bob.click(result, "Rematch")

    assert [m.content for m in asked.ephemeral] == [
        "You are in for the rematch; still waiting for Alice."
    ]
    assert result.content.splitlines()[-1] == "🔁 Rematch asked for by Bob; waiting for Alice."
    assert stored_game(database)["id"] == first["id"], "no table opens before alice asks"

    await start_bot()
    opened = await world.alice.click(result, "Rematch")

    rematch = stored_game(database)
    assert rematch["id"] != first["id"] and rematch["status"] == "active"
    assert json.loads(rematch["extra"])["rematch_of"] == first["id"]
    assert seat_ids(rematch) == list(reversed(seat_ids(first))), "each player one seat on"
    starter = seat_ids(first)[first_to_act(first)]
    assert seat_ids(rematch)[first_to_act(rematch)] != starter, "the other player starts"
    assert rematch["seed"] != first["seed"]
    assert commitment(rematch) != commitment(first)
    board = next(m for m in opened.new_messages if m.embeds and m.attachments)
    assert f"game #{rematch['id']}" in board.embeds[0]["title"]
    assert commitment(rematch)[:16] in board.embeds[0]["footer"]["text"]
    assert result.buttons() == [], "the result message takes no more clicks"
    assert result.content.splitlines()[-1].startswith(f"🔁 The rematch is game #{rematch['id']}:")
    assert str(board.id) in result.content, "it links to the rematch's board"
    assert opened.ephemeral == []


def turn_order(row: dict[str, Any]) -> list[int | None]:
    """Who plays after whom, from the first to act: the declarer order of Barbu, the
    starting order of Barree."""
    seats = seat_ids(row)
    first = first_to_act(row)
    assert first is not None
    return [seats[(first + step) % len(seats)] for step in range(len(seats))]


def levels(row: dict[str, Any]) -> dict[str, str | None]:
    return {seat["name"]: seat.get("level") for seat in json.loads(row["seats"])}


async def test_a_barbu_rematch_with_computers_turns_the_declarer_order_by_one(
    fake_discord, start_bot, database
):
    world = fake_discord
    await start_bot()
    await world.alice.slash(world.games, "barbu new", computers=3, series=1)
    first = stored_game(database)
    assert first["status"] == "active", "three computers fill the table at once"
    result = await resign(world, world.alice)

    clicked = await world.alice.click(result, "Rematch")

    rematch = stored_game(database)
    assert rematch["id"] != first["id"] and rematch["status"] == "active"
    assert clicked.ephemeral == [], "the computers are ready at once: no one to wait for"
    order = turn_order(first)
    assert turn_order(rematch) == [*order[1:], order[0]], "the next declarer order"
    assert seat_ids(rematch) == [*seat_ids(first)[1:], seat_ids(first)[0]]
    assert levels(rematch) == levels(first), "the computers play at their levels"
    assert json.loads(rematch["options"]) == json.loads(first["options"]), "one series again"


async def test_a_barree_rematch_turns_the_starting_order_and_keeps_the_levels(
    fake_discord, start_bot, database
):
    world = fake_discord
    await start_bot()
    lobby = (
        await world.alice.slash(
            world.games, "barree new", computers=2, computer_level="hard", rounds=2
        )
    ).message
    await world.bob.click(lobby, "Join")
    first = stored_game(database)
    assert first["status"] == "active"
    result = await resign(world, world.bob)

    bob_asks = await world.bob.click(result, "Rematch")
    assert [m.content for m in bob_asks.ephemeral] == [
        "You are in for the rematch; still waiting for Alice."
    ], "the computers are no one to wait for"
    await world.alice.click(result, "Rematch")

    rematch = stored_game(database)
    assert rematch["id"] != first["id"] and rematch["status"] == "active"
    order = turn_order(first)
    assert turn_order(rematch) == [*order[1:], order[0]], "the starting order turned by one"
    assert levels(rematch) == levels(first)
    assert set(levels(rematch).values()) == {None, "hard"}
    assert json.loads(rematch["options"])["rounds"] == 2


def games_in(database: TestDatabase) -> int:
    return int(database.rows("SELECT COUNT(*) AS n FROM games")[0]["n"])


def rematch_row(database: TestDatabase) -> dict[str, Any]:
    return database.rows("SELECT * FROM rematches")[0]


async def test_someone_who_did_not_play_is_refused_and_nothing_changes(
    fake_discord, start_bot, database
):
    world = fake_discord
    result = await resigned_bann_game(world, start_bot)
    before = rematch_row(database)

    refused = await world.carol.click(result, "Rematch")

    number = stored_game(database)["id"]
    assert [m.content for m in refused.ephemeral] == [
        f"Only the players of game #{number} can ask for its rematch."
    ]
    assert rematch_row(database) == before and games_in(database) == 1
    assert "🔁" not in result.content


async def test_a_second_click_of_the_same_player_opens_nothing(fake_discord, start_bot, database):
    world = fake_discord
    result = await resigned_bann_game(world, start_bot)

    first, second = await asyncio.gather(
        world.bob.click(result, "Rematch"), world.bob.click(result, "Rematch")
    )

    # Each result lists every private answer given while both clicks were handled.
    answers = sorted({m.id: m.content for m in [*first.ephemeral, *second.ephemeral]}.values())
    assert answers == [
        "You are in for the rematch; still waiting for Alice.",
        "You have asked for the rematch already; still waiting for Alice.",
    ]
    assert json.loads(rematch_row(database)["ready"]) == [1] and games_in(database) == 1


async def test_two_last_clicks_at_once_open_one_table(fake_discord, start_bot, database):
    world = fake_discord
    result = await resigned_bann_game(world, start_bot)

    clicks = await asyncio.gather(
        world.alice.click(result, "Rematch"), world.bob.click(result, "Rematch")
    )

    assert games_in(database) == 2, "one rematch"
    answers = list({m.id: m.content for click in clicks for m in click.ephemeral}.values())
    assert len(answers) == 1 and answers[0].startswith("You are in for the rematch")
    assert rematch_row(database)["rematch_id"] == stored_game(database)["id"]


async def test_a_click_after_the_lobby_expiry_is_refused(fake_discord, start_bot, database, clock):
    world = fake_discord
    result = await resigned_bann_game(world, start_bot)
    await world.bob.click(result, "Rematch")
    clock.advance(DEFAULT_LOBBY_EXPIRY + 1)

    late = await world.alice.click(result, "Rematch")

    assert [m.content for m in late.ephemeral] == [
        "This rematch offer has expired; open a new table instead."
    ]
    assert games_in(database) == 1 and rematch_row(database)["rematch_id"] is None


async def test_the_servers_lobby_expiry_is_the_offers(fake_discord, start_bot, database, clock):
    world = fake_discord
    await start_bot()
    world.alice.permissions = discord.Permissions(manage_guild=True)
    await world.alice.slash(world.games, "settings", lobby_expiry=15 * 60)
    opened = await world.alice.slash(world.games, "bann new", opponent=world.bob)
    await world.bob.click(opened.message, "Join")
    result = await resign(world, world.alice)
    await world.bob.click(result, "Rematch")
    clock.advance(15 * 60 + 1)

    late = await world.alice.click(result, "Rematch")

    assert late.ephemeral[0].content.startswith("This rematch offer has expired")
    assert games_in(database) == 1


async def test_a_player_who_opened_another_table_in_the_channel_is_refused(
    fake_discord, start_bot, database
):
    world = fake_discord
    result = await resigned_bann_game(world, start_bot)
    await world.bob.click(result, "Rematch")
    await world.alice.slash(world.games, "gulbara new")
    lobby = stored_game(database)
    ready = rematch_row(database)["ready"]

    refused = await world.alice.click(result, "Rematch")

    assert [m.content for m in refused.ephemeral] == [
        "The rematch cannot open while this channel has a table of Gul Bara"
        f" (game #{lobby['id']}); ask again once it has ended."
    ]
    assert rematch_row(database)["ready"] == ready and games_in(database) == 2
    assert stored_game(database)["id"] == lobby["id"]

    cancelled = world.games.public_messages()[-1]
    await world.alice.click(cancelled, "Cancel")
    await world.alice.click(result, "Rematch")

    assert stored_game(database)["status"] == "active", "the channel is free: it opens"


async def test_a_german_server_offers_a_revanche(fake_discord, start_bot, database):
    world = fake_discord
    await start_bot()
    world.alice.permissions = discord.Permissions(manage_guild=True)
    await world.alice.slash(world.games, "settings", language="de")
    opened = await world.alice.slash(world.games, "bann new", opponent=world.bob)
    await world.bob.click(opened.message, "Beitreten")
    asked = await world.alice.slash(world.games, "game resign")
    await world.alice.click(asked.message, "Yes, resign")
    result = world.games.public_messages()[-1]

    await world.bob.click(result, "Revanche")

    assert result.content.splitlines()[-1] == "🔁 Revanche verlangt von Bob; wir warten auf Alice."


async def test_a_channel_where_the_bot_may_no_longer_post_pictures_is_told(
    fake_discord, start_bot, database
):
    world = fake_discord
    result = await resigned_bann_game(world, start_bot)
    await world.bob.click(result, "Rematch")
    permissions = world.games.bot_permissions
    permissions.attach_files = False
    world.games.bot_permissions = permissions

    refused = await world.alice.click(result, "Rematch")

    assert "Attach Files" in refused.ephemeral[0].content
    assert games_in(database) == 1 and json.loads(rematch_row(database)["ready"]) == [1]
