"""docs/RULINGS.md promises a test for each ruling: every test it names must exist."""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = re.compile(r"`(tests/[\w/]+\.py)::(\w+)(?:\[[^\]]*\])?`")


@functools.cache
def _test_names(path: Path) -> frozenset[str]:
    """The functions a test file defines (parsed once, however many rulings name the file)."""
    tree = ast.parse(path.read_text())
    return frozenset(n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef))


def test_every_ruling_names_tests_that_exist() -> None:
    text = (ROOT / "docs" / "RULINGS.md").read_text()
    rulings = re.findall(r"^\s*\d+\.\s+\*\*", text, flags=re.MULTILINE)
    references = REFERENCE.findall(text)
    assert len(rulings) >= 20 and len(references) >= len(rulings)
    missing = [f"{file}::{name}" for file, name in references
               if not (ROOT / file).exists() or name not in _test_names(ROOT / file)]
    assert not missing, f"RULINGS.md names tests that do not exist: {missing}"


def test_every_ruling_has_at_least_one_test() -> None:
    text = (ROOT / "docs" / "RULINGS.md").read_text()
    entries = re.split(r"^\s*\d+\.\s+(?=\*\*)", text, flags=re.MULTILINE)[1:]
    bare = [e.split("**")[1] for e in entries if not REFERENCE.search(e)]
    assert not bare, f"rulings without a test: {bare}"
