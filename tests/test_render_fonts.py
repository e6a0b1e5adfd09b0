"""Real typefaces: display names in every common script, and emoji, are drawn with a glyph for each
character (never an empty box), measured as drawn, kept on one baseline and never cut in half."""

from __future__ import annotations

import functools
import unicodedata

import pytest
from fontTools.ttLib import TTFont  # type: ignore[import-untyped]
from PIL import Image, ImageChops, ImageDraw

from keystone.render import fonts

NAMES = {
    "latin": ["François Çelik", "Zoë Ångström", "José Muñoz", "Straße „Müller“", "Łukasz Żółć", "Nguyễn Thị Hằng",
              "Søren Ærø", "**bold** _name_", "O'Brien ~ [GM] #1 (she/her)"],
    "greek": ["Ἀλέξανδρος", "Νίκος Παπαδόπουλος"],
    "cyrillic": ["Дмитрий Шостакович", "Їжачок Ґава", "Ёжик в тумане"],
    "chinese": ["李小龍", "张伟", "王小明（小明）"],
    "japanese": ["山田太郎", "さくら", "カタカナ・テスト"],
    "korean": ["김민수", "이서연"],
    "emoji": ["🦊 Fox", "Bob 🎲 Okonkwo-Müller", "👍🏽 Ana", "👨‍👩‍👧 Family", "#️⃣ Keycap", "🇩🇪 Flagge", "❤️ Liebe"],
    "long": ["Maximilian Alexander von Hohenzollern-Sigmaringen", "Bartholomew 🎲 Ολυμπία Дмитриевна 山田",
             "Donaudampfschifffahrtsgesellschaftskapitän"],
}
CORPUS = [name for names in NAMES.values() for name in names]
MIXED = ["Bob 🎲 Okonkwo-Müller", "Ana李Дима🦊Zoë", "👍🏽 Ἀλέξανδρος 김민수", "Straße „Müller“ 山田太郎"]
NOWHERE = "\U0010fffd"
"""A private-use character no font has."""


@functools.cache
def _reference_cmap(face: fonts.Face) -> frozenset[int]:
    """The face's characters as fontTools reads them (what the renderer reads on its own)."""
    loaded = TTFont(face.path(), fontNumber=face.index, lazy=True)
    return frozenset(code for code, glyph in loaded.getBestCmap().items() if glyph != ".notdef")


def _ink(mask: Image.Image) -> tuple[int, int, int, int]:
    box = mask.getbbox()
    assert box is not None, "nothing was drawn"
    return box


@pytest.mark.parametrize("face", [fonts.LATIN, *fonts.SCRIPTS, *fonts.CJK, fonts.SYMBOLS, fonts.EMOJI],
                         ids=lambda face: f"{face.file}:{face.index}")
def test_the_renderer_reads_each_fonts_characters_as_fonttools_does(face: fonts.Face) -> None:
    assert fonts.coverage(face) == _reference_cmap(face)


def test_the_primary_face_has_every_printable_ascii_character_and_the_replacement() -> None:
    """`runs` draws printable ASCII with the primary face without looking: it must have them all."""
    assert {*range(0x20, 0x7F), ord(fonts.REPLACEMENT), ord("ß"), ord("„"), ord("“")} <= _reference_cmap(fonts.LATIN)


@pytest.mark.parametrize("script", NAMES)
def test_every_character_of_every_name_has_a_glyph_in_the_face_chosen_for_it(script: str) -> None:
    for name in NAMES[script]:
        shown = ""
        for face, text in fonts.runs(name):
            for cluster in fonts.clusters(text):
                missing = [f"U+{ord(ch):04X}" for ch in cluster if ord(ch) not in _reference_cmap(face)]
                assert not missing, f"{name!r}: {cluster!r} has no glyph in {face.file}:{face.index}"
            shown += text
        assert shown == unicodedata.normalize("NFC", name), f"{name!r} lost characters: {shown!r}"
        assert fonts.REPLACEMENT not in shown


def test_each_script_is_drawn_by_its_face() -> None:
    def faces(name: str) -> set[str]:
        return {f"{face.file}:{face.index}" for face, _ in fonts.runs(name)}

    latin = f"{fonts.LATIN.file}:0"
    assert faces("Straße „Müller“") == faces("Ἀλέξανδρος") == faces("Їжачок Ґава") == {latin}
    assert faces("张伟") == {f"{fonts.SIMPLIFIED.file}:{fonts.SIMPLIFIED.index}"}
    assert faces("山田さくら") == {f"{fonts.JAPANESE.file}:{fonts.JAPANESE.index}"}
    assert faces("김민수") == {f"{fonts.KOREAN.file}:{fonts.KOREAN.index}"}
    assert fonts.runs("👍🏽 Ana") == ((fonts.EMOJI, "👍🏽"), (fonts.LATIN, " Ana"))
    assert fonts.runs("Bob 🎲 Okonkwo") == ((fonts.LATIN, "Bob "), (fonts.EMOJI, "🎲"), (fonts.LATIN, " Okonkwo"))


def test_an_emoji_sequence_stays_one_cluster_with_its_joiners_tones_and_selectors() -> None:
    assert fonts.clusters("👍🏽a") == ["👍🏽", "a"]
    assert fonts.clusters("👨‍👩‍👧!") == ["👨‍👩‍👧", "!"]
    assert fonts.clusters("#️⃣1") == ["#️⃣", "1"]
    assert fonts.clusters("🇩🇪🇫🇷") == ["🇩🇪", "🇫🇷"]
    assert fonts.clusters("🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f") == [
        "🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"]
    assert fonts.clusters("e\u0301x") == ["e\u0301", "x"]


def test_a_character_no_font_has_is_drawn_as_the_replacement_not_an_empty_box() -> None:
    assert all(ord(NOWHERE) not in fonts.coverage(face) for face in fonts.CHAIN + fonts.CJK)
    assert fonts.runs(f"Ana {NOWHERE} Bo") == ((fonts.LATIN, f"Ana {fonts.REPLACEMENT} Bo"),)
    drawn, _, _ = fonts._mask(NOWHERE, 40, False, "ls")
    replacement, _, _ = fonts._mask(fonts.REPLACEMENT, 40, False, "ls")
    assert ImageChops.difference(drawn, replacement).getbbox() is None
    box = Image.new("L", (80, 80))
    ImageDraw.Draw(box).text((10, 60), NOWHERE, font=fonts.font(40), fill=255, anchor="ls")
    notdef = box.crop(_ink(box))
    assert notdef.tobytes() != drawn.crop(_ink(drawn)).tobytes(), "the empty box was drawn"
    # An invisible character the fonts lack draws nothing rather than a box; a stray tab is a space.
    assert fonts.width("a\U000e0001b", 20) == fonts.width("ab", 20)
    assert fonts.runs("a\tb") == ((fonts.LATIN, "a b"),)


@pytest.mark.parametrize("bold", [False, True])
def test_width_is_where_the_drawing_ends_for_mixed_scripts(bold: bool) -> None:
    """Text anchored at its right end lies exactly `width` left of the same text anchored at its
    left end, and its ink lies within that width (give or take a side bearing)."""
    for name in MIXED + CORPUS:
        w = fonts.width(name, 22, bold)
        left, lx, ly = fonts._mask(name, 22, bold, "ls")
        right, rx, ry = fonts._mask(name, 22, bold, "rs")
        assert left.tobytes() == right.tobytes() and ly == ry, name
        assert lx - rx == w, name
        x0, _, x1, _ = _ink(left)
        assert lx + x0 >= -3 and lx + x1 <= w + 3, f"{name!r} is drawn outside its width {w}"


def test_width_counts_each_run_in_the_face_that_draws_it() -> None:
    """The primary face alone would measure CJK and emoji as empty boxes: the runs' sum is what counts."""
    name = "Ana李Дима🦊Zoë"
    assert fonts.width(name, 20) == pytest.approx(sum(
        fonts.font(20, False, face).getlength(text) for face, text in fonts.runs(name)), abs=1)
    assert fonts.width(name, 20) != pytest.approx(fonts.font(20).getlength(name), abs=1)


@pytest.mark.parametrize("size", [14, 20, 26, 52])
def test_a_runs_length_summed_letter_by_letter_is_what_its_face_lays_out(size: int) -> None:
    """Unshaped faces are measured letter by letter (cached): exactly what drawing the run moves."""
    for name in CORPUS + MIXED:
        for bold in (False, True):
            for face, text in fonts.runs(name):
                assert fonts._length(face, size, bold, text) == fonts.font(size, bold, face).getlength(text), name


def test_mixed_scripts_keep_one_baseline() -> None:
    """Each script inside a mixed line sits on the line's baseline as its own face puts it there:
    its ink starts and ends at the heights the face gives it over its baseline."""
    size = 40
    for part in ["Ana", "李", "Дима", "🦊", "Ἀλ", "김", "gÅ"]:
        ((face, _),) = fonts.runs(part)
        own = fonts.font(size, False, face).getbbox(part, anchor="ls")
        line, left, line_top = fonts._mask(f"xx{part}xx", size, False, "lm")
        _, _, baseline_top = fonts._mask(f"xx{part}xx", size, False, "ls")
        inside = line.crop((fonts.width("xx", size) + 1 - left, 0, fonts.width(f"xx{part}", size) - 1 - left,
                            line.height))
        ink = _ink(inside)
        shift = line_top - baseline_top  # where the "lm" anchor puts the baseline
        assert (line_top + ink[1] - shift, line_top + ink[3] - shift) == (own[1], own[3]), f"{part} leaves the baseline"


def test_the_vertical_anchor_comes_from_the_primary_face_whatever_the_script() -> None:
    ascent, descent = fonts.font(30).getmetrics()
    middles = set()
    for name in ["Ana", "李小龍", "🦊", "김민수 Ana", "Ἀλέξανδρος"]:
        _, _, top_s = fonts._mask(name, 30, False, "ls")
        _, _, top_a = fonts._mask(name, 30, False, "la")
        _, _, top_d = fonts._mask(name, 30, False, "ld")
        _, _, top_m = fonts._mask(name, 30, False, "lm")
        assert top_a - top_s == ascent and top_s - top_d == descent, name
        middles.add(top_m - top_s)
    assert len(middles) == 1, "a line's middle moves with its script"


def test_bold_is_a_real_weight_wider_and_darker() -> None:
    for name in ["Straße „Müller“", "Дмитрий", "李小龍", "🦊 Fox"]:
        regular, _, _ = fonts._mask(name, 30, False, "ls")
        bold, _, _ = fonts._mask(name, 30, True, "ls")
        assert sum(bold.histogram()[128:]) > sum(regular.histogram()[128:]) * 1.15, name
    assert fonts.width("Straße", 30, True) > fonts.width("Straße", 30)


def test_fit_never_cuts_an_emoji_sequence_or_a_letter_from_its_mark() -> None:
    name = "Ana 👍🏽👍🏽👍🏽 e\u0301e\u0301 👨‍👩‍👧 李小龍"
    whole = fonts.clusters(name)
    for room in range(20, fonts.width(name, 20) + 5, 3):
        cut = fonts.fit(name, 20, room)
        assert fonts.width(cut, 20) <= room or cut == "..."
        kept = cut.removesuffix("...")
        if cut != name:
            pieces_ = fonts.clusters(kept.rstrip())
            assert pieces_ == whole[:len(pieces_)], f"{cut!r} cut a character in half"


def test_wrap_breaks_a_mixed_script_name_only_where_a_line_may_end() -> None:
    for name in CORPUS + MIXED:
        for room in (90, 140, 220):
            lines = fonts.wrap(name, 20, room, max_lines=9)
            assert all(fonts.width(line, 20) <= room for line in lines), (name, room, lines)
            joined = "".join(lines).replace(" ", "")
            if not any(line.endswith("...") for line in lines):
                # Only hyphens may be added (after a Latin, Greek or Cyrillic consonant), never inside
                # a cluster; CJK lines end between two characters with nothing added.
                assert joined.replace("-", "") == name.replace(" ", "").replace("-", ""), (name, lines)
            for line in lines:
                assert fonts.clusters(line) == fonts.clusters(line.removesuffix("...")) + (
                    ["."] * 3 if line.endswith("...") else [])
    assert fonts.wrap("山田太郎山田太郎山田太郎", 20, 90) == ["山田太郎", "山田太郎", "山田太郎"]
    assert fonts.wrap("Дмитрий Шостакович", 20, 100) == ["Дмитрий", "Шос-", "такович"]


def test_the_drawn_names_are_the_same_bytes_every_time() -> None:
    for name in MIXED:
        first = fonts._mask(name, 24, True, "mm")
        fonts._mask.cache_clear()
        fonts.runs.cache_clear()
        fonts.font.cache_clear()
        second = fonts._mask(name, 24, True, "mm")
        assert first[1:] == second[1:] and first[0].tobytes() == second[0].tobytes(), name


def test_draw_text_stamps_the_names_on_the_picture_in_the_colour_asked() -> None:
    page = Image.new("RGB", (900, 60 * len(MIXED)), (255, 255, 255))
    with fonts.record_texts() as record:
        for i, name in enumerate(MIXED):
            fonts.draw_text(page, (10, 30 + 60 * i), name, 26, (200, 0, 0), anchor="lm", bold=i % 2 == 1)
    assert [d.text for d in record.drawn] == MIXED
    assert all(d.inside() for d in record.drawn)
    assert not any(a.overlaps(b) for i, a in enumerate(record.drawn) for b in record.drawn[i + 1:])
    colours = {colour for _, colour in page.getcolors(1 << 16) or []}
    assert (200, 0, 0) in colours and len(colours) > 2
