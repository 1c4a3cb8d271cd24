"""The container tests need a Docker daemon: CI starts one (.ci/run), and without one they
fail there and are skipped elsewhere with the reason, as the PostgreSQL half is."""

from __future__ import annotations

import os
import subprocess
import time

import pytest
from containers import BUILD, FIGURES, IMAGE, ROOT, as_run_here, compose_problem, docker_problem


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "container: builds and runs the Docker image (needs a Docker daemon)"
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.parent.name == "container":
            item.add_marker(pytest.mark.container)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if FIGURES:
        terminalreporter.section("container")
        for line in FIGURES:
            terminalreporter.write_line(line)


def needed(problem: str | None, what: str) -> None:
    """Skip for ``problem``, or fail on CI, where every container test must run."""
    if problem is None:
        return
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{problem}; CI runs the container tests ({what})", pytrace=False)
    pytest.skip(problem)


@pytest.fixture(scope="session")
def docker_daemon() -> None:
    needed(docker_problem(), ".ci/run starts dockerd with the machine's container-base.sh")


@pytest.fixture(scope="session")
def docker_compose() -> None:
    needed(compose_problem(), ".ci/run installs docker-compose")


@pytest.fixture(scope="session")
def image(docker_daemon: None) -> str:
    """The image, built from this checkout by the README's command."""
    started = time.monotonic()
    build = subprocess.run(
        as_run_here(BUILD), cwd=ROOT, capture_output=True, text=True, timeout=900
    )
    seconds = time.monotonic() - started
    if build.returncode != 0:
        pytest.fail(f"{BUILD} failed:\n{build.stdout[-4000:]}\n{build.stderr[-4000:]}")
    size = subprocess.run(
        ["docker", "image", "inspect", "--format", "{{.Size}}", IMAGE],
        capture_output=True,
        text=True,
        check=True,
    )
    FIGURES.append(f"image {IMAGE}: {int(size.stdout) / 1e6:.0f} MB")
    FIGURES.append(f"build ({BUILD}, with --network host): {seconds:.1f} s")
    return IMAGE
