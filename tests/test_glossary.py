"""The German glossary (docs/GLOSSARY.de.md): one word for one thing in every German entry."""

from __future__ import annotations

import re
from pathlib import Path

from keystone.i18n import COMMANDS, catalogue, domains

GLOSSARY = Path(__file__).resolve().parent.parent / "docs" / "GLOSSARY.de.md"

def glossary() -> dict[str, tuple[str, list[str]]]:
    """English concept -> (German term, rejected words), from the glossary's table."""
    rows: dict[str, tuple[str, list[str]]] = {}
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not line.startswith("|") or cells[0] in ("English", "---"):
            continue
        rows[cells[0]] = (cells[1], [w.strip() for w in cells[2].split(",") if w.strip()])
    return rows


def uses(text: str, word: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text) is not None


def test_the_glossary_names_the_german_editions_terms_and_rejects_their_synonyms() -> None:
    terms = glossary()
    assert len(terms) >= 30
    assert terms["synergy (token)"][0].startswith("Eichel") and "Synergie" in terms["synergy (token)"][1]
    assert terms["key (of a picture)"] == ("Legende", ["Schlüssel"])
    assert "Zeile" in terms["row"][1] and "Wiederholung" in terms["replay"][1]


def test_no_german_entry_uses_a_word_the_glossary_rejects() -> None:
    rejected = {word: concept for concept, (_, words) in glossary().items() for word in words}
    found = []
    for domain in [*domains(), COMMANDS]:
        for key, text in catalogue("de", domain).items():
            for word, concept in rejected.items():
                if uses(text, word):
                    found.append(f"{domain}.po {key}: {word!r} (say {glossary()[concept][0]!r} for {concept})")
    assert found == []


def test_a_rejected_word_is_found_as_a_whole_word_only() -> None:
    assert uses("Schlüssel: F Wald", "Schlüssel") and not uses("Schlüsselart", "Schlüssel")
    assert not uses("Schlüssel-Symbol", "Schlüssel") and uses("der schwere Bot", "schwere")
