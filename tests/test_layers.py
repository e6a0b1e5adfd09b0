"""The layers import one way: cards and data at the bottom, then engine, then store and render,
then app, then the command line, cogs and bot.py on top; no cycle between them. Only the store
talks to a database (aiosqlite, asyncpg), and only the catalogues (i18n) read Babel.

Inside a package, too, the modules import one way: no two modules of keystone/engine (or of
app, store, render, cogs, or any other package) import each other, directly or around a circle.

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
    "render": BOTTOM | {"engine", "PIL", "pyphen"},  # pyphen: names break at their language's syllables
    "settings": set(),
    "app": BOTTOM | {"engine", "store", "render", "settings", "PIL", "prometheus_client"},
    # store: `store copy` is the store's own tool; settings: `store backup/check/prune` use the bot's KEYSTONE_DB
    "cli": BOTTOM | {"engine", "render", "app", "store", "settings", "PIL"},
    "main": {"cli"},
    "cogs": BOTTOM | {"engine", "render", "app", "store", "settings", "discord"},
    "bot": {"cogs", "cli", "app", "store", "settings", "discord"},
}
WATCHED = set(MAY_IMPORT) | {"discord", "aiosqlite", "asyncpg", "PIL", "openskill", "babel", "pyphen",
                             "prometheus_client"}


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


# --------------------------------------------------------------------------- cycles between modules

PACKAGES = ("keystone.engine", "keystone.app", "keystone.store", "keystone.render", "cogs")
"""The packages the issue named; every other package found is checked as well."""


def module_name(path: Path) -> str:
    """The dotted name of a source file: a package's `__init__.py` is the package itself."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(source: str, name: str, is_package: bool, known: frozenset[str]) -> set[str]:
    """The modules among `known` that a source named `name` imports, wherever the import sits.

    `from keystone.engine import rng` imports the module `keystone.engine.rng` when there is one,
    otherwise a name out of the package `keystone.engine`; relative imports are resolved too.
    """

    def nearest(dotted: str) -> str | None:
        while dotted and dotted not in known:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    package = name if is_package else name.rpartition(".")[0]
    found: set[str | None] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(nearest(alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                whole = f"{base}.{alias.name}"
                found.add(whole if whole in known else nearest(base))
    found.discard(name)
    return {module for module in found if module is not None}


@functools.cache
def module_graph() -> dict[str, frozenset[str]]:
    """Module -> the modules of this project it imports (read once)."""
    paths = {module_name(path): path for path in sources()}
    known = frozenset(paths)
    return {name: frozenset(imported_modules(path.read_text(encoding="utf-8"), name, path.name == "__init__.py", known))
            for name, path in paths.items()}


def find_cycle(edges: dict[str, frozenset[str]]) -> list[str] | None:
    """One import cycle in `edges` as a path that ends where it starts, or None when there is none."""
    done: set[str] = set()

    def visit(node: str, path: list[str]) -> list[str] | None:
        if node in path:
            return [*path[path.index(node):], node]
        if node in done:
            return None
        for target in sorted(edges.get(node, ())):
            cycle = visit(target, [*path, node])
            if cycle is not None:
                return cycle
        done.add(node)
        return None

    for start in sorted(edges):
        cycle = visit(start, [])
        if cycle is not None:
            return cycle
    return None


def packages() -> list[str]:
    """Every package with modules of its own under keystone/ and cogs/ (subpackages belong to their top one)."""
    found = set()
    for path in sources():
        if path.name == "__init__.py":
            parts = module_name(path).split(".")
            found.add(".".join(parts[:2] if parts[0] == "keystone" else parts[:1]))
    return sorted(found - {"keystone"})


def test_the_packages_named_in_the_rule_are_still_there() -> None:
    assert set(PACKAGES) <= set(packages()), sorted(set(PACKAGES) - set(packages()))


@pytest.mark.parametrize("package", packages())
def test_the_modules_of_a_package_import_each_other_one_way(package: str) -> None:
    inside = {name: frozenset(t for t in targets if t == package or t.startswith(package + "."))
              for name, targets in module_graph().items() if name == package or name.startswith(package + ".")}
    cycle = find_cycle(inside)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or ())


def test_the_cycle_check_sees_every_kind_of_import() -> None:
    """A cycle through a function body, a TYPE_CHECKING block or a relative import is still found;
    `from package import module` is an edge to the module, not to the package."""
    known = frozenset({"p", "p.a", "p.b", "p.c", "p.d"})
    sources_of = {
        "p": ("from p.a import thing\n", True),
        "p.a": ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from p import b\n", False),
        "p.b": ("def later():\n    from .c import x\n", False),
        "p.c": ("import p.a\n", False),
        "p.d": ("from p import thing\n", False),
    }
    edges = {name: frozenset(imported_modules(text, name, is_package, known))
             for name, (text, is_package) in sources_of.items()}
    assert edges == {"p": {"p.a"}, "p.a": {"p.b"}, "p.b": {"p.c"}, "p.c": {"p.a"}, "p.d": {"p"}}
    assert find_cycle(edges) == ["p.a", "p.b", "p.c", "p.a"]
    assert find_cycle({**edges, "p.c": frozenset()}) is None
