"""The store against a real SQLite file and a real PostgreSQL schema: migrations, one
open game per channel, optimistic concurrency and the append-only action log."""

import asyncio
import sqlite3

import pytest
from testdb import ONE_PROCESS_PER_SQLITE_FILE, both_engines

from data import ChannelBusy, LobbyLimitReached, Seat, StaleVersion, Store
from data.schema import MIGRATIONS
from data.sql import IntegrityError, NothingChanged, Statement

pytestmark = both_engines()


async def new_table(store: Store, channel_id: int = 10):
    return await store.create_table(
        kind="bann",
        guild_id=1,
        channel_id=channel_id,
        creator_id=100,
        seats=[Seat("Alice", 100)],
        options={},
        seed=7,
    )


async def test_migrations_run_from_an_empty_database(store, database):
    assert store.dialect == database.engine
    assert await store.schema_version() == len(MIGRATIONS)


async def test_sqlite_runs_in_wal_mode(database, database_path):
    sqlite = await Store.open(database_path)
    mode = await sqlite.db.fetchval("PRAGMA journal_mode")
    await sqlite.close()
    assert mode == "wal"


async def test_reopening_keeps_tables_and_does_not_migrate_twice(database):
    first = await Store.open(database.target)
    table = await new_table(first)
    await first.close()
    second = await Store.open(database.target)
    reloaded = await second.load(table.id)
    version = await second.schema_version()
    await second.close()
    assert reloaded is not None
    assert reloaded.seats == [Seat("Alice", 100)]
    assert version == len(MIGRATIONS)


async def test_two_stores_opening_an_empty_database_at_once_migrate_it_once(database):
    if database.engine == "sqlite":
        pytest.skip(ONE_PROCESS_PER_SQLITE_FILE)
    first, second = await asyncio.gather(Store.open(database.target), Store.open(database.target))
    table = await new_table(first)
    assert (await second.load(table.id)) is not None
    assert await second.schema_version() == len(MIGRATIONS)
    await first.close()
    await second.close()


async def test_forty_lobbies_claimed_at_once_by_one_creator_open_only_up_to_the_limit(database):
    """Two processes on PostgreSQL (one on SQLite) each claim twenty lobbies at once, in
    forty channels: the count and the insert are one claim, so exactly three land."""
    processes = 1 if database.engine == "sqlite" else 2
    stores = [await Store.open(database.target) for _ in range(processes)]

    async def claim(channel_id: int) -> str:
        try:
            await stores[channel_id % processes].create_table(
                kind="bann",
                guild_id=1,
                channel_id=channel_id,
                creator_id=100,
                seats=[Seat("Alice", 100)],
                options={},
                seed=7,
                lobby_limit=3,
            )
        except LobbyLimitReached as reached:
            return f"refused at {reached.waiting}"
        return "opened"

    outcomes = await asyncio.gather(*(claim(channel_id) for channel_id in range(40)))
    waiting = await stores[0].open_lobbies_of(1, 100)
    for store in stores:
        await store.close()
    assert sorted(set(outcomes)) == ["opened", "refused at 3"]
    assert outcomes.count("opened") == 3 and waiting == 3


async def test_a_channel_holds_at_most_one_unfinished_game(store):
    table = await new_table(store)
    with pytest.raises(ChannelBusy) as refused:
        await new_table(store)
    assert refused.value.table.id == table.id
    other_channel = await new_table(store, channel_id=11)
    assert other_channel.id != table.id


async def test_a_finished_game_frees_the_channel(store):
    table = await new_table(store)
    table.status = "finished"
    await store.save(table, expected_version=table.version)
    assert await store.open_table_in(10) is None
    assert (await new_table(store)).id != table.id


async def test_a_second_save_of_the_same_version_is_refused_and_changes_nothing(store):
    table = await new_table(store)
    read_version = table.version
    table.state = {"move": 1}
    await store.save(table, expected_version=read_version, actions=[(0, "first")])
    table.state = {"move": 2}
    with pytest.raises(StaleVersion):
        await store.save(table, expected_version=read_version, actions=[(0, "second")])
    stored = await store.load(table.id)
    assert stored.state == {"move": 1}
    assert stored.version == read_version + 1
    assert [entry.action for entry in await store.actions(table.id)] == ["first"]


async def test_the_action_log_is_append_only(store):
    table = await new_table(store)
    await store.save(table, expected_version=table.version, actions=[(0, "a"), (1, "b")])
    await store.save(table, expected_version=table.version, actions=[(0, "c")])
    logged = await store.actions(table.id)
    assert [(entry.seq, entry.seat, entry.action) for entry in logged] == [
        (1, 0, "a"),
        (2, 1, "b"),
        (3, 0, "c"),
    ]
    with pytest.raises(IntegrityError, match="append-only"):
        await store.db.execute("DELETE FROM actions")
    with pytest.raises(IntegrityError, match="append-only"):
        await store.db.execute("UPDATE actions SET action = 'x' WHERE seq = 1")
    assert [entry.action for entry in await store.actions(table.id)] == ["a", "b", "c"]


async def test_a_batch_whose_last_statement_fails_changes_nothing(store):
    table = await new_table(store)
    await store.save(table, expected_version=table.version, actions=[(0, "a")])
    bump = Statement("UPDATE games SET version = 99 WHERE id = ?", (table.id,))
    with pytest.raises(IntegrityError, match="append-only"):
        await store.db.atomic([bump, Statement("DELETE FROM actions")])
    with pytest.raises(NothingChanged):
        missing = Statement("UPDATE games SET version = 5 WHERE id = -1", changes_one=True)
        await store.db.atomic([bump, missing])
    assert (await store.load(table.id)).version == table.version == 1
    assert [entry.action for entry in await store.actions(table.id)] == ["a"]


async def test_unfinished_lists_lobbies_and_running_games_only(store):
    lobby = await new_table(store, channel_id=1)
    running = await new_table(store, channel_id=2)
    running.status = "active"
    await store.save(running, expected_version=running.version)
    done = await new_table(store, channel_id=3)
    done.status = "aborted"
    await store.save(done, expected_version=done.version)
    assert [table.id for table in await store.unfinished()] == [lobby.id, running.id]
    assert await store.count_unfinished() == 2


async def test_concurrent_saves_of_different_games_all_land(store):
    tables = [await new_table(store, channel_id=100 + index) for index in range(20)]

    async def move(table):
        table.state = {"moved": table.id}
        await store.save(table, expected_version=table.version, actions=[(0, f"m{table.id}")])

    await asyncio.gather(*(move(table) for table in tables))

    for table in tables:
        stored = await store.load(table.id)
        assert stored.state == {"moved": table.id}
        assert [entry.action for entry in await store.actions(table.id)] == [f"m{table.id}"]


async def test_two_stores_racing_on_one_table_apply_exactly_one_change(database):
    """Two processes (two stores) saving the version both read: one wins, one is refused."""
    if database.engine == "sqlite":
        pytest.skip(ONE_PROCESS_PER_SQLITE_FILE)
    first = await Store.open(database.target)
    second = await Store.open(database.target)
    table = await new_table(first)
    copies = [await first.load(table.id), await second.load(table.id)]

    async def move(owner: Store, copy, name: str) -> str:
        copy.state = {"by": name}
        try:
            await owner.save(copy, expected_version=table.version, actions=[(0, name)])
        except StaleVersion:
            return "refused"
        return "applied"

    outcomes = await asyncio.gather(
        move(first, copies[0], "first"), move(second, copies[1], "second")
    )
    logged = [entry.action for entry in await first.actions(table.id)]
    stored = await second.load(table.id)
    await first.close()
    await second.close()
    assert sorted(outcomes) == ["applied", "refused"]
    assert logged == [stored.state["by"]] and stored.version == table.version + 1


async def test_a_claim_is_won_once_per_key(store):
    results = await asyncio.gather(*(store.claim_once("note:1:100") for _ in range(5)))
    assert sorted(results) == [False] * 4 + [True]
    assert await store.claim_once("note:1:200"), "another key is another claim"


async def test_a_turn_ping_is_swapped_for_the_next(store):
    table = await new_table(store)
    assert await store.swap_ping(table.id, 555) is None
    assert await store.swap_ping(table.id, 556) == 555, "the old ping, to delete"
    assert await store.swap_ping(table.id, None) == 556


async def test_a_private_message_is_remembered_per_player_and_purpose(store):
    table = await new_table(store)
    assert await store.private_message(table.id, 7, "deal0") is None
    await store.remember_private_message(table.id, 7, "deal0", 901)
    await store.remember_private_message(table.id, 8, "deal0", 902)
    await store.remember_private_message(table.id, 7, "deal0", 903)
    assert await store.private_message(table.id, 7, "deal0") == 903, "the newest replaces"
    assert await store.private_message(table.id, 8, "deal0") == 902
    assert await store.private_message(table.id, 7, "deal1") is None


async def test_reads_racing_writes_always_see_every_committed_change(store):
    async def create_and_move(channel_id: int) -> int:
        table = await new_table(store, channel_id)
        table.status = "active"
        await store.save(table, expected_version=table.version)
        loaded = await store.load(table.id)
        assert loaded is not None and loaded.version == 1, "a read saw an old snapshot"
        return table.id

    async def keep_reading() -> None:
        for _ in range(50):
            await store.unfinished()
            await store.count_unfinished()

    created, *_ = await asyncio.gather(
        asyncio.gather(*(create_and_move(channel) for channel in range(60))),
        *(keep_reading() for _ in range(4)),
    )
    assert await store.count_unfinished() == len(set(created)) == 60
    for game_id in created:
        loaded = await store.load(game_id)
        assert loaded is not None and loaded.status == "active"


async def test_a_load_sees_a_change_another_process_committed_just_before(store, database):
    table = await new_table(store)
    database.run("UPDATE games SET version = 5 WHERE id = ?", table.id)
    first = await store.load(table.id)
    database.run("UPDATE games SET version = 6 WHERE id = ?", table.id)
    second = await store.load(table.id)
    assert (first.version, second.version) == (5, 6), "each load sees the latest commit"


async def test_board_marks_move_forward_only_and_list_the_boards_behind(store):
    table = await new_table(store, 1)
    assert [t.id for t in await store.boards_behind()] == [table.id], "a lobby without message"
    await store.mark_board(table.id, 555, version=0)
    assert await store.boards_behind() == []
    table.status = "active"
    await store.save(table, expected_version=0)
    await store.mark_board(table.id, 556, version=1)
    await store.mark_board(table.id, 555, version=0)
    loaded = await store.load(table.id)
    assert (loaded.board_message_id, loaded.board_version) == (556, 1)
    assert not loaded.board_behind


async def test_due_tables_are_claimed_once_per_lease_and_ended_ones_have_nothing_due(store):
    first = await new_table(store, channel_id=1)
    second = await new_table(store, channel_id=2)
    for table, due in ((first, 500.0), (second, 200.0)):
        table.due_at = due
        await store.save(table, expected_version=table.version)
    assert await store.next_due() == 200.0
    claimed = await store.claim_due(300.0, lease=60.0)
    assert [t.id for t in claimed] == [second.id] and claimed[0].due_at == 360.0
    assert await store.claim_due(300.0, lease=60.0) == [], "claimed: passed by until the lease"
    assert [t.id for t in await store.claim_due(600.0, lease=60.0)] == [first.id, second.id]
    second = await store.load(second.id)
    second.status = "aborted"
    await store.save(second, expected_version=second.version)
    assert (await store.load(second.id)).due_at is None
    assert await store.next_due() == 660.0


async def test_a_clock_write_happens_once_and_never_over_a_newer_version(store):
    table = await new_table(store)
    table.due_at = 100.0
    await store.save(table, expected_version=table.version)
    first_reader = await store.load(table.id)
    second_reader = await store.load(table.id)
    first_reader.extra["clock"] = {"reminded": True}
    first_reader.due_at = 200.0
    assert await store.save_clock(first_reader, expected_due=100.0)
    version = (await store.load(table.id)).version
    assert version == table.version, "the clock write keeps the board's controls current"
    second_reader.due_at = 200.0
    assert not await store.save_clock(second_reader, expected_due=100.0), "done once"
    moved = await store.load(table.id)
    await store.save(moved, expected_version=moved.version)
    first_reader.due_at = 300.0
    assert not await store.save_clock(first_reader, expected_due=200.0), "a move came first"


async def test_a_table_event_is_logged_at_the_version_it_was_read_at_without_a_new_one(store):
    table = await new_table(store)
    table.status = "active"
    await store.save(table, expected_version=table.version, actions=[(0, "move")])
    read = await store.load(table.id)
    await store.log_event(read, 0, "!hint")
    after = await store.load(table.id)
    assert after.version == read.version, "the board's controls stay current"
    assert [(entry.seat, entry.action) for entry in await store.actions(table.id)] == [
        (0, "move"),
        (0, "!hint"),
    ]
    await store.save(after, expected_version=after.version, actions=[(1, "reply")])
    with pytest.raises(StaleVersion):
        await store.log_event(read, 0, "!hint")
    after.status = "finished"
    await store.save(after, expected_version=after.version)
    with pytest.raises(StaleVersion):
        await store.log_event(after, 0, "!hint")
    logged = [entry.action for entry in await store.actions(table.id)]
    assert logged == ["move", "!hint", "reply"], "a stale or ended game logs nothing"


async def test_two_processes_claiming_at_once_take_different_tables(database):
    if database.engine == "sqlite":
        pytest.skip(ONE_PROCESS_PER_SQLITE_FILE)
    first = await Store.open(database.target)
    second = await Store.open(database.target)
    for channel in range(20):
        table = await new_table(first, channel_id=channel)
        table.due_at = 100.0
        await first.save(table, expected_version=table.version)
    claims = await asyncio.gather(
        first.claim_due(200.0, lease=60.0, limit=15), second.claim_due(200.0, lease=60.0, limit=15)
    )
    await first.close()
    await second.close()
    ids = [table.id for claimed in claims for table in claimed]
    assert len(ids) == 20 and len(set(ids)) == 20, "every due table is claimed exactly once"


async def test_text_that_is_not_valid_utf8_is_stored_and_read_back(store):
    """A lone surrogate (a name or note from an old client, say) is not UTF-8: the fast
    JSON encoder refuses it, so the store falls back rather than leave the table stuck."""
    odd = "Zoë \ud83d and 🎲"
    table = await store.create_table(
        kind="bann",
        guild_id=1,
        channel_id=12,
        creator_id=100,
        seats=[Seat(odd, 100)],
        options={"note": odd},
        seed=7,
    )
    table.state = {"last": odd, 3: "int key"}
    await store.save(table, expected_version=table.version)
    stored = await store.load(table.id)
    assert stored.seats[0].name == odd
    assert stored.options == {"note": odd}
    assert stored.state == {"last": odd, "3": "int key"}


async def test_a_transaction_cancelled_midway_leaves_the_pooled_connection_clean(database):
    """The pool hands connections back without resetting the session (one round trip
    fewer per call); a transaction cancelled while it held a row and a lock must still
    end there, so the next caller on the same connection and other processes go on."""
    if database.engine == "sqlite":
        pytest.skip("PostgreSQL's connection pool")
    store = await Store.open(database.target, pool_size=1)
    other = await Store.open(database.target)
    table = await new_table(store)
    holding = asyncio.Event()

    async def hold_and_hang() -> None:
        async with store.transaction() as db:
            await db.lock("held")
            await db.execute("UPDATE games SET version = 42 WHERE id = ?", table.id)
            holding.set()
            await asyncio.Event().wait()

    hanging = asyncio.create_task(hold_and_hang())
    await holding.wait()
    hanging.cancel()
    with pytest.raises(asyncio.CancelledError):
        await hanging
    assert (await store.load(table.id)).version == 0, "the cancelled change was rolled back"
    async with asyncio.timeout(5):
        async with other.transaction() as db:
            await db.lock("held")
    await store.save(table, expected_version=0)
    assert (await other.load(table.id)).version == 1
    await store.close()
    await other.close()


async def test_more_callers_than_connections_wait_their_turn_even_past_one_that_gave_up(
    database,
):
    """The pool never opens more than its size, hands every waiting caller a connection
    in the end, and a caller cancelled while waiting takes no connection with it."""
    if database.engine == "sqlite":
        pytest.skip("PostgreSQL's connection pool")
    store = await Store.open(database.target, pool_size=2)
    try:
        held = "SELECT pg_backend_pid() AS pid, -1 AS n FROM pg_sleep(0.2)"
        busy = [asyncio.create_task(store.db.fetchrow(held)) for _ in range(2)]
        gave_up = asyncio.create_task(store.db.fetchval("SELECT 1"))
        for _ in range(5):
            await asyncio.sleep(0)
        gave_up.cancel()
        async with asyncio.timeout(20):
            answers = await asyncio.gather(
                *(
                    store.db.fetchrow("SELECT pg_backend_pid() AS pid, ?::int AS n", n)
                    for n in range(40)
                )
            )
            answers += await asyncio.gather(*busy)
        assert [row["n"] for row in answers] == [*range(40), -1, -1], "every caller answered"
        backends = {row["pid"] for row in answers}
        assert len(backends) <= 2, "never more connections than the pool's size"
        assert gave_up.cancelled()
    finally:
        await store.close()


async def test_waiters_cancelled_as_a_connection_comes_back_leave_the_pool_working(database):
    """Callers cancelled while they wait (an interaction given up, a shutdown) in the same
    turn of the loop as a connection comes back: the release passes over them, and their
    cancellation must neither fail nor keep the connection from the next caller."""
    if database.engine == "sqlite":
        pytest.skip("PostgreSQL's connection pool")
    from data.postgres import _Pool

    pool = _Pool(database.target, 1)
    await pool.start()
    try:
        held = await pool.acquire()
        waiting = [asyncio.create_task(pool.acquire()) for _ in range(3)]
        for _ in range(5):
            await asyncio.sleep(0)
        for task in waiting:
            task.cancel()
        pool.release(held)
        outcomes = await asyncio.gather(*waiting, return_exceptions=True)
        assert all(isinstance(outcome, asyncio.CancelledError) for outcome in outcomes)
        async with asyncio.timeout(5):
            again = await pool.acquire()
        assert again is held, "the one connection goes to the next caller"
        pool.release(again)
    finally:
        await pool.close()


async def test_racing_ping_swaps_hand_every_replaced_ping_back_exactly_once(database):
    """Each process deletes the ping its swap replaced: racing swaps must form one chain,
    so no ping is deleted twice and none is left behind."""
    stores = [await Store.open(database.target) for _ in range(2)]
    table = await new_table(stores[0])
    pings = range(1, 41)
    replaced = await asyncio.gather(*(stores[ping % 2].swap_ping(table.id, ping) for ping in pings))
    last = await stores[0].swap_ping(table.id, None)
    for store in stores:
        await store.close()
    assert sorted(filter(None, [*replaced, last])) == list(pings)
    assert replaced.count(None) == 1, "only the first swap found no ping"


async def test_a_move_saved_while_another_process_writes_waits_its_turn(database):
    """A move's save and the board's record are written on the event loop's thread by a
    writer that never waits; while another process holds SQLite's write lock (a backup,
    a migration) they must wait their turn on a thread instead, not fail."""
    if database.engine != "sqlite":
        pytest.skip("SQLite's write lock")
    store = await Store.open(database.target)
    table = await new_table(store)
    other = sqlite3.connect(database.target, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    saving = asyncio.gather(
        store.save(table, expected_version=0, actions=[(0, "move")]),
        store.mark_board(table.id, 99, 1),
    )
    await asyncio.sleep(0.3)
    assert not saving.done(), "the writes wait while the other process writes"
    other.execute("COMMIT")
    await asyncio.wait_for(saving, 10)
    other.close()
    stored = await store.load(table.id)
    assert (stored.version, stored.board_message_id) == (1, 99)
    assert [entry.action for entry in await store.actions(table.id)] == ["move"]
    await store.close()
