"""Upgrades: a database made by each earlier release (one per schema version, in
tests/data/upgrade/, made by that release's own code with make_databases.py there) is
upgraded by today's bot, on SQLite as it was made and on PostgreSQL migrated step by step
to its version and given its rows; the bot plays on every unfinished game (a lobby is
joined first), and the league's standings show the finished games' players, each with
as many games as the league recorded. A database a newer release has upgraded stops
today's bot with one line.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from stored import typed
from testdb import SqliteTestDatabase, TestDatabase, both_engines

from cogs.scheduler import ManualTime
from data import Store
from data.backends import connect
from data.schema import MIGRATIONS, scripts_for
from fakediscord import Channel, Message, SimUser
from games import GAMES, replay

ROOT = Path(__file__).resolve().parents[2]
NEWER = len(MIGRATIONS) + 1
MADE_BY_RELEASES = sorted(
    (ROOT / "tests" / "data" / "upgrade").glob("v*-*.sqlite3"),
    key=lambda path: int(path.name[1:].split("-")[0]),
)
# Parents before children, so the foreign keys hold at every insert.
PARENTS_FIRST = ("games", "actions", "league_seasons", "league_results", "league_seats")
GENERATED_IDS = ("games", "league_seasons")
CONFIRMATION = "✅ You "
"""How a typed move's confirmation begins: "✅ You played 4>5:N.", or a game's own words
for it ("✅ You rolled 4: choose a walk.")."""
NEWCOMER = 0
"""The key of the member who joins the release's lobby (no seat of the release's)."""


def made_at(path: Path) -> int:
    """The schema version of a release's database, as its file name says."""
    return int(path.name[1:].split("-")[0])


def file_rows(path: Path, query: str, *args: Any) -> list[dict[str, Any]]:
    return SqliteTestDatabase(path).rows(query, *args)


@pytest.fixture(params=MADE_BY_RELEASES, ids=lambda path: path.stem)
def release_database(request: pytest.FixtureRequest) -> Path:
    return request.param


@pytest.fixture
def clock(release_database: Path) -> ManualTime:
    """Today's bot starts the moment after the release stopped: the turn clocks it
    stored have not run out."""
    written = file_rows(release_database, "SELECT MAX(updated_at) AS last FROM games")
    return ManualTime(written[0]["last"] + 1)


def test_every_earlier_schema_version_has_a_database_made_by_its_release():
    versions = [made_at(path) for path in MADE_BY_RELEASES]
    assert set(range(1, len(MIGRATIONS))) <= set(versions) and max(versions) <= len(MIGRATIONS)
    for path in MADE_BY_RELEASES:
        assert file_rows(path, "PRAGMA user_version")[0]["user_version"] == made_at(path)
        assert path.stat().st_size < 64_000, "the kept databases stay small"


async def postgresql_at(version: int, source: Path, target: str) -> None:
    """The PostgreSQL schema at ``version`` (migrations 1 to ``version``), holding the
    rows of the release's SQLite database ``source``."""
    database = await connect(target)
    try:
        await database.migrate(scripts_for("postgresql")[:version])
        tables = [
            row["name"]
            for row in file_rows(source, "SELECT name FROM sqlite_master WHERE type = 'table'")
            if row["name"] != "sqlite_sequence"
        ]
        ordered = [t for t in PARENTS_FIRST if t in tables] + [
            t for t in tables if t not in PARENTS_FIRST
        ]
        async with database.transaction() as db:
            for table in ordered:
                rows = file_rows(source, f"SELECT * FROM {table}")
                if not rows:
                    continue
                columns = list(rows[0])
                await db.executemany(
                    f"INSERT INTO {table} ({', '.join(columns)})"
                    f" VALUES ({', '.join('?' for _ in columns)})",
                    [tuple(row.values()) for row in rows],
                )
            for table in GENERATED_IDS:
                if table in tables:
                    await db.execute(
                        f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                        f" COALESCE(MAX(id), 1), MAX(id) IS NOT NULL) FROM {table}"
                    )
    finally:
        await database.close()


async def _migrated(target: str) -> None:
    await (await Store.open(target)).close()


def schema_version(database: TestDatabase) -> int:
    if database.engine == "sqlite":
        return int(database.rows("PRAGMA user_version")[0]["user_version"])
    return int(database.rows("SELECT version FROM schema_version")[0]["version"])


def set_schema_version(database: TestDatabase, version: int) -> None:
    if database.engine == "sqlite":
        database.run(f"PRAGMA user_version = {version}")
    else:
        database.run("UPDATE schema_version SET version = ?", version)


def start_the_bot(database: TestDatabase, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``python bot.py`` with a token and the database in its settings, as an operator."""
    settings = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DATABASE_PATH")}
    setting = "DATABASE_PATH" if database.engine == "sqlite" else "DATABASE_URL"
    return subprocess.run(
        [sys.executable, str(ROOT / "bot.py")],
        cwd=cwd,
        env=settings | {setting: database.target, "DISCORD_TOKEN": "stops-before-discord"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@both_engines()
def test_a_database_from_a_newer_release_stops_the_bot_with_one_line(database, tmp_path):
    asyncio.run(_migrated(database.target))
    set_schema_version(database, NEWER)
    games_before = database.rows("SELECT * FROM games")

    finished = start_the_bot(database, tmp_path)

    assert finished.returncode == 2
    lines = finished.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in finished.stderr, finished.stderr
    assert lines[0].startswith("error: the database ")
    assert (
        f"is at schema version {NEWER}, newer than this release's {len(MIGRATIONS)}: a newer"
        " release of the bot has upgraded it; run that release, or restore a backup made"
        " before the upgrade." in lines[0]
    )
    assert (
        schema_version(database) == NEWER and database.rows("SELECT * FROM games") == games_before
    )


def the_releases_world(world, source: Path) -> dict[int, SimUser]:
    """The release's server, channels and members, with the ids its database names (a
    database made elsewhere names them; the messages it names are gone here)."""
    games = file_rows(source, "SELECT * FROM games ORDER BY id")
    guild = world.fake.add_guild("Upgrade Server", guild_id=games[0]["guild_id"])
    for game in games:
        guild.add_text_channel(f"table-{game['id']}", channel_id=game["channel_id"])
    members: dict[int, SimUser] = {}
    for game in games:
        for seat in json.loads(game["seats"]):
            if seat["user_id"] is not None and seat["user_id"] not in members:
                members[seat["user_id"]] = world.fake.add_user(
                    seat["name"], guild=guild, user_id=seat["user_id"]
                )
    newcomer = world.fake.add_user("Newcomer", guild=guild)
    members[NEWCOMER] = members[newcomer.id] = newcomer
    return members


def channel_of(world, game: dict[str, Any]) -> Channel:
    return next(c for g in world.fake.guilds for c in g.channels if c.id == game["channel_id"])


def disagreement(game: dict[str, Any], actions: list[str]) -> set[str]:
    """The fields of the game's stored state that replaying its log from the seed with
    today's rules does not give."""
    replayed = replay(
        game["kind"],
        players=len(json.loads(game["seats"])),
        seed=game["seed"],
        options=json.loads(game["options"]),
        actions=actions,
    ).to_dict()
    stored = json.loads(game["state"])
    return {key for key in replayed.keys() | stored.keys() if replayed.get(key) != stored.get(key)}


def logged(database: TestDatabase, game_id: int) -> list[str]:
    rows = database.rows("SELECT action FROM actions WHERE game_id = ? ORDER BY seq", game_id)
    return [row["action"] for row in rows]


def game_row(database: TestDatabase, game_id: int) -> dict[str, Any]:
    return database.rows("SELECT * FROM games WHERE id = ?", game_id)[0]


async def join_the_lobby(world, game: dict[str, Any], members: dict[int, SimUser]) -> None:
    """The lobby's message is gone here: its creator shows it again, a newcomer joins."""
    channel = channel_of(world, game)
    shown = await members[game["creator_id"]].slash(channel, "game board")
    assert shown.message is not None and shown.message.buttons(), "the lobby, shown again"
    joined = await members[NEWCOMER].click(shown.message, "Join")
    assert joined.message is not None


async def play_a_move(
    world,
    database: TestDatabase,
    game: dict[str, Any],
    members: dict[int, SimUser],
    release_log: list[str],
    release_disagreed: set[str],
) -> None:
    """The member to act types a legal move; it is played after the release's logged
    ones, and the log replays to the stored state wherever the release's own snapshot
    did (``release_disagreed``: the fields where that snapshot and today's replay of the
    release's log differ)."""
    state = GAMES[game["kind"]].from_dict(json.loads(game["state"]))
    assert not state.is_over and state.current_player is not None
    seat = json.loads(game["seats"])[state.current_player]
    action = next(a for a in state.legal_actions() if a not in ("offer", "undo"))
    answer = await members[seat["user_id"]].slash(
        channel_of(world, game), f"{game['kind']} move", notation=typed(action)
    )
    assert answer.message is not None
    assert answer.message.content.startswith(CONFIRMATION), answer.message.content
    played = game_row(database, game["id"])
    assert played["version"] > game["version"]
    actions = logged(database, game["id"])
    assert actions[: len(release_log)] == release_log and len(actions) > len(release_log)
    assert disagreement(played, actions) <= release_disagreed


def standings_names(message: Message) -> list[str]:
    return re.findall(r"\*\*(.+?)\*\*", message.embeds[0]["description"])


async def read_the_league(
    world, database: TestDatabase, guild_id: int, members: dict[int, SimUser]
) -> None:
    """Each game's standings show the players of its recorded results, and each player's
    record counts as many games, wins and losses as his recorded seats."""
    recorded = database.rows(
        "SELECT r.kind, s.user_id, s.name, s.outcome FROM league_results r"
        " JOIN league_seats s ON s.game_id = r.game_id WHERE r.guild_id = ?",
        guild_id,
    )
    assert recorded, "the finished games are in the league"
    reader = members[NEWCOMER]
    channel = channel_of(world, database.rows("SELECT * FROM games LIMIT 1")[0])
    for kind in sorted({row["kind"] for row in recorded}):
        seats = [row for row in recorded if row["kind"] == kind]
        shown = await reader.slash(channel, "league standings", game=kind)
        assert shown.message is not None
        assert sorted(standings_names(shown.message)) == sorted({row["name"] for row in seats})
        for rating in database.rows(
            "SELECT * FROM league_ratings WHERE guild_id = ? AND kind = ?", guild_id, kind
        ):
            his = [row for row in seats if row["user_id"] == rating["player_id"]]
            assert rating["games"] == len(his)
            assert rating["wins"] == sum(row["outcome"] == "win" for row in his)
            assert rating["losses"] == sum(row["outcome"] == "loss" for row in his)


async def open_the_rematches(world, database: TestDatabase, members: dict[int, SimUser]) -> None:
    """A rematch a release's player asked for opens when the others ask on its result
    message (which Discord kept): the same players, each one seat on."""
    for offer in database.rows("SELECT * FROM rematches WHERE rematch_id IS NULL"):
        game = game_row(database, offer["game_id"])
        channel = channel_of(world, game)
        button = {"type": 2, "style": 1, "label": "Rematch"}
        button["custom_id"] = f"tb:{game['id']}:{game['version']}:rematch:"
        result = world.fake.earlier_bot_message(
            channel, {"content": "🏳️ result", "components": [{"type": 1, "components": [button]}]}
        )
        seats = json.loads(game["seats"])
        for index, seat in enumerate(seats):
            if seat["user_id"] is not None and index not in json.loads(offer["ready"]):
                await members[seat["user_id"]].click(result, "Rematch")
        opened = database.rows("SELECT * FROM rematches WHERE game_id = ?", game["id"])[0]
        assert opened["rematch_id"] is not None, "the rematch opened"
        rematch = game_row(database, opened["rematch_id"])
        assert rematch["status"] == "active" and rematch["channel_id"] == game["channel_id"]
        ids = [seat["user_id"] for seat in seats]
        assert [seat["user_id"] for seat in json.loads(rematch["seats"])] == [*ids[1:], ids[0]]


@both_engines()
async def test_a_release_database_is_upgraded_and_its_games_and_league_go_on(
    fake_discord, start_bot, database, release_database
):
    version = made_at(release_database)
    if database.engine == "sqlite":
        shutil.copyfile(release_database, database.target)
    else:
        await postgresql_at(version, release_database, database.target)
    members = the_releases_world(fake_discord, release_database)

    bot = await start_bot()

    assert bot.store is not None and await bot.store.schema_version() == len(MIGRATIONS)
    unfinished = database.rows(
        "SELECT * FROM games WHERE status IN ('lobby', 'active') ORDER BY id"
    )
    for game in unfinished:
        release_log = logged(SqliteTestDatabase(release_database), game["id"])
        release_disagreed = set()
        if game["status"] == "lobby":
            await join_the_lobby(fake_discord, game, members)
            game = game_row(database, game["id"])
        else:
            release_disagreed = disagreement(game, release_log)
        await play_a_move(fake_discord, database, game, members, release_log, release_disagreed)
    kinds = {row["kind"] for row in file_rows(release_database, "SELECT kind FROM games")}
    assert {game["kind"] for game in unfinished} == kinds, "a move on each kind of game"
    await read_the_league(fake_discord, database, unfinished[0]["guild_id"], members)
    await open_the_rematches(fake_discord, database, members)
