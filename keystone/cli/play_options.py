"""The terminal game's options and set-up questions: its argparse parser (explained in the asked
language), the checks of options that cannot go together, the opponent asked for, and each seat's
bot level and name (`keystone.cli.play` plays the game)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

from keystone.cli.gamefile import BadGameFile, read_game
from keystone.cli.options import Parser, add_language, positive
from keystone.engine.bots import LEVELS
from keystone.i18n import DEFAULT, Language, tr

LEAVE = ("quit", "exit")
"""What a player types to leave, at any prompt."""


def level_names(lang: Language) -> dict[str, str]:
    """Each bot level as a player of `lang` names it: "stark" is "hard"."""
    return {tr(lang, f"cli.level.{level}"): level for level in LEVELS}


def ask_opponent(stdin: TextIO, out: TextIO, lang: Language = DEFAULT) -> str | None:
    """Ask until the answer is a bot level (in English or `lang`) or a number of hot-seat players;
    None at end of input."""
    levels = {**level_names(DEFAULT), **level_names(lang)}
    while True:
        out.write(tr(lang, "cli.ask"))
        out.flush()
        line = stdin.readline()
        if not line:
            return None
        answer = line.strip().lower()
        if answer in LEAVE:
            return None
        if answer in levels or answer in {"1", "2", "3", "4"}:
            return levels.get(answer, answer)
        out.write(tr(lang, "cli.ask.again", answer=repr(answer)))


def seats_for(args: argparse.Namespace, choice: str, lang: Language = DEFAULT) -> tuple[list[str | None], list[str]]:
    """Bot level (or None for a person) and name for every seat."""
    if choice in LEVELS:
        players = max(2, args.players or 2)
        seats: list[str | None] = [None] + [choice] * (players - 1)
    else:
        players = int(choice)
        seats = [None] * players
    given = given_names(args)
    names: list[str] = []
    for i, level in enumerate(seats):
        if i < len(given):
            names.append(given[i])
        elif level is None:
            names.append(tr(lang, "cli.seat.person", number=i + 1))
        else:
            names.append(tr(lang, f"cli.seat.bot.{level}") + (f" {i}" if players > 2 else ""))
    return seats, names


def given_names(args: argparse.Namespace) -> list[str]:
    return [n.strip() for n in (args.names or "").split(",") if n.strip()]


def parser(lang: Language = DEFAULT) -> argparse.ArgumentParser:
    """The terminal game's options, explained in `lang` (the option names are the same in every language)."""
    def say(option: str) -> str:
        return tr(lang, f"cli.play.{option}")

    made = Parser(prog="python -m keystone play", description=say("description"))
    made.add_argument("--vs", "--bot", dest="vs", choices=LEVELS, help=say("vs"))
    made.add_argument("--hotseat", type=int, choices=[1, 2, 3, 4], help=say("hotseat"))
    made.add_argument("--players", type=int, choices=[2, 3, 4], help=say("players"))
    made.add_argument("--names", help=say("names"))
    made.add_argument("--seed", type=int, help=say("seed"))
    made.add_argument("--rules", choices=["second-edition", "first-edition"], help=say("rules"))
    made.add_argument("--images", type=Path, help=say("images"))
    made.add_argument("--budget", type=positive, help=say("budget"))
    made.add_argument("--save", type=Path, metavar="FILE", help=say("save"))
    made.add_argument("--force", action="store_true", default=None, help=say("force"))
    made.add_argument("--resume", type=Path, metavar="FILE", help=say("resume"))
    made.add_argument("--replay", type=Path, metavar="FILE", help=say("replay"))
    add_language(made, lang)
    return made


def check_options(made: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse options that cannot work together, before anything is asked or written."""
    setup = ("vs", "hotseat", "players", "names", "seed", "rules")
    if args.replay is not None:
        others = [f"--{name}" for name in (*setup, "budget", "save", "force", "resume")
                  if getattr(args, name) is not None]
        if others:
            made.error(tr(args.lang, "cli.refuse.replay", options=", ".join(others)))
    if args.resume is not None:
        others = [f"--{name}" for name in setup if getattr(args, name) is not None]
        if others:
            made.error(tr(args.lang, "cli.refuse.resume", options=", ".join(others)))
    if args.force and args.save is None:
        made.error(tr(args.lang, "cli.refuse.force"))
    you = tr(args.lang, "cli.you")
    if any(name.lower() == you.lower() for name in given_names(args)):
        made.error(tr(args.lang, "cli.refuse.you", you=you))
    if args.save is not None and (args.save.is_dir() or not args.save.parent.is_dir()):
        made.error(tr(args.lang, "cli.refuse.save", path=args.save))
    if args.save is not None and not args.force and args.save.exists() and not same_file(args.save, args.resume):
        made.exit(2, refuse_overwrite(args.save, args.lang) + "\n")


def same_file(path: Path, other: Path | None) -> bool:
    return other is not None and path.resolve() == other.resolve()


def refuse_overwrite(path: Path, lang: Language) -> str:
    """The one sentence that keeps `--save` from replacing a file: a saved game can be resumed instead."""
    try:
        read_game(path)
    except BadGameFile:
        return tr(lang, "cli.refuse.overwrite.file", path=path)
    return tr(lang, "cli.refuse.overwrite.game", path=path)
