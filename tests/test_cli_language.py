"""`python -m keystone render` and `simulate` speak the language `--lang` asks for, as `play` and
`replay` do: their help, their refusals, what they report, and (render) every picture's words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from keystone.cli import render, simulate
from keystone.render import fonts


def test_simulate_reports_and_names_its_seats_in_german(capsys: pytest.CaptureFixture[str]) -> None:
    assert simulate.main(["--games", "2", "--seed", "1749", "--lang", "de"]) == 0
    german = json.loads(capsys.readouterr().out)
    assert german["summary"] == "2 Spiele gespielt, 2 beendet; Verstöße gegen Invarianten: 0."
    assert simulate.main(["--games", "1", "--seed", "1749"]) == 0
    assert json.loads(capsys.readouterr().out)["summary"] == "1 game played, 1 finished; invariant violations: 0."
    state, _, problems = simulate.random_game(1749, 3, lang="de")
    assert [seat.name for seat in state.seats] == ["Platz 1", "Platz 2", "Platz 3"] and problems == []


def test_simulate_helps_and_refuses_in_german(capsys: pytest.CaptureFixture[str]) -> None:
    assert simulate.main(["-h", "--lang", "de"]) == 0
    shown = capsys.readouterr().out
    assert shown.startswith("Aufruf: python -m keystone simulate") and "Startwert des ersten Spiels" in shown
    assert simulate.main(["--vs", "easy", "--players", "1", "--lang", "de"]) == 2
    assert capsys.readouterr().err.startswith("--vs braucht mindestens 2 Spielende (")


def test_render_helps_and_refuses_in_german(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert render.main(["-h", "--lang", "de"]) == 0
    shown = capsys.readouterr().out
    assert "--demo ORDNER" in shown and "eine Galerie aller Bilder nach ORDNER schreiben" in shown
    assert render.main(["--assets", str(tmp_path), "--seed", "3", "--lang", "de"]) == 2
    assert capsys.readouterr().err.startswith("--seed wählt das Vorführspiel, gehört also nur zu --demo (")
    blocker = tmp_path / "Ablage-Zoë-🦫.txt"
    blocker.write_text("kein Ordner", encoding="utf-8")
    assert render.main(["--demo", str(blocker), "--lang", "de"]) == 2
    assert capsys.readouterr().err == f"{blocker} gibt es schon, und es ist kein Ordner.\n"
    assert render.main(["--demo", str(blocker / "darin"), "--lang", "de"]) == 2
    assert capsys.readouterr().err.startswith(f"Die Galerie lässt sich nicht nach {blocker / 'darin'} schreiben: ")


def test_the_german_gallery_draws_and_writes_german_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Drawn words are recorded even when their masks are cached, so the caches stay as they are."""
    with fonts.record_texts() as record:
        assert render.main(["--demo", str(tmp_path), "--seed", "1749", "--lang", "de"]) == 0
    drawn = {d.text for d in record.drawn}
    assert {"Die Auslage", "Zeit"} <= drawn and not {"The Field", "Time"} & drawn
    assert "Eicheln" in (tmp_path / "board-full.txt").read_text(encoding="utf-8")
    assert str(tmp_path / "board-full.png") in capsys.readouterr().out.splitlines()
