"""The playground's page server against what another web page, a rebound host name or a
careless script could send it: only the page itself, on 127.0.0.1, acts as a player, and
a body it would never send gets a short 400."""

from __future__ import annotations

import json
import logging

import aiohttp
import pytest
from playground_process import playground_process

from playground.web import Page


async def post(page, path: str, data: bytes, **headers: str) -> tuple[int, str]:
    async with page.http.post(path, data=data, headers=headers) as response:
        return response.status, await response.text()


async def test_another_web_page_cannot_make_a_player_speak(playground_page):
    """A form or fetch() from any site the user visits reaches 127.0.0.1 too; the
    browser sends it without asking when it looks like a plain form post."""
    body = b'{"viewer": "alice", "channel": "games", "text": "I resign"}'
    plain_post = await post(playground_page, "/api/say", body, **{"Content-Type": "text/plain"})
    cross_origin = await post(
        playground_page,
        "/api/say",
        body,
        **{"Content-Type": "application/json", "Origin": "https://evil.example"},
    )
    assert plain_post[0] == 415 and cross_origin[0] == 403
    assert playground_page.scene.fake.message_log == []
    own_page = await post(
        playground_page,
        "/api/say",
        body,
        **{
            "Content-Type": "application/json",
            "Origin": f"http://127.0.0.1:{playground_page.port}",
        },
    )
    assert own_page[0] == 200


@pytest.mark.parametrize("path", ["/", "/api/events?viewer=alice", "/api/say"])
async def test_a_host_name_rebound_to_127_0_0_1_gets_nothing(playground_page, path):
    """DNS rebinding: evil.example resolves to 127.0.0.1, so the browser lets that site
    read the answers; only the Host header tells the request apart."""
    host = {"Host": f"evil.example:{playground_page.port}"}
    if path == "/api/say":
        body = b'{"viewer": "alice", "channel": "games", "text": "hi"}'
        status, _ = await post(
            playground_page, path, body, **host, **{"Content-Type": "application/json"}
        )
    else:
        async with playground_page.http.get(path, headers=host) as response:
            status = response.status
    assert status == 403
    assert playground_page.scene.fake.message_log == []


@pytest.mark.parametrize(
    "path, body",
    [
        ("/api/say", b'{"viewer": "alice", "channel": "games", "text": "\xff\xfe"}'),
        ("/api/slash", b'{"viewer": "alice", "command": "bann new", "options": [1]}'),
    ],
)
async def test_malformed_bodies_get_a_clear_400(playground_page, path, body):
    status, text = await post(playground_page, path, body, **{"Content-Type": "application/json"})
    assert status == 400, text
    assert playground_page.scene.fake.message_log == []


NESTED = 100_000
MALFORMED = {
    "nested arrays": b"[" * NESTED + b"]" * NESTED,
    "nested objects": b'{"a":' * NESTED,
    "nested in a field": b'{"viewer": "alice", "options": ' + b"[" * NESTED,
    "a lone byte": b'{"viewer": "alice", "text": "\xff"}',
    "a cut character": b'{"viewer": "alice", "text": "\xe2\x82"}',
    "an overlong slash": b'{"viewer": "alice", "text": "\xc0\xaf"}',
    "a surrogate": b'{"viewer": "alice", "text": "\xed\xa0\x80"}',
    "nothing": b"",
    "no JSON": b"viewer=alice",
    "a number too long": b'{"viewer": ' + b"9" * 5000 + b"}",
    "a list": b'["viewer", "alice"]',
    "a string": b'"alice"',
    "a number": b"4",
    "null": b"null",
}
WRONG = ([1], {"a": 1}, True, 1.5)


def wrong_types(body: dict) -> list[dict]:
    """The body with each field in turn of a type the page never sends it as."""
    bodies = []
    for name, value in body.items():
        wrong: list = list(WRONG)
        if name == "options":
            option, _ = next(iter(value.items()))
            bad_values = [*WRONG, None, 2.5, float("inf"), "9" * 5000]
            wrong = [[1], "x", 5, *({option: bad} for bad in bad_values)]
        elif name == "values":
            wrong = ["x", {"a": 1}, 5, *([bad] for bad in WRONG)]
        bodies += [{**body, name: bad} for bad in wrong]
    return bodies


def lobbies_in(stream) -> list[dict]:
    return [message for message in stream.messages().values() if message["components"]]


def component(message: dict, key: str) -> dict:
    """The button labelled ``key`` or the select whose custom_id has ``key``, with its
    message's id."""
    found = next(
        item
        for row in message["components"]
        for item in row["components"]
        if item.get("label") == key or key in item.get("custom_id", "")
    )
    return {**found, "message": message["id"]}


def post_routes(page) -> list[str]:
    app = Page(page.scene).app()
    return sorted(
        route.resource.canonical for route in app.router.routes() if route.method == "POST"
    )


async def test_every_post_route_answers_malformed_json_with_a_short_400(playground_page, caplog):
    """Bodies the page never sends: deeply nested, not UTF-8, not JSON, not an object, a
    field of the wrong type. Each gets a 400 with a short reason, logs no error and
    changes nothing; the well-formed bodies they were made from are then played."""
    caplog.set_level(logging.ERROR)
    page = playground_page
    assert post_routes(page) == [
        "/api/click",
        "/api/locale",
        "/api/say",
        "/api/select",
        "/api/slash",
    ]
    stream = await page.watch_as("alice")
    bann = {"command": "bann new", "options": {"opponent": "bob"}}
    await page.act("slash", "alice", channel="games", **bann)
    barbu = {"command": "barbu new", "options": {"series": 1}}
    await page.act("slash", "alice", channel="more-games", **barbu)
    await stream.first("message", lambda _: len(lobbies_in(stream)) == 2)
    join = component(lobbies_in(stream)[0], "Join")
    add_computer = component(lobbies_in(stream)[1], "addbot")
    bases = {
        "/api/slash": {
            "viewer": "carol",
            "channel": "games",
            "command": "barbu new",
            "options": {"series": 2},
        },
        "/api/click": {"viewer": "bob", "message": join["message"], "custom_id": join["custom_id"]},
        "/api/select": {
            "viewer": "alice",
            "message": add_computer["message"],
            "custom_id": add_computer["custom_id"],
            "values": [add_computer["options"][0]["value"]],
        },
        "/api/say": {"viewer": "dave", "channel": "games", "text": "hello"},
        "/api/locale": {"viewer": "bob", "locale": "de"},
    }
    before = len(page.scene.fake.message_log), page.scene.fake.interactions.copy()
    headers = {"Content-Type": "application/json"}
    for path in post_routes(page):
        hostile = [
            *MALFORMED.values(),
            *(json.dumps(body).encode() for body in wrong_types(bases[path])),
        ]
        if path == "/api/locale":
            hostile.append(json.dumps({**bases[path], "locale": "fr"}).encode())
        for body in hostile:
            status, text = await post(page, path, body, **headers)
            error = json.loads(text).get("error", "")
            assert status == 400 and 0 < len(error) <= 80, f"{path} {body[:80]!r}: {status} {text}"
    assert (len(page.scene.fake.message_log), page.scene.fake.interactions) == before
    assert page.player("bob").locale == "en-US", "no refused body changed a client"
    assert [
        record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR
    ] == []
    for path, body in bases.items():
        status, text = await post(page, path, json.dumps(body).encode(), **headers)
        assert status == 200, f"{path}: {text}"


async def test_the_playground_process_answers_nested_json_on_every_route_and_logs_no_error(
    tmp_path,
):
    """``python bot.py --playground`` as a user starts it: what aiohttp would log as an
    error while answering 500 reaches its standard error."""
    routes = ["/api/click", "/api/locale", "/api/say", "/api/select", "/api/slash"]
    async with playground_process(tmp_path) as run, aiohttp.ClientSession(run.url) as http:
        for path in routes:
            for body in (MALFORMED["nested arrays"], MALFORMED["nested in a field"]):
                headers = {"Content-Type": "application/json"}
                async with http.post(path, data=body, headers=headers) as answer:
                    said = (answer.status, (await answer.json())["error"])
                assert said == (400, "the JSON is nested too deeply"), path
    printed = run.errors.decode()
    assert "Traceback" not in printed and "ERROR" not in printed, printed[-2000:]
