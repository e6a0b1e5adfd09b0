"""Where a name breaks across lines, in its own language: the one rule for the pictures' tiles and
card faces (measured in pixels, fonts.py) and the terminal's board (measured in characters, text.py).

A line may end at a space, after a hyphen the name has, at the joint of a compound word
(`keystone/data/joints.json`: "Kaninchen-/kauz") or at a syllable the language's hyphenation
dictionary gives (pyphen: de_DE for German, en_US for English); at a joint or a syllable a hyphen
is added. The fewest lines win; then spaces before hyphens before joints before syllables (a
syllable is used only when nothing else makes the name fit); then the best balance (the widest
line as narrow as it can be).
A syllable break leaves at least three letters of the word on either side, so no "se" or "Mo-"
stands alone on a line. Each caller caches the lines per name, language and width.
"""

from __future__ import annotations

import functools
import itertools
import re
import unicodedata
from collections.abc import Callable, Sequence
from typing import NamedTuple

import pyphen

from keystone.data.joints import load_joints
from keystone.i18n import Language

DICTIONARIES: dict[Language, str] = {"en": "en_US", "de": "de_DE"}
"""The hyphenation pattern each language of the bot is broken with."""
MIN_LETTERS = 3
"""The fewest letters of a word that a syllable break leaves on either side."""
SPACE, HYPHEN, JOINT, SYLLABLE = 0, 1, 2, 3
"""Kinds of break, in the order they are preferred."""

_VOWELS = frozenset("aeiouyæøœAEIOUYÆØŒ" "αεηιουωΑΕΗΙΟΥΩ" "аеёиоуыэюяіїєАЕЁИОУЫЭЮЯІЇЄ")
"""Vowels (an accented letter counts as its base letter: `vowel`)."""


def vowel(letter: str) -> bool:
    """A vowel, an umlaut or accented vowel included (Latin, Greek, Cyrillic)."""
    return letter in _VOWELS or unicodedata.normalize("NFD", letter)[0] in _VOWELS


class Break(NamedTuple):
    """A line may end before `at`: at a space, after a hyphen, or inside a word (a hyphen added)."""

    at: int
    kind: int


@functools.cache
def _dictionary(lang: Language) -> pyphen.Pyphen:
    return pyphen.Pyphen(lang=DICTIONARIES[lang], left=MIN_LETTERS, right=MIN_LETTERS)


@functools.lru_cache(maxsize=4096)
def syllables(word: str, lang: Language) -> tuple[int, ...]:
    """Where `word` (letters only) may break, from the dictionary: a piece without a vowel joins the
    syllable before it, as the patterns split a compound's joint oddly (de_DE gives Mo-schu-s-och-se
    and Schwa-rz-wei-de; these read Moschus-ochse and Schwarz-weide)."""
    points = [int(p) for p in _dictionary(lang).positions(word)]
    ends = [*points[1:], len(word)][:len(points)]
    return tuple(p for p, end in zip(points, ends, strict=True) if any(vowel(c) for c in word[p:end]))


@functools.lru_cache(maxsize=2048)
def breaks(text: str, lang: Language) -> tuple[Break, ...]:
    """Every place `text` may end a line, in order."""
    found: list[Break] = []
    words = list(re.finditer(r"\S+", text))
    for k, word in enumerate(words):
        for part in re.finditer(r"[^-]+|-+", word.group()):
            start = word.start() + part.start()
            if part.group().startswith("-"):
                if part.start() > 0 and part.end() < len(word.group()):
                    found.append(Break(word.start() + part.end(), HYPHEN))
            elif part.group().isalpha():
                joints = load_joints().get(lang, {}).get(part.group().lower(), ())
                others = [p for p in syllables(part.group(), lang) if p not in joints]
                found += sorted([*(Break(start + p, JOINT) for p in joints),
                                 *(Break(start + p, SYLLABLE) for p in others)])
        if k + 1 < len(words):
            found.append(Break(words[k + 1].start(), SPACE))
    return tuple(found)


def cut(text: str, chosen: Sequence[Break]) -> list[str]:
    """`text` broken at `chosen` (in order): a syllable's line ends with a hyphen of its own."""
    lines, start = [], 0
    for point in chosen:
        line = text[start:point.at].strip()
        lines.append(line + "-" if point.kind in (JOINT, SYLLABLE) else line)
        start = point.at
    lines.append(text[start:].strip())
    return lines


def arrange(text: str, lang: Language, measure: Callable[[str], int], rooms: Sequence[int],
            max_lines: int) -> list[str] | None:
    """`text` in at most `max_lines` lines, line k at most `rooms[k]` wide (the last room serves
    every later line) as `measure` gives, broken by the module's rule; None when no break fits.
    Lines narrower than the first are taken as indented: the balance counts their indent."""
    options = breaks(text, lang)

    def room(k: int) -> int:
        return rooms[min(k, len(rooms) - 1)]

    for allowed in (SPACE, HYPHEN, JOINT, SYLLABLE):
        usable = [b for b in options if b.kind <= allowed]
        for count in range(min(max_lines, len(usable) + 1)):
            best: tuple[tuple[int, ...], list[str]] | None = None
            for chosen in itertools.combinations(usable, count):
                lines = cut(text, chosen)
                widths = [measure(line) for line in lines]
                if any(w > room(k) for k, w in enumerate(widths)):
                    continue
                spans = [w + room(0) - room(k) for k, w in enumerate(widths)]
                kinds = [b.kind for b in chosen]
                score = (kinds.count(SYLLABLE), kinds.count(JOINT), kinds.count(HYPHEN), max(spans),
                         max(spans) - min(spans))
                if best is None or score < best[0]:
                    best = (score, lines)
            if best is not None:
                return best[1]
    return None
