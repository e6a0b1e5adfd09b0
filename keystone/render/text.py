"""Text renderings of the board, the table and the scores: for the terminal, logs and screen readers.

Plain text, fixed width (ASCII in English; German adds its umlauts), in `lang`; every fact in the
pictures is here too. The table names actions in the terminal's notation unless the caller passes
other `ActionWords`.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from keystone.cards import Card
from keystone.data import load_catalog
from keystone.engine.board import CELL_NAMES, ROWS
from keystone.engine.scoring import ScoreSheet, rank
from keystone.engine.state import PlacedCard
from keystone.engine.views import GameView, SeatView
from keystone.engine.words import (
    GOAL_LETTERS,
    ActionWords,
    action_words,
    counted,
    goal_name,
    habitat_name,
    icon_label,
    season_name,
)
from keystone.i18n import DEFAULT, Language, tr, trn
from keystone.render.common import objective_card, require_seat, require_view
from keystone.render.describe import skill_flip_label, skill_label, skill_state, state_name, status_text
from keystone.render.hyphens import arrange
from keystone.render.scoresheet import line_label

CELL = 18
"""Characters per board cell in the text grid."""


def letter(name: str, lang: Language) -> str:
    """The text board's short mark for a habitat or an icon, in the reader's language (German reads
    W as Wald, so it has its own letters; picture.text.legend explains them)."""
    return tr(lang, f"picture.text.letter.{name}")


def describe_card(card: Card, lang: Language = DEFAULT) -> str:
    """'Coyote (3; Forest, Desert, Wetland; Spring; Keystone)'."""
    number = tr(lang, "picture.text.wild_number") if card.wild else str(card.number)
    parts = [number, ", ".join(habitat_name(h, lang) for h in card.habitats)]
    if card.season is not None:
        parts.append(season_name(card.season, lang))
    icons = [icon_label(name, lang) for name, on in (("keystone", card.keystone), ("endangered", card.endangered),
                                                     ("tag", card.tag)) if on]
    if icons:
        parts.append(", ".join(icons))
    return f"{card.name_in(lang)} ({'; '.join(parts)})"


NAME_LINES = 4
"""The most lines a name takes in a cell of the text board."""


@functools.lru_cache(maxsize=512)
def _wrap_name(number: str, name: str, room: int, lang: Language = DEFAULT) -> tuple[str, ...]:
    """A card's number and name over lines of `room` characters (later lines indented by two),
    broken as the pictures break it (hyphens.py: spaces, then hyphens, then syllables of `lang`),
    never cut: a word no break makes fit is split where the line ends."""
    lines = arrange(name, lang, len, (room - len(number) - 1, room - 2), NAME_LINES)
    if lines is None:
        lines, rest, width = [], name, room - len(number) - 1
        while len(rest) > width:
            lines.append(rest[:width - 1].rstrip() + "-")
            rest, width = rest[width - 1:].lstrip(), room - 2
        lines.append(rest)
    return (f"{number} {lines[0]}", *(f"  {rest}" for rest in lines[1:]))


def _cell_lines(placed: PlacedCard | None, label: str, lang: Language) -> list[str]:
    """A cell as text lines: number and name (wrapped), then habitats, season and icons."""
    if placed is None:
        return [label]
    card = load_catalog().card(placed.card)
    number = "W#" if card.wild else str(card.number)
    habitats = "".join(letter(h.value, lang) for h in card.habitats)
    marks = [habitats, season_name(card.season, lang)[:3] if card.season else ""]
    marks += [letter(m, lang) for m, on in (("keystone", card.keystone), ("endangered", card.endangered),
                                            ("tag", card.tag)) if on]
    if placed.research:
        marks.append(f"{letter('research', lang)}{placed.research}")
    return [*_wrap_name(number, card.name_in(lang), CELL - 1, lang), " ".join(m for m in marks if m)]


def board_lines(seat: SeatView, lang: Language = DEFAULT) -> list[str]:
    """The 4x4 grid with row letters and column numbers; each row is as tall as its longest cell."""
    rule = "   +" + "+".join("-" * CELL for _ in range(4)) + "+"
    lines = ["    " + "".join(str(c + 1).center(CELL + 1) for c in range(4)).rstrip(), rule]
    for r in range(4):
        cells = [_cell_lines(seat.board[r * 4 + c], CELL_NAMES[r * 4 + c], lang) for c in range(4)]
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


def _objective_line(number: int | None, lang: Language) -> str | None:
    objective = objective_card(number)
    if objective is None:
        return None
    goals = "; ".join(
        f"{GOAL_LETTERS[i]} {goal_name(g.pattern, g.symbol, lang)}" for i, g in enumerate(objective.goals)
    )
    return tr(lang, "picture.text.objective", number=objective.number, goals=goals)


def _acting(view: GameView, seat: SeatView, lang: Language) -> str:
    return tr(lang, "picture.text.to_act") if seat.index == view.current and not view.over else ""


def text_board(view: GameView, seat: int, lang: Language = DEFAULT) -> str:
    """One seat's board as text, as `view` may see it, in `lang`."""
    view = require_view(view, "text_board")
    sv = view.seats[require_seat(view, seat)]
    filled = sum(p is not None for p in sv.board)
    head = tr(lang, "picture.text.board", name=sv.name, synergy=sv.synergy, filled=filled,
              acting=_acting(view, sv, lang))
    lines = [head, *board_lines(sv, lang)]
    objective = _objective_line(sv.objective, lang)
    if objective:
        lines.append(objective)
    lines.append(tr(lang, "picture.text.legend"))
    return "\n".join(lines)


def _field_lines(view: GameView, words: ActionWords, lang: Language) -> list[str]:
    catalog = load_catalog()
    lines = [tr(lang, "picture.text.field", take=words.take)]
    for slot, entry in enumerate(view.field):
        if entry is None:
            lines.append(f"  {slot + 1}. {tr(lang, 'picture.text.empty')}")
            continue
        cost = view.field_costs[slot]
        price = tr(lang, "picture.text.free") if cost == 0 else tr(lang, "picture.text.cost", cost=cost)
        extra = tr(lang, "picture.text.synergy_on", count=entry.synergy) if entry.synergy else ""
        lines.append(f"  {slot + 1}. {describe_card(catalog.card(entry.card), lang)}: {price}{extra}")
    top = tr(lang, "picture.text.top", name=catalog.card(view.discard[-1]).name_in(lang)) if view.discard else ""
    lines.append(tr(lang, "picture.text.piles", deck=counted("card", view.deck_count, lang),
                    discard=counted("card", len(view.discard), lang), top=top))
    return lines


def _hand_lines(view: GameView, words: ActionWords, lang: Language) -> list[str]:
    if view.held_count == 0 or view.over:
        return []
    who = view.seats[view.current].name
    if view.held is None:
        return [tr(lang, "picture.text.holds_hidden", who=who, cards=counted("card", view.held_count, lang))]
    catalog = load_catalog()
    lines = [tr(lang, "picture.text.holds", who=who, place=words.place)]
    lines += [f"  {i + 1}. {describe_card(catalog.card(c), lang)}" for i, c in enumerate(view.held)]
    return lines


def _skill_lines(view: GameView, words: ActionWords, lang: Language) -> list[str]:
    lines = [tr(lang, "picture.text.skills")]
    for skill in view.skills:
        lines.append(tr(lang, "picture.text.skill", number=skill.number, state=state_name(skill_state(skill), lang),
                        label=skill_label(skill, lang), flip=skill_flip_label(skill, lang)))
    lines.append(tr(lang, "picture.text.resolve_all", resolve_all=words.resolve_all))
    return lines


def _wild_line(view: GameView, lang: Language) -> str:
    if not view.wilds_allowed:
        return tr(lang, "picture.text.wilds_none")
    catalog = load_catalog()
    stacks = []
    for habitat, stack in view.wild_stacks:
        season = catalog.card(stack[-1]).season if stack else None
        top = tr(lang, "picture.text.wild_top", season=season_name(season, lang)) if season else ""
        stacks.append(f"{habitat_name(habitat, lang)} {len(stack)}{top}")
    return tr(lang, "picture.text.wilds", cost=view.wild_cost, stacks=", ".join(stacks))


def text_table(view: GameView, words: ActionWords | None = None, lang: Language = DEFAULT) -> str:
    """Everything on the table that `view` may see, as text in `lang`; actions are named in
    `words` (the terminal's notation by default)."""
    view = require_view(view, "text_table")
    words = words if words is not None else action_words("terminal", lang)
    round_no = view.turn // max(1, len(view.seats)) + 1
    mark = "game_over" if view.over else ("final_round" if view.final_round else "")
    lines = [tr(lang, "picture.text.round", number=round_no, mark=tr(lang, f"picture.text.{mark}") if mark else "",
                status=status_text(view, words, lang))]
    lines += _field_lines(view, words, lang)
    lines += _hand_lines(view, words, lang)
    lines += _skill_lines(view, words, lang)
    lines.append(tr(lang, "picture.text.time", left=max(0, view.time), start=view.time_start))
    lines.append(_wild_line(view, lang))
    seats = [tr(lang, "picture.text.seat", name=s.name, synergy=s.synergy, filled=sum(p is not None for p in s.board),
                acting=_acting(view, s, lang)) for s in view.seats]
    lines.append(tr(lang, "picture.text.players", seats="; ".join(seats)))
    return "\n".join(lines)


def text_scores(sheets: Sequence[ScoreSheet], names: Sequence[str] | None = None, final: bool = True,
                lang: Language = DEFAULT) -> str:
    """The score sheet as a table, one column per player, and who won (who leads, if not `final`)."""
    if not sheets:
        raise ValueError("There are no score sheets to show.")
    labels = list(names) if names is not None else [tr(lang, "picture.text.seat_number", number=i + 1)
                                                    for i in range(len(sheets))]
    if len(labels) != len(sheets):
        raise ValueError(f"Expected {len(sheets)} names, got {len(labels)}.")
    width = max(6, *(len(n) for n in labels)) + 2
    rows: list[tuple[str, list[str]]] = []
    for k in range(8):
        lines = [(s.rows + s.columns)[k] for s in sheets]
        rows.append((line_label(lines[0].line, lang), [str(line.points) for line in lines]))
    met = [f"{s.goals_completed}/4" if s.objective is not None else "-" for s in sheets]
    rows.append((tr(lang, "picture.text.goals_met"), met))
    rows.append((tr(lang, "picture.text.objective_points"), [str(s.objective_points) for s in sheets]))
    rows.append((tr(lang, "picture.text.synergy_tokens"), [str(s.synergy_tokens) for s in sheets]))
    rows.append((tr(lang, "picture.text.synergy_points"), [str(s.synergy_points) for s in sheets]))
    rows.append((tr(lang, "picture.row.total"), [str(s.total) for s in sheets]))
    out = ["".ljust(16) + "".join(n.rjust(width) for n in labels)]
    out += [label.ljust(16) + "".join(v.rjust(width) for v in values) for label, values in rows]
    places = rank(sheets)
    winners = [labels[i] for i, p in enumerate(places) if p == 1]
    best = max(s.total for s in sheets)
    if len(sheets) > 1:
        alone = len(winners) == 1
        verb = ("wins" if alone else "share_win") if final else ("leads" if alone else "share_lead")
        together = winners[0]
        for name in winners[1:]:
            together = tr(lang, "picture.and", first=together, second=name)
        out.append(trn(lang, f"picture.text.{verb}", best, names=together))
    return "\n".join(out)
