"""Proof and memory through the real discord.py against the fake Discord: the board shows
the commitment, nothing during play gives the seed away, the result reveals it, the
exported record verifies, replays fit the upload limit, /league history offers them and
/league profile counts the dice."""

from __future__ import annotations

import io
import json
import logging
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image
from stored import logged_moves, stored_game, stored_state, typed

from fakediscord import Message, SimUser
from games import GAMES
from games.luck import luck_in_game
from games.proof import GameFacts, commitment, computer_seed, short_commitment, verify_record

GULBARA = GAMES["gulbara"]
SECRET_SEED = 7_345_918_273_645_109_237


@pytest.fixture
def game_seeds() -> Iterator[int]:
    """Distinctive seeds, so that finding one in a message cannot be a coincidence."""
    return iter(range(SECRET_SEED, SECRET_SEED + 50))


async def play_gulbara_to_the_end(world, database_path: Path) -> Message:
    """Alice against the computer, a whole game of whole turns typed as commands."""
    await world.alice.slash(world.games, "gulbara new", computer="normal")
    turns = 0
    while not (state := stored_state(database_path)).is_over:
        steps = []
        while state.current_player == 0 and not state.is_over:
            step = GULBARA.bot_action(state, seed=turns)
            steps.append(step)
            state = state.apply(step)
        await world.alice.slash(world.games, "gulbara move", notation=" ".join(steps))
        turns += 1
        assert turns < 200
    return world.games.public_messages()[-1]


def secret_forms(seed: int) -> list[str]:
    """The seed and what is derived from it one way, as text could carry them."""
    forms = [str(seed), f"{seed:x}", f"{seed:X}"]
    forms += [str(computer_seed(seed, step)) for step in range(600)]
    return forms


def texts_of(message: Message) -> Iterator[str]:
    for version in [*message.versions, message]:
        yield version.content
        yield repr(version.embeds)
        yield repr(version.components)
        for attachment in version.attachments:
            yield attachment.filename
            yield attachment.data.decode("latin-1")


def leaks(messages: list[Message], forms: list[str]) -> list[tuple[int, str]]:
    found = []
    for message in messages:
        for text in texts_of(message):
            found += [(message.id, form) for form in forms if form in text]
    return found


async def test_the_seed_stays_secret_until_the_result_reveals_it(
    fake_discord, start_bot, database_path, caplog
):
    caplog.set_level(logging.INFO)
    world = fake_discord
    await start_bot()
    result = await play_gulbara_to_the_end(world, database_path)

    game = stored_game(database_path)
    assert game["seed"] == SECRET_SEED and game["status"] == "finished"
    forms = secret_forms(SECRET_SEED)
    every_message = list(world.message_log)
    assert any(message.is_ephemeral for message in every_message), "private answers are scanned"
    during_play = [message for message in every_message if message is not result]
    assert leaks(during_play, forms) == [], "no message, picture or custom_id holds the seed"
    logged = [record.getMessage() for record in caplog.records]
    assert not [line for line in logged if any(form in line for form in forms)]

    assert result.content.startswith("🏁 Gul Bara game #1")
    seats = [f"Alice (user {world.alice.id})", "AdaBot (computer)"]
    game = stored_game(database_path)
    options = json.loads(game["options"])
    full = commitment("gulbara", 1, world.guild.id, world.games.id, SECRET_SEED, options, seats)
    assert f"Seed {SECRET_SEED}, commitment `{short_commitment(full)}`" in result.content
    board = next(m for m in world.games.public_messages() if m.embeds)
    first_board = next(version for version in [*board.versions, board] if version.embeds)
    footer = first_board.embeds[0]["footer"]["text"]
    assert f"commitment {short_commitment(full)}" in footer, "the commitment is shown at once"


async def test_an_exported_record_verifies_and_profile_counts_the_dice(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await start_bot()
    early = await world.alice.slash(world.games, "game export")
    assert early.ephemeral[0].content == "No game has ended in this channel yet."
    await world.alice.slash(world.games, "gulbara new", computer="normal")
    running = await world.bob.slash(world.games, "game export", game=1)
    assert "has not ended yet" in running.ephemeral[0].content, "no seed while it runs"
    asked = await world.alice.slash(world.games, "game abandon")
    await world.alice.click(asked.message, "Yes, abandon")

    exported = await world.bob.slash(world.games, "game export")
    record = exported.message
    assert record is not None and record.attachments[0].filename == "gulbara-1.txt"
    text = record.attachments[0].data.decode()
    assert verify_record(text).startswith("verified: Gul Bara game #1")
    assert f"seed: {SECRET_SEED}" in text and "seat 0: Alice (user " in text
    assert "python -m games.verify" in record.content
    tampered = re.sub(
        r"(chance: seat 0 1\.\.6 -> )(\d)",
        lambda die: die.group(1) + str(int(die.group(2)) % 6 + 1),
        text,
        count=1,
    )
    assert tampered != text
    with pytest.raises(ValueError, match="the seed gives"):
        verify_record(tampered)

    await play_gulbara_to_the_end(world, database_path)
    profile = await world.alice.slash(world.games, "league profile")
    [embed] = profile.message.embeds
    luck = next(field for field in embed["fields"] if "Gul Bara" in field["name"])
    game = stored_game(database_path)
    facts = GameFacts("gulbara", 2, world.guild.id, world.games.id, game["seed"], {}, ["", ""])
    expected = luck_in_game(facts, logged_moves(database_path), 0)
    singles = expected.rolls - expected.pair_rolls
    opening = {0: "", 1: ", 1 of them an opening roll of one die"}.get(
        singles, f", {singles} of them opening rolls of one die"
    )
    first_line = f"{expected.rolls} rolls ({expected.dice} dice) in 1 game{opening}\n"
    assert luck["value"].startswith(first_line), "rolls of one die are told apart"
    assert f"Doubles: {expected.doubles} in {expected.pair_rolls} two-dice rolls" in luck["value"]
    counts = " · ".join(f"{face}: {expected.faces[face]}" for face in range(1, 7))
    assert counts in luck["value"]
    assert [a.filename for a in profile.message.attachments] == ["profile.png", "luck.png"]
    chart = Image.open(io.BytesIO(profile.message.attachments[1].data))
    assert chart.width == 900, "the luck picture comes with the numbers"


def animation_of(message: Message) -> Image.Image:
    attachment = message.attachments[0]
    assert attachment.filename.endswith((".gif", ".webp"))
    picture = Image.open(io.BytesIO(attachment.data))
    assert picture.is_animated
    return picture


async def resign_a_bann_game(world, user: SimUser, moves: int = 4) -> None:
    await user.slash(world.games, "bann new", computer="normal")
    for _ in range(moves):
        board = world.games.public_messages()[0]
        tip = next(b for b in board.buttons() if b.label.startswith("Tip") and not b.disabled)
        menu = (await user.click(board, tip.label)).ephemeral[0]
        await user.select(menu, [menu.selects()[0].values[0]])
    board = world.games.public_messages()[0]
    asked = await user.click(board, "Resign")
    await user.click(asked.ephemeral[0], "Yes, resign")


async def test_replays_fit_the_upload_limit_and_history_offers_them(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await start_bot()
    await resign_a_bann_game(world, world.alice)
    moves = len([a for _, a in logged_moves(database_path) if not a.startswith("!")])

    full = (await world.bob.slash(world.games, "game replay")).message
    assert full.content.startswith(f"▶️ Replay of Bann game #1 (all {moves + 2} positions)")
    assert animation_of(full).n_frames == moves + 2, "start, every move, the resignation"

    world.fake.attachment_size_limit = len(full.attachments[0].data) // 3
    small = (await world.bob.slash(world.games, "game replay", game=1)).message
    assert len(small.attachments[0].data) <= world.fake.attachment_size_limit
    assert "to fit the upload limit" in small.content
    assert animation_of(small).n_frames >= 2

    world.fake.attachment_size_limit = 10 << 20
    history = (await world.carol.slash(world.games, "league history")).message
    [menu] = history.selects()
    assert menu.values == ["1"]
    picked = await world.carol.select(history, ["1"])
    assert picked.message.content.startswith("▶️ Replay of Bann game #1")
    assert animation_of(picked.message).n_frames == moves + 2

    unknown = await world.bob.slash(world.games, "game replay", game=99)
    assert unknown.ephemeral[0].content == "There is no game #99 in this server."


async def test_hands_by_dm_and_private_views_never_hold_the_seed(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await start_bot()
    board = (await world.alice.slash(world.games, "barbu new", series=1, computers=3)).message
    for decision in range(6):
        state = stored_state(database_path)
        if state.current_player != 0:
            break
        await world.alice.click(board, "My hand")
        action = GAMES["barbu"].bot_action(state, seed=decision)
        await world.alice.slash(world.games, "barbu move", notation=typed(action))
    asked = await world.alice.click(board, "Resign")
    await world.alice.click(asked.ephemeral[0], "Yes, resign")
    announcement = world.games.public_messages()[-1]
    assert announcement.content.startswith("🏳️") and str(SECRET_SEED) in announcement.content

    private = [m for m in world.message_log if m.is_ephemeral or m.channel.is_dm]
    assert any(m.channel.is_dm for m in private), "hands went by DM"
    assert any(m.is_ephemeral and m.attachments for m in private), "My hand showed pictures"
    others = [message for message in world.message_log if message is not announcement]
    assert leaks(others, secret_forms(SECRET_SEED)) == []


async def test_a_log_that_no_longer_replays_is_answered_not_crashed(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await start_bot()
    await resign_a_bann_game(world, world.alice, moves=1)
    with sqlite3.connect(database_path) as db:
        db.execute("INSERT INTO actions (game_id, seq, seat, action, at) VALUES (1, 99, 0, 'x', 0)")
    for command in ("game export", "game replay"):
        answer = (await world.bob.slash(world.games, command)).message
        assert answer.content == (
            "Game #1 was played before game records existed and cannot be replayed."
        )
        assert answer.attachments == []
