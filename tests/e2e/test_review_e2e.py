"""/game review through the real discord.py against the fake Discord: a finished game's
review with its progress edited in place, stored so a second request is instant; the
costliest decisions' buttons; marks in the replay's captions; the refusals (a running
game, a channel the member cannot read, a full queue); German; puzzles (Bann, and Barbu
with the deciding seat's hand)."""

from __future__ import annotations

import io
import json
import re
import sqlite3
from pathlib import Path

import discord
from german import embed_texts, english_in
from PIL import Image, ImageChops, ImageStat
from stored import logged_moves, stored_game, stored_state, typed

from cogs.puzzles import computer_puzzle
from fakediscord import Message
from games import GAMES, GameState
from games.review.model import Review
from render.barbu import HAND_HEIGHT, TABLE_HEIGHT, TABLE_WIDTH, render_barbu_hand
from texts.reviews import amount, notation

BANN = GAMES["bann"]
BARBU = GAMES["barbu"]
PROGRESS = re.compile(r"🔍 Reviewing Bann game #(\d+)… (\d+) of (\d+) decisions")


async def play_bann(
    world, database_path: Path, channel=None, moves: int = 12, level: str = "normal"
) -> None:
    """Alice against the normal computer: ``moves`` of her moves typed as the computer at
    ``level`` would play them (fewer if the game ends first), then she resigns if it still
    runs. A short game keeps its review within the harness's patience."""
    channel = channel or world.games
    await world.alice.slash(channel, "bann new", computer="normal")
    for move in range(moves):
        state = stored_state(database_path)
        if state.is_over:
            return
        assert state.current_player == 0, "the computer answers at once"
        await world.alice.slash(
            channel, "bann move", notation=BANN.bot_action(state, seed=move, level=level)
        )
    if not stored_state(database_path).is_over:
        asked = await world.alice.slash(channel, "game resign")
        await world.alice.click(asked.ephemeral[0], "Yes, resign")


def stored_reviews(database_path: Path) -> list[tuple[int, str]]:
    with sqlite3.connect(database_path) as db:
        return db.execute("SELECT game_id, review FROM reviews ORDER BY game_id").fetchall()


def seen_contents(message: Message) -> list[str]:
    return [version.content for version in [*message.versions, message]]


COMPUTER_GAME_SECONDS = 90.0
"""A puzzle without reviewed games plays computer games until the easy one blunders:
long work (a whole Barbu game is half a minute), whose time follows the machine's speed."""


async def test_a_review_shows_its_progress_is_stored_and_answers_again_at_once(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await start_bot()
    await play_bann(world, database_path)

    asked = await world.alice.slash(world.games, "game review")
    answer = asked.message
    progress = [PROGRESS.fullmatch(content or "") for content in seen_contents(answer)]
    steps = [(int(m[2]), int(m[3])) for m in progress if m]
    assert steps, "the progress was edited into the answer"
    [(game_id, text)] = stored_reviews(database_path)
    review = Review.from_json(text)
    total = len(review.judgements)
    assert game_id == 1 and all(0 < done <= total and of == total for done, of in steps)
    assert steps == sorted(steps), "the count only goes up"
    [embed] = answer.embeds
    assert embed["title"] == "Review of Bann game #1"
    assert embed["image"]["url"] == "attachment://review.png"
    chart = Image.open(io.BytesIO(answer.attachments[0].data))
    assert chart.width == 900
    fields = {field["name"]: field["value"] for field in embed["fields"]}
    assert set(fields) == {"Alice", "AdaBot"}
    alice = next(seat for seat in review.seats if seat.seat == 0)
    assert f"Accuracy **{round(alice.accuracy)} %**" in fields["Alice"]
    assert f"({alice.decisions} judged)" in fields["Alice"]
    worst = sorted((j for j in review.judgements if j.loss > 0), key=lambda j: (-j.loss, j.index))[
        :3
    ]
    assert [button.label for button in answer.buttons()] == [
        f"{place}. Move {judgement.index}" for place, judgement in enumerate(worst, start=1)
    ]
    for place, judgement in enumerate(worst, start=1):
        assert f"{place}. Move {judgement.index}, " in embed["description"]

    again = await world.bob.slash(world.games, "game review")
    assert not any(PROGRESS.fullmatch(c or "") for c in seen_contents(again.message)), (
        "a stored review is shown at once"
    )
    assert again.message.embeds[0]["description"] == embed["description"]
    assert len(stored_reviews(database_path)) == 1

    if worst:
        shown = await world.bob.click(answer, f"1. Move {worst[0].index}")
        [private] = shown.ephemeral
        assert private.content.startswith(f"Move {worst[0].index}, ")
        assert f"better {notation(worst[0].best)}" in private.content
        picture = Image.open(io.BytesIO(private.attachments[0].data))
        assert picture.height > picture.width, "the board as played above the better one"

    replay = await world.alice.slash(world.games, "game replay")
    assert replay.message.attachments, "the replay is drawn with the review's marks"

    profile = await world.alice.slash(world.games, "league profile")
    fields = {f["name"]: f["value"] for f in profile.message.embeds[0]["fields"]}
    luck = amount("en", "win", alice.luck, sign=True)
    assert fields["🔍 Bann: reviews"].startswith(f"Luck {luck} in 1 reviewed game · result ")


async def test_marks_reach_the_replays_captions(fake_discord, start_bot, database_path):
    """A replay after a review names each marked decision's move with ?!, ? or ??."""
    from cogs import archive

    world = fake_discord
    await start_bot()
    await play_bann(world, database_path)
    captions: list[str] = []
    drawn = archive.render_replay

    def recording(kind, frames, names, limit, language):
        captions.extend(text for _, text in frames)
        return drawn(kind, frames, names, limit, language)

    archive.render_replay = recording
    try:
        await world.alice.slash(world.games, "game replay")
        unmarked = list(captions)
        captions.clear()
        await world.alice.slash(world.games, "game review")
        await world.alice.slash(world.games, "game replay")
    finally:
        archive.render_replay = drawn
    [(_, text)] = stored_reviews(database_path)
    marked = {j.index: j.mark for j in Review.from_json(text).judgements if j.mark}
    symbols = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
    assert not any(caption.endswith(("?!", " ?", "??")) for caption in unmarked)
    for before, after in zip(unmarked, captions, strict=True):
        number = re.match(r"(\d+)\. ", before)
        if number and int(number[1]) in marked:
            assert after == f"{before} {symbols[marked[int(number[1])]]}"
        else:
            assert after == before


async def test_a_running_game_and_a_hidden_channel_are_refused(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await start_bot()
    nothing = await world.alice.slash(world.games, "game review")
    assert nothing.ephemeral[0].content == "No game has ended in this channel yet."
    back_room = world.guild.add_text_channel("back-room")
    back_room.hide_from(world.carol)
    await play_bann(world, database_path, back_room)
    hidden = await world.carol.slash(world.games, "game review", game=1)
    assert hidden.ephemeral[0].content == "There is no game #1 in this server."
    lobby = (await world.alice.slash(world.games, "barree new", computers=1)).message
    await world.alice.click(lobby, "Start")
    running = await world.bob.slash(world.games, "game review", game=2)
    assert running.ephemeral[0].content == (
        "Game #2 has not ended yet: it can be reviewed once it has."
    )
    assert stored_reviews(database_path) == []


async def test_a_full_queue_is_refused_politely(fake_discord, start_bot, database_path):
    """With as many reviews under way as the pool takes (one here), another game's review
    is refused privately, saying the limit; the running one finishes and is stored."""
    world = fake_discord
    bot = await start_bot()
    await play_bann(world, database_path)
    back_room = world.guild.add_text_channel("back-room")
    await play_bann(world, database_path, back_room, moves=30)
    bot.get_cog("ReviewsCog").pool.limit = 1

    first = await world.alice.slash_nowait(world.games, "game review", game=1)
    await first.wait_answered()
    assert first.original is not None and PROGRESS.fullmatch(first.original.content or "")
    second = await world.bob.slash_nowait(world.games, "game review", game=2)
    await second.wait_answered()
    assert second.original is not None and second.original.ephemeral_for == world.bob.id
    assert second.original.content == (
        "1 review is being worked out already, the most at once: please ask again in a"
        " minute or two."
    )
    await world.fake.wait_until_idle(timeout=60)
    assert [game for game, _ in stored_reviews(database_path)] == [1]
    assert first.original.embeds[0]["title"] == "Review of Bann game #1"


async def test_a_review_outliving_its_answers_token_is_posted_for_the_member(
    fake_discord, start_bot, database_path
):
    """A review that waited past the 15 minutes an interaction's token lasts (here the
    fake Discord lets tokens expire at once) can no longer edit its answer: it is posted
    as a new channel message that pings only the member who asked, buttons included."""
    world = fake_discord
    await start_bot()
    await play_bann(world, database_path)
    world.fake.token_lifetime = 0.0

    asked = await world.alice.slash(world.games, "game review")
    assert not asked.message.embeds, "the expired answer stays as it was"
    posted = world.games.last_message()
    assert posted is not asked.message
    assert posted.content == f"{world.alice.mention}, your review of Bann game #1 is ready."
    assert posted.pinged == [world.alice.id]
    assert posted.embeds[0]["title"] == "Review of Bann game #1"
    assert posted.attachments[0].filename == "review.png"
    assert len(stored_reviews(database_path)) == 1
    if posted.buttons():
        world.fake.token_lifetime = 900.0
        shown = await world.bob.click(posted, posted.buttons()[0].label)
        assert shown.ephemeral, "the late review's buttons work"


async def test_a_german_server_reads_its_review_in_german(fake_discord, start_bot, database_path):
    """The review speaks the server's language; a costly decision's button answers each
    clicker in his own."""
    world = fake_discord
    await start_bot()
    await play_bann(world, database_path)
    world.alice.locale = "de"
    world.alice.permissions = discord.Permissions(manage_guild=True)
    await world.alice.slash(world.games, "settings", language="de")
    asked = await world.alice.slash(world.games, "game review")
    [embed] = asked.message.embeds
    assert embed["title"] == "Auswertung der Bann-Partie #1"
    assert any("Werte die Bann-Partie #1 aus" in (c or "") for c in seen_contents(asked.message))
    shown = [*embed_texts(embed), *(button.label for button in asked.message.buttons())]
    assert [text for text in shown if english_in(text)] == []

    english_client = await world.bob.click(asked.message, asked.message.buttons()[0].label)
    assert english_client.ephemeral[0].content.startswith("Move "), "in the clicker's language"
    german_client = await world.alice.click(asked.message, asked.message.buttons()[0].label)
    [private] = german_client.ephemeral
    assert private.content.startswith("Zug ") and english_in(private.content) == []


async def test_a_puzzle_from_a_reviewed_game_solved_and_one_failed(
    fake_discord, start_bot, database_path
):
    """Alice blunders as the easy computer would; after the review, the blunder is the
    server's puzzle: Alice finds the best move, Bob plays Alice's blunder again."""
    world = fake_discord
    await start_bot()
    await play_bann(world, database_path, moves=14, level="easy")
    await world.alice.slash(world.games, "game review")
    [(_, text)] = stored_reviews(database_path)
    blunder = next(j for j in Review.from_json(text).judgements if j.mark == "blunder")

    shown = await world.alice.slash(world.games, "bann puzzle")
    [puzzle] = shown.ephemeral
    assert puzzle.content.startswith(
        f"🧩 Find the best move for {'Alice' if blunder.seat == 0 else 'AdaBot'}"
        f" (move {blunder.index})."
    )
    assert puzzle.attachments[0].filename == "puzzle.png"

    solved = await world.alice.slash(world.games, "bann puzzle", move=blunder.best)
    assert solved.ephemeral[0].content.startswith(f"✅ Solved: `{blunder.best}`")
    failed = await world.bob.slash(world.games, "bann puzzle", move=blunder.played)
    lines = failed.ephemeral[0].content.split("\n")
    assert lines[0].startswith(f"❌ Not quite: `{blunder.played}` loses ")
    assert lines[1].startswith(f"In the game, Alice played `{blunder.played}` and lost ")

    wrong = await world.carol.slash(world.games, "bann puzzle", move="9>9:Z")
    assert wrong.ephemeral and not wrong.ephemeral[0].content.startswith(("✅", "❌"))
    with sqlite3.connect(database_path) as db:
        answers = db.execute(
            "SELECT user_id, solved FROM puzzle_answers ORDER BY solved"
        ).fetchall()
    assert answers == [(world.bob.id, 0), (world.alice.id, 1)], "a refused move counts nothing"
    profile = await world.alice.slash(world.games, "league profile")
    fields = {f["name"]: f["value"] for f in profile.message.embeds[0]["fields"]}
    assert "Puzzles: 1 of 1 solved" in fields["🔍 Bann: reviews"]


async def test_without_reviewed_games_a_puzzle_comes_from_the_computers(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    world.fake.idle_timeout = COMPUTER_GAME_SECONDS
    await start_bot()
    shown = await world.alice.slash(world.games, "bann puzzle")
    assert shown.ephemeral[0].content.startswith("🧩 Find the best move for AdaBot (move ")
    found = next(p for seed in range(1, 5) if (p := computer_puzzle("bann", seed)) is not None)
    assert f"(move {found.judgement.index})" in shown.ephemeral[0].content
    solved = await world.alice.slash(world.games, "bann puzzle", move=found.judgement.best)
    assert solved.ephemeral[0].content.startswith("✅ Solved")


async def play_barbu(world, database_path: Path, deals: int = 2) -> None:
    """Alice against three normal computers, her decisions typed as the easy computer
    would take them, for ``deals`` deals; then she resigns."""
    await world.alice.slash(world.games, "barbu new", series=1, computers=3)
    decision = 0
    while (state := stored_state(database_path)).deal_number < deals and not state.is_over:
        assert state.current_player == 0, "the computers answer at once"
        action = BARBU.bot_action(state, seed=decision, level="easy")
        await world.alice.slash(world.games, "barbu move", notation=typed(action))
        decision += 1
    asked = await world.alice.slash(world.games, "game resign")
    await world.alice.click(asked.ephemeral[0], "Yes, resign")


def picture_difference(picture: Image.Image, png: bytes) -> float:
    """The mean difference of two pictures' colour values (0 to 255): both are paletted
    when encoded, so the same drawing differs a little."""
    other = Image.open(io.BytesIO(png)).convert("RGB")
    return sum(ImageStat.Stat(ImageChops.difference(picture, other)).mean) / 3


def barbu_position(database_path: Path, index: int) -> GameState:
    """The newest game's state before its ``index``-th logged action."""
    game = stored_game(database_path)
    state: GameState = BARBU.new_game(players=4, seed=game["seed"], **json.loads(game["options"]))
    for _, action in logged_moves(database_path)[: index - 1]:
        state = state.apply(action)
    return state


async def test_a_barbu_puzzle_shows_only_the_deciding_seats_hand_solved_and_failed(
    fake_discord, start_bot, database_path
):
    """After the review of an ended Barbu game, its first blunder is the server's puzzle,
    shown privately as that seat saw it: the table and its own hand. Alice answers with
    the best decision, Bob with the one played."""
    world = fake_discord
    await start_bot()
    await play_barbu(world, database_path)
    await world.alice.slash(world.games, "game review")
    [(_, text)] = stored_reviews(database_path)
    blunder = next(j for j in Review.from_json(text).judgements if j.mark == "blunder")
    names = [seat["name"] for seat in json.loads(stored_game(database_path)["seats"])]
    public_before = len(world.games.public_messages())

    shown = await world.alice.slash(world.games, "barbu puzzle")
    [puzzle] = shown.ephemeral
    assert puzzle.content.startswith(
        f"🧩 Find the best move for {names[blunder.seat]} (move {blunder.index})."
    )
    assert "/barbu puzzle" in puzzle.content
    assert len(world.games.public_messages()) == public_before, "nothing shown to the channel"
    picture = Image.open(io.BytesIO(puzzle.attachments[0].data)).convert("RGB")
    assert picture.size == (TABLE_WIDTH, TABLE_HEIGHT + HAND_HEIGHT)
    below_the_table = picture.crop((0, TABLE_HEIGHT, TABLE_WIDTH, picture.height))
    position = barbu_position(database_path, blunder.index)
    unlike = {
        seat: picture_difference(
            below_the_table, render_barbu_hand(position.view(seat), names, "en")
        )
        for seat in range(4)
    }
    assert unlike[blunder.seat] < 1, "the deciding seat's own hand, as My hand draws it"
    assert min(v for seat, v in unlike.items() if seat != blunder.seat) > 5

    solved = await world.alice.slash(world.games, "barbu puzzle", move=typed(blunder.best))
    assert solved.ephemeral[0].content.startswith(f"✅ Solved: `{typed(blunder.best)}`")
    failed = await world.bob.slash(world.games, "barbu puzzle", move=typed(blunder.played))
    lines = failed.ephemeral[0].content.split("\n")
    assert lines[0].startswith(f"❌ Not quite: `{typed(blunder.played)}` loses ")
    assert lines[1].startswith(
        f"In the game, {names[blunder.seat]} played `{typed(blunder.played)}` and lost "
    )
    wrong = await world.carol.slash(world.games, "barbu puzzle", move="1X")
    assert wrong.ephemeral and not wrong.ephemeral[0].content.startswith(("✅", "❌"))
    with sqlite3.connect(database_path) as db:
        answers = db.execute(
            "SELECT user_id, kind, solved FROM puzzle_answers ORDER BY solved"
        ).fetchall()
    assert answers == [(world.bob.id, "barbu", 0), (world.alice.id, "barbu", 1)], (
        "a refused answer counts nothing"
    )
    profile = await world.alice.slash(world.games, "league profile")
    fields = {f["name"]: f["value"] for f in profile.message.embeds[0]["fields"]}
    assert "Puzzles: 1 of 1 solved" in fields["🔍 Barbu: reviews"]


async def test_without_reviewed_games_a_barbu_puzzle_comes_from_the_computers(
    fake_discord, start_bot, database_path
):
    """The easy computer's blunder against three normal ones, with its own hand."""
    world = fake_discord
    world.fake.idle_timeout = COMPUTER_GAME_SECONDS
    await start_bot()
    shown = await world.alice.slash(world.games, "barbu puzzle")
    [puzzle] = shown.ephemeral
    assert puzzle.content.startswith("🧩 Find the best move for AdaBot (move ")
    picture = Image.open(io.BytesIO(puzzle.attachments[0].data))
    assert picture.size == (TABLE_WIDTH, TABLE_HEIGHT + HAND_HEIGHT)
    assert world.games.public_messages() == [], "nothing shown to the channel"
