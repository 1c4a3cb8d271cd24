"""Sentences every part of the bot shares: durations, ordinals, signed changes."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Literal

from babel.dates import format_skeleton
from babel.lists import format_list
from babel.numbers import format_decimal

from games.turn_clock import DAY, HOUR, MINUTE
from texts.i18n import ENGLISH, N_, t, tn


def duration(language: str, seconds: int) -> str:
    """``seconds`` as a player reads a clock: "10 minutes", "1 Tag"."""
    if seconds >= DAY and seconds % DAY == 0:
        return tn(language, "{count} day", "{count} days", seconds // DAY)
    if seconds >= HOUR and seconds % HOUR == 0:
        return tn(language, "{count} hour", "{count} hours", seconds // HOUR)
    if seconds >= MINUTE and seconds % MINUTE == 0:
        return tn(language, "{count} minute", "{count} minutes", seconds // MINUTE)
    return tn(language, "{count} second", "{count} seconds", seconds)


def signed(change: int) -> str:
    """+12, −7, ±0: the sign always shows, with a true minus sign."""
    if change > 0:
        return f"+{change}"
    return f"−{-change}" if change < 0 else "±0"


def short_date(language: str, moment: float) -> str:
    """The day of ``moment`` (seconds since the epoch, UTC) as the language writes a short
    date: "Mar 3", "3. März". A picture cannot know its reader's time zone, so it is UTC."""
    day = datetime.fromtimestamp(moment, UTC)
    return str(format_skeleton("MMMd", day, locale=language))


def decimal(language: str, value: float) -> str:
    """``value`` with one decimal, as the language writes it: 70.7, 70,7."""
    return str(format_decimal(value, format="0.0", locale=language))


FULL_RULES_LINKED = N_("**Full rules:** [{page}]({address})")
FULL_RULES_IN_SOURCE = N_("**Full rules:** `{page}` in the bot's source code.")


def rule_page(language: str, key: str) -> str:
    """The player's rule book of game ``key`` in ``language``: ``docs/rules/<key>.md`` in
    English, ``docs/rules/<language>/<key>.md`` in a translation."""
    folder = "docs/rules" if language == ENGLISH else f"docs/rules/{language}"
    return f"{folder}/{key}.md"


def full_rules(language: str, key: str, rules_url: str | None) -> str:
    """The line after a game's rules in short that leads to its whole rule book: a link
    when the bot knows the web address of its ``docs/rules`` folder (``rules_url``), else
    where the page is in the bot's source."""
    page = rule_page(language, key)
    if rules_url is None:
        return t(language, FULL_RULES_IN_SOURCE, page=page)
    address = f"{rules_url.rstrip('/')}/{page.removeprefix('docs/rules/')}"
    return t(language, FULL_RULES_LINKED, page=page, address=address)


def listed(
    language: str, items: Sequence[object], style: Literal["standard", "or"] = "standard"
) -> str:
    """Items as a sentence lists them: "2 and 5", "2, 4 und 5" (``style="or"``: "5 or 6")."""
    return str(format_list([str(item) for item in items], style=style, locale=language))


MOST_REASONS = 2
"""A hint names at most this many reasons: one line a player reads at a glance."""


def reasons(language: str, found: Sequence[str]) -> str:
    """The first ``MOST_REASONS`` of a hint's reasons, most important first, as one
    clause: "captures knights 2 and 5; knight 3 is out of danger"."""
    first, *others = found[:MOST_REASONS]
    return t(language, "{reason}; {other}", reason=first, other=others[0]) if others else first
