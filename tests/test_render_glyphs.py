"""A line composed from cached glyphs (glyphs.py) is the very mask FreeType renders whole: same size,
same offset, same bytes, for every card name, every kind of display name and the words of the
pictures, at the sizes the pictures draw, in both weights and with every anchor they use."""

from __future__ import annotations

import itertools

from keystone.data import load_catalog
from keystone.i18n import LANGUAGES, tr
from keystone.render import fonts, glyphs
from tests.test_render_fonts import CORPUS, MIXED

SIZES = (18, 20, 22, 24, 26, 28, 30, 32, 36, 40, 43, 48, 96)
ANCHORS = ("lm", "mm", "rm", "ls", "la", "ld", "lt", "mb")
WORDS = ["Round 12", "Next: guest42", "host12 placed Sitka Spruce, American Moose", "Deck 12  ·  Discard 3",
         "+3", "x2", "A1", "D4", "Fjord ff fi Tyrannosaurus AVA Te Yo Wa", "“Quoted” „Zitat“ ß …", "0123456789",
         "iiiii lllll jjjjj", "Ελληνικά", "Дмитрий Шостакович", "Zoë Muñoz", "François Çelik"]


def _corpus() -> list[str]:
    names = {card.name_in(lang) for card in load_catalog().all_cards() for lang in LANGUAGES}
    names |= {tr(lang, "picture.wild.badge") for lang in LANGUAGES}
    return sorted(names) + WORDS + CORPUS + MIXED


def _same(text: str, size: int, bold: bool, anchor: str) -> bool:
    composed = fonts.line_mask(text, size, bold, anchor)
    whole = fonts.line_mask(text, size, bold, anchor, compose=False)
    return composed[1:] == whole[1:] and composed[0].size == whole[0].size and \
        composed[0].tobytes() == whole[0].tobytes()


def test_a_composed_line_is_the_mask_freetype_renders() -> None:
    cases = zip(_corpus(), itertools.cycle(SIZES), itertools.cycle((False, True, True)), itertools.cycle(ANCHORS),
                strict=False)
    differ = [case for case in cases if not _same(*case)]
    assert not differ


def test_every_size_and_anchor_of_a_line_with_touching_letters() -> None:
    """Letters whose edges share pixels ("ff", "Te", "ky") are blended by FreeType's rule."""
    for size, bold, anchor in itertools.product(SIZES, (False, True), ("lm", "mm", "rs")):
        assert _same("Dusky Grouse, Tyrannosaurus ffi", size, bold, anchor), (size, bold, anchor)


def test_most_lines_are_composed_and_shaped_ones_are_left_to_freetype() -> None:
    """The fast path must not quietly fall back: Latin, Greek and Cyrillic are composed; a face
    shaped by Raqm (emoji sequences) or thickened for bold (CJK) is rendered whole."""
    latin = fonts.runs("Zoë Ångström")[0][0]
    assert glyphs.composable(latin, False) and glyphs.composable(latin, True)
    assert glyphs.ink_box(latin, True, fonts.font(24, True), "Zoë Ångström") is not None
    assert not glyphs.composable(fonts.CJK[0], True)
    assert glyphs.composable(fonts.CJK[0], False)
