"""Entry point: read the settings, open the store, load the cogs, sync commands, run.

`python bot.py` runs the bot; tests build the same bot with `create_bot(**client_kwargs)`
and point it at a local fake Discord, and `python bot.py --playground` runs it against that
emulator with a web page to play in (no token needed).
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import signal
import sys
from collections.abc import Callable
from typing import Any

import discord
from discord.ext import commands
from dotenv import load_dotenv

from cogs import game_cogs
from cogs.archive import Archive, ReplayPicker
from cogs.host import Host
from cogs.league import LeagueCog, LeaguePageButton
from cogs.table import UNRECOGNISED, TableButton, Tables, TableSelect, is_routed
from data import DatabaseInUse, DatabaseLock, Store, claim_database

log = logging.getLogger("tablebot")

DEFAULT_DATABASE = "tablebot.sqlite3"
DYNAMIC_ITEMS = (TableButton, TableSelect, LeaguePageButton, ReplayPicker)


class SettingsError(Exception):
    """A setting is missing or malformed; the message says what to set."""


class TableBot(Host):
    """The game bot: one store, the shared Tables cog and one cog per game."""

    def __init__(
        self,
        *,
        database_path: str,
        dev_guild_id: int | None,
        seed_source: Callable[[], int] | None = None,
        database_lock: DatabaseLock | None = None,
        **client_kwargs: Any,
    ) -> None:
        client_kwargs.setdefault("intents", discord.Intents.default())
        client_kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
        super().__init__(command_prefix=commands.when_mentioned, **client_kwargs)
        self.database_path = database_path
        self.dev_guild_id = dev_guild_id
        self.store: Store | None = None
        self._database_lock = database_lock
        self._closing_store = asyncio.Lock()
        # 63 bits: as many as the seed column's signed 64-bit integer holds, so guessing
        # a seed from its published SHA-256 commitment is out of reach.
        self.seed_source = seed_source or (lambda: secrets.randbits(63))

    def claim_database(self) -> None:
        """Hold the database for this process (DatabaseInUse if another bot has it)."""
        if self._database_lock is None:
            self._database_lock = claim_database(self.database_path)

    async def setup_hook(self) -> None:
        self.claim_database()
        self.store = await Store.open(self.database_path)
        self.tables = Tables(self, self.store, self.seed_source)
        self.league = LeagueCog(self, self.store)
        self.archive = Archive(self, self.store)
        await self.add_cog(self.tables)
        await self.add_cog(self.archive)
        await self.add_cog(self.league)
        for cog_class in game_cogs():
            await self.add_cog(cog_class(self))
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        await self._sync_commands()
        log.info(
            "ready to host games; %d unfinished in %s",
            await self.store.count_unfinished(),
            self.database_path,
        )

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Refuse a component click that no handler will answer (a forged custom_id)."""
        if interaction.type is not discord.InteractionType.component:
            return
        if not is_routed(interaction, DYNAMIC_ITEMS):
            await interaction.response.send_message(UNRECOGNISED, ephemeral=True)

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
            if self.store is not None:
                await self.store.close()
                self.store = None
                log.info("database closed")
            if self._database_lock is not None:
                self._database_lock.release()
                self._database_lock = None


def create_bot(
    *,
    database_path: str | None = None,
    dev_guild_id: int | None = None,
    seed_source: Callable[[], int] | None = None,
    **client_kwargs: Any,
) -> TableBot:
    """The configured bot. Settings not passed come from the environment (.env).

    ``seed_source`` gives each new game its random seed (tests pass a fixed sequence).
    """
    return TableBot(
        database_path=database_path or os.environ.get("DATABASE_PATH") or DEFAULT_DATABASE,
        dev_guild_id=dev_guild_id if dev_guild_id is not None else _dev_guild_from_env(),
        seed_source=seed_source,
        **client_kwargs,
    )


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
    path = os.environ.get("DATABASE_PATH") or DEFAULT_DATABASE
    lock = claim_database(path)
    await serve(create_bot(database_path=path, database_lock=lock), token)


def main(argv: list[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else argv
    if arguments[:1] == ["--playground"]:
        import playground

        return playground.main(create_bot, arguments[1:])
    load_dotenv()
    level = os.environ.get("LOG_LEVEL", "INFO").upper()
    discord.utils.setup_logging(level=getattr(logging, level, logging.INFO), root=True)
    try:
        asyncio.run(_run(_token_from_env()))
    except (SettingsError, DatabaseInUse) as problem:
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
