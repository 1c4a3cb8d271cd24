"""Reviews worked out in a worker process are the reviews worked out in a thread, with
their progress told as they go; a game asked for twice at once is reviewed once, and a
full queue refuses another game."""

from __future__ import annotations

import asyncio

import pytest

from cogs.review_pool import ReviewPool, ReviewQueueFull
from games import GAMES
from games.proof import GameFacts
from games.review.model import Review

BARREE = GAMES["barree"]


def short_barree_game() -> tuple[GameFacts, list[tuple[int | None, str]]]:
    """Twelve actions of two normal computers, as logged."""
    state = BARREE.new_game(players=2, seed=5)
    actions: list[tuple[int | None, str]] = []
    for step in range(12):
        action = BARREE.bot_action(state, seed=step)
        actions.append((state.current_player, action))
        state = state.apply(action)
    facts = GameFacts(
        kind="barree",
        game_id=1,
        guild_id=1,
        channel_id=1,
        seed=5,
        options={},
        seats=["Ann", "Bob"],
        status="aborted",
        final=state.to_dict(),
    )
    return facts, actions


def test_a_worker_process_reviews_as_a_thread_does_and_tells_its_progress() -> None:
    facts, actions = short_barree_game()

    async def both() -> tuple[str, str, list[tuple[int, int]]]:
        told: list[tuple[int, int]] = []

        async def progress(done: int, total: int) -> None:
            told.append((done, total))

        in_process, in_thread = ReviewPool(processes=1), ReviewPool(processes=0)
        try:
            apart = await in_process.review(1, facts, actions, progress)
            here = await in_thread.review(1, facts, actions, progress)
            return apart, here, told
        finally:
            in_process.close()

    apart, here, told = asyncio.run(both())
    assert apart == here and apart.startswith('{"judgements":')
    assert told, "progress came back from the worker"
    total = len(Review.from_json(apart).judgements)
    assert all(0 < done <= total and of == total for done, of in told)


def test_one_game_is_reviewed_once_and_a_full_queue_refuses_another() -> None:
    facts, actions = short_barree_game()

    async def asked_together() -> tuple[list[str], ReviewQueueFull]:
        pool = ReviewPool(processes=0, limit=1)

        async def quiet(done: int, total: int) -> None:
            return None

        first = asyncio.ensure_future(pool.review(1, facts, actions, quiet))
        await asyncio.sleep(0)
        second = asyncio.ensure_future(pool.review(1, facts, actions, quiet))
        with pytest.raises(ReviewQueueFull) as refused:
            await pool.review(2, facts, actions, quiet)
        assert not pool.is_full(1) and pool.is_full(2)
        return list(await asyncio.gather(first, second)), refused.value

    answers, refusal = asyncio.run(asked_together())
    assert answers[0] == answers[1]
    assert refusal.limit == 1
