"""Boards drawn in a worker process are the boards drawn in the bot's own process."""

from __future__ import annotations

import asyncio
import os
import signal

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
            await in_process.close()

    drawn_apart, drawn_here = asyncio.run(both())
    assert drawn_apart.startswith(PNG_SIGNATURE)
    assert drawn_apart == drawn_here


def test_a_dead_worker_is_replaced_and_the_board_still_drawn() -> None:
    async def after_a_crash() -> tuple[bytes, bytes]:
        pool = RenderPool(processes=1)
        try:
            await pool.render(bann_job())
            for worker in pool.worker_ids:
                os.kill(worker, signal.SIGKILL)
            survived = await pool.render(bann_job())
            return survived, await pool.render(bann_job())
        finally:
            await pool.close()

    survived, next_one = asyncio.run(after_a_crash())
    assert survived.startswith(PNG_SIGNATURE)
    assert next_one == survived


def test_a_board_cancelled_half_way_does_not_reach_the_next_one() -> None:
    """A redraw abandoned while its worker draws (a newer move's board replaces it) must
    not hand its picture to the next board asked of that worker."""

    async def cancelled_then_next() -> tuple[bytes, bytes]:
        pool = RenderPool(processes=1)
        other = RenderJob(
            render_bann, (GAMES["bann"].new_game(2, seed=12).view(None), ["A", "B"], None)
        )
        try:
            await pool.render(bann_job())
            abandoned = asyncio.create_task(pool.render(bann_job()))
            await asyncio.sleep(0)
            abandoned.cancel()
            return await pool.render(other), await RenderPool(processes=0).render(other)
        finally:
            await pool.close()

    drawn, expected = asyncio.run(cancelled_then_next())
    assert drawn == expected
