"""What a German-speaking table reads: every message of a game, searched for English.

A German end-to-end game collects everything its players saw (public messages and
every earlier version of them, their ephemeral replies and their DMs: text, embeds,
button labels and menu options) and asserts that no English word is in it. The words
below are common English words that are not German words too ("die", "was", "hand",
"in" and "Blockade", Barree's German term, are German, so they are not listed); names and
card notation are not words of either language and pass.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from fakediscord import Channel, Message, SimUser

_ENGLISH = """
    the you your yours is are to of and with for on at by from this that these those it
    its not yes no now next wins win won lost loses draw drawn turn turns move moves
    moved play plays played playing player players game games choose chooses chose
    join joins leave leaves cancel cancelled board card cards deal deals points score
    scores double doubles doubled redouble resign resigns resigned offer offers accept
    accepts decline declines roll rolls rolled dice field fields castle castles knight
    knights trick tricks trumps hearts queens last two three four waiting needs more
    seat seats open opened over ended only may must can cannot here there who what
    which when where why how one every each all nobody someone yet still again back
    undo confirm send sends sent keep kept walk walks hidden show shows
    shown menu newest outdated refused sorry please try wait time clock left right
    rules new
"""
ENGLISH_WORDS = frozenset(_ENGLISH.split())


def words(text: str) -> Iterator[str]:
    yield from re.findall(r"[A-Za-zÄÖÜäöüß]+", text)


NAMES = re.compile(r"docs/[\w./-]+|`[^`\s]+`|\(oder `?/[^)]*\)")
"""Not sentences: a file of the bot's repository, a notation in backticks that a player
types as it stands in every language (`double:2,4`, `pass`, `QS`), and the English name of
a slash command that a public message gives after the German one ("`/partie export`
(oder `/game export`)"), as English clients see it."""


def english_in(text: str) -> list[str]:
    """The English words of ``text``, in order."""
    prose = NAMES.sub("", text)
    return [word for word in words(prose) if word.lower() in ENGLISH_WORDS]


def message_texts(message: Message) -> Iterator[str]:
    """Every text of a message and of each earlier version of it."""
    for version in [*message.versions, message]:
        yield version.content
        for embed in version.embeds:
            yield from embed_texts(embed)
        yield from component_texts(version.components)


def embed_texts(embed: dict[str, Any]) -> Iterator[str]:
    for key in ("title", "description"):
        yield str(embed.get(key) or "")
    for part in ("footer", "author"):
        yield str((embed.get(part) or {}).get("text") or (embed.get(part) or {}).get("name") or "")
    for field in embed.get("fields") or []:
        yield str(field.get("name") or "")
        yield str(field.get("value") or "")


def component_texts(components: Iterable[dict[str, Any]]) -> Iterator[str]:
    for component in components:
        yield str(component.get("label") or "")
        yield str(component.get("placeholder") or "")
        for option in component.get("options") or []:
            yield str(option.get("label") or "")
            yield str(option.get("description") or "")
        yield from component_texts(component.get("components") or [])


def seen_by(channel: Channel, users: Iterable[SimUser]) -> list[Message]:
    """The channel's messages (public and every user's ephemeral replies) and the users'
    DMs."""
    return [*channel.messages, *(dm for user in users for dm in user.dms)]


def english_seen(channel: Channel, users: Iterable[SimUser]) -> dict[str, list[str]]:
    """Each text the players saw that holds English words, with those words."""
    found: dict[str, list[str]] = {}
    for message in seen_by(channel, users):
        for text in message_texts(message):
            english = english_in(text)
            if english:
                found[text] = english
    return found
