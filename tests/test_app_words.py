"""No English sentence hides in the application's code: every word a player reads comes from the
catalogues, so each language gets it. The rule: a string literal (f-strings' literal parts too) in
keystone/app with two words of letters side by side ("a game", "Your cards") is a message; it must
be a catalogue key instead. Docstrings and log lines (read by operators, not players) are exempt,
and so are the modules and sentences listed below, each with why."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from keystone.app.service import error_words
from keystone.i18n import COMMANDS, catalogue
from keystone.store import ChannelBusy, GameNotFound, InvalidInput, LobbyError

APP = Path(__file__).resolve().parent.parent / "keystone" / "app"
WORDS = re.compile(r"[A-Za-z]{2,}[,;:.!?]? +[A-Za-z]{2,}")
"""Two words side by side: a phrase a player could read."""

NOT_YET: dict[str, str] = {
    "pictures.py": "the pictures' words: their own catalogue, with the pictures",
    "replays.py": "the replay picture's words: their own catalogue, with the pictures",
}
"""Modules whose words are not in the catalogues yet, and why."""

ALLOWED: dict[str, set[str]] = {
    "text.py": {"RULES", "OVERVIEW", "rules_text"},
    "painter.py": {"PoolPainter"},
    "daily.py": {"seed_for"},
}
"""Top-level names (assignments, functions, classes) whose words stay, by module: the rules topics
(worded with the rules), a programming error no player ever sees, and the daily seed's fixed input."""


def is_command(text: str) -> bool:
    """A slash command's path ("keystone new"), which `slash` turns into the reader's command name."""
    return f"{text.replace(' ', '.')}.name" in catalogue("en", COMMANDS)


def literal_parts(tree: ast.Module, allowed: set[str]) -> list[ast.Constant]:
    """Every string constant but docstrings, the arguments of log calls and what `allowed` names."""
    skipped: set[int] = set()
    for top in tree.body:
        names = {t.id for t in getattr(top, "targets", [getattr(top, "target", None)]) if isinstance(t, ast.Name)}
        if getattr(top, "name", None) in allowed or names & allowed:
            skipped.update(id(n) for n in ast.walk(top))
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and body:
            first = body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                skipped.add(id(first.value))
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            skipped.add(id(node.value))  # an attribute's docstring
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "log"):
            skipped.update(id(n) for arg in node.args for n in ast.walk(arg))
    return [n for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
            and id(n) not in skipped]


def english_left(path: Path) -> list[str]:
    found = []
    for node in literal_parts(ast.parse(path.read_text(encoding="utf-8")), ALLOWED.get(path.name, set())):
        text = str(node.value)
        if WORDS.search(text) and not is_command(text):
            found.append(f"{path.name}:{node.lineno}: {text[:60]!r}")
    return found


def test_no_player_visible_english_left_in_the_application() -> None:
    left = [line for path in sorted(APP.glob("*.py")) if path.name not in NOT_YET for line in english_left(path)]
    assert not left, "words a player reads belong in a catalogue:\n" + "\n".join(left)


def test_the_scan_finds_a_sentence_and_skips_docstrings_and_logs(tmp_path: Path) -> None:
    module = tmp_path / "sample.py"
    module.write_text('"""A module."""\nimport logging\nlog = logging.getLogger()\n\n'
                      'def f(name: str) -> str:\n    """Says hello."""\n    log.info("said hello to %s", name)\n'
                      '    return f"Hello {name}, your turn."\n', encoding="utf-8")
    assert english_left(module) == ["sample.py:8: ', your turn.'"]


def test_store_refusals_reach_a_german_player_in_german_and_others_pass_as_they_are() -> None:
    busy = ChannelBusy(7)
    assert error_words(busy, "en") == str(busy)
    assert error_words(busy, "de").startswith("In diesem Kanal gibt es schon ein Spiel")
    assert error_words(GameNotFound(12), "de") == "Es gibt kein Spiel Nummer 12."
    assert error_words(LobbyError("You already have a seat in this lobby."), "de") == (
        "Du hast in dieser Lobby schon einen Platz.")
    odd = InvalidInput("A day is written YYYY-MM-DD.")
    assert error_words(odd, "de") == str(odd), "a sentence without a message key stays as the store says it"
