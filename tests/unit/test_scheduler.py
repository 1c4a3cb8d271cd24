"""The scheduler loop with a ManualTime: it sleeps until the earliest due moment, a
poke wakes it for an earlier one, and a failed batch is retried."""

from __future__ import annotations

import asyncio

from cogs.scheduler import RECHECK_SECONDS, RETRY_SECONDS, ManualTime, Scheduler


class Due:
    """A stand-in for the store's due moments: the scheduler's other side."""

    def __init__(self, *moments: float) -> None:
        self.moments = sorted(moments)
        self.handled: list[float] = []
        self.failures = 0
        self.failed = asyncio.Event()

    async def next_due(self) -> float | None:
        return self.moments[0] if self.moments else None

    async def run_due(self, now: float) -> None:
        if self.failures:
            self.failures -= 1
            self.failed.set()
            raise RuntimeError("database unavailable")
        while self.moments and self.moments[0] <= now:
            self.handled.append(self.moments.pop(0))


async def started(due: Due, clock: ManualTime) -> Scheduler:
    scheduler = Scheduler(clock, due.next_due)
    await scheduler.start(due.run_due)
    await scheduler.settled()
    return scheduler


async def test_what_fell_due_before_the_start_is_handled_by_the_first_tick():
    clock = ManualTime(1000)
    due = Due(500, 900, 2000)
    scheduler = await started(due, clock)
    assert due.handled == [500, 900]
    scheduler.stop()


async def test_it_wakes_exactly_when_the_earliest_moment_comes():
    clock = ManualTime(0)
    due = Due(100, 300)
    scheduler = await started(due, clock)
    clock.advance(99)
    await scheduler.settled()
    assert due.handled == []
    clock.advance(1)
    await scheduler.settled()
    assert due.handled == [100]
    clock.advance(500)
    await scheduler.settled()
    assert due.handled == [100, 300]
    scheduler.stop()


async def test_a_poke_for_an_earlier_moment_wakes_it():
    clock = ManualTime(0)
    due = Due(1000)
    scheduler = await started(due, clock)
    due.moments.insert(0, 10)
    scheduler.poke(10)
    clock.advance(10)
    await scheduler.settled()
    assert due.handled == [10]
    scheduler.stop()


async def test_a_moment_another_process_set_is_handled_from_the_next_recheck_on():
    clock = ManualTime(0)
    due = Due(1000)
    scheduler = await started(due, clock)
    due.moments.insert(0, 10)  # saved by another process, which pokes only its own loop
    clock.advance(RECHECK_SECONDS - 1)
    await scheduler.settled()
    assert due.handled == [], "not known before the recheck"
    clock.advance(1)
    await scheduler.settled()
    assert due.handled == [10], "the recheck finds it and handles it"
    scheduler.stop()


async def test_nothing_due_costs_one_comparison():
    clock = ManualTime(0)
    due = Due(1000)
    scheduler = await started(due, clock)
    assert not scheduler.is_due(clock.now())
    assert scheduler.is_due(1000)
    scheduler.stop()


async def test_a_failed_batch_is_retried_after_a_pause(caplog):
    clock = ManualTime(0)
    due = Due(10)
    due.failures = 1
    scheduler = await started(due, clock)
    clock.advance(10)
    await due.failed.wait()
    assert due.handled == [] and "retrying later" in caplog.text
    clock.advance(RETRY_SECONDS)
    await scheduler.settled()
    assert due.handled == [10]
    scheduler.stop()
