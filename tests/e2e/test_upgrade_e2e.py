"""Boards posted by the last release keep working once the bot runs today's code.

The release before the redesign of the table machinery runs from its own tree (``git
archive`` of ``RELEASE``) in a child process against this test's fake Discord: it opens a
Bann game against the computer, a Bann lobby and a Barbu table, and stops. Today's bot
starts on the same database, and members click the buttons of those old messages: the
custom_ids, the stored rows and the games must all still be understood.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import signal
import subprocess
import sys
import tarfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from botprocess import BotZygote, wait_dead

from cogs.scheduler import ManualTime
from fakediscord import Channel, Message
from fakediscord import test_ca as fake_ca_of_this_process
from games import GAMES

ROOT = Path(__file__).resolve().parents[2]
RELEASE = "8430ea195a72d3115bbb0305f29d656ee461aa82"
"""The last commit before the table machinery was split into layers (2026-11-30)."""


@pytest.fixture
def clock() -> ManualTime:
    """Today's bot reads the time the release wrote its deadlines by (the wall clock), so
    no turn clock has run out when it starts."""
    return ManualTime(time.time())


def release_tree(into: Path) -> Path:
    """The release's files, as its commit holds them (the repository's history is part
    of every checkout this test runs in)."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", RELEASE],
        capture_output=True,
        check=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def synced_commands(root: Path) -> object:
    """The slash commands the bot in ``root`` syncs to Discord, in English and localised."""
    script = ROOT / "tests" / "command_tree.py"
    printed = subprocess.run(
        [sys.executable, str(script), str(root)], capture_output=True, check=True, text=True
    ).stdout
    return json.loads(printed)


async def until(check: Callable[[], object], what: str, timeout: float = 30.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


async def quiet(world, seconds: float = 1.5, timeout: float = 30.0) -> None:
    """Until the bot in the other process has sent nothing for ``seconds``: done with
    what it was doing (boards, private hands, pings)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    seen, since = len(world.requests), loop.time()
    while loop.time() - since < seconds:
        if loop.time() > deadline:
            raise AssertionError("the release kept talking to Discord")
        await asyncio.sleep(0.05)
        if len(world.requests) != seen:
            seen, since = len(world.requests), loop.time()


def newest_with_button(channel: Channel, label: str) -> Message | None:
    for message in reversed(channel.public_messages()):
        if any(button.label == label for button in message.buttons()):
            return message
    return None


def games_in(database_path: Path) -> dict[int, dict]:
    import sqlite3

    with sqlite3.connect(database_path) as db:
        db.row_factory = sqlite3.Row
        return {row["id"]: dict(row) for row in db.execute("SELECT * FROM games")}


async def run_release(world, tmp_path: Path, database_path: Path) -> dict[str, Message]:
    """The release opens the three tables; the messages it posted, by what they are."""
    ca_pem = tmp_path / "ca.pem"
    fake_ca_of_this_process().cert_pem.write_to_path(str(ca_pem))
    tree = release_tree(tmp_path / "release")
    world.gateway.wait_for_parse = False  # the release runs in another process
    zygote = await BotZygote.start(ca_pem, root=tree)
    pid = 0
    try:
        identified = world.gateway.identify_count
        pid = await zygote.spawn(port=world.port, database=database_path, log=tmp_path / "old.log")
        await until(lambda: world.gateway.identify_count > identified, "the release's READY")
        await until(lambda: world.fake.commands.listing(None), "the release's commands")
        lobby_channel = world.guild.add_text_channel("lobby")
        barbu_channel = world.guild.add_text_channel("barbu")
        opened = [
            await world.alice.slash_nowait(world.games, "bann new", computer="normal"),
            await world.carol.slash_nowait(lobby_channel, "bann new"),
            await world.dave.slash_nowait(barbu_channel, "barbu new", computers=3, series=1),
        ]
        for record in opened:
            await record.wait_answered(timeout=30)
        await until(lambda: newest_with_button(world.games, "Resign"), "the Bann board")
        await until(lambda: newest_with_button(lobby_channel, "Join"), "the lobby")
        await until(lambda: newest_with_button(barbu_channel, "My hand"), "the Barbu board")
        await quiet(world)
        os.kill(pid, signal.SIGTERM)
        await wait_dead(pid, timeout=20)
        pid = 0
    finally:
        if pid:
            os.kill(pid, signal.SIGKILL)
        await zygote.close()
    errors = [line for line in (tmp_path / "old.log").read_text().splitlines() if " ERROR " in line]
    assert errors == []
    world.gateway.wait_for_parse = True
    boards = {}
    for name, channel, label in [
        ("bann", world.games, "Resign"),
        ("lobby", lobby_channel, "Join"),
        ("barbu", barbu_channel, "My hand"),
    ]:
        message = newest_with_button(channel, label)
        assert message is not None, name
        boards[name] = message
    return boards


async def board_caught_up(board: Message, game_id: int, database_path: Path) -> None:
    """The old board's buttons carry the game's stored version. Its last edit may still be
    on its way when the move's answer is seen (under load, the computer's reply is
    edited in after the member's move), so this waits for it, up to 15 s."""
    deadline = time.monotonic() + 15
    while True:
        version = games_in(database_path)[game_id]["version"]
        if all(f":{game_id}:{version}:" in button.custom_id for button in board.buttons()):
            return
        assert time.monotonic() < deadline, f"the old board never showed version {version}"
        await asyncio.sleep(0.05)


async def test_the_old_releases_boards_work_after_the_upgrade(
    fake_discord, start_bot, database_path, tmp_path
):
    world = fake_discord
    old = await run_release(world, tmp_path, database_path)
    before = games_in(database_path)
    assert sorted(row["kind"] for row in before.values()) == ["bann", "bann", "barbu"]

    await start_bot()

    # The Bann board: a tip opens today's move menu, the move is played on the old board.
    bann_id = next(
        i for i, row in before.items() if row["status"] == "active" and row["kind"] == "bann"
    )
    tip = next(
        button
        for button in old["bann"].buttons()
        if button.label.startswith("Tip to") and not button.disabled
    )
    opened = await world.alice.click(old["bann"], tip.label)
    assert len(opened.ephemeral) == 1, opened.ephemeral
    menu = opened.ephemeral[0]
    move = menu.selects()[0].options[0].value
    await world.alice.select(menu, [move])
    after = games_in(database_path)[bann_id]
    assert after["version"] > before[bann_id]["version"]
    logged = json.loads(after["state"])
    state = GAMES["bann"].from_dict(logged)
    assert state.current_player in (0, None), "the computer answered the member's move"
    await board_caught_up(old["bann"], bann_id, database_path)

    # The lobby: a member joins it, and the game starts on the lobby's own message.
    joined = await world.bob.click(old["lobby"], "Join")
    lobby_id = next(i for i, row in before.items() if row["status"] == "lobby")
    assert games_in(database_path)[lobby_id]["status"] == "active"
    assert (
        joined.message is not None
        and joined.message.embeds[0]["title"] == f"Bann: game #{lobby_id}"
    )

    # The Barbu board: "My hand" shows the member's hand privately.
    barbu_id = next(i for i, row in before.items() if row["kind"] == "barbu")
    hand = await world.dave.click(old["barbu"], "My hand")
    assert len(hand.ephemeral) == 1 and hand.ephemeral[0].attachments
    assert games_in(database_path)[barbu_id]["version"] == before[barbu_id]["version"]


ADDED_SINCE_RELEASE = ("privacy", "tournament")
"""Top-level commands the release did not have."""
SUBCOMMANDS_ADDED_SINCE_RELEASE = {
    "bann": ("learn", "puzzle"),
    "gulbara": ("learn", "puzzle"),
    "barbu": ("learn", "puzzle"),
    "barree": ("learn", "puzzle"),
}
"""Subcommands of each game's group the release did not have (the lessons, the puzzles)."""
SHARED_SUBCOMMANDS_ADDED_SINCE_RELEASE = {"game": ("watch", "review")}
"""Subcommands of the shared groups the release did not have (following a table, reviews)."""
OPTIONS_ADDED_SINCE_RELEASE = {"barbu": ("french",), "gulbara": ("head_rule",)}
"""Table options of `/<game> new` the release did not have (variants of the rules)."""
COMMAND_OPTIONS_ADDED_SINCE_RELEASE = {"settings": ("tournament_role",)}
"""Options of top-level commands the release did not have (who may organise tournaments)."""


def without_added_options(payload: dict[str, Any]) -> list[str]:
    """Take the options added since the release out of ``payload``'s `new` command; the
    ones it held."""
    added = OPTIONS_ADDED_SINCE_RELEASE.get(payload["name"], ())
    new = next(option for option in payload.get("options", []) if option["name"] == "new")
    held = [option["name"] for option in new["options"] if option["name"] in added]
    new["options"] = [option for option in new["options"] if option["name"] not in added]
    return held


REWORDED_SINCE_RELEASE = {
    "The game whose default clock `clock` sets": (
        "The game whose default time per decision to change"
    ),
    "Default time per decision for `game` (Manage Server)": (
        "That game's new default time per decision (Manage Server)"
    ),
    "Das Spiel, dessen Standarduhr `clock` festlegt": (
        "Das Spiel, dessen Standardbedenkzeit je Entscheidung du änderst"
    ),
    "Standardbedenkzeit je Entscheidung für `game` (Server verwalten)": (
        "Die neue Standardbedenkzeit dieses Spiels je Entscheidung (Server verwalten)"
    ),
}
"""Descriptions reworded since the release (Discord shows no markdown in them, so the
backticks of `/settings`' hints showed as typed), each as it was and as it is."""


def reworded(payload: object) -> object:
    """The release's payload with the descriptions reworded since then as they are now."""
    if isinstance(payload, dict):
        return {key: reworded(value) for key, value in payload.items()}
    if isinstance(payload, list):
        return [reworded(item) for item in payload]
    return REWORDED_SINCE_RELEASE.get(payload, payload) if isinstance(payload, str) else payload


EXAMPLES_CHANGED_SINCE_RELEASE = {"4>3:N": "4>5:N"}
"""Examples in descriptions changed on purpose since the release: `/bann move`'s was no
legal first move."""


def test_the_commands_synced_to_discord_are_the_old_releases(tmp_path):
    """Every command, option, choice and description, in every language and in the same
    order, as the last release synced them: members see the same commands, and the ones
    added since."""
    release = release_tree(tmp_path / "release")
    today = synced_commands(ROOT)
    for payloads in today.values():
        assert [p["name"] for p in payloads if p["name"] in ADDED_SINCE_RELEASE] == list(
            ADDED_SINCE_RELEASE
        )
        payloads[:] = [p for p in payloads if p["name"] not in ADDED_SINCE_RELEASE]
        for payload in payloads:
            if payload["name"] in GAMES:
                subcommands = payload["options"]
                names = [subcommand["name"] for subcommand in subcommands]
                new_here = SUBCOMMANDS_ADDED_SINCE_RELEASE[payload["name"]]
                added = [name for name in names if name in new_here]
                assert added == list(new_here)
                subcommands[:] = [s for s in subcommands if s["name"] not in added]
            if payload["name"] in SHARED_SUBCOMMANDS_ADDED_SINCE_RELEASE:
                added_here = SHARED_SUBCOMMANDS_ADDED_SINCE_RELEASE[payload["name"]]
                subcommands = payload["options"]
                assert [s["name"] for s in subcommands if s["name"] in added_here] == list(
                    added_here
                )
                subcommands[:] = [s for s in subcommands if s["name"] not in added_here]
            if payload["name"] in OPTIONS_ADDED_SINCE_RELEASE:
                held = without_added_options(payload)
                assert held == list(OPTIONS_ADDED_SINCE_RELEASE[payload["name"]])
            if payload["name"] in COMMAND_OPTIONS_ADDED_SINCE_RELEASE:
                added_options = COMMAND_OPTIONS_ADDED_SINCE_RELEASE[payload["name"]]
                options = payload["options"]
                assert [o["name"] for o in options if o["name"] in added_options] == list(
                    added_options
                )
                options[:] = [o for o in options if o["name"] not in added_options]
    released = json.dumps(synced_commands(release), ensure_ascii=False)
    for before, after in EXAMPLES_CHANGED_SINCE_RELEASE.items():
        released = released.replace(before, after)
    assert today == reworded(json.loads(released))
