"""Card names break across lines where their language allows: at a space, after a hyphen they have,
at a compound's joint (keystone/data/joints.json) or at a syllable of the language's hyphenation dictionary, never cut and never leaving one or two
letters of a word alone; the tiles, the card faces and the terminal's board break them alike."""

from __future__ import annotations

import json
import re
from importlib import resources

import pyphen
import pytest

from keystone.data import CatalogError, load_catalog
from keystone.data.joints import load_joints
from keystone.i18n import Language
from keystone.render import fonts, hyphens
from keystone.render.cards import W, card_face
from keystone.render.text import CELL, _wrap_name, board_lines
from keystone.render.tiles import NAME_ROOM, NAME_SIZE, card_tile, shown_name

PATTERNS: dict[Language, str] = {"en": "en_US", "de": "de_DE"}
"""The dictionary each language must break by (read here straight from pyphen, not from hyphens.py)."""


def _names(lang: Language) -> list[str]:
    """Every name a card shows in `lang`: species, extra species and the Wild cards."""
    return sorted({shown_name(card.id, lang) for card in load_catalog().all_cards()})


def _syllable_points(word: str, lang: Language) -> set[int]:
    return set(pyphen.Pyphen(lang=PATTERNS[lang]).positions(word))


def _check_breaks(name: str, lines: list[str], lang: Language) -> None:
    """`lines` spell `name` whole, each line ending at a space, after the name's own hyphen, or at
    a compound's listed joint or one of the dictionary's syllables (with at least three letters of
    the word on each side)."""
    assert not any(line.endswith("...") for line in lines), f"{name!r} cut: {lines}"
    at = 0
    for k, line in enumerate(lines):
        if name.startswith(line, at):  # the last line, or one ending at a space or after the name's hyphen
            at += len(line)
            if k + 1 < len(lines) and not line.endswith("-"):
                assert name[at] == " ", f"{name!r} broken inside a word without a hyphen: {lines}"
                at += 1
            continue
        assert line.endswith("-") and name.startswith(line[:-1], at), f"{name!r} drawn as {lines}"
        at += len(line) - 1  # the hyphen is the break's own: a syllable of the word at `at`
        start = max(name.rfind(" ", 0, at), name.rfind("-", 0, at)) + 1
        end = min([i for i in (name.find(" ", at), name.find("-", at)) if i >= 0] or [len(name)])
        word = name[start:end]
        allowed = _syllable_points(word, lang) | set(load_joints().get(lang, {}).get(word.lower(), ()))
        assert at - start in allowed, f"{name!r}: {word[:at - start]}|{word[at - start:]}"
        assert at - start >= 3 and end - at >= 3, f"{name!r} leaves two letters or fewer alone: {lines}"
    assert at == len(name), f"{name!r} lost letters: {lines}"


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_card_name_breaks_only_where_its_language_allows_at_every_width(lang: Language) -> None:
    for name in _names(lang):
        tile = list(fonts.name_lines(name, lang, NAME_SIZE, NAME_ROOM))
        face = list(fonts.name_lines(name, lang, 15, W - 12))
        for lines, size, room in ((tile, NAME_SIZE, NAME_ROOM), (face, 15, W - 12)):
            assert 1 <= len(lines) <= 3 and all(fonts.width(line, size) <= room for line in lines), (name, lines)
            _check_breaks(name, lines, lang)
        terminal = _wrap_name("12", name, CELL - 1, lang)
        assert all(len(line) <= CELL - 1 for line in terminal), terminal
        _check_breaks(name, [terminal[0].removeprefix("12 "), *(line[2:] for line in terminal[1:])], lang)


def test_the_names_that_broke_badly_break_at_their_joints() -> None:
    for name, expected in (("Moschusochse", ["Moschus-", "ochse"]), ("Geierschildkröte", ["Geier-", "schildkröte"]),
                           ("Alpenschneehuhn", ["Alpen-", "schneehuhn"]), ("Kaninchenkauz", ["Kaninchen-", "kauz"]),
                           ("Langschwanzwiesel", ["Langschwanz-", "wiesel"]),
                           ("Weißwedelhirsch", ["Weißwedel-", "hirsch"])):
        lines = list(fonts.name_lines(name, "de", NAME_SIZE, NAME_ROOM))
        assert lines in (expected, [name]), lines


def test_spaces_come_before_hyphens_and_hyphens_before_syllables() -> None:
    assert fonts.name_lines("Kalifornischer Eselhase", "de", NAME_SIZE, NAME_ROOM) == ("Kalifornischer", "Eselhase")
    assert fonts.name_lines("Mangroven-Baumkrabbe", "de", NAME_SIZE, NAME_ROOM) == ("Mangroven-", "Baumkrabbe")
    assert fonts.name_lines("Musk Ox", "en", NAME_SIZE, NAME_ROOM) == ("Musk Ox",)


def test_a_syllable_without_a_vowel_joins_the_one_before() -> None:
    """The German patterns give Mo-schu-s-och-se and Schwa-rz-wei-de; neither "s" nor "rz" stands alone."""
    assert {6, 7} <= _syllable_points("Moschusochse", "de")
    assert hyphens.syllables("Moschusochse", "de") == (7,)
    assert 5 not in hyphens.syllables("Schwarzweide", "de") and 7 in hyphens.syllables("Schwarzweide", "de")


def test_the_terminal_board_breaks_a_long_name_as_the_tile_does() -> None:
    name = "Baumwollschwanzkaninchen"
    tile = fonts.name_lines(name, "de", NAME_SIZE, NAME_ROOM)
    terminal = _wrap_name("2", name, CELL - 1, "de")
    assert tile == ("Baumwoll-", "schwanz-", "kaninchen")
    assert terminal == ("2 Baumwoll-", "  schwanz-", "  kaninchen")


def test_a_german_board_in_the_terminal_shows_the_broken_name() -> None:
    from dataclasses import replace

    from keystone.cli.render import rulebook_view
    from keystone.engine.state import PlacedCard

    view = rulebook_view()
    cotton = next(c.id for c in load_catalog().all_cards() if c.name_in("de") == "Baumwollschwanzkaninchen")
    seat = replace(view.seats[0], board=(PlacedCard(cotton, 0), *view.seats[0].board[1:]))
    text = "\n".join(board_lines(seat, "de"))
    assert re.search(r"\| \d+ Baumwoll- +\|", text) and re.search(r"\|   schwanz- +\|", text), text


def test_a_name_is_broken_once_per_language_and_width() -> None:
    cards = load_catalog().all_cards()[:5]
    for lang in ("en", "de"):
        for card in cards:
            card_face(card.id, lang)
    fonts.name_lines.cache_clear()
    card_tile.cache_clear()
    for research in (0, 1):
        for lang in ("en", "de"):
            for card in cards:
                card_tile(card.id, research, lang)
    info = fonts.name_lines.cache_info()
    assert info.misses == info.hits == len(cards) * 2


def test_each_listed_joint_is_a_word_of_a_german_card_name_and_bad_entries_are_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    words = {w.lower() for name in _names("de") for w in re.findall(r"[^\W\d_]+", name)}
    listed = load_joints()["de"]
    assert listed and set(listed) <= words, sorted(set(listed) - words)
    assert listed["kaninchenkauz"] == (9,) and listed["weißkopfseeadler"] == (4, 8, 11)
    for bad in ("Kaninchenkauz", "K|aninchenkauz", "Kanin chen|kauz"):
        monkeypatch.setattr(resources, "files", lambda _package, bad=bad: _Fake(json.dumps({"de": [bad]})))
        load_joints.cache_clear()
        with pytest.raises(CatalogError, match="joints.json"):
            load_joints()
    load_joints.cache_clear()


class _Fake:
    """A package folder whose `joints.json` holds `text`."""

    def __init__(self, text: str) -> None:
        self.text = text

    def joinpath(self, _name: str) -> _Fake:
        return self

    def read_text(self, encoding: str) -> str:
        return self.text
