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

MARGIN = 12
GAP = 18
COLUMNS = 4
MIN_W = 440
"""Wide enough for the title, however few cards there are."""


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


def render_hand_image(view: GameView, cards: Sequence[str], words: ActionWords | None = None,
                      lang: Language = DEFAULT) -> Image.Image:
    view = require_view(view, "render_hand")
    words = actions(words, lang)
    cards = _known(cards)
    across = min(COLUMNS, len(cards))
    width = max(MIN_W, 2 * MARGIN + across * CARD_W + (across - 1) * GAP)
    rows = -(-len(cards) // COLUMNS)
    image, draw = canvas(width, MARGIN + 64 + rows * (36 + CARD_H + 12) + MARGIN, PAGE)
    owner = (tr(lang, "picture.hand.owner", name=view.seats[view.viewer].name) if view.viewer is not None
             else tr(lang, "picture.hand.anyone"))
    fonts.draw_text(image, (MARGIN, MARGIN + 18), fonts.fit(owner, 26, width - 2 * MARGIN), 26, INK, anchor="lm",
                    bold=True)
    hint = tr(lang, "picture.hand.hint", cards=counted("card", len(cards), lang), place=words.place)
    fonts.draw_text(image, (MARGIN, MARGIN + 48), fonts.fit(hint, 18, width - 2 * MARGIN), 18, MUTED, anchor="lm")
    top = MARGIN + 64
    for i, card in enumerate(cards):
        row, col = divmod(i, COLUMNS)
        x, y = MARGIN + col * (CARD_W + GAP), top + row * (36 + CARD_H + 12)
        cx = x + CARD_W // 2
        draw.ellipse((cx - 16, y, cx + 16, y + 32), fill=ACTIVE_DARK)
        fonts.draw_text(image, (cx, y + 16), str(i + 1), 20, WHITE, anchor="mm", bold=True)
        paste(image, card_face(card, lang), (x, y + 36))
    return image


def render_hand(view: GameView, cards: Sequence[str], words: ActionWords | None = None,
                lang: Language = DEFAULT) -> bytes:
    """PNG of `cards` (card ids, in hand order) as full faces named in `lang`, four to a row and
    numbered from 1 as placing counts them (in `words`); at most 800 px wide. For the one player
    who may see them."""
    return png(render_hand_image(view, cards, words, lang))


# --------------------------------------------------------------------------- objective

OBJ_W = 640
GOAL_H = 92


def goal_progress(view: GameView, seat: int) -> tuple[int, tuple[GoalResult, ...]]:
    """The seat's objective number and each goal as scoring judges the board now."""
    owner = view.seats[seat]
    if owner.objective is None:
        raise ValueError(f"This view does not show {owner.name}'s secret objective.")
    objective = load_catalog().objectives[owner.objective]
    sheet = score_board(board_cells(owner.board), objective, owner.synergy, view.rules)
    return owner.objective, sheet.goals


def _goal_row(image: Image.Image, xy: tuple[int, int], goal: GoalResult, lang: Language) -> None:
    x, y = xy
    fonts.draw_text(image, (x, y + 24), goal.letter, 28, INK, anchor="lm", bold=True)
    glyph = pattern_glyph(image, (x + 28, y + 4), goal.pattern, symbol_colour(goal.symbol), cell=12)
    paste(image, symbol_icon(goal.symbol, 40), (x + 36 + glyph, y + 4))
    tx = x + 86 + glyph
    name = fonts.fit(goal_name(goal.pattern, goal.symbol, lang), 22, OBJ_W - MARGIN - tx)
    fonts.draw_text(image, (tx, y + 14), name, 22, INK, anchor="lm", bold=True)
    paste(image, icon("check" if goal.completed else "cross", 28), (tx, y + 34))
    if goal.completed:
        detail, colour = tr(lang, "picture.goal.met", cells=", ".join(goal.cells)), ACTIVE_DARK
    else:
        detail, colour = tr(lang, "picture.goal.not_yet"), MUTED
    fonts.draw_text(image, (tx + 36, y + 48), fonts.fit(detail, 20, OBJ_W - MARGIN - tx - 36), 20, colour,
                    anchor="lm", bold=goal.completed)


def render_objective_image(view: GameView, seat: int, lang: Language = DEFAULT) -> Image.Image:
    view = require_view(view, "render_objective")
    seat = require_seat(view, seat)
    number, goals = goal_progress(view, seat)
    image, draw = canvas(OBJ_W, MARGIN + 92 + GOAL_H * len(goals) + 40 + MARGIN, PAGE)
    title = tr(lang, "picture.objective.title", number=number)
    fonts.draw_text(image, (MARGIN, MARGIN + 18), title, 28, INK, anchor="lm", bold=True)
    met = sum(g.completed for g in goals)
    summary = tr(lang, "picture.objective.summary", name=view.seats[seat].name, met=met, total=len(goals),
                 points=OBJECTIVE_POINTS[met])
    fonts.draw_text(image, (MARGIN, MARGIN + 56), fonts.fit(summary, 20, OBJ_W - 2 * MARGIN), 20, INK, anchor="lm")
    y = MARGIN + 92
    for i, goal in enumerate(goals):
        if i % 2 == 0:
            draw.rectangle((MARGIN - 6, y - 6, OBJ_W - MARGIN + 6, y + GOAL_H - 10), fill=PAGE_DARK)
        _goal_row(image, (MARGIN, y), goal, lang)
        y += GOAL_H
    scale = ", ".join(str(p) for p in OBJECTIVE_POINTS[1:])
    note = tr(lang, "picture.objective.note", scale=scale)
    fonts.draw_text(image, (MARGIN, y + 14), fonts.fit(note, 18, OBJ_W - 2 * MARGIN), 18, MUTED, anchor="lm")
    return image


def render_objective(view: GameView, seat: int, lang: Language = DEFAULT) -> bytes:
    """PNG of `seat`'s secret objective with each goal met or not yet on the board as it stands
    (640 px wide). ValueError when `view` does not show that objective: only its owner's view
    does, until the game ends. Its words are in `lang`."""
    return png(render_objective_image(view, seat, lang))
