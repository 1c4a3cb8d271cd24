"""Rematch offers against a real SQLite file and a real PostgreSQL schema: a click at a
time, the rematch opened once (also by two processes clicking at once), nothing recorded
while the channel is taken or after the offer ran out, and the finished games' logs the
length estimate reads."""

from __future__ import annotations

import asyncio
import itertools

import pytest
from testdb import ONE_PROCESS_PER_SQLITE_FILE, both_engines

from data import ChannelBusy, Seat, Store, Table
from data.rematches import RematchStore
from data.store import NewLobby

pytestmark = both_engines()

CHANNEL = 10
PEOPLE = (0, 1)


async def finished_game(store: Store, channel_id: int = CHANNEL, resigning: int = 1) -> Table:
    table = await store.create_table(
        kind="bann",
        guild_id=1,
        channel_id=channel_id,
        creator_id=100,
        seats=[Seat("Alice", 100), Seat("Bob", 200)],
        options={},
        seed=7,
    )
    table.finish([1.0, 0.0])
    return await store.save(table, expected_version=table.version, actions=[(resigning, "!resign")])


def rematch_of(table: Table, seed: int = 8) -> NewLobby:
    return NewLobby(
        table.kind,
        table.guild_id,
        table.channel_id,
        table.creator_id,
        [table.seats[1], table.seats[0]],
        {},
        seed,
    )


async def click(offers: RematchStore, table: Table, seat: int, now: float = 0.0):
    return await offers.ready(
        table.id,
        seat,
        channel_id=table.channel_id,
        people=PEOPLE,
        now=now,
        rematch=lambda: rematch_of(table),
    )


async def test_the_rematch_opens_when_every_person_has_asked_once(store):
    offers = RematchStore(store)
    table = await finished_game(store)
    await offers.offer(table.id, expires_at=100.0)

    first = await click(offers, table, 1)
    again = await click(offers, table, 1)
    assert (first.outcome, first.ready) == ("waiting", frozenset({1}))
    assert (again.outcome, again.ready) == ("again", frozenset({1}))
    assert await store.open_table_in(CHANNEL) is None, "nothing opens before both asked"

    last = await click(offers, table, 0)

    assert last.outcome == "opened" and last.ready == frozenset(PEOPLE)
    opened = await store.open_table_in(CHANNEL)
    assert opened is not None and opened.id == last.rematch_id
    assert [seat.name for seat in opened.seats] == ["Bob", "Alice"] and opened.seed == 8
    late = await click(offers, table, 1)
    assert (late.outcome, late.rematch_id) == ("opened before", last.rematch_id)


async def test_an_offer_is_made_once_and_a_game_without_one_refuses(store):
    offers = RematchStore(store)
    table = await finished_game(store)
    assert (await click(offers, table, 0)).outcome == "no offer"
    await offers.offer(table.id, expires_at=100.0)
    await offers.offer(table.id, expires_at=5.0)
    assert (await click(offers, table, 0, now=50.0)).outcome == "waiting", "the first expiry"


async def test_a_click_at_the_expiry_or_later_records_nothing(store):
    offers = RematchStore(store)
    table = await finished_game(store)
    await offers.offer(table.id, expires_at=100.0)
    await click(offers, table, 1, now=99.0)

    late = await click(offers, table, 0, now=100.0)

    assert (late.outcome, late.ready) == ("expired", frozenset({1}))
    assert await store.open_table_in(CHANNEL) is None


async def test_a_taken_channel_refuses_every_click_and_records_none(store, database):
    offers = RematchStore(store)
    table = await finished_game(store)
    await offers.offer(table.id, expires_at=100.0)
    other = await store.create_table(
        kind="barbu",
        guild_id=1,
        channel_id=CHANNEL,
        creator_id=100,
        seats=[Seat("Alice", 100)],
        options={},
        seed=9,
    )

    with pytest.raises(ChannelBusy) as busy:
        await click(offers, table, 1)

    assert busy.value.table.id == other.id
    assert database.rows("SELECT ready FROM rematches") == [{"ready": "[]"}]


async def test_two_processes_clicking_at_once_open_one_rematch(database):
    """Every person of a four-seat table clicks twice at once, half of the clicks through
    another process's store: one click opens the rematch, every other one is told."""
    if database.engine == "sqlite":
        pytest.skip(ONE_PROCESS_PER_SQLITE_FILE)
    stores = [await Store.open(database.target), await Store.open(database.target)]
    try:
        table = await finished_game(stores[0])
        await RematchStore(stores[0]).offer(table.id, expires_at=100.0)
        seeds = itertools.count(50)
        people = (0, 1, 2, 3)

        async def clicks(store: Store, seat: int):
            return await RematchStore(store).ready(
                table.id,
                seat,
                channel_id=CHANNEL,
                people=people,
                now=0.0,
                rematch=lambda: rematch_of(table, next(seeds)),
            )

        outcomes = await asyncio.gather(
            *(clicks(stores[n % 2], seat) for n, seat in enumerate([*people, *people]))
        )
        games = database.rows("SELECT id FROM games ORDER BY id")
    finally:
        for store in stores:
            await store.close()
    said = [outcome.outcome for outcome in outcomes]
    assert said.count("opened") == 1 and len(games) == 2, "one rematch"
    assert said.count("waiting") == 3, "each of the others' seats recorded once"
    assert set(said) <= {"opened", "waiting", "again", "opened before"}
    opened = next(outcome for outcome in outcomes if outcome.outcome == "opened")
    assert opened.rematch_id == games[1]["id"]


async def test_the_newest_finished_games_logs_come_with_their_seats(store):
    await finished_game(store, channel_id=1, resigning=1)
    await finished_game(store, channel_id=2, resigning=0)
    await store.create_table(
        kind="bann", guild_id=1, channel_id=3, creator_id=1, seats=[], options={}, seed=1
    )

    logs = await store.finished_logs("bann", 1, 100)

    assert [[seat.name for seat in log.seats] for log in logs] == [["Alice", "Bob"]]
    assert [(entry.seat, entry.action) for entry in logs[0].actions] == [(0, "!resign")]
    assert len(await store.finished_logs("bann", 10, 100)) == 2
    assert await store.finished_logs("barbu", 10, 100) == []


async def test_the_logs_read_end_with_the_newest_entries(store):
    table = await finished_game(store)
    table.finish([0.0, 1.0])
    for move in ("a", "b", "c"):
        await store.save(table, expected_version=table.version, actions=[(0, move)])

    [log] = await store.finished_logs("bann", 10, 2)

    assert [entry.action for entry in log.actions] == ["b", "c"], "in order, the oldest cut"
