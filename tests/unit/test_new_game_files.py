"""A new game needs exactly the files CONTRIBUTING.md names: Nim's root holds those and
nothing else, and each of the four games has the same files in the product."""

from __future__ import annotations

import re
from pathlib import Path

from game_roots import NIM_ROOT

from games import GAMES, PRODUCT_ROOT

CONTRIBUTING = PRODUCT_ROOT / "CONTRIBUTING.md"
NAMED_FILE = re.compile(r"^\d+\. `([^`]+)`", re.MULTILINE)


def named_files() -> list[str]:
    """The files of "Adding a game", ``<key>`` standing for the game's key."""
    section = CONTRIBUTING.read_text(encoding="utf-8").split("## Adding a game", 1)[1]
    section = section.split("\n## ", 1)[0]
    return NAMED_FILE.findall(section)


def files_under(root: Path) -> set[str]:
    return {
        path.relative_to(root).as_posix()
        for path in root.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }


def test_contributing_names_seven_files_and_says_so():
    named = named_files()
    assert len(named) == 7 and len(set(named)) == 7, named
    assert "seven files" in CONTRIBUTING.read_text(encoding="utf-8")


def test_the_worked_example_has_exactly_the_named_files():
    assert files_under(NIM_ROOT) == {name.replace("<key>", "nim") for name in named_files()}


def test_each_product_game_has_the_named_files():
    for key in GAMES:
        for name in named_files():
            path = PRODUCT_ROOT / name.replace("<key>", key)
            package = path.with_suffix("") / "__init__.py"
            assert path.is_file() or package.is_file(), f"{key}: {name}"
