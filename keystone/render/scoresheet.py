"""The final score sheet: one column per player, one line per row and column of the board.

Each line shows a miniature board with the scored ecosystem filled in, so a player can find it on
their own board; then the secret objective's goals, synergy, the total and the winner.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from keystone.data import load_catalog
from keystone.engine.board import CELL_NAMES
from keystone.engine.scoring import LINES, LineScore, ScoreSheet, rank
from keystone.engine.state import PlacedCard
from keystone.engine.views import GameView, SeatView
from keystone.engine.words import counted
from keystone.i18n import DEFAULT, Language, tr, trn
from keystone.render import fonts
from keystone.render.common import canvas, pattern_glyph, png, require_view, symbol_colour
from keystone.render.icons import habitat_icon, icon, paste, symbol_icon
from keystone.render.palette import (
    ACTIVE_DARK,
    CARD,
    FAINT,
    GOLD,
    HABITAT_COLOUR,
    HIGHLIGHT,
    INK,
    MUTED,
    PAGE,
    PAGE_DARK,
    RESEARCH,
    WHITE,
)

MARGIN = 20
LABEL_W = 170
MAX_W = 1200
TITLE_H = 86
HEAD_H = 200
LINE_H = 58
OBJ_H = 84
SYN_H = 46
TOTAL_H = 58
FOOTNOTE = ("picture.footnote.lines", "picture.footnote.points")
"""The keys of the notes under the sheet: how a line and the rest are scored."""


def _cell_index(label: str) -> int:
    return CELL_NAMES.index(label)


def ordinal(place: int, lang: Language = DEFAULT) -> str:
    """1st, 2nd, 3rd, 4th (1., 2., 3., 4.)."""
    return tr(lang, f"picture.place.{place}" if place in (1, 2, 3) else "picture.place.other", place=place)


def line_label(line: str, lang: Language = DEFAULT) -> str:
    """A scored line's name ("Row A", "Column 2") in `lang`."""
    kind, which = line.split()
    return tr(lang, "picture.line.row", row=which) if kind == "Row" else tr(lang, "picture.line.column", column=which)


def _check_sheets(view: GameView, sheets: Sequence[ScoreSheet]) -> None:
    """One sheet per seat, and no sheet may reveal an objective that the view hides."""
    if len(sheets) != len(view.seats):
        raise ValueError(f"Expected one score sheet per seat ({len(view.seats)}), got {len(sheets)}.")
    for seat, sheet in zip(view.seats, sheets, strict=True):
        if not isinstance(sheet, ScoreSheet):
            raise TypeError(f"render_scoresheet takes ScoreSheet objects, not {type(sheet).__name__}.")
        if sheet.objective is not None and seat.objective != sheet.objective:
            raise ValueError(f"The sheet for {seat.name} shows a secret objective that this view may not see.")


# --------------------------------------------------------------------------- miniature boards


def _tile(image: Image.Image, box: tuple[int, int, int, int], placed: PlacedCard) -> None:
    """One card as a small tile: habitat bars down the left, its number, a research dot."""
    draw = ImageDraw.Draw(image)
    card = load_catalog().card(placed.card)
    x0, y0, x1, y1 = box
    draw.rectangle(box, fill=CARD, outline=INK)
    bar = max(3, (x1 - x0) // 8)
    for i, habitat in enumerate(card.habitats):
        draw.rectangle((x0 + 1 + i * bar, y0 + 1, x0 + (i + 1) * bar, y1 - 1), fill=HABITAT_COLOUR[habitat])
    text = "W" if card.wild else str(card.number)
    cx = (x0 + len(card.habitats) * bar + x1) / 2
    fonts.draw_text(image, (cx, (y0 + y1) / 2), text, 16, INK, anchor="mm", bold=True)
    if card.keystone:
        draw.polygon([(x1 - 9, y0 + 1), (x1 - 1, y0 + 1), (x1 - 1, y0 + 9)], fill=GOLD)
    if placed.research:
        draw.ellipse((x1 - 9, y1 - 9, x1 - 2, y1 - 2), fill=RESEARCH)


def _full_board(image: Image.Image, xy: tuple[int, int], seat: SeatView, cell: int = 32) -> int:
    x, y = xy
    draw = ImageDraw.Draw(image)
    for i, placed in enumerate(seat.board):
        r, c = divmod(i, 4)
        box = (x + c * (cell + 3), y + r * (cell + 3), x + c * (cell + 3) + cell, y + r * (cell + 3) + cell)
        if placed is None:
            draw.rectangle(box, fill=PAGE_DARK)
        else:
            _tile(image, box, placed)
    return 4 * cell + 9


def _line_board(image: Image.Image, xy: tuple[int, int], seat: SeatView, line: LineScore,
                line_cells: Sequence[int], cell: int = 11) -> None:
    """A 4x4 miniature: the line framed, each card of its scored ecosystem marked with the
    habitat's shape on a white cell, so the habitat reads without telling colours apart."""
    draw = ImageDraw.Draw(image)
    x, y = xy
    scored = {_cell_index(c) for c in line.cells}
    for i, placed in enumerate(seat.board):
        r, c = divmod(i, 4)
        box = (x + c * (cell + 2), y + r * (cell + 2), x + c * (cell + 2) + cell, y + r * (cell + 2) + cell)
        if i in scored and line.habitat is not None:
            draw.rectangle(box, fill=WHITE, outline=HABITAT_COLOUR[line.habitat])
            paste(image, habitat_icon(line.habitat, cell), (box[0] + 1, box[1] + 1))
        elif i in line_cells:
            draw.rectangle(box, fill=WHITE if placed is not None else PAGE, outline=INK)
        else:
            draw.rectangle(box, fill=(196, 188, 170) if placed is not None else PAGE_DARK)


LINE_CELLS: dict[str, tuple[int, ...]] = dict(LINES)


# --------------------------------------------------------------------------- columns


def _line_cell(image: Image.Image, draw: ImageDraw.ImageDraw, xy: tuple[int, int], width: int, seat: SeatView,
               line: LineScore, lang: Language) -> None:
    x, y = xy
    _line_board(image, (x, y + 4), seat, line, LINE_CELLS.get(line.line, ()))
    fonts.draw_text(image, (x + width - 8, y + LINE_H // 2), str(line.points), 24, INK if line.points else FAINT,
                    anchor="rm", bold=True)
    if line.habitat is None:
        fonts.draw_text(image, (x + 56, y + LINE_H // 2), tr(lang, "picture.no_ecosystem"), 14, FAINT, anchor="lm")
        return
    paste(image, habitat_icon(line.habitat, 22), (x + 56, y + LINE_H // 2 - 11))
    detail = trn(lang, "picture.line.cards", line.cards) + (f" +{line.research}" if line.research else "")
    if line.keystones:
        detail += f" x{1 + line.keystones}"
    fonts.draw_text(image, (x + 84, y + LINE_H // 2), detail, 15, MUTED, anchor="lm")


def _objective_cell(image: Image.Image, draw: ImageDraw.ImageDraw, xy: tuple[int, int], width: int,
                    sheet: ScoreSheet, lang: Language) -> None:
    x, y = xy
    fonts.draw_text(image, (x + width - 8, y + OBJ_H // 2), str(sheet.objective_points), 24,
                    INK if sheet.objective_points else FAINT, anchor="rm", bold=True)
    if sheet.objective is None:
        fonts.draw_text(image, (x, y + OBJ_H // 2), tr(lang, "picture.none"), 15, FAINT, anchor="lm")
        return
    for i, goal in enumerate(sheet.goals):
        gx = x + (i % 2) * 96
        gy = y + 6 + (i // 2) * 38
        fonts.draw_text(image, (gx, gy + 16), goal.letter, 16, INK, anchor="lm", bold=True)
        glyph = pattern_glyph(image, (gx + 14, gy + 2), goal.pattern, symbol_colour(goal.symbol), cell=8)
        paste(image, symbol_icon(goal.symbol, 20), (gx + 17 + glyph, gy + 6))
        paste(image, icon("check" if goal.completed else "cross", 18), (gx + 40 + glyph, gy + 7))


def _name_head(image: Image.Image, draw: ImageDraw.ImageDraw, xy: tuple[int, int], width: int, seat: SeatView,
               place: int | None, winner: bool, lang: Language) -> None:
    x, y = xy
    name_x = x
    if winner:
        paste(image, icon("crown", 30), (x, y + 2))
        name_x += 36
    name = fonts.fit(seat.name, 22, width - (name_x - x) - 56)
    fonts.draw_text(image, (name_x, y + 18), name, 22, INK, anchor="lm", bold=True)
    if place is not None:
        fonts.draw_text(image, (x + width - 8, y + 18), ordinal(place, lang), 18, ACTIVE_DARK if winner else MUTED,
                        anchor="rm", bold=True)
    _full_board(image, (x, y + 44), seat)


# --------------------------------------------------------------------------- picture


def _headline(view: GameView, sheets: Sequence[ScoreSheet], places: Sequence[int],
              lang: Language) -> tuple[str, str]:
    names = [s.name for s in view.seats]
    if view.resigned is not None:
        title, _ = _scored_headline(names, sheets, places, lang)
        return title, tr(lang, "picture.head.resigned", name=names[view.resigned])
    return _scored_headline(names, sheets, places, lang)


def _scored_headline(names: Sequence[str], sheets: Sequence[ScoreSheet], places: Sequence[int],
                     lang: Language) -> tuple[str, str]:
    first = [i for i, p in enumerate(places) if p == 1]
    best = sheets[first[0]].total
    if len(sheets) == 1:
        return trn(lang, "picture.head.solo", best, name=names[0]), ""
    if len(first) > 1:
        together = names[first[0]]
        for i in first[1:]:
            together = tr(lang, "picture.and", first=together, second=names[i])
        return trn(lang, "picture.head.shared", best, names=together), tr(lang, "picture.head.tied")
    top = first[0]
    tied_total = [i for i, s in enumerate(sheets) if s.total == best and i != top]
    why = ""
    if tied_total:
        same_goals = all(sheets[i].goals_completed == sheets[top].goals_completed for i in tied_total)
        why = tr(lang, "picture.head.tie_synergy" if same_goals else "picture.head.tie_goals")
    return trn(lang, "picture.head.wins", best, name=names[top]), why


def render_scoresheet_image(view: GameView, sheets: Sequence[ScoreSheet], lang: Language = DEFAULT) -> Image.Image:
    view = require_view(view, "render_scoresheet")
    _check_sheets(view, sheets)
    places = rank(sheets, view.resigned)
    n = len(sheets)
    col_w = min(260, (MAX_W - 2 * MARGIN - LABEL_W) // n)
    width = 2 * MARGIN + LABEL_W + n * col_w
    body = HEAD_H + 8 * LINE_H + OBJ_H + SYN_H + TOTAL_H
    notes = [line for note in FOOTNOTE for line in fonts.wrap(tr(lang, note), 14, width - 2 * MARGIN, max_lines=3)]
    image, draw = canvas(width, TITLE_H + body + 16 + 19 * len(notes) + 2 * MARGIN, PAGE)
    title, why = _headline(view, sheets, places, lang)
    fonts.draw_text(image, (MARGIN, MARGIN + 20), tr(lang, "picture.final"), 28, INK, anchor="lm", bold=True)
    fonts.draw_text(image, (MARGIN, MARGIN + 54), fonts.fit(title, 19, width - 2 * MARGIN), 19, INK, anchor="lm")
    if why:
        fonts.draw_text(image, (MARGIN + fonts.width(title, 19) + 10, MARGIN + 54), f"({why})", 15, MUTED,
                        anchor="lm")
    top = MARGIN + TITLE_H
    rows: list[tuple[str, int]] = [("", HEAD_H)]
    rows += [(line_label(line.line, lang), LINE_H) for line in (*sheets[0].rows, *sheets[0].columns)]
    total = tr(lang, "picture.row.total")
    rows += [(tr(lang, "picture.row.objective"), OBJ_H), (tr(lang, "picture.row.synergy"), SYN_H), (total, TOTAL_H)]
    # Stripes first, then the winner's column, then the contents on top.
    y = top
    for i, (_, h) in enumerate(rows):
        if i % 2 == 1:
            draw.rectangle((MARGIN, y, width - MARGIN, y + h), fill=PAGE_DARK)
        y += h
    for j, place in enumerate(places):
        if place == 1 and n > 1:
            x = MARGIN + LABEL_W + j * col_w
            draw.rounded_rectangle((x + 2, top, x + col_w - 2, y), radius=10, outline=GOLD, width=3)
    y = top
    for label, h in rows:
        if label:
            fonts.draw_text(image, (MARGIN + 10, y + h // 2), fonts.fit(label, 18, LABEL_W - 12), 18, INK, anchor="lm",
                            bold=label == total)
        y += h
    for j, (seat, sheet) in enumerate(zip(view.seats, sheets, strict=True)):
        x = MARGIN + LABEL_W + j * col_w + 12
        w = col_w - 20
        _name_head(image, draw, (x, top + 10), w, seat, places[j] if n > 1 else None, places[j] == 1 and n > 1,
                   lang)
        y = top + HEAD_H
        for line in (*sheet.rows, *sheet.columns):
            _line_cell(image, draw, (x, y), w, seat, line, lang)
            y += LINE_H
        _objective_cell(image, draw, (x, y), w, sheet, lang)
        y += OBJ_H
        tokens = counted("picture.tokens", sheet.synergy_tokens, lang)
        fonts.draw_text(image, (x, y + SYN_H // 2), tokens, 15, MUTED, anchor="lm")
        fonts.draw_text(image, (x + w - 8, y + SYN_H // 2), str(sheet.synergy_points), 24,
                        INK if sheet.synergy_points else FAINT, anchor="rm", bold=True)
        y += SYN_H
        if places[j] == 1:
            draw.rounded_rectangle((x - 6, y + 6, x + w, y + TOTAL_H - 6), radius=8, fill=HIGHLIGHT)
        fonts.draw_text(image, (x + w - 8, y + TOTAL_H // 2), str(sheet.total), 30, INK, anchor="rm", bold=True)
    draw.line((MARGIN, top + HEAD_H, width - MARGIN, top + HEAD_H), fill=INK, width=2)
    total_top = top + body - TOTAL_H
    draw.line((MARGIN, total_top, width - MARGIN, total_top), fill=INK, width=2)
    for i, note in enumerate(notes):
        fonts.draw_text(image, (MARGIN, top + body + 16 + i * 19), note, 14, MUTED, anchor="lm")
    return image


def render_scoresheet(view: GameView, sheets: Sequence[ScoreSheet], lang: Language = DEFAULT) -> bytes:
    """PNG of the final score sheet in `lang`; `sheets[i]` belongs to `view.seats[i]`."""
    return png(render_scoresheet_image(view, sheets, lang))
