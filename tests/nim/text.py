"""Every sentence a player reads about Nim, for the picture and the messages alike."""

from __future__ import annotations

from collections.abc import Sequence

from nim.game import NimView

RULES = """\
**Goal.** Take the last stone.
**Your turn.** Take one, two or three stones from the heap.
**Notation for `/nim move`.** The number of stones to take: `1`, `2` or `3`.\
"""


def status(view: NimView, names: Sequence[str]) -> str:
    assert view["turn"] is not None
    return "{name} to take; {stones} stones left.".format(
        name=names[view["turn"]], stones=view["stones"]
    )


def result(view: NimView, names: Sequence[str]) -> str:
    assert view["winner"] is not None
    return "{name} took the last stone and wins.".format(name=names[view["winner"]])
