"""A game's facts are declared once, by the game: no shared module names a game's key.

Every module of the layers and ``bot.py`` that is not a game's own (``<layer>/<key>.py``,
the package ``<layer>/<key>/``, or a module named after the game in a folder of the
layer, such as its lesson ``texts/lessons/<key>.py``) is shared: a string equal to a
game's key there would be a fact about that game kept outside it (a table of drawers, a
set of dice games, a special case for one game). The four product games and Nim, the
worked example, count.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from game_roots import NIM_ROOT

from games import GAMES, PRODUCT_ROOT, add_game_root, remove_game_root

LAYERS = ("games", "texts", "render", "data", "cogs")
SHARED_FILES = ("bot.py",)


def every_key() -> set[str]:
    """The keys of the product's games and of the worked example, found by discovery."""
    keys = set(GAMES)
    keys.update(spec.key for spec in add_game_root(NIM_ROOT))
    remove_game_root(NIM_ROOT)
    return keys


def shared_modules(keys: set[str]) -> Iterator[Path]:
    for layer in LAYERS:
        for path in sorted((PRODUCT_ROOT / layer).rglob("*.py")):
            top = path.relative_to(PRODUCT_ROOT / layer).parts[0].removesuffix(".py")
            if top not in keys and path.stem not in keys:
                yield path
    for name in SHARED_FILES:
        yield PRODUCT_ROOT / name


def named_keys(source: str, keys: set[str]) -> list[tuple[int, str]]:
    """Every string constant of ``source`` equal to a key, with its line."""
    return [
        (node.lineno, node.value)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Constant) and node.value in keys
    ]


def test_no_shared_module_names_a_game():
    keys = every_key()
    assert {"bann", "gulbara", "barbu", "barree", "nim"} <= keys
    named = [
        f"{path.relative_to(PRODUCT_ROOT)}:{line}: {key!r}"
        for path in shared_modules(keys)
        for line, key in named_keys(path.read_text(encoding="utf-8"), keys)
    ]
    assert named == [], "a fact about a game belongs on its spec or in its own module"


def test_the_check_sees_a_key_in_a_shared_module():
    source = 'DICE_GAMES = ("gulbara", "barree")\nif kind == "barbu": pass\n'
    assert named_keys(source, {"barbu", "gulbara"}) == [(1, "gulbara"), (2, "barbu")]


def test_every_spec_declares_its_facts():
    for key, spec in GAMES.items():
        assert spec.on_timeout == ("loss" if spec.max_players == 2 else "substitute"), key
    assert [key for key, spec in GAMES.items() if spec.dice is not None] == ["gulbara", "barree"]
    assert [key for key, spec in GAMES.items() if spec.hidden_information] == ["barbu"]
    assert GAMES["barree"].dice is not None and GAMES["barree"].dice.face_names == {0: "bar"}
