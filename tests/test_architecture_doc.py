"""docs/ARCHITECTURE.md stays true: every path it names exists, and its table of layers is the
one tests/test_layers.py enforces."""

from __future__ import annotations

import re
from pathlib import Path

from tests.test_layers import MAY_IMPORT

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "ARCHITECTURE.md"
PATH = re.compile(r"`((?:keystone|cogs|docs|tests|bot\.py)[\w./*-]*)`")


def named_paths(text: str) -> list[str]:
    return [found for found in PATH.findall(text) if not found.endswith("()")]


def layer_table(text: str) -> dict[str, set[str]]:
    """The rows of the doc's "layer | may import" table."""
    table: dict[str, set[str]] = {}
    inside = False
    for line in text.splitlines():
        if line.startswith("| layer |"):
            inside = True
            continue
        if inside and line.startswith("|---"):
            continue
        if inside and line.startswith("|"):
            layer, allowed = (cell.strip() for cell in line.strip("|").split("|"))
            table[layer] = {a.strip() for a in allowed.split(",") if a.strip()}
        elif inside:
            break
    return table


def test_every_path_the_map_names_exists() -> None:
    paths = named_paths(DOC.read_text(encoding="utf-8"))
    assert len(paths) > 20, "the map names the modules it describes"
    missing = [p for p in paths if not list(ROOT.glob(p))]
    assert missing == [], f"docs/ARCHITECTURE.md names what no longer exists: {missing}"


def test_the_map_of_layers_is_the_one_the_tests_enforce() -> None:
    assert layer_table(DOC.read_text(encoding="utf-8")) == MAY_IMPORT


def test_a_vanished_module_is_caught() -> None:
    text = DOC.read_text(encoding="utf-8") + "\nSee `keystone/app/service_old.py`.\n"
    assert "keystone/app/service_old.py" in [p for p in named_paths(text) if not list(ROOT.glob(p))]
