"""The worked example as a second game root: Nim (``tests/nim/``) is hosted the way the
four product games are found, by ``games.add_game_root``, and every per-game test can
run over the four and Nim."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

from games import GAMES, add_game_root, remove_game_root

NIM_ROOT = Path(__file__).resolve().parent / "nim"
EVERY_GAME = (*GAMES, "nim")
"""The product's games in their order, then the worked example."""


@contextlib.contextmanager
def hosting(key: str) -> Iterator[None]:
    """Game ``key`` hosted for a block: a product game always is, Nim for the block."""
    if key in GAMES:
        yield
        return
    add_game_root(NIM_ROOT)
    try:
        yield
    finally:
        remove_game_root(NIM_ROOT)
