"""The fake Discord driven by a tiny real discord.py bot: every harness feature, end to end."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import re
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from fakediscord import ErrorLog, FakeDiscord
from fakediscord.fixtures import FakeWorld
from fakediscord.gateway import ACK_DELAY_SECONDS

RED, BLUE, GREEN = (200, 30, 30), (30, 30, 200), (30, 160, 30)
_log = logging.getLogger("tablebot.fakediscord_test")


def png_file(color: tuple[int, int, int], name: str = "board.png") -> discord.File:
    buffer = io.BytesIO()
    Image.new("RGB", (12, 8), color).save(buffer, format="PNG")
    buffer.seek(0)
    return discord.File(buffer, filename=name)


def calls_of(interaction: discord.Interaction) -> list[tuple[Any, ...]]:
    bot = interaction.client
    assert isinstance(bot, DemoBot)
    return bot.calls


class CounterButton(discord.ui.DynamicItem[discord.ui.Button], template=r"fd:count:(?P<n>\d+)"):
    """A button that survives restarts: its state lives in the custom_id."""

    def __init__(self, count: int) -> None:
        super().__init__(discord.ui.Button(label=f"Count {count}", custom_id=f"fd:count:{count}"))
        self.count = count

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> CounterButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = interaction.client
        assert isinstance(bot, DemoBot)
        bot.calls.append(("count", bot.tag, self.count))
        await interaction.response.edit_message(
            view=board_view(self.count + 1), attachments=[png_file(BLUE)]
        )


class PickSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"fd:pick:(?P<table>\d+)"):
    def __init__(self, table: int) -> None:
        options = [discord.SelectOption(label=f"Move {v}", value=v) for v in ("a2>a3", "b1>c3")]
        select = discord.ui.Select(
            custom_id=f"fd:pick:{table}", placeholder="Pick a move", options=options
        )
        super().__init__(select)
        self.table = table

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> PickSelect:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        calls_of(interaction).append(("pick", self.table, list(self.item.values)))
        await interaction.response.send_message(f"you picked {self.item.values}", ephemeral=True)


def board_view(count: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(CounterButton(count))
    view.add_item(PickSelect(7))
    return view


class DemoCog(commands.Cog):
    demo = app_commands.Group(name="demo", description="fakediscord demo commands")
    table = app_commands.Group(name="table", description="a table", parent=demo)

    def __init__(self, bot: DemoBot) -> None:
        self.bot = bot

    @table.command(name="new", description="open a table")
    async def new(
        self,
        interaction: discord.Interaction,
        opponent: discord.Member,
        rounds: app_commands.Range[int, 1, 9],
        computer: bool = False,
    ) -> None:
        calls_of(interaction).append(("new", opponent.id, rounds, computer))
        await interaction.response.send_message(
            f"{interaction.user.mention} vs {opponent.mention}, {rounds} rounds",
            file=png_file(RED),
            view=board_view(0),
            allowed_mentions=discord.AllowedMentions(users=[opponent]),
        )

    @demo.command(name="where", description="channel, number and string options")
    async def where(
        self,
        interaction: discord.Interaction,
        channel: discord.TextChannel,
        weight: float,
        note: str,
    ) -> None:
        calls_of(interaction).append(("where", channel.name, weight, note))
        await interaction.response.send_message("noted", ephemeral=True)

    @demo.command(name="secret", description="an ephemeral answer")
    async def secret(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            "only you see this", ephemeral=True, view=board_view(9)
        )

    @demo.command(name="whoami", description="what the bot learns about the caller")
    async def whoami(self, interaction: discord.Interaction) -> None:
        calls_of(interaction).append(
            (
                "whoami",
                interaction.permissions.manage_messages,
                interaction.app_permissions.attach_files,
            )
        )
        await interaction.response.send_message("noted", ephemeral=True)

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        if message.author != self.bot.user:
            self.bot.calls.append(("message", message.author.id, message.content))

    @demo.command(name="slow", description="defer, then follow up")
    async def slow(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send("done thinking", file=png_file(GREEN))
        await interaction.followup.send("and one more", ephemeral=True)

    @demo.command(name="dm", description="DM someone")
    async def dm(self, interaction: discord.Interaction, user: discord.User) -> None:
        try:
            await user.send("psst, your hand", view=board_view(5))
            outcome = "sent"
        except discord.Forbidden as error:
            outcome = f"forbidden {error.code}"
        calls_of(interaction).append(("dm", outcome))
        await interaction.response.send_message(outcome, ephemeral=True)

    @demo.command(name="attach", description="post a file in the channel")
    async def attach(self, interaction: discord.Interaction) -> None:
        assert isinstance(interaction.channel, discord.TextChannel)
        try:
            await interaction.channel.send("a file", file=png_file(RED))
            outcome = "sent"
        except discord.Forbidden as error:
            outcome = f"forbidden {error.code}"
        calls_of(interaction).append(("attach", outcome))
        await interaction.response.send_message(outcome, ephemeral=True)

    @demo.command(name="post", description="post, then edit with a new attachment")
    async def post(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)
        assert isinstance(interaction.channel, discord.TextChannel)
        message = await interaction.channel.send("posted", file=png_file(RED))
        await message.edit(content="edited", attachments=[png_file(GREEN, "nü board.png")])
        await interaction.followup.send("ok", ephemeral=True)

    @demo.command(name="long", description="try a message over 2000 characters")
    async def long(self, interaction: discord.Interaction) -> None:
        try:
            await interaction.response.send_message("x" * 2001)
        except discord.HTTPException as error:
            calls_of(interaction).append(("long", error.status, error.code))
            await interaction.response.send_message("too long", ephemeral=True)

    @demo.command(name="tidy", description="answer, read the answer back, delete it")
    async def tidy(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("temporary")
        answer = await interaction.original_response()
        calls_of(interaction).append(("tidy", answer.content))
        await interaction.delete_original_response()

    @app_commands.command(name="purge", description="moderators only")
    @app_commands.default_permissions(manage_messages=True)
    async def purge(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("purged", ephemeral=True)

    @demo.command(name="ignore", description="never answers")
    async def ignore(self, interaction: discord.Interaction) -> None:
        calls_of(interaction).append(("ignored",))

    @demo.command(name="fail", description="answers, then raises")
    async def fail(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("about to fail", ephemeral=True)
        raise RuntimeError("boom in demo fail")


class DemoBot(commands.Bot):
    def __init__(
        self, fake: FakeDiscord, calls: list[tuple[Any, ...]], tag: str, **shard: int
    ) -> None:
        super().__init__(
            command_prefix="!",
            intents=discord.Intents.default(),
            connector=fake.connector(),
            guild_ready_timeout=0.01,
            **shard,
        )
        self.calls = calls
        self.tag = tag

    async def setup_hook(self) -> None:
        await self.add_cog(DemoCog(self))
        self.add_dynamic_items(CounterButton, PickSelect)
        await self.tree.sync()


@pytest.fixture
def calls() -> list[tuple[Any, ...]]:
    return []


@pytest.fixture
async def bot(fake_discord: FakeWorld, calls: list[tuple[Any, ...]]) -> AsyncIterator[DemoBot]:
    demo_bot = DemoBot(fake_discord.fake, calls, tag="A")
    await fake_discord.start_bot(demo_bot)
    yield demo_bot


async def raw_post(fake: FakeDiscord, path: str, body: dict[str, Any]) -> tuple[int, dict]:
    async with (
        aiohttp.ClientSession(connector=fake.connector()) as session,
        session.post(
            f"https://discord.com/api/v10{path}",
            json=body,
            headers={"Authorization": "Bot fake-token"},
        ) as response,
    ):
        assert response.headers["Content-Type"] == "application/json"
        return response.status, await response.json()


async def test_bot_logs_in_gets_ready_and_syncs_its_commands(
    fake_discord: FakeWorld, bot: DemoBot
) -> None:
    assert bot.is_ready()
    assert bot.user is not None and bot.user.id == fake_discord.bot_user.id
    guild = bot.get_guild(fake_discord.guild.id)
    assert guild is not None and guild.name == "Test Server"
    assert [channel.name for channel in guild.text_channels] == ["games"]
    assert guild.member_count == 5, "the bot and four users"
    assert guild.me is not None
    demo, purge = fake_discord.commands.global_commands
    assert (demo["name"], purge["name"]) == ("demo", "purge")
    table = next(option for option in demo["options"] if option["name"] == "table")
    assert [sub["name"] for sub in table["options"]] == ["new"]


async def test_slash_command_passes_user_int_and_bool_options(
    fake_discord: FakeWorld, bot: DemoBot, calls: list
) -> None:
    alice, bob = fake_discord.alice, fake_discord.bob
    result = await alice.slash(
        fake_discord.games, "demo table new", opponent=bob, rounds=3, computer=True
    )
    assert calls == [("new", bob.id, 3, True)]
    board = result.message
    assert board is not None and board is fake_discord.games.last_message()
    assert board.content == f"{alice.mention} vs {bob.mention}, 3 rounds"
    assert board.pinged == [bob.id]
    assert board.interaction_metadata is not None
    assert board.interaction_metadata["user"]["id"] == str(alice.id)
    assert [b.label for b in board.buttons()] == ["Count 0"]
    assert board.selects()[0].values == ["a2>a3", "b1>c3"]


async def test_slash_command_passes_channel_number_and_string_options(
    fake_discord: FakeWorld, bot: DemoBot, calls: list
) -> None:
    games = fake_discord.games
    await fake_discord.alice.slash(games, "demo where", channel=games, weight=2.5, note="ä ♠")
    assert calls == [("where", "games", 2.5, "ä ♠")]


async def test_slash_response_image_decodes(fake_discord: FakeWorld, bot: DemoBot) -> None:
    result = await fake_discord.alice.slash(
        fake_discord.games, "demo table new", opponent=fake_discord.bob, rounds=1
    )
    assert result.message is not None
    image = result.message.image()
    assert image.size == (12, 8)
    assert image.convert("RGB").getpixel((0, 0)) == RED


async def test_ephemeral_response_is_seen_only_by_its_user(
    fake_discord: FakeWorld, bot: DemoBot
) -> None:
    alice, bob, games = fake_discord.alice, fake_discord.bob, fake_discord.games
    result = await alice.slash(games, "demo secret")
    (secret,) = result.ephemeral
    assert secret.content == "only you see this"
    assert secret in games.visible_to(alice)
    assert secret not in games.visible_to(bob)
    assert games.public_messages() == []


async def test_deferred_response_becomes_the_first_followup(
    fake_discord: FakeWorld, bot: DemoBot
) -> None:
    alice, bob, games = fake_discord.alice, fake_discord.bob, fake_discord.games
    result = await alice.slash(games, "demo slow")
    assert result.response_type == 5
    answer = result.message
    assert answer is not None and answer.content == "done thinking"
    assert answer.image().convert("RGB").getpixel((0, 0)) == GREEN
    assert answer.versions[0].flags & 128, "the first version was the 'thinking' placeholder"
    assert answer.flags & 128 == 0
    first, second = result.followups
    assert first is answer
    assert second.content == "and one more" and second.visible_to(alice)
    assert not second.visible_to(bob)


async def test_button_click_updates_the_message_with_a_new_attachment(
    fake_discord: FakeWorld, bot: DemoBot, calls: list
) -> None:
    alice, bob, games = fake_discord.alice, fake_discord.bob, fake_discord.games
    board = (await alice.slash(games, "demo table new", opponent=bob, rounds=2)).message
    assert board is not None
    old_attachment = board.attachments[0]
    result = await bob.click(board, "Count 0")
    assert result.response_type == 7
    assert result.message is board, "edited in place"
    assert calls[-1] == ("count", "A", 0)
    assert [b.label for b in board.buttons()] == ["Count 1"]
    assert len(board.attachments) == 1 and board.attachments[0].id != old_attachment.id
    assert board.image().convert("RGB").getpixel((0, 0)) == BLUE
    assert board.versions[0].attachments == [old_attachment]


async def test_select_hands_the_picked_values_to_the_bot(
    fake_discord: FakeWorld, bot: DemoBot, calls: list
) -> None:
    alice, games = fake_discord.alice, fake_discord.games
    board = (
        await alice.slash(games, "demo table new", opponent=fake_discord.bob, rounds=2)
    ).message
    assert board is not None
    result = await alice.select(board, ["b1>c3"], placeholder="Pick a move")
    assert calls[-1] == ("pick", 7, ["b1>c3"])
    assert [m.content for m in result.ephemeral] == ["you picked ['b1>c3']"]
    with pytest.raises(AssertionError, match="not options"):
        await alice.select(board, ["h8>h9"])
    with pytest.raises(AssertionError, match=r"takes 1\.\.1 values"):
        await alice.select(board, ["a2>a3", "b1>c3"])


async def test_dynamic_button_still_works_after_a_restart(
    fake_discord: FakeWorld, calls: list
) -> None:
    first = DemoBot(fake_discord.fake, calls, tag="A")
    await fake_discord.start_bot(first)
    board = (
        await fake_discord.alice.slash(
            fake_discord.games, "demo table new", opponent=fake_discord.bob, rounds=1
        )
    ).message
    assert board is not None
    await fake_discord.stop_bot(first)
    second = DemoBot(fake_discord.fake, calls, tag="B")
    await fake_discord.start_bot(second)
    await fake_discord.bob.click(board, "Count 0")
    assert calls[-1] == ("count", "B", 0)
    assert [b.label for b in board.buttons()] == ["Count 1"]


async def test_dm_reaches_open_dms_and_closed_dms_raise_50007(
    fake_discord: FakeWorld, bot: DemoBot, calls: list
) -> None:
    erin = fake_discord.add_user("erin", guild=fake_discord.guild, dms_open=False)
    await fake_discord.alice.slash(fake_discord.games, "demo dm", user=fake_discord.bob)
    assert [m.content for m in fake_discord.bob.dms] == ["psst, your hand"]
    await fake_discord.alice.slash(fake_discord.games, "demo dm", user=erin)
    assert calls == [("dm", "sent"), ("dm", "forbidden 50007")]
    assert erin.dms == []


async def test_missing_attach_files_permission_raises_50013(
    fake_discord: FakeWorld, bot: DemoBot, calls: list
) -> None:
    games = fake_discord.games
    games.bot_permissions = discord.Permissions(view_channel=True, send_messages=True)
    await fake_discord.alice.slash(games, "demo attach")
    assert calls == [("attach", "forbidden 50013")]
    assert games.public_messages() == []
    cached = bot.get_channel(games.id)
    assert isinstance(cached, discord.TextChannel)
    assert not cached.permissions_for(cached.guild.me).attach_files, "CHANNEL_UPDATE arrived"


async def test_an_archived_thread_leaves_the_cache_and_is_fetched_and_reopened(
    fake_discord: FakeWorld, bot: DemoBot
) -> None:
    games = fake_discord.games
    thread = fake_discord.guild.add_thread(
        games, "Quiet", fake_discord.ids.next(), fake_discord.alice.id
    )
    await fake_discord.wait_until_idle()
    guild = bot.get_guild(fake_discord.guild.id)
    assert guild is not None and guild.get_thread(thread.id) is not None
    thread.archive()
    await fake_discord.wait_until_idle()
    assert guild.get_thread(thread.id) is None, "THREAD_UPDATE dropped it"
    fetched = await guild.fetch_channel(thread.id)
    assert isinstance(fetched, discord.Thread) and fetched.archived
    assert fetched.parent == guild.get_channel(games.id)
    await fetched.send("back")
    await fake_discord.wait_until_idle()
    assert not thread.archived and guild.get_thread(thread.id) is not None


async def test_a_private_thread_knows_its_members(fake_discord: FakeWorld, bot: DemoBot) -> None:
    members = [fake_discord.alice, fake_discord.bob]
    thread = fake_discord.guild.add_thread(
        fake_discord.games, "Secret", fake_discord.ids.next(), members[0].id, private_to=members
    )
    await fake_discord.wait_until_idle()
    guild = bot.get_guild(fake_discord.guild.id)
    assert guild is not None
    cached = guild.get_thread(thread.id)
    assert cached is not None and cached.is_private()
    assert (await cached.fetch_member(fake_discord.bob.id)).id == fake_discord.bob.id
    with pytest.raises(discord.NotFound):
        await cached.fetch_member(fake_discord.carol.id)


async def test_channel_message_edit_replaces_the_attachment(
    fake_discord: FakeWorld, bot: DemoBot
) -> None:
    await fake_discord.alice.slash(fake_discord.games, "demo post")
    posted = fake_discord.games.last_message()
    assert posted.content == "edited"
    assert [a.filename for a in posted.attachments] == ["nü board.png"]
    assert [a.filename for a in posted.versions[0].attachments] == ["board.png"]


async def test_original_response_can_be_fetched_and_deleted(
    fake_discord: FakeWorld, bot: DemoBot, calls: list
) -> None:
    result = await fake_discord.alice.slash(fake_discord.games, "demo tidy")
    assert calls == [("tidy", "temporary")]
    assert result.message is not None and result.message.deleted
    assert fake_discord.games.messages == []


async def test_a_second_callback_for_one_interaction_is_rejected_with_40060(
    fake_discord: FakeWorld, bot: DemoBot
) -> None:
    await fake_discord.alice.slash(fake_discord.games, "demo secret")
    (record,) = fake_discord.interactions.values()
    status, body = await raw_post(
        fake_discord.fake,
        f"/interactions/{record.id}/{record.token}/callback",
        {"type": 4, "data": {"content": "again"}},
    )
    assert (status, body["code"]) == (400, 40060)


async def test_followup_before_acknowledgement_is_refused(
    fake_discord: FakeWorld, bot: DemoBot
) -> None:
    with pytest.raises(AssertionError):
        await fake_discord.alice.slash(fake_discord.games, "demo ignore")
    (record,) = fake_discord.interactions.values()
    status, body = await raw_post(
        fake_discord.fake,
        f"/webhooks/{fake_discord.application_id}/{record.token}?wait=true",
        {"content": "too early"},
    )
    assert (status, body["code"]) == (404, 10015)


async def test_content_over_2000_characters_is_rejected_with_50035(
    fake_discord: FakeWorld, bot: DemoBot, calls: list
) -> None:
    await fake_discord.alice.slash(fake_discord.games, "demo long")
    assert calls == [("long", 400, 50035)]


def button(custom_id: str) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": custom_id[:10] or "x", "custom_id": custom_id}


def row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def select(option_count: int) -> dict[str, Any]:
    options = [{"label": f"o{i}", "value": f"o{i}"} for i in range(option_count)]
    return {"type": 3, "custom_id": "pick", "options": options}


@pytest.mark.parametrize(
    "body",
    [
        {"content": "x" * 2001},
        {"content": "rows", "components": [row(button(f"b{i}")) for i in range(6)]},
        {"content": "wide", "components": [row(*[button(f"b{i}") for i in range(6)])]},
        {"content": "options", "components": [row(select(26))]},
        {"content": "long id", "components": [row(button("c" * 101))]},
        {"content": "twins", "components": [row(button("same"), button("same"))]},
        {"embeds": [{"title": str(i)} for i in range(11)]},
    ],
    ids=["content", "rows", "buttons", "options", "custom_id", "duplicate", "embeds"],
)
async def test_discord_limits_answer_50035(fake_discord: FakeWorld, body: dict[str, Any]) -> None:
    status, answer = await raw_post(
        fake_discord.fake, f"/channels/{fake_discord.games.id}/messages", body
    )
    assert (status, answer["code"], answer["message"]) == (400, 50035, "Invalid Form Body")
    assert answer["errors"]
    assert fake_discord.games.messages == []


async def test_limits_accept_what_discord_accepts(fake_discord: FakeWorld) -> None:
    body = {
        "content": "x" * 2000,
        "components": [row(*[button(f"r{r}b{b}") for b in range(5)]) for r in range(4)]
        + [row(select(25))],
    }
    status, answer = await raw_post(
        fake_discord.fake, f"/channels/{fake_discord.games.id}/messages", body
    )
    assert status == 200, answer
    assert len(fake_discord.games.last_message().buttons()) == 20


async def test_unacknowledged_interaction_fails_the_harness_check(
    fake_discord: FakeWorld, bot: DemoBot, calls: list
) -> None:
    with pytest.raises(AssertionError, match="interaction /demo ignore was never acknowledged"):
        await fake_discord.alice.slash(fake_discord.games, "demo ignore")
    assert calls == [("ignored",)]


async def test_error_logs_are_recorded_for_the_test_to_fail(
    fake_discord: FakeWorld, bot: DemoBot, error_log: ErrorLog
) -> None:
    await fake_discord.alice.slash(fake_discord.games, "demo fail")
    _log.error("a bot-side error")
    problems = error_log.problems()
    assert "boom in demo fail" in problems
    assert "a bot-side error" in problems
    asyncio.get_running_loop().call_exception_handler(
        {"message": "Task exception was never retrieved", "exception": ValueError("lost")}
    )
    assert "ValueError: lost" in error_log.problems()
    error_log.expect("boom in demo fail")
    error_log.expect("a bot-side error")
    error_log.expect("ValueError: lost")
    assert error_log.problems() == ""
    error_log.expect("never happens")
    assert error_log.problems() == "expected error never logged: 'never happens'"
    error_log._expected.pop()


async def test_rate_limited_requests_are_retried_by_discord_py(
    fake_discord: FakeWorld, bot: DemoBot
) -> None:
    messages_route = "/channels/{channel_id}/messages"
    callback_route = "/interactions/{interaction_id}/{interaction_token}/callback"
    fake_discord.rate_limit("POST", messages_route, count=2, retry_after=0.01)
    fake_discord.rate_limit("POST", callback_route, count=1, retry_after=0.01)
    await fake_discord.alice.slash(fake_discord.games, "demo post")
    assert fake_discord.games.last_message().content == "edited"
    statuses = [r.status for r in fake_discord.requests if r.route == messages_route]
    assert statuses == [429, 429, 200]
    statuses = [r.status for r in fake_discord.requests if r.route == callback_route]
    assert statuses == [429, 200], "with_response=true answers 200 with a body"


async def test_resolver_refuses_hosts_other_than_discord(fake_discord: FakeWorld) -> None:
    async with aiohttp.ClientSession(connector=fake_discord.connector()) as session:
        with pytest.raises(aiohttp.ClientConnectorError, match=r"example\.com"):
            await session.get("https://example.com/")


async def test_gateway_reconnect_resumes_the_session(fake_discord: FakeWorld, bot: DemoBot) -> None:
    await fake_discord.reconnect_gateways()
    assert fake_discord.gateway.identify_count == 1
    result = await fake_discord.alice.slash(fake_discord.games, "demo secret")
    assert result.ephemeral


async def test_unknown_commands_and_options_are_test_errors(
    fake_discord: FakeWorld, bot: DemoBot
) -> None:
    games, alice = fake_discord.games, fake_discord.alice
    with pytest.raises(AssertionError, match="no registered slash command 'nope'"):
        await alice.slash(games, "nope")
    with pytest.raises(AssertionError, match="no options"):
        await alice.slash(games, "demo secret", colour="red")
    with pytest.raises(AssertionError, match="needs an int"):
        await alice.slash(games, "demo table new", opponent=fake_discord.bob, rounds="3")
    with pytest.raises(AssertionError, match=r"outside 1\.\.9"):
        await alice.slash(games, "demo table new", opponent=fake_discord.bob, rounds=10)


async def test_ephemeral_components_are_clickable_by_their_owner_only(
    fake_discord: FakeWorld, bot: DemoBot, calls: list
) -> None:
    alice, bob = fake_discord.alice, fake_discord.bob
    (secret,) = (await alice.slash(fake_discord.games, "demo secret")).ephemeral
    with pytest.raises(AssertionError, match="cannot see"):
        await bob.click(secret, "Count 9")
    result = await alice.click(secret, "Count 9")
    assert result.message is secret and secret.is_ephemeral
    assert calls == [("count", "A", 9)]
    assert [b.label for b in secret.buttons()] == ["Count 10"]


async def test_dm_components_are_clickable_by_the_recipient(
    fake_discord: FakeWorld, bot: DemoBot, calls: list
) -> None:
    alice, bob = fake_discord.alice, fake_discord.bob
    await alice.slash(fake_discord.games, "demo dm", user=bob)
    (hand,) = bob.dms
    with pytest.raises(AssertionError, match="another user's DM"):
        await alice.click(hand, "Count 5")
    await bob.click(hand, "Count 5")
    await bob.select(hand, ["a2>a3"])
    assert calls[1:] == [("count", "A", 5), ("pick", 7, ["a2>a3"])]
    assert [b.label for b in hand.buttons()] == ["Count 6"]


async def test_member_and_app_permissions_reach_the_bot(
    fake_discord: FakeWorld, bot: DemoBot, calls: list
) -> None:
    alice, bob, games = fake_discord.alice, fake_discord.bob, fake_discord.games
    alice.permissions = alice.permissions | discord.Permissions(manage_messages=True)
    await alice.slash(games, "demo whoami")
    games.bot_permissions = discord.Permissions(view_channel=True, send_messages=True)
    await bob.slash(games, "demo whoami")
    assert calls == [("whoami", True, True), ("whoami", False, False)]


async def test_typed_messages_follow_the_message_content_intent(
    fake_discord: FakeWorld, bot: DemoBot, calls: list
) -> None:
    alice = fake_discord.alice
    await alice.say(fake_discord.games, "a2>a3")
    await alice.say(fake_discord.games, f"<@{fake_discord.bot_user.id}> a2>a3")
    assert calls == [
        ("message", alice.id, ""),
        ("message", alice.id, f"<@{fake_discord.bot_user.id}> a2>a3"),
    ]


async def test_nowait_actions_measure_time_to_answer(fake_discord: FakeWorld, bot: DemoBot) -> None:
    games = fake_discord.games
    board = (
        await fake_discord.alice.slash(games, "demo table new", opponent=fake_discord.bob, rounds=1)
    ).message
    assert board is not None
    record = await fake_discord.bob.click_nowait(board, "Count 0")
    await record.wait_answered()
    assert record.response_type == 7
    assert record.latency is not None and 0 < record.latency < 5
    await fake_discord.wait_until_idle()


async def test_routes_the_fake_lacks_are_reported(fake_discord: FakeWorld) -> None:
    status, body = await raw_post(fake_discord.fake, "/guilds/1/emojis", {"name": "x"})
    assert (status, body["code"]) == (404, 0)
    assert fake_discord.internal_errors == [
        "fakediscord has no route POST /api/v10/guilds/1/emojis"
    ]
    fake_discord.internal_errors.clear()


async def test_bots_started_elsewhere_are_synchronised_by_heartbeat(
    fake_discord: FakeWorld, calls: list
) -> None:
    outside = DemoBot(fake_discord.fake, calls, tag="X")
    runner = asyncio.create_task(outside.start("fake-token"), name="started outside the fake")
    while not outside.is_ready():
        await asyncio.sleep(0.005)
    await fake_discord.wait_until_idle()
    board = (
        await fake_discord.alice.slash(
            fake_discord.games, "demo table new", opponent=fake_discord.bob, rounds=1
        )
    ).message
    assert board is not None
    await fake_discord.bob.click(board, "Count 0")
    assert calls[-1] == ("count", "X", 0)
    await outside.close()
    await runner


async def raw_multipart(
    fake: FakeDiscord, method: str, path: str, body: dict[str, Any], files: dict[str, bytes]
) -> dict[str, Any]:
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps(body))
    for index, (name, data) in enumerate(files.items()):
        form.add_field(f"files[{index}]", data, filename=name)
    async with (
        aiohttp.ClientSession(connector=fake.connector()) as session,
        session.request(
            method,
            f"https://discord.com/api/v10{path}",
            data=form if files else None,
            json=None if files else body,
            headers={"Authorization": "Bot fake-token"},
        ) as response,
    ):
        assert response.status == 200, await response.text()
        return await response.json()


async def test_edits_keep_replace_or_clear_attachments(fake_discord: FakeWorld) -> None:
    fake, games = fake_discord.fake, fake_discord.games
    png = io.BytesIO()
    Image.new("RGB", (3, 2), RED).save(png, format="PNG")
    posted = await raw_multipart(
        fake, "POST", f"/channels/{games.id}/messages", {"content": "a"}, {"a.png": png.getvalue()}
    )
    path = f"/channels/{games.id}/messages/{posted['id']}"
    kept_id = posted["attachments"][0]["id"]
    assert posted["attachments"][0]["content_type"] == "image/png"
    await raw_multipart(fake, "PATCH", path, {"content": "b"}, {})
    assert [a.filename for a in games.last_message().attachments] == ["a.png"]
    both = await raw_multipart(
        fake, "PATCH", path, {"attachments": [{"id": kept_id}, {"id": 0}]}, {"b.txt": b"hi"}
    )
    assert [a["filename"] for a in both["attachments"]] == ["a.png", "b.txt"]
    await raw_multipart(fake, "PATCH", path, {"attachments": []}, {})
    message = games.last_message()
    assert message.attachments == [] and message.content == "b"
    assert len(message.versions) == 3


async def test_guilds_and_channels_added_later_reach_the_running_bot(
    fake_discord: FakeWorld, bot: DemoBot
) -> None:
    second = fake_discord.add_guild("Second Server")
    lounge = second.add_text_channel("lounge")
    await fake_discord.wait_until_idle()
    guild = bot.get_guild(second.id)
    assert guild is not None and guild.name == "Second Server"
    assert [channel.id for channel in guild.text_channels] == [lounge.id]


async def test_commands_with_default_permissions_are_hidden_from_other_members(
    fake_discord: FakeWorld, bot: DemoBot
) -> None:
    alice, bob, games = fake_discord.alice, fake_discord.bob, fake_discord.games
    with pytest.raises(AssertionError, match="hidden from members"):
        await bob.slash(games, "purge")
    alice.permissions = alice.permissions | discord.Permissions(manage_messages=True)
    result = await alice.slash(games, "purge")
    assert [m.content for m in result.ephemeral] == ["purged"]


async def test_guild_events_go_to_their_shard_and_dms_to_shard_zero(
    fake_discord: FakeWorld, calls: list
) -> None:
    """Two bots on shards 0 and 1 of two: a guild's interactions reach the bot whose shard
    is (guild_id >> 22) % 2, DM interactions the bot on shard 0."""
    world = fake_discord
    while ((guild := world.add_guild("Shard One")).id >> 22) % 2 != 1:
        await asyncio.sleep(0.002)  # the next millisecond's snowflakes
    channel = guild.add_text_channel("games")
    ann, ben = world.add_user("ann", guild=guild), world.add_user("ben", guild=guild)
    bots = [DemoBot(world.fake, calls, tag=str(n), shard_id=n, shard_count=2) for n in (0, 1)]
    for demo_bot in bots:
        await world.start_bot(demo_bot)
    assert [b.get_guild(guild.id) is not None for b in bots] == [False, True]

    await ann.slash(channel, "demo dm", user=ben)
    await ben.click(ben.dms[0], "Count 5")
    board = (await ann.slash(channel, "demo table new", opponent=ben, rounds=1)).message
    await ben.click(board, "Count 0")

    counts = [call for call in calls if call[0] == "count"]
    assert counts == [("count", "0", 5), ("count", "1", 0)], "DM: shard 0; guild: shard 1"


async def test_watchers_see_every_creation_edit_and_deletion(
    fake_discord: FakeWorld, bot: DemoBot
) -> None:
    seen: list[tuple[str, bool]] = []
    fake_discord.watch(lambda message: seen.append((message.content, message.deleted)))
    await fake_discord.alice.slash(fake_discord.games, "demo post")
    await fake_discord.alice.slash(fake_discord.games, "demo tidy")
    assert seen == [
        ("", False),  # the ephemeral "thinking" answer
        ("posted", False),
        ("edited", False),
        ("ok", False),
        ("temporary", False),
        ("temporary", True),
    ]


async def raw_request(
    fake: FakeDiscord, method: str, path: str, body: dict[str, Any] | None = None
) -> tuple[int, Any, dict[str, str]]:
    async with (
        aiohttp.ClientSession(connector=fake.connector()) as session,
        session.request(
            method,
            f"https://discord.com/api/v10{path}",
            json=body,
            headers={"Authorization": "Bot fake-token"},
        ) as response,
    ):
        return response.status, await response.json(), dict(response.headers)


async def test_messages_older_than_an_hour_take_only_a_budget_of_edits_per_channel(
    fake_discord: FakeWorld,
) -> None:
    fake, games = fake_discord.fake, fake_discord.games
    now = [1_900_000_000.0]
    fake.clock = lambda: now[0]
    fake.old_message_edits.per_hour = 2
    messages = f"/channels/{games.id}/messages"

    async def edit(message: dict[str, Any], content: str) -> tuple[int, Any, dict[str, str]]:
        return await raw_request(fake, "PATCH", f"{messages}/{message['id']}", {"content": content})

    _, first, _ = await raw_request(fake, "POST", messages, {"content": "first"})
    _, second, _ = await raw_request(fake, "POST", messages, {"content": "second"})
    now[0] += 59 * 60
    for attempt in range(4):
        status, _, _ = await edit(first, "young")
        assert status == 200, f"a message younger than an hour: edit {attempt} goes through"
    now[0] += 2 * 60
    for message in (first, second):
        status, _, _ = await edit(message, "old")
        assert status == 200

    status, refusal, headers = await edit(second, "one too many")

    assert status == 429 and refusal["code"] == 30046 and refusal["global"] is False
    assert refusal["retry_after"] == pytest.approx(3600, abs=1), "until the first is an hour old"
    assert headers["Via"] and headers["Retry-After"] == "3600"
    assert games.public_messages()[1].content == "old", "the refused edit changed nothing"
    now[0] += 3600
    status, _, _ = await edit(second, "later")
    assert status == 200, "an hour later the budget is back"


async def test_history_after_a_message_lists_the_next_ones_newest_first(
    fake_discord: FakeWorld,
) -> None:
    fake, games = fake_discord.fake, fake_discord.games
    messages = f"/channels/{games.id}/messages"
    posted = [(await raw_request(fake, "POST", messages, {"content": str(n)}))[1] for n in range(5)]

    _, after, _ = await raw_request(fake, "GET", f"{messages}?after={posted[1]['id']}&limit=2")
    _, before, _ = await raw_request(fake, "GET", f"{messages}?before={posted[3]['id']}&limit=2")

    assert [m["content"] for m in after] == ["3", "2"]
    assert [m["content"] for m in before] == ["2", "1"]


async def test_a_heartbeat_is_acknowledged_after_a_round_trip_as_by_discord(
    fake_discord: FakeWorld,
) -> None:
    """discord.py's heartbeat thread records a heartbeat as sent only after the event loop
    has sent it; an acknowledgement quicker than that is measured against the previous
    heartbeat, a whole interval earlier ("Can't keep up, shard ID None websocket is
    41.3s behind" in the playground). The emulator answers after a network's round trip."""
    async with (
        aiohttp.ClientSession(connector=fake_discord.fake.connector()) as session,
        session.ws_connect("wss://gateway.discord.gg/?v=10&encoding=json") as socket,
    ):
        hello = await socket.receive_json()
        assert hello["op"] == 10
        loop = asyncio.get_running_loop()
        sent = loop.time()
        await socket.send_json({"op": 1, "d": None})
        await socket.send_json({"op": 1, "d": None})
        acknowledged = []
        for _ in range(2):
            frame = await socket.receive_json(timeout=5)
            assert frame["op"] == 11
            acknowledged.append(loop.time() - sent)
    assert min(acknowledged) >= ACK_DELAY_SECONDS
