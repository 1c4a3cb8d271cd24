"""Languages through the real discord.py against the fake Discord: the slash commands
carry German names for German clients, a German member gets German private answers in
an English server, and the server's language (its `/settings` choice, else its
preferred locale) decides the public messages and pictures."""

from __future__ import annotations

import discord

from fakediscord import SimUser


def _command(world, name: str) -> dict:
    return next(command for command in world.commands.listing(None) if command["name"] == name)


def _option(command: dict, name: str) -> dict:
    return next(option for option in command["options"] if option["name"] == name)


async def test_the_commands_are_synced_with_german_names_and_descriptions(fake_discord, start_bot):
    await start_bot()
    settings = _command(fake_discord, "settings")
    league = _command(fake_discord, "league")

    assert settings["name_localizations"]["de"] == "einstellungen"
    assert settings["description_localizations"]["de"].startswith("Die Einstellungen")
    assert league["name_localizations"]["de"] == "liga"
    language = _option(settings, "language")
    assert language["name_localizations"]["de"] == "sprache"
    assert {choice["name"] for choice in language["choices"]} == {"English", "Deutsch"}
    clock = _option(settings, "clock")
    assert clock["choices"][0]["name_localizations"]["de"] == "5 Minuten (flotter Live-Tisch)"
    standings = _option(league, "standings")
    assert standings["name_localizations"]["de"] == "tabelle"
    assert _option(standings, "game")["name_localizations"]["de"] == "partie"


def descriptions(node: object) -> list[str]:
    """Every description and choice name of a synced command, in every language."""
    found: list[str] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "description" or (key == "name" and "value" in node):
                found.append(value)
            elif key in ("description_localizations",) or (
                key == "name_localizations" and "value" in node
            ):
                found += list((value or {}).values())
            else:
                found += descriptions(value)
    elif isinstance(node, list):
        for item in node:
            found += descriptions(item)
    return found


async def test_no_command_description_shows_markdown_discord_leaves_raw(fake_discord, start_bot):
    """Discord shows a command's descriptions and choices as typed: the issue's `/settings`
    hint read "The game whose default clock `clock` sets", backticks and all."""
    await start_bot()
    commands = fake_discord.commands.listing(None)
    texts = descriptions(commands)
    assert len(texts) > 100 and any("Server verwalten" in text for text in texts)
    assert [text for text in texts if "`" in text or "**" in text] == []


async def test_a_german_member_gets_german_private_answers(fake_discord, start_bot):
    world = fake_discord
    await start_bot()
    carol: SimUser = world.carol
    carol.locale = "de"

    shown = await carol.slash(world.games, "settings")
    refused = await carol.slash(world.games, "settings", threads=True)
    english = await world.bob.slash(world.games, "settings")

    assert shown.message.is_ephemeral
    assert shown.message.embeds[0]["title"] == "Servereinstellungen"
    fields = {field["name"]: field["value"] for field in shown.message.embeds[0]["fields"]}
    assert fields["Ablauf offener Tische"] == "1 Stunde"
    assert fields["Sprache"] == "English (Sprache des Servers)"
    assert refused.message.content == (
        "Nur Mitglieder mit der Berechtigung **Server verwalten** können die Tische in"
        " Threads ändern."
    )
    assert english.message.embeds[0]["title"] == "Server settings"


async def test_the_server_language_makes_the_standings_german(fake_discord, start_bot):
    world = fake_discord
    await start_bot()
    before = await world.bob.slash(world.games, "league standings", game="bann")

    refused = await world.bob.slash(world.games, "settings", language="de")
    world.alice.permissions = discord.Permissions(manage_guild=True)
    changed = await world.alice.slash(world.games, "settings", language="de")
    after = await world.bob.slash(world.games, "league standings", game="bann")

    assert before.message.embeds[0]["title"] == "Bann standings · Season 1"
    assert refused.message.is_ephemeral and "Manage Server" in refused.message.content
    assert changed.message.content == "Settings changed.", "alice's client is English"
    embed = after.message.embeds[0]
    assert embed["title"] == "Bann-Tabelle · Saison 1", "the first season's name in German"
    assert embed["description"] == "In dieser Saison gibt es noch keine gewerteten Partien."
    assert embed["footer"]["text"] == "Seite 1 von 1 · 0 Spieler"
    typed = await world.bob.slash(world.games, "league standings", game="bann", season="Saison 1")
    assert typed.message.embeds[0]["title"] == "Bann-Tabelle · Saison 1", "found by that name"


async def test_a_german_server_speaks_german_until_it_chooses_otherwise(fake_discord, start_bot):
    world = fake_discord
    world.guild.preferred_locale = "de"
    await start_bot()
    world.alice.permissions = discord.Permissions(manage_guild=True)

    german = await world.bob.slash(world.games, "league history")
    await world.alice.slash(world.games, "settings", language="en")
    english = await world.bob.slash(world.games, "league history")

    assert german.message.embeds[0]["title"] == "Letzte Partien"
    assert english.message.embeds[0]["title"] == "Recent games"
