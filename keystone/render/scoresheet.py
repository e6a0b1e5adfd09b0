"""The final score sheet: a table of scoring categories by player, one player to a row.

Each row shows what every line of the board scored (the habitat of its best ecosystem, its cards,
research and keystones), the secret objective's goals, synergy and the total; the winner's row is
framed in gold with a crown. Landscape at every player count, so Discord shows it inline at half
size or more, with no text under 18 px.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from keystone.engine.scoring import LineScore, ScoreSheet, rank
from keystone.engine.views import GameView, SeatView
from keystone.engine.words import counted
from keystone.i18n import DEFAULT, Language, tr, trn
from keystone.render import fonts
from keystone.render.common import canvas, png, require_view
from keystone.render.icons import habitat_icon, icon, paste, symbol_icon
from keystone.render.palette import (
    ACTIVE_DARK,
    FAINT,
    GOLD,
    HIGHLIGHT,
    INK,
    MUTED,
    PAGE,
    PAGE_DARK,
)

MARGIN = 16
SHEET_W = 1100
"""Shown inline at half size in Discord's 550 x 350 box."""
NAME_W = 190
LINE_W = 62
OBJ_W = 170
SYN_W = 104
TOTAL_W = SHEET_W - 2 * MARGIN - NAME_W - 8 * LINE_W - OBJ_W - SYN_W
TITLE_H = 86
HEAD_H = 66
ROW_H = 104
FOOTNOTE = ("picture.footnote.lines", "picture.footnote.points")
"""The keys of the notes under the sheet: how a line and the rest are scored."""


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


# --------------------------------------------------------------------------- cells


def line_detail(line: LineScore) -> str:
    """A scored line in short: its cards, +research, xN for keystones (the footnote explains)."""
    detail = str(line.cards) + (f"+{line.research}" if line.research else "")
    return detail + (f" x{1 + line.keystones}" if line.keystones else "")


def _line_cell(image: Image.Image, xy: tuple[int, int], line: LineScore) -> None:
    x, y = xy
    centre = x + LINE_W // 2
    if line.habitat is None:
        fonts.draw_text(image, (centre, y + 30), str(line.points), 26, FAINT, anchor="mm", bold=True)
        return
    points = str(line.points)
    used = 24 + 4 + fonts.width(points, 26, bold=True)
    left = centre - used // 2
    paste(image, habitat_icon(line.habitat, 24), (left, y + 18))
    fonts.draw_text(image, (left + 28, y + 30), points, 26, INK, anchor="lm", bold=True)
    fonts.draw_text(image, (centre, y + 66), line_detail(line), 18, MUTED, anchor="mm")


def _objective_cell(image: Image.Image, xy: tuple[int, int], sheet: ScoreSheet, lang: Language) -> None:
    x, y = xy
    fonts.draw_text(image, (x + OBJ_W - 10, y + 30), str(sheet.objective_points), 26,
                    INK if sheet.objective_points else FAINT, anchor="rm", bold=True)
    if sheet.objective is None:
        fonts.draw_text(image, (x + 8, y + 30), tr(lang, "picture.none"), 18, FAINT, anchor="lm")
        return
    for i, goal in enumerate(sheet.goals):
        gx = x + 8 + (i % 2) * 62
        gy = y + 16 + (i // 2) * 34
        fonts.draw_text(image, (gx, gy + 12), goal.letter, 18, INK, anchor="lm", bold=True)
        paste(image, symbol_icon(goal.symbol, 22), (gx + 15, gy + 1))
        paste(image, icon("check" if goal.completed else "cross", 18), (gx + 39, gy + 3))


def _name_cell(image: Image.Image, xy: tuple[int, int], seat: SeatView, place: int | None, winner: bool,
               lang: Language) -> None:
    x, y = xy
    name_x = x + 10
    if winner:
        paste(image, icon("crown", 30), (name_x, y + 14))
        name_x += 36
    name = fonts.fit(seat.name, 24, x + NAME_W - 8 - name_x)
    fonts.draw_text(image, (name_x, y + 30), name, 24, INK, anchor="lm", bold=True)
    if place is not None:
        fonts.draw_text(image, (x + 10, y + 68), ordinal(place, lang), 20, ACTIVE_DARK if winner else MUTED,
                        anchor="lm", bold=True)


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


def _columns() -> list[tuple[int, int]]:
    """(left, width) of each column: name, eight lines, objective, synergy, total."""
    widths = [NAME_W, *[LINE_W] * 8, OBJ_W, SYN_W, TOTAL_W]
    out, x = [], MARGIN
    for w in widths:
        out.append((x, w))
        x += w
    return out


def _header(image: Image.Image, draw: ImageDraw.ImageDraw, top: int, lang: Language) -> None:
    cols = _columns()
    for group, first in (("picture.rows", 1), ("picture.columns", 5)):
        left, right = cols[first][0], cols[first + 3][0] + LINE_W
        label = fonts.fit(tr(lang, group), 18, right - left)
        fonts.draw_text(image, ((left + right) // 2, top + 14), label, 18, MUTED, anchor="mm", bold=True)
        draw.line((left + 6, top + 28, right - 6, top + 28), fill=FAINT, width=2)
    for k, name in enumerate(("A", "B", "C", "D", "1", "2", "3", "4")):
        left, w = cols[1 + k]
        fonts.draw_text(image, (left + w // 2, top + 48), name, 22, INK, anchor="mm", bold=True)
    for col, key in ((9, "picture.row.objective"), (10, "picture.row.synergy"), (11, "picture.row.total")):
        left, w = cols[col]
        lines = fonts.wrap(tr(lang, key), 18, w - 12, max_lines=2)
        first = top + HEAD_H // 2 + 4 - 11 * (len(lines) - 1)
        for j, line in enumerate(lines):
            fonts.draw_text(image, (left + w // 2, first + 22 * j), line, 18, INK, anchor="mm", bold=True)


def render_scoresheet_image(view: GameView, sheets: Sequence[ScoreSheet], lang: Language = DEFAULT) -> Image.Image:
    view = require_view(view, "render_scoresheet")
    _check_sheets(view, sheets)
    places = rank(sheets, view.resigned)
    n = len(sheets)
    width = SHEET_W
    inner = width - 2 * MARGIN
    title, why = _headline(view, sheets, places, lang)
    heading = fonts.wrap(title + (f" ({why})" if why else ""), 22, inner, max_lines=2)
    notes = [line for note in FOOTNOTE for line in fonts.wrap(tr(lang, note), 18, inner, max_lines=3)]
    title_h = TITLE_H + 28 * (len(heading) - 1)
    body = HEAD_H + n * ROW_H
    image, draw = canvas(width, MARGIN + title_h + body + 14 + 23 * len(notes) + MARGIN, PAGE)
    fonts.draw_text(image, (MARGIN, MARGIN + 18), tr(lang, "picture.final"), 32, INK, anchor="lm", bold=True)
    for j, line in enumerate(heading):
        fonts.draw_text(image, (MARGIN, MARGIN + 58 + 28 * j), line, 22, INK, anchor="lm")
    top = MARGIN + title_h
    _header(image, draw, top, lang)
    cols = _columns()
    rows_top = top + HEAD_H
    draw.line((MARGIN, rows_top, width - MARGIN, rows_top), fill=INK, width=2)
    for j in range(n):
        y = rows_top + j * ROW_H
        if j % 2 == 1:
            draw.rectangle((MARGIN, y, width - MARGIN, y + ROW_H), fill=PAGE_DARK)
    for col in (1, 5, 9, 11):
        x = cols[col][0]
        draw.line((x, rows_top + 6, x, rows_top + n * ROW_H - 6), fill=FAINT, width=1)
    for j, (seat, sheet) in enumerate(zip(view.seats, sheets, strict=True)):
        y = rows_top + j * ROW_H
        winner = places[j] == 1 and n > 1
        if places[j] == 1:
            left, w = cols[11]
            draw.rounded_rectangle((left + 8, y + 14, left + w - 8, y + ROW_H - 14), radius=10, fill=HIGHLIGHT)
        _name_cell(image, (cols[0][0], y), seat, places[j] if n > 1 else None, winner, lang)
        for k, scored in enumerate((*sheet.rows, *sheet.columns)):
            _line_cell(image, (cols[1 + k][0], y + 4), scored)
        _objective_cell(image, (cols[9][0], y + 4), sheet, lang)
        left, w = cols[10]
        fonts.draw_text(image, (left + w - 10, y + 34), str(sheet.synergy_points), 26,
                        INK if sheet.synergy_points else FAINT, anchor="rm", bold=True)
        tokens = fonts.fit(counted("picture.tokens", sheet.synergy_tokens, lang), 18, w - 14)
        fonts.draw_text(image, (left + w - 10, y + 70), tokens, 18, MUTED, anchor="rm")
        left, w = cols[11]
        fonts.draw_text(image, (left + w // 2, y + ROW_H // 2), str(sheet.total), 38, INK, anchor="mm", bold=True)
        if winner:
            draw.rounded_rectangle((MARGIN + 2, y + 3, width - MARGIN - 2, y + ROW_H - 3), radius=12, outline=GOLD,
                                   width=4)
    bottom = rows_top + n * ROW_H
    draw.line((MARGIN, bottom, width - MARGIN, bottom), fill=INK, width=2)
    for i, note in enumerate(notes):
        fonts.draw_text(image, (MARGIN, bottom + 24 + i * 23), note, 18, MUTED, anchor="lm")
    return image


def render_scoresheet(view: GameView, sheets: Sequence[ScoreSheet], lang: Language = DEFAULT) -> bytes:
    """PNG of the final score sheet in `lang`; `sheets[i]` belongs to `view.seats[i]`."""
    return png(render_scoresheet_image(view, sheets, lang))
