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
from keystone.data import load_catalog

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
    # Objective 1, goal A: an L of Spring cards. A1 and B1 are Spring; the Forest Wild at A2 decides.
    def board(a2: str) -> dict[str, Any]:
        rows = [["wild:wetland:spring", a2, "American Red Squirrel", None], ["Black Willow", None, None, None]]
        return {"board": rows + [[None] * 4] * 2, "objective": 1}

    code, seasonless, _ = run(board("wild:forest"), capsys, monkeypatch)
    assert (code, seasonless["goals"]) == (0, 0)
    code, spring, _ = run(board("wild:forest:spring"), capsys, monkeypatch)
    assert (code, spring["goals"], spring["objective"]) == (0, 1, 5)
    assert seasonless["rows"] == spring["rows"] and seasonless["rows"][0] == 2


def test_a_wild_card_must_be_in_the_stock(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    def board(*cells: Any) -> dict[str, Any]:
        return {"board": [[*cells, *[None] * (4 - len(cells))]] + [[None] * 4] * 3}

    code, result, _ = run(board("wild:desert:summer", {"card": "wild:desert", "research": 1}), capsys, monkeypatch)
    assert (code, result["rows"][0]) == (0, 3)
    refusals = {
        "Cell A1: there is no Spring Desert Wild card; the Desert Wild cards are Summer and Winter.": board(
            "wild:desert:spring"
        ),
        "Cell A2: Desert Wild (Summer) is already at A1, and the game has only one of each card.": board(
            "wild:desert:summer", "wild:desert:summer"
        ),
        "Cell A3: the game has only 2 Desert Wild cards, all already placed.": board(
            "wild:desert", "wild:desert:winter", "wild:desert"
        ),
        "Cell A1: Arctic Wild (Fall) can carry at most 1 research token "
        "(skills put research only on unresearched cards), not 2.": board({"card": "wild:arctic:fall", "research": 2}),
    }
    for sentence, data in refusals.items():
        code, out, err = run(data, capsys, monkeypatch)
        assert (code, out, err) == (2, "", sentence + "\n")


def test_a_board_no_game_could_produce_is_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    catalog = load_catalog()
    endangered = next(c.name for c in catalog.species if c.endangered)
    plain = next(c.name for c in catalog.species if not c.endangered)

    def board(*cells: Any, synergy: int = 0) -> dict[str, Any]:
        return {"board": [[*cells, *[None] * (4 - len(cells))]] + [[None] * 4] * 3, "synergy": synergy}

    code, result, _ = run(board({"card": endangered, "research": 2}, synergy=999), capsys, monkeypatch)
    assert (code, result["synergy"]) == (0, 333)
    refusals = {
        f"Cell A1: {plain} can carry at most 1 research token "
        "(skills put research only on unresearched cards), not 2.": board({"card": plain, "research": 2}),
        f"Cell A1: {endangered} can carry at most 2 research tokens "
        "(skills put research only on unresearched cards), not a 31-digit number.": board(
            {"card": endangered, "research": 10**30}
        ),
        "Cell A3: Coyote is already at A1, and the game has only one of each card.": board("Coyote", None, "coyote"),
        '"synergy" must be a whole number from 0 to 999, not 1000.': board(synergy=1000),
    }
    for sentence, data in refusals.items():
        code, out, err = run(data, capsys, monkeypatch)
        assert (code, out, err) == (2, "", sentence + "\n")


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
        (7, 'Expected a board object with a "board" key, or a list of them.'),
        ("null", 'Expected a board object with a "board" key, or a list of them.'),
        ('"Coyote"', 'Expected a board object with a "board" key, or a list of them.'),
        ([[SALLY]], 'Board 1, expected a board object with a "board" key'),
        ({**SALLY, "synergy": True}, '"synergy" must be a whole number from 0 to 999, not true'),
        ({**SALLY, "synergy": 7.0}, '"synergy" must be a whole number from 0 to 999, not 7.0'),
        ({**SALLY, "objective": True}, "no secret objective card true"),
        ({**SALLY, "objective": 0}, "no secret objective card 0; cards are numbered 1 to 10"),
        ({**SALLY, "objective": -3}, "no secret objective card -3"),
        ({**SALLY, "board": [*SALLY["board"], [None] * 4]}, '"board" must be 4 rows'),
        ({**SALLY, "board": [None] * 16}, '"board" must be 4 rows'),
        ({**SALLY, "board": "Coyote"}, '"board" must be 4 rows'),
        ({"board": [[{"card": "Coyote", "research": "1"}, None, None, None]] + [[None] * 4] * 3}, "not '1'"),
        ({"board": [[{"card": ["Coyote"]}, None, None, None]] + [[None] * 4] * 3}, "Cell A1: a cell is null"),
        ({"board": [[None, {"research": 1}, None, None]] + [[None] * 4] * 3}, 'Cell A2: a cell object needs "card"'),
        (
            {"board": [[None, None, None, None]] * 3 + [[None, None, "Coyot", None]]},
            "D3: no card is called 'Coyot'; did you mean 'Coyote'?\n",
        ),
        ('{"board": [], "board": []}', "The key 'board' appears twice in one object."),
        ("", "The input is empty"),
        ("  \n", "The input is empty"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    data: Any, words: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run(data, capsys, monkeypatch)
    assert (code, out) == (2, "")
    assert words in err and err.count("\n") == 1


def test_usage_and_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for argv in ([], ["a.json", "b.json"], ["--colour", "-"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert "usage: python -m keystone score [-h] [--explain] FILE" in err and err.count("\n") == 1
    assert main(["-h"]) == 0 and "--explain" in capsys.readouterr().out
    assert main([str(tmp_path / "nope.json")]) == 2
    assert capsys.readouterr().err == f"Cannot read {tmp_path / 'nope.json'}: no such file or directory.\n"
    assert main([str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"Cannot read {tmp_path}: it is a directory, not a file.\n"


def test_bad_bytes_in_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes(b'{"board": "\xe9t\xe9"}')
    assert main([str(path)]) == 2
    assert capsys.readouterr().err == f"{path} is not UTF-8 text (byte 0xe9 at 11).\n"
    empty = tmp_path / "empty.json"
    empty.write_bytes(b"")
    assert main([str(empty)]) == 2
    assert capsys.readouterr().err == "The input is empty; give a board object or a list of them.\n"


def score_command(data: bytes, *args: str) -> subprocess.CompletedProcess[bytes]:
    """The real command in its own process, fed raw bytes, so a traceback could not hide."""
    return subprocess.run(
        [sys.executable, "-m", "keystone", "score", *args, "-"], input=data, capture_output=True, check=False
    )


@pytest.mark.parametrize(
    ("data", "sentence"),
    [
        (b"[" * 100_000, "The input is nested too deeply to be a board."),
        (b'{"board": ' + b"[" * 5000 + b"]" * 5000 + b"}", "The input is nested too deeply to be a board."),
        (b'{"synergy": ' + b"9" * 4301 + b"}", "A number in the input is too long (4301 digits)."),
        (b'{"board": "\xff"}', "The input is not UTF-8 text (byte 0xff at 11)."),
        (b"", "The input is empty; give a board object or a list of them."),
    ],
)
def test_hostile_input_gets_one_sentence(data: bytes, sentence: str) -> None:
    done = score_command(data)
    assert (done.returncode, done.stdout, done.stderr) == (2, b"", sentence.encode() + b"\n")


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
