"""Adding a game takes exactly the files CONTRIBUTING.md names: Nim (``tests/nim/``, a game
root shaped like the product) is found the way the four games are and played end to end
through the fake Discord with the shared lobby, board, clocks, `/game` commands,
computer player, records, replays and league."""

from __future__ import annotations

import importlib
import sqlite3
import sys

import pytest
from discord import app_commands
from game_roots import NIM_ROOT
from stored import stored_game, stored_state

from cogs.discovery import MismatchedCog, MissingCog, game_cogs
from cogs.table.game_cog import GameCog
from games import GAMES, root_of
from games.proof import computer_seed, verify_record
from games.turn_clock import DEFAULT_CLOCK


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
    labels = [button.label for button in board.buttons()]
    assert labels == ["Take 1", "Take 2", "Take 3", "Resign", "Hint", "Follow"]
    # A game that words no reasons of its own still has hints: the computer's move.
    hinted = await world.alice.click(board, "Hint")
    row = stored_game(database_path)
    seed = computer_seed(row["seed"], row["version"])
    advice = GAMES["nim"].bot_action(stored_state(database_path), seed=seed)
    assert [message.content for message in hinted.ephemeral] == [
        f"💡 Hint (only you see it): The computer would play {advice}."
    ]

    clicked = await world.alice.click(board, "Take 1")
    assert stored_state(database_path).stones == 8, "the computer answers 3, leaving four"
    assert clicked.message.content.endswith("🤖 AdaBot (hard) takes 3 stones")

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


def test_nim_is_found_in_its_root_like_the_four_in_the_product(nim):
    assert list(GAMES) == ["bann", "gulbara", "barbu", "barree", "nim"], "the declared order"
    assert root_of("nim") == NIM_ROOT and root_of("bann") != NIM_ROOT
    for layer in ("games", "texts", "render", "cogs"):
        found = importlib.import_module(f"{layer}.nim")
        assert found.__file__ == str(NIM_ROOT / layer / "nim.py")


def test_every_registered_game_has_a_cog_and_every_cog_a_game(nim, monkeypatch):
    assert [cog.spec.key for cog in game_cogs()] == list(GAMES)
    nim_cog = GameCog.registry["nim"]
    with monkeypatch.context() as unwritten:
        unwritten.delitem(GameCog.registry, "nim")
        unwritten.setitem(sys.modules, "cogs.nim", None)
        with pytest.raises(MissingCog, match="'nim' has no cog"):
            game_cogs()
    with monkeypatch.context() as unregistered:
        unregistered.delitem(GAMES, "nim")
        with pytest.raises(MissingCog, match="not registered"):
            game_cogs()
    with monkeypatch.context() as labelled:
        labelled.setattr(nim_cog, "private_label", "My heap")
        with pytest.raises(MismatchedCog, match="hidden information"):
            game_cogs()
    assert game_cogs()[-1] is nim_cog


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


async def test_nim_times_out_as_a_loss_its_spec_declares(
    nim, fake_discord, start_bot, database_path, clock
):
    world = fake_discord
    bot = await start_bot()
    lobby = (await world.alice.slash(world.games, "nim new", opponent=world.bob)).message
    board = (await world.bob.click(lobby, "Join")).message
    clock.advance(DEFAULT_CLOCK)
    await bot.clocks.scheduler.settled()
    assert stored_game(database_path)["status"] == "finished"
    assert "Alice lost on time" in board.embeds[0]["description"]
    assert league_rows(database_path) == [("nim", 1, "loss", 0.0), ("nim", 1, "win", 0.0)]


async def test_a_nim_game_exports_a_record_that_verifies_and_replays(
    nim, fake_discord, start_bot, database_path
):
    world = fake_discord
    await start_bot()
    board = (await world.alice.slash(world.games, "nim new", computer="easy")).message
    while not stored_state(database_path).is_over:
        await world.alice.click(board, "Take 1")

    exported = (await world.bob.slash(world.games, "game export")).message
    assert exported.attachments[0].filename == "nim-1.txt"
    assert verify_record(exported.attachments[0].data.decode()).startswith("verified: Nim game #1")
    replay = (await world.bob.slash(world.games, "game replay")).message
    assert replay.content.startswith("▶️ Replay of Nim game #1")
    assert replay.attachments[0].filename.endswith((".gif", ".webp"))


async def test_nim_speaks_german_from_its_own_catalogue(nim, fake_discord, start_bot):
    from texts import nim as nim_text
    from texts.i18n import t

    assert t("de", nim_text.TAKE, count=2) == "2 nehmen"
    assert nim_text.took("Alice", 1, "de") == "Alice nimmt 1 Stein"
