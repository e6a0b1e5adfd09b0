"""The version is written once, in pyproject.toml: `python bot.py --version` prints it, and the
changelog's newest version is it."""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import bot as entry

ROOT = Path(__file__).resolve().parent.parent
CHANGELOG = ROOT / "CHANGELOG.md"
HEADING = re.compile(r"^## \[(?P<version>[^\]]+)\](?: - (?P<date>\d{4}-\d\d-\d\d))?$", re.MULTILINE)
SEMVER = re.compile(r"^\d+\.\d+\.\d+$")


def package_version() -> str:
    with (ROOT / "pyproject.toml").open("rb") as file:
        project = tomllib.load(file)["project"]
    assert project["name"] == entry.DISTRIBUTION
    return str(project["version"])


def changelog_versions() -> list[tuple[str, str | None]]:
    """Each `## [version] - date` heading of the changelog, newest first."""
    return [(m["version"], m["date"]) for m in HEADING.finditer(CHANGELOG.read_text(encoding="utf-8"))]


def test_the_version_is_the_one_in_pyproject() -> None:
    assert SEMVER.match(package_version())
    assert entry.version() == package_version()


def test_python_bot_py_version_prints_it_from_a_checkout(tmp_path: Path) -> None:
    """Run as people run it: `python bot.py` from a checkout, not installed, from any directory."""
    done = subprocess.run([sys.executable, str(ROOT / "bot.py"), "--version"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (0, f"keystone-bot {package_version()}\n", "")


def test_main_answers_version_without_settings(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as stop:
        entry.main(["--version"], env_file=tmp_path / "missing.env")
    assert stop.value.code == 0
    assert capsys.readouterr().out == f"keystone-bot {package_version()}\n"


def test_an_installed_copy_without_pyproject_asks_the_package_metadata(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[str] = []

    def installed(name: str) -> str:
        asked.append(name)
        return "9.8.7"

    monkeypatch.setattr(importlib.metadata, "version", installed)
    assert entry.version(tmp_path / "pyproject.toml") == "9.8.7"
    other = tmp_path / "other.toml"
    other.write_text('[project]\nname = "something-else"\nversion = "1.2.3"\n')
    assert entry.version(other) == "9.8.7"  # another project's file says nothing about this one
    assert asked == ["keystone-bot", "keystone-bot"]


def test_neither_pyproject_nor_metadata_says_unknown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def not_installed(name: str) -> str:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", not_installed)
    assert entry.version(tmp_path / "pyproject.toml") == "unknown"


def test_the_changelog_s_newest_version_is_the_package_version() -> None:
    versions = changelog_versions()
    released = [(version, date) for version, date in versions if version != "Unreleased"]
    assert released, "CHANGELOG.md names no version"
    assert released[0][0] == package_version()


def test_the_changelog_keeps_a_changelog_s_shape() -> None:
    """Unreleased (if any) first, then versions newest first, each with a date, none twice."""
    versions = changelog_versions()
    names = [version for version, _ in versions]
    assert "Unreleased" not in names[1:]
    released = [(version, date) for version, date in versions if version != "Unreleased"]
    assert all(SEMVER.match(version) and date for version, date in released), released
    numbers = [tuple(map(int, version.split("."))) for version, _ in released]
    assert numbers == sorted(set(numbers), reverse=True)
    dates = [date or "" for _, date in released]
    assert dates == sorted(dates, reverse=True)
