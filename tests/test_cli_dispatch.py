"""`python -m keystone`: the command table, its usage text and its exit statuses."""

from __future__ import annotations

import importlib
import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import keystone.cli
from keystone.__main__ import COMMANDS

ROOT = Path(__file__).resolve().parent.parent


def keystone_command(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "keystone", *argv], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)


def test_every_command_module_is_in_the_table() -> None:
    modules = {m.name for m in pkgutil.iter_modules(keystone.cli.__path__)}
    with_main = {name for name in modules if hasattr(importlib.import_module(f"keystone.cli.{name}"), "main")}
    assert with_main == set(COMMANDS)


@pytest.mark.parametrize("argv", [(), ("help",), ("-h",), ("--help",)])
def test_help_lists_every_command_and_succeeds(argv: tuple[str, ...]) -> None:
    done = keystone_command(*argv)
    assert (done.returncode, done.stderr) == (0, "")
    lines = done.stdout.splitlines()
    assert lines[0] == "usage: python -m keystone COMMAND [options]"
    assert [line.split()[0] for line in lines[2:]] == list(COMMANDS)


def test_an_unknown_command_is_one_sentence_and_status_2() -> None:
    done = keystone_command("nope")
    assert (done.returncode, done.stderr) == (2, "Unknown command 'nope'.\n")
    assert done.stdout.startswith("usage: python -m keystone COMMAND [options]")


def test_a_command_gets_the_arguments_after_its_name() -> None:
    done = keystone_command("objectives", "--json")
    assert done.returncode == 0 and len(json.loads(done.stdout)) == 10  # without --json it is a table


def test_the_command_list_speaks_german_when_asked(capsys: pytest.CaptureFixture[str]) -> None:
    from keystone.__main__ import main

    assert main(["--lang", "de"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Aufruf: python -m keystone BEFEHL [Optionen]"
    assert [line.split()[0] for line in lines[2:]] == list(COMMANDS)
    assert "Ein Spiel im Terminal spielen" in lines[2 + list(COMMANDS).index("play")]
    assert main(["--lang", "de", "tanz"]) == 2
    assert capsys.readouterr().err == "Unbekannter Befehl 'tanz'.\n"
