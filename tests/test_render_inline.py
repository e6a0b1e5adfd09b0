"""The pictures posted in a channel read where Discord shows them: inline, scaled into a box of about
550 x 350 px, only a click opening them at their own size. So the turn and the table pictures are
landscape (at least 1.45 times as wide as tall) and shown inline at half their size or more, with no
text under 18 px where it is drawn, none cut, off the picture or over other text, in English and
German, for one to four players."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable

import pytest
from PIL import Image, ImageChops

from keystone.app import pictures
from keystone.engine import GameState, apply, is_over, legal_actions, player_view, public_view
from keystone.engine.views import GameView
from keystone.i18n import Language
from keystone.render import changed_cells, encode, fonts, render_table, render_turn
from keystone.render import tiles as tile_art
from keystone.render import turn as turn_art
from keystone.render.palette import HIGHLIGHT
from tests.render_helpers import drawn_hand, finished, image, start
from tests.test_render import _clear_caches

BOX_W, BOX_H = 550, 350
"""Discord's inline box on a desktop."""
LANDSCAPE = 1.45
HALF = 0.5


def inline_scale(picture: Image.Image) -> float:
    return min(BOX_W / picture.width, BOX_H / picture.height)


def assert_inline(picture: Image.Image, what: str) -> None:
    assert picture.width / picture.height >= LANDSCAPE, f"{what} is {picture.size}: not landscape enough"
    assert inline_scale(picture) >= HALF, f"{what} is {picture.size}: shown inline under half its size"


@functools.cache
def _turns(players: int) -> list[tuple[GameState, GameState]]:
    """Every whole turn of a game of random legal moves: the state before it and after it."""
    rng = random.Random(players)
    state = start(players, 5)
    turns = []
    while not is_over(state):
        before = state
        while state.turn == before.turn and not is_over(state):
            state, _ = apply(state, rng.choice(legal_actions(state)))
        turns.append((before, state))
    return turns


def _late(players: int) -> tuple[GameView, GameView, int]:
    """The views before and after a turn late in a game that placed one card, and its mover."""
    for before, after in reversed(_turns(players)[:-2]):
        old, new = public_view(before), public_view(after)
        if len(changed_cells(old, new, before.current)) == 1:
            return old, new, before.current
    raise AssertionError("no turn placed a card")


def _pictures(players: int, lang: Language) -> dict[str, Callable[[], bytes]]:
    before, after, mover = _late(players)
    marked = changed_cells(before, after, mover)
    early = public_view(start(players, 5))
    held = player_view(drawn_hand(), 0)
    end = public_view(finished(players))
    return {
        "turn": lambda: render_turn(after, mover, marked, lang=lang),
        "turn-first": lambda: render_turn(early, 0, lang=lang),
        "turn-over": lambda: render_turn(end, 0, lang=lang),
        "table": lambda: render_table(after, lang=lang),
        "table-start": lambda: render_table(early, lang=lang),
        "table-held": lambda: render_table(held, lang=lang),
        "table-hidden-hand": lambda: render_table(public_view(drawn_hand()), lang=lang),
    }


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_turn_and_table_pictures_fit_the_inline_box_and_hold_their_words(lang: Language, players: int) -> None:
    """Drawn afresh (caches cleared but the PNG palette, which samples every face)."""
    encode.shared_palette()
    for name, draw in _pictures(players, lang).items():
        _clear_caches(encode.shared_palette)
        with fonts.record_texts() as record, fonts.record_sizes() as sizes:
            picture = image(draw())
        what = f"{lang} {players}p {name}"
        assert_inline(picture, what)
        assert sizes and min(sizes) >= fonts.PHONE_MIN, f"{what} draws text at {min(sizes)} px"
        assert record.cut == [], f"{what} cut {record.cut}"
        assert [d.text for d in record.drawn if not d.inside()] == [], f"{what} draws off its image"
        drawn = record.drawn
        over = [(a.text, b.text) for i, a in enumerate(drawn) for b in drawn[i + 1:] if a.overlaps(b)]
        assert over == [], f"{what} draws text over text"


def test_the_glance_words_are_drawn_large() -> None:
    """Round, who moved and what, who is next and the prices show at 11 px or more inline."""
    before, after, mover = _late(3)
    with fonts.record_texts() as record:
        picture = image(render_turn(after, mover, changed_cells(before, after, mover)))
    scale = inline_scale(picture)
    sizes = {d.text: d.size for d in record.drawn if d.image == picture.size}
    name = after.seats[mover].name
    glance = [t for t in sizes if t.startswith(("Round", f"{name} placed", "Next:", "Cost", "Free"))]
    assert len([t for t in glance if t.startswith("Cost") or t == "Free"]) == len(after.field)
    assert any(t.startswith("Next:") for t in glance) and any(t.startswith(f"{name} placed") for t in glance)
    assert all(sizes[t] * scale >= 11 for t in glance), {t: sizes[t] for t in glance}


def test_the_card_just_placed_is_framed_on_the_movers_board() -> None:
    before, after, mover = _late(2)
    marked = changed_cells(before, after, mover)
    assert len(marked) == 1
    plain = image(render_turn(after, mover)).convert("RGB")
    framed = image(render_turn(after, mover, marked)).convert("RGB")
    assert plain.size == framed.size
    board = (0, 0, turn_art.RIGHT_X, framed.height)
    box = ImageChops.difference(plain.crop(board), framed.crop(board)).getbbox()
    assert box is not None
    x, y = tile_art.tile_origin(marked[0])
    left, top = tile_art.MARGIN + x, tile_art.MARGIN + y
    assert left - 4 <= box[0] and top - 4 <= box[1]
    assert box[2] <= left + tile_art.TILE_W + 4 and box[3] <= top + tile_art.TILE_H + 4
    assert framed.getpixel((left - 1, top + tile_art.TILE_H // 2)) == HIGHLIGHT


def test_the_turn_picture_says_who_placed_what() -> None:
    before, after, mover = _late(2)
    with fonts.record_texts() as record:
        render_turn(after, mover, changed_cells(before, after, mover))
    placed = [d.text for d in record.drawn if " placed " in d.text]
    card = after.seats[mover].board[changed_cells(before, after, mover)[0]]
    assert card is not None and placed
    assert placed[0].startswith(after.seats[mover].name)


def test_the_pictures_the_app_posts_are_the_inline_ones() -> None:
    before, after, mover = _late(4)
    _, turn, _ = pictures.turn_file(after, mover, changed_cells(before, after, mover))
    _, field, _ = pictures.field_file(after, "de")
    for data in (turn, field):
        assert_inline(image(data), "posted")
