"""A backup taken while 20 games play, restored into a fresh place: the bot started on it
finds every move whose save finished before the backup began, and every game replays
from its log.

The commands are the README's: on SQLite ``python -m data.backup`` and ``python -m
data.restore``, on PostgreSQL ``pg_dump -Fc`` of the bot's database and ``pg_restore``
into a fresh one. The bot plays in a child process (tests/botprocess.py); the fake
Discord and the members, who type each move of all four games as fast as the bot
answers, run here.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import signal
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from botprocess import BotZygote, wait_dead
from stored import typed
from testdb import PostgresDatabaseOfItsOwn, SqliteTestDatabase, TestDatabase

from bot import create_bot
from fakediscord import Channel, SimUser
from fakediscord import test_ca as fake_ca_of_this_process
from games import GAMES, replay

ROOT = Path(__file__).resolve().parents[2]
KINDS = ["bann"] * 8 + ["gulbara"] * 4 + ["barree"] * 4 + ["barbu"] * 4
PLAYERS = {"bann": 2, "gulbara": 2, "barree": 2, "barbu": 4}
MOVES_BEFORE_BACKUP = 40
MOVES_AFTER_BACKUP = 20
CONFIRMATION = "✅ You "
"""How a typed move's confirmation begins: "✅ You played 4>5:N.", or a game's own words
for it ("✅ You rolled 4: choose a walk.")."""


@dataclass
class Table:
    kind: str
    channel: Channel
    players: list[SimUser]
    confirmed: list[str] = field(default_factory=list)
    """The moves its players were told were played, in order."""


@contextlib.contextmanager
def database_for(engine: str, place: Path, request: pytest.FixtureRequest):
    if engine == "sqlite":
        place.mkdir(parents=True)
        yield SqliteTestDatabase(place / "tablebot.sqlite3")
        return
    database = PostgresDatabaseOfItsOwn(request.getfixturevalue("postgres_server"))
    database.create()
    try:
        yield database
    finally:
        database.drop()


def environment(database: TestDatabase) -> dict[str, str]:
    """The settings the bot and the operator's commands read, naming ``database``."""
    settings = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DATABASE_PATH")}
    key = "DATABASE_PATH" if database.engine == "sqlite" else "DATABASE_URL"
    return settings | {key: database.target}


async def run(*command: str, env: dict[str, str]) -> tuple[str, float]:
    """Run an operator's command; what it printed, and how long it took."""
    started = time.perf_counter()
    process = await asyncio.create_subprocess_exec(
        *command,
        cwd=ROOT,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), timeout=120)
    assert process.returncode == 0, (command, out.decode(), err.decode())
    return out.decode().strip(), time.perf_counter() - started


async def back_up(live: TestDatabase, backup: Path) -> tuple[str, float]:
    if live.engine == "sqlite":
        return await run(sys.executable, "-m", "data.backup", str(backup), env=environment(live))
    return await run(
        "pg_dump", "--format=custom", f"--file={backup}", live.target, env=dict(os.environ)
    )


async def restore(backup: Path, fresh: TestDatabase) -> tuple[str, float]:
    if fresh.engine == "sqlite":
        return await run(sys.executable, "-m", "data.restore", str(backup), env=environment(fresh))
    return await run(
        "pg_restore", "--no-owner", f"--dbname={fresh.target}", str(backup), env=dict(os.environ)
    )


def logs(database: TestDatabase) -> dict[int, list[str]]:
    """Every game's logged actions, in order: what has been committed."""
    logged: dict[int, list[str]] = {}
    for row in database.rows("SELECT game_id, action FROM actions ORDER BY game_id, seq"):
        logged.setdefault(row["game_id"], []).append(row["action"])
    return logged


def newest_game(database: TestDatabase, channel: Channel) -> dict[str, Any] | None:
    rows = database.rows(
        "SELECT * FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", channel.id
    )
    return rows[0] if rows else None


def mover(table: Table, game: dict[str, Any], chooser: random.Random) -> tuple[SimUser, str] | None:
    """Who is to act in ``game`` and a legal move of his (no draw offers, no undo)."""
    state = GAMES[game["kind"]].from_dict(json.loads(game["state"]))
    if state.is_over or state.current_player is None:
        return None
    user_id = json.loads(game["seats"])[state.current_player]["user_id"]
    player = next(p for p in table.players if p.id == user_id)
    legal = [action for action in state.legal_actions() if action not in ("undo", "offer")]
    return player, chooser.choice(legal)


async def until(check, what: str, timeout: float = 60.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


async def moves_committed(database: TestDatabase, *, at_least: int) -> int:
    """Once the games have committed ``at_least`` moves in all: how many they have."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 120
    while True:
        rows = await asyncio.to_thread(database.rows, "SELECT COUNT(*) AS moves FROM actions")
        if rows[0]["moves"] >= at_least:
            return int(rows[0]["moves"])
        assert loop.time() < deadline, f"the games did not reach {at_least} moves"
        await asyncio.sleep(0.2)


async def quiet(world, seconds: float = 1.5) -> None:
    """Until the bot has sent nothing for ``seconds``: a move's work goes on after its
    answer (the turn ping, the previous confirmation's deletion)."""
    loop = asyncio.get_running_loop()
    seen, since = len(world.requests), loop.time()
    while loop.time() - since < seconds:
        await asyncio.sleep(0.05)
        if len(world.requests) != seen:
            seen, since = len(world.requests), loop.time()


async def open_table(database: TestDatabase, table: Table) -> None:
    """The table's first player opens it, the others join; it then plays."""
    first, *others = table.players
    options: dict[str, Any] = {"gulbara": {"autoplay": False}, "barbu": {"series": 1}}.get(
        table.kind, {}
    )
    opened = await first.slash_nowait(table.channel, f"{table.kind} new", **options)
    await opened.wait_answered(timeout=60)
    await until(lambda: opened.original is not None and opened.original.buttons(), "the lobby")
    for player in others:
        joined = await player.click_nowait(opened.original, "Join")
        await joined.wait_answered(timeout=60)
    if table.kind == "barree":
        started = await first.click_nowait(opened.original, "Start")
        await started.wait_answered(timeout=60)
    await until(
        lambda: (newest_game(database, table.channel) or {}).get("status") == "active",
        f"the {table.kind} game in #{table.channel.name} to start",
    )


async def play(
    database: TestDatabase, table: Table, chooser: random.Random, stop: asyncio.Event
) -> None:
    """Typed moves by whoever is to act, one after another, until ``stop`` or the end."""
    while not stop.is_set():
        game = await asyncio.to_thread(newest_game, database, table.channel)
        choice = mover(table, game, chooser) if game and game["status"] == "active" else None
        if choice is None:
            return
        player, action = choice
        record = await player.slash_nowait(
            table.channel, f"{table.kind} move", notation=typed(action)
        )
        await record.wait_answered(timeout=60)
        await until(lambda r=record: r.original is not None and bool(r.original.content), "move")
        if record.original.content.startswith(CONFIRMATION):
            table.confirmed.append(action)


@contextlib.asynccontextmanager
async def bot_in_a_child(world, tmp_path: Path, database: TestDatabase) -> AsyncIterator[Path]:
    """The bot on ``database`` in a process of its own; its log file. SIGTERM at the end."""
    ca_pem = tmp_path / "ca.pem"
    fake_ca_of_this_process().cert_pem.write_to_path(str(ca_pem))
    log = tmp_path / "bot.log"
    world.gateway.wait_for_parse = False  # the bot is in another process
    zygote = await BotZygote.start(ca_pem)
    pid = 0
    try:
        identified = world.gateway.identify_count
        pid = await zygote.spawn(port=world.port, database=database.target, log=log)
        await until(lambda: world.gateway.identify_count > identified, "the bot's READY")
        await until(lambda: world.fake.commands.listing(None), "the bot's commands")
        yield log
        await quiet(world)
        os.kill(pid, signal.SIGTERM)
        await wait_dead(pid, timeout=30)
        pid = 0
    finally:
        if pid:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        await zygote.close()
        world.gateway.wait_for_parse = True


def seat_members(world, kinds: list[str]) -> list[Table]:
    """A channel per table; each table opened by a member of its own (nobody has two
    lobbies open at once), the others from a shared pool."""
    creators = [world.fake.add_user(f"host{n}", guild=world.guild) for n in range(len(kinds))]
    pool = [world.alice, world.bob, world.carol, world.dave]
    tables = []
    for number, (kind, creator) in enumerate(zip(kinds, creators, strict=True)):
        others = [pool[(number + k) % len(pool)] for k in range(PLAYERS[kind] - 1)]
        channel = world.guild.add_text_channel(f"{kind}-{number}")
        tables.append(Table(kind, channel, [creator, *others]))
    return tables


def replays(game: dict[str, Any], actions: list[str]) -> bool:
    state = replay(
        game["kind"],
        players=len(json.loads(game["seats"])),
        seed=game["seed"],
        options=json.loads(game["options"]),
        actions=actions,
    )
    return state.to_dict() == json.loads(game["state"])


@pytest.mark.parametrize("engine", ["sqlite", "postgresql"])
async def test_a_backup_during_20_games_restores_every_move_saved_before_it(
    fake_discord, tmp_path, request, engine
):
    world = fake_discord
    tables = seat_members(world, KINDS)
    chooser = random.Random(27)
    backup = tmp_path / ("backup.sqlite3" if engine == "sqlite" else "backup.dump")
    with (
        database_for(engine, tmp_path / "live", request) as live,
        database_for(engine, tmp_path / "restored", request) as fresh,
    ):
        async with bot_in_a_child(world, tmp_path, live) as bot_log:
            opening = asyncio.Semaphore(5)

            async def opened(table: Table) -> None:
                async with opening:
                    await open_table(live, table)

            await asyncio.gather(*(opened(table) for table in tables))
            stop = asyncio.Event()
            streams = [play(live, table, chooser, stop) for table in tables]
            playing = asyncio.gather(*streams)
            await moves_committed(live, at_least=MOVES_BEFORE_BACKUP)

            told_before = {id(table): len(table.confirmed) for table in tables}
            committed_before = await asyncio.to_thread(logs, live)
            backed_up, backup_seconds = await back_up(live, backup)
            moves_when_backed_up = await moves_committed(live, at_least=0)
            await moves_committed(live, at_least=moves_when_backed_up + MOVES_AFTER_BACKUP)
            stop.set()
            await playing
        committed_at_the_end = logs(live)

        restored_line, restore_seconds = await restore(backup, fresh)
        restored_games = {row["id"]: row for row in fresh.rows("SELECT * FROM games")}
        restored = logs(fresh)

        if engine == "sqlite":
            assert re.search(
                r": 20 games \(\d+ unfinished\), \d+ logged actions, schema", backed_up
            )
        moves_before = sum(len(log) for log in committed_before.values())
        moves_restored = sum(len(log) for log in restored.values())
        moves_at_the_end = sum(len(log) for log in committed_at_the_end.values())
        print(
            f"\n{engine}: {moves_before} moves committed when the backup began, {moves_restored}"
            f" in the backup, {moves_at_the_end} at the end; backup {backup_seconds:.2f} s"
            f" ({backup.stat().st_size / 1000:.0f} kB) [{backed_up}], restore"
            f" {restore_seconds:.2f} s [{restored_line}]"
        )
        assert moves_before >= MOVES_BEFORE_BACKUP, "the backup was taken while games were played"
        assert moves_at_the_end > moves_restored, "and they went on after it"
        assert len(restored_games) == len(tables)
        for game_id, committed in committed_before.items():
            assert restored.get(game_id, [])[: len(committed)] == committed, (
                f"game {game_id} lost a move"
            )
        for game_id, game in restored_games.items():
            actions = restored.get(game_id, [])
            assert committed_at_the_end.get(game_id, [])[: len(actions)] == actions, "one history"
            assert replays(game, actions), f"game {game_id} replays from its log"
        for table in tables:
            game = next(g for g in restored_games.values() if g["channel_id"] == table.channel.id)
            told = table.confirmed[: told_before[id(table)]]
            assert restored.get(game["id"], [])[: len(told)] == told, (
                "every confirmed move is there"
            )
        assert [line for line in bot_log.read_text().splitlines() if " ERROR " in line] == []

        # The bot on the restored database plays on every unfinished game.
        bot = create_bot(
            database_path=fresh.target,
            dev_guild_id=None,
            connector=world.connector(),
            guild_ready_timeout=0.01,
        )
        await world.start_bot(bot, timeout=60)
        played_on = 0
        try:
            for table in tables:
                game = newest_game(fresh, table.channel)
                choice = mover(table, game, chooser) if game["status"] == "active" else None
                if choice is None:
                    continue
                player, action = choice
                answer = await player.slash(
                    table.channel, f"{table.kind} move", notation=typed(action)
                )
                assert answer.message is not None
                assert answer.message.content.startswith(CONFIRMATION), answer.message.content
                played = newest_game(fresh, table.channel)
                assert played["version"] > game["version"]
                assert replays(played, logs(fresh).get(played["id"], []))
                played_on += 1
        finally:
            await world.stop_bot(bot)
        unfinished = sum(game["status"] == "active" for game in restored_games.values())
        assert played_on == unfinished > 0


async def test_a_restore_is_refused_while_the_bot_runs_on_the_database(
    fake_discord, start_bot, database_path, tmp_path
):
    await start_bot()
    await fake_discord.alice.slash(fake_discord.games, "bann new", opponent=fake_discord.bob)
    live = SqliteTestDatabase(database_path)
    backup = tmp_path / "backup.sqlite3"
    await run(sys.executable, "-m", "data.backup", str(backup), env=environment(live))
    games_before = live.rows("SELECT * FROM games")

    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "data.restore",
        str(backup),
        "--replace",
        cwd=ROOT,
        env=environment(live),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    _, err = await asyncio.wait_for(process.communicate(), timeout=60)

    assert process.returncode == 1
    lines = err.decode().strip().splitlines()
    assert lines == [
        f"error: a bot is running on {database_path}: stop it first, then restore."
        " Nothing was changed."
    ]
    assert live.rows("SELECT * FROM games") == games_before
    board = await fake_discord.bob.click(fake_discord.games.public_messages()[-1], "Join")
    assert board.message is not None and board.message.attachments, "the bot plays on"
