"""Tournaments against a real SQLite file and a real PostgreSQL schema: entry is refused
twice, when full and once started (late entry only until its round); leaving withdraws
during the event but not from a table still playing; a round is paired once and a table
opened once, also by two processes at once; a result counts once; a restart reads back
every round as it was paired."""

from __future__ import annotations

import asyncio

import pytest
from testdb import ONE_PROCESS_PER_SQLITE_FILE, both_engines

from data import Seat, Store
from data.store import NewLobby
from data.tournaments import RUNNING, Entrant, TournamentBook, TournamentRow

pytestmark = both_engines()

GUILD, CHANNEL = 1, 10
ORGANISER = 99


async def new_event(book: TournamentBook) -> TournamentRow:
    return await book.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        organiser_id=ORGANISER,
        kind="bann",
        config={"format": "swiss", "rounds": 4},
        language="en",
        starts_at=None,
    )


def member(member_id: int) -> Entrant:
    return Entrant(key="", name=f"Member {member_id}", rating=25.0, member_id=member_id)


def lobby(channel_id: int, keys: list[str]) -> NewLobby:
    return NewLobby(
        kind="bann",
        guild_id=GUILD,
        channel_id=channel_id,
        creator_id=ORGANISER,
        seats=[Seat(key) for key in keys],
        options={},
        seed=7,
    )


async def test_entry_is_refused_twice_when_full_and_once_started(store):
    book = TournamentBook(store)
    event = await new_event(book)

    outcome, first = await book.enter(event.id, member(100), capacity=2)
    assert outcome == "entered" and first is not None and first.key == "e1"
    assert (await book.enter(event.id, member(100), capacity=2))[0] == "again"
    assert (await book.enter(event.id, member(200), capacity=2))[0] == "entered"
    assert (await book.enter(event.id, member(300), capacity=2))[0] == "full"

    assert await book.move_status(event.id, ["registration"], RUNNING)
    assert (await book.enter(event.id, member(300), capacity=9))[0] == "closed"
    assert [e.member_id for e in await book.entrants(event.id)] == [100, 200]


async def test_late_entry_is_open_until_its_round_is_paired(store):
    book = TournamentBook(store)
    event = await new_event(book)
    for member_id in (100, 200):
        await book.enter(event.id, member(member_id), capacity=9)
    await book.move_status(event.id, ["registration"], RUNNING)
    assert await book.pair_round(event.id, 1, [(["e1", "e2"], None)], [])

    outcome, late = await book.enter(event.id, member(300), capacity=9, late_until_round=2)
    assert outcome == "entered" and late is not None and late.joined_round == 2
    assert await book.pair_round(event.id, 2, [(["e1", "e3"], None)], ["e2"])
    assert (await book.enter(event.id, member(400), capacity=9, late_until_round=2))[0] == "closed"


async def test_leaving_withdraws_during_the_event_but_not_from_a_running_table(store):
    book = TournamentBook(store)
    event = await new_event(book)
    for member_id in (100, 200, 300):
        await book.enter(event.id, member(member_id), capacity=9)
    assert await book.leave(event.id, 300) == "left"
    assert await book.leave(event.id, 300) == "not entered"
    await book.move_status(event.id, ["registration"], RUNNING)
    await book.pair_round(event.id, 1, [(["e1", "e2"], None)], [])

    assert await book.leave(event.id, 100) == "playing"
    assert not any(e.withdrawn for e in await book.entrants(event.id))
    assert await book.record_result(event.id, 1, 1, {"places": [1, 2]})
    assert await book.leave(event.id, 100) == "withdrawn"
    assert [e.withdrawn for e in await book.entrants(event.id)] == [True, False]


async def test_two_missed_rounds_withdraw_an_entrant(store):
    book = TournamentBook(store)
    event = await new_event(book)
    await book.enter(event.id, member(100), capacity=9)
    assert not await book.missed_round(event.id, "e1", withdraw_after=2)
    assert await book.missed_round(event.id, "e1", withdraw_after=2)
    assert (await book.entrants(event.id))[0].withdrawn


async def test_a_timed_start_drops_who_did_not_check_in(store):
    book = TournamentBook(store)
    event = await new_event(book)
    for member_id in (100, 200):
        await book.enter(event.id, member(member_id), capacity=9)
    await book.enter(
        event.id, Entrant("", "Computer", 25.0, computer_level="easy"), capacity=9
    )
    assert await book.check_in(event.id, 200)
    assert not await book.check_in(event.id, 555)

    dropped = await book.drop_unchecked(event.id)
    assert [e.member_id for e in dropped] == [100]
    assert [e.key for e in await book.entrants(event.id)] == ["e2", "e3"]


async def test_a_round_is_paired_once_and_a_table_opened_once(store, database):
    book = TournamentBook(store)
    event = await new_event(book)
    for member_id in (100, 200, 300):
        await book.enter(event.id, member(member_id), capacity=9)
    assert not await book.pair_round(event.id, 1, [(["e1", "e2"], None)], ["e3"]), "not started"
    await book.move_status(event.id, ["registration"], RUNNING)
    assert await book.pair_round(event.id, 1, [(["e1", "e2"], None)], ["e3"])
    assert not await book.pair_round(event.id, 1, [(["e2", "e3"], None)], ["e1"])

    assert await book.claim_opening(event.id, 1, 1, now=1000.0, lease=30.0)
    assert not await book.claim_opening(event.id, 1, 1, now=1010.0, lease=30.0)
    assert await book.claim_opening(event.id, 1, 1, now=1031.0, lease=30.0), "lease ran out"
    game_id = await book.open_table(event.id, 1, 1, lobby(500, ["e1", "e2"]))
    assert game_id is not None
    assert await book.open_table(event.id, 1, 1, lobby(501, ["e1", "e2"])) is None
    assert not await book.claim_opening(event.id, 1, 1, now=9999.0, lease=30.0)
    assert [row["id"] for row in database.rows("SELECT id FROM games")] == [game_id]

    found = await book.table_of_game(game_id)
    assert found is not None and (found.round, found.number, found.seats) == (1, 1, ["e1", "e2"])
    assert await book.record_result(event.id, 1, 1, {"places": [2, 1]})
    assert not await book.record_result(event.id, 1, 1, {"places": [1, 2]})


async def test_a_restart_reads_back_every_round_as_paired(store, database):
    book = TournamentBook(store)
    event = await new_event(book)
    for member_id in (100, 200, 300):
        await book.enter(event.id, member(member_id), capacity=9)
    await book.move_status(event.id, ["registration"], RUNNING)
    await book.pair_round(event.id, 1, [(["e1", "e2"], None)], ["e3"])
    await book.record_result(event.id, 1, 1, {"places": [1, 1]})
    await book.add_tables(event.id, 1, [(["e2", "e1"], 1)])
    assert not await book.add_tables(event.id, 1, [(["e2", "e1"], 1)]), "decided once"
    await book.add_log(event.id, {"event": "scored", "round": 1, "table": 1, "by": ORGANISER})

    again = await Store.open(database.target)
    try:
        rounds = await TournamentBook(again).rounds(event.id)
        reloaded = await TournamentBook(again).load(event.id)
    finally:
        await again.close()
    assert [(r.number, r.byes) for r in rounds] == [(1, ["e3"])]
    assert [(t.number, t.seats, t.decider_of, t.result) for t in rounds[0].tables] == [
        (1, ["e1", "e2"], None, {"places": [1, 1]}),
        (2, ["e2", "e1"], 1, None),
    ]
    assert reloaded is not None and reloaded.log[0]["event"] == "scored"


async def test_two_processes_pair_a_round_and_open_its_tables_once(database):
    if database.engine == "sqlite":
        pytest.skip(ONE_PROCESS_PER_SQLITE_FILE)
    stores = [await Store.open(database.target), await Store.open(database.target)]
    try:
        books = [TournamentBook(store) for store in stores]
        event = await new_event(books[0])
        for member_id in range(100, 116):
            await books[0].enter(event.id, member(member_id), capacity=64)
        await books[0].move_status(event.id, ["registration"], RUNNING)
        tables = [([f"e{2 * n + 1}", f"e{2 * n + 2}"], None) for n in range(8)]
        paired = await asyncio.gather(*(book.pair_round(event.id, 1, tables, []) for book in books))
        assert sorted(paired) == [False, True]

        async def open_all(book: TournamentBook, base: int) -> list[int]:
            opened = []
            for number in range(1, 9):
                game_id = await book.open_table(
                    event.id, 1, number, lobby(base + number, [f"e{number}"] * 2)
                )
                if game_id is not None:
                    opened.append(game_id)
            return opened

        first, second = await asyncio.gather(open_all(books[0], 1000), open_all(books[1], 2000))
        assert len(first) + len(second) == 8
        assert len(database.rows("SELECT id FROM games")) == 8
    finally:
        for store in stores:
            await store.close()
