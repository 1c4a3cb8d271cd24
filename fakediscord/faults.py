"""The door every REST request passes: injected faults and rate limits, the record of each
request, and Discord's error answers for what a handler raised."""

from __future__ import annotations

import traceback
from collections.abc import Callable
from dataclasses import dataclass

from aiohttp import web

from .responses import API_PREFIX, Handler, json_response
from .validation import DiscordError


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    route: str
    status: int


@dataclass(frozen=True)
class RecordedAnswer:
    """One REST answer as the bot received it: `path` without the API prefix, as sent
    (e.g. /webhooks/1/abc/messages/@original), `body` the raw bytes (empty for 204)."""

    method: str
    path: str
    status: int
    body: bytes


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


class RequestGate:
    """The aiohttp middleware of the fake and the faults and rate limits a test asked for.

    It appends each answered request to `requests` and each of the fake's own failures to
    `internal_errors` (both lists are the FakeDiscord's), and hands each REST answer to
    the `answer_listeners`; `in_flight` counts the requests being answered, so that
    waiting for an idle bot also waits for them."""

    def __init__(self, requests: list[RecordedRequest], internal_errors: list[str]) -> None:
        self.requests = requests
        self.internal_errors = internal_errors
        self.answer_listeners: list[Callable[[RecordedAnswer], None]] = []
        self.in_flight = 0
        self._rate_limits: dict[tuple[str, str], RateLimit] = {}
        self._faults: dict[tuple[str, str], Fault] = {}

    def rate_limit(
        self, method: str, route: str, *, count: int, retry_after: float, is_global: bool
    ) -> None:
        self._rate_limits[(method.upper(), route)] = RateLimit(count, retry_after, is_global)

    def fail(
        self, method: str, route: str, *, status: int, code: int, count: int, message: str
    ) -> None:
        self._faults[(method.upper(), route)] = Fault(count, status, code, message)

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path == "/":
            return await handler(request)
        route = route_template(request)
        self.in_flight += 1
        try:
            response = await self._answer(request, handler, route)
        finally:
            self.in_flight -= 1
        self.requests.append(RecordedRequest(request.method, route, response.status))
        if self.answer_listeners and request.path.startswith(API_PREFIX):
            self._tell_listeners(request, response)
        return response

    def _tell_listeners(self, request: web.Request, response: web.StreamResponse) -> None:
        body = response.body if isinstance(response, web.Response) else None
        answer = RecordedAnswer(
            request.method,
            request.path.removeprefix(API_PREFIX),
            response.status,
            body if isinstance(body, bytes) else b"",
        )
        for listener in self.answer_listeners:
            listener(answer)

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
            "code": 0,
        },
        429,
        {
            "Via": "1.1 google",
            "Retry-After": str(max(1, round(limit.retry_after))),
            "X-RateLimit-Scope": "global" if limit.is_global else "user",
        },
    )
