"""Makes the databases tests/e2e/test_schema_upgrades_e2e.py upgrades: one per earlier
schema version, each made by a release of that version running its own code.

    .venv/bin/python tests/data/upgrade/make_databases.py [SCHEMA_VERSION ...]

Each release (the main line's last commit at its schema version) runs from its own tree
(``git archive``) in a child process (release_bot.py) against a fake Discord here. Four
members play as that release let them: for every game it offers, a table with a few
typed moves left unfinished; a Bann game (and a Gul Bara one, where offered) played a
little and resigned, so the league has results, its rematch asked for by the player who
did not resign where the result offers one; and a Bann lobby nobody joined. The
database the release leaves is kept, copied whole and compacted, as
``v<schema>-<commit>.sqlite3`` beside this script. Today's schema version has one too,
made by the last release before the table machinery was split into layers, so the day
a migration is added it is already an earlier version's.

When a migration is added, add the last commit before it to RELEASES and run this for
its version.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import random
import sqlite3
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from stored import typed  # noqa: E402

from data.snapshots import back_up  # noqa: E402
from fakediscord import Channel, FakeDiscord, Guild, SimUser, test_ca  # noqa: E402
from fakediscord.tls import server_ssl_context  # noqa: E402
from games import GAMES  # noqa: E402

RELEASES = {
    1: "f0cd93885ef30904c03c7648e3acf9f0e4f999bd",
    2: "dd0d4059b6d243cd9849b073b72546e8e0c37227",
    3: "7f56eb8491ca9c5a08222cad5ff85fdd634839ae",
    4: "207a12145953a9f9e5fbe82f17089533c0615e60",
    5: "aecf8a191eb7181bf336b8187b16e51b709b95b4",
    6: "97a93771db3d85c979509dfc1590bc6bb2345374",
    7: "8430ea195a72d3115bbb0305f29d656ee461aa82",
    8: "5813865080d6d25e62ba0d10cf88eb219ae4f7ea",
    9: "5529f003b3fd37aed9382bbf2220b9b53754e538",
    10: "2f03f1b248bad7028724aa5d6ed3978dc0f4de33",
    11: "71aa7edcd3a759f8f776a8b1d2b26091b2c4e889",
}
"""Schema version → the last commit of the main line at that version."""

BORROWED = {
    1: (
        "08dc61841629eb8a035957e681912019749b7517",
        ("render/__init__.py", "render/bann.py", "render/theme.py"),
    ),
}
"""Files a release imports but its commit lacks (the branches it was merged from brought
them a few commits later), taken from the commit that added them: no commit at schema
version 1 has the Bann board picture its cog draws. None of them touches the database."""

KINDS = ("bann", "gulbara", "barbu", "barree")
SEATS = {"bann": 2, "gulbara": 2, "barree": 2, "barbu": 4}
UNFINISHED = 4
"""Moves played in a table left unfinished."""
RESIGNED = 2
"""Moves played in a table before its first player resigns."""


def database_file(version: int) -> Path:
    return HERE / f"v{version}-{RELEASES[version][:7]}.sqlite3"


def release_tree(version: int, into: Path) -> Path:
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", RELEASES[version]],
        capture_output=True,
        check=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    lender, paths = BORROWED.get(version, ("", ()))
    for path in paths:
        shown = subprocess.run(
            ["git", "-C", str(ROOT), "show", f"{lender}:{path}"], capture_output=True, check=True
        )
        (into / path).write_bytes(shown.stdout)
    return into


def newest_game(database: Path, channel: Channel) -> dict[str, Any] | None:
    with contextlib.closing(sqlite3.connect(database, timeout=10)) as db:
        db.row_factory = sqlite3.Row
        row = db.execute(
            "SELECT * FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel.id,)
        ).fetchone()
    return dict(row) if row else None


def logged(database: Path, game_id: int) -> int:
    with contextlib.closing(sqlite3.connect(database, timeout=10)) as db:
        return int(
            db.execute("SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,)).fetchone()[0]
        )


async def until(check: Callable[[], object], what: str, timeout: float = 30.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        if loop.time() > deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


async def quiet(fake: FakeDiscord, seconds: float = 1.5) -> None:
    loop = asyncio.get_running_loop()
    seen, since = len(fake.requests), loop.time()
    while loop.time() - since < seconds:
        await asyncio.sleep(0.05)
        if len(fake.requests) != seen:
            seen, since = len(fake.requests), loop.time()


def offered(fake: FakeDiscord) -> dict[str, str | None]:
    """The games the release offers, each with its move command's option (None: no
    typed moves)."""
    games: dict[str, str | None] = {}
    for command in fake.commands.listing(None):
        if command["name"] not in KINDS:
            continue
        move = next((sub for sub in command.get("options", []) if sub["name"] == "move"), None)
        games[command["name"]] = move["options"][0]["name"] if move else None
    return games


def seated(database: Path, channel: Channel) -> int:
    game = newest_game(database, channel)
    return 0 if game is None else len(json.loads(game["seats"]))


def with_button(channel: Channel, label: str):
    for message in reversed(channel.public_messages()):
        if any(button.label == label for button in message.buttons()):
            return message
    return None


async def open_table(database: Path, kind: str, channel: Channel, players: list[SimUser]) -> None:
    """The first player opens a table, the others join; started if it does not start
    when full."""
    first, *others = players
    opened = await first.slash_nowait(channel, f"{kind} new")
    await opened.wait_answered(timeout=30)
    await until(lambda: with_button(channel, "Join"), f"the {kind} lobby")
    for player in others:
        joined = await player.click_nowait(with_button(channel, "Join"), "Join")
        await joined.wait_answered(timeout=30)
    await until(lambda: seated(database, channel) == len(players), f"the {kind} seats")
    if newest_game(database, channel)["status"] == "lobby":
        started = await first.click_nowait(with_button(channel, "Start"), "Start")
        await started.wait_answered(timeout=30)
    await until(lambda: newest_game(database, channel)["status"] == "active", f"the {kind} game")


@dataclass
class Scene:
    """The fake Discord, its server, the release's database, the games the release
    offers (each with its move command's option, None without typed moves)."""

    fake: FakeDiscord
    guild: Guild
    database: Path
    offered: dict[str, str | None]
    chooser: random.Random


async def play_moves(
    scene: Scene, kind: str, channel: Channel, players: list[SimUser], moves: int
) -> None:
    """``moves`` typed moves by whoever is to act, chosen among the legal ones; a move
    the release refuses (its notation differed) is chosen again."""
    option = scene.offered[kind]
    refused = 0
    while option and moves and refused < 20:
        game = newest_game(scene.database, channel)
        state = GAMES[kind].from_dict(json.loads(game["state"]))
        if state.is_over or state.current_player is None:
            return
        user_id = json.loads(game["seats"])[state.current_player]["user_id"]
        player = next(p for p in players if p.id == user_id)
        legal = [a for a in state.legal_actions() if a not in ("offer", "undo")]
        before = logged(scene.database, game["id"])
        record = await player.slash_nowait(
            channel, f"{kind} move", **{option: typed(scene.chooser.choice(legal))}
        )
        await record.wait_answered(timeout=30)
        try:
            await until(lambda g=game, b=before: logged(scene.database, g["id"]) > b, "move", 5)
        except TimeoutError:
            refused += 1
            continue
        moves -= 1
    await quiet(scene.fake, 0.5)


async def table(
    scene: Scene, kind: str, name: str, players: list[SimUser], moves: int, *, resigned: bool
) -> None:
    channel = scene.guild.add_text_channel(name)
    await open_table(scene.database, kind, channel, players)
    await play_moves(scene, kind, channel, players, moves)
    if resigned:
        await resign(scene.database, channel, players)


async def resign(database: Path, channel: Channel, players: list[SimUser]) -> None:
    game = newest_game(database, channel)
    seats = json.loads(game["seats"])
    player = next(p for p in players if p.id == seats[0]["user_id"])
    asked = await player.slash_nowait(channel, "game resign")
    await asked.wait_answered(timeout=30)
    await until(lambda: asked.original is not None, "the resignation's question")
    if any(button.label == "Yes, resign" for button in asked.original.buttons()):
        confirmed = await player.click_nowait(asked.original, "Yes, resign")
        await confirmed.wait_answered(timeout=30)
    await until(lambda: newest_game(database, channel)["status"] == "finished", "the resignation")
    await ask_for_the_rematch(database, channel, players)


async def ask_for_the_rematch(database: Path, channel: Channel, players: list[SimUser]) -> None:
    """The player who did not resign asks for the rematch, where the result offers one
    (a release before rematches announces without a button)."""
    with contextlib.suppress(TimeoutError):
        await until(lambda: with_button(channel, "Rematch"), "the rematch offer", timeout=5)
    result = with_button(channel, "Rematch")
    if result is None:
        return
    seats = json.loads(newest_game(database, channel)["seats"])
    other = next(p for p in players if p.id == seats[1]["user_id"])
    asked = await other.click_nowait(result, "Rematch")
    await asked.wait_answered(timeout=30)


@contextlib.asynccontextmanager
async def release_running(
    fake: FakeDiscord, tree: Path, database: Path, ca_pem: Path, log: Path
) -> AsyncIterator[None]:
    identified = fake.gateway.identify_count
    with log.open("w") as output:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            str(HERE / "release_bot.py"),
            str(fake.port),
            str(database),
            str(ca_pem),
            cwd=tree,
            stdout=output,
            stderr=output,
        )
        try:
            await until(lambda: fake.gateway.identify_count > identified, "the release's READY", 60)
            await until(lambda: fake.commands.listing(None), "the release's commands", 60)
            yield
            await quiet(fake)
        except BaseException:
            print(f"the release's log ends:\n{log.read_text()[-3000:]}", file=sys.stderr)
            raise
        finally:
            if process.returncode is None:
                process.terminate()
            await asyncio.wait_for(process.wait(), timeout=30)


async def make(version: int, scratch: Path) -> Path:
    commit = RELEASES[version]
    tree = release_tree(version, scratch / "tree")
    database, log, ca_pem = scratch / "bot.sqlite3", scratch / "bot.log", scratch / "ca.pem"
    server_ssl_context()
    test_ca().cert_pem.write_to_path(str(ca_pem))
    async with FakeDiscord() as fake:
        fake.gateway.wait_for_parse = False
        guild = fake.add_guild("Upgrade Server")
        everyone = [fake.add_user(n, guild=guild) for n in ("Alice", "Bob", "Carol", "Dave")]
        async with release_running(fake, tree, database, ca_pem, log):
            scene = Scene(fake, guild, database, offered(fake), random.Random(version))
            for number, kind in enumerate(kind for kind in KINDS if kind in scene.offered):
                seated = [everyone[(number + k) % 4] for k in range(SEATS[kind])]
                await table(scene, kind, f"{kind}-unfinished", seated, UNFINISHED, resigned=False)
                if kind in ("bann", "gulbara"):
                    seated = [everyone[(number + 2 + k) % 4] for k in range(SEATS[kind])]
                    await table(scene, kind, f"{kind}-resigned", seated, RESIGNED, resigned=True)
            lobby = guild.add_text_channel("bann-lobby")
            opened = await everyone[2].slash_nowait(lobby, "bann new")
            await opened.wait_answered(timeout=30)
            await until(lambda: with_button(lobby, "Join"), "the lobby nobody joins")
    errors = [
        line for line in log.read_text().splitlines() if line.startswith(("ERROR", "CRITICAL"))
    ]
    if errors:
        raise RuntimeError(f"release {commit[:7]} logged errors:\n" + "\n".join(errors))
    kept = database_file(version)
    kept.unlink(missing_ok=True)
    back_up(database, kept)
    with contextlib.closing(sqlite3.connect(kept)) as db:
        # Small pages: every table and index takes one page at least.
        db.execute("PRAGMA page_size = 1024")
        db.execute("VACUUM")
        assert db.execute("PRAGMA user_version").fetchone()[0] == version
    return kept


def main(argv: list[str]) -> int:
    versions = [int(v) for v in argv] or sorted(RELEASES)
    for version in versions:
        with tempfile.TemporaryDirectory() as scratch:
            kept = asyncio.run(make(version, Path(scratch)))
        with contextlib.closing(sqlite3.connect(kept)) as db:
            summary = db.execute("SELECT status, COUNT(*) FROM games GROUP BY status").fetchall()
        print(f"{kept.name}: {kept.stat().st_size // 1000} kB, games {dict(summary)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
