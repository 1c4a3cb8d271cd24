"""The league through the real discord.py against the fake Discord: games finish by
resignation, the announcement shows each rating change, the standings embed and image
follow the ratings, seasons need Manage Server, the export is a CSV of the season, and a
restart records a game whose result was lost exactly once."""

from __future__ import annotations

import csv
import io
import re

import discord
from openskill.models import PlackettLuce
from testdb import both_engines

from data import Seat, Store
from data.league import DISPLAY_BASE, DISPLAY_SCALE, League
from fakediscord import Message, SimUser
from games import GAMES
from render.league import WIDTH as LEAGUE_WIDTH

MODEL = PlackettLuce()


def displayed(rating) -> int:
    return round(DISPLAY_BASE + DISPLAY_SCALE * rating.ordinal())


async def resigned_game(world, winner: SimUser, loser: SimUser) -> Message:
    """winner opens a Bann table for loser, who joins and resigns at once; the
    announcement the game ends with."""
    opened = await winner.slash(world.games, "bann new", opponent=loser)
    board = (await loser.click(opened.message, "Join")).message
    asked = await loser.click(board, "Resign")
    await loser.click(asked.ephemeral[0], "Yes, resign")
    return world.games.public_messages()[-1]


def standings_names(message: Message) -> list[str]:
    return re.findall(r"\*\*(.+?)\*\*", message.embeds[0]["description"])


def expected_order(games: list[tuple[str, str]]) -> list[str]:
    """Names by conservative rating after rating ``(winner, loser)`` games with openskill."""
    ratings: dict[str, object] = {}
    for winner, loser in games:
        pair = [[ratings.get(name, MODEL.rating())] for name in (winner, loser)]
        (won,), (lost,) = MODEL.rate(pair, ranks=[1, 2])
        ratings[winner], ratings[loser] = won, lost
    return sorted(ratings, key=lambda name: ratings[name].ordinal(), reverse=True)


@both_engines()
async def test_the_result_announcement_shows_each_rating_change(fake_discord, start_bot, database):
    world = fake_discord
    bot = await start_bot()

    announcement = await resigned_game(world, world.alice, world.bob)

    (won,), (lost,) = MODEL.rate([[MODEL.rating()], [MODEL.rating()]], ranks=[1, 2])
    start = displayed(MODEL.rating())
    assert announcement.content.startswith("🏳️") and "Bob resigned" in announcement.content
    assert f"Alice {displayed(won)} (+{displayed(won) - start})" in announcement.content
    assert f"Bob {displayed(lost)} (−{start - displayed(lost)})" in announcement.content
    assert bot.store is not None
    table = await bot.store.load(1)
    assert table is not None and table.state is not None
    duplicate = await bot.league.record_result(table)
    assert duplicate is None, "a second finish of the same game records and announces nothing"


async def test_standings_show_the_players_in_rating_order_with_an_image(fake_discord, start_bot):
    world = fake_discord
    await start_bot()
    alice, bob, carol = world.alice, world.bob, world.carol
    played = [(bob, carol), (alice, bob), (alice, carol), (carol, bob)]
    for winner, loser in played:
        await resigned_game(world, winner, loser)

    result = await carol.slash(world.games, "league standings", game="bann")

    order = expected_order(
        [(won.name.capitalize(), lost.name.capitalize()) for won, lost in played]
    )
    assert standings_names(result.message) == order
    assert order[0] == "Alice", "two wins, no loss"
    assert result.message.embeds[0]["title"] == "Bann standings · Season 1"
    image = result.message.image()
    assert image.width == LEAGUE_WIDTH and image.height > 300
    assert result.message.buttons() == [], "one page needs no page buttons"


async def test_a_computer_game_is_announced_as_unrated(fake_discord, start_bot):
    world = fake_discord
    await start_bot()
    opened = await world.alice.slash(world.games, "bann new", computer="normal")
    asked = await world.alice.click(opened.message, "Resign")
    await world.alice.click(asked.ephemeral[0], "Yes, resign")

    announcement = world.games.public_messages()[-1]
    standings = await world.alice.slash(world.games, "league standings", game="bann")

    assert "Not rated: a computer played." in announcement.content
    assert standings_names(standings.message) == []
    history = await world.alice.slash(world.games, "league history")
    assert "(unrated)" in history.message.embeds[0]["description"]


async def test_only_manage_server_starts_a_season_and_old_ones_stay_browsable(
    fake_discord, start_bot
):
    world = fake_discord
    await start_bot()
    await resigned_game(world, world.alice, world.bob)

    refused = await world.carol.slash(world.games, "league season start", name="Winter")
    assert refused.message.is_ephemeral and "Manage Server" in refused.message.content

    world.carol.permissions = discord.Permissions(manage_guild=True)
    started = await world.carol.slash(world.games, "league season start", name="Winter")
    assert "Winter" in started.message.content and not started.message.is_ephemeral
    await resigned_game(world, world.bob, world.alice)

    current = await world.dave.slash(world.games, "league standings", game="bann")
    old = await world.dave.slash(world.games, "league standings", game="bann", season="season 1")
    unknown = await world.dave.slash(world.games, "league standings", game="bann", season="x")
    assert current.message.embeds[0]["title"].endswith("Winter")
    assert standings_names(current.message) == ["Bob", "Alice"]
    assert standings_names(old.message) == ["Alice", "Bob"]
    assert "no season called" in unknown.message.content
    seasons = await world.dave.slash(world.games, "league season list")
    assert re.findall(r"\*\*(.+?)\*\*", seasons.message.embeds[0]["description"]) == [
        "Winter",
        "Season 1",
    ]


async def test_the_export_attaches_the_seasons_results_as_csv(fake_discord, start_bot):
    world = fake_discord
    await start_bot()
    await resigned_game(world, world.alice, world.bob)
    await resigned_game(world, world.carol, world.dave)

    result = await world.bob.slash(world.games, "league export")

    attachment = result.message.attachments[0]
    assert attachment.filename == "league-season-1.csv"
    rows = list(csv.DictReader(io.StringIO(attachment.data.decode("utf-8"))))
    assert [(row["name"], row["outcome"], row["forfeit"]) for row in rows] == [
        ("Alice", "win", "0"),
        ("Bob", "loss", "1"),
        ("Carol", "win", "0"),
        ("Dave", "loss", "1"),
    ]
    assert all(row["link"].startswith("https://discord.com/channels/") for row in rows)


async def test_profile_and_history_show_the_members_games(fake_discord, start_bot):
    world = fake_discord
    await start_bot()
    await resigned_game(world, world.alice, world.bob)

    profile = await world.carol.slash(world.games, "league profile", member=world.bob)
    history = await world.carol.slash(world.games, "league history", member=world.bob)

    assert profile.message.image().width == LEAGUE_WIDTH
    description = profile.message.embeds[0]["description"]
    assert "**Bann**:" in description and "0–1–0" in description
    assert len(description.splitlines()) == len(GAMES), "one line per game"
    lines = history.message.embeds[0]["description"].splitlines()
    assert len(lines) == 1 and "Bob 2nd (resigned)" in lines[0]
    assert "[board](https://discord.com/channels/" in lines[0]


async def twelve_bann_results(target, guild_id: int) -> None:
    """Thirteen players in the Bann standings of the server (two pages): twelve winners
    and the one who lost to each, recorded straight in the database ``target``."""
    store = await Store.open(target)
    league = League(store)
    for index in range(12):
        table = await store.create_table(
            kind="bann",
            guild_id=guild_id,
            channel_id=9000 + index,
            creator_id=1,
            seats=[Seat(f"Winner {index:02}", 500 + index), Seat("Punchbag", 499)],
            options={},
            seed=index,
        )
        start = GAMES["bann"].new_game(players=2, seed=index)
        table.finish(start.returns())
        table.extra["resigned"] = 1
        table.state = start.to_dict()
        await store.save(table, expected_version=table.version)
        await league.record_finished(table)
    await store.close()


async def test_long_standings_turn_pages_with_buttons(fake_discord, start_bot, database_path):
    await twelve_bann_results(database_path, fake_discord.guild.id)
    world = fake_discord
    await start_bot()

    first = await world.alice.slash(world.games, "league standings", game="bann")
    message = first.message
    assert len(standings_names(message)) == 10
    assert "Page 1 of 2" in message.embeds[0]["footer"]["text"]
    await world.bob.click(message, "Next ▶")

    assert "Page 2 of 2" in message.embeds[0]["footer"]["text"]
    assert standings_names(message)[-1] == "Punchbag", "13 players: the loser is last"
    assert len(standings_names(message)) == 3
    await world.bob.click(message, "◀ Previous")
    assert "Page 1 of 2" in message.embeds[0]["footer"]["text"]


@both_engines()
async def test_a_lost_result_is_recorded_once_at_the_next_start(
    fake_discord, start_bot, database
):
    world = fake_discord
    await start_bot()
    await resigned_game(world, world.alice, world.bob)
    for table in ("league_seats", "league_results", "league_ratings"):
        database.run(f"DELETE FROM {table}")

    await start_bot()
    await start_bot()

    result = await world.dave.slash(world.games, "league standings", game="bann")
    assert standings_names(result.message) == ["Alice", "Bob"]
    assert "1 game ·" in result.message.embeds[0]["description"]
    assert database.rows("SELECT COUNT(*) AS results FROM league_results") == [{"results": 1}]


@both_engines()
async def test_only_manage_server_turns_on_rating_computer_games(fake_discord, start_bot, database):
    world = fake_discord
    await start_bot()
    refused = await world.bob.slash(world.games, "settings", rate_computer_games=True)
    assert "Manage Server" in refused.message.content

    world.bob.permissions = discord.Permissions(manage_guild=True)
    changed = await world.bob.slash(world.games, "settings", rate_computer_games=True)
    fields = {field["name"]: field["value"] for field in changed.message.embeds[0]["fields"]}
    assert fields["Games with computers"] == "rated"
    opened = await world.bob.slash(world.games, "bann new", computer="normal")
    asked = await world.bob.click(opened.message, "Resign")
    await world.bob.click(asked.ephemeral[0], "Yes, resign")

    announcement = world.games.public_messages()[-1]
    assert "Ratings: Bob" in announcement.content and "AdaBot" in announcement.content
    # The table's AdaBot plays on the server's one shared computer rating.
    standings = await world.dave.slash(world.games, "league standings", game="bann")
    assert standings_names(standings.message) == ["Computer", "Bob"]
