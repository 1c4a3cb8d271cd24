"""The layers import only downwards: games, then texts, then render and data, then cogs.
A picture or a rule that imported Discord, or a sentence that drew, would break the
promise that each layer can be used and tested on its own."""

from __future__ import annotations

import ast
import functools
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


# ---- no import circles, and the layers inside cogs/ ------------------------------------

PRODUCT_PACKAGES = ("games", "texts", "render", "data", "cogs")
TOP_MODULES = ("bot", "migrate", "monitoring", "shards")


def product_modules() -> dict[str, Path]:
    """Every module of the product by its dotted name (a package by its own name)."""
    modules = {name: ROOT / f"{name}.py" for name in TOP_MODULES}
    for package in PRODUCT_PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join(parts)] = path
    return modules


def imported_modules(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The product modules ``name`` imports anywhere in it: at the top, under
    TYPE_CHECKING or inside a function, for a circle is a circle wherever it hides."""
    is_package = path.name == "__init__.py"
    found: set[str] = set()

    def add(candidate: str) -> None:
        while candidate and candidate not in known:
            candidate = candidate.rpartition(".")[0]
        if candidate and candidate != name:
            found.add(candidate)

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = name.split(".") if is_package else name.split(".")[:-1]
                package = package[: len(package) - (node.level - 1)]
                base = ".".join([*package, *([node.module] if node.module else [])])
            for alias in node.names:
                add(f"{base}.{alias.name}")
    return found


@functools.cache
def import_graph() -> dict[str, set[str]]:
    known = product_modules()
    return {name: imported_modules(name, path, known) for name, path in known.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for other in sorted(graph[module]):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return groups


def test_no_module_imports_one_that_imports_it_back() -> None:
    assert circles(import_graph()) == []


def test_the_circle_finder_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]


def game_keys() -> set[str]:
    from games import GAMES

    return set(GAMES)


COG_BASICS = {
    "cogs.host",
    "cogs.language",
    "cogs.replies",
    "cogs.render_pool",
    "cogs.review_pool",
    "cogs.scheduler",
    "cogs.worker",
    "cogs.privacy",
    "cogs.unretried",
}
COG_FEATURES = {
    "cogs.timeouts",
    "cogs.archive",
    "cogs.luck",
    "cogs.league",
    "cogs.settings",
    "cogs.member_data",
    "cogs.reviews",
    "cogs.puzzles",
    "cogs.tournament",
}


def cog_layer(module: str) -> int:
    """0 the basics, 1 the table machinery, 2 the features around it (clocks, archive,
    league, settings), 3 the games' cogs, 4 their discovery."""
    if module in ("cogs", "cogs.table"):
        return 0
    if module in COG_BASICS:
        return 0
    if module.startswith("cogs.table."):
        return 1
    if module in COG_FEATURES:
        return 2
    if module.removeprefix("cogs.") in game_keys():
        return 3
    if module == "cogs.discovery":
        return 4
    raise AssertionError(f"{module} belongs to no layer of cogs/: add it to one in this test")


def test_each_part_of_cogs_imports_only_its_own_layer_and_those_below() -> None:
    graph = import_graph()
    upward = {
        module: sorted(
            other
            for other in imported
            if other.startswith("cogs") and cog_layer(other) > cog_layer(module)
        )
        for module, imported in graph.items()
        if module.startswith("cogs")
    }
    assert {module: others for module, others in upward.items() if others} == {}


def test_no_game_cog_imports_another_game_cog() -> None:
    keys = game_keys()
    crossing = {
        f"cogs.{key}": sorted(
            other for other in import_graph()[f"cogs.{key}"] if other.removeprefix("cogs.") in keys
        )
        for key in keys
    }
    assert {module: others for module, others in crossing.items() if others} == {}


@pytest.mark.parametrize("package", ["cogs", "cogs.table"])
def test_a_package_of_cogs_loads_none_of_its_modules_by_itself(package: str) -> None:
    """Importing any part of cogs/ first runs these packages' own modules: importing no
    part of cogs/, they cannot make the order of imports matter."""
    assert {module for module in import_graph()[package] if module.startswith("cogs")} == set()
