"""Adding a game takes its modules and one registration: Nim (``tests/nim/``), registered
here, is played end to end through the fake Discord with the shared lobby, board,
`/game` commands, computer player and league."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

import pytest
from discord import app_commands
from stored import stored_state

from cogs.discovery import MissingCog, game_cogs
from cogs.table.game_cog import GameCog
from games import GAMES, register


@pytest.fixture
def nim() -> Iterator[None]:
    """Nim registered for one test: its spec in ``GAMES``, its cog found by its key."""
    from nim.cog import NimCog
    from nim.game import SPEC

    register(SPEC)
    GameCog.registry[SPEC.key] = NimCog
    yield
    del GAMES[SPEC.key]
    del GameCog.registry[SPEC.key]


def league_rows(database_path) -> list[tuple[str, int, str, float]]:
    with sqlite3.connect(database_path) as db:
        return db.execute(
            "SELECT r.kind, r.rated, s.outcome, s.points FROM league_results r"
            " JOIN league_seats s ON s.game_id = r.game_id ORDER BY r.game_id, s.seat"
        ).fetchall()


async def test_nim_against_the_computer_by_clicks_and_text(
    nim, fake_discord, start_bot, database_path
):
    world = fake_discord
    await start_bot()
    opened = await world.alice.slash(world.games, "nim new", computer="hard")
    board = opened.message
    assert board.embeds[0]["title"] == "Nim: game #1"
    assert "Alice to take; 12 stones left." in board.embeds[0]["description"]
    assert [button.label for button in board.buttons()] == ["Take 1", "Take 2", "Take 3", "Resign"]

    clicked = await world.alice.click(board, "Take 1")
    assert stored_state(database_path).stones == 8, "the computer answers 3, leaving four"
    assert clicked.message.content.endswith("🤖 AdaBot (hard): takes 3")

    typed = await world.alice.slash(world.games, "nim move", notation="4")
    assert typed.message.is_ephemeral and "Take 1 to 3 stones" in typed.message.content
    assert stored_state(database_path).stones == 8, "a refused move changes nothing"
    typed = await world.alice.slash(world.games, "nim move", notation="2")
    assert typed.message.content == "✅ You played 2."

    again = await world.alice.slash(world.games, "game board")
    board = again.message
    while not stored_state(database_path).is_over:
        await world.alice.click(board, "Take 1")

    assert "AdaBot (hard) took the last stone and wins." in board.embeds[0]["description"]
    announcement = world.games.public_messages()[-1]
    assert announcement.content.startswith(
        "🏁 Nim game #1: AdaBot (hard) took the last stone"
    )
    assert "Not rated: a computer played." in announcement.content
    assert league_rows(database_path) == [("nim", 0, "loss", 0.0), ("nim", 0, "win", 1.0)]


async def test_nim_between_two_members_through_the_lobby_ends_rated_by_resignation(
    nim, fake_discord, start_bot, database_path
):
    world = fake_discord
    await start_bot()
    rules = await world.bob.slash(world.games, "nim rules")
    assert (
        rules.message.is_ephemeral and rules.message.embeds[0]["title"] == "Nim: the rules in short"
    )

    opened = await world.alice.slash(world.games, "nim new", opponent=world.bob)
    board = (await world.bob.click(opened.message, "Join")).message
    refused = await world.bob.click(board, "Take 2")
    assert "It is not your turn: Alice is to act." in refused.ephemeral[0].content

    await world.alice.click(board, "Take 2")
    asked = await world.bob.slash(world.games, "game resign")
    await world.bob.click(asked.message, "Yes, resign")

    assert "Bob resigned: Alice wins." in world.games.public_messages()[-1].content
    assert league_rows(database_path) == [("nim", 1, "win", 0.0), ("nim", 1, "loss", 0.0)]


def test_every_registered_game_has_a_cog_and_every_cog_a_game(nim):
    assert [cog.spec.key for cog in game_cogs()] == list(GAMES)
    GameCog.registry.pop("nim")
    with pytest.raises(MissingCog, match="'nim' has no cog"):
        game_cogs()
    from nim.cog import NimCog

    GameCog.registry["nim"] = NimCog
    del GAMES["nim"]
    with pytest.raises(MissingCog, match="not registered"):
        game_cogs()
    register(NimCog.spec)


def test_every_game_has_new_with_its_options_rules_and_one_move_command(nim):
    for cog in game_cogs():
        commands = {command.name: command for command in cog.__cog_app_commands__}
        assert {"new", "rules", "move"} <= set(commands), cog.spec.key
        move = commands["move"]
        assert isinstance(move, app_commands.Command)
        assert [parameter.name for parameter in move.parameters] == ["notation"], cog.spec.key
        new = commands["new"]
        assert isinstance(new, app_commands.Command)
        offered = {parameter.name for parameter in new.parameters}
        assert {option.name for option in cog.spec.options} <= offered, "every table option"
