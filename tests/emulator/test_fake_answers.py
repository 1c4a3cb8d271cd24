"""The fake Discord answers like Discord: the check every `fake_discord` test ends with
(each REST answer against Discord's OpenAPI description) names what an answer lacks,
components come back numbered, and an option a bot completes offers the choices it
answered, within Discord's limits."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from openapi_answers import OpenApiAnswers

from fakediscord import ChoiceInfo, ErrorLog, FakeDiscord, RecordedAnswer
from fakediscord.fixtures import FakeWorld

FRUITS = ["apple", "apricot", "banana", "cherry"]
GERMAN = {"apple": "Apfel", "cherry": "Kirsche"}


class AnswersBot(commands.Bot):
    """A bot with one command whose option it completes and one that posts components."""

    def __init__(self, fake: FakeDiscord) -> None:
        super().__init__(
            command_prefix="!",
            intents=discord.Intents.default(),
            connector=fake.connector(),
            guild_ready_timeout=0.01,
        )
        self.picked: list[str] = []
        self.sent: list[discord.Message] = []
        self.fruits = FRUITS

    async def setup_hook(self) -> None:
        self.tree.add_command(fruit)
        self.tree.add_command(board)
        await self.tree.sync()


@app_commands.command(name="fruit", description="pick a fruit")
async def fruit(interaction: discord.Interaction, name: str, ripe: bool = True) -> None:
    bot = interaction.client
    assert isinstance(bot, AnswersBot)
    bot.picked.append(name)
    await interaction.response.send_message(f"{name}, ripe: {ripe}", ephemeral=True)


@fruit.autocomplete("name")
async def fruit_names(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    bot = interaction.client
    assert isinstance(bot, AnswersBot)
    choices = [
        app_commands.Choice(name=fruit.capitalize(), value=fruit)
        for fruit in bot.fruits
        if fruit.startswith(current)
    ]
    for choice in choices:
        if choice.value in GERMAN:
            choice.name_localizations = {discord.Locale.german: GERMAN[choice.value]}
    return choices


@app_commands.command(name="board", description="post components")
async def board(interaction: discord.Interaction) -> None:
    bot = interaction.client
    assert isinstance(bot, AnswersBot)
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="Roll", emoji="🎲", custom_id="roll"))
    view.add_item(discord.ui.Button(label="Pass", custom_id="pass"))
    options = [discord.SelectOption(label="Bar", value="bar", emoji="🚧")]
    view.add_item(discord.ui.Select(custom_id="move", options=options, row=1))
    assert isinstance(interaction.channel, discord.TextChannel)
    bot.sent.append(await interaction.channel.send("a board", view=view))
    await interaction.response.send_message("posted", ephemeral=True)


@pytest.fixture
async def bot(fake_discord: FakeWorld) -> AsyncIterator[AnswersBot]:
    answers_bot = AnswersBot(fake_discord.fake)
    await fake_discord.start_bot(answers_bot)
    yield answers_bot


def answer(method: str, path: str, status: int, body: Any = None) -> RecordedAnswer:
    return RecordedAnswer(method, path, status, b"" if body is None else json.dumps(body).encode())


def user(**fields: Any) -> dict[str, Any]:
    return {
        "id": "1",
        "username": "alice",
        "global_name": "Alice",
        "discriminator": "0",
        "avatar": None,
        "public_flags": 0,
        "flags": 0,
        "primary_guild": None,
    } | fields


def message(components: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "id": "5",
        "channel_id": "2",
        "type": 0,
        "author": user(),
        "content": "a board",
        "timestamp": "2026-12-02T15:01:59.123000+00:00",
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": [],
        "components": components,
        "pinned": False,
        "flags": 0,
    }


def button(**fields: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": "Roll", "custom_id": "roll"} | fields


@pytest.fixture(scope="module")
def check() -> OpenApiAnswers:
    return OpenApiAnswers.load()


def test_an_answer_lacking_what_discord_sends_is_named(check: OpenApiAnswers) -> None:
    me = user(mfa_enabled=False)
    assert check.mismatches_of(answer("GET", "/users/@me", 200, me)) == [
        "get_my_user 200 $: 'locale' is a required property"
    ]
    assert check.mismatches_of(answer("GET", "/users/@me", 200, me | {"locale": "en-US"})) == []


def test_inside_a_union_the_alternative_meant_is_the_one_named(check: OpenApiAnswers) -> None:
    unnumbered = message([{"type": 1, "id": 1, "components": [button()]}])
    numbered = message([{"type": 1, "id": 1, "components": [button(id=2)]}])
    path = "/channels/2/messages"
    assert check.mismatches_of(answer("POST", path, 200, unnumbered)) == [
        "create_message 200 $.components[*].components[*]: 'id' is a required property"
    ]
    assert check.mismatches_of(answer("POST", path, 200, numbered)) == []


def test_a_status_or_body_the_description_lacks_is_named(check: OpenApiAnswers) -> None:
    thread_path = "/channels/2/messages/5/threads"
    assert check.mismatches_of(answer("POST", thread_path, 200, {"id": "5"})) == [
        "create_thread_from_message: answered 200; the description has 201, 429, 4XX"
    ]
    assert check.mismatches_of(answer("DELETE", "/channels/2/messages/5", 204, {})) == [
        "delete_message 204: a body where Discord sends none"
    ]
    assert check.mismatches_of(answer("POST", "/guilds/1/emojis", 201, {"id": "1"})) == [
        "POST /guilds/1/emojis: no operation of the description"
    ]


def test_discords_own_error_answers_pass(check: OpenApiAnswers) -> None:
    field_error = {
        "_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 2000 or fewer in length."}]
    }
    invalid = {"message": "Invalid Form Body", "code": 50035, "errors": {"content": field_error}}
    limited = {
        "message": "You are being rate limited.",
        "retry_after": 0.5,
        "global": False,
        "code": 0,
    }
    assert check.mismatches_of(answer("POST", "/channels/2/messages", 400, invalid)) == []
    assert check.mismatches_of(answer("POST", "/channels/2/messages", 429, limited)) == []
    assert (
        check.mismatches_of(
            answer("GET", "/nowhere", 404, {"message": "404: Not Found", "code": 0})
        )
        == []
    )


async def test_every_route_of_the_fake_has_its_operation_in_the_description(
    fake_discord: FakeWorld, check: OpenApiAnswers
) -> None:
    runner = fake_discord.fake._runner
    assert runner is not None
    api_routes = [
        (route.method, route.resource.canonical.removeprefix("/api/v10"))
        for route in runner.app.router.routes()
        if route.resource is not None and route.resource.canonical.startswith("/api/v10/")
    ]
    assert len(api_routes) > 20
    missing = [
        (method, path)
        for method, path in api_routes
        if check.operation_for(method, path.replace("{", "").replace("}", "")) is None
    ]
    assert missing == []


async def test_components_come_back_numbered_in_reading_order(
    fake_discord: FakeWorld, bot: AnswersBot
) -> None:
    await fake_discord.alice.slash(fake_discord.games, "board")

    (sent,) = bot.sent
    rows = [(row.id, [item.id for item in row.children]) for row in sent.components]
    assert rows == [(1, [2, 3]), (4, [5])]
    stored = fake_discord.games.last_message().components
    assert stored[0]["components"][0]["emoji"] == {"name": "🎲"}
    assert stored[1]["components"][0]["options"][0]["emoji"] == {"name": "🚧"}
    assert (stored[1]["components"][0]["min_values"], stored[1]["components"][0]["max_values"]) == (
        1,
        1,
    )


async def test_an_option_the_bot_completes_offers_its_choices(
    fake_discord: FakeWorld, bot: AnswersBot
) -> None:
    alice = fake_discord.alice
    offered = await alice.autocomplete(fake_discord.games, "fruit", "name", "ap", ripe=False)
    everything = await alice.autocomplete(fake_discord.games, "fruit", "name", "")

    assert offered == [ChoiceInfo("Apple", "apple"), ChoiceInfo("Apricot", "apricot")]
    assert [choice.name for choice in everything] == ["Apple", "Apricot", "Banana", "Cherry"]
    assert bot.picked == []
    await alice.slash(fake_discord.games, "fruit", name=offered[1].value)
    assert bot.picked == ["apricot"]


async def test_a_choice_reads_in_the_members_language(
    fake_discord: FakeWorld, bot: AnswersBot
) -> None:
    bob = fake_discord.bob
    bob.locale = "de"

    offered = await bob.autocomplete(fake_discord.games, "fruit", "name", "")

    assert offered == [
        ChoiceInfo("Apfel", "apple"),
        ChoiceInfo("Apricot", "apricot"),
        ChoiceInfo("Banana", "banana"),
        ChoiceInfo("Kirsche", "cherry"),
    ]


async def test_more_than_25_choices_are_refused_like_discord(
    fake_discord: FakeWorld, bot: AnswersBot, error_log: ErrorLog
) -> None:
    bot.fruits = [f"fruit {number}" for number in range(26)]
    error_log.expect("Ignoring exception in autocomplete")
    with pytest.raises(AssertionError, match="never acknowledged"):
        await fake_discord.alice.autocomplete(fake_discord.games, "fruit", "name", "")
    callback = "/interactions/{interaction_id}/{interaction_token}/callback"
    answered = [request.status for request in fake_discord.requests if request.route == callback]
    assert answered == [400]


async def test_only_an_option_that_autocompletes_can_be_typed_into(
    fake_discord: FakeWorld, bot: AnswersBot
) -> None:
    with pytest.raises(AssertionError, match="no option 'ripe' that autocompletes"):
        await fake_discord.alice.autocomplete(fake_discord.games, "fruit", "ripe", "tr")
