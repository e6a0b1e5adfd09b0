"""One vocabulary: plurals said properly, and pictures posted on Discord never ask for the
terminal's notation (the terminal passes its own words)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from keystone.engine import GameConfig, new_game, public_view
from keystone.engine.words import DISCORD_ACTIONS, action_words, plural
from keystone.i18n import LANGUAGES, Language, tr
from keystone.render.describe import status_text
from keystone.render.text import text_table

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(("count", "word", "said"), [(0, "card", "0 cards"), (1, "card", "1 card"),
                                                      (1, "point", "1 point"), (24, "point", "24 points")])
def test_plural_says_the_number_with_the_right_form(count: int, word: str, said: str) -> None:
    assert plural(count, word) == said


def test_no_word_is_left_half_plural() -> None:
    """'3 card(s)' and '1 points' used to reach players; every count now goes through plural()."""
    found = []
    words = [*(ROOT / "keystone" / "engine").rglob("*.py"), *(ROOT / "keystone" / "render").rglob("*.py"),
             ROOT / "keystone" / "app" / "text.py", ROOT / "keystone" / "cli" / "play.py"]
    for path in words:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"[}\w] [a-z]+\(s\)", line) or re.search(r"\{[^}]*(best|total|_points|_tokens)\} (points|tokens)", line):
                found.append(f"{path.relative_to(ROOT)}:{number}")
    assert found == []


def test_only_the_vocabulary_defines_plural_and_habitat_names() -> None:
    defined = [path.relative_to(ROOT).as_posix() for path in (ROOT / "keystone").rglob("*.py")
               if re.search(r"^def plural\b|^HABITAT_LABEL\b", path.read_text(encoding="utf-8"), re.M)]
    assert defined == ["keystone/engine/words.py"]


def test_pictures_speak_discord_and_the_terminal_its_notation() -> None:
    view = public_view(new_game(GameConfig(), 1, ["Ana", "Ben"]))
    assert status_text(view) == "Ana to act: /take, /skill or /wild."
    assert "take SLOT CELL" in text_table(view) and "/take" not in text_table(view)
    for path in (ROOT / "keystone" / "render").glob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert not re.search(r"SLOT CELL|pile I\b|place I CELL|resolve N\b", source), path.name


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_terminal_help_lists_every_typed_form(lang: Language) -> None:
    typed = action_words("terminal", lang)
    forms = [typed.take, typed.skill, typed.wild, typed.endturn, typed.place, typed.pile, typed.move,
             typed.research, typed.discard, typed.resolve]
    help_text = tr(lang, "cli.help")
    assert all(form in help_text for form in forms), [f for f in forms if f not in help_text]
    assert DISCORD_ACTIONS.take == "/take"
