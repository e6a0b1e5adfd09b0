"""`python -m keystone score`: the JSON boards in, the result objects out, and refusals."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from keystone.cli.score import main

SALLY: dict[str, Any] = {
    "board": [
        ["American Black Bear", "Saguaro Cactus", "American Bison", {"card": "Mountain Lion", "research": 1}],
        ["Montezuma Bald Cypress", {"card": "Cottontail Rabbit", "research": 1}, "Snail Kite", "Peregrine Falcon"],
        ["Piping Plover", "Coyote", {"card": "Desert Tortoise", "research": 1}, "wild:desert"],
        ["Swallow-Tailed Kite", "Mountain Goat", {"card": "Musk Ox", "research": 1}, "Prairie Fringed Orchid"],
    ],
    "objective": 1,
    "synergy": 7,
}
SALLY_RESULT = {
    "rows": [16, 10, 12, 3],
    "columns": [3, 12, 0, 15],
    "objective": 24,
    "goals": 4,
    "synergy": 2,
    "total": 97,
}


def run(
    data: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *flags: str
) -> tuple[int, Any, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(data if isinstance(data, str) else json.dumps(data)))
    code = main([*flags, "-"])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if code == 0 else out), err


def test_sally_from_standard_input(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, result, err = run(SALLY, capsys, monkeypatch)
    assert (code, err) == (0, "")
    assert result == SALLY_RESULT


def test_list_in_list_out_in_order(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    empty = {"board": [[None] * 4 for _ in range(4)], "synergy": 3}
    code, result, _ = run([empty, SALLY, {"board": SALLY["board"], "rules": "first-edition"}], capsys, monkeypatch)
    assert code == 0 and isinstance(result, list) and len(result) == 3
    assert result[0] == {"rows": [0] * 4, "columns": [0] * 4, "objective": 0, "goals": 0, "synergy": 1, "total": 1}
    assert result[1] == SALLY_RESULT
    assert result[2]["total"] < 97 - 24 - 2


def test_reads_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "board.json"
    path.write_text(json.dumps(SALLY), encoding="utf-8")
    assert main([str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 97


def test_explain_adds_sentences(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, result, _ = run(SALLY, capsys, monkeypatch, "--explain")
    assert code == 0
    assert result["explanation"][0].startswith("Row A: desert ecosystem of Saguaro Cactus A2")
    assert result["explanation"][-1] == "Total: 97 points."


def test_wild_without_a_season_shows_none(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # Objective 1, goal A: an L of Spring cards. A1 and B1 are Spring; A2 decides.
    def board(a2: str) -> dict[str, Any]:
        rows = [["wild:forest:spring", a2, None, None], ["wild:forest:spring", None, None, None]]
        return {"board": rows + [[None] * 4] * 2, "objective": 1}

    code, seasonless, _ = run(board("wild:forest"), capsys, monkeypatch)
    assert (code, seasonless["goals"], seasonless["rows"][0]) == (0, 0, 2)
    code, spring, _ = run(board("wild:forest:spring"), capsys, monkeypatch)
    assert (code, spring["goals"], spring["objective"]) == (0, 1, 5)


def test_any_wild_season_scores(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    rows = [["wild:arctic:summer", {"card": "wild:arctic:spring", "research": 2}, None, None]]
    code, result, _ = run({"board": rows + [[None] * 4] * 3}, capsys, monkeypatch)
    assert (code, result["rows"][0]) == (0, 4)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({**SALLY, "board": [["Dodo"] * 4] * 4}, "Cell A1: no card is called 'Dodo'"),
        ({**SALLY, "board": SALLY["board"][:3]}, '"board" must be 4 rows'),
        ({**SALLY, "board": [*SALLY["board"][:3], ["Coyote"] * 5]}, '"board" must be 4 rows'),
        ({"objective": 1}, '"board" key is missing'),
        ({**SALLY, "colour": "red"}, "Unknown key 'colour'"),
        ([SALLY, 7], "Board 2, expected a board object"),
        ("[1, 2", "not valid JSON"),
        ({"board": [[{"card": None, "research": 1}] * 4] * 4}, "Cell A1: research tokens cannot sit on an empty cell"),
        ({"board": [[{"card": "Coyote", "research": -1}] * 4] * 4}, "research must be a whole number"),
        ({"board": [[{"card": "Coyote", "research": True}] * 4] * 4}, "research must be a whole number"),
        ({"board": [[{"card": "Coyote", "tokens": 1}] * 4] * 4}, 'needs "card"'),
        ({"board": [[3] * 4] * 4}, "a cell is null, a card name"),
        ({"board": [["wild:ocean"] * 4] * 4}, "wild:HABITAT or wild:HABITAT:SEASON"),
        ({"board": [["wild:desert:monsoon"] * 4] * 4}, "wild:HABITAT or wild:HABITAT:SEASON"),
        ({**SALLY, "objective": 11}, "no secret objective card 11"),
        ({**SALLY, "objective": "1"}, "no secret objective card '1'"),
        ({**SALLY, "synergy": -1}, '"synergy" must be a whole number'),
        ({**SALLY, "synergy": "7"}, '"synergy" must be a whole number'),
        ({**SALLY, "rules": "third-edition"}, '"rules" must be'),
        ({**SALLY, "rules": ["first-edition"]}, '"rules" must be'),
    ],
)
def test_bad_input_exits_2_with_one_line(
    data: Any, words: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run(data, capsys, monkeypatch)
    assert (code, out) == (2, "")
    assert words in err and err.count("\n") == 1


def test_usage_and_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2 and "usage" in capsys.readouterr().err
    assert main([str(tmp_path / "nope.json")]) == 2
    err = capsys.readouterr().err
    assert "Cannot read" in err and err.count("\n") == 1


def test_the_real_command_line() -> None:
    ok = subprocess.run(
        [sys.executable, "-m", "keystone", "score", "-"], input=json.dumps([SALLY]), capture_output=True, text=True
    )
    assert (ok.returncode, json.loads(ok.stdout)) == (0, [SALLY_RESULT])
    bad = subprocess.run(
        [sys.executable, "-m", "keystone", "score", "-"],
        input=json.dumps({"board": [["Coyote", "Unicorn", None, None]] + [[None] * 4] * 3}),
        capture_output=True,
        text=True,
    )
    assert (bad.returncode, bad.stdout) == (2, "")
    assert bad.stderr == "Cell A2: no card is called 'Unicorn'.\n"
