"""/game export and /game replay as a hostile member and an unlucky operator would use
them: forged menu values and games stored before records existed."""

from __future__ import annotations

import random
import sqlite3
import threading
from collections.abc import Iterator

import pytest
from stored import stored_game
from test_archive_e2e import play_gulbara_to_the_end
from test_threads_e2e import turn_threads_on

from cogs import archive, luck
from fakediscord import Message, SimUser
from games.base import Rng

PLAIN_ANSWER = "Game #1 was played before game records existed and cannot be replayed."


async def resign_a_bann_game(world, user: SimUser, moves: int = 2) -> None:
    await resign_a_bann_game_in(world, user, world.games, moves)


async def resign_a_bann_game_in(world, user: SimUser, channel, moves: int = 2) -> None:
    await user.slash(channel, "bann new", computer="normal")
    await play_and_resign(user, channel, moves)


async def play_and_resign(user: SimUser, channel, moves: int = 2) -> None:
    """``moves`` of the game whose board is the channel's first message, then resign."""
    for _ in range(moves):
        board = channel.public_messages()[0]
        tip = next(b for b in board.buttons() if b.label.startswith("Tip") and not b.disabled)
        menu = (await user.click(board, tip.label)).ephemeral[0]
        await user.select(menu, [menu.selects()[0].values[0]])
    board = channel.public_messages()[0]
    asked = await user.click(board, "Resign")
    await user.click(asked.ephemeral[0], "Yes, resign")


async def pick_forged(world, user: SimUser, menu_message: Message, value: str):
    """What a modified client could send: a value the menu never offered."""
    return await world.fake.run_interaction(
        user=user,
        channel=menu_message.channel,
        kind=3,
        data={"custom_id": "replay:pick", "component_type": 3, "values": [value]},
        label="forged select",
        source=menu_message,
    )


@pytest.mark.parametrize("value", ["abc", "99999999999999999999999", "٣"])
async def test_a_forged_replay_menu_value_gets_a_plain_answer(
    fake_discord, start_bot, database_path, value
):
    world = fake_discord
    await start_bot()
    await resign_a_bann_game(world, world.alice)
    history = (await world.carol.slash(world.games, "league history")).message
    answer = await pick_forged(world, world.carol, history, value)
    assert [m.content for m in answer.ephemeral] == [f"There is no game #{value} in this server."]
    assert answer.new_messages == answer.ephemeral


def old_words(source: Rng) -> Iterator[int]:
    """The random source before game records: Python's generator seeded per draw."""
    draw = random.Random(f"{source.seed}/{source.draws}")
    source.draws += 1
    while True:
        yield draw.getrandbits(64)


@pytest.fixture
def game_seeds() -> Iterator[int]:
    # Seed 1000 opens Bann with the same player under both sources but other dice, so
    # the old log replays move for move and only the opening roll tells them apart.
    return iter(range(1000, 1100))


async def test_a_game_played_with_the_earlier_random_source_gets_a_plain_answer(
    fake_discord, start_bot, database_path, monkeypatch
):
    world = fake_discord
    await start_bot()
    with monkeypatch.context() as earlier:
        earlier.setattr(Rng, "_words", old_words)
        await resign_a_bann_game(world, world.alice)
    assert stored_game(database_path)["status"] == "finished"
    for command in ("game export", "game replay"):
        answer = (await world.bob.slash(world.games, command)).message
        assert answer.content == PLAIN_ANSWER
        assert answer.attachments == []


async def test_a_game_whose_options_the_engine_no_longer_takes_gets_a_plain_answer(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await start_bot()
    await resign_a_bann_game(world, world.alice)
    with sqlite3.connect(database_path) as db:
        db.execute("""UPDATE games SET options = '{"board": "hex"}'""")
    for command in ("game export", "game replay"):
        answer = (await world.bob.slash(world.games, command)).message
        assert answer.content == PLAIN_ANSWER
        assert answer.attachments == []
    profile = await world.alice.slash(world.games, "league profile")
    assert profile.message is not None and profile.message.embeds


async def test_a_crowd_asking_for_replays_does_not_hold_up_other_games_boards(
    fake_discord, start_bot, database_path, monkeypatch
):
    """Replays queue among themselves; the threads that draw every game's board stay free."""
    world = fake_discord
    await start_bot()
    await resign_a_bann_game(world, world.alice)
    await world.alice.slash(world.games, "bann new", computer="normal")
    release = threading.Event()
    drawing = archive._draw_replay

    def slow_draw(*arguments):
        release.wait(30)
        return drawing(*arguments)

    monkeypatch.setattr(archive, "_draw_replay", slow_draw)
    crowd = [await world.bob.slash_nowait(world.games, "game replay", game=1) for _ in range(8)]
    before = len(world.message_log)
    try:
        board = await world.alice.slash_nowait(world.games, "game board")
        await board.wait_answered(timeout=10)
        drawn = [m for m in world.message_log[before:] if m.attachments and not m.deleted]
        assert drawn and drawn[-1].attachments[0].filename.endswith(".png")
    finally:
        release.set()
        for replay in crowd:
            await replay.wait_answered(timeout=30)
        await world.fake.wait_until_idle(timeout=60)
    assert all(replay.original.content.startswith("▶️ Replay") for replay in crowd)


async def test_the_profile_replays_each_ended_game_once_not_on_every_view(
    fake_discord, start_bot, database_path, monkeypatch
):
    """Fifty 25-point matches are tens of thousands of moves: replaying them for every
    /league profile kept the archive's worker busy for many seconds each time."""
    world = fake_discord
    await start_bot()
    await play_gulbara_to_the_end(world, database_path)
    counting = luck.luck_in_game
    replayed: list[int] = []

    def counted(facts, actions, seat):
        replayed.append(facts.game_id)
        return counting(facts, actions, seat)

    monkeypatch.setattr(luck, "luck_in_game", counted)
    first = await world.alice.slash(world.games, "league profile")
    again = await world.alice.slash(world.games, "league profile")
    assert replayed == [1]
    assert first.message.embeds[0]["fields"] == again.message.embeds[0]["fields"]
    assert any("Gul Bara" in field["name"] for field in again.message.embeds[0]["fields"])


async def a_game_in_a_back_room_carol_cannot_see(world, start_bot):
    """Game #1, played and resigned by alice in a channel hidden from carol."""
    await start_bot()
    back_room = world.guild.add_text_channel("back-room")
    back_room.hide_from(world.carol)
    await resign_a_bann_game_in(world, world.alice, back_room)
    return world.guild.channel("games"), back_room


async def test_a_game_in_a_channel_a_member_cannot_see_stays_hidden_from_him(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    lobby, _back_room = await a_game_in_a_back_room_carol_cannot_see(world, start_bot)
    for command in ("game export", "game replay"):
        refused = await world.carol.slash(lobby, command, game=1)
        assert refused.ephemeral[0].content == "There is no game #1 in this server."
        allowed = await world.bob.slash(lobby, command, game=1)
        assert allowed.message.attachments, f"bob may see the back room: {command}"


async def test_league_history_keeps_a_private_channels_games_private(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    lobby, back_room = await a_game_in_a_back_room_carol_cannot_see(world, start_bot)

    outsider = await world.carol.slash(lobby, "league history")
    assert outsider.message is not None and not outsider.ephemeral
    assert "#1 " not in outsider.message.embeds[0]["description"]

    insider = await world.bob.slash(lobby, "league history")
    assert insider.ephemeral, "not posted where carol reads"
    assert "#1 " in insider.ephemeral[0].embeds[0]["description"]

    inside = await world.bob.slash(back_room, "league history")
    assert not inside.ephemeral and "#1 " in inside.message.embeds[0]["description"]


async def a_game_in_an_archived_thread_carol_cannot_see(world, start_bot):
    """Game #1, played and resigned by alice in its own thread under a channel hidden from
    carol; the thread then archived, so the bot's cache no longer holds it."""
    await start_bot()
    await turn_threads_on(world)
    back_room = world.guild.add_text_channel("back-room")
    back_room.hide_from(world.carol)
    await world.alice.slash(back_room, "bann new", computer="normal")
    thread = world.guild.thread("Bann – Alice")
    await play_and_resign(world.alice, thread)
    thread.archive()
    return thread


async def test_a_game_of_an_archived_thread_stays_as_private_as_its_channel(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await a_game_in_an_archived_thread_carol_cannot_see(world, start_bot)
    for command in ("game export", "game replay"):
        refused = await world.carol.slash(world.games, command, game=1)
        assert refused.ephemeral[0].content == "There is no game #1 in this server."
        assert refused.new_messages == refused.ephemeral, f"nothing else for carol: {command}"
        allowed = await world.bob.slash(world.games, command, game=1)
        assert allowed.message.attachments, f"bob may read the back room: {command}"

    outsider = await world.carol.slash(world.games, "league history")
    assert "#1 " not in outsider.message.embeds[0]["description"]
    assert outsider.message.selects() == [], "no replay to pick"
    insider = await world.bob.slash(world.games, "league history")
    assert insider.ephemeral, "not posted where carol reads"
    assert "#1 " in insider.ephemeral[0].embeds[0]["description"]


@pytest.mark.parametrize(
    ("status", "code"), [(404, 10003), (403, 50001), (503, 0)], ids=["gone", "hidden", "failing"]
)
async def test_a_game_whose_thread_cannot_be_looked_at_is_shown_to_nobody(
    fake_discord, start_bot, database_path, status, code
):
    """Deleted, hidden from the bot or Discord failing: the thread may have been private,
    so even a member who could read it is refused rather than the game handed out."""
    world = fake_discord
    await a_game_in_an_archived_thread_carol_cannot_see(world, start_bot)
    world.fail("GET", "/channels/{channel_id}", status=status, code=code, count=100)
    for command in ("game export", "game replay"):
        refused = await world.bob.slash(world.games, command, game=1)
        assert refused.ephemeral[0].content == "There is no game #1 in this server."
    history = await world.bob.slash(world.games, "league history")
    assert "#1 " not in history.message.embeds[0]["description"]


async def test_a_game_of_a_private_thread_is_shown_to_its_members_only(
    fake_discord, start_bot, database_path
):
    """A private thread under #games, of alice and bob: carol reads #games, not the thread."""
    world = fake_discord
    await start_bot()
    private = world.guild.add_thread(
        world.games,
        "Rematch",
        world.fake.ids.next(),
        world.alice.id,
        private_to=[world.alice, world.bob],
    )
    await resign_a_bann_game_in(world, world.alice, private)
    for command in ("game export", "game replay"):
        refused = await world.carol.slash(world.games, command, game=1)
        assert refused.ephemeral[0].content == "There is no game #1 in this server."
        allowed = await world.bob.slash(world.games, command, game=1)
        assert allowed.message.attachments, f"bob is in the thread: {command}"
    outsider = await world.carol.slash(world.games, "league history")
    assert "#1 " not in outsider.message.embeds[0]["description"]
    insider = await world.bob.slash(world.games, "league history")
    assert "#1 " in insider.ephemeral[0].embeds[0]["description"]
