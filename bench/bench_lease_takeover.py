"""How long a killed bot process keeps its shards from a successor.

A bot process (`bench.scale_bot`, the real bot) runs both shards of a two-shard bot on
PostgreSQL, connected to the fake Discord in this process. It is killed with SIGKILL, so
it cannot release its shard lease. A replacement with the same shards is started at once
and restarted whenever it refuses (exit status 2, "held by the live process …"), after
``--restart-delay`` seconds, as a supervisor's on-failure restart would.

Printed: how much of the lease was left at the kill (when the shards become free), and
the time from the kill until the replacement is connected on both shards.

Run: python -m bench.bench_lease_takeover [--lease-seconds 15] [--restart-delay 0.5]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from bench.bench_scale import DEFAULT_POSTGRES, drop_schema, fresh_target  # noqa: E402
from data.backends import connect  # noqa: E402
from fakediscord import FakeDiscord  # noqa: E402
from fakediscord.tls import test_ca  # noqa: E402

SHARDS = 2


def start_bot(fake: FakeDiscord, ca: Path, target: str, lease: float) -> subprocess.Popen:
    command = [sys.executable, "-m", "bench.scale_bot", "--port", str(fake.port)]
    command += ["--ca", str(ca), "--database", target, "--shard-count", str(SHARDS)]
    command += ["--shard-ids", f"0-{SHARDS - 1}"]
    environment = os.environ | {"SHARD_LEASE_SECONDS": str(lease)}
    return subprocess.Popen(command, cwd=ROOT, env=environment, stderr=subprocess.PIPE)


async def until(condition, timeout: float, what: str) -> None:
    deadline = time.perf_counter() + timeout
    while not condition():
        if time.perf_counter() > deadline:
            raise SystemExit(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


async def lease_left(target: str) -> float:
    database = await connect(target)
    try:
        left = await database.fetchval(
            "SELECT MAX(expires_at) - EXTRACT(EPOCH FROM clock_timestamp())::float8"
            " FROM shard_leases"
        )
    finally:
        await database.close()
    return float(left)


async def measure(lease: float, restart_delay: float, server: str) -> None:
    with tempfile.TemporaryDirectory() as folder_name:
        folder = Path(folder_name)
        target, schema = await fresh_target("postgresql", folder, server)
        ca = folder / "ca.pem"
        test_ca().cert_pem.write_to_path(str(ca))
        try:
            async with FakeDiscord() as fake:
                fake.gateway.wait_for_parse = False
                fake.add_guild("Bench")
                first = start_bot(fake, ca, target, lease)
                ready = lambda: len(fake.gateway.ready_connections) == SHARDS  # noqa: E731
                await until(ready, 60, "the first process")
                await asyncio.sleep(lease / 2)  # somewhere between two heartbeats
                first.send_signal(signal.SIGKILL)
                killed = time.perf_counter()
                left = await lease_left(target)
                first.wait()
                await until(lambda: not fake.gateway.ready_connections, 30, "the sockets to drop")
                attempts, replacement, refusal = 0, None, ""
                while not ready():
                    if replacement is None or replacement.poll() is not None:
                        if replacement is not None:
                            assert replacement.stderr is not None
                            said = replacement.stderr.read().decode().strip().splitlines()
                            refusal = said[-1] if said else refusal
                            await asyncio.sleep(restart_delay)
                        replacement = start_bot(fake, ca, target, lease)
                        attempts += 1
                    await asyncio.sleep(0.01)
                taken = time.perf_counter() - killed
                assert replacement is not None
                replacement.terminate()
                replacement.wait(30)
        finally:
            await drop_schema(server, schema or "")
    print(f"lease {lease:.0f} s (renewed every {lease / 3:.0f} s); SIGKILL with {left:.1f} s left")
    print(f"replacement connected on both shards {taken:.1f} s after the kill,")
    print(f"after {attempts} start(s) ({attempts - 1} refused while the lease was live);")
    print(f"a refusal says: {refusal}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--lease-seconds", type=float, default=15)
    parser.add_argument("--restart-delay", type=float, default=0.5)
    arguments = parser.parse_args()
    server = os.environ.get("TEST_DATABASE_URL") or DEFAULT_POSTGRES
    print(f"load average {os.getloadavg()[0]:.2f}")
    asyncio.run(measure(arguments.lease_seconds, arguments.restart_delay, server))


if __name__ == "__main__":
    main()
