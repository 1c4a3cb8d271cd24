"""Option values a modified client can send. Discord's own client keeps every slash
command option within its type, range, length and choices; the bot does not count on
it: each value outside them gets one short private answer naming the option, and
nothing is stored.

The cases are made from the commands the bot registered with Discord (the synced
tree, as the fake Discord received it), so an option added tomorrow is covered too.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import discord

from fakediscord import SimUser
from fakediscord.commands import (
    BOOLEAN,
    CHANNEL,
    INTEGER,
    MENTIONABLE,
    NUMBER,
    STRING,
    SUBCOMMAND,
    SUBCOMMAND_GROUP,
    USER,
)

DISCORD_LARGEST_INTEGER = 2**53 - 1
DISCORD_LONGEST_TEXT = 6000
SHORT = 200


@dataclass(frozen=True)
class Forged:
    """One command sent with one option's value forged (or left out, when required)."""

    command: str
    option: str
    value: Any
    others: dict[str, Any]

    def __str__(self) -> str:
        shown = "left out" if self.value is LEFT_OUT else repr(self.value)[:40]
        return f"/{self.command} {self.option}={shown}"


LEFT_OUT = object()


def leaf_commands(commands: list[dict[str, Any]]) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """Every runnable command path ("league season start") with its options."""

    def walk(schema: dict[str, Any], path: str) -> Iterator[tuple[str, list[dict[str, Any]]]]:
        options = schema.get("options") or []
        nested = [o for o in options if o["type"] in (SUBCOMMAND, SUBCOMMAND_GROUP)]
        if not nested:
            yield path, options
        for option in nested:
            yield from walk(option, f"{path} {option['name']}")

    for command in commands:
        yield from walk(command, command["name"])


def offered(option: dict[str, Any]) -> list[Any]:
    return [choice["value"] for choice in option.get("choices") or []]


def out_of_bounds(option: dict[str, Any]) -> list[Any]:
    """Values of the option's type that Discord's client would never send for it."""
    kind, choices = option["type"], offered(option)
    if kind in (INTEGER, NUMBER):
        low, high = option.get("min_value"), option.get("max_value")
        values: list[Any] = [DISCORD_LARGEST_INTEGER + 1, -DISCORD_LARGEST_INTEGER - 1]
        values += [] if low is None else [low - 1]
        values += [] if high is None else [high + 1, 10**6, 10**9]
        values += [] if not choices else [min(choices) + 1, -min(choices)]
        return [value for value in values if value not in choices]
    if kind == STRING:
        low, high = option.get("min_length", 0), option.get("max_length", DISCORD_LONGEST_TEXT)
        values = ["x" * (high + 1)] + ([] if low == 0 else ["x" * (low - 1)])
        return values + ([] if not choices else ["chess", "", choices[0].upper() + " "])
    return []


def wrong_types(option: dict[str, Any]) -> list[Any]:
    """Values of another type than the option's (JSON can carry any)."""
    kind = option["type"]
    if kind == INTEGER:
        return ["7", 2.5, True, None]
    if kind == NUMBER:
        return ["7", True, None]
    if kind == STRING:
        return [5, True, None, ["list"]]
    if kind == BOOLEAN:
        return ["yes", 1, None]
    if kind in (USER, MENTIONABLE, CHANNEL):
        return ["12345", "not-a-snowflake", 5]
    return []


def valid(option: dict[str, Any], member: SimUser) -> Any:
    """A value Discord's client could send, for the other required options."""
    kind, choices = option["type"], offered(option)
    if choices:
        return choices[0]
    if kind in (INTEGER, NUMBER):
        return option.get("min_value", 1)
    if kind == STRING:
        return "x" * max(1, option.get("min_length", 1))
    if kind == BOOLEAN:
        return True
    return member


def forged_commands(commands: list[dict[str, Any]], member: SimUser) -> list[Forged]:
    cases = []
    for path, options in leaf_commands(commands):
        for option in options:
            others = {
                other["name"]: valid(other, member)
                for other in options
                if other.get("required") and other is not option
            }
            values = out_of_bounds(option) + wrong_types(option)
            if option.get("required"):
                values.append(LEFT_OUT)
            cases += [Forged(path, option["name"], value, others) for value in values]
    return cases


def everything_stored(database_path) -> dict[str, list[tuple]]:
    with sqlite3.connect(database_path) as db:
        tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {table: sorted(db.execute(f"SELECT * FROM {table}")) for table in tables}


async def send(world, case: Forged):
    options = dict(case.others)
    if case.value is not LEFT_OUT:
        options[case.option] = case.value
    return await world.alice.forged_slash(world.games, case.command, **options)


async def test_every_option_outside_its_type_range_length_or_choices_is_refused_privately(
    nim, fake_discord, start_bot, database_path
):
    """With Nim hosted too: a game added to the bot is covered without a word here."""
    world = fake_discord
    await start_bot()
    world.alice.permissions = discord.Permissions(manage_guild=True, manage_messages=True)
    cases = forged_commands(world.commands.listing(None), world.bob)
    assert {case.command for case in cases} >= {
        "settings",
        "league standings",
        "league season start",
        "game export",
        "bann new",
        "gulbara new",
        "barbu new",
        "barree new",
        "nim new",
    }, "every command with a bounded option is among the cases"
    before = everything_stored(database_path)

    problems = []
    for case in cases:
        try:
            result = await send(world, case)
        except AssertionError as unanswered:
            problems.append(f"{case}: {unanswered}")
            continue
        answers = [m.content for m in result.new_messages]
        named = f"`{case.option}`"
        if len(result.ephemeral) != 1 or len(answers) != 1:
            problems.append(f"{case}: answered with {answers!r}")
        elif named not in answers[0] or len(answers[0]) > SHORT:
            problems.append(f"{case}: {answers[0]!r} is not short or does not name {named}")
    assert problems == [], "\n".join(problems)
    assert everything_stored(database_path) == before, "a refused value changed nothing"


async def test_the_values_the_issue_found_get_their_answers_and_the_channel_stays_free(
    fake_discord, start_bot, database_path
):
    world = fake_discord
    await start_bot()
    world.alice.permissions = discord.Permissions(manage_guild=True)
    choose = "must be one of the offered choices."
    refusals = [
        ("settings", {"game": "bann", "clock": 1}, f"`clock` {choose}"),
        ("settings", {"lobby_expiry": 5}, f"`lobby_expiry` {choose}"),
        ("settings", {"language": "fr"}, f"`language` {choose}"),
        ("bann new", {"clock": 1}, f"`clock` {choose}"),
        ("bann new", {"computer": "godlike"}, f"`computer` {choose}"),
        ("league standings", {"game": "chess"}, f"`game` {choose}"),
        ("barbu new", {"series": 10**6}, "`series` must be from 1 to 4."),
        ("barree new", {"rounds": 10**6}, "`rounds` must be from 1 to 10."),
        ("gulbara new", {"match_to": 10**9}, "`match_to` must be from 1 to 25."),
        ("barbu new", {"computers": 99}, "`computers` must be from 0 to 3."),
    ]
    for command, options, refusal in refusals:
        result = await world.alice.forged_slash(world.games, command, **options)
        assert [m.content for m in result.new_messages] == [refusal], (command, options)
        assert result.ephemeral == result.new_messages
    assert everything_stored(database_path)["games"] == []

    opened = await world.alice.slash(world.games, "barbu new", computers=3, series=1)
    assert opened.message.embeds[0]["title"].startswith("Barbu"), "nothing blocks the channel"


async def test_a_german_client_is_refused_in_german_with_the_german_option_name(
    fake_discord, start_bot
):
    world = fake_discord
    await start_bot()
    world.alice.locale = "de"
    clock = await world.alice.forged_slash(world.games, "barree new", clock=1)
    assert clock.ephemeral[0].content == "`uhr` muss eine der angebotenen Auswahlen sein."
    rounds = await world.alice.forged_slash(world.games, "barree new", rounds=0)
    assert rounds.ephemeral[0].content == "`rounds` muss zwischen 1 und 10 liegen."


async def test_a_user_who_is_no_member_of_the_server_is_refused_where_a_member_is_wanted(
    fake_discord, start_bot, database_path
):
    """Discord's client lets a member paste any user's id; Discord then resolves a user,
    not a member, and discord.py refuses it before the command runs."""
    world = fake_discord
    await start_bot()
    stranger = world.add_user("eve")
    for command, option in [
        ("bann new", "opponent"),
        ("gulbara new", "opponent"),
        ("league profile", "member"),
        ("league history", "member"),
    ]:
        result = await world.alice.slash(world.games, command, **{option: stranger})
        assert [m.content for m in result.new_messages] == [
            "One of this command's options cannot be used here; check them and try again."
        ], command
        assert result.ephemeral == result.new_messages
    assert everything_stored(database_path)["games"] == []
