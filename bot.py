"""Entry point: read the settings, open the store, load the cogs, sync commands, run.

`python bot.py` runs the bot; tests build the same bot with `create_bot(**client_kwargs)`
and point it at a local fake Discord, and `python bot.py --playground` runs it against that
emulator with a web page to play in (no token needed).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import secrets
import signal
import sys
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import discord
from discord.ext import commands
from dotenv import load_dotenv

from cogs.archive import Archive
from cogs.discovery import game_cogs
from cogs.host import Host, Interaction
from cogs.language import CatalogueTranslator, private_language
from cogs.league import LeagueCog
from cogs.luck import DiceLuckReport
from cogs.member_data import MemberDataCog
from cogs.puzzles import PuzzlesCog
from cogs.render_pool import RenderPool
from cogs.review_pool import ReviewPool
from cogs.reviews import ReviewFigures, ReviewsCog
from cogs.scheduler import Scheduler, SystemTime, TimeSource
from cogs.settings import ServerSettings
from cogs.table.components import UNRECOGNISED, TableCommandTree, is_routed
from cogs.table.deadlines import Deadlines
from cogs.table.machinery import TableMachinery
from cogs.timeouts import TimeoutsCog
from cogs.tournament import TournamentCog
from cogs.unretried import refusal_trace
from data import DatabaseInUse, DatabaseLock, DatabaseUnavailable, Store, claim_database
from data.league import League
from data.lessons import LessonBook
from data.location import database_from_env
from data.members import MemberData
from data.settings import SettingsStore
from data.sql import is_postgres_url
from monitoring import Monitor, port_from_env
from shards import ShardLease, ShardPlan, ShardsTaken, plan_from_env
from texts.i18n import t

log = logging.getLogger("tablebot")

T = TypeVar("T")

DEFAULT_RENDER_PROCESSES = 2
DEFAULT_DATABASE_POOL_SIZE = 20
"""PostgreSQL connections a process keeps at most. Under load a call holds its connection
until the event loop gets back to its caller, so with 40 games moving at once 10 left
moves waiting for a connection most of a call's time: 10, 20 and 30 side by side made
0.73, 0.87 and 0.97 of SQLite's moves per second (bench/bench_scale.py). 20 keeps four
processes at 80, within PostgreSQL's default limit of 100 connections."""
DEFAULT_REVIEW_PROCESSES = 1


class SettingsError(Exception):
    """A setting is missing or malformed; the message says what to set."""


class TableBot(Host):
    """The game bot: one store, the table machinery, its features and one cog per game,
    each built here with the partners it uses."""

    def __init__(
        self,
        *,
        database_path: str,
        dev_guild_id: int | None,
        seed_source: Callable[[], int] | None = None,
        shard_plan: ShardPlan | None = None,
        metrics_port: int | None = None,
        database_lock: DatabaseLock | None = None,
        render_processes: int = 0,
        review_processes: int = 0,
        clock: TimeSource | None = None,
        rules_url: str | None = None,
        **client_kwargs: Any,
    ) -> None:
        if shard_plan is not None:
            client_kwargs |= {"shard_count": shard_plan.count, "shard_ids": list(shard_plan.ids)}
        # Only servers and their channels (for permissions and threads): commands and
        # clicks arrive as interactions whatever the intents, and the bot reads no
        # messages, so message events (a create, an update and a delete per move, each
        # parsed into a Message) would only cost CPU under load.
        client_kwargs.setdefault("intents", discord.Intents(guilds=True))
        client_kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
        # Everything the bot needs is in its database and in each interaction; a cache of
        # the last thousand messages would only cost memory and parsing.
        client_kwargs.setdefault("max_messages", None)
        # Lets a board's requests fail at Discord's first 429 instead of sleeping it out
        # under the table's lock (cogs/unretried.py).
        client_kwargs.setdefault("http_trace", refusal_trace())
        super().__init__(
            command_prefix=commands.when_mentioned, tree_cls=TableCommandTree, **client_kwargs
        )
        self.database_path = database_path
        self.dev_guild_id = dev_guild_id
        self.store: Store | None = None
        self._database_lock = database_lock
        self._closing_store = asyncio.Lock()
        # 63 bits: as many as the seed column's signed 64-bit integer holds, so guessing
        # a seed from its published SHA-256 commitment is out of reach.
        self.seed_source = seed_source or (lambda: secrets.randbits(63))
        self.time: TimeSource = clock or SystemTime()
        self.shard_plan = shard_plan
        self.shard_lease: ShardLease | None = None
        self.metrics_port = metrics_port
        self.monitor: Monitor | None = None
        self.render_processes = render_processes
        self.review_processes = review_processes
        self.rules_url = rules_url

    def claim_database(self) -> None:
        """Hold an SQLite file for this process (DatabaseInUse if another bot has it).
        PostgreSQL serves several processes; their shard leases keep them apart."""
        if self._database_lock is None and not is_postgres_url(self.database_path):
            self._database_lock = claim_database(self.database_path)

    async def setup_hook(self) -> None:
        self.claim_database()
        self.store = await Store.open(self.database_path, pool_size=_pool_size_from_env())
        if self.shard_plan is not None:
            await self._claim_shards(self.shard_plan, self.store)
        if self.metrics_port is not None:
            await self._start_monitor(self.metrics_port, self.store)
        await self._add_cogs(self.store)
        await self.tree.set_translator(CatalogueTranslator())
        if self.shard_plan is None or self.shard_plan.syncs_commands:
            await self._sync_commands()
        log.info(
            "ready to host games; %d unfinished in the %s database",
            await self.store.count_unfinished(),
            self.store.dialect,
        )
        settle_garbage_collector()

    async def _add_cogs(self, store: Store) -> None:
        """Build every part once, each given the partners it uses, and load the cogs."""
        self.settings = SettingsStore(store)
        league = League(store)
        luck = DiceLuckReport(store, league)
        scheduler = Scheduler(self.time, store.next_due)
        deadlines = Deadlines(self.settings, self.time, scheduler.poke)
        self.league = LeagueCog(self, league, luck, ReviewFigures(store, league))
        self.tables = TableMachinery(
            self,
            store,
            seed_source=self.seed_source,
            renderer=RenderPool(self.render_processes),
            deadlines=deadlines,
            recorder=self.league,
            rating=self.league,
        )
        tables = self.tables
        await self.add_cog(tables.commands)
        self.clocks = TimeoutsCog(
            self,
            store,
            scheduler,
            deadlines,
            tables.memory,
            tables.keeper,
            tables.pipeline,
            tables.results,
            tables.delivery,
            tables.spectators,
        )
        await self.add_cog(self.clocks)
        await self.add_cog(ServerSettings(self, self.settings, league))
        await self.add_cog(Archive(self, store, tables.commands.game))
        reviews = ReviewPool(self.review_processes)
        await self.add_cog(ReviewsCog(self, store, tables.commands.game, reviews))
        await self.add_cog(self.league)
        for cog_class in game_cogs():
            await self.add_cog(tables.game_cog(cog_class))
        # After the games' cogs: it adds `/<game> puzzle` to their groups.
        await self.add_cog(PuzzlesCog(self, store, reviews))
        await self.add_cog(MemberDataCog(self, MemberData(store), luck, LessonBook(store)))
        await self.add_cog(
            TournamentCog(
                self,
                store,
                tables,
                league,
                self.league,
                self.settings,
                self.time,
                self.seed_source,
            )
        )

    async def _start_monitor(self, port: int, store: Store) -> None:
        host = os.environ.get("METRICS_HOST", "127.0.0.1")
        self.monitor = Monitor(self, store)
        try:
            await self.monitor.start(port, host)
        except OSError as problem:
            raise SettingsError(
                f"METRICS_PORT {port} on {host} cannot be used ({problem.strerror or problem}):"
                " choose a free port, or leave METRICS_PORT unset."
            ) from None

    async def _claim_shards(self, plan: ShardPlan, store: Store) -> None:
        """Hold this process's shards in the database, or refuse to start."""
        if store.dialect != "postgresql":
            if plan.is_partial:
                raise ShardsTaken(
                    f"SHARD_IDS runs only {plan.describe()}: processes sharing the bot's "
                    "shards need DATABASE_URL=postgresql://… (SQLite serves one process)."
                )
            return
        self.shard_lease = await ShardLease.acquire(store, plan, on_lost=self._shards_lost)

    def _shards_lost(self) -> None:
        """Another process took this one's shards: stop, rather than answer twice."""
        self._closing_on_loss = asyncio.ensure_future(self.close())

    async def on_interaction(self, interaction: Interaction) -> None:
        """Refuse a component click that no handler will answer (a forged custom_id)."""
        if interaction.type is not discord.InteractionType.component:
            return
        if not is_routed(interaction, self.click_items()):
            text = t(private_language(interaction), UNRECOGNISED)
            await interaction.response.send_message(text, ephemeral=True)

    async def _sync_commands(self) -> None:
        if self.dev_guild_id is None:
            await self.tree.sync()
            return
        guild = discord.Object(self.dev_guild_id)
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)

    async def close(self) -> None:
        """Close the gateway, then the database; safe to call more than once at a time."""
        await super().close()
        async with self._closing_store:
            if self.monitor is not None:
                await self.monitor.stop()
                self.monitor = None
            if self.shard_lease is not None:
                await self.shard_lease.release()
                self.shard_lease = None
            if self.store is not None:
                await self.store.close()
                self.store = None
                log.info("database closed")
            if self._database_lock is not None:
                self._database_lock.release()
                self._database_lock = None


class ShardedTableBot(TableBot, commands.AutoShardedBot):
    """The game bot on some or all shards of a sharded bot (SHARD_COUNT, SHARD_IDS)."""


def create_bot(
    *,
    database_path: str | None = None,
    dev_guild_id: int | None = None,
    seed_source: Callable[[], int] | None = None,
    clock: TimeSource | None = None,
    shard_plan: ShardPlan | None = None,
    metrics_port: int | None = None,
    render_processes: int | None = None,
    review_processes: int | None = None,
    rules_url: str | None = None,
    **client_kwargs: Any,
) -> TableBot:
    """The configured bot. Settings not passed come from the environment (.env).

    ``database_path`` is an SQLite file or a ``postgresql://`` URL. ``seed_source`` gives
    each new game its random seed (tests pass a fixed sequence). ``metrics_port`` serves
    /healthz and /metrics there (0: any free port); none by default (METRICS_PORT).
    ``render_processes`` draw the boards (RENDER_PROCESSES, default 2; 0 draws in a thread).
    ``review_processes`` work out game reviews (REVIEW_PROCESSES, default 1; 0: a thread).
    ``clock`` tells the time to the turn clocks (tests pass one they move by hand).
    ``rules_url`` is the web address of the rule books' folder (RULES_URL; none: the rules
    say where the page is in the source).
    """
    plan = shard_plan if shard_plan is not None else _shard_plan_from_env()
    bot_class = TableBot if plan is None else ShardedTableBot
    return bot_class(
        database_path=database_path or database_from_env(),
        dev_guild_id=dev_guild_id if dev_guild_id is not None else _dev_guild_from_env(),
        seed_source=seed_source,
        clock=clock,
        shard_plan=plan,
        metrics_port=metrics_port if metrics_port is not None else _metrics_port_from_env(),
        render_processes=(
            render_processes if render_processes is not None else _render_processes_from_env()
        ),
        review_processes=(
            review_processes
            if review_processes is not None
            else _processes_from_env("REVIEW_PROCESSES", DEFAULT_REVIEW_PROCESSES)
        ),
        rules_url=rules_url if rules_url is not None else _rules_url_from_env(),
        **client_kwargs,
    )


def _pool_size_from_env() -> int:
    raw = os.environ.get("DATABASE_POOL_SIZE", "").strip() or str(DEFAULT_DATABASE_POOL_SIZE)
    if not raw.isdigit() or int(raw) < 1:
        raise SettingsError(f"DATABASE_POOL_SIZE must be a whole number above 0, not {raw!r}.")
    return int(raw)


def _render_processes_from_env() -> int:
    return _processes_from_env("RENDER_PROCESSES", DEFAULT_RENDER_PROCESSES)


def _processes_from_env(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip() or str(default)
    if not (raw.isascii() and raw.isdigit()):
        raise SettingsError(f"{name} must be a whole number (0: none), not {raw!r}.")
    return int(raw)


def _rules_url_from_env() -> str | None:
    raw = os.environ.get("RULES_URL", "").strip()
    if not raw:
        return None
    if not raw.startswith(("https://", "http://")) or any(char.isspace() for char in raw):
        raise SettingsError(f"RULES_URL must be a web address (https://…), not {raw!r}.")
    return raw


def _metrics_port_from_env() -> int | None:
    try:
        return port_from_env()
    except ValueError as problem:
        raise SettingsError(str(problem)) from None


def _shard_plan_from_env() -> ShardPlan | None:
    try:
        return plan_from_env()
    except ValueError as problem:
        raise SettingsError(str(problem)) from None


def _dev_guild_from_env() -> int | None:
    raw = os.environ.get("DEV_GUILD_ID", "").strip()
    if not raw:
        return None
    if not (raw.isascii() and raw.isdigit()):
        raise SettingsError(f"DEV_GUILD_ID must be a server id (digits only), not {raw!r}.")
    return int(raw)


def _token_from_env() -> str:
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise SettingsError(
            "DISCORD_TOKEN is not set: copy .env.example to .env and paste your bot's token "
            "(Discord Developer Portal → your application → Bot → Reset Token)."
        )
    return token


async def serve(bot: TableBot, token: str) -> None:
    """Run ``bot`` until it is closed; SIGINT and SIGTERM close it (and its database)."""
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, lambda: asyncio.ensure_future(bot.close()))
    try:
        async with bot:
            await bot.start(token)
        # A signal's close may still be closing the database: wait for that to finish.
        await bot.close()
    finally:
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(signum)


async def _run(token: str) -> None:
    # Claimed before the client exists, so a second copy stops with nothing else said.
    target = database_from_env()
    lock = None if is_postgres_url(target) else claim_database(target)
    # Before Discord is contacted, so an unreachable server or a database a newer
    # release has upgraded stops the bot with one line rather than a traceback after
    # logging in. PostgreSQL is opened (and migrated) once; the SQLite file, which only
    # this process opens, is migrated when the bot starts.
    if is_postgres_url(target):
        await (await Store.open(target, pool_size=1)).close()
    else:
        await Store.check_schema(target)
    await serve(create_bot(database_path=target, database_lock=lock), token)


def settle_garbage_collector() -> None:
    """At the end of start-up: what is loaded by now (discord.py, Pillow, the catalogues,
    the command tree) lives as long as the process, and is kept out of the collector's
    full passes, which otherwise walk it all and stalled the event loop for 100 ms and
    more under load."""
    gc.freeze()


def run_event_loop(main: Coroutine[Any, Any, T]) -> T:
    """Run ``main`` on uvloop where it is installed (not on Windows), else on asyncio's
    own loop. Under load (bench/bench_load.py) uvloop's sockets, TLS and scheduling cost
    the bot markedly less CPU per move, so acknowledgements and boards wait less."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(main)


def main(argv: list[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else argv
    if arguments[:1] == ["--playground"]:
        import playground

        return playground.main(create_bot, arguments[1:])
    load_dotenv()
    level = os.environ.get("LOG_LEVEL", "INFO").upper()
    discord.utils.setup_logging(level=getattr(logging, level, logging.INFO), root=True)
    try:
        run_event_loop(_run(_token_from_env()))
    except (SettingsError, DatabaseInUse, DatabaseUnavailable, ShardsTaken) as problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    except discord.LoginFailure:
        print(
            "error: Discord rejected DISCORD_TOKEN: set the token of your bot "
            "(Developer Portal → Bot → Reset Token) in .env.",
            file=sys.stderr,
        )
        return 2
    except discord.PrivilegedIntentsRequired:
        print("error: the bot asked for an intent that is not enabled.", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
