"""/healthz and /metrics of a running bot: off by default, and when on, they tell whether
the bot is healthy and count what players did."""

from __future__ import annotations

import socket

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot import SettingsError, create_bot
from data import claim_database


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


async def fetch(port: int, path: str) -> tuple[int, str]:
    url = f"http://127.0.0.1:{port}{path}"
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, await response.text()


async def test_no_endpoints_unless_a_port_is_set(fake_discord, start_bot):
    bot = await start_bot()
    assert bot.monitor is None


async def test_health_and_metrics_follow_the_bot(fake_discord, database_path):
    world = fake_discord
    bot = create_bot(
        database_path=str(database_path),
        dev_guild_id=None,
        metrics_port=0,
        connector=world.connector(),
        guild_ready_timeout=0.01,
    )
    await world.start_bot(bot)
    assert bot.monitor is not None and bot.monitor.port
    port = bot.monitor.port

    assert await fetch(port, "/healthz") == (200, "ok")
    opened = await world.alice.slash(world.games, "bann new", computer="normal")
    board = opened.message
    tip = next(button.label for button in board.buttons() if button.label.startswith("Tip"))
    menu = (await world.alice.click(board, tip)).ephemeral[0]
    await world.alice.select(menu, [menu.selects()[0].options[0].value])

    status, text = await fetch(port, "/metrics")
    assert status == 200
    seen = samples(text)
    assert seen[("tablebot_interactions_total", (("type", "application_command"),))] == 1
    assert seen[("tablebot_interactions_total", (("type", "component"),))] == 2
    assert seen[("tablebot_moves_total", ())] >= 2, "Alice's move and the computer's answer"
    assert seen[("tablebot_interaction_ack_seconds_count", ())] == 3
    assert seen[("tablebot_database_seconds_count", (("operation", "transaction"),))] >= 3
    assert ("tablebot_open_games", ()) in seen

    await world.stop_bot(bot)
    assert bot.monitor is None, "the endpoints close with the bot"


async def test_a_metrics_port_already_taken_stops_the_bot_with_one_sentence(
    fake_discord, database_path
):
    world = fake_discord
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        bot = create_bot(
            database_path=str(database_path),
            dev_guild_id=None,
            metrics_port=port,
            connector=world.connector(),
            guild_ready_timeout=0.01,
        )
        try:
            with pytest.raises(AssertionError) as stopped:
                await world.start_bot(bot)
        finally:
            await bot.close()  # as `python bot.py` does when the start fails

    problem = stopped.value.__cause__
    assert isinstance(problem, SettingsError) and f"METRICS_PORT {port}" in str(problem)
    claim_database(str(database_path)).release()


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)
async def test_healthz_says_why_when_every_database_connection_is_busy(
    fake_discord, database, monkeypatch
):
    world = fake_discord
    monkeypatch.setenv("DATABASE_POOL_SIZE", "1")
    bot = create_bot(
        database_path=database.target,
        dev_guild_id=None,
        metrics_port=0,
        connector=world.connector(),
        guild_ready_timeout=0.01,
    )
    await world.start_bot(bot)
    try:
        assert bot.store is not None and bot.monitor is not None
        async with bot.store.transaction():  # the pool's only connection, held
            status, text = await fetch(bot.monitor.port, "/healthz")
    finally:
        await world.stop_bot(bot)

    assert (status, text) == (503, "database did not answer within 2 s")
