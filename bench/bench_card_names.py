"""How the German card names fit the name band of a card face, measured with the card's own font.

The face wraps a name into at most three lines of `W - 12` design units at size 15 (the phone's
smallest text, so it never shrinks); a word wider than a line breaks after its hyphens, then at
a syllable of its language's dictionary, and only what still does not fit would be cut with "...". This prints,
for each language, the widest name on one line and the widest wrapped line, every name cut (none
should be), every name broken inside a word, then every German name wider than the widest
English one.
Run: python bench/bench_card_names.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from keystone.data import load_catalog
from keystone.i18n import Language
from keystone.render import fonts
from keystone.render.cards import W, _name_lines

SIZE, BAND = 15, W - 12


def measure(name: str, lang: Language) -> tuple[int, int, int, bool]:
    """Width on one line, widest wrapped line, line count, and whether the face cuts the name."""
    lines, _ = _name_lines(name, lang)
    return (fonts.width(name, SIZE), max(fonts.width(line, SIZE) for line in lines), len(lines),
            any(line.endswith("...") for line in lines))


def main() -> None:
    catalog = load_catalog()
    cards = catalog.species + catalog.extra_species
    names: dict[Language, list[str]] = {lang: [c.name_in(lang) for c in cards] for lang in ("en", "de")}
    widest: dict[Language, tuple[int, int]] = {}
    for lang, listed in names.items():
        sizes = [measure(n, lang) for n in listed]
        widest[lang] = (max(s[0] for s in sizes), max(s[1] for s in sizes))
        three = sum(s[2] == 3 for s in sizes)
        print(f"{lang}: widest one-line {widest[lang][0]}, widest wrapped line {widest[lang][1]} of {BAND}, "
              f"{three} on three lines, cut: {[n for n, s in zip(listed, sizes, strict=True) if s[3]]}")
    for lang, listed in names.items():
        broken = {n: _name_lines(n, lang)[0] for n in listed}
        inside = {n: lines for n, lines in broken.items() if any(line.endswith("-") for line in lines)}
        print(f"{lang} names broken inside a word ({len(inside)}): {inside}")
    print("German names wider than the widest English name (one line, widest wrapped line, lines):")
    for name in names["de"]:
        one, line, count, _ = measure(name, "de")
        if one > widest["en"][0] or line > widest["en"][1]:
            print(f"  {name}: {one}, {line}, {count}")


if __name__ == "__main__":
    main()
