"""Options the bot completes while a member types, through the real discord.py against the
fake Discord: a season's name in /league standings, profile and export."""

from __future__ import annotations

import discord
import pytest

from fakediscord import ChoiceInfo

SEASON_COMMANDS = ["league standings", "league profile", "league export"]


async def started_seasons(world, *names: str) -> None:
    world.carol.permissions = discord.Permissions(manage_guild=True)
    for name in names:
        await world.carol.slash(world.games, "league season start", name=name)


@pytest.mark.parametrize("command", SEASON_COMMANDS)
async def test_a_season_name_is_offered_as_a_member_types_it(fake_discord, start_bot, command):
    world = fake_discord
    await start_bot()
    await started_seasons(world, "Winter 2026", "Spring 2027")

    everything = await world.dave.autocomplete(world.games, command, "season", "")
    typed = await world.dave.autocomplete(world.games, command, "season", "wIN")
    unknown = await world.dave.autocomplete(world.games, command, "season", "autumn")

    assert [choice.name for choice in everything] == ["Spring 2027", "Winter 2026", "Season 1"]
    assert typed == [ChoiceInfo("Winter 2026", "Winter 2026")]
    assert unknown == []


async def test_the_offered_season_opens_its_standings(fake_discord, start_bot):
    world = fake_discord
    await start_bot()
    await started_seasons(world, "Winter 2026", "Spring 2027")

    (offered,) = await world.dave.autocomplete(
        world.games, "league standings", "season", "winter", game="bann"
    )
    picked = await world.dave.slash(
        world.games, "league standings", game="bann", season=offered.value
    )

    assert picked.message.embeds[0]["title"].endswith("Winter 2026")
