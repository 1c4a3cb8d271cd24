"""The gateway websocket: HELLO, heartbeats, IDENTIFY/READY/GUILD_CREATE, RESUME, dispatches.

Sharding as Discord does it: a connection that IDENTIFYs with ``shard: [id, count]`` gets
the events of the guilds with ``(guild_id >> 22) % count == id`` (interactions included),
and shard 0 also gets everything outside guilds (DMs and DM interactions).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable, Iterable
from typing import Any

import discord
import orjson
from aiohttp import WSMsgType, web

DISPATCH, HEARTBEAT, IDENTIFY, RESUME, RECONNECT, REQUEST_MEMBERS = 0, 1, 2, 6, 7, 8
INVALID_SESSION, HELLO, HEARTBEAT_ACK = 9, 10, 11
HEARTBEAT_INTERVAL_MS = 41250
ACK_DELAY_SECONDS = 0.25
"""How long a heartbeat's acknowledgement takes, as a network round trip to Discord does.

discord.py's heartbeat thread records when it sent a heartbeat only after the event loop
has sent it. An emulator in the same process that acknowledged at once could answer
before the thread, descheduled on a busy machine, has recorded the send: discord.py then
measures the acknowledgement against the previous heartbeat, a whole interval earlier,
and warns "Can't keep up, shard ID None websocket is 41.3s behind"."""
RESUME_GATEWAY_URL = "wss://gateway-us-east1-b.discord.gg"
GUILD_MEMBERS_INTENT = 1 << 1
GUILD_MESSAGES_INTENT = 1 << 9
DIRECT_MESSAGES_INTENT = 1 << 12
MESSAGE_CONTENT_INTENT = 1 << 15
CONTENT_FIELDS = ("content", "embeds", "attachments", "components")

_log = logging.getLogger("fakediscord.gateway")


class GatewayConnection:
    """One bot's websocket. Frames go out as TEXT: discord.py only inflates BINARY frames."""

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.session_id: str | None = None
        self.sequence = 0
        self.intents = 0
        self._send_lock = asyncio.Lock()
        self.ready = False
        self.shard = (0, 1)
        self._heartbeat_waiters: list[tuple[int, asyncio.Future[None]]] = []
        self._acknowledgements: set[asyncio.Task[None]] = set()

    async def send(self, op: int, data: Any, event: str | None = None) -> int | None:
        frame: dict[str, Any] = {"op": op, "d": data, "s": None, "t": event}
        # The lock keeps frames on the wire in sequence order when dispatches overlap.
        async with self._send_lock:
            if op == DISPATCH:
                self.sequence += 1
                frame["s"] = self.sequence
            await self.ws.send_str(orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode())
        return frame["s"]

    def receives(self, guild_id: int | None) -> bool:
        """Whether this connection's shard gets events of ``guild_id`` (None: no guild)."""
        shard_id, shard_count = self.shard
        if guild_id is None:
            return shard_id == 0
        return (guild_id >> 22) % shard_count == shard_id

    def heartbeat_received(self, sequence: int | None) -> None:
        still_waiting = []
        for wanted, future in self._heartbeat_waiters:
            if sequence is not None and sequence >= wanted:
                if not future.done():
                    future.set_result(None)
            else:
                still_waiting.append((wanted, future))
        self._heartbeat_waiters = still_waiting

    def acknowledge_later(self, delay: float) -> None:
        """Send HEARTBEAT_ACK after ``delay``, without holding up the frames after it."""
        task = asyncio.get_running_loop().create_task(self._acknowledge(delay))
        self._acknowledgements.add(task)
        task.add_done_callback(self._acknowledgements.discard)

    async def _acknowledge(self, delay: float) -> None:
        await asyncio.sleep(delay)
        if not self.ws.closed:
            with contextlib.suppress(ConnectionResetError):
                await self.send(HEARTBEAT_ACK, None)

    def gone(self) -> None:
        """The bot hung up (or its process died): nobody waits for its heartbeats."""
        for _, future in self._heartbeat_waiters:
            if not future.done():
                future.set_result(None)
        self._heartbeat_waiters = []
        for task in self._acknowledgements:
            task.cancel()

    async def wait_until_received(self, sequence: int) -> None:
        """Ask for a heartbeat: its sequence proves the bot parsed everything up to it."""
        if self.ws.closed:
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._heartbeat_waiters.append((sequence, future))
        await self.send(HEARTBEAT, None)
        await future


class Gateway:
    def __init__(
        self,
        *,
        ready_payload: Callable[[str], dict[str, Any]],
        guild_payloads: Callable[[], list[dict[str, Any]]],
        members_chunk: Callable[[int], list[dict[str, Any]]],
        parsed_sequence: Callable[[str], int | None],
        bot_user_id: int,
    ) -> None:
        self._bot_user_id = bot_user_id
        self._parsed_sequence = parsed_sequence
        self._ready_payload = ready_payload
        self._guild_payloads = guild_payloads
        self._members_chunk = members_chunk
        self.connections: list[GatewayConnection] = []
        self._sessions: dict[str, tuple[int, int, tuple[int, int]]] = {}
        self.identify_count = 0
        self.resume_count = 0
        # Benchmarks with bots in other processes turn this off: confirming each event by
        # a heartbeat would spend the bot's gateway send budget (120 a minute).
        self.wait_for_parse = True

    @property
    def ready_connections(self) -> list[GatewayConnection]:
        return [connection for connection in self.connections if connection.ready]

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        connection = GatewayConnection(ws)
        self.connections.append(connection)
        try:
            await connection.send(HELLO, {"heartbeat_interval": HEARTBEAT_INTERVAL_MS})
            async for message in ws:
                if message.type is WSMsgType.TEXT:
                    await self._on_frame(connection, orjson.loads(message.data))
        finally:
            connection.ready = False
            connection.gone()
            self.connections.remove(connection)
            if connection.session_id is not None:
                self._sessions[connection.session_id] = (
                    connection.sequence,
                    connection.intents,
                    connection.shard,
                )
        return ws

    async def _on_frame(self, connection: GatewayConnection, frame: dict[str, Any]) -> None:
        op, data = frame.get("op"), frame.get("d")
        if op == HEARTBEAT:
            connection.heartbeat_received(data)
            connection.acknowledge_later(ACK_DELAY_SECONDS)
        elif op == IDENTIFY:
            shard = data.get("shard") or [0, 1]
            connection.shard = (int(shard[0]), int(shard[1]))
            await self._identify(connection, int(data.get("intents", 0)))
        elif op == RESUME:
            await self._resume(connection, data)
        elif op == REQUEST_MEMBERS:
            await self._send_members(connection, int(data["guild_id"]), data.get("nonce"))
        else:
            _log.debug("ignoring gateway op %s", op)

    async def _identify(self, connection: GatewayConnection, intents: int) -> None:
        self.identify_count += 1
        connection.session_id = secrets.token_hex(16)
        connection.intents = intents
        ready = self._ready_payload(connection.session_id)
        ready["guilds"] = [g for g in ready["guilds"] if connection.receives(int(g["id"]))]
        ready["shard"] = list(connection.shard)
        await connection.send(DISPATCH, ready, "READY")
        for guild in self._guild_payloads():
            if not connection.receives(int(guild["id"])):
                continue
            await connection.send(
                DISPATCH, self._as_seen_by(connection, "GUILD_CREATE", guild), "GUILD_CREATE"
            )
        connection.ready = True

    async def _resume(self, connection: GatewayConnection, data: dict[str, Any]) -> None:
        session_id = data.get("session_id")
        if session_id not in self._sessions:
            await connection.send(INVALID_SESSION, False)
            return
        self.resume_count += 1
        connection.session_id = session_id
        last_sequence, connection.intents, connection.shard = self._sessions.pop(session_id)
        connection.sequence = max(int(data.get("seq") or 0), last_sequence)
        await connection.send(DISPATCH, {}, "RESUMED")
        connection.ready = True

    async def _send_members(self, connection: GatewayConnection, guild_id: int, nonce: Any) -> None:
        chunk = {
            "guild_id": str(guild_id),
            "members": self._members_chunk(guild_id),
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if nonce is not None:
            chunk["nonce"] = nonce
        await connection.send(DISPATCH, chunk, "GUILD_MEMBERS_CHUNK")

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send an event to every connected bot and wait until each has parsed it."""
        guild_id = _guild_of(event, data)
        connections = [c for c in self.ready_connections if c.receives(guild_id)]
        if not connections:
            raise AssertionError(f"no bot is connected to the fake gateway to receive {event}")
        for connection in connections:
            seen = self._as_seen_by(connection, event, data)
            if seen is None:
                continue
            try:
                sequence = await connection.send(DISPATCH, seen, event)
            except ConnectionResetError:
                continue  # the bot's process died while we sent: it will not parse this
            assert sequence is not None
            if self.wait_for_parse:
                await asyncio.wait_for(self._until_parsed(connection, sequence), timeout=10)

    def _as_seen_by(
        self, connection: GatewayConnection, event: str, data: dict[str, Any]
    ) -> dict[str, Any] | None:
        """Apply the connection's intents to an event, as Discord does (None: not sent)."""
        has_members_intent = connection.intents & GUILD_MEMBERS_INTENT
        if event == "GUILD_MEMBER_ADD":
            return data if has_members_intent else None
        if event == "GUILD_CREATE" and not has_members_intent:
            # Without the members intent Discord only lists the bot itself.
            return {**data, "members": [m for m in data["members"] if m["user"].get("bot")]}
        if not event.startswith("MESSAGE_"):
            return data
        in_guild = "guild_id" in data
        needed = GUILD_MESSAGES_INTENT if in_guild else DIRECT_MESSAGES_INTENT
        if not connection.intents & needed:
            return None
        mentions_bot = f"<@{self._bot_user_id}>" in data.get("content", "")
        own_message = data.get("author", {}).get("id") == str(self._bot_user_id)
        has_content_intent = connection.intents & MESSAGE_CONTENT_INTENT
        if event == "MESSAGE_DELETE" or has_content_intent or not in_guild:
            return data
        if mentions_bot or own_message:
            return data
        return {**data, **{name: "" if name == "content" else [] for name in CONTENT_FIELDS}}

    async def _until_parsed(self, connection: GatewayConnection, sequence: int) -> None:
        # A bot started by the fake exposes the last sequence it parsed; polling that costs
        # nothing, whereas a heartbeat request spends one of discord.py's 110 sends a minute.
        assert connection.session_id is not None
        while not connection.ws.closed:
            parsed = self._parsed_sequence(connection.session_id)
            if parsed is None:
                await connection.wait_until_received(sequence)
                return
            if parsed >= sequence:
                return
            await asyncio.sleep(0.001)

    async def request_reconnect(self) -> None:
        """Op 7: every bot drops its socket and RESUMEs on resume_gateway_url."""
        for connection in list(self.ready_connections):
            connection.ready = False
            await connection.send(RECONNECT, None)

    async def close(self) -> None:
        for connection in list(self.connections):
            await connection.ws.close()


def _guild_of(event: str, data: dict[str, Any]) -> int | None:
    """The guild an event belongs to, which picks its shard (None: a DM or no guild)."""
    if event in ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"):
        return int(data["id"])
    guild_id = data.get("guild_id")
    return int(guild_id) if guild_id is not None else None


def ready_payload(
    session_id: str, *, bot_user: dict[str, Any], guild_ids: list[int], application_id: int
) -> dict[str, Any]:
    """The READY event of a new session: every guild is announced unavailable, then sent."""
    return {
        "v": 10,
        "user": bot_user,
        "guilds": [{"id": str(guild_id), "unavailable": True} for guild_id in guild_ids],
        "session_id": session_id,
        "resume_gateway_url": RESUME_GATEWAY_URL,
        "application": {"id": str(application_id), "flags": 0},
        "private_channels": [],
        "relationships": [],
    }


def parsed_sequence(bots: Iterable[discord.Client], session_id: str) -> int | None:
    """The last sequence number the bot owning the session has parsed (None: no such bot)."""
    for bot in bots:
        # An AutoShardedClient has one websocket per shard it runs.
        shards = getattr(bot, "shards", {}).values()
        sockets = [getattr(bot, "ws", None), *(shard._parent.ws for shard in shards)]
        for ws in sockets:
            if ws is not None and ws.session_id == session_id:
                return ws.sequence
    return None
