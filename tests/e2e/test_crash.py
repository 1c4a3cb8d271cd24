"""The bot killed with SIGKILL at random moments, over and over, during play of all four
games: after each restart the action log replays to the stored state, no confirmed move
is lost or duplicated, and every board shows the committed position and takes a click.

The bot runs in child processes forked from a warm zygote (tests/botprocess.py); the
fake Discord and the players run here. Moves are typed (`/<game> move`) by whoever is
to act, chosen at random among the legal ones, one after another as fast as the bot
answers; the kill comes at a random moment of that stream.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import sqlite3
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path

from botprocess import BotZygote, wait_dead
from stored import typed

from fakediscord import Channel, InteractionRecord, SimUser
from fakediscord import test_ca as fake_ca_of_this_process
from games import GAMES, replay

CYCLES = 52
KILL_WINDOW = (0.0, 0.35)
"""When in a stream of moves the bot is killed, in seconds, on an idle machine; a slower
machine widens it to twice the median confirmed move, so kills still come during play."""
MOVE_COMMANDS = {
    "bann": ("bann move", "notation"),
    "gulbara": ("gulbara move", "notation"),
    "barbu": ("barbu move", "notation"),
    "barree": ("barree move", "notation"),
}
CONFIRMATION = "✅ You "
"""How a typed move's confirmation begins: "✅ You played 4>5:N.", or a game's own words
for it ("✅ You rolled 4: choose a walk.")."""


@dataclass
class Table:
    kind: str
    channel: Channel
    players: list[SimUser]
    confirmed: dict[int, list[str]] = field(default_factory=dict)
    """Per game id, the moves the players were told were played, in order."""


def rows(database: Path, sql: str, *args: object) -> list[tuple]:
    with sqlite3.connect(database, timeout=10) as db:
        return list(db.execute(sql, args))


def newest_game(database: Path, channel: Channel) -> dict | None:
    with sqlite3.connect(database, timeout=10) as db:
        db.row_factory = sqlite3.Row
        row = db.execute(
            "SELECT * FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel.id,)
        ).fetchone()
    return dict(row) if row else None


async def until(check, timeout: float = 20.0, what: str = "") -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


async def answered(record: InteractionRecord, timeout: float = 20.0) -> None:
    await record.wait_answered(timeout)


async def open_table(world, table: Table) -> None:
    """Open a game of ``table.kind`` in its channel with its human players seated."""
    first, *others = table.players
    command = f"{table.kind} new"
    options = {"autoplay": False} if table.kind == "gulbara" else {}
    if table.kind == "barbu":
        options["series"] = 1
    record = await first.slash_nowait(table.channel, command, **options)
    await until(lambda: newest_lobby(world, table) is not None, what="the lobby")
    lobby = newest_lobby(world, table)
    for player in others:
        record = await player.click_nowait(lobby, "Join")
        await answered(record)
        await until(lambda r=record: r.response_type is not None, what="the join")
    if table.kind == "barree":
        record = await first.click_nowait(lobby, "Start")
        await answered(record)


def newest_lobby(world, table: Table):
    for message in reversed(table.channel.public_messages()):
        if any(button.label == "Join" for button in message.buttons()):
            return message
    return None


def board_of(table: Table, game: dict):
    for message in table.channel.public_messages():
        if message.id == game["board_message_id"]:
            return message
    return None


def shows(board, game: dict) -> bool:
    ids = [button.custom_id for button in board.buttons()]
    ids += [select.custom_id for select in board.selects()]
    marker = f":{game['id']}:{game['version']}:"
    return bool(ids) and all(marker in custom_id for custom_id in ids)


def check_log(database: Path, table: Table, game: dict) -> None:
    """The log replays to the stored state; confirmed moves are in it, once, in order."""
    logged = rows(
        database, "SELECT seq, action FROM actions WHERE game_id = ? ORDER BY seq", game["id"]
    )
    assert [seq for seq, _ in logged] == list(range(1, len(logged) + 1)), "no gap, no double"
    actions = [action for _, action in logged]
    options = json.loads(game["options"])
    players = len(json.loads(game["seats"]))
    state = replay(
        game["kind"], players=players, seed=game["seed"], options=options, actions=actions
    )
    assert state.to_dict() == json.loads(game["state"]), "the log replays to the stored state"
    remaining = iter(actions)
    for move in table.confirmed.get(game["id"], []):
        assert any(action == move for action in remaining), f"confirmed {move} is not logged"


def mover(table: Table, game: dict) -> tuple[SimUser, str] | None:
    state = GAMES[game["kind"]].from_dict(json.loads(game["state"]))
    if state.is_over or state.current_player is None:
        return None
    seats = json.loads(game["seats"])
    user_id = seats[state.current_player]["user_id"]
    player = next(p for p in table.players if p.id == user_id)
    # No draw offers: the board then shows only Accept and Decline, not the Resign
    # button the check after each restart clicks.
    legal = [action for action in state.legal_actions() if action not in ("undo", "offer")]
    return player, random.choice(legal)


def kill_window(answer_times: list[float]) -> tuple[float, float]:
    low, high = KILL_WINDOW
    if not answer_times:
        return low, high
    return low, max(high, 2 * statistics.median(answer_times))


async def play_stream(world, database: Path, table: Table, answer_times: list[float]) -> None:
    """Typed moves one after another until cancelled; confirmed ones are recorded with the
    time each took to be answered."""
    while True:
        game = newest_game(database, table.channel)
        if game is None or game["status"] != "active":
            return
        choice = mover(table, game)
        if choice is None:
            return
        player, action = choice
        command, option = MOVE_COMMANDS[table.kind]
        sent = time.monotonic()
        record = await player.slash_nowait(table.channel, command, **{option: typed(action)})
        await until(
            lambda r=record: r.original is not None and bool(r.original.content), what="move"
        )
        if record.original.content.startswith(CONFIRMATION):
            table.confirmed.setdefault(game["id"], []).append(action)
            answer_times.append(time.monotonic() - sent)


async def check_after_restart(world, database: Path, tables: list[Table], clicked: Table) -> None:
    for table in tables:
        game = newest_game(database, table.channel)
        assert game is not None
        await until(
            lambda t=table: (
                (g := newest_game(database, t.channel))["board_version"] == g["version"]
                and (b := board_of(t, g)) is not None
                and (g["status"] != "active" or shows(b, g))
            ),
            what=f"the {table.kind} board to show the committed position",
        )
        game = newest_game(database, table.channel)
        if game["status"] != "lobby":
            check_log(database, table, game)
    game = newest_game(database, clicked.channel)
    if game["status"] == "active":
        player = mover(clicked, game)
        assert player is not None
        record = await player[0].click_nowait(board_of(clicked, game), "Resign")
        await until(lambda: record.original is not None, what="the resign question")
        assert "really want to resign" in record.original.content, record.original.content


async def restart(world, zygote: BotZygote, database: Path, log: Path, cycle: int) -> int:
    identified = world.gateway.identify_count
    pid = await zygote.spawn(port=world.port, database=database, log=log, seed_start=cycle)
    await until(lambda: world.gateway.identify_count > identified, what="READY")
    return pid


async def test_sigkill_at_random_moments_loses_and_doubles_no_confirmed_move(
    fake_discord, tmp_path
):
    world = fake_discord
    # The bot is in another process: waiting for heartbeats to confirm each dispatch
    # would spend discord.py's gateway send budget.
    world.gateway.wait_for_parse = False
    random.seed(9)
    ca_pem = tmp_path / "ca.pem"
    fake_ca_of_this_process().cert_pem.write_to_path(str(ca_pem))
    database, log = tmp_path / "bot.sqlite3", tmp_path / "bot.log"
    channels = [world.games] + [world.guild.add_text_channel(f"t{n}") for n in range(3)]
    everyone = [world.alice, world.bob, world.carol, world.dave]
    tables = [
        Table("bann", channels[0], everyone[:2]),
        Table("gulbara", channels[1], everyone[2:]),
        Table("barbu", channels[2], everyone),
        Table("barree", channels[3], everyone[1:3]),
    ]
    zygote = await BotZygote.start(ca_pem)
    answer_times: list[float] = []
    pid = 0
    try:
        pid = await restart(world, zygote, database, log, 0)
        for table in tables:
            await open_table(world, table)
        for cycle in range(CYCLES):
            table = tables[cycle % len(tables)]
            game = newest_game(database, table.channel)
            if game["status"] != "active":
                await open_table(world, table)
            stream = asyncio.create_task(play_stream(world, database, table, answer_times))
            await asyncio.sleep(random.uniform(*kill_window(answer_times)))
            os.kill(pid, signal.SIGKILL)
            await wait_dead(pid)
            stream.cancel()
            await asyncio.gather(stream, return_exceptions=True)

            pid = await restart(world, zygote, database, log, cycle)
            await check_after_restart(world, database, tables, table)
        os.kill(pid, signal.SIGTERM)
        await wait_dead(pid)
    finally:
        if pid:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)  # a failed run leaves no bot behind
        await zygote.close()

    confirmed = sum(len(moves) for table in tables for moves in table.confirmed.values())
    assert confirmed > CYCLES, "the kills came during play, not before it"
    errors = [line for line in log.read_text().splitlines() if " ERROR " in line]
    assert errors == []
