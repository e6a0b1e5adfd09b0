"""Pictures sent to one player only: the cards in their hand, and their secret objective with how
far their board has come towards each goal."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from keystone.cards import OBJECTIVE_POINTS
from keystone.data import load_catalog
from keystone.engine.results import board_cells
from keystone.engine.scoring import GoalResult, score_board
from keystone.engine.views import GameView
from keystone.engine.words import ActionWords, counted, goal_name
from keystone.i18n import DEFAULT, Language, tr
from keystone.render import fonts
from keystone.render.cards import card_face
from keystone.render.common import canvas, pattern_glyph, png, require_seat, require_view, symbol_colour
from keystone.render.describe import actions
from keystone.render.icons import icon, paste, symbol_icon
from keystone.render.palette import ACTIVE_DARK, CARD_H, CARD_W, INK, MUTED, PAGE, PAGE_DARK, WHITE

MARGIN = 16
GAP = 18
COLUMNS = 5
"""Cards to a row: five fit the 1100 px a picture may be wide to show inline at half size."""
MIN_RATIO = 1.45
"""Every private picture is at least this much wider than tall: Discord's inline box is 550 x 350."""
MAX_W = 1100
TITLE = 28
HINT = 20
NUMBER_H = 36


def landscape_width(content: int, height: int) -> int:
    """The narrowest width at least `content` wide that keeps a picture `height` tall landscape."""
    return max(content, -(-int(MIN_RATIO * height * 100) // 100) + 1)


def _known(cards: Sequence[str]) -> tuple[str, ...]:
    """The card ids, refused with one sentence when there are none or one is unknown."""
    if not cards:
        raise ValueError("There are no cards to draw.")
    catalog = load_catalog()
    for card in cards:
        try:
            catalog.card(card)
        except KeyError:
            raise ValueError(f"There is no card {card!r}.") from None
    return tuple(cards)


def _hand_height(rows: int, hint_lines: int) -> int:
    return MARGIN + 34 + hint_lines * 26 + 10 + rows * (NUMBER_H + CARD_H + 12) + MARGIN - 12


def render_hand_image(view: GameView, cards: Sequence[str], words: ActionWords | None = None,
                      lang: Language = DEFAULT) -> Image.Image:
    view = require_view(view, "render_hand")
    words = actions(words, lang)
    cards = _known(cards)
    across = min(COLUMNS, len(cards))
    rows = -(-len(cards) // COLUMNS)
    cards_w = across * CARD_W + (across - 1) * GAP
    owner = (tr(lang, "picture.hand.owner", name=view.seats[view.viewer].name) if view.viewer is not None
             else tr(lang, "picture.hand.anyone"))
    hint = tr(lang, "picture.hand.hint", cards=counted("card", len(cards), lang), place=words.place)
    # The hint wraps rather than being cut; a wider picture needs fewer lines, so settle the width first.
    width = landscape_width(2 * MARGIN + cards_w, _hand_height(rows, 1))
    lines = fonts.wrap(hint, HINT, width - 2 * MARGIN)
    width = landscape_width(width, _hand_height(rows, len(lines)))
    lines = fonts.wrap(hint, HINT, width - 2 * MARGIN)
    image, draw = canvas(width, _hand_height(rows, len(lines)), PAGE)
    fonts.draw_text(image, (MARGIN, MARGIN + 16), fonts.fit(owner, TITLE, width - 2 * MARGIN), TITLE, INK,
                    anchor="lm", bold=True)
    for j, line in enumerate(lines):
        fonts.draw_text(image, (MARGIN, MARGIN + 46 + 26 * j), line, HINT, MUTED, anchor="lm")
    top = MARGIN + 34 + 26 * len(lines) + 10
    left = (width - cards_w) // 2
    for i, card in enumerate(cards):
        row, col = divmod(i, COLUMNS)
        x, y = left + col * (CARD_W + GAP), top + row * (NUMBER_H + CARD_H + 12)
        cx = x + CARD_W // 2
        draw.ellipse((cx - 16, y, cx + 16, y + 32), fill=ACTIVE_DARK)
        fonts.draw_text(image, (cx, y + 16), str(i + 1), 20, WHITE, anchor="mm", bold=True)
        paste(image, card_face(card, lang), (x, y + NUMBER_H))
    return image


def render_hand(view: GameView, cards: Sequence[str], words: ActionWords | None = None,
                lang: Language = DEFAULT) -> bytes:
    """PNG of `cards` (card ids, in hand order) as full faces named in `lang`,
    numbered from 1 as placing counts them (in `words`); landscape, five to a row. For the one player
    who may see them."""
    return png(render_hand_image(view, cards, words, lang))


# --------------------------------------------------------------------------- objective

OBJ_W = 820
GOAL_W = (OBJ_W - 2 * MARGIN - GAP) // 2
"""Two goals to a row."""
NAME = 22
DETAIL = 20


def goal_progress(view: GameView, seat: int) -> tuple[int, tuple[GoalResult, ...]]:
    """The seat's objective number and each goal as scoring judges the board now."""
    owner = view.seats[seat]
    if owner.objective is None:
        raise ValueError(f"This view does not show {owner.name}'s secret objective.")
    objective = load_catalog().objectives[owner.objective]
    sheet = score_board(board_cells(owner.board), objective, owner.synergy, view.rules)
    return owner.objective, sheet.goals


def _goal_words(goal: GoalResult, lang: Language) -> tuple[list[str], list[str], int]:
    """The goal's name and its state, each wrapped to its column, and the text's left offset."""
    text_x = 86 + 3 * 12 + 4
    name = fonts.wrap(goal_name(goal.pattern, goal.symbol, lang), NAME, GOAL_W - text_x - 8, max_lines=2)
    detail = (tr(lang, "picture.goal.met", cells=", ".join(goal.cells)) if goal.completed
              else tr(lang, "picture.goal.not_yet"))
    return name, fonts.wrap(detail, DETAIL, GOAL_W - text_x - 44, max_lines=2), text_x


def _goal_height(goal: GoalResult, lang: Language) -> int:
    name, detail, _ = _goal_words(goal, lang)
    return 16 + 28 * len(name) + 26 * len(detail) + 8


def _goal_cell(image: Image.Image, xy: tuple[int, int], goal: GoalResult, lang: Language) -> None:
    x, y = xy
    fonts.draw_text(image, (x + 4, y + 30), goal.letter, 28, INK, anchor="lm", bold=True)
    glyph = pattern_glyph(image, (x + 30, y + 10), goal.pattern, symbol_colour(goal.symbol), cell=12)
    paste(image, symbol_icon(goal.symbol, 40), (x + 38 + glyph, y + 10))
    name, detail, tx = _goal_words(goal, lang)
    tx += x
    for j, line in enumerate(name):
        fonts.draw_text(image, (tx, y + 22 + 28 * j), line, NAME, INK, anchor="lm", bold=True)
    dy = y + 22 + 28 * len(name)
    paste(image, icon("check" if goal.completed else "cross", 28), (tx, dy - 6))
    colour = ACTIVE_DARK if goal.completed else MUTED
    for j, line in enumerate(detail):
        fonts.draw_text(image, (tx + 36, dy + 8 + 26 * j), line, DETAIL, colour, anchor="lm", bold=goal.completed)


def render_objective_image(view: GameView, seat: int, lang: Language = DEFAULT) -> Image.Image:
    view = require_view(view, "render_objective")
    seat = require_seat(view, seat)
    number, goals = goal_progress(view, seat)
    met = sum(g.completed for g in goals)
    summary = fonts.wrap(tr(lang, "picture.objective.summary", name=view.seats[seat].name, met=met,
                            total=len(goals), points=OBJECTIVE_POINTS[met]), 22, OBJ_W - 2 * MARGIN, max_lines=2)
    scale = ", ".join(str(p) for p in OBJECTIVE_POINTS[1:])
    note = fonts.wrap(tr(lang, "picture.objective.note", scale=scale), 20, OBJ_W - 2 * MARGIN, max_lines=2)
    heights = [max(_goal_height(g, lang) for g in goals[i:i + 2]) for i in range(0, len(goals), 2)]
    top = MARGIN + 40 + 28 * len(summary) + 12
    height = top + sum(heights) + 6 * len(heights) + 10 + 24 * len(note) + MARGIN
    image, draw = canvas(OBJ_W, height, PAGE)
    fonts.draw_text(image, (MARGIN, MARGIN + 18), tr(lang, "picture.objective.title", number=number), 30, INK,
                    anchor="lm", bold=True)
    for j, line in enumerate(summary):
        fonts.draw_text(image, (MARGIN, MARGIN + 54 + 28 * j), line, 22, INK, anchor="lm")
    y = top
    for r, row_h in enumerate(heights):
        for c, goal in enumerate(goals[2 * r:2 * r + 2]):
            x = MARGIN + c * (GOAL_W + GAP)
            draw.rounded_rectangle((x, y, x + GOAL_W, y + row_h), radius=10, fill=PAGE_DARK)
            _goal_cell(image, (x, y), goal, lang)
        y += row_h + 6
    for j, line in enumerate(note):
        fonts.draw_text(image, (MARGIN, y + 20 + 24 * j), line, 20, MUTED, anchor="lm")
    return image


def render_objective(view: GameView, seat: int, lang: Language = DEFAULT) -> bytes:
    """PNG of `seat`'s secret objective with each goal met or not yet on the board as it stands
    (landscape, 820 px wide, its four goals two to a row). ValueError when `view` does not show
    that objective: only its owner's view does, until the game ends. Its words are in `lang`."""
    return png(render_objective_image(view, seat, lang))
