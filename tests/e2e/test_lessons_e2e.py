"""Lessons through the real discord.py against the fake Discord: a newcomer who reads
only what the bot shows takes every game's lesson, in English and in German; a wrong
try is explained and tried again; a lesson left is resumed after a restart; the Learn
button under the rules; the practice game at the end is not rated; nothing of it is
posted in the channel or blocks it; forged lesson controls are refused."""

from __future__ import annotations

import json
import sqlite3

import discord
import pytest
from german import english_seen
from lesson_newcomer import Newcomer, Walkthrough, is_lesson
from stored import stored_game
from test_hostile_components_e2e import BUTTON, SELECT, refused_and_unchanged
from testdb import both_engines

from cogs.table.lessons import AGAIN_LABEL, LEAVE_LABEL, NEXT_LABEL, PRACTICE_LABEL
from games import GAMES
from texts.lessons import lesson_of

FIVE_MINUTES = 5.0


def report(walk: Walkthrough, language: str) -> str:
    return (
        f"{language} {walk.game:8} steps {walk.steps:2} · taps {walk.taps:3} · words "
        f"{walk.words:4} · wrong tries {walk.wrong_tries} · {walk.minutes:.1f} min"
    )


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("game", list(GAMES))
async def test_a_newcomer_reading_only_the_bot_completes_each_lesson(
    fake_discord, start_bot, database_path, game, language
):
    world = fake_discord
    if language == "de":
        world.alice.locale = "de"
        world.guild.preferred_locale = "de"
    await start_bot()
    public_before = len(world.games.public_messages())

    walk, last = await Newcomer(world.alice, world.games, language).take_lesson(game)
    print(report(walk, language))

    lesson = lesson_of(game)
    assert lesson is not None
    assert walk.steps == len(lesson.steps), "every step was shown, one after another"
    assert walk.minutes < FIVE_MINUTES, "a lesson takes a person under five minutes"
    assert last.is_ephemeral and is_lesson(last)
    assert len(world.games.public_messages()) == public_before, "nothing went to the channel"
    with sqlite3.connect(database_path) as db:
        assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 0, "no table opened"
        row = db.execute("SELECT step, solved FROM lesson_progress").fetchone()
    assert row == (len(lesson.steps) - 1, 1), "the finished lesson is stored"
    if language == "de":
        assert english_seen(world.games, [world.alice]) == {}


async def test_a_wrong_try_is_explained_in_one_sentence_and_tried_again(fake_discord, start_bot):
    world = fake_discord
    await start_bot()
    lesson = (await world.alice.slash(world.games, "bann learn")).message
    lesson = (await world.alice.select(await _tip(world, lesson, "2"), ["2>6:N"])).message
    lesson = (await world.alice.click(lesson, NEXT_LABEL)).message
    assert "Banned knights" in lesson.content

    menu = await _tip(world, lesson, "3")
    assert not any(value.startswith("3>3") for value in menu.selects()[0].values), (
        "tipping to 3 bans knight 3: the real menu offers no move of it"
    )
    tried = (await world.alice.select(menu, ["3>4:N"])).message
    wrong = [line for line in tried.content.splitlines() if line.startswith("❌")]
    assert wrong == [
        "❌ Tipping to 3 banned knight 3: your die showed 3. Tip to 1, 4 or 6. Try again."
    ]
    assert tried.image() is not None and "Tip to 1" in [b.label for b in tried.buttons()], (
        "the step starts over with its controls"
    )
    again = (await world.alice.select(await _tip(world, tried, "1"), ["1>3:N"])).message
    assert "✅ Knight 3 moved: neither die showed 3." in again.content
    assert NEXT_LABEL in [button.label for button in again.buttons()]


@both_engines()
async def test_a_lesson_left_is_resumed_where_it_was_after_a_restart(
    fake_discord, start_bot, database
):
    world = fake_discord
    bot = await start_bot()
    lesson = (await world.alice.slash(world.games, "gulbara learn")).message
    panel = (await world.alice.select(lesson, ["24"])).ephemeral[0]
    solved = (await world.alice.click(panel, "24/18 (6)")).message
    second = (await world.alice.click(solved, NEXT_LABEL)).message
    assert "step 2 of 6" in second.content
    left = (await world.alice.click(second, LEAVE_LABEL)).message
    assert left.content.startswith("📌 Lesson paused at step 2 of 6.")
    assert "`/gulbara learn`" in left.content and left.buttons() == []

    await bot.close()
    await start_bot()
    resumed = (await world.alice.slash(world.games, "gulbara learn")).message
    assert "step 2 of 6: A lone checker blocks" in resumed.content
    assert "Welcome back: the lesson goes on where you left it." in resumed.content
    bob_starts = (await world.bob.slash(world.games, "gulbara learn")).message
    assert "step 1 of 6" in bob_starts.content, "each member has a lesson of his own"


async def test_the_rules_offer_a_learn_button_and_a_step_can_be_started_again(
    fake_discord, start_bot
):
    world = fake_discord
    await start_bot()
    rules = (await world.alice.slash(world.games, "barree rules")).message
    assert rules.embeds and rules.is_ephemeral
    started = await world.alice.click(rules, "Learn Barree step by step")
    lesson = started.ephemeral[0]
    assert lesson.content.startswith("🎓 **Barree lesson · step 1 of 5: Roll and walk**")
    assert [button.label for button in lesson.buttons()][:1] == ["Roll"], "the table's controls"
    rolled = (await world.alice.click(lesson, "Roll")).message
    assert [button.label for button in rolled.buttons()] == [
        "Choose a walk (4)",
        AGAIN_LABEL,
        LEAVE_LABEL,
    ]
    again = (await world.alice.click(rolled, AGAIN_LABEL)).message
    assert [button.label for button in again.buttons()] == ["Roll", LEAVE_LABEL]


async def test_the_practice_game_offers_hints_even_where_computer_games_are_rated(
    fake_discord, start_bot
):
    world = fake_discord
    await start_bot()
    world.alice.permissions = discord.Permissions(manage_guild=True)
    await world.alice.slash(world.games, "settings", rate_computer_games=True)
    _walk, last = await Newcomer(world.alice, world.games).take_lesson("bann")
    opened = await world.alice.click(last, PRACTICE_LABEL)
    board = next(message for message in opened.new_messages if message.buttons())
    assert "Hint" in [button.label for button in board.buttons()]
    assert "💡 Hints on: this game is not rated." in board.embeds[0]["description"]


async def test_the_lesson_ends_with_an_unrated_practice_game_against_the_easy_computer(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await start_bot()
    _walk, last = await Newcomer(world.alice, world.games).take_lesson("bann")
    assert "🎓 You have finished the Bann lesson!" in last.content

    opened = await world.alice.click(last, PRACTICE_LABEL)
    board = next(message for message in opened.new_messages if message.buttons())
    assert not board.is_ephemeral and board.image() is not None
    game = stored_game(database_path)
    assert game["status"] == "active"
    assert "AdaBot (easy)" in game["seats"]
    resigned = await world.alice.click(board, "Resign")
    confirm = resigned.ephemeral[0] if resigned.ephemeral else resigned.message
    await world.alice.click(confirm, custom_id=confirm.buttons()[0].custom_id)
    announcement = world.games.public_messages()[-1]
    assert "Not rated: a practice game after a lesson." in announcement.content


async def test_a_menu_of_an_earlier_moment_of_the_lesson_is_refused(fake_discord, start_bot):
    world = fake_discord
    await start_bot()
    lesson = (await world.alice.slash(world.games, "bann learn")).message
    earlier = await _tip(world, lesson, "2")
    later = await _tip(world, lesson, "3")
    moved = await world.alice.select(later, ["3>6:N"])
    assert "✅" in moved.message.content
    assert lesson.deleted, "the lesson's previous message gives way to the new one"
    refused = await world.alice.select(earlier, ["2>6:N"])
    assert "outdated" in refused.ephemeral[0].content
    assert "step 1 of 8" in moved.message.content, "the refused pick changed nothing"


async def _tip(world, lesson, face: str):
    """The move menu a tip button of the lesson opens."""
    opened = await world.alice.click(lesson, f"Tip to {face}")
    return opened.ephemeral[0]


async def test_privacy_shows_and_forgets_the_lessons(fake_discord, start_bot):
    world = fake_discord
    await start_bot()
    lesson = (await world.alice.slash(world.games, "barbu learn")).message
    solved = (await world.alice.click(lesson, "No Tricks")).message
    await world.alice.click(solved, NEXT_LABEL)

    shown = (await world.alice.slash(world.games, "privacy show")).followups[0]
    assert "Your progress in the lessons of Barbu is in it too." in shown.content
    document = json.loads(shown.attachments[0].data)
    assert document["lessons"] == [
        {"game": "Barbu", "step": 2, "step_solved": False, "moves_in_the_step": []}
    ]

    asked = (await world.alice.slash(world.games, "privacy forget")).message
    assert "Delete your progress in the lessons of Barbu?" in asked.content
    done = (await world.alice.click(asked, "Yes, forget me")).message
    assert done.content == "Your progress in the lessons is deleted."
    again = (await world.alice.slash(world.games, "barbu learn")).message
    assert "step 1 of 6" in again.content and "Welcome back" not in again.content


async def test_forged_lesson_controls_are_refused_and_change_nothing(
    fake_discord, start_bot, database
):
    """A lesson's controls forged as a hostile client would: a made-up game, a step the
    lesson is not at, another game's verb, a move the rules refuse, someone else's
    lesson; each as a button and as a select, by the learner and by a member who has no
    lesson. One short private answer each, and every row stays as it was."""
    world = fake_discord
    await start_bot()
    lesson = (await world.alice.slash(world.games, "bann learn")).message
    version = int(lesson.buttons()[0].custom_id.split(":")[2])
    forgeries = [
        "tb:0:0:learn:chess",
        "tb:0:0:learn:",
        f"tb:0:{version}:lesson_next:",
        f"tb:0:{version}:lesson_practice:",
        f"tb:0:{version}:lesson_restart:",
        f"tb:0:{version}:lesson_again:",
        f"tb:0:{version + 7}:tip:2",
        f"tb:0:{version}:tip:9",
        f"tb:0:{version}:walks:",
        f"tb:0:{version}:resign:",
        f"ts:0:{version}:move:forged",
    ]
    for user in (world.alice, world.carol):
        for custom_id in forgeries:
            for kind in (BUTTON, SELECT):
                await refused_and_unchanged(
                    world, user, lesson, custom_id, database, kind=kind, place=kind
                )
    menu = (await world.alice.click(lesson, "Tip to 2")).ephemeral[0]
    mark = menu.selects()[0].custom_id.split(":")[4]
    answer = await refused_and_unchanged(
        world,
        world.alice,
        menu,
        f"ts:0:{version}:move:{mark}",
        database,
        kind=SELECT,
        values=["2>1:N"],
        place=SELECT,
    )
    assert answer == "Knight 1 is banned: a die shows 1."
