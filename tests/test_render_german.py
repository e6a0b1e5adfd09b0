"""Pictures in German: every word from the catalogues, every German word held by its layout (none
cut, none drawn off its picture or over another), English pictures as they were."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from PIL import Image

from keystone.app import pictures
from keystone.cards import Habitat
from keystone.data import load_catalog
from keystone.engine import player_view, public_view
from keystone.engine.words import habitat_name
from keystone.i18n import Language, tr
from keystone.render import (
    encode,
    fonts,
    render_board,
    render_card,
    render_hand,
    render_objective,
    render_scoresheet,
    render_table,
    render_turn,
    text_scores,
    text_table,
)
from keystone.render.cards import W, _name_lines
from keystone.render.replay import Final, Frame, final_image, frame_image
from keystone.render.tiles import NAME_ROOM, NAME_SIZE
from tests.render_helpers import drawn_hand, finished, image, play, sheets, start
from tests.test_render import _clear_caches

BAND = W - 12
"""The width of a line of a card's name, in the face's design units."""


def _letters(text: str) -> str:
    return re.sub(r"[\s-]", "", text)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_no_card_name_is_cut_and_every_line_fits_the_name_band(lang: Language) -> None:
    names = [card.name_in(lang) for card in load_catalog().all_cards() if not card.wild]
    names += [tr(lang, "picture.wild.name", habitat=habitat_name(h, lang)) for h in Habitat]
    for name in names:
        lines, _ = _name_lines(name, lang)
        assert len(lines) <= 3, name
        assert max(fonts.width(line, 15) for line in lines) <= BAND, name
        assert _letters("".join(lines)) == _letters(name), f"{name} lost letters: {lines}"


def test_a_long_german_name_breaks_after_its_hyphen_or_at_a_syllable() -> None:
    assert _name_lines("Schwarzschwanz-Präriehund", "de")[0] == ["Schwarzschwanz-", "Präriehund"]
    assert _name_lines("Atlantische Salzmarsch-Wassernatter", "de")[0] == ["Atlantische", "Salzmarsch-", "Wassernatter"]
    assert _name_lines("Riesenmammutbaum", "de")[0] == ["Riesen-", "mammutbaum"]
    assert _name_lines("Baumwollschwanzkaninchen", "de")[0] == ["Baumwoll-", "schwanzkaninchen"]
    assert _name_lines("Coyote", "en")[0] == ["Coyote"]


def test_a_break_never_splits_a_letter_group_and_a_word_with_no_break_is_cut_and_recorded() -> None:
    # s|c, c|h and c|k lie inside "sch" and "ck", so the one place left is h|b.
    assert fonts.pieces("Waschbecken", 15, 70) == ["Wasch-", "becken"]
    with fonts.record_texts() as record:
        lines = fonts.wrap("Aaaaaaaaaaaaaaaaaaaaaa", 15, 60)
    assert lines[0].endswith("...") and record.cut == ["Aaaaaaaaaaaaaaaaaaaaaa"]


def test_the_recorder_sees_text_off_the_picture_and_text_over_text() -> None:
    page = Image.new("RGB", (100, 40))
    with fonts.record_texts() as record:
        fonts.draw_text(page, (-4, 10), "off", 18, (255, 255, 255))
        fonts.draw_text(page, (40, 10), "one", 18, (255, 255, 255))
        fonts.draw_text(page, (50, 12), "two", 18, (255, 255, 255))
    off, one, two = record.drawn
    assert not off.inside() and one.inside()
    assert one.overlaps(two) and not off.overlaps(one)


def test_umlauts_and_sharp_s_are_the_fonts_own_letters() -> None:
    for marked, base in (("ä", "a"), ("Ö", "O"), ("ü", "u"), ("é", "e")):
        assert fonts.width(marked, 30) == fonts.width(base, 30), "the same advance as the plain letter"
        mask, plain = fonts._mask(marked, 30, False, "ls")[0], fonts._mask(base, 30, False, "ls")[0]
        assert mask.getbbox() != plain.getbbox(), f"{marked} is drawn with its marks"
    assert fonts.width("Gelbfuß", 20) != fonts.width("Gelbfuss", 20), "ß is one letter, not ss"


def _pictures(lang: Language, players: int) -> dict[str, Callable[[], object]]:
    state = play(start(players, 5), 6 * players, 5)
    view = player_view(state, state.current)
    held = player_view(drawn_hand(), 0)
    end = public_view(finished(players))
    own = view.viewer if view.viewer is not None else 0
    return {
        "turn": lambda: render_turn(view, (view.current - 1) % players, (0, 5), lang=lang),
        "table": lambda: render_table(view, lang=lang),
        "board": lambda: render_board(view, own, lang=lang),
        "objective": lambda: render_objective(view, own, lang),
        "hand": lambda: render_hand(held, held.held or (), lang=lang),
        "held": lambda: render_table(held, lang=lang),
        "card": lambda: render_card("cottontail-rabbit", lang),
        "scores": lambda: render_scoresheet(end, sheets(end), lang),
        "frame": lambda: frame_image(Frame(end, 0, (0,), "", 3), 2, 5, lang),
        "final": lambda: final_image(Final(end, tuple(sheets(end))), 5, "", lang),
    }


PHONE = ("turn", "table", "board", "objective", "hand", "held", "card")
"""The pictures posted for a phone (the score sheet is the one wider picture)."""


@pytest.mark.parametrize("players", [1, 4])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_picture_holds_its_words(lang: Language, players: int) -> None:
    """Drawn afresh (caches cleared): no text cut, none off its image, none over other text, and the
    posted pictures keep the phone's smallest size. The PNG palette stays: it samples every face."""
    encode.shared_palette()
    for name, draw in _pictures(lang, players).items():
        _clear_caches(encode.shared_palette)
        with fonts.record_texts() as record:
            draw()
        assert record.drawn, f"{name} drew no text"
        assert record.cut == [], f"{lang} {name} cut {record.cut}"
        assert [d.text for d in record.drawn if not d.inside()] == [], f"{lang} {name} draws off its image"
        drawn = record.drawn
        over = [(a.text, b.text) for i, a in enumerate(drawn) for b in drawn[i + 1:] if a.overlaps(b)]
        assert over == [], f"{lang} {name} draws text over text"
        if name in PHONE:
            assert min(d.size for d in drawn) >= fonts.PHONE_MIN, f"{lang} {name} is too small for a phone"


def _drawn_words(draw: Callable[[], bytes]) -> tuple[bytes, set[str]]:
    encode.shared_palette()
    _clear_caches(encode.shared_palette)
    with fonts.record_texts() as record:
        data = draw()
    return data, {d.text for d in record.drawn}


def test_a_german_turn_picture_is_in_german() -> None:
    state = play(start(2, 5), 12, 5)
    view = player_view(state, state.current)
    english, en_words = _drawn_words(lambda: render_turn(view, 0))
    german, de_words = _drawn_words(lambda: render_turn(view, 0, lang="de"))
    assert english != german and image(english).size == image(german).size
    piles = (view.deck_count, len(view.discard))
    assert {"Die Auslage", "Stapel {}  ·  Ablage {}".format(*piles), "Zeit"} <= de_words
    assert {"The Field", "Deck {}  ·  Discard {}".format(*piles), "Time"} <= en_words
    assert not {"The Field", "Time"} & de_words
    catalog = load_catalog()
    for entry in (e for e in view.field if e is not None):
        first_line = fonts.name_lines(catalog.card(entry.card).name_in("de"), "de", NAME_SIZE, NAME_ROOM)[0]
        assert first_line in de_words


def test_german_alt_text_and_text_renderings() -> None:
    view = player_view(drawn_hand(), 0)
    name, data, words = pictures.field_file(view, "de")
    assert name == "field.png" and data[:4] == b"\x89PNG"
    assert words.startswith("Runde 1.") and "Auslage (" in words
    assert pictures.field_file(view) == pictures.field_file(view, "en")
    catalog = load_catalog()
    _, _, hand = pictures.hand_file(view, list(view.held or ()), "de")
    assert hand.startswith("Deine Karten: " + catalog.card((view.held or ())[0]).name_in("de"))
    _, _, secret = pictures.objective_file(view, 0, "de")
    assert secret.startswith("Dein geheimes Ziel (Karte ")
    assert "Forschungsplättchen:" in text_table(view, lang="de")
    end = public_view(finished(2))
    scores = text_scores(sheets(end), [s.name for s in end.seats], lang="de")
    assert "Reihe A" in scores and "Summe" in scores and ("gewinnt mit" in scores or "teilen sich" in scores)
