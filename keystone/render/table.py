"""The table: the Field with costs and synergy, deck and discard, skills, time track, Wild stacks,
held cards and the seats. `render_turn` sets the table beside the mover's board in one picture."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from PIL import Image, ImageDraw

from keystone.cards import Habitat, Season
from keystone.data import load_catalog
from keystone.engine.views import GameView, SkillView
from keystone.engine.words import ActionWords, counted
from keystone.i18n import DEFAULT, Language, tr
from keystone.render import fonts
from keystone.render.board import PAGE_W as BOARD_W
from keystone.render.board import board_panel, check_cells
from keystone.render.cards import card_back, card_face, empty_slot
from keystone.render.common import canvas, legend, pill, png, require_seat, require_view, token_count
from keystone.render.describe import actions, skill_flip_label, skill_label, skill_state, state_name, status_text
from keystone.render.icons import habitat_icon, icon, paste, season_icon
from keystone.render.palette import (
    ACTIVE_DARK,
    ALERT,
    CARD_H,
    CARD_W,
    FAINT,
    HABITAT_COLOUR,
    HABITAT_TINT,
    HIGHLIGHT,
    INK,
    MUTED,
    PAGE,
    PAGE_DARK,
    RGB,
    STONE_DARK,
    WHITE,
)

MARGIN = 12
TABLE_W = BOARD_W
"""800 px, like the board: Discord shows it about 400 px wide on a phone."""
INNER_W = TABLE_W - 2 * MARGIN
COLUMNS = 4
PITCH = CARD_W + (INNER_W - COLUMNS * CARD_W) // (COLUMNS - 1)
ITEM_H = 36 + CARD_H + 40
"""A Field slot: its number, the card, its price."""


def _title(image: Image.Image, xy: tuple[int, int], text: str, hint: str = "", size: int = 24,
           width: int = INNER_W) -> int:
    """A bold title and, after it or on the next lines when it does not fit, a muted hint; returns
    the height used below the baseline `xy`."""
    x, y = xy
    fonts.draw_text(image, (x, y), text, size, INK, anchor="ls", bold=True)
    if not hint:
        return 0
    after = x + fonts.width(text, size, bold=True) + 12
    if fonts.width(hint, 18) <= x + width - after:
        fonts.draw_text(image, (after, y), hint, 18, MUTED, anchor="ls")
        return 0
    lines = fonts.wrap(hint, 18, width, max_lines=2)
    for i, line in enumerate(lines):
        fonts.draw_text(image, (x, y + 24 + 22 * i), line, 18, MUTED, anchor="ls")
    return 22 * len(lines) + 2


# --------------------------------------------------------------------------- header


def draw_header(image: Image.Image, draw: ImageDraw.ImageDraw, y: int, width: int, view: GameView,
                next_mark: bool = False, words: ActionWords | None = None, lang: Language = DEFAULT) -> int:
    """Round, final-round or game-over mark, whose turn it is and what they may do; returns the
    height used."""
    x = MARGIN
    players = max(1, len(view.seats))
    heading = tr(lang, "picture.round", number=view.turn // players + 1)
    fonts.draw_text(image, (x, y + 18), heading, 28, INK, anchor="lm", bold=True)
    px = x + fonts.width(heading, 28, bold=True) + 14
    if view.over:
        px += pill(image, (px, y + 18), tr(lang, "picture.game_over"), INK) + 10
    elif view.final_round:
        px += pill(image, (px, y + 18), tr(lang, "picture.final_round"), ALERT) + 10
    if next_mark and not view.over:
        name = view.seats[view.current].name
        mark = fonts.fit(tr(lang, "picture.next", name=name), 22, x + width - px - 24)
        pill(image, (px, y + 18), mark, ACTIVE_DARK, size=22)
    lines = fonts.wrap(status_text(view, words, lang), 20, width, max_lines=3)
    for i, line in enumerate(lines):
        fonts.draw_text(image, (x, y + 52 + i * 25), line, 20, INK, anchor="lm")
    return 40 + 25 * len(lines) + 8


# --------------------------------------------------------------------------- field


def _synergy_on_card(image: Image.Image, draw: ImageDraw.ImageDraw, x: int, y: int, count: int) -> None:
    """Synergy tokens lying on a Field card: a little stack of coins with the count."""
    top = y + round(CARD_H * 0.48)
    for k in range(min(count, 3)):
        paste(image, icon("synergy", 40), (x + 6 + k * 5, top + 4 - k * 5))
    label = f"+{count}"
    w = fonts.width(label, 22, bold=True) + 14
    bx = x + 52 + min(count, 3) * 5
    draw.rounded_rectangle((bx, top + 6, bx + w, top + 36), radius=14, fill=WHITE, outline=INK, width=2)
    fonts.draw_text(image, (bx + w / 2, top + 21), label, 22, INK, anchor="mm", bold=True)


def _bubble(image: Image.Image, draw: ImageDraw.ImageDraw, cx: int, y: int, text: str, fill: RGB = INK) -> None:
    draw.ellipse((cx - 16, y, cx + 16, y + 32), fill=fill)
    fonts.draw_text(image, (cx, y + 16), text, 20, WHITE, anchor="mm", bold=True)


def _price(image: Image.Image, cx: int, cy: int, cost: int, lang: Language) -> None:
    if cost == 0:
        fonts.draw_text(image, (cx, cy), tr(lang, "picture.free"), 22, ACTIVE_DARK, anchor="mm", bold=True)
        return
    text = tr(lang, "picture.cost", cost=cost)
    tw = fonts.width(text, 22, bold=True)
    left = cx - (tw + 32) // 2
    fonts.draw_text(image, (left, cy), text, 22, INK, anchor="lm", bold=True)
    paste(image, icon("synergy", 26), (left + tw + 6, cy - 13))


def _grid_origin(index: int, y: int) -> tuple[int, int]:
    row, col = divmod(index, COLUMNS)
    return MARGIN + col * PITCH, y + row * ITEM_H


def draw_field(image: Image.Image, draw: ImageDraw.ImageDraw, y: int, view: GameView, words: ActionWords,
               lang: Language = DEFAULT) -> int:
    """The Field, four to a row, with slot numbers, synergy on the cards and the price of each, then
    the deck and the discard pile; returns the height used."""
    start = y
    hint = tr(lang, "picture.field.hint", take=words.take)
    y += 36 + _title(image, (MARGIN, y + 26), tr(lang, "picture.field"), hint)
    for slot, entry in enumerate(view.field):
        x, top = _grid_origin(slot, y)
        cx = x + CARD_W // 2
        _bubble(image, draw, cx, top, str(slot + 1))
        if entry is None:
            paste(image, empty_slot(label=tr(lang, "picture.empty")), (x, top + 36))
            continue
        paste(image, card_face(entry.card, lang), (x, top + 36))
        if entry.synergy:
            _synergy_on_card(image, draw, x, top + 36, entry.synergy)
        _price(image, cx, top + 36 + CARD_H + 20, view.field_costs[slot], lang)
    count = len(view.field)
    _draw_deck(image, draw, _grid_origin(count, y), view, lang)
    _draw_discard(image, draw, _grid_origin(count + 1, y), view, lang)
    rows = -(-(count + 2) // COLUMNS)
    return y - start + rows * ITEM_H


def _draw_deck(image: Image.Image, draw: ImageDraw.ImageDraw, xy: tuple[int, int], view: GameView,
               lang: Language) -> None:
    """The deck face down, its count on it."""
    x, y = xy
    fonts.draw_text(image, (x + CARD_W // 2, y + 16), tr(lang, "picture.deck"), 22, INK, anchor="mm", bold=True)
    paste(image, card_back(), (x, y + 36))
    label = str(view.deck_count)
    w = fonts.width(label, 30, bold=True) + 24
    cx, cy = x + CARD_W // 2, y + 36 + CARD_H // 2
    draw.rounded_rectangle((cx - w // 2, cy - 24, cx + w // 2, cy + 24), radius=12, fill=WHITE, outline=INK, width=2)
    fonts.draw_text(image, (cx, cy), label, 30, INK, anchor="mm", bold=True)
    left = tr(lang, "picture.cards_left", cards=counted("card", view.deck_count, lang))
    fonts.draw_text(image, (cx, y + 36 + CARD_H + 20), left, 20, MUTED, anchor="mm")


def _draw_discard(image: Image.Image, draw: ImageDraw.ImageDraw, xy: tuple[int, int], view: GameView,
                  lang: Language) -> None:
    """The discard pile face up: its size and its top card."""
    x, y = xy
    fonts.draw_text(image, (x + CARD_W // 2, y + 16), tr(lang, "picture.discard"), 22, INK, anchor="mm", bold=True)
    if view.discard:
        paste(image, card_face(view.discard[-1], lang), (x, y + 36))
    else:
        paste(image, empty_slot(label=tr(lang, "picture.empty")), (x, y + 36))
    fonts.draw_text(image, (x + CARD_W // 2, y + 36 + CARD_H + 20), counted("card", len(view.discard), lang), 20, MUTED,
                    anchor="mm")


# --------------------------------------------------------------------------- held cards


def shows_hand(view: GameView) -> bool:
    return view.held_count > 0 and not view.over


def draw_hand(image: Image.Image, draw: ImageDraw.ImageDraw, y: int, view: GameView, words: ActionWords,
              lang: Language = DEFAULT) -> int:
    """Cards in the acting seat's hand during a skill: faces when visible, backs when hidden."""
    who = view.seats[view.current].name
    skill = view.pending.skill if view.pending is not None else None
    where = tr(lang, "picture.skill.where", skill=skill) if skill is not None else ""
    if view.held is None:
        hint = tr(lang, "picture.hand.hidden", cards=counted("card", view.held_count, lang), who=who)
    else:
        kind = view.pending.kind if view.pending is not None else ""
        key = kind if kind in ("place_held", "pile_held") else "numbered"
        hint = tr(lang, f"picture.hand.{key}", place=words.place, pile=words.pile)
    start = y
    y += 36 + _title(image, (MARGIN, y + 26), tr(lang, "picture.hand.title", who=who, where=where), hint)
    for i in range(view.held_count):
        x, cy = _grid_origin(i, y)
        if view.held is None:
            paste(image, card_back(), (x, cy + 36))
            continue
        _bubble(image, draw, x + CARD_W // 2, cy, str(i + 1), ACTIVE_DARK)
        paste(image, card_face(view.held[i], lang), (x, cy + 36))
    rows = -(-view.held_count // COLUMNS)
    return y - start + rows * (36 + CARD_H + 14)


# --------------------------------------------------------------------------- skills


def skill_block(image: Image.Image, draw: ImageDraw.ImageDraw, xy: tuple[int, int], width: int,
                skill: SkillView, text_lines: int = 3, lang: Language = DEFAULT) -> int:
    """One skill token and what it does now, with the other side's preview; returns the height."""
    x, y = xy
    state = skill_state(skill)
    token = icon("token:exhausted" if skill.exhausted or skill.disabled else "token:active", 56)
    paste(image, token, (x, y))
    fonts.draw_text(image, (x + 28, y + 26), str(skill.number), 28, WHITE, anchor="mm", bold=True)
    tx = x + 66
    room = width - 66
    colour = {"active": ACTIVE_DARK, "exhausted": STONE_DARK, "disabled": ALERT}[state]
    fonts.draw_text(image, (tx, y + 9), state_name(state, lang).upper(), 18, colour, anchor="lm", bold=True)
    lines = fonts.wrap(skill_label(skill, lang), 20, room, max_lines=text_lines)
    for i, line in enumerate(lines):
        fonts.draw_text(image, (tx, y + 34 + i * 24), line, 20, INK if state != "disabled" else FAINT, anchor="lm")
    ly = y + 34 + len(lines) * 24
    flip = fonts.wrap(tr(lang, "picture.skill.flip", label=skill_flip_label(skill, lang)), 18, room, max_lines=2)
    for i, line in enumerate(flip):
        fonts.draw_text(image, (tx, ly + i * 22), line, 18, MUTED, anchor="lm")
    return max(60, 34 + len(lines) * 24 + len(flip) * 22)


def draw_skills(image: Image.Image, draw: ImageDraw.ImageDraw, y: int, view: GameView, words: ActionWords,
                lang: Language = DEFAULT) -> int:
    """Every skill token, two to a row; returns the height used."""
    start = y
    _title(image, (MARGIN, y + 26), tr(lang, "picture.skills"))
    y += 40
    column = INNER_W // 2
    row: list[int] = []
    for i, skill in enumerate(view.skills):
        row.append(skill_block(image, draw, (MARGIN + (i % 2) * column, y), column - 12, skill, lang=lang))
        if i % 2 == 1 or i == len(view.skills) - 1:
            y += max(row) + 14
            row = []
    note = tr(lang, "picture.skill.note", skill=words.skill, resolve_all=words.resolve_all)
    for line in fonts.wrap(note, 18, INNER_W, max_lines=3):
        fonts.draw_text(image, (MARGIN, y + 10), line, 18, MUTED, anchor="lm")
        y += 22
    return y - start + 10


# --------------------------------------------------------------------------- time, wilds, seats


@functools.cache
def _wild_stack(habitat: Habitat, count: int, season: Season | None) -> Image.Image:
    """A small Wild stack: a card per remaining Wild (up to two drawn), top card's season showing."""
    img = Image.new("RGBA", (58, 76), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    if count == 0:
        d.rounded_rectangle((2, 2, 50, 70), radius=7, outline=FAINT, width=2)
        paste(img, habitat_icon(habitat, 28), (12, 22))
        return img
    colour = HABITAT_COLOUR[habitat]
    for k in range(min(count, 2) - 1, -1, -1):
        box = (2 + 5 * k, 2 + 3 * (1 - k), 50 + 5 * k, 70 + 3 * (1 - k) - 3)
        d.rounded_rectangle(box, radius=7, fill=HABITAT_TINT[habitat], outline=colour, width=3)
    paste(img, habitat_icon(habitat, 28), (12, 8))
    if season is not None:
        paste(img, season_icon(season, 24), (14, 40))
    return img


def draw_time(image: Image.Image, draw: ImageDraw.ImageDraw, xy: tuple[int, int], width: int,
              view: GameView, lang: Language = DEFAULT) -> int:
    """The time track from its start down to the end space, the marker on the current space."""
    x, y = xy
    left = max(0, view.time)
    hint = tr(lang, "picture.time.left", left=left) if left else tr(lang, "picture.time.at_end")
    _title(image, (x, y + 26), tr(lang, "picture.time"), hint, width=width)
    y += 38
    spaces = list(range(max(view.time_start, view.time), -1, -1))
    box = min(60, (width - 8 * (len(spaces) - 1)) // max(1, len(spaces)))
    for i, value in enumerate(spaces):
        bx = x + i * (box + 8)
        current = value == view.time
        passed = value > view.time
        fill = HIGHLIGHT if current else (PAGE_DARK if passed else WHITE)
        draw.rounded_rectangle((bx, y, bx + box, y + box), radius=8, fill=fill,
                               outline=INK if current else FAINT, width=3 if current else 1)
        label = tr(lang, "picture.time.end") if value == 0 else str(value)
        size = 18 if value == 0 else 24
        fonts.draw_text(image, (bx + box / 2, y + box / 2), label, size, FAINT if passed else INK, anchor="mm",
                        bold=current)
        if current:
            paste(image, icon("hourglass", 24), (bx + box // 2 - 12, y + box + 4))
    return 38 + box + 32


def draw_wilds(image: Image.Image, draw: ImageDraw.ImageDraw, xy: tuple[int, int], width: int,
               view: GameView, lang: Language = DEFAULT) -> int:
    """The four Wild stacks: habitat, cards left, season of the top card."""
    x, y = xy
    if not view.wilds_allowed:
        _title(image, (x, y + 26), tr(lang, "picture.wilds"), tr(lang, "picture.wilds.none"), width=width)
        return 44
    _title(image, (x, y + 26), tr(lang, "picture.wilds"), tr(lang, "picture.wilds.cost", cost=view.wild_cost),
           width=width)
    y += 44
    column = width // 4
    catalog = load_catalog()
    for i, (habitat, stack) in enumerate(view.wild_stacks):
        sx = x + i * column
        season = catalog.card(stack[-1]).season if stack else None
        paste(image, _wild_stack(habitat, len(stack), season), (sx, y))
        fonts.draw_text(image, (sx + 64, y + 38), f"x{len(stack)}", 22, INK if stack else FAINT, anchor="lm",
                        bold=True)
    return 44 + 84


def draw_seats(image: Image.Image, draw: ImageDraw.ImageDraw, xy: tuple[int, int], width: int,
               view: GameView, lang: Language = DEFAULT) -> int:
    """Every seat: name, synergy and cells filled, the seat to act marked."""
    x, y = xy
    _title(image, (x, y + 26), tr(lang, "picture.players"), width=width)
    y += 40
    for seat in view.seats:
        acting = seat.index == view.current and not view.over
        name = fonts.fit(seat.name, 22, width - 330)
        fonts.draw_text(image, (x, y + 16), name, 22, INK, anchor="lm", bold=acting)
        if acting:
            pill(image, (x + fonts.width(name, 22, True) + 10, y + 16), tr(lang, "picture.to_act"), ACTIVE_DARK)
        token_count(image, draw, (x + width - 250, y + 16), "synergy", seat.synergy, size=26, text_size=22)
        filled = sum(p is not None for p in seat.board)
        fonts.draw_text(image, (x + width, y + 16), tr(lang, "picture.cells", filled=filled), 20, MUTED, anchor="rm")
        y += 36
    return 40 + 36 * len(view.seats)


# --------------------------------------------------------------------------- pictures


ROOM = 3200
"""Canvas height to draw on before cropping to what was used: taller than any table can get."""
TURN_ROOM = 1800
"""The same for the turn picture above the board (a fresh canvas costs time in proportion to it)."""


def _rule(draw: ImageDraw.ImageDraw, y: int) -> None:
    draw.line((MARGIN, y, TABLE_W - MARGIN, y), fill=PAGE_DARK, width=2)


def render_table_image(view: GameView, words: ActionWords | None = None, lang: Language = DEFAULT) -> Image.Image:
    view = require_view(view, "render_table")
    words = actions(words, lang)
    image, draw = canvas(TABLE_W, ROOM, PAGE)
    y = MARGIN + draw_header(image, draw, MARGIN, INNER_W, view, words=words, lang=lang)
    y += draw_field(image, draw, y, view, words, lang)
    if shows_hand(view):
        y += draw_hand(image, draw, y, view, words, lang)
    _rule(draw, y)
    y += draw_skills(image, draw, y + 4, view, words, lang) + 4
    y += draw_time(image, draw, (MARGIN, y), INNER_W, view, lang)
    y += draw_wilds(image, draw, (MARGIN, y), INNER_W, view, lang) + 8
    y += draw_seats(image, draw, (MARGIN, y), INNER_W, view, lang) + 16
    _rule(draw, y)
    y += 14 + legend(image, draw, (MARGIN, y + 14), INNER_W, lang)
    return image.crop((0, 0, TABLE_W, y + MARGIN))


def render_table(view: GameView, words: ActionWords | None = None, lang: Language = DEFAULT) -> bytes:
    """PNG of everything on the table that `view` may see (800 px wide): the Field, deck and
    discard pile, any hand, skills, time, Wild stacks, players and the legend, in `lang`; hints
    name actions in `words` (Discord's by default)."""
    return png(render_table_image(view, words, lang))


def render_turn_image(view: GameView, mover: int, marked: Sequence[int] = (),
                      words: ActionWords | None = None, lang: Language = DEFAULT) -> Image.Image:
    view = require_view(view, "render_turn")
    mover = require_seat(view, mover)
    words = actions(words, lang)
    board = board_panel(view, view.seats[mover], with_legend=False, marked=check_cells(marked),
                        with_objective=False, lang=lang)
    image, draw = canvas(TABLE_W, TURN_ROOM + board.height, PAGE)
    y = MARGIN + draw_header(image, draw, MARGIN, INNER_W, view, next_mark=True, words=words, lang=lang)
    y += draw_field(image, draw, y, view, words, lang)
    if shows_hand(view):
        y += draw_hand(image, draw, y, view, words, lang)
    y += draw_time(image, draw, (MARGIN, y), INNER_W, view, lang)
    y += draw_seats(image, draw, (MARGIN, y), INNER_W, view, lang) + 12
    _rule(draw, y)
    image.paste(board, (0, y + 4))
    return image.crop((0, 0, TABLE_W, y + 4 + board.height))


def render_turn(view: GameView, mover: int, marked: Sequence[int] = (), words: ActionWords | None = None,
                lang: Language = DEFAULT) -> bytes:
    """PNG posted once per turn (800 px wide, portrait): whose turn is next, the Field with its
    prices, the time track, the players, and `mover`'s board with the cells in `marked` (board
    indexes 0 = A1 to 15 = D4, the cards just placed) framed."""
    return png(render_turn_image(view, mover, marked, words, lang))


def changed_cells(before: GameView, after: GameView, seat: int) -> tuple[int, ...]:
    """The cells of `seat`'s board that hold a different card in `after` than in `before`: the
    cards placed (or moved there) between two views, for `render_turn`'s `marked`."""
    old = require_view(before, "changed_cells").seats[require_seat(before, seat)].board
    new = require_view(after, "changed_cells").seats[require_seat(after, seat)].board
    return tuple(i for i, (a, b) in enumerate(zip(old, new, strict=True))
                 if b is not None and (a is None or a.card != b.card))
