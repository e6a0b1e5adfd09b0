"""No English sentence hides in the code: every word a player reads comes from the catalogues, so
each language gets it. The rule: a string literal (f-strings' literal parts too) with two words of
letters side by side ("a game", "Your cards") is a message; it must be a catalogue key instead. The
scan covers every module whose words can reach a player (`AREAS`). Docstrings, log lines (read by
operators, not players) and the slash commands' own words (mirrored by commands.po and checked
equal by tests/test_command_translations.py) are exempt, and so are the names listed below, each
with why."""

from __future__ import annotations

import ast
import re
from collections.abc import Collection, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
from discord import app_commands

from cogs.bot import KeystoneTree
from keystone.app.service import error_words
from keystone.engine import campaign
from keystone.engine.campaign import UnknownAssignment
from keystone.i18n import COMMANDS, catalogue, messages, tr
from keystone.store import ChannelBusy, CorruptGame, GameNotFound, InvalidInput, LobbyError

ROOT = Path(__file__).resolve().parent.parent
AREAS = ("keystone/app", "keystone/engine", "keystone/render", "keystone/cli", "keystone/store/errors.py",
         "keystone/data", "cogs", "bot.py")
"""Every module whose words can reach a player, a person at the terminal or an operator."""
WORDS = re.compile(r"[A-Za-z]{2,}[,;:.!?]? +[A-Za-z]{2,}")
"""Two words side by side: a phrase a player could read."""
EVERY = "*"
"""A module's name for all of it."""

PROGRAMMING = "a programming error: the callers never pass what it refuses, so no player reads it"
OPERATOR = "start-up and connection messages, read by the operator in the terminal that runs the bot"
DATA = "the data files' validation, read by whoever edits the data, before any player plays"
DEVELOPER = "a developer's tool (JSON in and out, batch runs, pictures for the repository, database care)"

ALLOWED: dict[str, dict[str, str]] = {
    "keystone/app/text.py": dict.fromkeys(("RULES", "rules_text"), "the rules topics, worded with the rules"),
    "keystone/app/painter.py": {"PoolPainter": PROGRAMMING},
    "keystone/app/daily.py": {"seed_for": "the daily seed's fixed input, never shown"},
    "keystone/engine/bots/__init__.py": {"choose_action": PROGRAMMING},
    "keystone/engine/campaign/goals.py": {"GoalBase._check_stars": DATA},
    "keystone/engine/campaign/journal.py": dict.fromkeys(
        ("_catalog_problem", "build_journal", "Assignment._check_rules", "assignments"), DATA),
    "keystone/engine/campaign/recommend.py": {"_numbers": "the store's own record of won assignments, checked"},
    "keystone/engine/campaign/verdict.py": dict.fromkeys(("_measured", "judge"), PROGRAMMING),
    "keystone/engine/game.py": dict.fromkeys(("_step_actions", "_resolve_step"), PROGRAMMING),
    "keystone/engine/invariants.py": {EVERY: "the simulator's invariant checks, read by developers"},
    "keystone/engine/rng.py": {"below": PROGRAMMING},
    "keystone/engine/scoring.py": {
        **dict.fromkeys(("_line_reason", "LineScore.explain", "GoalResult.explain", "ScoreSheet.explain"),
                        "the sentences of `score --explain`, a developer's JSON tool; players read the score "
                        "pictures (pictures.po)"),
        **dict.fromkeys(("score_board", "_compact"), "boards only `score` (a developer's JSON tool) can get wrong"),
    },
    "keystone/engine/views.py": {"player_view": PROGRAMMING},
    "keystone/render/board.py": {"check_cells": PROGRAMMING},
    "keystone/render/common.py": dict.fromkeys(("require_view", "require_seat"), PROGRAMMING),
    "keystone/render/encode.py": {"write_png": PROGRAMMING},
    "keystone/render/fonts.py": {"font": "an installation fault (Pillow without FreeType), for the operator"},
    "keystone/render/gif.py": {"write_gif": PROGRAMMING},
    "keystone/render/private.py": dict.fromkeys(("_known", "goal_progress"), PROGRAMMING),
    "keystone/render/replay.py": dict.fromkeys(("final_image", "render_replay"), PROGRAMMING),
    "keystone/render/scoresheet.py": {"_check_sheets": PROGRAMMING},
    "keystone/render/text.py": {"text_scores": PROGRAMMING},
    "keystone/cli/gamefile.py": {"SavedGame._one_entry_per_seat": "a hand-edited save, refused inside pydantic's "
                                 "own English, like every other fault it finds in the file"},
    "keystone/cli/options.py": {**dict.fromkeys(("Parser._pointer", "whole", "positive"), (
        "usage mistakes, answered inside argparse's own English sentences")),
        "ARGPARSE_WORDS": "argparse's own message ids, which its gettext hook is asked with (cli.argparse.* say them)"},
    "keystone/cli/render.py": {EVERY: DEVELOPER},
    "keystone/cli/score.py": {EVERY: DEVELOPER},
    "keystone/cli/simulate.py": {EVERY: DEVELOPER},
    "keystone/cli/store.py": {EVERY: DEVELOPER},
    "keystone/cli/upkeep.py": {EVERY: DEVELOPER},
    "keystone/cli/words.py": {EVERY: DEVELOPER},
    "keystone/store/errors.py": {
        **dict.fromkeys(("ChannelBusy", "GameNotFound", "CorruptGame"),
                        "error_words says it in the reader's language (tested below)"),
        "StaleVersion": "never shown: the service answers it with reply.moved_on and the game as it stands",
        **dict.fromkeys(("NewerSchema", "MissingFolder", "NotAFile", "DamagedDatabase", "NotADatabase",
                         "ForeignDatabase", "ReadOnlyDatabase", "DatabaseUnreachable", "ForeignServerDatabase"),
                        OPERATOR),
    },
    "keystone/data/catalog.py": {EVERY: DATA + "; a card or skill number no lookup of the app can miss"},
    "keystone/data/lesson.py": {"LessonPlan._check_cards": DATA},
    "keystone/data/joints.py": {"load_joints": DATA},
    "cogs/bot.py": {**dict.fromkeys(("connection_problem", "DiscordUnreachable", "KeystoneBot.setup_hook",
                                     "ShardedKeystoneBot.__init__", "KeystoneBot.serve_health"), OPERATOR),
                    "KeystoneBot.service": PROGRAMMING},
    "cogs/common.py": {"service_of": PROGRAMMING},
    "cogs/health.py": {EVERY: OPERATOR + " (/healthz's one-line reasons, read by a monitor)"},
    "cogs/permissions.py": {"report": OPERATOR + " (the permissions a server lacks: logged)"},
    "cogs/outbox.py": dict.fromkeys(("DiscordOutbox.to_user", "DiscordOutbox.shown_as_answer", "sorted_failures"), OPERATOR + " (why a message "
                                    "could not be delivered: the deliverer logs it)"),
    "keystone/app/metrics.py": {EVERY: OPERATOR + " (the help texts Prometheus shows beside each metric)"},
    "keystone/app/delivery.py": {"Deliverer._one": OPERATOR + " (why a message was given up: logged and kept)"},
    "bot.py": dict.fromkeys(("NO_TOKEN_HELP", "parser", "run_bot", "main", "print_invite"), OPERATOR),
}
"""Names (module level, or "Class.method") whose words stay English, by module, and why."""
SLASH = {"command", "describe", "choices", "rename", "Group", "Choice", "locale_str"}
"""The calls that give a slash command its words, mirrored by commands.po."""


def is_command(text: str) -> bool:
    """A slash command's path ("keystone new"), which `slash` turns into the reader's command name, or
    a command line's program ("python -m keystone play"), typed as it is."""
    return text.startswith("python -m keystone") or f"{text.replace(' ', '.')}.name" in catalogue("en", COMMANDS)


def named(body: list[ast.stmt], prefix: str = "") -> Iterator[tuple[str, ast.stmt]]:
    """Each statement of a module with the name it defines ("Class.method" inside a class), if any."""
    for node in body:
        targets = getattr(node, "targets", [getattr(node, "target", None)])
        names = [t.id for t in targets if isinstance(t, ast.Name)] or [getattr(node, "name", "")]
        for name in names:
            yield prefix + name, node
        if isinstance(node, ast.ClassDef):
            yield from named(node.body, f"{prefix}{node.name}.")


def exempt_calls(node: ast.AST) -> bool:
    """A log line, or one of the slash commands' own words (`app_commands.describe(...)` and the like)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return False
    return node.func.attr in SLASH or (isinstance(node.func.value, ast.Name) and node.func.value.id == "log")


def literal_parts(tree: ast.Module, exempt: Collection[str]) -> list[ast.Constant]:
    """Every string constant but docstrings, exempt calls' arguments and what `exempt` names."""
    skipped: set[int] = set()
    for name, top in named(tree.body):
        if name in exempt:
            skipped.update(id(n) for n in ast.walk(top))
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and body:
            first = body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                skipped.add(id(first.value))
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            skipped.add(id(node.value))  # an attribute's docstring
        if exempt_calls(node):
            skipped.update(id(n) for n in ast.walk(node))
    return [n for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
            and id(n) not in skipped]


def english_left(path: Path, exempt: Collection[str] = ()) -> list[str]:
    """Each sentence left in the module at `path`, as "file:line: 'words'"."""
    found = []
    parts = literal_parts(ast.parse(path.read_text(encoding="utf-8")), exempt)
    for node in sorted(parts, key=lambda n: (n.lineno, n.col_offset)):
        text = str(node.value)
        if WORDS.search(text) and not is_command(text):
            found.append(f"{path.name}:{node.lineno}: {text[:60]!r}")
    return found


def modules(area: str) -> list[Path]:
    where = ROOT / area
    return sorted(where.rglob("*.py")) if where.is_dir() else [where]


@pytest.mark.parametrize("area", AREAS)
def test_no_player_visible_english_left(area: str) -> None:
    left = []
    for path in modules(area):
        relative = path.relative_to(ROOT).as_posix()
        exempt = set(ALLOWED.get(relative, {}))
        if EVERY not in exempt:
            left += english_left(path, exempt)
    assert not left, "words a player reads belong in a catalogue:\n" + "\n".join(left)


def test_every_exemption_names_a_module_and_a_name_that_exist() -> None:
    """A renamed module or function would silently drop out of the scan's allow-list: keep them true."""
    for relative, names in ALLOWED.items():
        path = ROOT / relative
        assert path.is_file() and any(relative.startswith(area) for area in AREAS), relative
        defined = {name for name, _ in named(ast.parse(path.read_text(encoding="utf-8")).body)} | {EVERY}
        assert set(names) <= defined, f"{relative}: {set(names) - defined}"
        assert all(names.values()), f"{relative}: every exemption says why"


def test_the_scan_finds_a_sentence_and_skips_docstrings_logs_and_slash_commands(tmp_path: Path) -> None:
    module = tmp_path / "sample.py"
    module.write_text('"""A module."""\nimport logging\nlog = logging.getLogger()\n\n'
                      '@app_commands.describe(name="Whose name to greet")\n'
                      'def f(name: str) -> str:\n    """Says hello."""\n    log.info("said hello to %s", name)\n'
                      '    return f"Hello {name}, your turn."\n\n'
                      'def g() -> str:\n    return "An allowed sentence."\n', encoding="utf-8")
    assert english_left(module, {"g"}) == ["sample.py:9: ', your turn.'"]
    assert english_left(module) == ["sample.py:9: ', your turn.'", "sample.py:12: 'An allowed sentence.'"]


@pytest.mark.parametrize("relative", ["keystone/engine/scoring.py", "keystone/cli/play.py", "cogs/outbox.py"])
def test_a_sentence_planted_in_a_scanned_module_is_found(relative: str, tmp_path: Path) -> None:
    """The areas' own exemptions leave a new sentence in plain sight."""
    planted = tmp_path / Path(relative).name
    planted.write_text((ROOT / relative).read_text(encoding="utf-8") + '\nHINT = "Your turn is over."\n',
                       encoding="utf-8")
    exempt = set(ALLOWED.get(relative, {}))
    assert english_left(planted, exempt) == [f"{planted.name}:{len(planted.read_text().splitlines())}: "
                                             "'Your turn is over.'"]


STORE_UNMAPPED = {"This lobby is full ({MAX_SEATS[record.kind]} seats).":
                  "the service refuses a full lobby itself (lobby.full); only a race reaches the store's"}
"""Store sentences a player could meet that have no message key, and why."""


def store_sentences() -> Iterator[str]:
    """Every sentence the store gives a lobby or status refusal, as written (f-strings with their fields)."""
    for path in sorted((ROOT / "keystone" / "store").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("LobbyError", "WrongStatus"):
                said = node.args[-1]
                yield ast.literal_eval(said) if isinstance(said, ast.Constant) else ast.unparse(said)[2:-1]


def test_every_store_refusal_a_player_can_meet_has_words_in_every_language() -> None:
    english = set(messages("en").values())
    unmapped = {s for s in store_sentences() if s not in english} - set(STORE_UNMAPPED)
    assert not unmapped, "give these a reply.store.* message (misc.po) or say why not:\n" + "\n".join(unmapped)


def test_store_refusals_reach_a_german_player_in_german_and_others_pass_as_they_are() -> None:
    busy = ChannelBusy(7)
    assert error_words(busy, "en") == str(busy)
    assert error_words(busy, "de").startswith("In diesem Kanal gibt es schon ein Spiel")
    assert error_words(GameNotFound(12), "de") == "Es gibt kein Spiel Nummer 12."
    assert error_words(LobbyError("You already have a seat in this lobby."), "de") == (
        "Du hast in dieser Lobby schon einen Platz.")
    corrupt = CorruptGame(4, "its saved state cannot be read")
    assert error_words(corrupt, "en") == str(corrupt)
    assert error_words(corrupt, "de").startswith("Spiel 4 lässt sich nicht sicher laden (its saved state")
    odd = InvalidInput("A day is written YYYY-MM-DD.")
    assert error_words(odd, "de") == str(odd), "a sentence without a message key stays as the store says it"


def test_an_unknown_assignment_is_refused_in_the_askers_language() -> None:
    with pytest.raises(UnknownAssignment) as refused:
        campaign.config_for(99)
    assert str(refused.value) == "There is no assignment 99; the journal has assignments 1 to 20."
    assert error_words(refused.value, "de") == "Es gibt kein Szenario 99; das Forschungstagebuch hat die Szenarien 1 bis 20."


async def test_a_failed_command_check_is_refused_in_the_readers_language() -> None:
    """discord.py words a check failure in English only: an English reader gets its detail, any other
    reader the bot's own sentence."""
    sent: list[str] = []

    async def send_message(text: str, ephemeral: bool) -> None:
        sent.append(text)

    error = app_commands.NoPrivateMessage()
    for locale in ("de", "en-US"):
        response = SimpleNamespace(is_done=lambda: False, send_message=send_message)
        interaction = SimpleNamespace(command=None, user=SimpleNamespace(id=1), locale=locale, response=response)
        await KeystoneTree.on_error(cast(KeystoneTree, None), cast(Any, interaction), error)
    assert sent == [tr("de", "cogs.not_allowed"), str(error)]
