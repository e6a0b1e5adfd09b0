"""`python -m keystone replay SAVE OUT.gif`: the animated replay of a finished saved game, the same
picture the bot posts; bad input is one sentence on standard error and exit status 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from keystone.app.replays import replay_file
from keystone.cli import replay
from keystone.cli.gamefile import BadGameFile, SavedGame, write_game
from keystone.cli.simulate import bot_game
from keystone.engine import new_game
from keystone.render.replay import ReplayTooLarge
from tests.render_helpers import frame_count
from tests.test_cli_errors import keystone


def saved(tmp_path: Path, *, finish: bool = True) -> tuple[Path, SavedGame]:
    """A game two easy bots played, saved as `play --save` saves it (whole, or stopped early)."""
    end, log, _ = bot_game(8, ["easy", "easy"], check=False)
    moves = log if finish else log[:20]
    game = SavedGame(seed=end.seed, config=end.config, names=[s.name for s in end.seats], bots=["easy", "easy"],
                     moves=moves)
    path = tmp_path / "game.json"
    write_game(path, game)
    return path, game


def refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert replay.main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.endswith(".\n")
    return err


def test_a_finished_saved_game_becomes_the_same_animation_the_bot_posts(tmp_path: Path) -> None:
    path, game = saved(tmp_path)
    out = tmp_path / "replay.gif"
    done = keystone("replay", str(path), str(out))
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout == f"Wrote {out} ({out.stat().st_size // 1024} KB).\n"
    start = new_game(game.config, game.seed, game.names)
    assert out.read_bytes() == replay_file(start, game.moves)[1]
    assert frame_count(out.read_bytes()) > 2 and Image.open(out).width == 800
    assert not list(tmp_path.glob("*.partial"))


def test_a_missing_file_or_a_corrupt_save_is_one_sentence(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = str(tmp_path / "r.gif")
    missing = tmp_path / "nowhere.json"
    assert refused([str(missing), out], capsys) == f"Cannot read {missing}: No such file or directory.\n"
    corrupt = tmp_path / "corrupt.json"
    corrupt.write_text('{"seed": 1, "moves": [', encoding="utf-8")
    assert refused([str(corrupt), out], capsys).startswith(f"{corrupt} is not a saved Keystone game (")
    path, game = saved(tmp_path)
    tampered = game.model_copy(update={"moves": [*game.moves[:4], "take 9 Z9", *game.moves[4:]]})
    write_game(path, tampered)
    assert refused([str(path), out], capsys).startswith(f"The game in {path} cannot be replayed: ")
    assert not (tmp_path / "r.gif").exists()


def test_an_unfinished_game_has_no_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, _ = saved(tmp_path, finish=False)
    said = refused([str(path), str(tmp_path / "r.gif")], capsys)
    assert said == f"The game in {path} has not finished, so there is nothing to replay yet.\n"


def test_the_output_must_be_a_gif_in_a_folder_that_exists(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    path, _ = saved(tmp_path)
    assert "should end in .gif" in refused([str(path), str(tmp_path / "r.webp")], capsys)
    assert "is not a file in a folder that exists" in refused([str(path), str(tmp_path / "no" / "r.gif")], capsys)


def test_asked_in_german_the_refusals_are_german(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = str(tmp_path / "r.gif")
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe")
    assert refused([str(binary), out, "--lang", "de"], capsys) == (
        f"{binary} lässt sich nicht lesen: Das ist keine Textdatei.\n")
    path, game = saved(tmp_path, finish=False)
    assert refused([str(path), out, "--lang", "de"], capsys) == (
        f"Das Spiel in {path} ist noch nicht zu Ende, also gibt es noch nichts wiederzugeben.\n")
    assert refused([str(path), str(tmp_path / "r.png"), "--lang", "de"], capsys).startswith(
        "Die Wiedergabe ist ein animiertes GIF, also sollte")
    tampered = game.model_copy(update={"moves": [*game.moves[:4], "take 9 A1"]})
    with pytest.raises(BadGameFile) as bad:
        tampered.replay()
    assert str(bad.value).startswith("Move 5 ('take 9 A1') cannot be played: ")
    assert bad.value.sentence("de").startswith("Zug 5 ('take 9 A1') lässt sich nicht spielen: ")
    english_why, german_why = (bad.value.sentence(lang).split(": ", 1)[1] for lang in ("en", "de"))
    assert german_why != english_why, "the move's own refusal is said in German too"
    assert ReplayTooLarge(9).sentence("de") == "Die Wiedergabe wäre 9 MB groß, mehr als Discord annimmt."


def test_asked_in_german_the_gif_is_german_and_argparse_speaks_german(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    path, game = saved(tmp_path)
    out = tmp_path / "replay.gif"
    assert replay.main([str(path), str(out), "--lang", "de"]) == 0
    start = new_game(game.config, game.seed, game.names)
    assert out.read_bytes() == replay_file(start, game.moves, lang="de")[1]
    assert out.read_bytes() != replay_file(start, game.moves)[1], "the German GIF differs from the English one"
    assert capsys.readouterr().out.startswith(f"{out} geschrieben")
    assert refused(["--lang", "de"], capsys).startswith("Diese Argumente fehlen: SAVE, OUT.gif (Aufruf: ")
    assert refused([str(path), str(out), "--lang", "de", "--bogus"], capsys).startswith(
        "Unbekannte Argumente: --bogus (Aufruf: ")
    assert replay.main(["--lang", "de", "-h"]) == 0
    german_help = capsys.readouterr().out
    assert german_help.startswith("Aufruf: ") and "\nOptionen:\n" in german_help and "usage" not in german_help
    assert replay.main(["-h"]) == 0
    english_help = capsys.readouterr().out
    assert english_help.startswith("usage: ") and "\noptions:\n" in english_help
