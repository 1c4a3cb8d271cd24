"""Pure game rules and computer players: no Discord, no asyncio, no I/O.

Games are found, not listed: every module or package of this package that defines
``SPEC`` (a ``GameSpec``) is a game, and its key names its sentences, picture and Discord
adapter (``texts.<key>``, ``render.<key>``, ``cogs.<key>``). They live in a *game root*, a
folder shaped like the product (``games/``, ``texts/``, ``render/``, ``cogs/``,
``docs/rules/``, ``texts/locales/``); the product is the first root, and
``add_game_root`` adds another (a test's game) to every layer at once.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import sys
from collections.abc import Iterable, MutableSequence
from pathlib import Path
from typing import Any

from games.base import (
    DEFAULT_LEVEL,
    LEVELS,
    Choice,
    Counted,
    GameSpec,
    GameState,
    IllegalAction,
    Option,
    Rng,
)

PRODUCT_ROOT = Path(__file__).resolve().parent.parent
"""The product's own game root: the folder holding this package."""

GAMES: dict[str, GameSpec[Any]] = {}
"""Every game the bot hosts, by key, in the games' declared order: the one registry."""

_roots: list[Path] = [PRODUCT_ROOT]
_root_of: dict[str, Path] = {}
_layer_paths: dict[str, MutableSequence[str]] = {}


def game_roots() -> tuple[Path, ...]:
    """Every game root, the product's first."""
    return tuple(_roots)


def root_of(key: str) -> Path:
    """The game root that holds game ``key`` (its rule pages, its catalogue)."""
    return _root_of[key]


def layer_package(name: str, path: MutableSequence[str]) -> None:
    """Make layer package ``name`` (its ``__path__``) reach into every game root: each
    layer's ``__init__`` calls this, so ``<layer>.<key>`` is found in whichever root
    holds it."""
    _layer_paths[name] = path
    for root in _roots[1:]:
        _extend(path, root / name)


def add_game_root(root: Path) -> list[GameSpec[Any]]:
    """Host the games of another root (a folder shaped like the product); the specs found."""
    root = root.resolve()
    if root in _roots:
        raise ValueError(f"{root} is a game root already")
    _roots.append(root)
    for name, path in _layer_paths.items():
        _extend(path, root / name)
    found = _discover(root)
    _register(found, root)
    return found


def remove_game_root(root: Path) -> None:
    """Undo ``add_game_root``: its games, its layers' modules and its paths are gone."""
    root = root.resolve()
    _roots.remove(root)
    for path in _layer_paths.values():
        for folder in [entry for entry in path if Path(entry).is_relative_to(root)]:
            path.remove(folder)
    for key in [key for key, home in _root_of.items() if home == root]:
        del GAMES[key], _root_of[key]
    for name, module in list(sys.modules.items()):
        origin = getattr(module, "__file__", None)
        if origin is not None and Path(origin).is_relative_to(root):
            del sys.modules[name]
            package, _, leaf = name.rpartition(".")
            if package in sys.modules and hasattr(sys.modules[package], leaf):
                delattr(sys.modules[package], leaf)
    importlib.invalidate_caches()


def _extend(path: MutableSequence[str], folder: Path) -> None:
    if folder.is_dir() and str(folder) not in path:
        path.append(str(folder))


def _discover(root: Path) -> list[GameSpec[Any]]:
    """The spec of every module or package of ``<root>/games`` that defines ``SPEC``.

    Whether it does is read from the source, so the shared modules beside the games
    (which import this package) are never imported from here."""
    folder = root / "games"
    found = []
    for module in pkgutil.iter_modules([str(folder)]):
        name = module.name
        source = folder / name / "__init__.py" if module.ispkg else folder / f"{name}.py"
        if source.is_file() and _defines_spec(source):
            found.append(importlib.import_module(f"{__name__}.{module.name}").SPEC)
    return found


def _defines_spec(source: Path) -> bool:
    for statement in ast.parse(source.read_text(encoding="utf-8")).body:
        if isinstance(statement, ast.Assign):
            names = [target for target in statement.targets if isinstance(target, ast.Name)]
        elif isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
            names = [statement.target]
        elif isinstance(statement, ast.ImportFrom):
            if any((alias.asname or alias.name) == "SPEC" for alias in statement.names):
                return True
            continue
        else:
            continue
        if any(name.id == "SPEC" for name in names):
            return True
    return False


def _register(specs: Iterable[GameSpec[Any]], root: Path) -> None:
    """Host ``specs`` (each key must be new), keeping ``GAMES`` in the declared order."""
    for spec in specs:
        if spec.key in GAMES:
            raise ValueError(f"a game {spec.key!r} is registered already")
        GAMES[spec.key] = spec
        _root_of[spec.key] = root
    ordered = sorted(GAMES.values(), key=lambda spec: (spec.position, spec.key))
    GAMES.clear()
    GAMES.update((spec.key, spec) for spec in ordered)


layer_package(__name__, __path__)
_register(_discover(PRODUCT_ROOT), PRODUCT_ROOT)


def replay(
    kind: str, *, players: int, seed: int, options: dict[str, Any], actions: Iterable[str]
) -> GameState:
    """The state reached by playing ``actions`` from the seeded start.

    Actions starting with "!" are table events (resign, abandon) that the rules never
    see.
    """
    state: GameState = GAMES[kind].new_game(players=players, seed=seed, **options)
    for action in actions:
        if not action.startswith("!"):
            state = state.apply(action)
    return state


__all__ = [
    "DEFAULT_LEVEL",
    "GAMES",
    "LEVELS",
    "PRODUCT_ROOT",
    "Choice",
    "Counted",
    "GameSpec",
    "GameState",
    "IllegalAction",
    "Option",
    "Rng",
    "add_game_root",
    "game_roots",
    "layer_package",
    "remove_game_root",
    "replay",
    "root_of",
]
