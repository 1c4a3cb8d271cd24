"""Moving a bot from SQLite to PostgreSQL with `python -m migrate`: everything is
copied, every game is checked by replaying its log, and a non-empty or mismatching
target is refused without writing anything."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from data import Seat, Store
from data.follows import FollowBook
from data.league import League
from data.lessons import LessonBook, LessonProgress
from data.rematches import RematchStore
from data.reviews import ReviewBook
from data.settings import SettingsStore
from data.store import NewLobby
from data.tournaments import RUNNING, Entrant, TournamentBook
from games import GAMES
from migrate import main

ON_POSTGRESQL = pytest.mark.parametrize("database", ["postgresql"], indirect=True)
TABLES = ("games", "actions", "league_seasons", "league_results", "league_seats")
TABLES += ("league_ratings", "league_settings", "guild_settings", "private_messages", "claims")
TABLES += ("rematches", "table_follows", "member_follows")
TABLES += ("tournaments", "tournament_entrants", "tournament_rounds", "tournament_tables")


async def played_game(store: Store, channel: int, *, finish: bool) -> int:
    """A Bann game in ``channel`` played by random legal moves (to the end if ``finish``)."""
    table = await store.create_table(
        kind="bann",
        guild_id=1,
        channel_id=channel,
        creator_id=3,
        seats=[Seat("Alice", 3), Seat("Bob", 4)],
        options={},
        seed=channel,
    )
    state = GAMES["bann"].new_game(players=2, seed=table.seed)
    chooser = random.Random(channel)
    for _ in range(1000 if finish else 6):
        if state.is_over:
            break
        seat = state.current_player
        action = chooser.choice([a for a in state.legal_actions() if a != "offer"])
        state = state.apply(action)
        table.state = state.to_dict()
        table.status = "active"
        if state.is_over:
            table.finish(state.returns())
        await store.save(table, expected_version=table.version, actions=[(seat, action)])
    if state.is_over:
        await League(store).record_finished(table)
    return table.id


async def a_bot_on_sqlite(path: Path) -> None:
    store = await Store.open(path)
    finished = await played_game(store, 10, finish=True)
    await played_game(store, 11, finish=False)
    await store.create_table(
        kind="bann",
        guild_id=1,
        channel_id=12,
        creator_id=3,
        seats=[Seat("Carol", 5)],
        options={},
        seed=1,
    )
    await League(store).set_rate_computer_games(1, True)
    await SettingsStore(store).set_language(1, "de")
    await SettingsStore(store).set_clock(1, "bann", 3600)
    await store.remember_private_message(11, 4, "private", 777)
    await RematchStore(store).offer(finished, expires_at=2_000_000_000.0)
    assert await store.claim_once("dm-closed:11:4")
    await LessonBook(store).save(LessonProgress(3, "gulbara", 2, ("24/18",), False))
    await FollowBook(store).toggle_table(2, 5, "de")
    await FollowBook(store).toggle_member(1, 3, 5, "en")
    await ReviewBook(store).save(finished, "test-engine", '{"kind":"bann"}')
    await ReviewBook(store).answer_puzzle(3, 1, "bann", "game:2:5", solved=True)
    await a_tournament(store)
    await store.close()


async def a_tournament(store: Store) -> None:
    """A tournament whose first round's table is open in channel 13."""
    book = TournamentBook(store)
    event = await book.create(
        guild_id=1,
        channel_id=12,
        organiser_id=3,
        kind="bann",
        config={"format": "swiss", "rounds": 3},
        language="en",
        starts_at=None,
    )
    await book.enter(event.id, Entrant("", "Alice", 25.0, member_id=3), capacity=8)
    await book.enter(event.id, Entrant("", "Computer", 25.0, computer_level="easy"), capacity=8)
    await book.move_status(event.id, ["registration"], RUNNING)
    await book.pair_round(event.id, 1, [(["e1", "e2"], None)], [])
    seats = [Seat("Alice", 3), Seat("Computer", level="easy")]
    await book.open_table(event.id, 1, 1, NewLobby("bann", 1, 13, 3, seats, {}, 5))


async def dump(target: str) -> dict[str, list[tuple]]:
    store = await Store.open(target)
    try:
        return {
            table: [tuple(row) for row in await store.db.fetch(f"SELECT * FROM {table} ORDER BY 1")]
            for table in TABLES
        }
    finally:
        await store.close()


@ON_POSTGRESQL
def test_everything_is_copied_and_verified_and_new_ids_follow_the_old(
    database, database_path, capsys
):
    asyncio.run(a_bot_on_sqlite(database_path))

    assert main(["--from", str(database_path), "--to", database.target]) == 0

    said = capsys.readouterr().out
    assert "4 games" in said and "2 game(s) replayed and verified" in said
    before, after = asyncio.run(dump(str(database_path))), asyncio.run(dump(database.target))
    assert after == before, "every row arrived unchanged"
    assert all(before[table] for table in TABLES), "every table had rows to copy"

    async def next_game_id() -> int:
        store = await Store.open(database.target)
        table = await store.create_table(
            kind="bann", guild_id=1, channel_id=99, creator_id=3, seats=[], options={}, seed=1
        )
        await store.close()
        return table.id

    assert asyncio.run(next_game_id()) == 5, "new games continue after the copied ids"


@ON_POSTGRESQL
def test_a_target_that_already_holds_games_is_refused(database, database_path, capsys):
    asyncio.run(a_bot_on_sqlite(database_path))
    assert main(["--from", str(database_path), "--to", database.target]) == 0
    copied = asyncio.run(dump(database.target))

    assert main(["--from", str(database_path), "--to", database.target]) == 1

    assert "already holds games" in capsys.readouterr().err
    assert asyncio.run(dump(database.target)) == copied, "nothing was written twice"


@ON_POSTGRESQL
def test_a_game_whose_log_does_not_replay_to_its_state_stops_the_copy(
    database, database_path, capsys
):
    asyncio.run(a_bot_on_sqlite(database_path))

    async def tamper() -> None:
        store = await Store.open(database_path)
        table = await store.load(2)
        assert table is not None and table.state is not None
        table.state = GAMES["bann"].new_game(players=2, seed=77).to_dict()
        await store.save(table, expected_version=table.version)
        await store.close()

    asyncio.run(tamper())

    assert main(["--from", str(database_path), "--to", database.target]) == 1

    assert "game(s) #2" in capsys.readouterr().err
    assert all(rows == [] for rows in asyncio.run(dump(database.target)).values())


def test_the_target_must_be_postgresql(tmp_path, capsys):
    assert main(["--from", str(tmp_path / "x.sqlite3"), "--to", "other.sqlite3"]) == 1
    assert "--to must be a postgresql:// URL" in capsys.readouterr().err


def tamper_with_game(path: Path, column: str, value: str) -> None:
    """Overwrite one column of game #2 in the SQLite file behind the bot's back."""
    import sqlite3

    with sqlite3.connect(path) as db:
        db.execute(f"UPDATE games SET {column} = ? WHERE id = 2", (value,))


@ON_POSTGRESQL
@pytest.mark.parametrize(
    ("column", "value"),
    [("state", '{"broken'), ("options", '{"no_such_option": 1}')],
)
def test_a_corrupted_game_is_named_and_nothing_is_copied(
    database, database_path, capsys, column, value
):
    asyncio.run(a_bot_on_sqlite(database_path))
    tamper_with_game(database_path, column, value)

    assert main(["--from", str(database_path), "--to", database.target]) == 1

    error = capsys.readouterr().err
    assert error.startswith("error: nothing was copied") and "#2" in error
    assert "Traceback" not in error
    assert all(rows == [] for rows in asyncio.run(dump(database.target)).values())


@ON_POSTGRESQL
def test_a_log_with_a_move_the_rules_refuse_is_named_and_nothing_is_copied(
    database, database_path, capsys
):
    asyncio.run(a_bot_on_sqlite(database_path))
    import sqlite3

    with sqlite3.connect(database_path) as db:
        db.execute("DROP TRIGGER actions_are_append_only_update")
        db.execute("UPDATE actions SET action = 'nonsense' WHERE game_id = 2 AND seq = 1")

    assert main(["--from", str(database_path), "--to", database.target]) == 1

    assert "#2" in capsys.readouterr().err
    assert all(rows == [] for rows in asyncio.run(dump(database.target)).values())


@pytest.mark.parametrize(
    "target",
    [
        "postgresql://tablebot:s3cret@127.0.0.1:1/tablebot",
        "postgresql://tablebot:s3cret@127.0.0.1:99999/tablebot",
        "postgresql://tablebot@127.0.0.1:1/tablebot?password=s3cret",
        "postgresql://tablebot:s3c#ret@127.0.0.1/tablebot",
        "postgresql://tablebot:s3c?ret@127.0.0.1/tablebot",
    ],
)
def test_an_unreachable_target_is_one_line_without_the_password(tmp_path, capsys, target):
    source = tmp_path / "bot.sqlite3"
    source.touch()

    assert main(["--from", str(source), "--to", target]) == 1

    error = capsys.readouterr().err.strip().splitlines()
    assert len(error) == 1 and error[0].startswith("error: cannot open the PostgreSQL")
    assert "***" in error[0] and "127.0.0.1" in error[0]
    assert not any(part in error[0] for part in ("s3c", "ret@", "ret/")), "no part of the password"
