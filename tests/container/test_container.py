"""The image as an operator uses it, in real containers: built from this checkout, the bot
with and without a token, on SQLite in its volume and on the local PostgreSQL, stopped by
SIGTERM, and the playground played from outside the container.

The commands are the README's container section, run as written there (tests/containers.py
says what this machine and a test add to them). A bot in a container reaches the fake
Discord, served here on 127.0.0.1:443, through its /etc/hosts.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import shlex
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import aiohttp
import pytest
from containers import (
    BUILD,
    FAKE_CA_IN_CONTAINER,
    FIGURES,
    IMAGE,
    ROOT,
    as_run_here,
    docker,
    free_port,
    pointed_at_fake_discord,
    remove_container,
    replaced,
    uids_of,
    unique,
)
from playground_stream import EventStream
from testdb import PostgresTestDatabase

from data.schema import MIGRATIONS
from fakediscord import Channel, FakeDiscord, Message, SimUser
from fakediscord.tls import server_ssl_context
from fakediscord.tls import test_ca as ca_of_this_process
from games import GAMES
from games.proof import GameFacts, computer_seed, write_record

T = TypeVar("T")

# The README's container section, word for word.
WITHOUT_TOKEN = "docker run --rm tablebot"
ON_SQLITE = (
    "docker run -d --name tablebot -v tablebot-data:/data -e DISCORD_TOKEN=your-bot-token tablebot"
)
ON_POSTGRESQL = (
    "docker run -d --name tablebot --network host -e DISCORD_TOKEN=your-bot-token"
    " -e DATABASE_URL=postgresql://tablebot:secret@127.0.0.1:5432/tablebot -e SHARD_COUNT=1"
    " tablebot"
)
STOP = "docker stop tablebot"
PLAYGROUND = "docker run --rm -p 127.0.0.1:8765:8765 tablebot --playground --host 0.0.0.0"
COMPOSE_SETUP = "cp .env.example .env"
COMPOSE_CHECK = "docker-compose config -q"
README_COMMANDS = (BUILD, WITHOUT_TOKEN, ON_SQLITE, ON_POSTGRESQL, STOP, PLAYGROUND)

UID = 10001
STOPPED_WITHIN = 5.0
MAX_BANN_MOVES = 80
SOCKET_TABLE = Path("/proc/net/tcp")


def timed(step: str, started: float) -> None:
    FIGURES.append(f"{step}: {time.monotonic() - started:.1f} s")


async def until(check: Callable[[], T], what: str, timeout: float = 60.0) -> T:
    """The first true answer of ``check`` (a message, a non-empty list), polled."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not (found := check()):
        if loop.time() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        await asyncio.sleep(0.05)
    return found


# ---- the README ------------------------------------------------------------------------


def test_the_readme_shows_the_commands_these_tests_run() -> None:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("\n## Running it in a container\n", 1)[1].split("\n## ", 1)[0]
    lines = {line.strip() for line in section.splitlines()}
    missing = [command for command in README_COMMANDS if command not in lines]
    assert missing == [], "the README's container section runs what the tests run"
    assert COMPOSE_SETUP in section and COMPOSE_CHECK in section


# ---- the image -------------------------------------------------------------------------


def test_the_image_holds_the_bot_and_its_playground_but_no_tests_or_benchmarks(
    image: str,
) -> None:
    survey = (
        "import importlib.metadata, importlib.util, json, os, site;"
        "packages = site.getsitepackages()[0];"
        "print(json.dumps({"
        "'found': {m: importlib.util.find_spec(m) is not None"
        " for m in ('bot', 'migrate', 'fakediscord', 'playground', 'tests', 'bench')},"
        "'static': sorted(os.listdir(os.path.join(packages, 'playground', 'static'))),"
        "'installed': sorted({str(f).split('/')[0] for f in importlib.metadata.files('tablebot')}),"
        "'user': os.getuid(), 'cwd': os.getcwd(), 'data': os.listdir('/data')}))"
    )
    found = subprocess.run(
        ["docker", "run", "--rm", "-i", "--network", "host", "--entrypoint", "python", image],
        input=survey,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert found.returncode == 0, found.stderr
    seen = json.loads(found.stdout)
    assert seen["found"] == {
        "bot": True,
        "migrate": True,
        "fakediscord": True,
        "playground": True,
        "tests": False,
        "bench": False,
    }
    assert "index.html" in seen["static"], "the playground's page ships with it"
    assert {"tests", "bench"}.isdisjoint(seen["installed"]), "no tests or benchmarks installed"
    assert (seen["user"], seen["cwd"], seen["data"]) == (UID, "/data", [])
    base = subprocess.run(
        ["docker", "image", "inspect", "--format", "{{.Size}}", "python:3.11-slim"],
        capture_output=True,
        text=True,
        check=True,
    )
    FIGURES.append(f"base image python:3.11-slim here: {int(base.stdout) / 1e6:.0f} MB")


def test_without_a_token_it_says_what_to_do_in_one_line_and_exits_2(image: str) -> None:
    started = time.monotonic()
    run = subprocess.run(as_run_here(WITHOUT_TOKEN), capture_output=True, text=True, timeout=60)
    timed("run without a token", started)
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr.splitlines() == [
        "error: DISCORD_TOKEN is not set: copy .env.example to .env and paste your bot's token "
        "(Discord Developer Portal → your application → Bot → Reset Token)."
    ]


# ---- the bot against the fake Discord ----------------------------------------------------


@dataclass
class FakeDiscordForContainers:
    fake: FakeDiscord
    games: Channel
    alice: SimUser
    ca_file: Path


@pytest.fixture
async def fake_discord_on_443(tmp_path: Path) -> AsyncIterator[FakeDiscordForContainers]:
    """The fake Discord on 127.0.0.1:443, where a bot whose /etc/hosts names 127.0.0.1 for
    discord.com looks for it, and its CA certificate as a file a container can read."""
    server_ssl_context()
    ca_file = tmp_path / "fake-discord-ca.pem"
    ca_of_this_process().cert_pem.write_to_path(str(ca_file))
    ca_file.chmod(0o644)
    fake = FakeDiscord(port=443)
    try:
        await fake.start()
    except OSError as problem:
        pytest.fail(f"the fake Discord needs 127.0.0.1:443 for a bot in a container: {problem}")
    try:
        guild = fake.add_guild("Test Server")
        games = guild.add_text_channel("games")
        alice = fake.add_user("alice", guild=guild)
        yield FakeDiscordForContainers(fake, games, alice, ca_file)
    finally:
        await fake.close()
    assert fake.internal_errors == [], "\n".join(fake.internal_errors)


@contextlib.asynccontextmanager
async def bot_container(
    command: str, world: FakeDiscordForContainers, step: str, **placeholders: str
) -> AsyncIterator[str]:
    """The container of a README command, pointed at the fake Discord and ready; its name.
    The container is removed afterwards (the test stops it first, as an operator would)."""
    name = unique(IMAGE)
    health_port = free_port()
    words = pointed_at_fake_discord(as_run_here(command, name=name), world.ca_file, health_port)
    for old, new in placeholders.items():
        words = replaced(words, old, new)
    started = time.monotonic()
    await docker(*words[1:])
    try:
        # /healthz says 200 once discord.py has called the bot ready (its commands are
        # synced before that). A table opened earlier races the start-up repair of boards,
        # which may take it for one left behind and post its board a second time.
        await healthy(health_port)
        timed(f"{step}: start to healthy", started)
        yield name
    except AssertionError as problem:
        logs = await docker("logs", name, check=False)
        raise AssertionError(f"{problem}\nthe bot's log:\n{logs.stdout}{logs.stderr}") from None
    finally:
        await remove_container(name)


async def healthy(port: int) -> None:
    """Until the bot's /healthz on ``port`` answers 200."""

    async def answer() -> int | None:
        try:
            async with http.get(f"http://127.0.0.1:{port}/healthz") as response:
                return response.status
        except aiohttp.ClientConnectionError:
            return None

    async with aiohttp.ClientSession() as http:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 60
        while (status := await answer()) != 200:
            if loop.time() > deadline:
                raise AssertionError(f"/healthz answered {status} for 60 s")
            await asyncio.sleep(0.1)


async def stop(name: str, step: str) -> float:
    """The README's stop command (SIGTERM) on container ``name``: its seconds."""
    started = time.monotonic()
    await docker(*replaced(shlex.split(STOP), IMAGE, name)[1:], timeout=60)
    seconds = time.monotonic() - started
    FIGURES.append(f"{step}: SIGTERM to exit (docker stop): {seconds:.1f} s")
    return seconds


async def exit_code(name: str) -> int:
    state = await docker("inspect", "--format", "{{.State.ExitCode}}", name)
    return int(state.stdout)


async def processes_of(name: str) -> list[int]:
    listing = await docker("top", name, "-eo", "pid")
    return [int(pid) for pid in listing.stdout.split()[1:]]


async def changes_outside_the_volume(name: str) -> list[str]:
    """What the container changed in its own file system (its volume is not part of it),
    less /tmp and the mount point of the fake's certificate, which Docker made."""
    diff = await docker("diff", name)
    paths = [line.split(" ", 1)[1] for line in diff.stdout.splitlines()]
    made_by_docker = {str(folder) for folder in Path(FAKE_CA_IN_CONTAINER).parents} - {"/"}
    made_by_docker.add(FAKE_CA_IN_CONTAINER)
    return [
        path
        for path in paths
        if path not in made_by_docker and path != "/tmp" and not path.startswith("/tmp/")
    ]


def enabled_tips(board: Message) -> list[str]:
    return [
        button.custom_id
        for button in board.buttons()
        if button.custom_id and not button.disabled and (button.label or "").startswith("Tip to")
    ]


def newest_board(channel: Channel) -> Message | None:
    boards = [m for m in channel.public_messages() if any(e.get("image") for e in m.embeds)]
    return boards[-1] if boards else None


async def open_bann_and_play_a_move(world: FakeDiscordForContainers) -> str:
    """Alice opens Bann against the computer and plays a move by its buttons; returns the
    move, once the computer has answered it."""
    opened = await world.alice.slash_nowait(world.games, "bann new", computer="easy")
    await opened.wait_answered(30)
    board = await until(lambda: newest_board(world.games), "the board")
    tips = await until(lambda: enabled_tips(board), "alice's turn")
    tipped = await world.alice.click_nowait(board, custom_id=tips[0])
    await tipped.wait_answered(30)
    menu = await until(
        lambda: next((m for m in reversed(world.fake.message_log) if m.selects()), None),
        "the private move menu",
    )
    move = menu.selects()[0].options[0].value
    picked = await world.alice.select_nowait(menu, [move])
    await picked.wait_answered(30)
    await until(lambda: enabled_tips(board) not in ([], tips), "the computer's answer")
    return move


async def test_on_sqlite_the_bot_keeps_its_game_in_the_volume_as_a_non_root_user(
    image: str, fake_discord_on_443: FakeDiscordForContainers
) -> None:
    world = fake_discord_on_443
    volume = unique("tablebot-data")
    try:
        async with bot_container(
            ON_SQLITE, world, "bot on SQLite", **{"tablebot-data:": f"{volume}:"}
        ) as name:
            started = time.monotonic()
            move = await open_bann_and_play_a_move(world)
            timed("bot on SQLite: a Bann game opened and a move answered", started)
            pids = await processes_of(name)
            assert pids and all(uids_of(pid) == {UID} for pid in pids), "uid 10001, every one"
            assert await stop(name, "bot on SQLite") < STOPPED_WITHIN
            assert await exit_code(name) == 0, "it stopped by itself, not by SIGKILL"
            assert await changes_outside_the_volume(name) == [], "it writes only /data"
            mountpoint = await docker("volume", "inspect", "--format", "{{.Mountpoint}}", volume)
            stored = Path(mountpoint.stdout.strip()) / "tablebot.sqlite3"
            with contextlib.closing(sqlite3.connect(stored)) as db:
                games = db.execute("SELECT kind, status FROM games").fetchall()
                actions = [row[0] for row in db.execute("SELECT action FROM actions")]
            assert games == [("bann", "active")]
            assert move in actions and len(actions) >= 2, "alice's move and the computer's"
    finally:
        await docker("volume", "rm", "--force", volume, check=False)


async def test_on_postgresql_it_migrates_stores_a_game_and_gives_back_its_lease_on_sigterm(
    image: str, fake_discord_on_443: FakeDiscordForContainers, postgres_server: str
) -> None:
    world = fake_discord_on_443
    database = PostgresTestDatabase(postgres_server)
    database.create()
    try:
        url = "postgresql://tablebot:secret@127.0.0.1:5432/tablebot"
        async with bot_container(
            ON_POSTGRESQL, world, "bot on PostgreSQL", **{url: database.target}
        ) as name:
            assert database.rows("SELECT version FROM schema_version") == [
                {"version": len(MIGRATIONS)}
            ], "every migration ran"
            leases = database.rows("SELECT shard_id, shard_count, holder FROM shard_leases")
            assert [(row["shard_id"], row["shard_count"]) for row in leases] == [(0, 1)]
            assert leases[0]["holder"].split(":")[1] == "1", "held by the container's PID 1"
            started = time.monotonic()
            move = await open_bann_and_play_a_move(world)
            timed("bot on PostgreSQL: a Bann game opened and a move answered", started)
            games = database.rows("SELECT id, kind, status FROM games")
            assert [(row["kind"], row["status"]) for row in games] == [("bann", "active")]
            actions = database.rows("SELECT action FROM actions WHERE game_id = ?", games[0]["id"])
            assert move in [row["action"] for row in actions] and len(actions) >= 2
            assert all(uids_of(pid) == {UID} for pid in await processes_of(name))
            assert await stop(name, "bot on PostgreSQL") < STOPPED_WITHIN
            assert await exit_code(name) == 0
            assert database.rows("SELECT * FROM shard_leases") == [], "the lease is given back"
            assert await changes_outside_the_volume(name) == []
    finally:
        database.drop()


# ---- the playground ------------------------------------------------------------------------


def listening_addresses(port: int) -> set[str]:
    return {
        fields[1].split(":")[0]
        for fields in (line.split() for line in SOCKET_TABLE.read_text().splitlines()[1:])
        if fields[3] == "0A" and int(fields[1].split(":")[1], 16) == port
    }


@dataclass
class Page:
    http: aiohttp.ClientSession
    stream: EventStream

    async def act(self, action: str, **fields: Any) -> None:
        """Do what the page's buttons do, as alice, and wait until the page has seen all
        that it changed."""
        async with self.http.post(f"/api/{action}", json={"viewer": "alice", **fields}) as sent:
            answer = await sent.json()
            assert sent.status == 200, answer
        await self.stream.first("activity", lambda seen: seen["done"] >= answer["done"], 60)

    def newest(self, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any] | None:
        found = [message for message in self.stream.messages().values() if wanted(message)]
        return found[-1] if found else None


def components(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [component for row in message["components"] for component in row["components"]]


def is_board(message: dict[str, Any]) -> bool:
    return not message["ephemeral"] and any(embed.get("image") for embed in message["embeds"])


def preferred_move(options: list[dict[str, Any]]) -> str:
    """A quick player: win if possible, else capture, else the first move offered."""
    for wanted in ("wins the game", "captures"):
        for option in options:
            if wanted in f"{option.get('label', '')} {option.get('description') or ''}":
                return str(option["value"])
    return str(options[0]["value"])


async def play_bann_to_its_end(page: Page) -> tuple[dict[str, Any], int]:
    """A whole Bann game against the computer, by the page's buttons and menus."""
    await page.act("slash", channel="games", command="bann new", options={"computer": "easy"})
    for moves in range(MAX_BANN_MOVES):
        board = page.newest(is_board)
        assert board is not None, "the table's board"
        buttons = [c for c in components(board) if c["type"] == 2 and not c.get("disabled")]
        accept = [b for b in buttons if b.get("label") == "Accept draw"]
        if accept:
            await page.act("click", message=board["id"], custom_id=accept[0]["custom_id"])
            continue
        tips = [b for b in buttons if b.get("label", "").startswith("Tip to")]
        if not tips:
            return board, moves
        await page.act("click", message=board["id"], custom_id=tips[0]["custom_id"])
        menu = page.newest(lambda m: m["ephemeral"] and any(c["type"] == 3 for c in components(m)))
        assert menu is not None, "the private move menu"
        select = next(c for c in components(menu) if c["type"] == 3)
        move = preferred_move(select["options"])
        await page.act("select", message=menu["id"], custom_id=select["custom_id"], values=[move])
    raise AssertionError(f"Bann did not end within {MAX_BANN_MOVES} moves")


async def test_the_playground_in_a_container_plays_a_whole_bann_game_from_outside(
    image: str,
) -> None:
    name = unique(IMAGE)
    started = time.monotonic()
    process = await asyncio.create_subprocess_exec(
        *as_run_here(PLAYGROUND, name=name),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert process.stdout is not None
    try:
        first_line = (await asyncio.wait_for(process.stdout.readline(), 120)).decode()
        address = re.search(r"http://127\.0\.0\.1:(\d+)", first_line)
        assert address, f"the playground printed no address: {first_line!r}"
        timed("playground: start to page", started)
        port = int(address.group(1))
        assert listening_addresses(port) == {"00000000"}, "--host 0.0.0.0 is honoured"
        started = time.monotonic()
        async with aiohttp.ClientSession(address.group(0)) as http:
            async with http.get("/") as index:
                assert index.status == 200 and "TableBot playground" in await index.text()
            stream = EventStream(await http.get("/api/events?viewer=alice"))
            stream.start()
            try:
                await stream.first("snapshot", timeout=30)
                board, moves = await play_bann_to_its_end(Page(http, stream))
            finally:
                await stream.close()
        timed(f"playground: a whole Bann game ({moves} moves by alice)", started)
        told = json.dumps(board["embeds"])
        assert "wins" in told or "Drawn" in told, "the board names the winner, or the draw"
        process.send_signal(signal.SIGINT)
        _, errors = await asyncio.wait_for(process.communicate(), 60)
        assert process.returncode == 0, "Ctrl+C on docker run stops the playground"
        assert b"Traceback" not in errors
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
        await remove_container(name)


# ---- reviews on another Python ---------------------------------------------------------

REVIEWED = {"bann": (2, 14), "gulbara": (2, 30), "barbu": (4, 70), "barree": (3, 40)}
"""Each kind's table size and how many computer actions its record holds before a
resignation: short games, so that the four reviews take seconds."""


def computer_record(kind: str, players: int, actions_before_resigning: int) -> str:
    spec = GAMES[kind]
    facts = GameFacts(kind, 5, 7, 8, 5, {}, ["Ada", "Bo", "Cy", "Di"][:players])
    state = spec.new_game(players=players, seed=facts.seed)
    actions: list[tuple[int | None, str]] = []
    while not state.is_over and len(actions) < actions_before_resigning:
        action = spec.bot_action(state, seed=computer_seed(facts.seed, len(actions)))
        actions.append((state.current_player, action))
        state = state.apply(action)
    if not state.is_over:
        actions.append((state.current_player, "!resign"))
    return write_record(facts, actions)


def test_a_review_in_the_container_is_byte_identical_to_one_here(
    image: str, tmp_path: Path
) -> None:
    """The image's Python is another build (Debian's) than the one running the tests:
    the same record reviewed by both gives the same JSON, byte for byte, for every game."""
    tmp_path.chmod(0o755)
    for kind, (players, moves) in REVIEWED.items():
        record = tmp_path / f"{kind}.txt"
        record.write_text(computer_record(kind, players, moves))
        record.chmod(0o644)
    versions = []
    for kind in REVIEWED:
        here = subprocess.run(
            [sys.executable, "-m", "games.review", str(tmp_path / f"{kind}.txt"), "--json"],
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        there = subprocess.run(
            [
                *("docker", "run", "--rm", "--network", "host", "-v", f"{tmp_path}:/records:ro"),
                *("--entrypoint", "python", image, "-c", PYTHON_VERSION_AND_REVIEW, kind),
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert there.returncode == 0, there.stderr
        version, reviewed = there.stdout.split("\n", 1)
        versions.append(version)
        assert json.loads(here.stdout)["decisions"], f"the {kind} record has decisions to judge"
        assert reviewed == here.stdout, f"{kind}: the same review on both Pythons"
    assert set(versions) != {sys.version}, "the container's Python is another build"


PYTHON_VERSION_AND_REVIEW = (
    "import runpy, sys; kind = sys.argv[1]; print(sys.version);"
    "sys.argv = ['games.review', f'/records/{kind}.txt', '--json'];"
    "runpy.run_module('games.review', run_name='__main__')"
)


# ---- compose ---------------------------------------------------------------------------


def test_compose_file_is_valid_and_runs_two_bots_on_one_postgresql(
    docker_compose: None, tmp_path: Path
) -> None:
    for name in ("compose.yaml", ".env.example"):
        shutil.copy(ROOT / name, tmp_path / name)
    subprocess.run(shlex.split(COMPOSE_SETUP), cwd=tmp_path, check=True)
    check = subprocess.run(
        shlex.split(COMPOSE_CHECK), cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert (check.returncode, check.stderr) == (0, "")
    services = subprocess.run(
        ["docker-compose", "config", "--services"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert sorted(services.stdout.split()) == ["bot-a", "bot-b", "db"]
