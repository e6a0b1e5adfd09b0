"""The layers import one way: cards and data at the bottom, then engine, then store and render,
then app, then the command line, cogs and bot.py on top; no cycle between them. Only the store
talks to a database (aiosqlite, asyncpg), and only the catalogues (i18n) read Babel.

Every import counts, including those inside functions and under TYPE_CHECKING, so a cycle
cannot hide in a function body.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

BOTTOM = {"cards", "data", "i18n"}
MAY_IMPORT: dict[str, set[str]] = {
    "i18n": {"babel"},
    "cards": {"i18n"},  # a card says its name in a language
    "data": {"cards"},
    "engine": BOTTOM,
    "store": BOTTOM | {"engine", "aiosqlite", "asyncpg", "openskill"},
    "render": BOTTOM | {"engine", "PIL"},
    "settings": set(),
    "app": BOTTOM | {"engine", "store", "render", "settings", "PIL"},
    "cli": BOTTOM | {"engine", "render", "app", "store", "PIL"},  # store: `store copy` is the store's own tool
    "main": {"cli"},
    "cogs": BOTTOM | {"engine", "render", "app", "store", "settings", "discord"},
    "bot": {"cogs", "cli", "app", "store", "settings", "discord"},
}
WATCHED = set(MAY_IMPORT) | {"discord", "aiosqlite", "asyncpg", "PIL", "openskill", "babel"}


def layer_of(module: str) -> str | None:
    """The layer a dotted module name belongs to, or None for a package no rule mentions."""
    parts = module.split(".")
    if parts[0] == "keystone":
        name = parts[1] if len(parts) > 1 else "main"
        return "main" if name in ("__main__", "__init__") else name
    return parts[0] if parts[0] in WATCHED else None


def imported(source: str) -> Iterator[str]:
    """Every module a source imports, wherever in the file the import sits."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module == "keystone" and not node.level:
            yield from (f"keystone.{alias.name}" for alias in node.names)  # `from keystone import render`
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.module


def sources() -> list[Path]:
    return [*sorted((ROOT / "keystone").rglob("*.py")), *sorted((ROOT / "cogs").rglob("*.py")), ROOT / "bot.py"]


@functools.cache
def graph() -> dict[str, frozenset[str]]:
    """Layer -> the other watched layers its modules import (read once: every test asks for it)."""
    edges: dict[str, set[str]] = {name: set() for name in MAY_IMPORT}
    for path in sources():
        source = layer_of(".".join(path.relative_to(ROOT).with_suffix("").parts))
        assert source in MAY_IMPORT, f"{path.name} is in no layer; add its package to MAY_IMPORT"
        for module in imported(path.read_text(encoding="utf-8")):
            target = layer_of(module)
            if target is not None and target != source:
                edges[source].add(target)
    return {name: frozenset(targets) for name, targets in edges.items()}


def test_function_local_and_type_checking_imports_are_seen() -> None:
    code = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import PIL\ndef f():\n    from keystone.app import x\n"
    assert {layer_of(m) for m in imported(code)} == {None, "PIL", "app"}
    assert {layer_of(m) for m in imported("from keystone import render, store\n")} == {"render", "store"}


@pytest.mark.parametrize("layer", sorted(MAY_IMPORT))
def test_each_layer_imports_only_what_it_may(layer: str) -> None:
    forbidden = graph()[layer] - MAY_IMPORT[layer]
    assert not forbidden, f"{layer} imports {sorted(forbidden)}"


def test_the_layers_have_no_cycle() -> None:
    edges = graph()
    done: set[str] = set()

    def visit(node: str, path: tuple[str, ...]) -> None:
        assert node not in path, "import cycle: " + " -> ".join((*path, node))
        if node in done:
            return
        for target in sorted(edges.get(node, ())):
            visit(target, (*path, node))
        done.add(node)

    for start in sorted(edges):
        visit(start, ())


def test_only_the_composition_root_of_the_cogs_reaches_the_store() -> None:
    """A cog speaks the application's vocabulary (its paces, its replies); only cogs/bot.py, which
    builds the store, names it."""
    reaching = [path.name for path in sorted((ROOT / "cogs").glob("*.py")) if path.name != "bot.py"
                and any(layer_of(m) == "store" for m in imported(path.read_text(encoding="utf-8")))]
    assert reaching == []
