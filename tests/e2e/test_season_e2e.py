"""The season's story through the real discord.py against the fake Discord: a profile
draws each game's rating history where the member played rated games, marks the moments
a part of the bot hands the league (a tournament's start), and the standings say who rose
and who fell most in the last seven days, in the picture and in the embed, in English and
German."""

from __future__ import annotations

import time

import discord
from e2e.test_league_e2e import resigned_game
from PIL import Image

from cogs.league import Moment
from data.league import Season
from render.league import FALL, RISE, WIDTH
from render.rating_history import LANE_HEIGHT, LEGEND_ROW
from render.theme import HIGHLIGHT


class Tournaments:
    """Stands for the part of the bot that will run tournaments: one in Bann."""

    def __init__(self, at: float, name: str) -> None:
        self.at, self.name = at, name
        self.asked: list[tuple[int, str]] = []

    async def moments(self, guild_id: int, user_id: int, kind: str, season: Season) -> list[Moment]:
        self.asked.append((user_id, kind))
        return [Moment(self.at, self.name)] if kind == "bann" else []


def colours(image: Image.Image) -> set[tuple[int, int, int]]:
    rgb = image.convert("RGB")
    return {colour for _, colour in rgb.getcolors(maxcolors=1_000_000) or []}


def shows(colour: tuple[int, int, int], image: Image.Image) -> bool:
    return any(sum(abs(a - b) for a, b in zip(colour, c, strict=True)) < 30 for c in colours(image))


async def test_a_profile_draws_the_season_and_marks_a_tournament(fake_discord, start_bot):
    world = fake_discord
    bot = await start_bot()
    await resigned_game(world, world.alice, world.bob)
    between = time.time()
    await resigned_game(world, world.bob, world.alice)
    await resigned_game(world, world.alice, world.bob)

    newcomer = await world.carol.slash(world.games, "league profile", member=world.dave)
    plain = await world.carol.slash(world.games, "league profile", member=world.alice)
    cup = Tournaments(between, "Spring Cup")
    bot.league.mark_moments(cup)
    marked = await world.carol.slash(world.games, "league profile", member=world.alice)

    without_games, season, with_cup = (
        result.message.image() for result in (newcomer, plain, marked)
    )
    assert without_games.width == season.width == with_cup.width == WIDTH
    assert season.height > without_games.height, "Alice's Bann panel has its chart"
    assert shows(RISE, season) and shows(FALL, season), "two wins and a loss"
    assert not shows(HIGHLIGHT, season)
    assert with_cup.height - season.height == LANE_HEIGHT + LEGEND_ROW
    assert shows(HIGHLIGHT, with_cup), "the tournament's flag"
    assert (world.alice.id, "bann") in cup.asked


async def test_the_standings_name_who_rose_and_who_fell_most_this_week(fake_discord, start_bot):
    world = fake_discord
    await start_bot()
    await resigned_game(world, world.alice, world.bob)
    await resigned_game(world, world.alice, world.carol)
    await resigned_game(world, world.carol, world.bob)

    result = await world.dave.slash(world.games, "league standings", game="bann")

    fields = result.message.embeds[0]["fields"]
    assert [field["name"] for field in fields] == ["Last 7 days"]
    rose, fell = fields[0]["value"].splitlines()
    assert rose.startswith("📈 Rose most: **Alice**, +") and rose.endswith(" in 2 games")
    assert fell.startswith("📉 Fell most: **Bob**, −") and fell.endswith(" in 2 games")
    image = result.message.image()
    assert shows(RISE, image) and shows(FALL, image)


async def test_the_standings_movers_speak_german(fake_discord, start_bot):
    world = fake_discord
    await start_bot()
    await resigned_game(world, world.alice, world.bob)
    world.alice.permissions = discord.Permissions(manage_guild=True)
    await world.alice.slash(world.games, "settings", language="de")

    result = await world.dave.slash(world.games, "league standings", game="bann")

    (field,) = result.message.embeds[0]["fields"]
    assert field["name"] == "Die letzten 7 Tage"
    rose, fell = field["value"].splitlines()
    assert rose.startswith("📈 Am stärksten gestiegen: **Alice**, +")
    assert rose.endswith(" in 1 Partie")
    assert fell.startswith("📉 Am stärksten gefallen: **Bob**, −")


async def test_standings_without_a_rated_game_this_week_name_no_mover(fake_discord, start_bot):
    world = fake_discord
    await start_bot()
    opened = await world.alice.slash(world.games, "bann new", computer="normal")
    asked = await world.alice.click(opened.message, "Resign")
    await world.alice.click(asked.ephemeral[0], "Yes, resign")

    result = await world.dave.slash(world.games, "league standings", game="bann")

    assert result.message.embeds[0].get("fields", []) == [], "an unrated game moves nobody"
