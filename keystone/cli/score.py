"""`python -m keystone score [--explain] FILE`: score finished boards given as JSON.

FILE is a UTF-8 JSON file, or `-` for standard input. It holds one board object or a list of them:

    {"board": [[A1, A2, A3, A4], [B1, B2, B3, B4], [C1, ...], [D1, ...]],
     "objective": 1, "synergy": 7, "rules": "second-edition"}

Only "board" is required: four rows (A to D) of four cells (1 to 4). "objective" is a secret
objective card number (1 to 10; left out, no objective is scored), "synergy" the tokens held at the
end (0 to 999, default 0), "rules" "second-edition" (default) or "first-edition". A cell is null
(empty), a Species card's name or id, "wild:HABITAT:SEASON" for one of the eight Wild cards,
"wild:HABITAT" for a Wild card whose season is not counted, or {"card": <any of those>,
"research": n}. A board holds each card once, and no card more research than skills can put on it
(research goes only on unresearched cards: 2 on an Endangered card, otherwise 1).

The output is one result object per board, in the input's shape (object or list); `--explain` adds
the score sheet's sentences. Anything else is refused with one sentence on standard error and exit
status 2, so no result is printed for a board that no game could produce.
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import sys
from collections import Counter
from collections.abc import Sequence
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from pydantic_core import ErrorDetails

from keystone.cards import Card, Habitat, ObjectiveCard, Ruleset, Season, Symbol
from keystone.cli.options import Parser, parse
from keystone.data import Catalog, load_catalog
from keystone.engine.board import CELL_NAMES
from keystone.engine.scoring import BoardCell, ScoreSheet, score_board

MAX_SYNERGY = 999
"""The synergy supply is unlimited (ruling 4); this bound only stops numbers no game comes near."""
RULES_TEXT = '"rules" must be "second-edition" or "first-edition".'
CELL_TEXT = 'a cell is null, a card name, "wild:HABITAT:SEASON", "wild:HABITAT" or {"card": ..., "research": n}.'
SHAPE_TEXT = 'the "board" must be 4 rows (A to D) of 4 cells each.'


class BadInput(ValueError):
    """Input the command cannot score; the message is shown to the user as is."""


class CellInput(BaseModel):
    """One cell: a bare card (or null) is short for {"card": ...} without research."""

    model_config = ConfigDict(extra="forbid", strict=True)

    card: str | None
    research: int = Field(default=0, ge=0)

    @model_validator(mode="before")
    @classmethod
    def _bare_card(cls, raw: Any) -> Any:
        return {"card": raw} if raw is None or isinstance(raw, str) else raw


Row = Annotated[list[CellInput], Field(min_length=4, max_length=4)]


class BoardInput(BaseModel):
    """One board object; strict, so JSON true is not 1 and "7" is not 7."""

    model_config = ConfigDict(extra="forbid", strict=True)

    board: Annotated[list[Row], Field(min_length=4, max_length=4)]
    objective: int | None = None
    synergy: int = Field(default=0, ge=0, le=MAX_SYNERGY)
    rules: Ruleset = "second-edition"


def parser() -> argparse.ArgumentParser:
    made = Parser(prog="python -m keystone score", description="Score finished boards given as JSON.")
    made.add_argument("--explain", action="store_true", help="add the score sheet's sentences to each result")
    made.add_argument(
        "file", metavar="FILE", help="a JSON file of one board or a list of boards; - reads standard input"
    )
    return made


def main(argv: Sequence[str]) -> int:
    args = parse(parser(), argv)
    if isinstance(args, int):
        return args
    try:
        data = _load(args.file)
        results = _score_all(data, load_catalog(), args.explain)
    except BadInput as exc:
        print(_capital(str(exc)), file=sys.stderr)
        return 2
    print(json.dumps(results))
    return 0


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _load(path: str) -> Any:
    text = _read(path)
    if not text.strip():
        raise BadInput("The input is empty; give a board object or a list of them.")
    try:
        return json.loads(text, parse_int=_parse_int, object_pairs_hook=_object)
    except json.JSONDecodeError as exc:
        raise BadInput(f"The input is not valid JSON ({exc.msg} at line {exc.lineno}).") from exc
    except RecursionError as exc:
        raise BadInput("The input is nested too deeply to be a board.") from exc


def _read(path: str) -> str:
    """The input as text; bytes are decoded here so bad UTF-8 gets a sentence, not a traceback."""
    try:
        if path != "-":
            with open(path, "rb") as file:
                return file.read().decode("utf-8-sig")
        buffer = getattr(sys.stdin, "buffer", None)
        return buffer.read().decode("utf-8-sig") if buffer is not None else sys.stdin.read()
    except IsADirectoryError as exc:
        raise BadInput(f"Cannot read {path}: it is a directory, not a file.") from exc
    except OSError as exc:
        raise BadInput(f"Cannot read {path}: {(exc.strerror or str(exc)).lower()}.") from exc
    except UnicodeDecodeError as exc:
        name = "The input" if path == "-" else path
        raise BadInput(f"{name} is not UTF-8 text (byte {exc.object[exc.start]:#04x} at {exc.start}).") from exc


def _parse_int(digits: str) -> int:
    """Python refuses to convert very long digit strings; that is the input's fault, not a crash."""
    try:
        return int(digits)
    except ValueError as exc:
        raise BadInput(f"A number in the input is too long ({len(digits)} digits).") from exc


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object; a key given twice is refused, since only one of its values could count."""
    twice = [key for key, count in Counter(key for key, _ in pairs).items() if count > 1]
    if twice:
        raise BadInput(f"The key {twice[0]!r} appears twice in one object.")
    return dict(pairs)


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
    """Validate one board object (shape and types, then the cards themselves) and score it."""
    try:
        entry = BoardInput.model_validate(data)
    except ValidationError as exc:
        raise BadInput(where + _why(exc)) from exc
    board = _board(entry.board, catalog, where)
    objective = _objective(entry.objective, catalog, where)
    try:
        return score_board(board, objective, entry.synergy, entry.rules)
    except ValueError as exc:
        raise BadInput(f"{where}{exc}") from exc


def _why(exc: ValidationError) -> str:
    """The first problem as a sentence; shape problems (the shortest locations) come first."""
    err = min(exc.errors(), key=lambda e: len(e["loc"]))
    loc = err["loc"]
    if not loc:
        return 'expected a board object with a "board" key, or a list of them.'
    if loc[0] == "board":
        return _board_problem(err)
    if err["type"] == "extra_forbidden":
        return f"unknown key {loc[0]!r}; allowed: board, objective, rules, synergy."
    if loc[0] == "objective":
        return _no_objective(err["input"])
    if loc[0] == "synergy":
        return f'"synergy" must be a whole number from 0 to {MAX_SYNERGY}, not {_show(err["input"])}.'
    return RULES_TEXT


def _board_problem(err: ErrorDetails) -> str:
    loc = err["loc"]
    if err["type"] == "missing" and len(loc) == 1:
        return 'the "board" key is missing.'
    if len(loc) < 3:
        return SHAPE_TEXT
    row, column = int(loc[1]), int(loc[2])
    where = f"cell {CELL_NAMES[row * 4 + column]}: "
    field = loc[3] if len(loc) > 3 else None
    if field == "research":
        return f"{where}research must be a whole number of 0 or more, not {_show(err['input'])}."
    if field is None or (field == "card" and err["type"] != "missing"):
        return where + CELL_TEXT
    return f'{where}a cell object needs "card" and may have "research", nothing else.'


def _show(value: Any) -> str:
    """A bad value as the user wrote it, kept short: JSON words, quoted text, short numbers."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, int) and abs(value) >= 10**15:
        return f"a {len(str(abs(value)))}-digit number"
    if isinstance(value, list | dict):
        return "a list" if isinstance(value, list) else "an object"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _board(rows: list[list[CellInput]], catalog: Catalog, where: str) -> list[BoardCell | None]:
    """Cards in reading order; each card exists once, so each may appear only once."""
    cells = [
        _cell(cell, catalog, f"{where}cell {CELL_NAMES[i]}: ") for i, cell in enumerate(c for r in rows for c in r)
    ]
    seen: dict[str, str] = {}
    wilds: Counter[Habitat] = Counter()
    for label, cell in zip(CELL_NAMES, cells, strict=True):
        if cell is not None:
            _check_once(cell[0], catalog, seen, wilds, f"{where}cell {label}: ")
            seen.setdefault(cell[0].id, label)
    return cells


def _check_once(card: Card, catalog: Catalog, seen: dict[str, str], wilds: Counter[Habitat], where: str) -> None:
    """A card already placed is refused; so is a Wild beyond its habitat's stock (seasonless ones count too)."""
    if card.id in seen and card.season is not None:
        raise BadInput(f"{where}{card.name} is already at {seen[card.id]}, and the game has only one of each card.")
    if card.wild:
        habitat = card.habitats[0]
        wilds[habitat] += 1
        stock = sum(1 for w in catalog.wilds if w.habitats[0] is habitat)
        if wilds[habitat] > stock:
            raise BadInput(f"{where}the game has only {stock} {habitat.value.title()} Wild cards, all already placed.")


def _cell(raw: CellInput, catalog: Catalog, where: str) -> BoardCell | None:
    if raw.card is None:
        if raw.research:
            raise BadInput(f"{where}research tokens cannot sit on an empty cell.")
        return None
    card = _card(raw.card, catalog, where)
    limit = research_limit(card, catalog)
    if raw.research > limit:
        tokens = "token" if limit == 1 else "tokens"
        raise BadInput(
            f"{where}{card.name} can carry at most {limit} research {tokens} "
            f"(skills put research only on unresearched cards), not {_show(raw.research)}."
        )
    return card, raw.research


def research_limit(card: Card, catalog: Catalog) -> int:
    """The most research one card can carry: a single skill effect, aimed at a card showing its target."""
    skills = [*catalog.skills.values(), *catalog.extra_skills.values()]
    counts = [
        effect.count
        for token in skills
        for side in (token.active, token.exhausted)
        for effect in side.effects
        if effect.kind == "research" and _aims_at(effect.target, card)
    ]
    return max(counts, default=0)


def _aims_at(target: str | None, card: Card) -> bool:
    return card.wild if target == "wild" else target is not None and card.has_symbol(Symbol(target))


def _card(text: str, catalog: Catalog, where: str) -> Card:
    """A Species card by name or id, or a Wild card by habitat and optional season."""
    parts = [p for p in re.split(r"[\s:\-]+", text.strip().lower()) if p]
    habitats = {h.value for h in Habitat}
    if len(parts) > 1 and parts[0] == "wild" and parts[1] in habitats:
        return _wild(parts[1:], catalog, where)
    card = catalog.find(text)
    if card is not None:
        return card
    if parts[:1] == ["wild"]:
        raise BadInput(
            f"{where}a Wild card is written wild:HABITAT or wild:HABITAT:SEASON with a habitat from "
            f"{', '.join(habitats)} and a season from {', '.join(s.value for s in Season)}."
        )
    raise BadInput(f"{where}no card is called {_show(text)}{_suggest(text, catalog)}")


def _suggest(text: str, catalog: Catalog) -> str:
    """The end of the sentence: the closest Species name as a question, if one is close."""
    names = {c.name.lower(): c.name for c in catalog.species + catalog.extra_species}
    close = difflib.get_close_matches(text.strip().lower(), list(names), n=1, cutoff=0.75)
    return f"; did you mean {names[close[0]]!r}?" if close else "."


def _wild(parts: list[str], catalog: Catalog, where: str) -> Card:
    """One of the stock's Wild cards, or a Wild of that habitat whose season is not counted."""
    habitat = Habitat(parts[0])
    stock = [w for w in catalog.wilds if w.habitats[0] is habitat]
    seasons = " and ".join(str(w.season).title() for w in stock)
    if len(parts) > 2 or (len(parts) == 2 and parts[1] not in {s.value for s in Season}):
        raise BadInput(
            f"{where}a Wild card is written wild:HABITAT or wild:HABITAT:SEASON; "
            f"the {habitat.value.title()} Wild cards are {seasons}."
        )
    if len(parts) == 1:
        name = f"{habitat.value.title()} Wild"
        return Card(id=f"wild-{habitat.value}", name=name, habitats=(habitat,), season=None, wild=True)
    for wild in stock:
        if wild.season == parts[1]:
            return wild
    raise BadInput(
        f"{where}there is no {parts[1].title()} {habitat.value.title()} Wild card; "
        f"the {habitat.value.title()} Wild cards are {seasons}."
    )


def _objective(number: int | None, catalog: Catalog, where: str) -> ObjectiveCard | None:
    if number is None:
        return None
    card = catalog.objectives.get(number)
    if card is None:
        raise BadInput(where + _no_objective(number))
    return card


def _no_objective(raw: Any) -> str:
    numbers = sorted(load_catalog().objectives)
    return f"there is no secret objective card {_show(raw)}; cards are numbered {numbers[0]} to {numbers[-1]}."
