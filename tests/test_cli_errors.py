"""Bad options to `python -m keystone` commands: one sentence on stderr and exit status 2, no traceback."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from keystone.__main__ import COMMANDS

ROOT = Path(__file__).resolve().parent.parent


def keystone(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "keystone", *argv], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)


@pytest.mark.parametrize("games", ["-3", "0", "many"])
def test_simulate_refuses_a_game_count_below_one(games: str) -> None:
    done = keystone("simulate", "--games", games)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (f"Argument --games: {games!r} is not a whole number of at least 1 "
                           "(`python -m keystone simulate -h` lists the options).\n")


def test_render_demo_refuses_a_file_or_a_folder_it_cannot_create(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    for target, said in ((blocker, f"{blocker} exists and is not a folder."),
                         (blocker / "inside", f"Cannot write the gallery into {blocker / 'inside'}: ")):
        done = keystone("render", "--demo", str(target))
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.startswith(said) and done.stderr.count("\n") == 1


MISTAKES = {
    "cards": ["--xml"],
    "objectives": ["extra"],
    "simulate": ["--players", "5"],
    "score": ["a.json", "b.json"],
    "render": ["--demo", "a", "--assets", "b"],
    "play": ["--budget", "0"],
    "replay": ["game.json"],
    "store": ["copy", "only-one.db"],
    "words": ["--lang", "fr"],
    "learn": ["--colour", "red"],
}


def command_main(name: str, argv: list[str]) -> int:
    result: int = importlib.import_module(f"keystone.cli.{name}").main(argv)
    return result


def test_every_command_is_checked() -> None:
    assert set(MISTAKES) == set(COMMANDS)


@pytest.mark.parametrize("name", sorted(MISTAKES))
def test_a_usage_mistake_is_one_line_and_status_2(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert command_main(name, MISTAKES[name]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.endswith(").\n")
    assert f"python -m keystone {name}" in err and err[0].isupper()


@pytest.mark.parametrize("name", sorted(MISTAKES))
def test_help_is_printed_with_status_0(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert command_main(name, ["-h"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith(f"usage: python -m keystone {name} ") and err == ""


def test_a_long_usage_is_pointed_at_not_repeated(capsys: pytest.CaptureFixture[str]) -> None:
    assert command_main("play", ["--vs", "nobody"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("Argument --vs/--bot: invalid choice: 'nobody' (choose from ")
    assert err.endswith(") (`python -m keystone play -h` lists the options).\n") and err.count("\n") == 1
