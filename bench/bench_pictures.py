"""The pictures side by side: this code tree against older ones (`--baseline DIR`, `--tree LABEL=DIR`),
in one run.

Each tree is measured in a subprocess of its own that imports `keystone` from that tree, on the
same fixed views built by that tree's engine from the same seeds: a two-player game late (the
demo game at four fifths), a four-player game late (random legal moves, seed 5, at four fifths),
and the two-player game's end for the score sheet. For each picture: median and p95 of the wall
time and of this process's CPU time for a whole picture as posted (draw + encode), its bytes and
its size in px. "turn 4p new words" draws the four-player turn with names never drawn before, each
time: every word of its column is new, as for the first picture of a game (a bot with many games
draws many). "turn 4p draw" and "turn 4p encode" split the turn picture the old way: drawn whole in
RGB (`render_turn_image`), then mapped whole onto the palette and written (`encode.png`); the posted
turn picture (`render_turn`) maps only what it draws afresh, so it costs less than their sum. The
trees take turns, `--rounds` times, so all suffer alike from whatever else shares the cores; the CPU
column is the fairer one on a busy machine.

`--encoders DIR` instead times the encoders on the PNG pictures in DIR (the demo gallery:
`python -m keystone render --demo DIR`): each picture is decoded to RGB, then quantized and encoded
as it would be posted. `--memory` fills the render caches as a long-running bot would and reports
what they hold.
Run: python bench/bench_pictures.py --baseline /tmp/ks-baseline [--tree before=DIR] [--runs 30] [--rounds 3]
[--extra-path DIR]
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import json
import os
import statistics
import struct
import subprocess
import sys
import time
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
NOW = HERE.parent.parent

Sample = dict[str, Any]


# --------------------------------------------------------------------------- the worker (one code tree)


def _late(players: int, seed: int) -> tuple[Any, Any]:
    """A game of random legal moves to its end: the view at four fifths and the final view."""
    import random

    from keystone.engine import GameConfig, apply, is_over, legal_actions, new_game, public_view

    rng = random.Random(seed)
    names = ["Ana", "Bo", "Cy", "Dee"][:players]
    state = new_game(GameConfig(players=players, skills=[1, 2, 3, 4, 9]), seed, names)
    history = [state]
    while not is_over(state):
        state, _ = apply(state, rng.choice(legal_actions(state)))
        history.append(state)
    return public_view(history[len(history) * 4 // 5]), public_view(history[-1])


def _time(work: Callable[[], object], runs: int) -> tuple[list[float], list[float]]:
    wall, cpu = [], []
    for _ in range(runs):
        started, started_cpu = time.perf_counter(), time.process_time()
        work()
        wall.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
    return wall, cpu


def worker(runs: int) -> None:
    """Measure the tree `keystone` is imported from; print one JSON line."""
    from PIL import Image

    import keystone
    from keystone.cli.render import play_demo, sheets_for
    from keystone.engine import public_view
    from keystone.render import encode, render_board, render_scoresheet, render_table, render_turn, warm_up

    try:
        from keystone.render.turn import render_turn_image
    except ImportError:  # an older tree: the turn picture was drawn in table.py
        from keystone.render.table import render_turn_image  # type: ignore[attr-defined,no-redef]

    warm_up()
    more = getattr(keystone.render, "warm_up_more", None)  # an older tree warms up in one go
    if more is not None:
        more()
    history = play_demo(7)
    late2 = public_view(history[len(history) * 4 // 5])
    end2 = public_view(history[-1])
    late4, _ = _late(4, 5)
    sheets = sheets_for(end2)
    fresh = iter(range(10**9))

    def renamed(view: Any) -> Any:
        """`view` with names never drawn before: the column's words all new, as in a bot's many games."""
        k = next(fresh)
        return dataclasses.replace(view, seats=tuple(dataclasses.replace(seat, name=f"{seat.name} {k}")
                                                     for seat in view.seats))

    cases: dict[str, Callable[[], bytes]] = {
        "turn 2p late": lambda: render_turn(late2, late2.current),
        "turn 4p late": lambda: render_turn(late4, (late4.current - 1) % len(late4.seats)),
        "turn 4p new words": lambda: render_turn(renamed(late4), (late4.current - 1) % len(late4.seats)),
        "table 2p late": lambda: render_table(late2),
        "board 2p late": lambda: render_board(late2, late2.current),
        "scoresheet 2p end": lambda: render_scoresheet(end2, sheets),
    }
    out: dict[str, Any] = {"tree": str(Path(keystone.__file__).parent.parent),
                              "views": [late2.turn, late4.turn, end2.turn]}
    for name, work in cases.items():
        data = work()
        work()
        wall, cpu = _time(work, runs)
        size = Image.open(io.BytesIO(data)).size
        out[name] = {"wall": wall, "cpu": cpu, "bytes": len(data), "px": list(size),
                     "deterministic": work() == data or "new words" in name}
    drawn = render_turn_image(late4, (late4.current - 1) % len(late4.seats))
    out["turn 4p draw"] = dict(zip(("wall", "cpu"), _time(
        lambda: render_turn_image(late4, (late4.current - 1) % len(late4.seats)), runs), strict=True))
    out["turn 4p encode"] = dict(zip(("wall", "cpu"), _time(lambda: encode.png(drawn), runs), strict=True))
    print(json.dumps(out))


# --------------------------------------------------------------------------- side by side


def _run(tree: Path, runs: int, extra: Path | None = None) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(tree) + ("" if extra is None else os.pathsep + str(extra))}
    done = subprocess.run([sys.executable, str(HERE), "--worker", "--runs", str(runs)], cwd=tree, env=env,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"measuring {tree} failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) > 1 else values[0]


def _cell(sample: Sample | None) -> str:
    if sample is None:
        return f"{'-':>34}"
    text = (f"{statistics.median(sample['cpu']):5.1f} {_p95(sample['cpu']):5.1f} "
            f"{statistics.median(sample['wall']):5.1f} {_p95(sample['wall']):5.1f}")
    if "bytes" in sample:
        text += f" {sample['bytes'] / 1024:5.0f}K {sample['px'][0]}x{sample['px'][1]}"
        if not sample["deterministic"]:
            text += " NONDET"
    return text


def compare(baseline: Path | None, runs: int, rounds: int, extra: Path | None = None,
            others: Sequence[tuple[str, Path]] = ()) -> None:
    """`extra`: measure this tree once more with that folder on the path too (say, where `isal` is);
    `others`: more trees, each with its label, measured between the baseline and this one."""
    runs_of: list[tuple[str, Path, Path | None]] = [("baseline", baseline, None)] if baseline is not None else []
    runs_of += [(label, tree, None) for label, tree in others]
    runs_of.append(("now", NOW, None))
    if extra is not None:
        runs_of.append((f"now + {extra.name}", NOW, extra))
    trees = [(label, tree) for label, tree, _ in runs_of]
    merged: dict[str, dict[str, Any]] = {label: {} for label, _ in trees}
    for _ in range(rounds):
        for label, tree, path in runs_of:
            for name, sample in _run(tree, runs, path).items():
                if not isinstance(sample, dict):
                    merged[label][name] = sample
                    continue
                into = merged[label].setdefault(name, {**sample, "wall": [], "cpu": []})
                into["wall"] += sample["wall"]
                into["cpu"] += sample["cpu"]
    print(f"{runs} x {rounds} runs a picture; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; "
          "ms: cpu median, cpu p95, wall median, wall p95; bytes; px")
    for label, tree in trees:
        print(f"  {label}: {tree} (view turns {merged[label].get('views')})")
    head = "".join(f"{label:<44}" for label, _ in trees)
    print(f"{'picture':<20}{head}")
    names = [n for n in merged["now"] if isinstance(merged["now"][n], dict)]
    for name in names:
        row = "".join(f"{_cell(merged[label].get(name)):<44}" for label, _ in trees)
        print(f"{name:<20}{row}")


# --------------------------------------------------------------------------- encoders


def encoders(directory: Path, runs: int) -> None:
    """Every candidate encoder on every PNG in `directory`: median CPU ms (quantize included) and bytes."""
    from PIL import Image, features

    sys.path.insert(0, str(NOW))
    from keystone.render.encode import shared_palette

    palette = shared_palette()

    def indexed(im: Image.Image) -> Image.Image:
        return im.quantize(palette=palette, dither=Image.Dither.NONE)

    def pillow_png(level: int, **options: Any) -> Callable[[Image.Image], bytes]:
        def encode(im: Image.Image) -> bytes:
            out = io.BytesIO()
            indexed(im).save(out, "PNG", compress_level=level, **options)
            return out.getvalue()
        return encode

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))

    def own_png(compress: Callable[[bytes], bytes]) -> Callable[[Image.Image], bytes]:
        """An indexed PNG written here, its IDAT compressed by another deflate library."""
        def encode(im: Image.Image) -> bytes:
            ind = indexed(im)
            w, h = ind.size
            rows = Image.new("L", (w + 1, h), 0)  # filter byte 0 (none) before each row
            rows.paste(Image.frombytes("L", (w, h), ind.tobytes()), (1, 0))
            header = struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0)
            colours = bytes((ind.getpalette() or [])[:768])
            return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"PLTE", colours)
                    + chunk(b"IDAT", compress(rows.tobytes())) + chunk(b"IEND", b""))
        return encode

    def other(fmt: str, convert: Callable[[Image.Image], Image.Image] = lambda im: im,
              **options: Any) -> Callable[[Image.Image], bytes]:
        def encode(im: Image.Image) -> bytes:
            out = io.BytesIO()
            convert(im).save(out, fmt, **options)
            return out.getvalue()
        return encode

    candidates: dict[str, Callable[[Image.Image], bytes]] = {
        f"png shared L{level}": pillow_png(level) for level in (1, 3, 6, 9)
    }
    candidates["png shared L9 optimize"] = pillow_png(9, optimize=True)
    candidates["png shared L1 Z_RLE"] = pillow_png(1, compress_type=zlib.Z_RLE)
    candidates["png adaptive convert L1"] = other(
        "PNG", lambda im: im.convert("P", palette=Image.Palette.ADAPTIVE, colors=256), compress_level=1)
    candidates["png rgb L1"] = other("PNG", compress_level=1)
    try:
        from isal import isal_zlib  # type: ignore[import-not-found,unused-ignore]

        candidates["png shared isal L1"] = own_png(lambda b: bytes(isal_zlib.compress(b, 1)))
    except ImportError:
        pass
    try:
        import deflate  # type: ignore[import-not-found,unused-ignore]

        candidates["png shared libdeflate L1"] = own_png(lambda b: bytes(deflate.zlib_compress(b, 1)))
    except ImportError:
        pass
    if features.check("webp"):
        candidates["webp lossless m0"] = other("WEBP", lossless=True, quality=0, method=0)
        candidates["webp lossy q90 m0"] = other("WEBP", quality=90, method=0)
        candidates["webp lossy q90 m4"] = other("WEBP", quality=90, method=4)
    files = sorted(p for p in directory.glob("*.png") if p.name != "cards.png")
    pictures = [Image.open(p).convert("RGB") for p in files]
    print(f"median CPU ms (quantize + encode) and KB; load average {os.getloadavg()[0]:.1f}")
    print(f"{'encoder':<26}" + "".join(f"{p.stem[:18]:>20}" for p in files))
    for name, encode in candidates.items():
        cells = []
        for im in pictures:
            data = encode(im)
            deterministic = encode(im) == data
            cpu = statistics.median(_time(lambda im=im, encode=encode: encode(im), runs)[1])  # type: ignore[misc]
            cells.append(f"{cpu:7.2f} {len(data) / 1024:6.1f}K{'' if deterministic else '!'}")
        print(f"{name:<26}" + "".join(f"{c:>20}" for c in cells), flush=True)
    sizes = ", ".join(f"{p.stem} {im.width}x{im.height}" for p, im in zip(files, pictures, strict=True))
    print(f"(sizes: {sizes})")


# --------------------------------------------------------------------------- cache memory


def memory() -> None:
    """Fill the caches as weeks of games would (every card, both languages, full size and two
    smaller sizes, research 1-3, flattened on the table and the mat) and report what they hold."""
    import resource
    import tracemalloc

    sys.path.insert(0, str(NOW))
    from keystone.data import load_catalog
    from keystone.i18n import LANGUAGES
    from keystone.render import cards, fonts, glyphs, icons, palette, tabletop, tiles

    def rss_mb() -> float:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20

    tracemalloc.start()
    before = rss_mb()
    ids = [c.id for c in load_catalog().all_cards()]
    for lang in LANGUAGES:  # what the bot draws: every face and tile in both languages, some with research
        for card_id in ids:
            cards.card_face(card_id, lang)
            cards.flat_face(card_id, lang, 0, None, palette.MAT)
        tiles.warm_up(lang)
        tabletop.warm_up(lang)
        for card_id in ids[:30]:
            cards.placed_face(card_id, 1, lang)
    fonts.warm_up()
    current, _ = tracemalloc.get_traced_memory()
    print(f"every face in both languages: RSS grew {rss_mb() - before:.0f} MB; "
          f"tracemalloc sees {current / 2**20:.1f} MB")
    for lang in LANGUAGES:  # then far more than fits: two more sizes, research 1-3 on every card
        for card_id in ids:
            for width in (120, 96):
                cards.card_face(card_id, lang, width)
                cards.flat_face(card_id, lang, 0, width, palette.MAT)
            for research in (1, 2, 3):
                cards.placed_face(card_id, research, lang)
    current, _ = tracemalloc.get_traced_memory()
    caches = {"faces": cards._face, "placed": cards._placed, "flat": cards._flat, "icons": icons.icon,
              "tiles": tiles.card_tile, "on cell": tiles.indexed_cell_tile, "field": tabletop._field_tile,
              "glyphs": glyphs.glyph, "lines": fonts._mask}
    for name, cache in caches.items():
        info = cache.cache_info()
        print(f"{name:<7} {info.currsize:4d} kept of at most {info.maxsize}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"with every cache full: RSS grew {rss_mb() - before:.0f} MB (max RSS {peak:.0f} MB); "
          f"tracemalloc sees {current / 2**20:.1f} MB of Python objects (Pillow's pixels are malloc'd outside it)")
    full = palette.CARD_W * palette.CARD_H * 4
    print(f"bound: a full-size RGBA face is {full / 1024:.0f} KB; at most {cards.FACE_CACHE} faces, "
          f"{cards.PLACED_CACHE} placed, {cards.FLAT_CACHE} flat (RGB, {full * 3 // 4 / 1024:.0f} KB at full size)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, help="a checkout of the previous code to measure beside this one")
    parser.add_argument("--tree", action="append", default=[], metavar="LABEL=DIR",
                        help="one more code tree to measure beside these (repeat for more)")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--encoders", type=Path, metavar="DIR", help="time the encoders on the PNGs in DIR")
    parser.add_argument("--extra-path", type=Path, metavar="DIR",
                        help="measure this tree again with DIR on the path (an optional encoder installed there)")
    parser.add_argument("--memory", action="store_true", help="fill the render caches and report their memory")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.runs)
    elif args.encoders:
        encoders(args.encoders, args.runs)
    elif args.memory:
        memory()
    else:
        others = [(label, Path(folder)) for label, _, folder in (t.partition("=") for t in args.tree)]
        compare(args.baseline, args.runs, args.rounds, args.extra_path, others)


if __name__ == "__main__":
    main()
