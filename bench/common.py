"""Shared helpers for the benchmark scripts.

Each script reports its timings next to a baseline measured in the same run (a fixed
pure-Python workload), so numbers taken on noisy or different machines can be compared
as ratios.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence


def _baseline_workload() -> int:
    total = 0
    for i in range(200_000):
        total += (i * 7) % 13
    return total


def baseline_ms(repeats: int = 15) -> float:
    """Median milliseconds of the fixed reference workload on this machine, right now."""
    return statistics.median(time_ms(_baseline_workload) for _ in range(repeats))


def time_ms(function: Callable[[], object]) -> float:
    start = time.perf_counter()
    function()
    return (time.perf_counter() - start) * 1000


def percentile(samples: Sequence[float], fraction: float) -> float:
    ordered = sorted(samples)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def report(name: str, samples_ms: Sequence[float], baseline: float) -> str:
    """One line: median, p95, p99 in ms and the median as a ratio of the baseline."""
    median = statistics.median(samples_ms)
    return (
        f"{name}: n={len(samples_ms)} median={median:.2f} ms "
        f"p95={percentile(samples_ms, 0.95):.2f} ms p99={percentile(samples_ms, 0.99):.2f} ms "
        f"(median/baseline={median / baseline:.2f}, baseline={baseline:.2f} ms)"
    )
