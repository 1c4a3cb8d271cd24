"""Boards drawn in a worker process are the boards drawn in the bot's own process."""

from __future__ import annotations

import asyncio

from cogs.render_pool import RenderJob, RenderPool
from games import GAMES
from render.bann import render_bann

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def bann_job() -> RenderJob:
    state = GAMES["bann"].new_game(players=2, seed=11)
    return RenderJob(render_bann, (state.view(None), ["Jürgen", "Bob"], None))


def test_a_worker_process_draws_the_same_board_as_a_thread() -> None:
    async def both() -> tuple[bytes, bytes]:
        in_process, in_thread = RenderPool(processes=1), RenderPool(processes=0)
        try:
            return await in_process.render(bann_job()), await in_thread.render(bann_job())
        finally:
            in_process.close()

    drawn_apart, drawn_here = asyncio.run(both())
    assert drawn_apart.startswith(PNG_SIGNATURE)
    assert drawn_apart == drawn_here


def test_a_dead_worker_is_replaced_and_the_board_still_drawn() -> None:
    async def after_a_crash() -> tuple[bytes, bytes]:
        pool = RenderPool(processes=1)
        try:
            await pool.render(bann_job())
            assert pool._pool is not None
            for process in pool._pool._processes.values():
                process.kill()
            survived = await pool.render(bann_job())
            return survived, await pool.render(bann_job())
        finally:
            pool.close()

    survived, next_one = asyncio.run(after_a_crash())
    assert survived.startswith(PNG_SIGNATURE)
    assert next_one == survived
