"""The layers import only downwards: games, then texts, then render and data, then cogs.
A picture or a rule that imported Discord, or a sentence that drew, would break the
promise that each layer can be used and tested on its own."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = {
    "games": {"discord", "aiosqlite", "asyncio", "PIL", "texts", "render", "data", "cogs"},
    "texts": {"discord", "PIL", "render", "data", "cogs"},
    "render": {"discord", "data", "cogs"},
    "data": {"discord", "games", "texts", "render", "cogs"},
}


def imported_packages(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_a_layer_imports_nothing_above_it(layer: str) -> None:
    offenders = {
        str(path.relative_to(ROOT)): sorted(imported_packages(path) & FORBIDDEN[layer])
        for path in sorted((ROOT / layer).rglob("*.py"))
    }
    assert {path: names for path, names in offenders.items() if names} == {}
