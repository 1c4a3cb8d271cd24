"""Hints through the real discord.py against the fake Discord, for every game: the Hint
button of a game against computers (and of a game whose lobby turned hints on) shows the
player to act, and nobody else, the normal computer's choice with its reason; the board
says the game is unrated, the league leaves it so, and the exported record (which
``games.verify`` accepts) and the replay say hints were used. A rated game has no Hint
button, and every hint asked out of turn, by someone not seated, on an outdated board,
with nothing to choose or in a rated game gets a short private refusal."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import discord
import pytest
from stored import logged_moves, stored_game, stored_state
from test_bann_e2e import play
from test_barbu_e2e import seeds_where
from test_hostile_components_e2e import forged, refused_and_unchanged
from test_hostile_input import assert_short_private_refusal

from fakediscord import Message, Result, SimUser
from games.bann.hints import explain as bann_explain
from games.barbu.hints import explain as barbu_explain
from games.barree.hints import explain as barree_explain
from games.gulbara.hints import explain as gulbara_explain
from games.proof import GameFacts, computer_seed, verify_record
from games.replays import replay_frames
from texts import bann as bann_text
from texts import barbu as barbu_text
from texts import barree as barree_text
from texts import gulbara as gulbara_text
from texts.replays import caption

HINTS_ON = "💡 Hints on: this game is not rated."
HINTS_OFF = "Hints are off in this game: a rated game has none."


@pytest.fixture
def game_seeds() -> Iterator[int]:
    """Seeds whose first Barbu deal Alice declares (the other games take any seed)."""
    return seeds_where(lambda start: True)


def seed_of_step(database: Any) -> Any:
    """The seeds the normal computer would get for the stored game's next decisions."""
    row = stored_game(database)
    return lambda step: computer_seed(row["seed"], row["version"] + step)


def advice_line(advice: str, language: str = "en") -> str:
    if language == "de":
        return f"💡 Tipp (nur du siehst ihn): {advice}"
    return f"💡 Hint (only you see it): {advice}"


def labels(message: Message) -> list[str]:
    return [button.label or "" for button in message.buttons()]


def description(message: Message) -> str:
    return str(message.embeds[0]["description"])


def seen_by(world, user: SimUser) -> list[tuple[int, str]]:
    """Every message (and its text) a member can see: channel, ephemerals and DMs."""
    shown = world.games.visible_to(user) + user.dms
    return [(message.id, message.content) for message in shown]


def only_for(result: Result, user: SimUser) -> Message:
    """The one private answer ``user`` got, with nothing posted for anyone else."""
    assert len(result.ephemeral) == 1 and result.ephemeral[0].ephemeral_for == user.id
    assert all(message.ephemeral_for == user.id for message in result.new_messages)
    return result.ephemeral[0]


async def asked(user: SimUser, board: Message, database: Any) -> tuple[Message, int]:
    """Click Hint; the private answer, checked to leave the game and its board as they were."""
    version = stored_game(database)["version"]
    edits = len(board.versions)
    answer = only_for(await user.click(board, "Hint"), user)
    assert stored_game(database)["version"] == version, "a hint is no move"
    assert len(board.versions) == edits, "a hint does not redraw the board"
    return answer, version


async def resign(user: SimUser, board: Message, world) -> str:
    question = await user.click(board, "Resign")
    await user.click(question.ephemeral[0], "Yes, resign")
    return world.games.public_messages()[-1].content


async def exported(world, user: SimUser) -> str:
    answer = await user.slash(world.games, "game export")
    assert answer.message is not None
    return answer.message.attachments[0].data.decode()


def replay_captions(database: Any) -> list[str]:
    row = stored_game(database)
    facts = GameFacts(
        kind=row["kind"],
        game_id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        seed=row["seed"],
        options=json.loads(row["options"]),
        seats=[seat["name"] for seat in json.loads(row["seats"])],
    )
    return [caption("en", frame) for frame in replay_frames(facts, logged_moves(database))]


# ---- Bann --------------------------------------------------------------------------------


async def test_bann_against_the_computer_a_hint_is_its_move_with_the_reason_for_the_player_alone(
    fake_discord, start_bot, database
):
    world = fake_discord
    await start_bot()
    board = (await world.alice.slash(world.games, "bann new", computer="normal")).message
    assert HINTS_ON in description(board) and "Hint" in labels(board)
    state = stored_state(database)
    advice = bann_explain(state, seed_of_step(database)(0))

    answer, _version = await asked(world.alice, board, database)

    assert answer.content == advice_line(bann_text.hint("en", advice))
    assert answer.content.startswith(f"💡 Hint (only you see it): Tip to {advice.tip} and move")
    assert logged_moves(database)[-1] == (0, "!hint")
    # The board's controls stay current: the hinted move plays from them.
    await play(world.alice, board, advice.action)
    assert (0, advice.action) in logged_moves(database)

    announcement = await resign(world.alice, board, world)
    assert "Not rated: a computer played." in announcement
    record = await exported(world, world.alice)
    assert "1. seat 0: !hint" in record
    assert verify_record(record).startswith("verified: Bann game #1")
    assert "1. Alice asks for a hint" in replay_captions(database)


async def test_a_lobby_with_hints_on_gives_them_only_to_the_player_to_act_and_is_unrated(
    fake_discord, start_bot, database
):
    world = fake_discord
    await start_bot()
    lobby = (await world.alice.slash(world.games, "bann new", opponent=world.bob)).message
    assert labels(lobby)[-1] == "Hints: off"
    refused = await world.bob.click(lobby, "Hints: off")
    assert assert_short_private_refusal(refused, world.bob) == (
        "Only the table's creator can turn hints on or off."
    )
    await world.alice.click(lobby, "Hints: off")
    assert labels(lobby)[-1] == "Hints: on"
    assert lobby.embeds[0]["fields"][-1]["name"] == "💡 Hints on"
    board = (await world.bob.click(lobby, "Join")).message
    assert HINTS_ON in description(board)

    state = stored_state(database)
    players = [world.alice, world.bob]
    mover, waiting = players[state.current_player], players[1 - state.current_player]
    out_of_turn = await waiting.click(board, "Hint")
    assert assert_short_private_refusal(out_of_turn, waiting).startswith("It is not your turn")
    not_seated = await world.carol.click(board, "Hint")
    assert assert_short_private_refusal(not_seated, world.carol) == (
        "You are not playing in this game."
    )
    before = seen_by(world, waiting)
    advice = bann_explain(state, seed_of_step(database)(0))
    answer, _version = await asked(mover, board, database)
    assert answer.content == advice_line(bann_text.hint("en", advice))
    assert seen_by(world, waiting) == before, "the other player sees nothing of the hint"
    assert [action for _, action in logged_moves(database)] == ["!hint"]

    hint_button = next(button for button in board.buttons() if button.label == "Hint")
    await play(mover, board, advice.action)
    stale = await forged(world, waiting, board, hint_button.custom_id, place=2)
    assert assert_short_private_refusal(stale, waiting).startswith("This board is outdated")

    announcement = await resign(world.alice, board, world)
    assert "Not rated: hints were on." in announcement
    history = await world.alice.slash(world.games, "league history")
    assert "(unrated)" in history.message.embeds[0]["description"]
    assert verify_record(await exported(world, world.alice)).startswith("verified")


async def test_a_rated_game_has_no_hint_button_and_a_forged_hint_is_refused(
    fake_discord, start_bot, database
):
    world = fake_discord
    await start_bot()
    lobby = (await world.alice.slash(world.games, "bann new", opponent=world.bob)).message
    board = (await world.bob.click(lobby, "Join")).message
    assert "Hint" not in labels(board) and HINTS_ON not in description(board)
    row = stored_game(database)
    mover = [world.alice, world.bob][stored_state(database).current_player]
    custom_id = f"tb:{row['id']}:{row['version']}:hint:"
    answer = await refused_and_unchanged(world, mover, board, custom_id, database, place=2)
    assert answer == HINTS_OFF
    assert "Ratings: " in await resign(world.alice, board, world)


async def test_against_computers_on_a_server_that_rates_them_there_are_no_hints(
    fake_discord, start_bot, database
):
    world = fake_discord
    await start_bot()
    world.alice.permissions = discord.Permissions(manage_guild=True)
    await world.alice.slash(world.games, "settings", rate_computer_games=True)
    board = (await world.alice.slash(world.games, "bann new", computer="normal")).message
    assert "Hint" not in labels(board) and HINTS_ON not in description(board)
    row = stored_game(database)
    custom_id = f"tb:{row['id']}:{row['version']}:hint:"
    answer = await refused_and_unchanged(world, world.alice, board, custom_id, database, place=2)
    assert answer == HINTS_OFF
    assert "Ratings: Alice" in await resign(world.alice, board, world)


async def test_hints_turned_on_in_the_lobby_unrate_a_computer_game_the_server_would_rate(
    fake_discord, start_bot, database
):
    world = fake_discord
    await start_bot()
    world.alice.permissions = discord.Permissions(manage_guild=True)
    await world.alice.slash(world.games, "settings", rate_computer_games=True)
    lobby = (await world.alice.slash(world.games, "bann new")).message
    await world.alice.click(lobby, "Hints: off")
    board = (await world.alice.select(lobby, ["normal"])).message
    assert HINTS_ON in description(board) and "Hint" in labels(board)
    await asked(world.alice, board, database)
    assert "Not rated: hints were on." in await resign(world.alice, board, world)


# ---- Gul Bara ----------------------------------------------------------------------------


async def test_gulbara_a_hint_is_the_computers_play_of_the_dice_in_german(
    fake_discord, start_bot, database
):
    world = fake_discord
    world.guild.preferred_locale = "de"
    world.alice.locale = "de"
    await start_bot()
    board = (await world.alice.slash(world.games, "gulbara new", computer="normal")).message
    assert "Tipp" in labels(board)
    assert "💡 Tipps an: diese Partie wird nicht gewertet." in description(board)
    state = stored_state(database)
    advice = gulbara_explain(state, seed_of_step(database))
    steps = " ".join(advice.steps)
    onlooker = seen_by(world, world.carol)

    answer = only_for(await world.alice.click(board, "Tipp"), world.alice)

    assert answer.content == advice_line(gulbara_text.hint("de", advice), "de")
    assert answer.content.startswith(f"💡 Tipp (nur du siehst ihn): Spiele {steps}: ")
    assert seen_by(world, world.carol) == onlooker
    assert logged_moves(database)[-1] == (0, "!hint")
    question = await world.alice.click(board, "Aufgeben")
    await world.alice.click(question.ephemeral[0], "Ja, aufgeben")
    assert (
        "Nicht gewertet: ein Computer hat mitgespielt." in world.games.public_messages()[-1].content
    )
    record = await exported(world, world.alice)
    assert verify_record(record).startswith("verified: Gul Bara game #1")
    assert "seat 0: !hint" in record


# ---- Barree ------------------------------------------------------------------------------


async def test_barree_a_hint_after_the_roll_names_the_walk_and_its_cards(
    fake_discord, start_bot, database
):
    world = fake_discord
    await start_bot()
    lobby = (await world.alice.slash(world.games, "barree new", computers=2)).message
    board = (await world.alice.click(lobby, "Start")).message
    assert stored_state(database).phase == "roll" and "Hint" not in labels(board)
    row = stored_game(database)
    nothing = await forged(
        world, world.alice, board, f"tb:{row['id']}:{row['version']}:hint:", place=2
    )
    assert assert_short_private_refusal(nothing, world.alice).startswith(
        "There is nothing to choose right now"
    )
    for _ in range(30):
        await world.alice.click(board, "Roll")
        if stored_state(database).phase == "move":
            break
    state = stored_state(database)
    assert state.phase == "move" and "Hint" in labels(board)
    advice = barree_explain(state, seed_of_step(database)(0))
    onlooker = seen_by(world, world.carol)

    answer, _version = await asked(world.alice, board, database)

    names = [seat["name"] for seat in json.loads(stored_game(database)["seats"])]
    assert answer.content == advice_line(barree_text.hint("en", advice, names))
    assert answer.content.startswith(f"💡 Hint (only you see it): Walk {advice.action}: ")
    assert seen_by(world, world.carol) == onlooker
    assert "!hint" in [action for _, action in logged_moves(database)]
    assert "Not rated: a computer played." in await resign(world.alice, board, world)
    record = await exported(world, world.alice)
    assert verify_record(record).startswith("verified: Barree game #1")
    assert ": !hint" in record and "asks for a hint" in " ".join(replay_captions(database))


# ---- Barbu -------------------------------------------------------------------------------


async def test_barbu_a_hint_chooses_the_contract_from_the_declarers_own_hand(
    fake_discord, start_bot, database
):
    world = fake_discord
    await start_bot()
    board = (await world.alice.slash(world.games, "barbu new", computers=3)).message
    state = stored_state(database)
    assert state.phase == "contract" and state.current_player == 0
    assert "Hint" in labels(board) and HINTS_ON in description(board)
    advice = barbu_explain(state.view(0), seed_of_step(database)(0))
    dms_before = len(world.alice.dms)
    onlooker = seen_by(world, world.carol)

    answer, _version = await asked(world.alice, board, database)

    names = [seat["name"] for seat in json.loads(stored_game(database)["seats"])]
    assert answer.content == advice_line(barbu_text.hint("en", advice, names))
    title = barbu_text.contract_title_of("en", advice.action)
    assert answer.content.startswith(f"💡 Hint (only you see it): Choose {title}: your hand")
    assert len(world.alice.dms) == dms_before, "the hint comes as the click's answer, not by DM"
    assert seen_by(world, world.carol) == onlooker
    assert logged_moves(database)[-1] == (0, "!hint")
    assert "Not rated: a computer played." in await resign(world.alice, board, world)
    record = await exported(world, world.alice)
    assert verify_record(record).startswith("verified: Barbu game #1")
    assert "1. seat 0: !hint" in record and "Alice asks for a hint" in replay_captions(database)
