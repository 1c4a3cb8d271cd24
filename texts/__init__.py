"""Every sentence a player reads about a game, in one place per game.

The pictures (``render/``) and the messages (``cogs/``) both take their sentences from
here, so a sentence is written once. Each is a whole sentence with named placeholders
(``"{winner} wins: reached the castle."``), never glued from fragments, so translating
the bot means wrapping these strings and nothing else. Pure: no Discord, no Pillow.
"""

from __future__ import annotations

from collections.abc import Sequence

from games import layer_package
from texts.i18n import N_

# A game's sentences are ``texts.<key>``, in whichever game root holds the game.
layer_package(__name__, __path__)

ELLIPSIS = "…"

# A private confirmation speaks to the player in the past tense ("You played …"); the
# channel tells everyone in the present tense with the player's name ("Alice plays …").
YOU_PLAYED = N_("✅ You played {move}.")


def clipped(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, the last one an ellipsis if anything was cut."""
    return text if len(text) <= limit else text[: limit - 1] + ELLIPSIS


def bold(names: Sequence[str]) -> list[str]:
    """Names as a message emphasises them (Discord markdown); pictures use them plain."""
    return [f"**{name}**" for name in names]
