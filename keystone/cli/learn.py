"""`python -m keystone learn`: the guided first game in the terminal, the same lesson `/learn` gives
in a direct message: a short game on a prepared deal in which every rule happens once.

Each step says what to do and why; Enter makes the suggested move, any other move typed in notation
(`take 3 B2`, `skill 5`, `wild desert C1`, ...) is played and explained, and the lesson adapts to it.
`quit` stops. The end explains the score sheet line by line. `--lang de` speaks German.
Input and output are streams passed in, so a lesson can be scripted and tested.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TextIO

from keystone.app.lesson_words import explained, missed, score_sheet_lines, step_words
from keystone.app.text import objective_text
from keystone.cli.options import Parser, add_language, asked_language, parse
from keystone.data.lesson import Lesson, load_lesson
from keystone.engine import GameState, IllegalAction, apply, parse_action, public_view
from keystone.engine.lesson import lesson_game, suggest, taught
from keystone.engine.results import final_scores
from keystone.i18n import Language, tr
from keystone.render.text import text_board, text_table

QUIT = {"quit", "q", "exit"}
RULES = "python -m keystone play (rules)"
"""Where the terminal tells the rules: the `rules` command of a terminal game."""


def parser(lang: Language) -> argparse.ArgumentParser:
    made = Parser(prog="python -m keystone learn", description=tr(lang, "cli.command.learn"))
    made.add_argument("--name", default=None, help=tr(lang, "learn.cli.name"))
    add_language(made, lang)
    return made


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    args = parse(parser(asked_language(argv)), argv)
    if isinstance(args, int):
        return args
    lang: Language = args.lang
    out = stdout if stdout is not None else sys.stdout
    state = lesson_game((args.name or tr(lang, "learn.cli.player")).strip()[:100] or tr(lang, "learn.cli.player"))
    objective = state.seats[0].objective
    print(tr(lang, "learn.welcome.terminal", steps=len(load_lesson().steps)), file=out)
    if objective is not None:
        print(objective_text(objective, lang), file=out)
    return lesson(state, stdin if stdin is not None else sys.stdin, out, lang)


def lesson(state: GameState, stdin: TextIO, out: TextIO, lang: Language) -> int:
    """Step by step to the end of the game (or `quit`); 0 either way."""
    done: set[Lesson] = set()
    while (suggestion := suggest(state, done)) is not None:
        view = public_view(state)
        print(f"\n{text_board(view, 0, lang)}\n{text_table(view, lang=lang)}\n", file=out)
        print(plain(step_words(state, suggestion, lang)), file=out)
        out.write(tr(lang, "learn.prompt", move=str(suggestion.action)))
        out.flush()
        line = stdin.readline()
        typed = line.strip()
        if not line or typed.lower() in QUIT:
            print(tr(lang, "learn.stopped"), file=out)
            return 0
        try:
            action = parse_action(typed) if typed else suggestion.action
            new, events = apply(state, action)
        except IllegalAction as refused:
            print(refused.sentence(lang), file=out)
            continue
        print("\n".join(explained(state, new, action, events, suggestion, done, lang)), file=out)
        done |= taught(state, events)
        state = new
    sheet = final_scores(state)[0]
    closing = [tr(lang, "learn.closing"), *score_sheet_lines(sheet, lang), *missed(done, lang, RULES),
               tr(lang, "learn.finish.terminal")]
    print("\n" + plain("\n".join(closing)), file=out)
    return 0


def plain(words: str) -> str:
    """Words for the terminal: without the bold marks a Discord message shows."""
    return words.replace("**", "")
