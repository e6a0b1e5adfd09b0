"""`python -m keystone words`: every German sentence filled with sample values, for review in one file."""

from __future__ import annotations

from pathlib import Path

from keystone.cli import words
from keystone.i18n import COMMANDS, catalogue, domains


def test_every_german_entry_is_printed_filled_beside_its_english(tmp_path: Path) -> None:
    out = tmp_path / "review.de.txt"
    assert words.main(["--lang", "de", "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    for domain in (*domains(), COMMANDS):
        assert f"## {domain}.po ({len(catalogue('de', domain))} entries)" in text
        assert all(f"\n{key}\n" in text for key in catalogue("de", domain))
    assert "  de: Jürgen nimmt die Karte „Amerikanischer Schwarzbär“ mit 2 Eicheln darauf von Platz 2 der Auslage " \
           "(Kosten: 1 Eichel) und siedelt sie auf B2 an (+3 Eicheln)." in text
    assert "  de: Jürgen erhält 1 Eichel." in text and "  de: Jürgen erhält 2 Eicheln." in text
    assert "  en: Jürgen gained 1 synergy." in text
    assert "{" not in "".join(line for line in text.splitlines() if line.startswith("  de: ") and "%" not in line)


def test_english_alone_when_asked() -> None:
    said: list[str] = []
    assert words.main(["--lang", "en"], said.append) == 0
    assert "  en: Jürgen gained 1 synergy." in said[0] and "  de: " not in said[0]
