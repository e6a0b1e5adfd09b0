"""Replay speed and size: rebuild a finished game from seed and log, draw every frame and encode
the animated GIF that `/keystone replay` posts.

Targets: a four-player game (easy bots fill their boards as people do) under 4 MB (Discord's limit
is 8 MB) and under 10 s of wall-clock time on a busy machine; the cpu column is this process's own
time. Also shown for comparison: the same frames through Pillow's own GIF, APNG and lossless WebP
encoders (sizes and times). GIF is the format because Discord animates it in every client; it
shows only the first frame of an APNG.
Run: python bench/bench_replay.py [--formats]
"""

from __future__ import annotations

import io
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image

from keystone.app.replays import final_words, rebuild, replay_file
from keystone.cli.simulate import bot_game
from keystone.engine import GameState, new_game
from keystone.render import warm_up
from keystone.render.encode import shared_palette
from keystone.render.replay import AIM_BYTES, durations, final_image, frame_image

SEED = 5
TARGET_S = 10.0


def game(players: int) -> tuple[GameState, list[str], GameState]:
    end, log, _ = bot_game(SEED, ["easy"] * players, check=False)
    return new_game(end.config, end.seed, [s.name for s in end.seats]), log, end


def timed(work: Callable[[], bytes]) -> tuple[bytes, float, float]:
    """The result, and the wall and cpu seconds it took."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = work()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def replay(players: int) -> None:
    start, log, end = game(players)
    frames = len(rebuild(start, log).frames) + 1
    data, wall, cpu = timed(lambda: replay_file(start, log, expected=end)[1])
    verdict = "ok" if len(data) <= AIM_BYTES and wall <= TARGET_S else "OVER TARGET"
    print(f"{players} players: {frames} frames, {len(data) / 1024:5.0f} KB, {wall:5.2f} s wall, {cpu:5.2f} s cpu  "
          f"{verdict}")


def formats(players: int) -> None:
    """The same frames through Pillow's encoders (every frame held in memory, as they require)."""
    start, log, _ = game(players)
    built = rebuild(start, log)
    count = len(built.frames) + 1
    pictures = [frame_image(f, i + 1, count) for i, f in enumerate(built.frames)]
    pictures.append(final_image(built.final, count, final_words(built.final)))
    indexed = [p.quantize(palette=shared_palette(), dither=Image.Dither.NONE) for p in pictures]
    shown = durations(count)
    choices: dict[str, tuple[list[Image.Image], dict[str, object]]] = {
        "Pillow GIF": (indexed, {"format": "GIF"}),
        "Pillow APNG": (indexed, {"format": "PNG", "compress_level": 6}),
        "WebP lossless": (pictures, {"format": "WEBP", "lossless": True, "quality": 0, "method": 1}),
    }
    for name, (images, options) in choices.items():
        out = io.BytesIO()

        def encode(images: list[Image.Image] = images, options: dict[str, object] = options,
                   out: io.BytesIO = out) -> bytes:
            images[0].save(out, save_all=True, append_images=images[1:], duration=shown, loop=0, **options)
            return out.getvalue()

        data, wall, cpu = timed(encode)
        print(f"  {name:<14} {len(data) / 1024:7.0f} KB, {wall:5.2f} s wall, {cpu:5.2f} s cpu (encoding only)")


def main() -> None:
    print(f"replay of a finished game (easy bots, seed {SEED}); {os.cpu_count()} cores")
    warm_up()
    for players in (2, 4):
        replay(players)
    if "--formats" in sys.argv:
        print("other encoders, 4 players:")
        formats(4)


if __name__ == "__main__":
    main()
