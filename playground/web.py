"""The playground's web page and its small API on 127.0.0.1 (or the address given).

Every click on the page goes through a simulated player of the emulator, which sends the
bot an INTERACTION_CREATE exactly as in the end-to-end tests. Changes reach the page as
server-sent events, filtered to what the selected player may see.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

from aiohttp import web

from fakediscord import Message, SimUser

from .scene import BadRequest, Scene

STATIC = Path(__file__).with_name("static")
KEEPALIVE_SECONDS = 15.0
INTERACTION_FAILED = "This interaction failed"

Action = Callable[[SimUser, dict[str, Any]], Awaitable[None]]
# One open page's events: (kind, data) pairs, None when the server stops.
PageQueue = asyncio.Queue[tuple[str, Any] | None]


class Feed:
    """Fans message changes out to the open pages, each watching as one player."""

    def __init__(self, scene: Scene) -> None:
        self.scene = scene
        self._pages: dict[PageQueue, SimUser] = {}
        self._seen: dict[int, str] = {}
        self.pending = 0
        self.done = 0
        scene.fake.watch(self._on_change)

    def open(self, viewer: SimUser) -> PageQueue:
        queue: PageQueue = asyncio.Queue()
        self._pages[queue] = viewer
        return queue

    def close(self, queue: PageQueue) -> None:
        self._pages.pop(queue, None)

    @contextlib.contextmanager
    def acting(self) -> Iterator[Callable[[], int]]:
        """Around one player's action: pages show the bot busy, then count the action done.

        Yields a function giving the action's number among the completed ones: a page that
        has seen that many completions has seen everything the action changed."""
        self.pending += 1
        self._broadcast(("activity", self.activity()))
        try:
            yield lambda: self.done
        finally:
            self.pending -= 1
            self.done += 1
            self._broadcast(("activity", self.activity()))

    def activity(self) -> dict[str, int]:
        return {"pending": self.pending, "done": self.done}

    def _broadcast(self, event: tuple[str, Any]) -> None:
        for queue in self._pages:
            queue.put_nowait(event)

    def told_locale(self, player: SimUser) -> None:
        """Every open page learns a member's new client language (its command names)."""
        self._broadcast(("locale", {"player": str(player.id), "locale": player.locale}))

    def close_all(self) -> None:
        for queue in self._pages:
            queue.put_nowait(None)

    def _on_change(self, message: Message) -> None:
        described = self.scene.describe(message)
        for queue, viewer in self._pages.items():
            if self.scene.visible_to(message, viewer):
                queue.put_nowait(("message", described))
        for player in self._needing_attention(message):
            self._broadcast(("attention", {"player": str(player.id)}))

    def _needing_attention(self, message: Message) -> list[SimUser]:
        """Players a new or reworded message is for: DM recipients and pinged players."""
        if message.deleted or self._seen.get(message.id) == message.content:
            return []
        is_new = message.id not in self._seen
        self._seen[message.id] = message.content
        if message.channel.is_dm:
            recipient = message.channel.recipient
            return [recipient] if is_new and recipient is not None else []
        return [player for player in self.scene.players if player.id in message.pinged]


class Page:
    """The page's routes: the files, the event stream, attachments and the players' actions."""

    def __init__(self, scene: Scene) -> None:
        self.scene = scene
        self.feed = Feed(scene)

    def app(self) -> web.Application:
        app = web.Application(middlewares=[only_this_page])
        app.on_shutdown.append(self._close_streams)
        app.router.add_get("/", self._index)
        app.router.add_static("/static/", STATIC)
        app.router.add_get("/api/events", self._events)
        app.router.add_get("/attachments/{attachment_id}/{filename}", self._attachment)
        actions: dict[str, Action] = {
            "slash": self._slash,
            "click": self._click,
            "select": self._select,
            "say": self._say,
            "locale": self._locale,
        }
        for name, action in actions.items():
            app.router.add_post(f"/api/{name}", self._action_handler(action))
        return app

    async def _close_streams(self, app: web.Application) -> None:
        self.feed.close_all()

    async def _index(self, request: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def _events(self, request: web.Request) -> web.StreamResponse:
        """Server-sent events: a snapshot of what the viewer sees, then every change.

        A page that remembers a player this playground does not have gets the first one."""
        try:
            viewer = self.scene.player(request.query.get("viewer"))
        except BadRequest:
            viewer = self.scene.players[0]
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}
        )
        await response.prepare(request)
        queue = self.feed.open(viewer)
        try:
            snapshot = {**self.scene.snapshot(viewer), "activity": self.feed.activity()}
            await _send(response, "snapshot", snapshot)
            while True:
                try:
                    event = await asyncio.wait_for(queue.get(), KEEPALIVE_SECONDS)
                except TimeoutError:
                    await response.write(b": still here\n\n")
                    continue
                if event is None:
                    break
                await _send(response, *event)
        except ConnectionResetError:
            pass
        finally:
            self.feed.close(queue)
        return response

    async def _attachment(self, request: web.Request) -> web.Response:
        try:
            attachment_id = int(request.match_info["attachment_id"])
            content_type, data = self.scene.attachment_data(attachment_id)
        except (BadRequest, ValueError):
            raise web.HTTPNotFound() from None
        return web.Response(
            body=data,
            content_type=content_type,
            headers={"Cache-Control": "max-age=31536000, immutable"},
        )

    def _action_handler(self, action: Action) -> Callable[[web.Request], Awaitable[web.Response]]:
        async def handle(request: web.Request) -> web.Response:
            with self.feed.acting() as number:
                status, answer = await self._answer(request, action)
            return web.json_response({**answer, "done": number()}, status=status)

        return handle

    async def _answer(self, request: web.Request, action: Action) -> tuple[int, dict[str, Any]]:
        try:
            body = json_object(await request.read())
            await action(self.scene.player(text_field(body, "viewer")), body)
        except BadRequest as problem:
            return 400, {"error": str(problem)}
        except AssertionError as problem:
            # The emulator's checks: unacknowledged, disabled, out of range, ...
            return 409, {"error": INTERACTION_FAILED, "detail": str(problem)}
        return 200, {"ok": True}

    async def _slash(self, viewer: SimUser, body: dict[str, Any]) -> None:
        command = text_field(body, "command")
        options = body.get("options") or {}
        if not isinstance(options, dict):
            raise BadRequest("options must be a JSON object")
        options = self.scene.slash_options(command, options)
        await viewer.slash(self.scene.channel(text_field(body, "channel")), command, **options)

    async def _click(self, viewer: SimUser, body: dict[str, Any]) -> None:
        message = self.scene.message(text_field(body, "message"))
        await viewer.click(message, custom_id=text_field(body, "custom_id"))

    async def _select(self, viewer: SimUser, body: dict[str, Any]) -> None:
        message = self.scene.message(text_field(body, "message"))
        values = body.get("values") or []
        if not isinstance(values, list):
            raise BadRequest("values must be a JSON list")
        picked = [as_text(value, "each value") for value in values]
        await viewer.select(message, picked, custom_id=text_field(body, "custom_id"))

    async def _locale(self, viewer: SimUser, body: dict[str, Any]) -> None:
        locale = text_field(body, "locale")
        self.scene.set_locale(viewer, locale)
        self.feed.told_locale(viewer)

    async def _say(self, viewer: SimUser, body: dict[str, Any]) -> None:
        text = text_field(body, "text").strip()
        if not text:
            raise BadRequest("type something first")
        await viewer.say(self.scene.channel(text_field(body, "channel")), text[:2000])


def json_object(body: bytes) -> dict[str, Any]:
    """A request's body as the page sends it: a JSON object in UTF-8."""
    try:
        parsed = json.loads(body.decode())
    except UnicodeDecodeError:
        raise BadRequest("the body is not UTF-8 text") from None
    except RecursionError:
        raise BadRequest("the JSON is nested too deeply") from None
    except ValueError:
        raise BadRequest("the body is not JSON") from None
    if not isinstance(parsed, dict):
        raise BadRequest("send a JSON object")
    return parsed


def text_field(body: dict[str, Any], name: str) -> str:
    """A field the page sends as text; an id may come as a number too."""
    return as_text(body.get(name, ""), name)


def as_text(value: object, name: str) -> str:
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise BadRequest(f"{name} must be a string")
    return str(value)


LOOPBACK = "127.0.0.1"
LOCAL_HOSTS = (LOOPBACK, "localhost")
POSTS_NEED = "application/json"


@web.middleware
async def only_this_page(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """Answer the playground's own page only.

    The server listens on 127.0.0.1 (or on every address of a container, whose published
    port the browser reaches as 127.0.0.1 or localhost), but every site open in the same
    browser can send requests there: a host name rebound to 127.0.0.1 is refused by its
    Host header, a page of another origin by its Origin header, and a JSON body sent as a
    plain form post (which browsers send without asking the server first) by its content
    type."""
    if _host_name(request.host) not in LOCAL_HOSTS:
        raise web.HTTPForbidden(text="the playground answers http://127.0.0.1 only")
    if request.method == "POST":
        origin = request.headers.get("Origin")
        if origin is not None and origin not in (f"http://{request.host}",):
            raise web.HTTPForbidden(text="the playground acts for its own page only")
        if request.content_type != POSTS_NEED:
            raise web.HTTPUnsupportedMediaType(text=f"send {POSTS_NEED}")
    return await handler(request)


def _host_name(host: str) -> str:
    name, _, port = host.rpartition(":")
    return (name if port.isdigit() else host).lower()


async def _send(response: web.StreamResponse, event: str, data: Any) -> None:
    await response.write(f"event: {event}\ndata: {json.dumps(data)}\n\n".encode())


class CannotListen(Exception):
    """The page's address cannot be used; the message says which and why."""


@contextlib.asynccontextmanager
async def page_served(scene: Scene, port: int, host: str = LOOPBACK) -> AsyncIterator[int]:
    """Serve the page on ``host`` and yield its port; 0 (or a taken port) picks one."""
    runner = web.AppRunner(Page(scene).app(), access_log=None, handle_signals=False)
    await runner.setup()
    try:
        await _listen(runner, host, port)
        yield runner.addresses[0][1]
    finally:
        await runner.cleanup()


async def _listen(runner: web.AppRunner, host: str, port: int) -> None:
    for candidate in dict.fromkeys((port, 0)):
        try:
            await web.TCPSite(runner, host, candidate).start()
            return
        except OSError as problem:
            failure = problem
    raise CannotListen(
        f"the page cannot listen on {host} ({_reason(failure)}): give --host an address of "
        f"this machine, such as {LOOPBACK} or 0.0.0.0."
    )


def _reason(problem: OSError) -> str:
    """The system's short sentence: asyncio words a failed bind at length, a name that does
    not resolve (a negative errno) has its own."""
    if problem.errno is not None and problem.errno > 0:
        return os.strerror(problem.errno)
    return problem.strerror or str(problem)
