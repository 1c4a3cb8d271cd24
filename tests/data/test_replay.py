"""The stored snapshot is only a cache: replaying the action log from the seed gives it."""

import random

from testdb import both_engines

from data import Seat, Store
from games import GAMES, replay


@both_engines()
async def test_replaying_the_log_from_the_seed_gives_the_stored_snapshot(database):
    store = await Store.open(database.target)
    table = await store.create_table(
        kind="bann",
        guild_id=1,
        channel_id=2,
        creator_id=3,
        seats=[Seat("Alice", 3), Seat("Computer")],
        options={},
        seed=4242,
    )
    state = GAMES["bann"].new_game(players=2, seed=table.seed)
    chooser = random.Random(1)
    while not state.is_over:
        seat = state.current_player
        action = chooser.choice([a for a in state.legal_actions() if a != "offer"])
        state = state.apply(action)
        table.state = state.to_dict()
        table.status = "finished" if state.is_over else "active"
        await store.save(table, expected_version=table.version, actions=[(seat, action)])
    stored = await store.load(table.id)
    logged = [entry.action for entry in await store.actions(table.id)]
    await store.close()

    replayed = replay("bann", players=2, seed=stored.seed, options=stored.options, actions=logged)

    assert replayed.to_dict() == stored.state
    assert len(logged) == stored.version
