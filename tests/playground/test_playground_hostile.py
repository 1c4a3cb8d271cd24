"""The playground's page server against what another web page, a rebound host name or a
careless script could send it: only the page itself, on 127.0.0.1, acts as a player."""

from __future__ import annotations

import pytest


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
