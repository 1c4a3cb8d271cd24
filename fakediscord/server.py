"""FakeDiscord: an HTTPS REST v10 + gateway server on 127.0.0.1 that a real discord.py bot uses."""

from __future__ import annotations

import asyncio
import secrets
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord
import orjson
from aiohttp import web

from . import validation
from .commands import CommandRegistry
from .gateway import RESUME_GATEWAY_URL, Gateway
from .messages import (
    Upload,
    apply_fields,
    created_attachments,
    edited_attachments,
    pinged_user_ids,
    read_body,
)
from .model import (
    EPHEMERAL_FLAG,
    LOADING_FLAG,
    BotUser,
    Channel,
    Guild,
    Message,
    SnowflakeFactory,
)
from .tls import make_connector, server_ssl_context
from .users import Result, SimUser
from .validation import DiscordError

API_PREFIX = "/api/v10"
BUSY_TASK_PREFIXES = ("discord-ui", "CommandTree", "discord.py: on_", "table:")
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE = 4, 5, 6, 7

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def json_response(
    data: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    # discord.py only decodes JSON when Content-Type is exactly "application/json".
    return web.Response(
        status=status,
        body=orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS),
        headers={"Content-Type": "application/json", **(headers or {})},
    )


def no_content() -> web.Response:
    return web.Response(status=204)


class FakeUnsupported(Exception):
    """The bot used something the fake does not implement: the test fails with this text."""


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    route: str
    status: int


@dataclass
class RateLimit:
    remaining: int
    retry_after: float
    is_global: bool


@dataclass
class Fault:
    remaining: int
    status: int
    code: int
    message: str


@dataclass(eq=False)
class InteractionRecord:
    id: int
    token: str
    kind: int
    user: SimUser
    channel: Channel
    label: str
    source: Message | None
    created_at: float
    response_type: int | None = None
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)
    answered_at: float | None = None
    _answered: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def latency(self) -> float | None:
        """Seconds from dispatch to the first answer the user could see."""
        return None if self.answered_at is None else self.answered_at - self.created_at

    def mark_answered(self) -> None:
        if self.answered_at is None:
            self.answered_at = asyncio.get_running_loop().time()
            self._answered.set()

    async def wait_answered(self, timeout: float = 10.0) -> None:
        """Wait for a visible answer: a message, an update, or an edit/followup after a defer."""
        try:
            await asyncio.wait_for(self._answered.wait(), timeout)
        except TimeoutError:
            raise AssertionError(f"interaction {self.label} got no answer in {timeout} s") from None

    def metadata(self) -> dict[str, Any]:
        metadata: dict[str, Any] = {
            "id": str(self.id),
            "type": self.kind,
            "user": self.user.user_payload(),
            "authorizing_integration_owners": owners(self.channel, self.user),
        }
        if self.source is not None:
            metadata["interacted_message_id"] = str(self.source.id)
        return metadata


def owners(channel: Channel, user: SimUser) -> dict[str, str]:
    if channel.guild is not None:
        return {"0": str(channel.guild.id)}
    return {"1": str(user.id)}


class FakeDiscord:
    """The fake service. Use as `async with FakeDiscord() as fake:` or start()/close()."""

    def __init__(self, *, bot_name: str = "TableBot") -> None:
        self.ids = SnowflakeFactory()
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
        self._watchers: list[Callable[[Message], None]] = []
        self.internal_errors: list[str] = []
        # What interactions report as `attachment_size_limit`; larger uploads get 413.
        self.attachment_size_limit = ATTACHMENT_SIZE_LIMIT
        self.ack_deadline = 3.0
        self.port = 0
        self._dm_channels: dict[int, Channel] = {}
        self._rate_limits: dict[tuple[str, str], RateLimit] = {}
        self._faults: dict[tuple[str, str], Fault] = {}
        self._in_flight = 0
        self._pending_dispatches: set[asyncio.Task[None]] = set()
        self._bots: dict[discord.Client, asyncio.Task[None]] = {}
        self._runner: web.AppRunner | None = None
        self.gateway = Gateway(
            ready_payload=self._ready_payload,
            guild_payloads=lambda: [g.create_payload(self.bot_user) for g in self.guilds],
            members_chunk=self._members_chunk,
            parsed_sequence=self._parsed_sequence,
            bot_user_id=self.bot_user.id,
        )

    # ---- lifecycle -------------------------------------------------------------------------

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def start(self) -> None:
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        self._add_routes(app)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0, ssl_context=server_ssl_context())
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

    def add_guild(self, name: str) -> Guild:
        guild = Guild(
            self.ids.next(),
            name,
            new_id=self.ids.next,
            on_channel_change=self._channel_changed,
        )
        self.guilds.append(guild)
        self._dispatch_soon("GUILD_CREATE", guild.create_payload(self.bot_user))
        return guild

    def add_user(self, name: str, *, guild: Guild | None = None, dms_open: bool = True) -> SimUser:
        user = SimUser(self, self.ids.next(), name, dms_open=dms_open)
        self.users.append(user)
        self._user_ids.add(user.id)
        if guild is not None:
            guild.members.append(user)
            member = user.member_payload() | {"guild_id": str(guild.id)}
            self._dispatch_soon("GUILD_MEMBER_ADD", member)
        return user

    def watch(self, on_change: Callable[[Message], None]) -> None:
        """Call `on_change(message)` after every message is created, edited or deleted."""
        self._watchers.append(on_change)

    def _changed(self, message: Message) -> None:
        for on_change in self._watchers:
            on_change(message)

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
        self._rate_limits[(method.upper(), route)] = RateLimit(count, retry_after, is_global)

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
        self._faults[(method.upper(), route)] = Fault(count, status, code, message)

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
        if self._in_flight:
            reasons.append(f"{self._in_flight} REST request(s) in flight")
        if self._pending_dispatches:
            reasons.append(f"{len(self._pending_dispatches)} gateway dispatch(es) pending")
        return reasons

    async def wait_until_idle(self, timeout: float = 10.0) -> None:
        """Return once no bot task, REST request or gateway dispatch is in progress."""
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
        return Result(
            response_type=record.response_type,
            message=record.original,
            followups=list(record.followups),
            ephemeral=[m for m in new_messages if m.ephemeral_for == user.id],
            new_messages=new_messages,
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
        await self.gateway.dispatch("INTERACTION_CREATE", self._interaction_payload(record, data))
        return record

    async def post_user_message(self, user: SimUser, channel: Channel, content: str) -> Message:
        message = Message(self.ids.next(), channel, user, content=content)
        message.pinged = self._known_users(pinged_user_ids(content, None))
        channel.messages.append(message)
        self.message_log.append(message)
        self._changed(message)
        payload = message.payload()
        if channel.guild is not None:
            member = user.member_payload()
            del member["user"]
            payload["member"] = member
        await self.wait_until_idle()
        await self.gateway.dispatch("MESSAGE_CREATE", payload)
        await self.wait_until_idle()
        return message

    # ---- gateway support ---------------------------------------------------------------------

    def _ready_payload(self, session_id: str) -> dict[str, Any]:
        return {
            "v": 10,
            "user": self.bot_user.payload(),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in self.guilds],
            "session_id": session_id,
            "resume_gateway_url": RESUME_GATEWAY_URL,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }

    def _members_chunk(self, guild_id: int) -> list[dict[str, Any]]:
        return [member.member_payload() for member in self.guild_by_id(guild_id).members]

    def _parsed_sequence(self, session_id: str) -> int | None:
        for bot in self._bots:
            # An AutoShardedClient has one websocket per shard it runs.
            shards = getattr(bot, "shards", {}).values()
            sockets = [getattr(bot, "ws", None), *(shard._parent.ws for shard in shards)]
            for ws in sockets:
                if ws is not None and ws.session_id == session_id:
                    return ws.sequence
        return None

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

    def _interaction_payload(self, record: InteractionRecord, data: dict[str, Any]) -> dict:
        channel, user = record.channel, record.user
        channel_payload = channel.payload(self.bot_user.id)
        payload: dict[str, Any] = {
            "id": str(record.id),
            "application_id": str(self.application_id),
            "type": record.kind,
            "data": data,
            "token": record.token,
            "version": 1,
            "channel_id": str(channel.id),
            "channel": channel_payload,
            "app_permissions": str(channel.bot_permissions.value),
            "locale": user.locale,
            "entitlements": [],
            "authorizing_integration_owners": owners(channel, user),
            "attachment_size_limit": self.attachment_size_limit,
        }
        if channel.guild is not None:
            member = user.member_payload()
            member["permissions"] = str(user.permissions.value)
            channel_payload["permissions"] = str(user.permissions.value)
            payload |= {
                "guild_id": str(channel.guild.id),
                "guild": {
                    "id": str(channel.guild.id),
                    "locale": channel.guild.preferred_locale,
                    "features": [],
                },
                "guild_locale": channel.guild.preferred_locale,
                "member": member,
                "context": 0,
            }
        else:
            payload |= {"user": user.user_payload(), "context": 1}
        if record.source is not None:
            payload["message"] = record.source.payload()
        return payload

    # ---- HTTP plumbing -----------------------------------------------------------------------

    def _add_routes(self, app: web.Application) -> None:
        api: list[tuple[str, str, Handler]] = [
            ("GET", "/users/@me", self._get_me),
            ("POST", "/users/@me/channels", self._create_dm),
            ("GET", "/users/{user_id}", self._get_user),
            ("GET", "/gateway", self._get_gateway),
            ("GET", "/gateway/bot", self._get_gateway),
            ("GET", "/oauth2/applications/@me", self._get_application),
            ("GET", "/applications/@me", self._get_application),
            ("GET", "/applications/{application_id}/commands", self._get_commands),
            ("PUT", "/applications/{application_id}/commands", self._put_commands),
            (
                "GET",
                "/applications/{application_id}/guilds/{guild_id}/commands",
                self._get_commands,
            ),
            (
                "PUT",
                "/applications/{application_id}/guilds/{guild_id}/commands",
                self._put_commands,
            ),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member),
            ("GET", "/channels/{channel_id}", self._get_channel),
            ("GET", "/channels/{channel_id}/messages", self._get_history),
            ("POST", "/channels/{channel_id}/typing", self._typing),
            ("POST", "/channels/{channel_id}/messages", self._post_message),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self._get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self._patch_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self._delete_message),
            (
                "POST",
                "/channels/{channel_id}/messages/{message_id}/threads",
                self._start_thread_from_message,
            ),
            (
                "POST",
                "/interactions/{interaction_id}/{interaction_token}/callback",
                self._interaction_callback,
            ),
            ("POST", "/webhooks/{webhook_id}/{webhook_token}", self._post_followup),
            (
                "GET",
                "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
                self._get_webhook_message,
            ),
            (
                "PATCH",
                "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
                self._patch_webhook_message,
            ),
            (
                "DELETE",
                "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
                self._delete_webhook_message,
            ),
        ]
        for method, path, handler in api:
            app.router.add_route(method, API_PREFIX + path, handler)
        app.router.add_get(
            "/attachments/{channel_id}/{attachment_id}/{filename}", self._get_attachment_file
        )
        app.router.add_get("/", self.gateway.handle)

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path == "/":
            return await handler(request)
        route = route_template(request)
        self._in_flight += 1
        try:
            response = await self._answer(request, handler, route)
        finally:
            self._in_flight -= 1
        self.requests.append(RecordedRequest(request.method, route, response.status))
        return response

    async def _answer(
        self, request: web.Request, handler: Handler, route: str
    ) -> web.StreamResponse:
        fault = self._faults.get((request.method, route))
        if fault is not None and fault.remaining > 0:
            fault.remaining -= 1
            return json_response({"message": fault.message, "code": fault.code}, fault.status)
        limit = self._rate_limits.get((request.method, route))
        if limit is not None and limit.remaining > 0:
            limit.remaining -= 1
            return rate_limited_response(limit)
        try:
            return await handler(request)
        except DiscordError as error:
            return json_response(error.payload(), error.status)
        except ConnectionResetError:
            # The bot hung up mid-request (its process was killed): nobody reads an answer.
            return json_response({"message": "client gone", "code": 0}, 499)
        except web.HTTPNotFound:
            self.internal_errors.append(f"fakediscord has no route {request.method} {request.path}")
            return json_response({"message": "404: Not Found", "code": 0}, 404)
        except Exception as error:
            self.internal_errors.append(
                f"{request.method} {request.path}: {error!r}\n{traceback.format_exc()}"
            )
            # 400, not 500: discord.py retries 5xx answers with sleeps of seconds.
            return json_response({"message": f"fakediscord: {error}", "code": 0}, 400)

    # ---- REST: users, gateway, application ---------------------------------------------------

    async def _get_me(self, request: web.Request) -> web.Response:
        if not request.headers.get("Authorization", "").startswith("Bot "):
            raise DiscordError(401, 0, "401: Unauthorized")
        return json_response(self.bot_user.payload())

    async def _get_user(self, request: web.Request) -> web.Response:
        user_id = int(request.match_info["user_id"])
        if user_id == self.bot_user.id:
            return json_response(self.bot_user.payload())
        return json_response(self.user_by_id(user_id).user_payload())

    async def _get_gateway(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "url": "wss://gateway.discord.gg",
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    async def _get_application(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "id": str(self.application_id),
                "name": self.bot_user.name,
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": {
                    "id": str(self.application_id + 1),
                    "username": "owner",
                    "discriminator": "0",
                    "avatar": None,
                },
                "verify_key": "0" * 64,
                "flags": 0,
                "bot": self.bot_user.payload(),
            }
        )

    def _command_scope(self, request: web.Request) -> int | None:
        if int(request.match_info["application_id"]) != self.application_id:
            raise validation.unknown("Application", 10002)
        guild_id = request.match_info.get("guild_id")
        return None if guild_id is None else self.guild_by_id(int(guild_id)).id

    async def _get_commands(self, request: web.Request) -> web.Response:
        return json_response(self.commands.listing(self._command_scope(request)))

    async def _put_commands(self, request: web.Request) -> web.Response:
        scope = self._command_scope(request)
        body, _ = await read_body(request)
        validation.check_commands(body)
        return json_response(self.commands.replace(body, scope))

    async def _get_member(self, request: web.Request) -> web.Response:
        guild = self.guild_by_id(int(request.match_info["guild_id"]))
        user_id = int(request.match_info["user_id"])
        try:
            return json_response(guild.member(user_id).member_payload())
        except KeyError:
            raise validation.unknown("Member", 10007) from None

    async def _create_dm(self, request: web.Request) -> web.Response:
        body, _ = await read_body(request)
        try:
            user = self.user_by_id(int(body["recipient_id"]))
        except DiscordError:
            raise DiscordError(400, 50033, "Invalid Recipient(s)") from None
        channel = self._dm_channels.get(user.id)
        if channel is None:
            channel = Channel(self.ids.next(), f"dm-{user.name}", guild=None, recipient=user)
            self._dm_channels[user.id] = channel
        return json_response(channel.payload(self.bot_user.id))

    # ---- REST: channel messages --------------------------------------------------------------

    async def _get_channel(self, request: web.Request) -> web.Response:
        channel = self.channel_by_id(int(request.match_info["channel_id"]))
        return json_response(channel.payload(self.bot_user.id))

    async def _get_history(self, request: web.Request) -> web.Response:
        channel = self.channel_by_id(int(request.match_info["channel_id"]))
        limit = int(request.query.get("limit", 50))
        before = int(request.query.get("before", 0)) or None
        newest_first = [
            m for m in reversed(channel.public_messages()) if before is None or m.id < before
        ]
        return json_response([m.payload() for m in newest_first[:limit]])

    async def _post_message(self, request: web.Request) -> web.Response:
        channel = self.channel_by_id(int(request.match_info["channel_id"]))
        body, uploads = await read_body(request)
        check_can_send(channel, body, uploads)
        message = self._create_message(channel, body, uploads)
        return json_response(message.payload())

    async def _start_thread_from_message(self, request: web.Request) -> web.Response:
        """A public thread started from a channel message (one thread per message)."""
        message = self._channel_message(request)
        channel = message.channel
        body, _ = await read_body(request)
        name = body.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            raise validation.invalid_form(
                [(["name"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")]
            )
        if channel.guild is None or channel.parent is not None:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        if any(thread.id == message.id for thread in channel.guild.threads):
            raise DiscordError(400, 160004, "A thread has already been created for this message")
        thread = channel.guild.add_thread(channel, name, message.id, self.bot_user.id)
        return json_response(thread.payload(self.bot_user.id))

    def _channel_message(self, request: web.Request) -> Message:
        channel = self.channel_by_id(int(request.match_info["channel_id"]))
        message_id = int(request.match_info["message_id"])
        for message in channel.public_messages():
            if message.id == message_id:
                return message
        raise validation.unknown("Message", 10008)

    async def _typing(self, request: web.Request) -> web.Response:
        self.channel_by_id(int(request.match_info["channel_id"]))
        return no_content()

    async def _get_message(self, request: web.Request) -> web.Response:
        return json_response(self._channel_message(request).payload())

    async def _patch_message(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        if message.author is not self.bot_user:
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
        body, uploads = await read_body(request)
        if (
            uploads
            and not message.channel.is_dm
            and not message.channel.bot_permissions.attach_files
        ):
            raise validation.missing_permissions()
        self._edit_message(message, body, uploads)
        return json_response(message.payload())

    async def _delete_message(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        channel = message.channel
        may_manage = not channel.is_dm and channel.bot_permissions.manage_messages
        if message.author is not self.bot_user and not may_manage:
            raise validation.missing_permissions()
        self._delete(message)
        return no_content()

    async def _get_attachment_file(self, request: web.Request) -> web.Response:
        attachment_id = int(request.match_info["attachment_id"])
        for message in self.message_log:
            for attachment in message.attachments:
                if attachment.id == attachment_id:
                    return web.Response(body=attachment.data, content_type=attachment.content_type)
        return web.Response(status=404, text="404: Not Found")

    # ---- REST: interactions and their webhook ------------------------------------------------

    def _record(self, interaction_id: int, token: str) -> InteractionRecord:
        record = self.interactions.get(interaction_id)
        if record is None or record.token != token:
            raise validation.unknown("interaction", 10062)
        return record

    def _record_by_token(self, request: web.Request) -> InteractionRecord:
        record = self._interactions_by_token.get(request.match_info["webhook_token"])
        is_ours = int(request.match_info["webhook_id"]) == self.application_id
        if record is None or not is_ours or record.response_type is None:
            raise validation.unknown("Webhook", 10015)
        return record

    async def _interaction_callback(self, request: web.Request) -> web.Response:
        record = self._record(
            int(request.match_info["interaction_id"]), request.match_info["interaction_token"]
        )
        body, uploads = await read_body(request)
        if record.response_type is not None:
            raise validation.already_acknowledged()
        if asyncio.get_running_loop().time() - record.created_at > self.ack_deadline:
            raise validation.unknown("interaction", 10062)
        response_type = body.get("type")
        data = body.get("data") or {}
        if response_type in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE):
            message = self._respond_with_message(record, response_type, data, uploads)
        elif response_type in (DEFERRED_UPDATE, UPDATE_MESSAGE):
            message = self._respond_with_update(record, response_type, data, uploads)
        else:
            raise FakeUnsupported(f"interaction callback type {response_type} is not supported")
        record.response_type = response_type
        record.original = message
        if response_type in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
            record.mark_answered()
        if request.query.get("with_response", "").lower() not in ("1", "true"):
            return no_content()
        return json_response(callback_answer(record, response_type, message))

    def _respond_with_message(
        self, record: InteractionRecord, response_type: int, data: dict, uploads: dict[int, Upload]
    ) -> Message:
        ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL_FLAG)
        if response_type == DEFERRED_CHANNEL_MESSAGE:
            return self._create_message(
                record.channel,
                {},
                {},
                ephemeral_for=record.user.id if ephemeral else None,
                record=record,
                loading=True,
            )
        return self._create_message(
            record.channel,
            data,
            uploads,
            ephemeral_for=record.user.id if ephemeral else None,
            record=record,
        )

    def _respond_with_update(
        self, record: InteractionRecord, response_type: int, data: dict, uploads: dict[int, Upload]
    ) -> Message:
        if record.source is None:
            raise validation.invalid_form(
                [(["type"], "INTERACTION_TYPE_INVALID", "Only component interactions can update")]
            )
        if response_type == UPDATE_MESSAGE:
            self._edit_message(record.source, data, uploads)
        return record.source

    async def _post_followup(self, request: web.Request) -> web.Response:
        record = self._record_by_token(request)
        body, uploads = await read_body(request)
        original = record.original
        if original is not None and original.flags & LOADING_FLAG:
            # Discord turns the first followup after a "thinking" defer into that message.
            self._edit_message(original, body, uploads)
            message = original
        else:
            ephemeral = bool(int(body.get("flags") or 0) & EPHEMERAL_FLAG)
            message = self._create_message(
                record.channel,
                body,
                uploads,
                ephemeral_for=record.user.id if ephemeral else None,
                record=record,
            )
        record.followups.append(message)
        record.mark_answered()
        if request.query.get("wait", "").lower() not in ("1", "true"):
            return no_content()
        return json_response(message.payload())

    def _webhook_message(self, request: web.Request) -> Message:
        record = self._record_by_token(request)
        wanted = request.match_info["message_id"]
        if wanted == "@original" and record.original is not None:
            return record.original
        for message in [record.original, *record.followups]:
            if message is not None and str(message.id) == wanted and not message.deleted:
                return message
        raise validation.unknown("Message", 10008)

    async def _get_webhook_message(self, request: web.Request) -> web.Response:
        return json_response(self._webhook_message(request).payload())

    async def _patch_webhook_message(self, request: web.Request) -> web.Response:
        record = self._record_by_token(request)
        message = self._webhook_message(request)
        body, uploads = await read_body(request)
        self._edit_message(message, body, uploads)
        record.mark_answered()
        return json_response(message.payload())

    async def _delete_webhook_message(self, request: web.Request) -> web.Response:
        self._delete(self._webhook_message(request))
        return no_content()

    # ---- message bookkeeping -----------------------------------------------------------------

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
        if not loading:
            validation.check_message(body, creating=True, file_count=len(uploads))
            self._check_upload_sizes(uploads)
        message = Message(self.ids.next(), channel, self.bot_user, ephemeral_for=ephemeral_for)
        apply_fields(message, body)
        message.flags |= (EPHEMERAL_FLAG if ephemeral_for else 0) | (LOADING_FLAG if loading else 0)
        message.attachments = created_attachments(body, uploads, self.ids.next)
        message.pinged = self._known_users(message.pinged)
        if record is not None:
            message.interaction_metadata = record.metadata()
        channel.messages.append(message)
        self.message_log.append(message)
        self._changed(message)
        if not message.is_ephemeral and not loading:
            self._dispatch_soon("MESSAGE_CREATE", message.payload())
        return message

    def _check_upload_sizes(self, uploads: dict[int, Upload]) -> None:
        if any(len(upload.data) > self.attachment_size_limit for upload in uploads.values()):
            raise validation.entity_too_large()

    def _edit_message(self, message: Message, body: dict, uploads: dict[int, Upload]) -> None:
        validation.check_message(body, creating=False, file_count=len(uploads))
        self._check_upload_sizes(uploads)
        message.remember_version()
        apply_fields(message, body)
        message.flags &= ~LOADING_FLAG
        if "attachments" in body or uploads:
            message.attachments = edited_attachments(message, body, uploads, self.ids.next)
        message.pinged = self._known_users(message.pinged)
        self._answer_deferred_interactions_about(message)
        self._changed(message)
        if not message.is_ephemeral:
            self._dispatch_soon("MESSAGE_UPDATE", message.payload())

    def _answer_deferred_interactions_about(self, message: Message) -> None:
        # After a defer the bot may answer by editing the board through the channel route.
        for record in list(self._unanswered):
            if record.answered_at is None and message in (record.source, record.original):
                record.mark_answered()
            if record.answered_at is not None:
                self._unanswered.remove(record)

    def _delete(self, message: Message) -> None:
        message.deleted = True
        message.channel.messages.remove(message)
        self._changed(message)
        if not message.is_ephemeral:
            event = {"id": str(message.id), "channel_id": str(message.channel.id)}
            if message.channel.guild is not None:
                event["guild_id"] = str(message.channel.guild.id)
            self._dispatch_soon("MESSAGE_DELETE", event)

    def _known_users(self, user_ids: list[int]) -> list[int]:
        known = self._user_ids
        return [user_id for user_id in user_ids if user_id in known]


def route_template(request: web.Request) -> str:
    resource = request.match_info.route.resource
    if resource is None:
        return request.path
    return resource.canonical.removeprefix(API_PREFIX)


def rate_limited_response(limit: RateLimit) -> web.Response:
    # discord.py treats a 429 without a Via header as a Cloudflare ban and gives up.
    return json_response(
        {
            "message": "You are being rate limited.",
            "retry_after": limit.retry_after,
            "global": limit.is_global,
        },
        429,
        {
            "Via": "1.1 google",
            "Retry-After": str(max(1, round(limit.retry_after))),
            "X-RateLimit-Scope": "global" if limit.is_global else "user",
        },
    )


def check_can_send(channel: Channel, body: dict[str, Any], uploads: dict[int, Upload]) -> None:
    if channel.is_dm:
        assert channel.recipient is not None
        if not channel.recipient.dms_open:
            raise validation.cannot_dm_user()
        return
    permissions = channel.bot_permissions
    if not permissions.view_channel:
        raise validation.missing_access()
    if not permissions.send_messages:
        raise validation.missing_permissions()
    if uploads and not permissions.attach_files:
        raise validation.missing_permissions()
    if body.get("embeds") and not permissions.embed_links:
        raise validation.missing_permissions()


def callback_answer(record: InteractionRecord, response_type: int, message: Message) -> dict:
    """The `?with_response=true` body: the interaction summary plus the resource it made."""
    answer: dict[str, Any] = {
        "interaction": {
            "id": str(record.id),
            "type": record.kind,
            "response_message_id": str(message.id),
            "response_message_loading": bool(message.flags & LOADING_FLAG),
            "response_message_ephemeral": message.is_ephemeral,
        },
        "resource": {"type": response_type},
    }
    if response_type != DEFERRED_UPDATE:
        answer["resource"]["message"] = message.payload()
    return answer
