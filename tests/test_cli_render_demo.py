"""`python -m keystone render --demo DIR` draws every picture the bot posts: the hand of drawn cards,
the secret objective and the animated replay too, in English or, with `--lang de`, in German."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from keystone.cli.render import main
from tests.render_helpers import frame_count

EVERY_PICTURE = ("board-empty.png", "board-full.png", "board-end.png", "table-start.png", "table-late.png",
                 "turn-late.png", "scoresheet.png", "cards.png", "hand.png", "objective.png", "replay.gif")


def test_the_gallery_draws_the_hand_the_objective_and_the_replay_in_both_languages(tmp_path: Path) -> None:
    english, german = tmp_path / "en", tmp_path / "de"
    assert main(["--demo", str(english)]) == 0 and main(["--demo", str(german), "--lang", "de"]) == 0
    for folder in (english, german):
        names = {p.name for p in folder.iterdir()}
        assert set(EVERY_PICTURE) <= names, set(EVERY_PICTURE) - names
        for name in ("hand.png", "objective.png", "board-empty.png", "board-full.png", "board-end.png",
                     "scoresheet.png"):
            with Image.open(folder / name) as picture:
                assert picture.format == "PNG" and picture.width / picture.height >= 1.45, (name, picture.size)
                assert min(550 / picture.width, 350 / picture.height) >= 0.5, (name, picture.size)
        assert frame_count((folder / "replay.gif").read_bytes()) > 2
    for name in ("hand.png", "objective.png", "replay.gif"):
        assert (english / name).read_bytes() != (german / name).read_bytes(), f"{name} is drawn in German too"
