"""`play --save FILE` never replaces a file silently, and `play --resume FILE` plays a saved game on
from where it stopped (saving it to the same file unless told otherwise), in English and German."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from keystone.cli.gamefile import read_game
from keystone.cli.play import main
from keystone.engine import GameConfig, dump_state, new_game
from keystone.engine.results import final_scores
from tests.test_play_cli import scripted_game, totals

NAMES = ["Zoë Ångström", "Дмитрий"]


def run(argv: list[str], lines: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    code = main(argv, stdin=io.StringIO("".join(f"{line}\n" for line in lines)), stdout=out)
    return code, out.getvalue()


def untouched(path: Path) -> tuple[bytes, int]:
    return path.read_bytes(), path.stat().st_mtime_ns


def a_saved_game(path: Path) -> None:
    """Zoë and Dmitry's hot-seat game, one move in, saved and left."""
    code, _ = run(["--hotseat", "2", "--seed", "5", "--names", ",".join(NAMES), "--save", str(path)],
                  ["", "take 6 A1"])
    assert code == 0


def refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    code, output = run(argv, ["", "take 6 A1", "quit"])
    assert code == 2 and output == ""
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    return err


def test_save_refuses_to_replace_an_existing_file_without_force(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    saved = tmp_path / "Partie von Zoë – 東京.json"
    a_saved_game(saved)
    before = untouched(saved)
    argv = ["--hotseat", "2", "--seed", "9", "--names", ",".join(NAMES), "--save", str(saved)]
    assert refused(argv, capsys) == (f"{saved} already holds a saved game; continue it with --resume {saved}, "
                                     "or add --force to replace it.\n")
    assert refused([*argv, "--lang", "de"], capsys) == (
        f"In {saved} ist schon ein Spiel gespeichert; setze es mit --resume {saved} fort oder ersetze es "
        "mit --force.\n")
    notes = tmp_path / "Einkaufsliste.txt"
    notes.write_text("Äpfel, Birnen, 🍐\n", encoding="utf-8")
    kept = untouched(notes)
    assert refused(["--vs", "easy", "--save", str(notes)], capsys) == (
        f"{notes} already exists and is not a saved game; add --force to replace it.\n")
    assert untouched(saved) == before and untouched(notes) == kept
    code, output = run([*argv, "--force"], ["", "take 6 A1", "quit"])
    assert code == 0 and read_game(saved).seed == 9, "--force replaces it"


def test_force_needs_save(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--vs", "easy", "--force"], stdin=io.StringIO(""), stdout=io.StringIO()) == 2
    assert capsys.readouterr().err.startswith("--force only says that --save may replace a file, so it needs --save")


def test_a_stopped_hot_seat_game_is_resumed_mid_turn_and_played_to_the_end(tmp_path: Path) -> None:
    typed, final = scripted_game(12, NAMES, {})
    saved = tmp_path / "spiel.json"
    # stop inside the fourth turn, after its first move: the resumed game goes on from that very step
    cut = [i for i, line in enumerate(typed) if line == ""][3] + 2
    assert typed[cut] != "", "the cut falls inside a turn"
    code, first = run(["--hotseat", "2", "--seed", "12", "--names", ",".join(NAMES), "--save", str(saved)],
                      typed[:cut])
    assert code == 0 and first.rstrip().endswith(f"Game left. It is saved in {saved}; `python -m keystone play "
                                                 f"--replay {saved}` shows it.")
    moves = len([t for t in typed[:cut] if t])
    code, output = run(["--resume", str(saved)], ["", *typed[cut:]])
    assert code == 0
    assert output.startswith(f"Resumed {saved}: Zoë Ångström, Дмитрий, seed 12, {moves} moves.\n")
    assert output.split("\n", 1)[1].lstrip("\n").startswith("Pass the keyboard to"), "the person to act confirms first"
    assert json.loads(saved.read_text(encoding="utf-8"))["moves"] == [t for t in typed if t]
    assert dump_state(read_game(saved).replay()) == dump_state(final)
    assert totals(output) == [s.total for s in final_scores(final)]
    assert output.rstrip().endswith(f"The game is saved in {saved}; `python -m keystone play --replay {saved}` "
                                    "shows it again.")


def test_a_game_against_a_bot_resumes_with_its_bot_and_can_take_back_and_save_elsewhere(tmp_path: Path) -> None:
    state = new_game(GameConfig(players=2), 9, ["Ана", "Easy bot"])
    skill = state.skills[0].number
    saved, elsewhere = tmp_path / "ана.json", tmp_path / "weiter.json"
    code, _ = run(["--vs", "easy", "--seed", "9", "--names", "Ана", "--save", str(saved)], [f"skill {skill}"])
    assert code == 0
    before = saved.read_bytes()
    code, output = run(["--resume", str(saved), "--save", str(elsewhere), "--lang", "de"], ["undo", "quit"])
    assert code == 0
    assert output.startswith(f"{saved} fortgesetzt: Ана, Easy bot, Startwert 9, 1 Zug.\n")
    assert "Zurückgenommen: Ана nutzt" in output
    assert saved.read_bytes() == before, "told to save elsewhere, the first file stays as it was"
    assert read_game(elsewhere).moves == [f"skill {skill}", "undo"] and read_game(elsewhere).bots == [None, "easy"]


def test_a_corrupt_foreign_missing_or_finished_file_is_one_sentence(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    cut = tmp_path / "abgeschnitten.json"
    cut.write_text('{"seed": 5, "config": {"players": 2}, "names": ["Zoë", "Дми', encoding="utf-8")
    foreign = tmp_path / "package.json"
    foreign.write_text('{"name": "ёлка", "version": "1.0.0"}', encoding="utf-8")
    picture = tmp_path / "bild.json"
    picture.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe")
    for path, said in ((cut, f"{cut} is not a saved Keystone game ("), (foreign, f"{foreign} is not a saved "
                       "Keystone game ("), (picture, f"Cannot read {picture}: it is not a text file."),
                       (tmp_path / "nie.json", f"Cannot read {tmp_path / 'nie.json'}: No such file or directory.")):
        before = path.read_bytes() if path.exists() else None
        assert refused(["--resume", str(path)], capsys).startswith(said)
        assert (path.read_bytes() if path.exists() else None) == before
    assert refused(["--resume", str(foreign), "--lang", "de"], capsys).startswith(
        f"{foreign} ist kein gespeichertes Keystone-Spiel (")
    typed, _ = scripted_game(30, ["Player 1", "Easy bot"], {1: "easy"})
    over = tmp_path / "fertig.json"
    assert run(["--vs", "easy", "--seed", "30", "--save", str(over)], typed)[0] == 0
    assert refused(["--resume", str(over)], capsys) == (
        f"The game in {over} is over, so there is nothing left to play; `python -m keystone play --replay "
        f"{over}` shows it.\n")
    assert refused(["--resume", str(over), "--lang", "de"], capsys) == (
        f"Das Spiel in {over} ist zu Ende, es bleibt nichts zu spielen; `python -m keystone play --replay "
        f"{over}` zeigt es.\n")


def test_resume_takes_no_options_that_would_change_the_saved_game(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    saved = tmp_path / "game.json"
    a_saved_game(saved)
    assert main(["--resume", str(saved), "--seed", "3", "--vs", "hard"], stdout=io.StringIO()) == 2
    assert capsys.readouterr().err.startswith(
        "--resume plays the saved game on as it was set up, so it cannot take --vs, --seed")
    assert main(["--resume", str(saved), "--replay", str(saved)], stdout=io.StringIO()) == 2
    assert capsys.readouterr().err.startswith("--replay shows a saved game as it was played, so it cannot take "
                                              "--resume")
