"""The art in assets/ is what the drawing code draws now: remade by `python -m keystone render --assets`."""

from __future__ import annotations

import math
import struct
from pathlib import Path

import pytest
from PIL import Image

from keystone.cli.render import main as render_main
from keystone.render.assets import AVATAR_SIZE, avatar, encode, images
from keystone.render.palette import PAGE

ASSETS = Path(__file__).resolve().parent.parent / "assets"
REMAKE = "remake them with `python -m keystone render --assets assets/` and look at them before committing"
MAX_BYTES = 300_000
"""The whole folder: small enough that the repository stays light."""


def same_picture(a: Image.Image, b: Image.Image) -> bool:
    return a.mode == b.mode and a.size == b.size and a.tobytes() == b.tobytes()


def chunks(data: bytes) -> list[bytes]:
    """The chunk types of a PNG file, in order."""
    found, at = [], 8
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        found.append(kind)
        at += 12 + length
    return found


def test_the_committed_files_are_what_the_code_draws() -> None:
    drawn = images()
    kept = {p.relative_to(ASSETS).as_posix() for p in ASSETS.rglob("*.png")}
    assert kept == set(drawn), f"assets/ and the drawing code list different files; {REMAKE}"
    for name, image in drawn.items():
        with Image.open(ASSETS / name) as committed:
            committed.load()
            assert same_picture(committed, image), f"assets/{name} is not what the code draws now; {REMAKE}"


def test_a_file_carries_no_time_or_text_so_the_same_drawing_gives_the_same_bytes() -> None:
    for image in images().values():
        data = encode(image)
        assert data == encode(image)
        assert set(chunks(data)) <= {b"IHDR", b"PLTE", b"tRNS", b"IDAT", b"IEND"}


def test_the_folder_stays_small_and_every_file_is_explained() -> None:
    files = [p for p in ASSETS.rglob("*") if p.is_file()]
    assert sum(p.stat().st_size for p in files) < MAX_BYTES
    readme = (ASSETS / "README.md").read_text(encoding="utf-8")
    for name in images():
        stem = name.split("/")[-1].removesuffix(".png")
        assert name in readme or stem in readme, f"assets/README.md does not mention {name}"


def test_the_avatar_keeps_its_drawing_inside_the_circle_discord_shows() -> None:
    """Discord crops an avatar to a circle: only the plain page colour may touch that circle's edge."""
    picture = avatar()
    assert picture.size == (AVATAR_SIZE, AVATAR_SIZE)
    centre = AVATAR_SIZE / 2
    pixels = picture.load()
    assert pixels is not None
    for step in range(720):
        angle = 2 * math.pi * step / 720
        for fraction in (0.445, 0.455):
            x = round(centre + fraction * AVATAR_SIZE * math.cos(angle))
            y = round(centre + fraction * AVATAR_SIZE * math.sin(angle))
            assert pixels[x, y] == PAGE, (x, y)


def test_render_assets_writes_every_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert render_main(["--assets", str(tmp_path / "out")]) == 0
    written = capsys.readouterr().out.split()
    drawn = images()
    assert sorted(written) == sorted(str(tmp_path / "out" / name) for name in drawn)
    for name, image in drawn.items():
        assert (tmp_path / "out" / name).read_bytes() == encode(image)


def test_render_assets_refuses_a_file_in_the_way(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "assets"
    blocker.write_text("not a folder", encoding="utf-8")
    assert render_main(["--assets", str(blocker)]) == 2
    assert capsys.readouterr().err == f"{blocker} exists and is not a folder.\n"
    (tmp_path / "icons").write_text("in the way", encoding="utf-8")
    assert render_main(["--assets", str(tmp_path)]) == 2
    assert capsys.readouterr().err.startswith(f"Cannot write the assets into {tmp_path}: ")
