"""The table picture (PIC_W x PIC_H, landscape, for Discord's inline box).

`render_table`: the Field with the piles, the time track and the Wild stacks on the left; the players,
any held cards and the skills on the right. What a player needs at a glance is drawn large; the full
detail (card names) reads once clicked open.
"""

from __future__ import annotations

import functools

from PIL import Image, ImageDraw

from keystone.cards import Habitat, Season
from keystone.data import load_catalog
from keystone.engine.views import GameView, SkillView
from keystone.engine.words import ActionWords, counted
from keystone.i18n import DEFAULT, Language, tr
from keystone.render import fonts
from keystone.render.common import canvas, png, require_view
from keystone.render.describe import actions, skill_flip_label, skill_label, skill_state, state_name, status_text
from keystone.render.icons import habitat_icon, icon, paste, season_icon
from keystone.render.palette import (
    ACTIVE_DARK,
    ALERT,
    FAINT,
    HABITAT_COLOUR,
    HABITAT_TINT,
    INK,
    MUTED,
    PAGE,
    STONE_DARK,
    WHITE,
)
from keystone.render.tabletop import PRICE_H, bubble, field_grid, players_list, round_line, time_track
from keystone.render.tiles import (
    ART_H,
    MARGIN,
    NAME_LINE,
    PIC_H,
    PIC_W,
    TILE_H,
    TILE_W,
    back_tile,
    blank_tile,
    card_tile,
    count_badge,
)

TABLE_LEFT_W = 624
WILD_PITCH, WILDS_H = 104, 76
"""The table picture's left part: three Field columns and the piles."""


# --------------------------------------------------------------------------- the piles and the Wilds


def _pile(image: Image.Image, draw: ImageDraw.ImageDraw, xy: tuple[int, int], width: int, title: str,
          tile: Image.Image, count: int, badge: bool) -> None:
    """A pile as a tile with its name and size under it (the count on it, too, for the deck)."""
    x, y = xy
    paste(image, tile, (x, y))
    if badge:
        count_badge(image, draw, (x + TILE_W // 2, y + TILE_H // 2), str(count))
    label = fonts.fit(f"{title} {count}", 22, width)
    fonts.draw_text(image, (x, y + TILE_H + PRICE_H // 2 + 2), label, 22, INK, anchor="lm", bold=True)


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


def _title(image: Image.Image, xy: tuple[int, int], text: str, hint: str, width: int) -> int:
    """A bold title with a muted hint after it, or under it when it does not fit; returns the height
    used from the top `xy`."""
    x, y = xy
    fonts.draw_text(image, (x, y + 14), text, 24, INK, anchor="lm", bold=True)
    if not hint:
        return 30
    after = x + fonts.width(text, 24, bold=True) + 12
    if fonts.width(hint, 18) <= x + width - after:
        fonts.draw_text(image, (after, y + 15), hint, 18, MUTED, anchor="lm")
        return 30
    lines = fonts.wrap(hint, 18, width, max_lines=2)
    for i, line in enumerate(lines):
        fonts.draw_text(image, (x, y + 40 + 21 * i), line, 18, MUTED, anchor="lm")
    return 30 + 21 * len(lines)


def wild_stacks(image: Image.Image, draw: ImageDraw.ImageDraw, xy: tuple[int, int], width: int, view: GameView,
                lang: Language = DEFAULT) -> int:
    """The four Wild stacks (habitat, cards left, season of the top card) right of their title and
    price; returns the height used (WILDS_H)."""
    x, y = xy
    title = tr(lang, "picture.wilds")
    fonts.draw_text(image, (x, y + 18), title, 24, INK, anchor="lm", bold=True)
    hint = tr(lang, "picture.wilds.cost", cost=view.wild_cost) if view.wilds_allowed else tr(lang, "picture.wilds.none")
    stacks_x = x + width - 4 * WILD_PITCH if view.wilds_allowed else x + width
    for i, line in enumerate(fonts.wrap(hint, 18, stacks_x - x - 12, max_lines=2)):
        fonts.draw_text(image, (x, y + 46 + 21 * i), line, 18, MUTED, anchor="lm")
    if not view.wilds_allowed:
        return WILDS_H
    catalog = load_catalog()
    for i, (habitat, stack) in enumerate(view.wild_stacks):
        sx = stacks_x + i * WILD_PITCH
        season = catalog.card(stack[-1]).season if stack else None
        paste(image, _wild_stack(habitat, len(stack), season), (sx, y))
        fonts.draw_text(image, (sx + 62, y + 38), f"x{len(stack)}", 22, INK if stack else FAINT, anchor="lm",
                        bold=True)
    return WILDS_H


# --------------------------------------------------------------------------- skills


def skill_block(image: Image.Image, draw: ImageDraw.ImageDraw, xy: tuple[int, int], width: int,
                skill: SkillView, text_lines: int = 3, lang: Language = DEFAULT, flip: bool = True,
                head_w: int = 0) -> int:
    """One skill token and what it does now, with the other side's preview; without it (`flip`
    False) the label follows the state, `head_w` px from it. Returns the height."""
    x, y = xy
    state = skill_state(skill)
    token = icon("token:exhausted" if skill.exhausted or skill.disabled else "token:active", 48)
    paste(image, token, (x, y))
    fonts.draw_text(image, (x + 24, y + 22), str(skill.number), 24, WHITE, anchor="mm", bold=True)
    tx = x + 58
    room = width - 58
    colour = {"active": ACTIVE_DARK, "exhausted": STONE_DARK, "disabled": ALERT}[state]
    head = state_name(state, lang).upper()
    fonts.draw_text(image, (tx, y + 9), head, 18, colour, anchor="lm", bold=True)
    head_w = max(head_w, fonts.width(head, 18, bold=True) + 10)
    lines = _skill_lines(skill, room - (0 if flip else head_w), text_lines, lang)
    if not flip:
        lx = tx + head_w
        for i, line in enumerate(lines):
            fonts.draw_text(image, (lx, y + 10 + i * 23), line, 20, INK if state != "disabled" else FAINT,
                            anchor="lm")
        return max(50, 10 + len(lines) * 23 + 4)
    for i, line in enumerate(lines):
        fonts.draw_text(image, (tx, y + 33 + i * 23), line, 20, INK if state != "disabled" else FAINT, anchor="lm")
    ly = y + 33 + len(lines) * 23
    flips = _flip_lines(skill, room, lang)
    for i, line in enumerate(flips):
        fonts.draw_text(image, (tx, ly + i * 21), line, 18, MUTED, anchor="lm")
    return max(56, 22 + len(lines) * 23 + len(flips) * 21)


def _skill_lines(skill: SkillView, room: int, text_lines: int, lang: Language) -> list[str]:
    return fonts.wrap(skill_label(skill, lang), 20, room, max_lines=text_lines)


def _flip_lines(skill: SkillView, room: int, lang: Language) -> list[str]:
    return fonts.wrap(tr(lang, "picture.skill.flip", label=skill_flip_label(skill, lang)), 18, room, max_lines=2)


def skills_head_width(view: GameView, lang: Language) -> int:
    """The widest state word of the skills in play, and the gap after it."""
    return max((fonts.width(state_name(skill_state(s), lang).upper(), 18, bold=True) + 10 for s in view.skills),
               default=0)


def _skills_height(view: GameView, width: int, lang: Language, flip: bool) -> int:
    total = 0
    room = width - 58
    head_w = skills_head_width(view, lang)
    for skill in view.skills:
        if flip:
            lines, flips = len(_skill_lines(skill, room, 3, lang)), len(_flip_lines(skill, room, lang))
            total += max(56, 22 + lines * 23 + flips * 21) + 4
        else:
            total += max(50, 10 + len(_skill_lines(skill, room - head_w, 3, lang)) * 23 + 4) + 4
    return total


def _note_lines(words: ActionWords, width: int, lang: Language) -> list[str]:
    note = tr(lang, "picture.skill.note", skill=words.skill, resolve_all=words.resolve_all)
    return fonts.wrap(note, 18, width, max_lines=3)


# --------------------------------------------------------------------------- the picture


def render_table_image(view: GameView, words: ActionWords | None = None, lang: Language = DEFAULT,
                       pointed_skill: int | None = None) -> Image.Image:
    view = require_view(view, "render_table")
    words = actions(words, lang)
    image, draw = canvas(PIC_W, PIC_H, PAGE)
    left_w = TABLE_LEFT_W
    x = MARGIN
    round_line(image, (x, MARGIN + 20), left_w, view, False, lang)
    y = MARGIN + 42
    for line in fonts.wrap(status_text(view, words, lang), 20, left_w, max_lines=3):
        fonts.draw_text(image, (x, y + 12), line, 20, INK, anchor="lm")
        y += 24
    y += 4
    hint = tr(lang, "picture.field.hint", take=words.take)
    y += _title(image, (x, y), tr(lang, "picture.field"), hint, left_w) + 4
    pitch = (left_w - TILE_W) // 3
    field_h = field_grid(image, (x, y), pitch, view, lang)
    px = x + 3 * pitch
    _pile(image, draw, (px, y), left_w - 3 * pitch, tr(lang, "picture.deck"), back_tile(), view.deck_count, True)
    top = view.discard[-1] if view.discard else None
    discard = card_tile(top, 0, lang) if top is not None else blank_tile(tr(lang, "picture.empty"))
    _pile(image, draw, (px, y + TILE_H + PRICE_H + 6), left_w - 3 * pitch, tr(lang, "picture.discard"), discard,
          len(view.discard), False)
    y += max(field_h, 2 * (TILE_H + PRICE_H + 6) - 6) + 8
    y = max(y, PIC_H - MARGIN - WILDS_H - 16 - 40)
    y += time_track(image, (x, y), left_w, view, lang, box=40) + 16
    wild_stacks(image, draw, (x, y), left_w, view, lang)

    x = MARGIN + TABLE_LEFT_W + 16
    width = PIC_W - MARGIN - x
    y = MARGIN
    fonts.draw_text(image, (x, y + 14), tr(lang, "picture.players"), 24, INK, anchor="lm", bold=True)
    y += 30
    y += players_list(image, draw, (x, y), width, view, lang, 1, 32) + 8
    if view.held_count > 0 and not view.over:
        y += _held(image, draw, (x, y), width, view, words, lang) + 8
    _skills(image, draw, (x, y), width, view, words, lang, pointed_skill)
    return image


def _held(image: Image.Image, draw: ImageDraw.ImageDraw, xy: tuple[int, int], width: int, view: GameView,
          words: ActionWords, lang: Language) -> int:
    """Cards in the acting seat's hand during a skill: numbered faces when visible, else backs."""
    x, y = xy
    who = view.seats[view.current].name
    skill = view.pending.skill if view.pending is not None else None
    where = tr(lang, "picture.skill.where", skill=skill) if skill is not None else ""
    if view.held is None:
        hint = tr(lang, "picture.hand.hidden", cards=counted("card", view.held_count, lang), who=who)
    else:
        kind = view.pending.kind if view.pending is not None else ""
        key = kind if kind in ("place_held", "pile_held") else "numbered"
        hint = tr(lang, f"picture.hand.{key}", place=words.place, pile=words.pile)
    y += _title(image, (x, y), tr(lang, "picture.hand.title", who=who, where=where), hint, width) + 4
    shown = min(view.held_count, max(1, width // (TILE_W + 8)))
    for i in range(shown):
        tx = x + i * (TILE_W + 8)
        if view.held is None:
            paste(image, back_tile(), (tx, y))
            continue
        paste(image, card_tile(view.held[i], 0, lang), (tx, y))
        bubble(image, draw, tx + TILE_W - 18, y + ART_H - NAME_LINE - 18, str(i + 1), ACTIVE_DARK)
    return y - xy[1] + TILE_H


def _skills(image: Image.Image, draw: ImageDraw.ImageDraw, xy: tuple[int, int], width: int, view: GameView,
            words: ActionWords, lang: Language, pointed: int | None = None) -> None:
    """Every skill token, one to a row: with the other side's preview and the note on resolving when
    there is room, else each on a line or two. The `pointed` token (0: every exhausted one) is framed
    in the alert colour: where a lesson's next move happens."""
    x, y = xy
    fonts.draw_text(image, (x, y + 14), tr(lang, "picture.skills"), 24, INK, anchor="lm", bold=True)
    y += 34
    room = PIC_H - MARGIN - y
    note = _note_lines(words, width, lang)
    flip = _skills_height(view, width, lang, True) + 22 * len(note) <= room
    head_w = skills_head_width(view, lang)
    for skill in view.skills:
        high = skill_block(image, draw, (x, y), width, skill, lang=lang, flip=flip, head_w=head_w)
        if pointed is not None and (skill.number == pointed or (pointed == 0 and skill.exhausted)):
            draw.rounded_rectangle((x - 6, y - 5, x + width + 4, y + high + 2), radius=10, outline=ALERT, width=5)
        y += high + 4
    if flip:
        for line in note:
            fonts.draw_text(image, (x, y + 11), line, 18, MUTED, anchor="lm")
            y += 22


def render_table(view: GameView, words: ActionWords | None = None, lang: Language = DEFAULT,
                 pointed_skill: int | None = None) -> bytes:
    """PNG of everything on the table that `view` may see (1100 x 700, landscape, for Discord's
    inline box): the round and who acts, the Field with its prices, the deck and discard pile, the
    time track, the Wild stacks, the players, any held cards and the skills, in `lang`; hints name
    actions in `words` (Discord's by default). `pointed_skill` frames that skill token (0: every
    exhausted one), where a lesson's next move happens."""
    return png(render_table_image(view, words, lang, pointed_skill))
