"""A board is posted anew where editing it would fail or be missed: in a game whose clock
is a day, across hours of the bot's clock (which the fake Discord's follows), with the
fake enforcing Discord's budget of edits of messages older than an hour (code 30046); in
a busy channel, where it is buried under chat; and when Discord refuses an edit with 30046
or a plain 429, nothing sleeps out the refusal while holding the table."""

from __future__ import annotations

import asyncio
import itertools

from stored import board_in, stored_game, stored_state

from cogs.scheduler import ManualTime
from cogs.table.keeper import BURIAL_LOOK_EVERY, BURIED_UNDER
from fakediscord import Message, SimUser
from games import GAMES
from games.turn_clock import DAY, HOUR, MINUTE

BANN = GAMES["bann"]
BOARD_EDIT = ("PATCH", "/channels/{channel_id}/messages/{message_id}")
UNDER_A_SECOND = 1.0
"""A click's answer that waited for no rate limit (discord.py's sleeps are 1.3 s each here)."""


def link_to(message: Message) -> str:
    guild = message.channel.guild
    assert guild is not None
    return f"https://discord.com/channels/{guild.id}/{message.channel.id}/{message.id}"


def shown_version(board: Message) -> int:
    """The table version the board message draws (its picture is named after it)."""
    return int(board.attachments[0].filename.rsplit("-", 1)[1].removesuffix(".png"))


def edit_limits_answered(world) -> int:
    return sum(1 for r in world.requests if r.route == BOARD_EDIT[1] and r.status == 429)


async def day_game(world, start_bot):
    bot = await start_bot()
    lobby = (
        await world.alice.slash(world.games, "bann new", opponent=world.bob, clock=DAY)
    ).message
    board = (await world.bob.click(lobby, "Join")).message
    return bot, board


async def play(world, database, board: Message) -> None:
    """The seat to act picks a move in the private menu of ``board``."""
    state = stored_state(database)
    player: SimUser = [world.alice, world.bob][state.current_player]
    action = BANN.bot_action(state, seed=state.current_player)
    menu = (await player.click(board, f"Tip to {action.split('>')[0]}")).ephemeral[0]
    await player.select(menu, [action])
    assert stored_state(database).to_dict() != state.to_dict(), "the move was played"


def warnings(world) -> list[str]:
    return [m.content for m in world.games.public_messages() if m.content.startswith("⚠️")]


async def test_a_day_long_game_posts_its_board_anew_before_discord_stops_its_edits(
    fake_discord, start_bot, database, clock: ManualTime
):
    world = fake_discord
    world.old_message_edits.per_hour = 1
    _, first = await day_game(world, start_bot)
    boards = [first]

    for pause in (20 * MINUTE, 2 * HOUR, 10 * MINUTE, 30 * MINUTE, 3 * HOUR, 5 * MINUTE):
        clock.advance(pause)
        await play(world, database, boards[-1])
        shown = board_in(world.games, database)
        if shown is not boards[-1]:
            boards.append(shown)
        assert shown_version(shown) == stored_game(database)["version"], "the move is shown"

    assert len(boards) == 3, "posted anew after the two hours and after the three"
    assert edit_limits_answered(world) == 0, "no board edit met Discord's hourly budget"
    assert warnings(world) == []
    for former, successor in itertools.pairwise(boards):
        assert former.buttons() == [], "a former board takes no clicks"
        assert former.content == f"⬇️ The board moved: {link_to(successor)}"
        assert former.image().size == successor.image().size, "the picture stays"
    newest = boards[-1]
    assert newest.buttons() and newest.image().size[0] >= 600
    public = world.games.public_messages()
    assert public.index(newest) >= len(public) - 2, "at the bottom (a turn ping may follow)"


async def test_a_board_discord_refuses_to_edit_is_posted_anew_at_once_and_the_old_one_points_to_it(
    fake_discord, start_bot, database, clock: ManualTime
):
    """Discord stamps the board by its own clock, here 25 minutes ahead of the bot's: 65
    minutes on, the bot takes the board for 40 minutes old, Discord for past its hour, with
    its budget of such edits spent. Discord answers 30046 with a retry_after of an hour,
    which discord.py would sleep out (with the table held) five times over."""
    world = fake_discord
    world.fake.clock = lambda: clock.now() + 25 * MINUTE
    world.old_message_edits.per_hour = 0
    _, board = await day_game(world, start_bot)
    clock.advance(65 * MINUTE)

    await play(world, database, board)

    fresh = board_in(world.games, database)
    assert fresh is not board and shown_version(fresh) == stored_game(database)["version"]
    assert fresh.image().size == board.image().size, "the refused edit's picture, read again"
    assert warnings(world) == []
    assert board.buttons(), "Discord refused to strip the old board as well: it stays"
    state = stored_state(database)
    mover = [world.alice, world.bob][state.current_player]
    tip = next(b for b in board.buttons() if b.label.startswith("Tip") and not b.disabled)
    answer = (await mover.click(board, tip.label)).ephemeral
    assert [m.content for m in answer] == [
        "This board is outdated: the game has moved on. The current board is here: "
        + link_to(fresh)
    ]
    await play(world, database, fresh)
    assert stored_game(database)["board_message_id"] != board.id


async def test_a_board_buried_under_chat_is_posted_anew_at_the_bottom(
    fake_discord, start_bot, database, clock: ManualTime
):
    world = fake_discord
    _, board = await day_game(world, start_bot)
    for number in range(BURIED_UNDER - 2):
        await world.carol.say(world.games, f"chatting along, line {number}")
    clock.advance(BURIAL_LOOK_EVERY)
    await play(world, database, board)
    assert board_in(world.games, database) is board, "a turn ping and 18 lines: still in sight"

    await world.dave.say(world.games, "and one more")
    clock.advance(BURIAL_LOOK_EVERY)
    await play(world, database, board)

    fresh = board_in(world.games, database)
    assert fresh is not board and fresh.buttons()
    public = world.games.public_messages()
    assert public.index(fresh) >= len(public) - 2, "at the bottom (a turn ping may follow)"
    assert board.buttons() == [] and link_to(fresh) in board.content
    await play(world, database, fresh)


async def test_a_rate_limited_board_edit_holds_up_no_other_answer_and_catches_up(
    fake_discord, start_bot, database, clock: ManualTime
):
    """A 429 with a retry_after on the board's edit: the move is saved and the board is
    redrawn by the background retry, while `/game board` right after it is answered at
    once instead of waiting for discord.py to sleep out five retry_afters."""
    world = fake_discord
    bot, board = await day_game(world, start_bot)
    bot.tables.keeper.retry_delays = (0.05, 0.05, 0.05)
    world.rate_limit(*BOARD_EDIT, count=2, retry_after=1.3)
    state = stored_state(database)
    player: SimUser = [world.alice, world.bob][state.current_player]
    action = BANN.bot_action(state, seed=1)
    menu = (await player.click(board, f"Tip to {action.split('>')[0]}")).ephemeral[0]

    before = stored_game(database)["version"]
    picked = await player.select_nowait(menu, [action])
    await picked.wait_answered()
    while stored_game(database)["version"] == before:
        await asyncio.sleep(0.01)
    shown = await world.carol.slash_nowait(world.games, "game board")
    await shown.wait_answered()
    await world.wait_until_idle()

    assert shown.latency is not None and shown.latency < UNDER_A_SECOND
    game = stored_game(database)
    assert game["board_version"] == game["version"]
    assert shown_version(board_in(world.games, database)) == game["version"]
    assert warnings(world) == []


async def test_a_rate_limited_board_is_redrawn_once_discords_wait_is_over_not_the_backoffs(
    fake_discord, start_bot, database, clock: ManualTime
):
    world = fake_discord
    bot, board = await day_game(world, start_bot)
    bot.tables.keeper.retry_delays = (30.0, 30.0, 30.0)
    world.rate_limit(*BOARD_EDIT, count=2, retry_after=0.1)

    await play(world, database, board)
    for _ in range(300):
        game = stored_game(database)
        if game["board_version"] == game["version"]:
            break
        await asyncio.sleep(0.01)

    assert game["board_version"] == game["version"], "redrawn after 0.1 s twice, not 30 s"
    assert shown_version(board) == game["version"] and board_in(world.games, database) is board
