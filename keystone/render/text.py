"""Text renderings of the board, the table and the scores: for the terminal, logs and screen readers.

Plain ASCII, fixed width; every fact in the pictures is here too. The table names actions in the
terminal's notation unless the caller passes other `ActionWords`.
"""

from __future__ import annotations

from collections.abc import Sequence

from keystone.cards import Card, Habitat
from keystone.data import load_catalog
from keystone.engine.board import CELL_NAMES, ROWS
from keystone.engine.scoring import ScoreSheet, rank
from keystone.engine.state import PlacedCard
from keystone.engine.views import GameView, SeatView
from keystone.engine.words import (
    ENDANGERED,
    GOAL_LETTERS,
    HABITAT_NAMES,
    KEYSTONE,
    SEASON_NAMES,
    TAG,
    TERMINAL_ACTIONS,
    ActionWords,
    goal_name,
    plural,
)
from keystone.render.common import objective_card, require_seat, require_view
from keystone.render.describe import skill_flip_label, skill_label, skill_state, status_text

CELL = 18
"""Characters per board cell in the text grid."""
HABITAT_LETTER = {Habitat.FOREST: "F", Habitat.DESERT: "D", Habitat.WETLAND: "W", Habitat.ARCTIC: "A"}
LEGEND = (
    "Key: habitats F forest, D desert, W wetland, A arctic; K Keystone, E Endangered, T Tag, "
    "R research tokens; W# is a Wild card (any number 1-5)."
)


def describe_card(card: Card) -> str:
    """'Coyote (3; Forest, Desert, Wetland; Spring; Keystone)'."""
    number = "Wild, 1-5" if card.wild else str(card.number)
    parts = [number, ", ".join(HABITAT_NAMES[h] for h in card.habitats)]
    if card.season is not None:
        parts.append(SEASON_NAMES[card.season])
    icons = [name for name, on in ((KEYSTONE, card.keystone), (ENDANGERED, card.endangered),
                                   (TAG, card.tag)) if on]
    if icons:
        parts.append(", ".join(icons))
    return f"{card.name} ({'; '.join(parts)})"


def _wrap_name(text: str, room: int) -> list[str]:
    """A name over at most two lines of `room` characters (the rest cut)."""
    words = text.split()
    first = ""
    while words and len(f"{first} {words[0]}".strip()) <= room:
        first = f"{first} {words.pop(0)}".strip()
    if not first:
        return [text[:room]]
    rest = " ".join(words)
    return [first, f"  {rest}"[:room]] if rest else [first]


def _cell_lines(placed: PlacedCard | None, label: str) -> list[str]:
    """A cell as text lines: number and name (wrapped), then habitats, season and icons."""
    if placed is None:
        return [label]
    card = load_catalog().card(placed.card)
    number = "W#" if card.wild else str(card.number)
    habitats = "".join(HABITAT_LETTER[h] for h in card.habitats)
    marks = [habitats, card.season.value[:3].title() if card.season else ""]
    marks += [m for m, on in (("K", card.keystone), ("E", card.endangered), ("T", card.tag)) if on]
    if placed.research:
        marks.append(f"R{placed.research}")
    return [*_wrap_name(f"{number} {card.name}", CELL - 1), " ".join(m for m in marks if m)]


def board_lines(seat: SeatView) -> list[str]:
    """The 4x4 grid with row letters and column numbers; each row is as tall as its longest cell."""
    rule = "   +" + "+".join("-" * CELL for _ in range(4)) + "+"
    lines = ["    " + "".join(str(c + 1).center(CELL + 1) for c in range(4)).rstrip(), rule]
    for r in range(4):
        cells = [_cell_lines(seat.board[r * 4 + c], CELL_NAMES[r * 4 + c]) for c in range(4)]
        height = max(2, *(len(c) for c in cells))
        for k in range(height):
            texts = []
            for cell in cells:
                # Marks sit on the cell's last line so they line up across the row.
                if len(cell) > 1 and k == height - 1:
                    text = cell[-1]
                elif len(cell) > 1 and k >= len(cell) - 1:
                    text = ""
                else:
                    text = cell[k] if k < len(cell) else ""
                texts.append(f" {text}".ljust(CELL)[:CELL])
            head = f" {ROWS[r]} |" if k == 0 else "   |"
            lines.append(head + "|".join(texts) + "|")
        lines.append(rule)
    return lines


def _objective_line(number: int | None) -> str | None:
    objective = objective_card(number)
    if objective is None:
        return None
    goals = "; ".join(
        f"{GOAL_LETTERS[i]} {goal_name(g.pattern, g.symbol)}" for i, g in enumerate(objective.goals)
    )
    return f"Secret objective {objective.number}: {goals}."


def text_board(view: GameView, seat: int) -> str:
    """One seat's board as text, as `view` may see it."""
    view = require_view(view, "text_board")
    sv = view.seats[require_seat(view, seat)]
    filled = sum(p is not None for p in sv.board)
    acting = " (to act)" if sv.index == view.current and not view.over else ""
    lines = [f"{sv.name}: {sv.synergy} synergy, {filled} of 16 cells filled{acting}.", *board_lines(sv)]
    objective = _objective_line(sv.objective)
    if objective:
        lines.append(objective)
    lines.append(LEGEND)
    return "\n".join(lines)


def _field_lines(view: GameView, words: ActionWords) -> list[str]:
    catalog = load_catalog()
    lines = [f"Field ({words.take}; pay 1 synergy onto each card to its right):"]
    for slot, entry in enumerate(view.field):
        if entry is None:
            lines.append(f"  {slot + 1}. (empty)")
            continue
        cost = view.field_costs[slot]
        price = "free" if cost == 0 else f"cost {cost}"
        extra = f", {entry.synergy} synergy on it" if entry.synergy else ""
        lines.append(f"  {slot + 1}. {describe_card(catalog.card(entry.card))}: {price}{extra}")
    top = f", top: {catalog.card(view.discard[-1]).name}" if view.discard else ""
    lines.append(f"Deck: {plural(view.deck_count, 'card')}. Discard pile: {plural(len(view.discard), 'card')}{top}.")
    return lines


def _hand_lines(view: GameView, words: ActionWords) -> list[str]:
    if view.held_count == 0 or view.over:
        return []
    who = view.seats[view.current].name
    if view.held is None:
        return [f"{who} holds {plural(view.held_count, 'card')}, seen only by {who}."]
    catalog = load_catalog()
    lines = [f"{who} holds ({words.place}):"]
    lines += [f"  {i + 1}. {describe_card(catalog.card(c))}" for i, c in enumerate(view.held)]
    return lines


def _skill_lines(view: GameView, words: ActionWords) -> list[str]:
    lines = ["Skills:"]
    for skill in view.skills:
        lines.append(f"  {skill.number} {skill_state(skill)}: {skill_label(skill)} (flip side: "
                     f"{skill_flip_label(skill)})")
    lines.append(f"  {words.resolve_all} resolves every exhausted token, then the time marker moves on.")
    return lines


def _wild_line(view: GameView) -> str:
    if not view.wilds_allowed:
        return "Wild cards: not in this game."
    catalog = load_catalog()
    stacks = []
    for habitat, stack in view.wild_stacks:
        season = catalog.card(stack[-1]).season if stack else None
        stacks.append(f"{HABITAT_NAMES[habitat]} {len(stack)}" + (f" (top: {SEASON_NAMES[season]})" if season else ""))
    return f"Wild cards ({view.wild_cost} synergy, once a turn): {', '.join(stacks)}."


def text_table(view: GameView, words: ActionWords = TERMINAL_ACTIONS) -> str:
    """Everything on the table that `view` may see, as text; actions are named in `words`."""
    view = require_view(view, "text_table")
    round_no = view.turn // max(1, len(view.seats)) + 1
    mark = " Game over." if view.over else (" Final round." if view.final_round else "")
    lines = [f"Round {round_no}.{mark} {status_text(view, words)}"]
    lines += _field_lines(view, words)
    lines += _hand_lines(view, words)
    lines += _skill_lines(view, words)
    lines.append(f"Time: {max(0, view.time)} of {view.time_start} left.")
    lines.append(_wild_line(view))
    seats = []
    for s in view.seats:
        filled = sum(p is not None for p in s.board)
        acting = " (to act)" if s.index == view.current and not view.over else ""
        seats.append(f"{s.name} {s.synergy} synergy, {filled}/16 cells{acting}")
    lines.append("Players: " + "; ".join(seats) + ".")
    return "\n".join(lines)


def text_scores(sheets: Sequence[ScoreSheet], names: Sequence[str] | None = None, final: bool = True) -> str:
    """The score sheet as a table, one column per player, and who won (who leads, if not `final`)."""
    if not sheets:
        raise ValueError("There are no score sheets to show.")
    labels = list(names) if names is not None else [f"Seat {i + 1}" for i in range(len(sheets))]
    if len(labels) != len(sheets):
        raise ValueError(f"Expected {len(sheets)} names, got {len(labels)}.")
    width = max(6, *(len(n) for n in labels)) + 2
    rows: list[tuple[str, list[str]]] = []
    for k in range(8):
        lines = [(s.rows + s.columns)[k] for s in sheets]
        rows.append((lines[0].line, [str(line.points) for line in lines]))
    rows.append(("Goals met", [f"{s.goals_completed}/4" if s.objective is not None else "-" for s in sheets]))
    rows.append(("Objective", [str(s.objective_points) for s in sheets]))
    rows.append(("Synergy tokens", [str(s.synergy_tokens) for s in sheets]))
    rows.append(("Synergy points", [str(s.synergy_points) for s in sheets]))
    rows.append(("Total", [str(s.total) for s in sheets]))
    out = ["".ljust(16) + "".join(n.rjust(width) for n in labels)]
    out += [label.ljust(16) + "".join(v.rjust(width) for v in values) for label, values in rows]
    places = rank(sheets)
    winners = [labels[i] for i, p in enumerate(places) if p == 1]
    best = max(s.total for s in sheets)
    if len(sheets) > 1:
        if final:
            verb = "wins" if len(winners) == 1 else "share the win"
        else:
            verb = "leads" if len(winners) == 1 else "share the lead"
        out.append(f"{' and '.join(winners)} {verb} with {plural(best, 'point')}.")
    return "\n".join(out)
