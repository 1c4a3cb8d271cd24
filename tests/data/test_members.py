"""A member's data in the store, on a real SQLite file and a real PostgreSQL schema: what
names him is found on one server or on all, and forgetting him is all or nothing, per
server, and wins against a league recording of a game that has just finished."""

from __future__ import annotations

import pytest
from testdb import both_engines

from data import Seat, Store, Table
from data.follows import FollowBook
from data.league import League
from data.members import MemberData, StillPlaying
from data.tournaments import Entrant, TournamentBook

pytestmark = both_engines()

ALICE, BOB = 100_000_000_000_000_001, 100_000_000_000_000_002
HERE, THERE = 1, 2


async def finished(store: Store, guild_id: int, channel_id: int, *seats: Seat) -> Table:
    table = await store.create_table(
        kind="bann",
        guild_id=guild_id,
        channel_id=channel_id,
        creator_id=seats[0].user_id or 0,
        seats=list(seats),
        options={},
        seed=7,
    )
    table.state = {}
    table.finish([1.0, 0.0])
    return await store.save(table, expected_version=table.version)


async def test_a_game_finished_but_not_yet_recorded_is_recorded_under_the_label(store):
    """The table machinery records a result from the table it holds in memory, just after
    saving the game's end: a forget in between must not let his name back in."""
    table = await finished(store, HERE, 10, Seat("Alice", ALICE), Seat("Bob", BOB))
    await MemberData(store).forget(ALICE, HERE)

    result = await League(store).record_finished(table)

    assert result is not None
    assert result.seats[1].name == "Bob"
    assert result.seats[0].name.startswith("Player ") and result.seats[0].user_id != ALICE
    assert await MemberData(store).records(ALICE, None) == []


async def test_forgetting_on_one_server_leaves_the_others(store):
    await finished(store, HERE, 10, Seat("Alice", ALICE), Seat("Bob", BOB))
    await finished(store, THERE, 20, Seat("Alice", ALICE), Seat("Bob", BOB))
    members = MemberData(store)
    assert [records.guild_id for records in await members.records(ALICE, None)] == [HERE, THERE]

    forgotten = await members.forget(ALICE, HERE)

    assert [records.guild_id for records in forgotten] == [HERE]
    [left] = await members.records(ALICE, None)
    assert left.guild_id == THERE and [table.game_id for table in left.tables] == [2]
    assert await names_at(store, 2) == ["Alice", "Bob"]


async def test_an_open_table_anywhere_refuses_it_all(store):
    await finished(store, HERE, 10, Seat("Alice", ALICE), Seat("Bob", BOB))
    lobby = await store.create_table(
        kind="bann",
        guild_id=THERE,
        channel_id=20,
        creator_id=BOB,
        seats=[Seat("Bob", BOB)],
        options={},
        seed=8,
        extra={"invited": [ALICE]},
    )
    members = MemberData(store)

    with pytest.raises(StillPlaying) as refused:
        await members.forget(ALICE, None)

    assert [table.game_id for table in refused.value.tables] == [lobby.id]
    assert refused.value.tables[0].invited
    assert await names_at(store, 1) == ["Alice", "Bob"], "nothing changed"


async def names_at(store: Store, game_id: int) -> list[str]:
    table = await store.load(game_id)
    assert table is not None
    return table.names


CAROL = 100_000_000_000_000_003


async def test_follows_are_found_and_forgotten_per_server(store, database):
    """Alice follows a table and Bob here, and Bob there; Carol follows Alice here.
    Forgetting her here deletes her follows here and Carol's of her, and nothing there."""
    book = FollowBook(store)
    running = await store.create_table(
        kind="bann",
        guild_id=HERE,
        channel_id=30,
        creator_id=BOB,
        seats=[Seat("Bob", BOB)],
        options={},
        seed=9,
    )
    await book.toggle_table(running.id, ALICE, "de")
    await book.toggle_member(HERE, BOB, ALICE, "de")
    await book.toggle_member(THERE, BOB, ALICE, "en")
    await book.toggle_member(HERE, ALICE, CAROL, "en")
    members = MemberData(store)

    here, there = await members.records(ALICE, None)

    assert [(f.get("game_id"), f.get("member_id"), f["language"]) for f in here.follows] == [
        (running.id, None, "de"),
        (None, BOB, "de"),
    ]
    assert here.followers == 1 and there.followers == 0
    assert [f["member_id"] for f in there.follows] == [BOB]
    assert (await members.unfinished_tables(ALICE, HERE)) == [], "following is not playing"

    await members.forget(ALICE, HERE)

    assert database.rows("SELECT * FROM table_follows") == []
    rows = database.rows("SELECT guild_id, member_id, follower_id FROM member_follows")
    assert rows == [{"guild_id": THERE, "member_id": BOB, "follower_id": ALICE}]
    [left] = await members.records(ALICE, None)
    assert left.guild_id == THERE


async def test_tournament_entries_and_organising_are_found_and_forgotten_per_server(
    store, database
):
    """Alice organised an event here and entered one here and one there; forgetting her
    here puts her label in her entry and as the organiser (in the log too), nothing there."""
    book = TournamentBook(store)
    events = []
    for guild in (HERE, THERE):
        event = await book.create(
            guild_id=guild,
            channel_id=40 + guild,
            organiser_id=ALICE if guild == HERE else BOB,
            kind="bann",
            config={"format": "swiss", "rounds": 3},
            language="en",
            starts_at=None,
        )
        await book.enter(event.id, Entrant("", "Alice", 25.0, member_id=ALICE), capacity=8)
        await book.enter(event.id, Entrant("", "Bob", 25.0, member_id=BOB), capacity=8)
        events.append(event)
    await book.add_log(events[0].id, {"event": "scored", "by": ALICE})
    members = MemberData(store)

    here, there = await members.records(ALICE, None)

    assert [(row["tournament_id"], row.get("key")) for row in here.tournaments] == [
        (events[0].id, "e1"),
        (events[0].id, None),
    ]
    assert here.tournaments[1]["organiser"] is True
    assert [row["name"] for row in there.tournaments] == ["Alice"]

    await members.forget(ALICE, HERE)

    entrants = database.rows(
        "SELECT tournament_id, member_id, name FROM tournament_entrants WHERE key = 'e1'"
        " ORDER BY tournament_id"
    )
    assert entrants[0]["member_id"] < 0 and entrants[0]["name"].startswith("Player ")
    assert entrants[1] == {"tournament_id": events[1].id, "member_id": ALICE, "name": "Alice"}
    organisers = database.rows("SELECT organiser_id, log FROM tournaments ORDER BY id")
    assert organisers[0]["organiser_id"] == entrants[0]["member_id"]
    assert str(ALICE) not in organisers[0]["log"]
    assert organisers[1]["organiser_id"] == BOB
    [left] = await members.records(ALICE, None)
    assert left.guild_id == THERE
