"""`python -m keystone replay SAVE OUT.gif`: the animated replay of a finished game saved with
`python -m keystone play --save SAVE`, the same picture `/keystone replay` posts on Discord.

Bad input (a missing or unreadable file, one that is not a saved game, a game that has not
finished, an output it cannot write) is one sentence on standard error and exit status 2; `--lang de`
says it, and the help, in German.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from keystone.app.replays import NotFinished, Unreplayable, replay_file
from keystone.cli.gamefile import BadGameFile, read_game
from keystone.cli.options import Parser, add_language, asked_language, parse
from keystone.i18n import Language, tr
from keystone.render.replay import ReplayTooLarge

SUFFIX = ".gif"


def parser(lang: Language) -> argparse.ArgumentParser:
    made = Parser(prog="python -m keystone replay", description=tr(lang, "cli.command.replay"))
    made.add_argument("save", type=Path, metavar="SAVE", help=tr(lang, "misc.replay.save"))
    made.add_argument("out", type=Path, metavar="OUT.gif", help=tr(lang, "misc.replay.out"))
    add_language(made, lang)
    return made


def check_options(made: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    out: Path = args.out
    if out.suffix.lower() != SUFFIX:
        made.error(tr(args.lang, "misc.replay.suffix", out=out, suffix=SUFFIX))
    if out.is_dir() or not out.parent.is_dir():
        made.error(tr(args.lang, "misc.replay.no_folder", out=out))


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(parser(asked_language(argv)), argv, check_options)
    if isinstance(args, int):
        return args
    lang: Language = args.lang
    try:
        saved = read_game(args.save)
        _, data, _ = replay_file(saved.start(), saved.moves, lang=lang)
    except (BadGameFile, ReplayTooLarge) as exc:
        return _refuse(exc.sentence(lang))
    except NotFinished:
        return _refuse(tr(lang, "misc.replay.not_finished", path=args.save))
    except Unreplayable as exc:
        return _refuse(tr(lang, "misc.replay.unreplayable", path=args.save, why=exc))
    return _write(args.out, data, lang)


def _write(out: Path, data: bytes, lang: Language) -> int:
    """Write in one step (no half-written picture is left behind) and say what was written."""
    partial = out.with_name(out.name + ".partial")
    try:
        partial.write_bytes(data)
        os.replace(partial, out)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        return _refuse(tr(lang, "misc.replay.cannot_write", out=out, reason=exc.strerror or exc))
    print(tr(lang, "misc.replay.wrote", out=out, size=len(data) // 1024))
    return 0


def _refuse(sentence: str) -> int:
    print(sentence, file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
