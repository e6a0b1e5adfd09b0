"""The private pictures (board, hand, objective) and the final score sheet follow the inline rule:
Discord shows a picture inline scaled into a box of about 550 x 350 px, so each is landscape (at
least 1.45 times wider than tall), shown at half size or more, with no text under 18 px, no words
cut or drawn over each other, in English and German. The board carries the icon key in words."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from itertools import combinations

import pytest
from PIL import Image

from keystone.engine import apply_text, player_view, public_view
from keystone.engine.views import GameView
from keystone.engine.words import counted
from keystone.i18n import Language, tr
from keystone.render import encode, fonts, render_board, render_hand, render_objective, render_scoresheet
from keystone.render.board import key_height
from keystone.render.common import key_labels
from keystone.render.describe import actions
from tests.render_helpers import drawn_hand, finished, image, play, sheets, start
from tests.test_render import _clear_caches

LANGS: tuple[Language, ...] = ("en", "de")
HAND = ["coyote", "musk-ox", "mountain-goat", "snail-kite", "piping-plover", "american-bison", "desert-tortoise"]


def inline_scale(picture: Image.Image) -> float:
    return min(550 / picture.width, 350 / picture.height)


def said(record: fonts.Record, text: str) -> bool:
    """`text` was drawn whole, on one line or wrapped over several (a long word broken at a hyphen)."""
    flat = "".join(d.text for d in record.drawn).replace(" ", "").replace("-", "")
    return text.replace(" ", "").replace("-", "") in flat


def check(draw: Callable[[], bytes], cut_allowed: bool = False) -> tuple[Image.Image, fonts.Record]:
    """Draw afresh (caches cleared, so card faces are measured too) and check the inline rule."""
    _clear_caches(encode.shared_palette)
    with fonts.record_sizes() as sizes, fonts.record_texts() as record:
        picture = image(draw())
    assert picture.width / picture.height >= 1.45, picture.size
    assert inline_scale(picture) >= 0.5, picture.size
    assert sizes and min(sizes) >= fonts.PHONE_MIN, min(sizes)
    assert cut_allowed or not record.cut, record.cut
    mine = [d for d in record.drawn if d.image == picture.size]
    assert all(d.inside() for d in mine), [d.text for d in mine if not d.inside()]
    clashes = [(a.text, b.text) for a, b in combinations(mine, 2) if a.overlaps(b)]
    assert not clashes, clashes
    return picture, record


def _views() -> dict[str, tuple[GameView, int]]:
    begun = start(2, 3)
    mid = play(start(3, 5), 18, 5)
    over = finished(2, 3)
    return {
        "empty": (player_view(begun, 0), 0),
        "mid": (player_view(mid, mid.current), mid.current),
        "mid-other": (player_view(mid, mid.current), (mid.current + 1) % 3),
        "over": (public_view(over), 1),
        "full": (player_view(over, 0), 0),
    }


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("case", ["empty", "mid", "mid-other", "over", "full"])
def test_the_board_reads_inline_with_its_key(case: str, lang: Language) -> None:
    view, seat = _views()[case]
    _, record = check(lambda: render_board(view, seat, lang=lang))
    assert tr(lang, "picture.key") in {d.text for d in record.drawn}
    assert all(said(record, label) for _, label in key_labels(lang))
    shown = view.seats[seat].objective
    title = tr(lang, "picture.objective.title" if view.over else "picture.objective.private", number=shown)
    assert said(record, title) == (shown is not None), case
    assert said(record, view.seats[seat].name)


def test_the_board_key_speaks_german_words_never_english_initials() -> None:
    german = dict(key_labels("de"))
    assert german["habitat:forest"] == "Wald" and german["habitat:wetland"] == "Feuchtgebiet"
    assert all(len(word) > 1 for word in german.values())
    assert set(german) == set(dict(key_labels("en")))
    assert key_height(284, "de") >= key_height(284, "en")


def test_the_board_never_shows_a_hidden_objective() -> None:
    state = play(start(2, 3), 10, 3)
    own, other = player_view(state, 0), player_view(state, 1)
    with fonts.record_texts() as record:
        render_board(other, 0)
    assert not said(record, "Secret objective")
    assert render_board(own, 0) != render_board(other, 0)
    assert render_board(own, 0) == render_board(own, 0)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("count", [1, 2, 3, 4, 5, 6, 7])
def test_a_hand_reads_inline_and_its_subtitle_is_never_cut(count: int, lang: Language) -> None:
    state = start(2, 3)
    view = player_view(state, 0)
    picture, record = check(lambda: render_hand(view, HAND[:count], lang=lang))
    hint = tr(lang, "picture.hand.hint", cards=counted("card", count, lang), place=actions(None, lang).place)
    assert said(record, hint)
    if count > 1:
        assert picture.width >= image(render_hand(view, HAND[:count - 1], lang=lang)).width


@pytest.mark.parametrize("lang", LANGS)
def test_a_hand_drawn_mid_skill_reads_inline(lang: Language) -> None:
    state = drawn_hand()
    view = player_view(state, state.current)
    check(lambda: render_hand(view, view.held or (), lang=lang))


def test_no_cards_is_refused() -> None:
    with pytest.raises(ValueError, match="no cards"):
        render_hand(public_view(start()), [])


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("case", ["empty", "mid", "over", "full"])
def test_the_objective_reads_inline(case: str, lang: Language) -> None:
    view, seat = _views()[case]
    check(lambda: render_objective(view, seat, lang=lang))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_the_score_sheet_reads_inline_with_any_number_of_players(players: int, lang: Language) -> None:
    view = public_view(finished(players, 5))
    picture, record = check(lambda: render_scoresheet(view, sheets(view), lang=lang))
    totals = {str(s.total) for s in sheets(view)}
    big = {d.text for d in record.drawn if d.size >= 36}
    assert totals <= big, "every total is drawn large enough to read inline"
    if players > 1:
        assert any(d.text == tr(lang, "picture.place.1") for d in record.drawn)


@pytest.mark.parametrize("lang", LANGS)
def test_a_tied_score_sheet_marks_both_winners(lang: Language) -> None:
    view = public_view(finished(2, 3))
    both = replace(view, seats=(view.seats[0], replace(view.seats[0], index=1, name="Bo")))
    tied = sheets(both)
    assert tied[0].total == tied[1].total
    _, record = check(lambda: render_scoresheet(both, tied, lang=lang))
    assert sum(d.text == tr(lang, "picture.place.1") for d in record.drawn) == 2


def test_a_resigned_game_still_draws_its_sheet() -> None:
    state, _ = apply_text(play(start(2, 3), 8, 3), "resign 1")
    view = public_view(state)
    check(lambda: render_scoresheet(view, sheets(view)))


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_reviews_pictures_follow_the_inline_rule(lang: Language) -> None:
    """A costly turn in a review, a card's move and a skill's: landscape, read inline, no text under
    18 px, nothing cut, off the picture or over other text, in both languages."""
    from keystone.render.review import render_review_turn

    view = public_view(play(start(2, 5), 10, 5))
    mover = view.current
    heading = tr(lang, "review.picture.heading", picture=1, round=6, points="13,4" if lang == "de" else "13.4")
    moves = ((tr(lang, "review.picture.you"), "nimm die Karte „Amerikanischer Schwarzbär“ von Platz 5 der Auslage "
              "für 1 Eichel und lege sie auf B2" if lang == "de" else "take American Black Bear from Field slot 5 "
              "for 1 synergy and put it on B2"), (tr(lang, "review.picture.bot"), "skill 3"))
    check(lambda: render_review_turn(view, view.seats[mover], heading, moves, better=4, chosen=5, slot=4, lang=lang))
    check(lambda: render_review_turn(view, view.seats[mover], heading, moves, chosen=5, lang=lang,
                                     skill=view.skills[0].number, chosen_skill=view.skills[1].number))
