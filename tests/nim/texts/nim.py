"""Every sentence a player reads about Nim, for the picture and the messages alike, each
through the translation functions (German in ``texts/locales/de`` of this root)."""

from __future__ import annotations

from collections.abc import Sequence

from games.nim import NimView
from texts.i18n import N_, t, tn

RULES = N_(
    "**Goal.** Take the last stone.\n"
    "**Your turn.** Take one, two or three stones from the heap.\n"
    "**Notation for `/nim move`.** The number of stones to take: `1`, `2` or `3`."
)
MOVE_HELP = N_("Take stones by text, e.g. 2")
NOTATION_HELP = N_("How many stones to take: 1, 2 or 3")
TAKE = N_("Take {count}")
RESIGN = N_("Resign")


def status(view: NimView, names: Sequence[str], language: str) -> str:
    assert view["turn"] is not None
    return tn(
        language,
        "{name} to take; {count} stone left.",
        "{name} to take; {count} stones left.",
        view["stones"],
        name=names[view["turn"]],
    )


def result(view: NimView, names: Sequence[str], language: str) -> str:
    assert view["winner"] is not None
    return t(language, "{name} took the last stone and wins.", name=names[view["winner"]])


def took(name: str, count: int, language: str) -> str:
    """The channel's sentence for one take."""
    return tn(
        language, "{name} takes {count} stone", "{name} takes {count} stones", count, name=name
    )
