"""The Docker CLI as the container tests use it (tests/container/).

The tests run the README's container commands as they are written there, with the
changes this machine and a test need: ``--network host`` (its Docker daemon has no bridge
network, so containers share the host's) and a unique ``--name`` for every container a
test starts (so a test never touches a container of the person running it), made by
``as_run_here``; and, for a bot that needs Discord, the flags that send it to the fake
Discord and serve its /healthz on a port of the test's (``pointed_at_fake_discord``).
"""

from __future__ import annotations

import asyncio
import os
import secrets
import shlex
import shutil
import socket
import subprocess
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
IMAGE = "tablebot"
# The README's build command; every test of the image uses the image it built.
BUILD = "docker build -t tablebot ."
# Set by .ci/run once CI's machine tool container-base.sh has started dockerd and made the
# base image; elsewhere the tests ask the daemon themselves.
READY_VARIABLE = "TABLEBOT_DOCKER"
FAKE_CA_IN_CONTAINER = "/run/fake-discord-ca.pem"
# Every name the bot reaches Discord by (the resume URL's host included), for /etc/hosts.
DISCORD_NAMES = ("discord.com", "gateway.discord.gg", "gateway-us-east1-b.discord.gg")
# What the tests report at the end of the run (the image's size, each step's time).
FIGURES: list[str] = []


def docker_problem() -> str | None:
    """None if a Docker daemon answers, else one line saying why not."""
    if os.environ.get(READY_VARIABLE) == "ready":
        return None
    if shutil.which("docker") is None:
        return "docker is not installed"
    try:
        probe = subprocess.run(["docker", "info"], capture_output=True, text=True, timeout=30)
    except subprocess.TimeoutExpired:
        return "the Docker daemon did not answer within 30 s"
    if probe.returncode != 0:
        said = (probe.stderr.strip().splitlines() or ["no reason given"])[-1]
        return f"the Docker daemon does not answer ({said})"
    return None


def compose_problem() -> str | None:
    if shutil.which("docker-compose") is None:
        return "docker-compose is not installed (Debian's package docker-compose)"
    return None


def unique(name: str) -> str:
    return f"{name}-test-{secrets.token_hex(4)}"


def as_run_here(command: str, *, name: str | None = None) -> list[str]:
    """A README command as this machine runs it (see the module's docstring): its
    ``--name`` (or a new one, ``name``) and ``--network host`` after ``docker run``."""
    words = shlex.split(command)
    assert words[:1] == ["docker"] and words[1] in ("build", "run"), command
    if "--name" in words:
        assert name is not None, "a test gives every container a name of its own"
        words[words.index("--name") + 1] = name
    elif name is not None:
        words[2:2] = ["--name", name]
    if "--network" not in words:
        words[2:2] = ["--network", "host"]
    return words


def pointed_at_fake_discord(words: list[str], ca_file: Path, health_port: int) -> list[str]:
    """A ``docker run`` whose bot reaches the fake Discord on 127.0.0.1:443 when it asks
    for Discord's names, trusts the fake's certificate authority only, and answers
    /healthz on 127.0.0.1:``health_port``."""
    flags: list[str] = []
    for host in DISCORD_NAMES:
        flags += ["--add-host", f"{host}:127.0.0.1"]
    flags += ["-v", f"{ca_file}:{FAKE_CA_IN_CONTAINER}:ro"]
    flags += ["-e", f"SSL_CERT_FILE={FAKE_CA_IN_CONTAINER}"]
    flags += ["-e", f"METRICS_PORT={health_port}", "-e", "METRICS_HOST=127.0.0.1"]
    return [*words[:2], *flags, *words[2:]]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def replaced(words: list[str], old: str, new: str) -> list[str]:
    """``words`` with ``old`` replaced inside each (a placeholder of the README's)."""
    assert any(old in word for word in words), f"{old!r} is not in {words}"
    return [word.replace(old, new) for word in words]


@dataclass
class Finished:
    returncode: int
    stdout: str
    stderr: str


async def docker(*arguments: str, timeout: float = 120.0, check: bool = True) -> Finished:
    """Run ``docker ARGUMENTS`` without blocking the event loop (the fake Discord runs in
    it); ``check`` fails the test, with what docker said, on a non-zero status."""
    process = await asyncio.create_subprocess_exec(
        "docker",
        *arguments,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        out, err = await asyncio.wait_for(process.communicate(), timeout)
    except TimeoutError:
        process.kill()
        await process.wait()
        raise AssertionError(f"docker {shlex.join(arguments)} took over {timeout} s") from None
    finished = Finished(process.returncode or 0, out.decode(), err.decode())
    if check and finished.returncode != 0:
        raise AssertionError(
            f"docker {shlex.join(arguments)} exited {finished.returncode}:\n{finished.stderr}"
        )
    return finished


async def remove_container(name: str) -> None:
    await docker("rm", "--force", "--volumes", name, check=False)


def uids_of(pid: int) -> set[int]:
    """The real, effective, saved and file-system user ids of a process, as the host's
    kernel knows them."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Uid:"):
            return {int(uid) for uid in line.split()[1:]}
    raise AssertionError(f"/proc/{pid}/status has no Uid line")
