"""FakeDiscord: an HTTPS REST v10 + gateway server on 127.0.0.1 that a real discord.py bot uses.

The server composes its parts: the routes (rest_application, rest_channels, interactions,
assembled by routes), the request gate with the injected faults (faults), the message
ledger (ledger) and the gateway (gateway)."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable
from typing import Any

import aiohttp
import discord
from aiohttp import web

from . import validation
from .commands import CommandRegistry
from .edit_budget import OldMessageEdits
from .faults import RecordedAnswer, RecordedRequest, RequestGate
from .gateway import Gateway, parsed_sequence, ready_payload
from .interactions import InteractionRoutes, interaction_payload
from .ledger import MessageLedger
from .messages import Upload
from .model import BotUser, Channel, Guild, Message, SnowflakeFactory
from .rest_application import ApplicationRoutes
from .rest_channels import ChannelRoutes
from .routes import add_routes
from .tls import make_connector, server_ssl_context
from .users import InteractionRecord, Result, SimUser

BUSY_TASK_PREFIXES = ("discord-ui", "CommandTree", "discord.py: on_", "table:")
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024


class FakeDiscord:
    """The fake service. Use as `async with FakeDiscord() as fake:` or start()/close()."""

    def __init__(self, *, bot_name: str = "TableBot", port: int = 0) -> None:
        """``port`` 0 picks a free one; 443 serves a bot that resolves Discord's host names
        to 127.0.0.1 by itself (a bot in a container, told so by its /etc/hosts)."""
        # Discord's time, in seconds since the epoch: a test may hand the fake the bot's
        # clock, so that message ages (snowflakes, the edit budget) follow the bot's hours.
        self.clock: Callable[[], float] = time.time
        # How long an interaction's work may take before a test calls the bot stuck; a
        # test of deliberately long work (a computer game played for a puzzle) raises it.
        self.idle_timeout = 10.0
        self.ids = SnowflakeFactory(lambda: self.clock())
        self.old_message_edits = OldMessageEdits(lambda: self.clock())
        self.application_id = self.ids.next()
        self.bot_user = BotUser(self.application_id, bot_name)
        self.guilds: list[Guild] = []
        self.users: list[SimUser] = []
        self._user_ids: set[int] = set()
        self.commands = CommandRegistry(self.application_id, self.ids.next)
        self.interactions: dict[int, InteractionRecord] = {}
        self._interactions_by_token: dict[str, InteractionRecord] = {}
        self._unanswered: list[InteractionRecord] = []
        self.requests: list[RecordedRequest] = []
        self.message_log: list[Message] = []
        self.internal_errors: list[str] = []
        # What interactions report as `attachment_size_limit`; larger uploads get 413.
        self.attachment_size_limit = ATTACHMENT_SIZE_LIMIT
        self.ack_deadline = 3.0
        # An interaction's token answers follow-ups and edits this long (Discord: 15 min).
        self.token_lifetime = 900.0
        self.port = 0
        self._listen_port = port
        self._dm_channels: dict[int, Channel] = {}
        self._gate = RequestGate(self.requests, self.internal_errors)
        self._ledger = MessageLedger(
            new_id=self.ids.next,
            bot_user=self.bot_user,
            log=self.message_log,
            known_user_ids=self._user_ids,
            unanswered=self._unanswered,
            upload_limit=lambda: self.attachment_size_limit,
            dispatch_soon=self._dispatch_soon,
        )
        self._pending_dispatches: set[asyncio.Task[None]] = set()
        self._bots: dict[discord.Client, asyncio.Task[None]] = {}
        self._runner: web.AppRunner | None = None
        self.gateway = Gateway(
            ready_payload=self._ready_payload,
            guild_payloads=lambda: [g.create_payload(self.bot_user) for g in self.guilds],
            members_chunk=self._members_chunk,
            parsed_sequence=lambda session_id: parsed_sequence(self._bots, session_id),
            bot_user_id=self.bot_user.id,
        )

    # ---- lifecycle -------------------------------------------------------------------------

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def start(self) -> None:
        app = web.Application(middlewares=[self._gate.middleware], client_max_size=64 * 1024 * 1024)
        add_routes(
            app,
            application=ApplicationRoutes(self, self._dm_channels),
            channels=ChannelRoutes(self),
            interactions=InteractionRoutes(self),
            gateway=self.gateway,
        )
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(
            self._runner, "127.0.0.1", self._listen_port, ssl_context=server_ssl_context()
        )
        await site.start()
        self.port = self._runner.addresses[0][1]

    async def close(self) -> None:
        for bot in list(self._bots):
            await self.stop_bot(bot)
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def connector(self) -> aiohttp.TCPConnector:
        """A new connector that sends discord.com & co. here; pass it as Bot(connector=...)."""
        if not self.port:
            raise RuntimeError("start the FakeDiscord before asking for a connector")
        return make_connector(self.port)

    async def start_bot(
        self, bot: discord.Client, *, token: str = "fake-token", timeout: float = 10.0
    ) -> discord.Client:
        """Run bot.start(token) and return once it is ready and idle (setup_hook, sync done)."""
        runner = asyncio.create_task(bot.start(token), name="fakediscord: bot runner")
        self._bots[bot] = runner
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not bot.is_ready():
            if runner.done():
                del self._bots[bot]
                raise AssertionError("the bot stopped before it was ready") from runner.exception()
            if loop.time() > deadline:
                raise AssertionError(f"the bot was not ready after {timeout} s")
            await asyncio.sleep(0.002)
        await self.wait_until_idle(timeout)
        return bot

    async def stop_bot(self, bot: discord.Client) -> None:
        runner = self._bots.pop(bot)
        await bot.close()
        await runner

    async def reconnect_gateways(self) -> None:
        """Send op 7 RECONNECT and wait until every bot has RESUMEd."""
        resumed_before = self.gateway.resume_count
        expected = len(self.gateway.ready_connections)
        await self.gateway.request_reconnect()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 10
        while self.gateway.resume_count < resumed_before + expected:
            if loop.time() > deadline:
                raise AssertionError("bots did not RESUME after op 7 RECONNECT")
            await asyncio.sleep(0.002)
        await self.wait_until_idle()

    # ---- model -------------------------------------------------------------------------------

    def add_guild(self, name: str, *, guild_id: int | None = None) -> Guild:
        guild = Guild(
            guild_id or self.ids.next(),
            name,
            new_id=self.ids.next,
            on_channel_change=self._channel_changed,
        )
        self.guilds.append(guild)
        self._dispatch_soon("GUILD_CREATE", guild.create_payload(self.bot_user))
        return guild

    def add_user(
        self,
        name: str,
        *,
        guild: Guild | None = None,
        dms_open: bool = True,
        user_id: int | None = None,
    ) -> SimUser:
        user = SimUser(self, user_id or self.ids.next(), name, dms_open=dms_open)
        self.users.append(user)
        self._user_ids.add(user.id)
        if guild is not None:
            guild.members.append(user)
            member = user.member_payload() | {"guild_id": str(guild.id)}
            self._dispatch_soon("GUILD_MEMBER_ADD", member)
        return user

    def listen_to_answers(self, on_answer: Callable[[RecordedAnswer], None]) -> None:
        """Call `on_answer(answer)` with every REST answer the fake gives (the CDN's files
        and the gateway are not REST)."""
        self._gate.answer_listeners.append(on_answer)

    def watch(self, on_change: Callable[[Message], None]) -> None:
        """Call `on_change(message)` after every message is created, edited or deleted."""
        self._ledger.watch(on_change)

    def user_by_id(self, user_id: int) -> SimUser:
        for user in self.users:
            if user.id == user_id:
                return user
        raise validation.unknown("User", 10013)

    def dm_channel_of(self, user: SimUser) -> Channel | None:
        return self._dm_channels.get(user.id)

    def channel_by_id(self, channel_id: int) -> Channel:
        for guild in self.guilds:
            for channel in [*guild.channels, *guild.threads]:
                if channel.id == channel_id:
                    return channel
        for channel in self._dm_channels.values():
            if channel.id == channel_id:
                return channel
        raise validation.unknown("Channel", 10003)

    def guild_by_id(self, guild_id: int) -> Guild:
        for guild in self.guilds:
            if guild.id == guild_id:
                return guild
        raise validation.unknown("Guild", 10004)

    def rate_limit(
        self,
        method: str,
        route: str,
        *,
        count: int = 1,
        retry_after: float = 0.01,
        is_global: bool = False,
    ) -> None:
        """Answer the next `count` requests to e.g. ("POST", "/channels/{channel_id}/messages")
        with 429 and `retry_after`. Route templates use discord.py's parameter names."""
        self._gate.rate_limit(
            method, route, count=count, retry_after=retry_after, is_global=is_global
        )

    def fail(
        self,
        method: str,
        route: str,
        *,
        status: int = 503,
        code: int = 0,
        count: int = 1,
        message: str = "injected fault",
    ) -> None:
        """Answer the next `count` requests to the route with `status` and Discord error
        `code` (count=0 lifts the fault).

        Faults the tests need: 503 reaches discord.py as DiscordServerError at once, just
        as 500 does after its five retries (about 25 s of sleeps); 403 with 50013 is a
        missing permission, 404 with 10003 a deleted channel and with 10008 a deleted
        message. On an interaction's webhook routes it fails the bot's reply."""
        self._gate.fail(method, route, status=status, code=code, count=count, message=message)

    def delete_message(self, message: Message) -> None:
        """Delete ``message`` as a moderator would (the bot gets MESSAGE_DELETE)."""
        self._delete(message)

    # ---- waiting for the bot -----------------------------------------------------------------

    def busy_reasons(self) -> list[str]:
        current = asyncio.current_task()
        reasons = [
            f"task {task.get_name()!r}"
            for task in asyncio.all_tasks()
            if task is not current
            and not task.done()
            and task.get_name().startswith(BUSY_TASK_PREFIXES)
        ]
        if self._gate.in_flight:
            reasons.append(f"{self._gate.in_flight} REST request(s) in flight")
        if self._pending_dispatches:
            reasons.append(f"{len(self._pending_dispatches)} gateway dispatch(es) pending")
        return reasons

    async def wait_until_idle(self, timeout: float | None = None) -> None:
        """Return once no bot task, REST request or gateway dispatch is in progress
        (within ``timeout`` seconds, by default ``idle_timeout``)."""
        timeout = self.idle_timeout if timeout is None else timeout
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while reasons := self.busy_reasons():
            if loop.time() > deadline:
                raise AssertionError(f"the bot was still busy after {timeout} s: {reasons}")
            await asyncio.sleep(0.002)

    async def run_interaction(
        self,
        *,
        user: SimUser,
        channel: Channel,
        kind: int,
        data: dict[str, Any],
        label: str,
        source: Message | None,
    ) -> Result:
        """Dispatch an INTERACTION_CREATE, wait for the bot, check it was acknowledged."""
        await self.wait_until_idle()
        log_start = len(self.message_log)
        record = await self.dispatch_interaction(
            user=user, channel=channel, kind=kind, data=data, label=label, source=source
        )
        await self.wait_until_idle()
        if record.response_type is None:
            raise AssertionError(f"interaction {label} was never acknowledged")
        new_messages = self.message_log[log_start:]
        message = record.original
        if message is not None and message.deleted and record.followups:
            message = record.followups[0]
        return Result(
            response_type=record.response_type,
            message=message,
            followups=list(record.followups),
            ephemeral=[m for m in new_messages if m.ephemeral_for == user.id],
            new_messages=new_messages,
            choices=list(record.choices),
        )

    async def dispatch_interaction(
        self,
        *,
        user: SimUser,
        channel: Channel,
        kind: int,
        data: dict[str, Any],
        label: str,
        source: Message | None,
    ) -> InteractionRecord:
        """Send an INTERACTION_CREATE and return as soon as the bot has parsed it."""
        record = InteractionRecord(
            id=self.ids.next(),
            token=secrets.token_hex(24),
            kind=kind,
            user=user,
            channel=channel,
            label=label,
            source=source,
            created_at=asyncio.get_running_loop().time(),
        )
        self.interactions[record.id] = record
        self._interactions_by_token[record.token] = record
        self._unanswered.append(record)
        payload = interaction_payload(
            record,
            data,
            application_id=self.application_id,
            bot_user_id=self.bot_user.id,
            attachment_size_limit=self.attachment_size_limit,
        )
        await self.gateway.dispatch("INTERACTION_CREATE", payload)
        return record

    async def post_user_message(self, user: SimUser, channel: Channel, content: str) -> Message:
        message = self._ledger.add_user_message(user, channel, content)
        payload = message.payload()
        if channel.guild is not None:
            member = user.member_payload()
            del member["user"]
            payload["member"] = member
        await self.wait_until_idle()
        await self.gateway.dispatch("MESSAGE_CREATE", payload)
        await self.wait_until_idle()
        return message

    def earlier_bot_message(self, channel: Channel, body: dict[str, Any]) -> Message:
        """A message the bot posted before this fake started, as Discord keeps it while the
        bot restarts (or its database is moved or upgraded): ``body`` as the bot sent it."""
        return self._create_message(channel, body, {})

    # ---- gateway support ---------------------------------------------------------------------

    def _ready_payload(self, session_id: str) -> dict[str, Any]:
        return ready_payload(
            session_id,
            bot_user=self.bot_user.own_payload(),
            guild_ids=[guild.id for guild in self.guilds],
            application_id=self.application_id,
        )

    def _members_chunk(self, guild_id: int) -> list[dict[str, Any]]:
        return [member.member_payload() for member in self.guild_by_id(guild_id).members]

    def _channel_changed(self, channel: Channel, event: str) -> None:
        self._dispatch_soon(event, channel.payload(self.bot_user.id))

    def _dispatch_soon(self, event: str, payload: dict[str, Any]) -> None:
        """Send an event without blocking the caller; wait_until_idle waits for it."""
        if not self.gateway.ready_connections:
            return
        task = asyncio.get_running_loop().create_task(
            self.gateway.dispatch(event, payload), name=f"fakediscord: {event}"
        )
        self._pending_dispatches.add(task)
        task.add_done_callback(self._pending_dispatches.discard)

    # ---- messages ----------------------------------------------------------------------------
    # The routes create, edit and delete messages through these methods, not the ledger: the
    # load benchmarks override or wrap `_edit_message` to see every edit.

    def _create_message(
        self,
        channel: Channel,
        body: dict[str, Any],
        uploads: dict[int, Upload],
        *,
        ephemeral_for: int | None = None,
        record: InteractionRecord | None = None,
        loading: bool = False,
    ) -> Message:
        return self._ledger.create(
            channel, body, uploads, ephemeral_for=ephemeral_for, record=record, loading=loading
        )

    def _edit_message(self, message: Message, body: dict, uploads: dict[int, Upload]) -> None:
        self._ledger.edit(message, body, uploads)

    def _delete(self, message: Message) -> None:
        self._ledger.delete(message)
