"""`python -m keystone replay SAVE OUT.gif`: the animated replay of a finished game saved with
`python -m keystone play --save SAVE`, the same picture `/keystone replay` posts on Discord.

Bad input (a missing or unreadable file, one that is not a saved game, a game that has not
finished, an output it cannot write) is one sentence on standard error and exit status 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from keystone.app.replays import NotFinished, Unreplayable, replay_file
from keystone.cli.gamefile import BadGameFile, read_game
from keystone.cli.options import Parser, parse
from keystone.render.replay import ReplayTooLarge

SUFFIX = ".gif"


def parser() -> argparse.ArgumentParser:
    made = Parser(prog="python -m keystone replay",
                  description="Draw a finished saved game turn by turn as an animated GIF.")
    made.add_argument("save", type=Path, metavar="SAVE", help="a game saved with `python -m keystone play --save`")
    made.add_argument("out", type=Path, metavar="OUT.gif", help="the animated GIF to write")
    return made


def check_options(made: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    out: Path = args.out
    if out.suffix.lower() != SUFFIX:
        made.error(f"the replay is an animated GIF, so {out} should end in {SUFFIX}")
    if out.is_dir() or not out.parent.is_dir():
        made.error(f"{out} is not a file in a folder that exists")


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(parser(), argv, check_options)
    if isinstance(args, int):
        return args
    try:
        saved = read_game(args.save)
        _, data, _ = replay_file(saved.start(), saved.moves)
    except BadGameFile as exc:
        return _refuse(str(exc))
    except NotFinished:
        return _refuse(f"The game in {args.save} has not finished, so there is nothing to replay yet.")
    except Unreplayable as exc:
        return _refuse(f"The game in {args.save} cannot be replayed: {exc}")
    except ReplayTooLarge as exc:
        return _refuse(str(exc))
    return _write(args.out, data)


def _write(out: Path, data: bytes) -> int:
    """Write in one step (no half-written picture is left behind) and say what was written."""
    partial = out.with_name(out.name + ".partial")
    try:
        partial.write_bytes(data)
        os.replace(partial, out)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        return _refuse(f"Cannot write {out}: {exc.strerror or exc}.")
    print(f"Wrote {out} ({len(data) // 1024} KB).")
    return 0


def _refuse(sentence: str) -> int:
    print(sentence, file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
