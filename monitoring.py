"""`/healthz` and a Prometheus `/metrics` endpoint for a running bot (off by default).

``METRICS_PORT`` turns them on (``METRICS_HOST`` picks the address, 127.0.0.1 unless
set; a container sets 0.0.0.0). ``/healthz`` answers 200 ``ok`` while the bot is
connected and its database answers, 503 with the reason otherwise. ``/metrics`` counts
interactions, moves and errors, times interaction acknowledgements and database calls,
and shows the open games.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from typing import Any

import discord
from aiohttp import web
from discord.ext import commands
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

from data import Store

log = logging.getLogger("tablebot.monitoring")

OPEN_GAMES_EVERY = 10.0
ACK_DEADLINE = 3.0
ACK_POLL = 0.005
HEALTH_TIMEOUT = 2.0
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
DATABASE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)


def port_from_env() -> int | None:
    raw = os.environ.get("METRICS_PORT", "").strip()
    if not raw:
        return None
    if not raw.isdigit() or int(raw) > 65535:
        raise ValueError(f"METRICS_PORT must be a port number, not {raw!r}.")
    return int(raw)


class Metrics:
    """The bot's Prometheus metrics, in a registry of their own."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.interactions = Counter(
            "tablebot_interactions", "Interactions received", ["type"], registry=self.registry
        )
        self.moves = Counter(
            "tablebot_moves", "Actions appended to game logs", registry=self.registry
        )
        self.errors = Counter(
            "tablebot_errors", "ERROR log records", ["logger"], registry=self.registry
        )
        self.ack_seconds = Histogram(
            "tablebot_interaction_ack_seconds",
            "From an interaction's creation to the bot's acknowledgement",
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.database_seconds = Histogram(
            "tablebot_database_seconds",
            "Duration of database calls and transactions",
            ["operation"],
            buckets=DATABASE_BUCKETS,
            registry=self.registry,
        )
        self.open_games = Gauge(
            "tablebot_open_games", "Lobbies and running games", registry=self.registry
        )


class _ErrorCounter(logging.Handler):
    def __init__(self, metrics: Metrics) -> None:
        super().__init__(level=logging.ERROR)
        self.metrics = metrics

    def emit(self, record: logging.LogRecord) -> None:
        self.metrics.errors.labels(record.name.split(".")[0]).inc()


class Monitor:
    """Feeds the metrics from the bot and its store, and serves both endpoints."""

    def __init__(self, bot: commands.Bot, store: Store) -> None:
        self.bot = bot
        self.store = store
        self.metrics = Metrics()
        self._errors = _ErrorCounter(self.metrics)
        self._runner: web.AppRunner | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.port: int | None = None

    async def start(self, port: int, host: str = "127.0.0.1") -> None:
        self.store.db.observer = self._database_call
        self.store.moves_observer = self.metrics.moves.inc
        for name in ("discord", "tablebot"):
            logging.getLogger(name).addHandler(self._errors)
        self.bot.add_listener(self._on_interaction, "on_interaction")
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/metrics", self._metrics)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        self.port = self._runner.addresses[0][1]
        self._spawn(self._count_open_games(), "open games")
        log.info("health and metrics on http://%s:%d/healthz and /metrics", host, self.port)

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for name in ("discord", "tablebot"):
            logging.getLogger(name).removeHandler(self._errors)
        self.bot.remove_listener(self._on_interaction, "on_interaction")
        self.store.db.observer = None
        self.store.moves_observer = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def _spawn(self, coroutine: Any, name: str) -> None:
        task = asyncio.get_running_loop().create_task(coroutine, name=f"monitor: {name}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _database_call(self, operation: str, seconds: float) -> None:
        self.metrics.database_seconds.labels(operation).observe(seconds)

    async def _on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        self.metrics.interactions.labels(interaction.type.name).inc()
        self._spawn(self._time_acknowledgement(interaction), "ack timer")

    async def _time_acknowledgement(self, interaction: discord.Interaction[Any]) -> None:
        created = interaction.created_at.timestamp()
        while time.time() - created < ACK_DEADLINE:
            if interaction.response.is_done():
                self.metrics.ack_seconds.observe(max(time.time() - created, 0.0))
                return
            await asyncio.sleep(ACK_POLL)
        self.metrics.ack_seconds.observe(ACK_DEADLINE)

    async def _count_open_games(self) -> None:
        while True:
            try:
                self.metrics.open_games.set(await self.store.count_unfinished())
            except Exception as problem:
                log.warning("could not count open games: %s", problem)
            await asyncio.sleep(OPEN_GAMES_EVERY)

    async def _healthz(self, request: web.Request) -> web.Response:
        if not self.bot.is_ready() or self.bot.is_closed():
            return web.Response(status=503, text="not connected to Discord")
        try:
            await asyncio.wait_for(self.store.db.fetchval("SELECT 1"), timeout=HEALTH_TIMEOUT)
        except TimeoutError:
            return web.Response(
                status=503, text=f"database did not answer within {HEALTH_TIMEOUT:g} s"
            )
        except Exception as problem:
            return web.Response(status=503, text=f"database unavailable: {problem}")
        return web.Response(text="ok")

    async def _metrics(self, request: web.Request) -> web.Response:
        body = generate_latest(self.metrics.registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})
