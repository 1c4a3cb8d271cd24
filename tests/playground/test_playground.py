"""The playground's page API: what each simulated player sees, and that every action goes
through the emulator as a Discord interaction to the real bot."""

from __future__ import annotations

import asyncio
import io
import json
import os
import sys
from pathlib import Path

import aiohttp
import pytest
from PIL import Image
from playground_process import ROOT, playground_process

from bot import create_bot
from playground import running
from playground.scene import PLAYER_NAMES
from playground.web import page_served

SOCKET_TABLE = Path("/proc/net/tcp")


def leaf_paths(commands: list[dict]) -> set[str]:
    paths: set[str] = set()

    def walk(node: dict, path: str) -> None:
        children = [o for o in node.get("options", []) if o["type"] in (1, 2)]
        if not children:
            paths.add(path)
        for child in children:
            walk(child, f"{path} {child['name']}")

    for command in commands:
        walk(command, command["name"])
    return paths


async def test_the_page_lists_the_commands_the_bot_synced_and_four_players(playground_page):
    stream = await playground_page.watch_as("alice")
    snapshot = await stream.first("snapshot")
    registered = playground_page.scene.fake.commands.listing(playground_page.scene.guild.id)
    assert snapshot["commands"] == sorted(registered, key=lambda command: command["name"])
    assert {"bann new", "barbu new", "gulbara new", "barree new", "game resign"} <= leaf_paths(
        snapshot["commands"]
    )
    assert [player["name"] for player in snapshot["players"]] == list(PLAYER_NAMES)
    assert snapshot["viewer"] == str(playground_page.player("alice").id)
    async with playground_page.http.get("/") as page:
        assert page.status == 200 and "TableBot playground" in await page.text()


async def test_a_slash_command_opens_a_game_whose_board_reaches_the_page(playground_page):
    stream = await playground_page.watch_as("alice")
    status, answer = await playground_page.act(
        "slash", "alice", channel="games", command="bann new", options={"computer": "normal"}
    )
    assert status == 200 and answer["ok"]
    board = await stream.first("message", lambda m: any(e.get("image") for e in m["embeds"]))
    assert board["command"] == {"user": "alice", "command": "/bann new"}
    labels = [c.get("label") for row in board["components"] for c in row["components"]]
    assert "Tip to 2" in labels or "Tip to 5" in labels
    attachment = board["attachments"][0]
    async with playground_page.http.get(attachment["url"]) as picture:
        assert picture.content_type == "image/png"
        size = Image.open(io.BytesIO(await picture.read())).size
    assert size == (attachment["width"], attachment["height"])


async def test_private_answers_reach_only_the_player_they_are_for(playground_page):
    alice = await playground_page.watch_as("alice")
    bob = await playground_page.watch_as("bob")
    await playground_page.act(
        "slash", "alice", channel="games", command="bann new", options={"computer": "normal"}
    )
    board = await alice.first("message", lambda m: bool(m["components"]))
    tip = next(
        c
        for row in board["components"]
        for c in row["components"]
        if c.get("label", "").startswith("Tip") and not c.get("disabled")
    )
    status, _ = await playground_page.act(
        "click", "alice", message=board["id"], custom_id=tip["custom_id"]
    )
    assert status == 200
    menu = await alice.first("message", lambda m: m["ephemeral"])
    assert "choose a knight move" in str(menu["components"])
    await bob.first("message", lambda m: m["id"] == board["id"])
    assert menu["id"] not in bob.messages(), "bob never hears of alice's private menu"
    late_bob = await playground_page.watch_as("bob")
    assert menu["id"] not in late_bob.messages()


async def test_picking_a_move_in_the_private_menu_plays_it(playground_page):
    alice = await playground_page.watch_as("alice")
    await playground_page.act(
        "slash", "alice", channel="games", command="bann new", options={"computer": "normal"}
    )
    board = await alice.first("message", lambda m: bool(m["components"]))
    tips = [c for row in board["components"] for c in row["components"] if "tip" in c["custom_id"]]
    tip = next(c for c in tips if not c.get("disabled"))
    await playground_page.act("click", "alice", message=board["id"], custom_id=tip["custom_id"])
    menu = await alice.first("message", lambda m: m["ephemeral"])
    select = menu["components"][0]["components"][0]
    move = select["options"][0]["value"]
    status, _ = await playground_page.act(
        "select", "alice", message=menu["id"], custom_id=select["custom_id"], values=[move]
    )
    assert status == 200
    played = await alice.first(
        "message", lambda m: m["id"] == menu["id"] and "✅ You tipped to" in m["content"]
    )
    assert played["ephemeral"]
    redrawn = alice.messages()[board["id"]]
    assert redrawn["attachments"][0]["id"] != board["attachments"][0]["id"], "a new picture"


async def test_user_options_take_the_simulated_members(playground_page):
    bob = await playground_page.watch_as("bob")
    status, _ = await playground_page.act(
        "slash", "alice", channel="games", command="bann new", options={"opponent": "@bob"}
    )
    assert status == 200
    lobby = await bob.first("message", lambda m: bool(m["components"]))
    assert str(playground_page.player("bob").id) in lobby["pinged"], "bob is invited by name"


async def test_bad_requests_get_a_clear_answer_and_change_nothing(playground_page):
    stream = await playground_page.watch_as("carol")
    unknown = await playground_page.act("slash", "carol", channel="games", command="chess new")
    wrong_type = await playground_page.act(
        "slash", "carol", channel="games", command="barbu new", options={"series": "many"}
    )
    stranger = await playground_page.act("slash", "mallory", channel="games", command="bann new")
    assert unknown[0] == 400 and unknown[1]["error"] == "there is no command /chess new"
    assert wrong_type[0] == 400 and wrong_type[1]["error"] == "option 'series' cannot be 'many'"
    assert stranger[0] == 400 and stranger[1]["error"] == "there is no player 'mallory'"
    async with playground_page.http.post("/api/click", json=["not", "an", "object"]) as junk:
        assert junk.status == 400 and (await junk.json())["error"] == "send a JSON object"
    out_of_range = await playground_page.act(
        "slash", "carol", channel="games", command="barbu new", options={"series": 9}
    )
    assert out_of_range[0] == 409 and out_of_range[1]["error"] == "This interaction failed"
    assert "outside 1..4" in out_of_range[1]["detail"]
    assert stream.messages() == {}
    assert playground_page.scene.fake.interactions == {}


async def test_dms_go_to_their_recipient_and_others_are_told_to_look(playground_page):
    alice = await playground_page.watch_as("alice")
    bob = await playground_page.watch_as("bob")
    await playground_page.act(
        "slash", "alice", channel="games", command="barbu new", options={"computers": 2}
    )
    lobby = await bob.first("message", lambda m: bool(m["components"]))
    join = next(c for row in lobby["components"] for c in row["components"] if c["label"] == "Join")
    await playground_page.act("click", "bob", message=lobby["id"], custom_id=join["custom_id"])
    alice_hand = await alice.first("message", lambda m: m["dm"])
    bob_hand = await bob.first("message", lambda m: m["dm"])
    assert "Your hand" in alice_hand["content"] and "Your hand" in bob_hand["content"]
    assert alice_hand["id"] not in bob.messages() and bob_hand["id"] not in alice.messages()
    bob_id = str(playground_page.player("bob").id)
    await alice.first("attention", lambda event: event["player"] == bob_id)


async def test_typed_chat_lines_appear_as_the_player(playground_page):
    dave = await playground_page.watch_as("dave")
    status, _ = await playground_page.act("say", "dave", channel="more-games", text="hi all")
    assert status == 200
    line = await dave.first("message", lambda m: m["content"] == "hi all")
    assert line["author"]["name"] == "dave" and not line["author"]["bot"]


@pytest.mark.skipif(not SOCKET_TABLE.exists(), reason="reads Linux's table of TCP sockets")
async def test_the_page_listens_on_the_loopback_interface_only(playground_page):
    assert listening_addresses(playground_page.port) == {"0100007F"}, "127.0.0.1"


async def test_the_bot_reaches_no_host_but_the_emulator(playground_page):
    connector = playground_page.bot.http.connector
    async with aiohttp.ClientSession(connector=connector, connector_owner=False) as http:
        with pytest.raises(aiohttp.ClientConnectorError) as refused:
            await http.get("https://example.com/")
        assert "refusing to resolve 'example.com'" in str(refused.value.__cause__)
        async with http.get("https://discord.com/api/v10/gateway") as gateway:
            assert gateway.status == 200, "Discord's own hosts lead to the emulator"


async def test_one_command_starts_it_without_a_token_and_ctrl_c_stops_it(tmp_path):
    async with playground_process(tmp_path) as run:
        async with aiohttp.ClientSession() as http, http.get(run.url) as page:
            assert page.status == 200 and "TableBot playground" in await page.text()
        databases = list(tmp_path.glob("tablebot-playground-*/playground.sqlite3"))
        assert len(databases) == 1, "the playground keeps its games in a file of its own"
    assert run.returncode == 0
    assert b"Traceback" not in run.errors and b"ERROR" not in run.errors
    assert list(tmp_path.iterdir()) == [], "the temporary database is removed on exit"


async def test_alice_is_the_servers_admin_and_bob_an_ordinary_member(playground_page):
    alice = await playground_page.watch_as("alice")
    bob = await playground_page.watch_as("bob")
    snapshot = await alice.first("snapshot")
    assert [player["admin"] for player in snapshot["players"]] == [True, False, False, False]
    start = {"channel": "games", "command": "league season start", "options": {"name": "Spring"}}
    assert (await playground_page.act("slash", "bob", **start))[0] == 200
    refusal = await bob.first("message", lambda m: m["ephemeral"])
    assert "Manage Server" in refusal["content"]
    assert (await playground_page.act("slash", "alice", **start))[0] == 200
    started = await alice.first("message", lambda m: "Spring" in m["content"] + str(m["embeds"]))
    assert not started["deleted"]


async def test_a_taken_port_falls_back_to_a_free_one(playground_page):
    async with page_served(playground_page.scene, playground_page.port) as port:
        assert port != playground_page.port
        async with playground_page.http.get(f"http://127.0.0.1:{port}/") as page:
            assert page.status == 200


async def test_a_page_remembering_an_unknown_player_watches_as_the_first(playground_page):
    async with playground_page.http.get("/api/events?viewer=mallory") as response:
        assert response.status == 200
        head = await response.content.readuntil(b"\n\n")
    snapshot = json.loads(head.decode().split("data: ", 1)[1])
    assert snapshot["viewer"] == str(playground_page.player("alice").id)


def listening_addresses(port: int) -> set[str]:
    """The addresses a socket listens on at ``port``, in the kernel's byte order."""
    return {
        fields[1].split(":")[0]
        for fields in (line.split() for line in SOCKET_TABLE.read_text().splitlines()[1:])
        if fields[3] == "0A" and int(fields[1].split(":")[1], 16) == port
    }


@pytest.mark.skipif(not SOCKET_TABLE.exists(), reason="reads Linux's table of TCP sockets")
async def test_asked_for_every_address_it_listens_on_all_and_still_answers_local_names_only(
    fake_ca, tmp_path
):
    async with running(create_bot, tmp_path / "playground.sqlite3", 0, "0.0.0.0") as playground:
        assert listening_addresses(playground.port) == {"00000000"}, "0.0.0.0, as in a container"
        async with aiohttp.ClientSession(f"http://127.0.0.1:{playground.port}") as http:
            async with http.get("/") as page:
                assert page.status == 200, "a published port is reached as 127.0.0.1"
            async with http.get("/", headers={"Host": f"192.0.2.7:{playground.port}"}) as page:
                assert page.status == 403, "a page asked for by another name is refused"
                assert await page.text() == "the playground answers http://127.0.0.1 only"


async def test_an_address_this_machine_does_not_have_is_refused_in_one_line(tmp_path):
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        str(ROOT / "bot.py"),
        "--playground",
        "--host",
        "192.0.2.7",
        "--no-browser",
        cwd=tmp_path,
        env={**os.environ, "TMPDIR": str(tmp_path)},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    _, errors = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 2
    assert errors.decode().splitlines() == [
        "error: the page cannot listen on 192.0.2.7 (Cannot assign requested address): give "
        "--host an address of this machine, such as 127.0.0.1 or 0.0.0.0."
    ]
    assert list(tmp_path.iterdir()) == [], "its temporary database is gone"


async def test_a_member_given_a_german_client_gets_german_answers_and_every_page_knows(
    playground_page,
):
    """The playground has no German client to log in with: a member's client language is
    switched on the page. His private answers then follow it; the others' do not."""
    alice = await playground_page.watch_as("alice")
    bob = await playground_page.watch_as("bob")
    snapshot = await alice.first("snapshot")
    assert {player["locale"] for player in snapshot["players"]} == {"en-US"}

    status, _ = await playground_page.act("locale", "alice", locale="de")
    assert status == 200
    told = await bob.first("locale")
    assert told == {"player": str(playground_page.player("alice").id), "locale": "de"}
    await playground_page.act("slash", "alice", channel="games", command="bann rules")
    await playground_page.act("slash", "bob", channel="games", command="bann rules")

    german = await alice.first("message", lambda m: m["ephemeral"])
    english = await bob.first("message", lambda m: m["ephemeral"])
    assert german["embeds"][0]["title"] == "Bann: die Regeln in Kürze"
    assert english["embeds"][0]["title"] == "Bann: the rules in short"
    status, answer = await playground_page.act("locale", "alice", locale="fr")
    assert status == 400 and "en-US, de" in answer["error"]
    assert playground_page.player("alice").locale == "de", "a refused switch changes nothing"
