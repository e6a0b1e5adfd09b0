"""Bad options to `python -m keystone` commands: one sentence on stderr and exit status 2, no traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def keystone(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "keystone", *argv], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)


@pytest.mark.parametrize("games", ["-3", "0", "many"])
def test_simulate_refuses_a_game_count_below_one(games: str) -> None:
    done = keystone("simulate", "--games", games)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines()[-1].endswith(f"argument --games: {games!r} is not a whole number of at least 1")
    assert "Traceback" not in done.stderr


def test_render_demo_refuses_a_file_or_a_folder_it_cannot_create(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    for target, said in ((blocker, f"{blocker} exists and is not a folder."),
                         (blocker / "inside", f"Cannot write the gallery into {blocker / 'inside'}: ")):
        done = keystone("render", "--demo", str(target))
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.startswith(said) and done.stderr.count("\n") == 1
