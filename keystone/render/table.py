"""The table: the Field with costs and synergy, deck and discard, skills, time track, Wild stacks,
held cards and the seats. `render_turn` sets the table beside the mover's board in one picture."""

from __future__ import annotations

import functools

from PIL import Image, ImageDraw

from keystone.cards import Habitat, Season
from keystone.data import load_catalog
from keystone.engine.views import GameView, SkillView
from keystone.engine.words import DISCORD_ACTIONS, ActionWords, plural
from keystone.render import fonts
from keystone.render.board import PAGE_W as BOARD_W
from keystone.render.board import board_panel
from keystone.render.cards import card_back, card_face, empty_slot
from keystone.render.common import canvas, legend, pill, png, require_seat, require_view, token_count
from keystone.render.describe import skill_flip_label, skill_label, skill_state, status_text
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
    STONE_DARK,
    WHITE,
)

MARGIN = 20
FIELD_GAP = 12
SIDE_W = 150
TABLE_W = MARGIN + 6 * CARD_W + 5 * FIELD_GAP + 24 + SIDE_W + MARGIN
INNER_W = TABLE_W - 2 * MARGIN


def _title(image: Image.Image, xy: tuple[int, int], text: str, hint: str = "", size: int = 20) -> None:
    x, y = xy
    fonts.draw_text(image, (x, y), text, size, INK, anchor="ls", bold=True)
    if hint:
        fonts.draw_text(image, (x + fonts.width(text, size, bold=True) + 12, y), hint, 15, MUTED, anchor="ls")


# --------------------------------------------------------------------------- header


def draw_header(image: Image.Image, draw: ImageDraw.ImageDraw, y: int, width: int, view: GameView,
                words: ActionWords = DISCORD_ACTIONS) -> int:
    """Round, final-round or game-over mark, and who must do what; returns the height used."""
    x = MARGIN
    players = max(1, len(view.seats))
    heading = f"Round {view.turn // players + 1}"
    fonts.draw_text(image, (x, y + 16), heading, 24, INK, anchor="lm", bold=True)
    px = x + fonts.width(heading, 24, bold=True) + 14
    if view.over:
        pill(image, (px, y + 16), "game over", INK)
    elif view.final_round:
        pill(image, (px, y + 16), "final round", ALERT)
    lines = fonts.wrap(status_text(view, words), 17, width, max_lines=2)
    for i, line in enumerate(lines):
        fonts.draw_text(image, (x, y + 44 + i * 22), line, 17, INK, anchor="lm")
    return 34 + 22 * len(lines) + 8


# --------------------------------------------------------------------------- field


@functools.cache
def _field_pitch(slots: int) -> int:
    return min(CARD_W + FIELD_GAP, (6 * CARD_W + 5 * FIELD_GAP + FIELD_GAP) // max(1, slots))


def _synergy_on_card(image: Image.Image, draw: ImageDraw.ImageDraw, x: int, y: int, count: int) -> None:
    """Synergy tokens lying on a Field card: a little stack of coins with the count."""
    for k in range(min(count, 3)):
        paste(image, icon("synergy", 34), (x + 6 + k * 5, y + 92 - k * 5))
    label = f"+{count}"
    w = fonts.width(label, 17, bold=True) + 12
    bx = x + 46 + min(count, 3) * 5
    draw.rounded_rectangle((bx, y + 96, bx + w, y + 120), radius=12, fill=WHITE, outline=INK, width=1)
    fonts.draw_text(image, (bx + w / 2, y + 108), label, 17, INK, anchor="mm", bold=True)


def draw_field(image: Image.Image, draw: ImageDraw.ImageDraw, y: int, view: GameView,
               words: ActionWords = DISCORD_ACTIONS) -> int:
    """The Field row with slot numbers, synergy on the cards and the price of each; returns height."""
    _title(image, (MARGIN, y + 22), "The Field", f"{words.take}: pay 1 synergy onto each card to its right")
    y += 34
    pitch = _field_pitch(len(view.field))
    for slot, entry in enumerate(view.field):
        x = MARGIN + slot * pitch
        cx = x + CARD_W // 2
        draw.ellipse((cx - 15, y, cx + 15, y + 30), fill=INK)
        fonts.draw_text(image, (cx, y + 15), str(slot + 1), 18, WHITE, anchor="mm", bold=True)
        top = y + 36
        if entry is None:
            paste(image, empty_slot(), (x, top))
            continue
        paste(image, card_face(entry.card), (x, top))
        if entry.synergy:
            _synergy_on_card(image, draw, x, top, entry.synergy)
        cost = view.field_costs[slot]
        cy = top + CARD_H + 20
        if cost == 0:
            fonts.draw_text(image, (cx, cy), "Free", 18, ACTIVE_DARK, anchor="mm", bold=True)
        else:
            text = f"Cost {cost}"
            tw = fonts.width(text, 18, bold=True)
            left = cx - (tw + 28) // 2
            fonts.draw_text(image, (left, cy), text, 18, INK, anchor="lm", bold=True)
            paste(image, icon("synergy", 22), (left + tw + 6, cy - 11))
    _draw_piles(image, draw, TABLE_W - MARGIN - SIDE_W, y, view)
    return 34 + 36 + CARD_H + 40


def _draw_piles(image: Image.Image, draw: ImageDraw.ImageDraw, x: int, y: int, view: GameView) -> None:
    """Deck (face down, a count) and discard pile (face up: its size and top card)."""
    fonts.draw_text(image, (x, y + 12), "Deck", 17, INK, anchor="lm", bold=True)
    back = card_back(84, 106)
    paste(image, back, (x, y + 28))
    fonts.draw_text(image, (x + 94, y + 62), str(view.deck_count), 26, INK, anchor="lm", bold=True)
    fonts.draw_text(image, (x + 94, y + 90), "cards", 15, MUTED, anchor="lm")
    dy = y + 152
    fonts.draw_text(image, (x, dy), f"Discard: {len(view.discard)}", 17, INK, anchor="lm", bold=True)
    if view.discard:
        top = load_catalog().card(view.discard[-1]).name
        for i, line in enumerate(fonts.wrap(f"Top: {top}", 15, SIDE_W, max_lines=3)):
            fonts.draw_text(image, (x, dy + 24 + i * 19), line, 15, MUTED, anchor="lm")


# --------------------------------------------------------------------------- held cards


def shows_hand(view: GameView) -> bool:
    return view.held_count > 0 and not view.over


def draw_hand(image: Image.Image, draw: ImageDraw.ImageDraw, y: int, view: GameView,
              words: ActionWords = DISCORD_ACTIONS) -> int:
    """Cards in the acting seat's hand during a skill: faces when visible, backs when hidden."""
    who = view.seats[view.current].name
    skill = view.pending.skill if view.pending is not None else None
    where = f" (skill {skill})" if skill is not None else ""
    if view.held is None:
        hint = f"{plural(view.held_count, 'card')}, seen only by {who}"
        _title(image, (MARGIN, y + 22), f"{who}'s hand{where}", hint)
    else:
        kind = view.pending.kind if view.pending is not None else ""
        hint = {
            "place_held": f"{words.place} names each card by its number",
            "pile_held": f"{words.pile} names each card by its number",
        }.get(kind, f"numbered as in {words.place} and {words.pile}")
        _title(image, (MARGIN, y + 22), f"{who}'s hand{where}", hint)
    y += 34
    pitch = CARD_W + FIELD_GAP
    for i in range(view.held_count):
        x = MARGIN + i * pitch
        cx = x + CARD_W // 2
        if view.held is None:
            paste(image, card_back(), (x, y + 36))
            continue
        draw.ellipse((cx - 15, y, cx + 15, y + 30), fill=ACTIVE_DARK)
        fonts.draw_text(image, (cx, y + 15), str(i + 1), 18, WHITE, anchor="mm", bold=True)
        paste(image, card_face(view.held[i]), (x, y + 36))
    return 34 + 36 + CARD_H + 14


# --------------------------------------------------------------------------- skills


def skill_block(image: Image.Image, draw: ImageDraw.ImageDraw, xy: tuple[int, int], width: int,
                skill: SkillView, text_lines: int = 3) -> int:
    """One skill token and what it does now, with the other side's preview; returns the height."""
    x, y = xy
    state = skill_state(skill)
    token = icon("token:exhausted" if skill.exhausted or skill.disabled else "token:active", 56)
    paste(image, token, (x, y))
    fonts.draw_text(image, (x + 28, y + 26), str(skill.number), 26, WHITE, anchor="mm", bold=True)
    tx = x + 66
    room = width - 66
    colour = {"active": ACTIVE_DARK, "exhausted": STONE_DARK, "disabled": ALERT}[state]
    fonts.draw_text(image, (tx, y + 8), state.upper(), 14, colour, anchor="lm", bold=True)
    lines = fonts.wrap(skill_label(skill), 16, room, max_lines=text_lines)
    for i, line in enumerate(lines):
        fonts.draw_text(image, (tx, y + 30 + i * 20), line, 16, INK if state != "disabled" else FAINT, anchor="lm")
    ly = y + 30 + len(lines) * 20
    flip = fonts.wrap(f"flip side: {skill_flip_label(skill)}", 14, room, max_lines=2)
    for i, line in enumerate(flip):
        fonts.draw_text(image, (tx, ly + i * 18), line, 14, MUTED, anchor="lm")
    return max(60, 30 + len(lines) * 20 + len(flip) * 18)


def _skill_note(words: ActionWords) -> str:
    return (f"{words.skill} uses an active token; {words.resolve_all} resolves every exhausted token, "
            "then the time marker moves on.")


def draw_skills_row(image: Image.Image, draw: ImageDraw.ImageDraw, y: int, view: GameView,
                    words: ActionWords = DISCORD_ACTIONS) -> int:
    _title(image, (MARGIN, y + 22), "Skills", "")
    y += 36
    count = max(1, len(view.skills))
    column = (INNER_W + 12) // count
    tallest = 0
    for i, skill in enumerate(view.skills):
        tallest = max(tallest, skill_block(image, draw, (MARGIN + i * column, y), column - 12, skill))
    fonts.draw_text(image, (MARGIN, y + tallest + 16), _skill_note(words), 15, MUTED, anchor="lm")
    return 36 + tallest + 30


def draw_skills_column(image: Image.Image, draw: ImageDraw.ImageDraw, xy: tuple[int, int], width: int,
                       view: GameView, words: ActionWords = DISCORD_ACTIONS) -> int:
    x, y = xy
    _title(image, (x, y + 22), "Skills")
    top = y
    y += 36
    for skill in view.skills:
        y += skill_block(image, draw, (x, y), width, skill, text_lines=2) + 12
    for i, line in enumerate(fonts.wrap(_skill_note(words), 15, width, max_lines=3)):
        fonts.draw_text(image, (x, y + 8 + i * 19), line, 15, MUTED, anchor="lm")
    return y - top + 8 + 3 * 19


# --------------------------------------------------------------------------- time, wilds, seats


@functools.cache
def _wild_stack(habitat: Habitat, count: int, season: Season | None) -> Image.Image:
    """A small Wild stack: a card per remaining Wild (up to two drawn), top card's season showing."""
    img = Image.new("RGBA", (48, 62), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    if count == 0:
        d.rounded_rectangle((2, 2, 42, 58), radius=6, outline=FAINT, width=2)
        paste(img, habitat_icon(habitat, 22), (11, 19))
        return img
    colour = HABITAT_COLOUR[habitat]
    for k in range(min(count, 2) - 1, -1, -1):
        box = (2 + 4 * k, 2 + 2 * (1 - k), 42 + 4 * k, 58 + 2 * (1 - k) - 2)
        d.rounded_rectangle(box, radius=6, fill=HABITAT_TINT[habitat], outline=colour, width=3)
    paste(img, habitat_icon(habitat, 24), (10, 7))
    if season is not None:
        paste(img, season_icon(season, 20), (12, 34))
    return img


def draw_time(image: Image.Image, draw: ImageDraw.ImageDraw, xy: tuple[int, int], width: int,
              view: GameView) -> int:
    """The time track from its start down to the end space, the marker on the current space."""
    x, y = xy
    left = max(0, view.time)
    _title(image, (x, y + 22), "Time", f"{left} left" if left else "at the end")
    y += 34
    spaces = list(range(max(view.time_start, view.time), -1, -1))
    box = min(44, (width - 6 * (len(spaces) - 1)) // max(1, len(spaces)))
    for i, value in enumerate(spaces):
        bx = x + i * (box + 6)
        current = value == view.time
        passed = value > view.time
        fill = HIGHLIGHT if current else (PAGE_DARK if passed else WHITE)
        draw.rounded_rectangle((bx, y, bx + box, y + box), radius=8, fill=fill,
                               outline=INK if current else FAINT, width=3 if current else 1)
        label = "end" if value == 0 else str(value)
        size = 15 if value == 0 else 20
        fonts.draw_text(image, (bx + box / 2, y + box / 2), label, size, FAINT if passed else INK, anchor="mm",
                        bold=current)
        if current:
            paste(image, icon("hourglass", 22), (bx + box // 2 - 11, y + box + 4))
    return 34 + box + 30


def draw_wilds(image: Image.Image, draw: ImageDraw.ImageDraw, xy: tuple[int, int], width: int,
               view: GameView) -> int:
    """The four Wild stacks: habitat, cards left, season of the top card."""
    x, y = xy
    if not view.wilds_allowed:
        _title(image, (x, y + 22), "Wild cards", "not in this game")
        return 40
    _title(image, (x, y + 22), "Wild cards", f"{view.wild_cost} synergy, once a turn")
    y += 40
    column = width // 4
    catalog = load_catalog()
    for i, (habitat, stack) in enumerate(view.wild_stacks):
        sx = x + i * column
        season = catalog.card(stack[-1]).season if stack else None
        paste(image, _wild_stack(habitat, len(stack), season), (sx, y))
        fonts.draw_text(image, (sx + 52, y + 30), f"x{len(stack)}", 18, INK if stack else FAINT, anchor="lm",
                        bold=True)
    return 40 + 64


def draw_seats(image: Image.Image, draw: ImageDraw.ImageDraw, xy: tuple[int, int], width: int,
               view: GameView) -> int:
    """Every seat: name, synergy and cells filled, the seat to act marked."""
    x, y = xy
    _title(image, (x, y + 22), "Players")
    y += 34
    for seat in view.seats:
        acting = seat.index == view.current and not view.over
        name = fonts.fit(seat.name, 17, width - 190)
        fonts.draw_text(image, (x, y + 14), name, 17, INK, anchor="lm", bold=acting)
        if acting:
            pill(image, (x + fonts.width(name, 17, True) + 8, y + 14), "to act", ACTIVE_DARK, size=14)
        token_count(image, draw, (x + width - 170, y + 14), "synergy", seat.synergy, size=22, text_size=17)
        filled = sum(p is not None for p in seat.board)
        fonts.draw_text(image, (x + width, y + 14), f"{filled}/16 cells", 15, MUTED, anchor="rm")
        y += 30
    return 34 + 30 * len(view.seats)


# --------------------------------------------------------------------------- pictures


ROOM = 2400
"""Canvas height to draw on before cropping to what was used: taller than any table can get."""


def render_table_image(view: GameView, words: ActionWords = DISCORD_ACTIONS) -> Image.Image:
    view = require_view(view, "render_table")
    image, draw = canvas(TABLE_W, ROOM, PAGE)
    y = MARGIN + draw_header(image, draw, MARGIN, INNER_W, view, words)
    y += draw_field(image, draw, y, view, words)
    if shows_hand(view):
        y += draw_hand(image, draw, y, view, words)
    y += draw_skills_row(image, draw, y, view, words) + 8
    third = INNER_W // 3
    heights = [
        draw_time(image, draw, (MARGIN, y), third - 30, view),
        draw_wilds(image, draw, (MARGIN + third, y), third - 20, view),
        draw_seats(image, draw, (MARGIN + 2 * third, y), third, view),
    ]
    return image.crop((0, 0, TABLE_W, y + max(heights) + MARGIN))


def render_table(view: GameView, words: ActionWords = DISCORD_ACTIONS) -> bytes:
    """PNG of everything on the table that `view` may see; hints name actions in `words`."""
    return png(render_table_image(view, words))


def render_turn_image(view: GameView, seat: int, words: ActionWords = DISCORD_ACTIONS) -> Image.Image:
    view = require_view(view, "render_turn")
    seat = require_seat(view, seat)
    board = board_panel(view, view.seats[seat], with_legend=False)
    image, draw = canvas(TABLE_W, ROOM + board.height, PAGE)
    y = MARGIN + draw_header(image, draw, MARGIN, INNER_W, view, words)
    y += draw_field(image, draw, y, view, words)
    if shows_hand(view):
        y += draw_hand(image, draw, y, view, words)
    draw.line((MARGIN, y + 2, TABLE_W - MARGIN, y + 2), fill=PAGE_DARK, width=2)
    image.paste(board, (0, y + 4))
    rx = BOARD_W + 8
    rw = TABLE_W - MARGIN - rx
    ry = y + 12
    ry += draw_skills_column(image, draw, (rx, ry), rw, view, words) + 8
    ry += draw_time(image, draw, (rx, ry), rw, view) + 6
    ry += draw_wilds(image, draw, (rx, ry), rw, view) + 6
    ry += draw_seats(image, draw, (rx, ry), rw, view) + 18
    ry += legend(image, draw, (rx, ry), rw + 20)
    return image.crop((0, 0, TABLE_W, max(y + 4 + board.height, ry + MARGIN)))


def render_turn(view: GameView, seat: int, words: ActionWords = DISCORD_ACTIONS) -> bytes:
    """PNG of the table and one seat's board together: the one picture posted after each turn."""
    return png(render_turn_image(view, seat, words))
