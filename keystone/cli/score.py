"""`python -m keystone score FILE`: score boards given as JSON (FILE `-` reads standard input).

Input is one board object or a list of them:
    {"board": [[cell x4] x4], "objective": 1, "synergy": 7, "rules": "second-edition"}
with cells null, "Species Name", "wild:HABITAT", "wild:HABITAT:SEASON" or
{"card": <name or wild>, "research": n}. Output is one result object per board, in the same shape
(object or list). Bad input exits with status 2 and one sentence on standard error.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

from keystone.data import Catalog, load_catalog
from keystone.engine.cards import Card, Habitat, ObjectiveCard, Ruleset, Season
from keystone.engine.scoring import CELL_LABELS, BoardCell, ScoreSheet, score_board

USAGE = "usage: python -m keystone score [--explain] FILE   (FILE - reads standard input)"
BOARD_KEYS = {"board", "objective", "synergy", "rules"}
CELL_KEYS = {"card", "research"}
RULES: dict[str, Ruleset] = {"second-edition": "second-edition", "first-edition": "first-edition"}


class BadInput(ValueError):
    """Input the command cannot score; the message is shown to the user as is."""


def main(argv: Sequence[str]) -> int:
    args = list(argv)
    explain = "--explain" in args
    args = [a for a in args if a != "--explain"]
    if len(args) != 1 or (args[0].startswith("-") and args[0] != "-"):
        print(USAGE, file=sys.stderr)
        return 2
    try:
        data = _load(args[0])
        results = _score_all(data, load_catalog(), explain)
    except BadInput as exc:
        text = str(exc)
        print(text[:1].upper() + text[1:], file=sys.stderr)
        return 2
    print(json.dumps(results))
    return 0


def _load(path: str) -> Any:
    try:
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()  # noqa: SIM115
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInput(f"Cannot read {path}: {exc}.") from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadInput(f"The input is not valid JSON ({exc.msg} at line {exc.lineno}).") from exc


def _score_all(data: Any, catalog: Catalog, explain: bool) -> Any:
    if isinstance(data, list):
        return [_result(_score_one(d, catalog, f"Board {i + 1}, "), explain) for i, d in enumerate(data)]
    return _result(_score_one(data, catalog, ""), explain)


def _result(sheet: ScoreSheet, explain: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "rows": [line.points for line in sheet.rows],
        "columns": [line.points for line in sheet.columns],
        "objective": sheet.objective_points,
        "goals": sheet.goals_completed,
        "synergy": sheet.synergy_points,
        "total": sheet.total,
    }
    if explain:
        out["explanation"] = sheet.explain()
    return out


def _score_one(data: Any, catalog: Catalog, where: str) -> ScoreSheet:
    """Validate one board object and score it; every complaint names its board and cell."""
    if not isinstance(data, dict):
        raise BadInput(f'{where}expected a board object with a "board" key.')
    unknown = sorted(set(data) - BOARD_KEYS)
    if unknown:
        raise BadInput(f"{where}unknown key {unknown[0]!r}; allowed: {', '.join(sorted(BOARD_KEYS))}.")
    if "board" not in data:
        raise BadInput(f'{where}the "board" key is missing.')
    board = _board(data["board"], catalog, where)
    objective = _objective(data.get("objective"), catalog, where)
    synergy = data.get("synergy", 0)
    if not _is_count(synergy):
        raise BadInput(f'{where}"synergy" must be a whole number of 0 or more, not {synergy!r}.')
    raw_rules = data.get("rules", "second-edition")
    rules = RULES.get(raw_rules) if isinstance(raw_rules, str) else None
    if rules is None:
        raise BadInput(f'{where}"rules" must be "second-edition" or "first-edition".')
    try:
        return score_board(board, objective, synergy, rules)
    except ValueError as exc:
        raise BadInput(f"{where}{exc}") from exc


def _is_count(value: Any) -> bool:
    return type(value) is int and value >= 0


def _board(raw: Any, catalog: Catalog, where: str) -> list[BoardCell | None]:
    shape_ok = isinstance(raw, list) and len(raw) == 4 and all(isinstance(r, list) and len(r) == 4 for r in raw)
    if not shape_ok:
        raise BadInput(f'{where}the "board" must be 4 rows (A to D) of 4 cells each.')
    return [
        _cell(cell, catalog, f"{where}cell {CELL_LABELS[i]}: ") for i, cell in enumerate(c for row in raw for c in row)
    ]


def _cell(raw: Any, catalog: Catalog, where: str) -> BoardCell | None:
    research: Any = 0
    if isinstance(raw, dict):
        unknown = sorted(set(raw) - CELL_KEYS)
        if unknown or "card" not in raw:
            raise BadInput(f'{where}a cell object needs "card" and may have "research", nothing else.')
        research = raw.get("research", 0)
        if not _is_count(research):
            raise BadInput(f"{where}research must be a whole number of 0 or more, not {research!r}.")
        raw = raw["card"]
    if raw is None:
        if research:
            raise BadInput(f"{where}research tokens cannot sit on an empty cell.")
        return None
    if not isinstance(raw, str):
        raise BadInput(f'{where}a cell is null, a card name, "wild:HABITAT[:SEASON]" or an object.')
    return _card(raw, catalog, where), research


def _card(text: str, catalog: Catalog, where: str) -> Card:
    """A Species card by name or id, or a Wild card by habitat and optional season."""
    parts = text.strip().lower().split(":")
    if parts[0] == "wild" and len(parts) > 1:
        return _wild(parts[1:], catalog, where)
    card = catalog.find(text)
    if card is None:
        raise BadInput(f"{where}no card is called {text!r}.")
    return card


def _wild(parts: list[str], catalog: Catalog, where: str) -> Card:
    """Any habitat/season pair scores, so boards from elsewhere need not match our Wild stock."""
    habitats = {h.value: h for h in Habitat}
    seasons = {s.value: s for s in Season}
    if len(parts) > 2 or parts[0] not in habitats or (len(parts) == 2 and parts[1] not in seasons):
        raise BadInput(
            f"{where}a Wild card is written wild:HABITAT or wild:HABITAT:SEASON with a habitat from "
            f"{', '.join(habitats)} and a season from {', '.join(seasons)}."
        )
    habitat = habitats[parts[0]]
    season = seasons[parts[1]] if len(parts) == 2 else None
    for wild in catalog.wilds:
        if wild.habitats[0] is habitat and wild.season is season:
            return wild
    name = f"{habitat.value.title()} Wild" + (f" ({season.value.title()})" if season else "")
    ident = f"wild-{habitat.value}" + (f"-{season.value}" if season else "")
    return Card(id=ident, name=name, habitats=(habitat,), season=season, wild=True)


def _objective(raw: Any, catalog: Catalog, where: str) -> ObjectiveCard | None:
    if raw is None:
        return None
    card = catalog.objectives.get(raw) if type(raw) is int else None
    if card is None:
        numbers = sorted(catalog.objectives)
        raise BadInput(
            f"{where}there is no secret objective card {raw!r}; cards are numbered {numbers[0]} to {numbers[-1]}."
        )
    return card
