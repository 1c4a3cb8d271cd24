"""The persistent components when the operator is unlucky: the database connection lost
during a league page click and during a replay pick, Discord failing the board edit after
a typed move, a league page clicked while its leaderboard changes under it. Each click is
answered in one sentence and nothing is logged as an ERROR (the harness fails on that)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import asyncpg
import pytest
from stored import stored_game, stored_state
from test_archive_hostile_e2e import resign_a_bann_game
from test_faults import BOARD_EDIT, FAST_RETRIES, eventually, shown_version
from test_league_e2e import resigned_game, twelve_bann_results

from cogs.table.components import DATABASE_LOST, RACED
from data import StaleVersion
from data.league import League
from fakediscord import InteractionRecord
from games import GAMES

ON_POSTGRESQL = pytest.mark.parametrize("database", ["postgresql"], indirect=True)
WAITING = "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND pid <> $1"


async def cut_while_waiting(
    database, table: str, click: Callable[[], Awaitable[InteractionRecord]]
) -> InteractionRecord:
    """Lock ``table`` so the bot's first read of it waits, start ``click``, then end the
    bot's waiting connection, as a failover or a restarted server would."""
    blocker = await asyncpg.connect(database.target)
    try:
        holding = blocker.transaction()
        await holding.start()
        await blocker.execute(f"LOCK TABLE {table} IN ACCESS EXCLUSIVE MODE")
        record = await click()
        mine = blocker.get_server_pid()
        pids: list[int] = []
        for _ in range(500):
            pids = [row[0] for row in await blocker.fetch(WAITING, mine)]
            if pids:
                break
            await asyncio.sleep(0.01)
        assert pids, f"the bot's read of {table} waits for the lock"
        await blocker.execute("SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) pid", pids)
        await holding.rollback()
    finally:
        await blocker.close()
    await record.wait_answered()
    return record


def footer(message) -> str:
    return message.embeds[0]["footer"]["text"]


def private_answers(world, record: InteractionRecord) -> list[str]:
    return [
        message.content
        for message in [record.original, *record.followups]
        if message is not None and message.ephemeral_for == record.user.id
    ]


@ON_POSTGRESQL
async def test_a_connection_lost_during_a_league_page_click_is_one_sentence(
    fake_discord, start_bot, database
):
    world = fake_discord
    await twelve_bann_results(database.target, world.guild.id)
    await start_bot()
    standings = (await world.bob.slash(world.games, "league standings", game="bann")).message
    assert "Page 1 of 2" in footer(standings)

    record = await cut_while_waiting(
        database, "league_seasons", lambda: world.carol.click_nowait(standings, "Next ▶")
    )
    await world.wait_until_idle()

    assert private_answers(world, record) == [DATABASE_LOST]
    assert "Page 1 of 2" in footer(standings), "the page did not turn"
    await world.carol.click(standings, "Next ▶")
    assert "Page 2 of 2" in footer(standings), "the next click turns it on a new connection"


@ON_POSTGRESQL
async def test_a_connection_lost_during_a_replay_pick_is_one_sentence(
    fake_discord, start_bot, database
):
    world = fake_discord
    await start_bot()
    await resign_a_bann_game(world, world.alice)
    history = (await world.carol.slash(world.games, "league history")).message
    before = len(world.message_log)

    record = await cut_while_waiting(
        database, "games", lambda: world.carol.select_nowait(history, ["1"])
    )
    await world.wait_until_idle()

    assert private_answers(world, record) == [DATABASE_LOST]
    assert not any(m.attachments for m in world.message_log[before:]), "no replay was sent"
    again = await world.carol.select(history, ["1"])
    assert again.message.content.startswith("▶️ Replay of Bann game #1")


async def test_a_league_page_click_losing_a_race_is_told_to_retry(
    fake_discord, start_bot, database, monkeypatch
):
    """The one answer a click gives when a save it depends on lost to another process."""
    world = fake_discord
    await twelve_bann_results(database.target, world.guild.id)
    await start_bot()
    standings = (await world.bob.slash(world.games, "league standings", game="bann")).message

    async def raced(*args, **kwargs):
        raise StaleVersion("season changed")

    with monkeypatch.context() as patched:
        patched.setattr(League, "count_players", raced)
        answer = await world.carol.click(standings, "Next ▶")

    assert [message.content for message in answer.ephemeral] == [RACED]
    assert "Page 1 of 2" in footer(standings)


async def test_a_page_of_a_season_ended_since_it_was_drawn_still_turns(
    fake_discord, start_bot, database
):
    """A new season starts and a game is recorded between the drawing and the click: the
    old season's page turns on what that season holds, and the new one starts empty."""
    world = fake_discord
    await twelve_bann_results(database.target, world.guild.id)
    await start_bot()
    standings = (await world.bob.slash(world.games, "league standings", game="bann")).message
    world.dave.permissions = world.dave.permissions | type(world.dave.permissions)(
        manage_guild=True
    )
    await world.dave.slash(world.games, "league season start", name="Season Two")
    await resigned_game(world, world.alice, world.bob)

    turned = await world.carol.click(standings, "Next ▶")

    assert turned.ephemeral == []
    assert "Page 2 of 2 · 13 players" in footer(standings)
    current = (await world.carol.slash(world.games, "league standings", game="bann")).message
    assert "Season Two" in current.embeds[0]["title"] and "2 players" in footer(current)


@pytest.mark.parametrize(("status", "code"), [(503, 0), (403, 50013)])
async def test_a_typed_move_whose_board_edit_fails_is_saved_answered_and_repaired(
    fake_discord, start_bot, database, caplog, status, code
):
    world = fake_discord
    bot = await start_bot()
    bot.tables.keeper.retry_delays = FAST_RETRIES
    board = (await world.alice.slash(world.games, "bann new", computer="normal")).message
    before = stored_game(database)
    move = GAMES["bann"].bot_action(stored_state(database), seed=1)
    world.fail(*BOARD_EDIT, status=status, code=code, count=2 if status >= 500 else 100)

    with caplog.at_level(logging.WARNING, logger="tablebot"):
        answer = await world.alice.slash(world.games, "bann move", notation=move)
        saved = stored_game(database)
        if status >= 500:
            await eventually(lambda: stored_game(database)["board_version"] == saved["version"])
        else:
            await eventually(lambda: any("gave up" in r.getMessage() for r in caplog.records))
        await world.wait_until_idle()

    assert len(answer.ephemeral) == 1 and answer.ephemeral[0].content, "the player is answered"
    assert saved["version"] > before["version"], "the move stays saved"
    assert all(record.exc_info is None for record in caplog.records), "no traceback"
    if status >= 500:
        assert shown_version(board) == saved["version"], "the retry repaired the board"
    else:
        world.fail(*BOARD_EDIT, count=0)
        shown = await world.alice.slash(world.games, "game board")
        assert shown_version(shown.message) == stored_game(database)["version"]
