"""Follows against a real SQLite file and a real PostgreSQL schema: following a table or a
member toggles, an ended table takes no new follower, its followers are claimed once (also
by two processes at once), the ended tables still owing messages are found, and a
lobby deleted unseen takes its follows with it."""

from __future__ import annotations

import asyncio

import pytest
from testdb import ONE_PROCESS_PER_SQLITE_FILE, both_engines

from data import Seat, Store, Table
from data.follows import FollowBook

pytestmark = both_engines()

GUILD = 1
ALICE, BOB, CAROL, DAVE = 100, 200, 300, 400


async def running_table(store: Store, channel_id: int = 10) -> Table:
    table = await store.create_table(
        kind="bann",
        guild_id=GUILD,
        channel_id=channel_id,
        creator_id=ALICE,
        seats=[Seat("Alice", ALICE), Seat("Bob", BOB)],
        options={},
        seed=7,
    )
    table.status = "active"
    return await store.save(table, expected_version=table.version)


async def ended(store: Store, table: Table, status: str = "finished") -> Table:
    if status == "finished":
        table.finish([1.0, -1.0])
    else:
        table.status = status
    return await store.save(table, expected_version=table.version)


def followers(database, game_id: int) -> list[tuple[int, str]]:
    rows = database.rows(
        "SELECT follower_id, language FROM table_follows WHERE game_id = ? ORDER BY follower_id",
        game_id,
    )
    return [(row["follower_id"], row["language"]) for row in rows]


async def test_following_a_table_twice_stops_following_it(store, database):
    book = FollowBook(store)
    table = await running_table(store)

    assert await book.toggle_table(table.id, CAROL, "de") is True
    assert await book.toggle_table(table.id, DAVE, "en") is True
    assert followers(database, table.id) == [(CAROL, "de"), (DAVE, "en")]

    assert await book.toggle_table(table.id, CAROL, "de") is False
    assert followers(database, table.id) == [(DAVE, "en")]


async def test_an_ended_or_missing_table_takes_no_follower(store, database):
    book = FollowBook(store)
    table = await ended(store, await running_table(store), "aborted")

    assert await book.toggle_table(table.id, CAROL, "en") is None
    assert await book.toggle_table(999_999, CAROL, "en") is None
    assert database.rows("SELECT * FROM table_follows") == []


async def test_a_running_tables_followers_are_not_claimed_and_an_ended_ones_once(store):
    book = FollowBook(store)
    table = await running_table(store)
    await book.toggle_table(table.id, CAROL, "de")
    await book.toggle_table(table.id, ALICE, "en")

    assert await book.claim_ended(table.id) == [], "the game still runs"
    await ended(store, table)
    claimed = await book.claim_ended(table.id)

    assert [(f.follower_id, f.language) for f in claimed] == [(CAROL, "de"), (ALICE, "en")]
    assert await book.claim_ended(table.id) == [], "told once"
    assert await book.toggle_table(table.id, CAROL, "de") is None


async def test_ended_tables_still_owing_their_messages_are_found(store):
    book = FollowBook(store)
    told, untold, running = [await running_table(store, channel) for channel in (10, 11, 12)]
    for table in (told, untold, running):
        await book.toggle_table(table.id, CAROL, "en")
    await ended(store, told)
    await ended(store, untold, "aborted")
    await book.claim_ended(told.id)

    assert await book.ended_and_followed() == [untold.id]


async def test_a_lobby_deleted_unseen_takes_its_follows_with_it(store, database):
    book = FollowBook(store)
    lobby = await store.create_table(
        kind="bann",
        guild_id=GUILD,
        channel_id=20,
        creator_id=ALICE,
        seats=[Seat("Alice", ALICE)],
        options={},
        seed=1,
    )
    await book.toggle_table(lobby.id, CAROL, "en")

    await store.delete_lobby(lobby.id)

    assert database.rows("SELECT * FROM table_follows") == []


async def test_following_a_member_toggles_per_server(store, database):
    book = FollowBook(store)

    assert await book.toggle_member(GUILD, ALICE, CAROL, "de") is True
    assert await book.toggle_member(GUILD, BOB, CAROL, "de") is True
    assert await book.toggle_member(GUILD, ALICE, DAVE, "en") is True
    assert await book.toggle_member(GUILD + 1, ALICE, BOB, "en") is True
    assert await book.toggle_member(GUILD, BOB, CAROL, "de") is False

    follows = await book.followers_of_members(GUILD, [ALICE, BOB])
    assert [(f.follower_id, f.member_id, f.language) for f in follows] == [
        (CAROL, ALICE, "de"),
        (DAVE, ALICE, "en"),
    ]
    assert await book.followers_of_members(GUILD, []) == []


async def test_two_processes_claiming_an_ended_table_tell_each_follower_once(database):
    if database.engine == "sqlite":
        pytest.skip(ONE_PROCESS_PER_SQLITE_FILE)
    stores = [await Store.open(database.target), await Store.open(database.target)]
    try:
        table = await running_table(stores[0])
        for follower in range(1000, 1040):
            await FollowBook(stores[0]).toggle_table(table.id, follower, "en")
        await ended(stores[0], table)

        claims = await asyncio.gather(
            *(FollowBook(stores[n % 2]).claim_ended(table.id) for n in range(6))
        )

        claimed = [follow.follower_id for claim in claims for follow in claim]
        assert sorted(claimed) == list(range(1000, 1040)), "each follower exactly once"
    finally:
        for store in stores:
            await store.close()


async def test_a_follow_racing_the_tables_end_is_either_claimed_or_refused(database):
    """A member follows while another process ends the table and claims its followers:
    his follow is among the claimed, or it is refused; it is never left behind."""
    if database.engine == "sqlite":
        pytest.skip(ONE_PROCESS_PER_SQLITE_FILE)
    stores = [await Store.open(database.target), await Store.open(database.target)]
    try:
        for round_number in range(8):
            table = await running_table(stores[0], channel_id=100 + round_number)

            async def end_and_claim(table: Table = table) -> list[int]:
                await ended(stores[0], table)
                return [f.follower_id for f in await FollowBook(stores[0]).claim_ended(table.id)]

            claimed, followed = await asyncio.gather(
                end_and_claim(), FollowBook(stores[1]).toggle_table(table.id, CAROL, "en")
            )

            assert database.rows("SELECT * FROM table_follows WHERE game_id = ?", table.id) == []
            assert (followed is True) == (claimed == [CAROL]), (followed, claimed)
    finally:
        for store in stores:
            await store.close()
