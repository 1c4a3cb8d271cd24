"""The players' rule book: one page per game, each table option explained, and no link or
reference leading out of the repository (players get the repository, nothing beside it)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from game_roots import EVERY_GAME

from games import GAMES, PRODUCT_ROOT, root_of

ROOT = Path(__file__).resolve().parents[2]
RULE_BOOK = ROOT / "docs" / "rules"
MARKDOWN_LINK = re.compile(r"\]\(([^)\s]+)\)")
SKIPPED_DIRECTORIES = {".git", ".venv", "build", "node_modules", "__pycache__"}
# the team's notes that live beside the repository; spelled in two parts so that this
# file does not name them itself
OUTSIDE_NOTES = ("../" + "shared", "RULES" + ".md", "DESIGN" + ".md")
# CI's machine has its tools there too, beside the clone: .ci/run alone may call them.
MACHINE_TOOLS = "../" + "shared/tools/"


def page(key: str, language: str = "") -> str:
    """The page of game ``key`` in the rule book of the root that holds it."""
    return (root_of(key) / "docs" / "rules" / language / f"{key}.md").read_text(encoding="utf-8")


def listed(key: str, index: Path) -> bool:
    """Whether the product's index links the page (a test root's game is not listed)."""
    return root_of(key) != PRODUCT_ROOT or f"]({key}.md)" in index.read_text(encoding="utf-8")


ON_EVERY_GAME = pytest.mark.parametrize("game_key", EVERY_GAME, indirect=True)


@ON_EVERY_GAME
def test_every_game_has_a_page_that_opens_with_five_lines_of_how_to_play(game_key):
    key = game_key
    text = page(key)
    assert text.startswith(f"# {GAMES[key].title}\n")
    first_section = text.split("\n## ", 2)[1]
    assert first_section.startswith("How to play\n")
    steps = re.findall(r"^(\d)\. ", first_section, flags=re.MULTILINE)
    assert steps == ["1", "2", "3", "4", "5"]
    assert listed(key, RULE_BOOK / "README.md")


def unexplained_options(key: str, text: str) -> list[str]:
    """The options of game ``key``, and the values of those with choices, that ``text``
    never names in code quotes."""
    missing = []
    for option in GAMES[key].options:
        names = [option.name, *(choice.value for choice in option.choices)]
        missing += [name for name in names if f"`{name}`" not in text]
    return missing


@ON_EVERY_GAME
def test_every_table_option_is_explained_on_its_page(game_key):
    key = game_key
    text = page(key)
    assert f"`/{key} new" in text
    assert unexplained_options(key, text) == []


def markdown_files() -> Iterator[Path]:
    yield ROOT / "README.md"
    yield ROOT / "CONTRIBUTING.md"
    yield from sorted((ROOT / "docs").rglob("*.md"))


def test_every_link_in_the_readme_and_the_docs_resolves_inside_the_repository():
    broken = []
    for document in markdown_files():
        for target in MARKDOWN_LINK.findall(document.read_text(encoding="utf-8")):
            if target.startswith(("https://", "http://", "#")):
                continue
            path = (document.parent / target.split("#", 1)[0]).resolve()
            if not path.is_relative_to(ROOT) or not path.exists():
                broken.append(f"{document.relative_to(ROOT)}: {target}")
    assert broken == []


def repository_texts() -> Iterator[Path]:
    for folder, directories, files in os.walk(ROOT):
        directories[:] = [
            name
            for name in directories
            if name not in SKIPPED_DIRECTORIES and not name.endswith(("_cache", ".egg-info"))
            and not name.startswith(".hypothesis")
        ]
        for name in files:
            if name.endswith((".py", ".md", ".toml", ".txt", ".example")) or name == "run":
                yield Path(folder, name)


def test_no_file_refers_to_notes_outside_the_repository():
    mentions = [
        f"{path.relative_to(ROOT)}: {note}"
        for path in repository_texts()
        for note in OUTSIDE_NOTES
        if note in without_machine_tools(path)
    ]
    assert mentions == []


def without_machine_tools(path: Path) -> str:
    text = path.read_text(encoding="utf-8", errors="replace")
    return text.replace(MACHINE_TOOLS, "") if path == ROOT / ".ci" / "run" else text


@ON_EVERY_GAME
def test_every_game_has_a_german_page_with_five_steps_and_every_option(game_key):
    key = game_key
    german = RULE_BOOK / "de"
    text = page(key, "de")
    assert text.startswith(f"# {GAMES[key].title}\n")
    first_section = text.split("\n## ", 2)[1]
    assert first_section.startswith("So wird gespielt\n")
    steps = re.findall(r"^(\d)\. ", first_section, flags=re.MULTILINE)
    assert steps == ["1", "2", "3", "4", "5"]
    assert f"`/{key} neu" in text or f"`/{key} new" in text, "how to open a table"
    assert unexplained_options(key, text) == []
    assert listed(key, german / "README.md")
    assert "](de/README.md)" in (RULE_BOOK / "README.md").read_text(encoding="utf-8")
