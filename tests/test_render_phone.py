"""Pictures posted in a channel read on a phone: Discord shows them about 400 px wide, so they are
at most 800 px wide with no text under 18 px (9 px on the phone)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest
from PIL import ImageChops

from keystone.data import load_catalog
from keystone.engine import apply_text, player_view, public_view
from keystone.engine.views import GameView
from keystone.render import (
    changed_cells,
    encode,
    fonts,
    render_board,
    render_card,
    render_hand,
    render_objective,
    render_table,
    render_turn,
)
from keystone.render import turn as turn_art
from keystone.render.private import goal_progress
from tests.render_helpers import drawn_hand, finished, image, play, start
from tests.test_render import _clear_caches
from tests.test_render_inline import assert_inline

PHONE_W = 800
INLINE = ("turn", "table")
"""Landscape, for Discord's inline box (tests/test_render_inline.py): wider than a phone's 800 px."""
INLINE_W, INLINE_H = 1100, 700
"""The private pictures are landscape instead: Discord's inline box (550 x 350) shows them at half
size or more (tests/test_render_private.py checks them fully)."""
PRIVATE = {"board", "objective", "hand"}


def _mid_game(players: int) -> GameView:
    state = play(start(players, 5), 6 * players, 5)
    return player_view(state, state.current)


def _pictures(view: GameView) -> dict[str, Callable[[], bytes]]:
    mover = (view.current - 1) % len(view.seats)
    own = view.viewer if view.viewer is not None else 0
    return {
        "turn": lambda: render_turn(view, mover, (0, 5)),
        "table": lambda: render_table(view),
        "board": lambda: render_board(view, own),
        "objective": lambda: render_objective(view, own),
        "hand": lambda: render_hand(view, [e.card for e in view.field if e is not None][:5]),
        "card": lambda: render_card("north-american-river-otter"),
    }


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_every_posted_picture_fits_a_phone(players: int) -> None:
    """Caches are cleared so card faces are drawn (and measured) again, not pasted from memory.

    All but the PNG palette: it is a colour table sampled from every card face, and drawing all of
    them again for each picture would measure faces the picture does not show (the next test does)."""
    encode.shared_palette()
    for name, draw in _pictures(_mid_game(players)).items():
        _clear_caches(encode.shared_palette)
        with fonts.record_sizes() as sizes:
            picture = image(draw())
        if name in PRIVATE:
            assert picture.width <= INLINE_W and picture.height <= INLINE_H, f"{name} is {picture.size}"
            assert picture.width / picture.height >= 1.45, f"{name} is {picture.size}"
        elif name in INLINE:
            assert_inline(picture, name)
        else:
            assert picture.width <= PHONE_W, f"{name} is {picture.width} px wide"
        assert sizes, f"{name} drew no text"
        assert min(sizes) >= fonts.PHONE_MIN, f"{name} draws text at {min(sizes)} px"


def test_every_card_as_posted_fits_a_phone() -> None:
    """Every card face drawn afresh, at the size `render_card` posts it."""
    _clear_caches()
    with fonts.record_sizes() as sizes:
        widths = {card.id: image(render_card(card.id)).width for card in load_catalog().all_cards()}
    assert max(widths.values()) <= PHONE_W, widths
    assert len(sizes) >= len(widths), "every face draws its name"
    assert min(sizes) >= fonts.PHONE_MIN, f"a card face draws text at {min(sizes)} px"


def test_a_hand_drawn_mid_skill_fits_a_phone_too() -> None:
    state = drawn_hand()
    view = player_view(state, state.current)
    with fonts.record_sizes() as sizes:
        pictures = [render_table(view), render_turn(view, 0)]
        hand = image(render_hand(view, view.held or ()))
    for name, data in zip(INLINE, pictures, strict=True):
        assert_inline(image(data), name)
    assert hand.width <= INLINE_W and hand.height <= INLINE_H and hand.width / hand.height >= 1.45
    assert min(sizes) >= fonts.PHONE_MIN


def test_the_size_record_counts_a_large_drawing_at_its_shown_size() -> None:
    with fonts.record_sizes() as sizes, fonts.drawn_large(2):
        fonts.draw_text(image(render_card("coyote")).convert("RGB"), (0, 0), "x", 36, (0, 0, 0))
    assert sizes == [18]


def test_the_turn_picture_frames_the_cards_just_placed() -> None:
    before = start()
    after, _ = apply_text(before, "take 6 B2")
    old, new = public_view(before), public_view(after)
    assert changed_cells(old, new, 0) == (5,)
    plain = image(render_turn(new, 0)).convert("RGB")
    framed = image(render_turn(new, 0, changed_cells(old, new, 0))).convert("RGB")
    assert plain.size == framed.size
    assert ImageChops.difference(plain, framed).getbbox() is not None


def test_a_marked_cell_that_is_not_a_cell_is_refused() -> None:
    view = public_view(start())
    with pytest.raises(ValueError, match="There is no board cell 16"):
        render_turn(view, 0, (16,))


def test_the_turn_picture_is_landscape_and_holds_the_movers_board() -> None:
    view = public_view(play(start(4, 5), 20, 5))
    turn = image(render_turn(view, 1)).convert("RGB")
    assert_inline(turn, "turn")
    board = (0, 0, turn_art.RIGHT_X, turn.height)
    other = image(render_turn(view, 2)).convert("RGB")
    assert ImageChops.difference(turn.crop(board), other.crop(board)).getbbox() is not None
    bare = replace(view, seats=tuple(replace(s, board=(None,) * 16) if s.index == 1 else s for s in view.seats))
    empty = image(render_turn(bare, 1)).convert("RGB")
    assert any(p is not None for p in view.seats[1].board)
    assert ImageChops.difference(turn.crop(board), empty.crop(board)).getbbox() is not None


def test_the_objective_shows_progress_and_only_to_its_owner() -> None:
    state = play(start(2, 3), 30, 3)
    own = player_view(state, 0)
    assert render_objective(own, 0) == render_objective(own, 0)
    with pytest.raises(ValueError, match="does not show Bo's secret objective"):
        render_objective(own, 1)
    with pytest.raises(ValueError, match="does not show Ana's secret objective"):
        render_objective(public_view(state), 0)
    over = public_view(finished())
    assert render_objective(over, 1) != render_objective(over, 0)


def test_the_objective_judges_goals_on_the_board_as_it_stands() -> None:
    view = public_view(finished())
    number, goals = goal_progress(view, 0)
    bare = replace(view, seats=(replace(view.seats[0], board=(None,) * 16), view.seats[1]))
    assert goal_progress(bare, 0) == (number, tuple(g.model_copy(update={"completed": False, "cells": ()})
                                                    for g in goals))
    assert render_objective(bare, 0) != render_objective(view, 0)


def test_a_hand_of_unknown_or_no_cards_is_refused() -> None:
    view = public_view(start())
    with pytest.raises(ValueError, match="There is no card 'dodo'"):
        render_hand(view, ["dodo"])
    with pytest.raises(ValueError, match="no cards"):
        render_hand(view, [])
    five = image(render_hand(view, ["coyote", "musk-ox", "mountain-goat", "snail-kite", "piping-plover"]))
    one = image(render_hand(view, ["coyote"]))
    assert five.width <= INLINE_W and five.width > one.width and five.height <= INLINE_H
