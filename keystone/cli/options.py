"""The one way every `python -m keystone` command reads its options.

argparse itself, with three manners of this project: a usage mistake is one line on standard error
(argparse's message, then the usage or where to find it) with exit status 2; `main(argv)`
returns that status instead of ending the process, so a command can be called like a function; and
argparse's own words ("usage:", "options", its refusals) speak the `--lang` of the command, from the
`cli.argparse.*` entries of the catalogue, through argparse's gettext hook.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextvars import ContextVar
from typing import Any, NoReturn

from keystone.i18n import DEFAULT, LANGUAGE_NAMES, LANGUAGES, Language, language, tr

USAGE_WIDTH = 100
"""A usage line longer than this is not repeated in an error; `-h` shows it."""


ARGPARSE_WORDS = {
    "usage: ": "usage",
    "options": "options",
    "positional arguments": "positional",
    "show this help message and exit": "help",
    "the following arguments are required: %s": "required",
    "unrecognized arguments: %s": "unrecognized",
    "invalid choice: %(value)r (choose from %(choices)s)": "choice",
    "argument %(argument_name)s: %(message)s": "argument",
    "expected one argument": "one",
    "expected at least one argument": "at_least_one",
    "expected at most one argument": "at_most_one",
    "invalid %(type)s value: %(value)r": "type",
    "not allowed with argument %s": "not_allowed",
    "one of the arguments %s is required": "one_of",
    "ambiguous option: %(option)s could match %(matches)s": "ambiguous",
}
"""argparse's own English words (its gettext message ids) -> the key `cli.argparse.<name>`."""

_SPOKEN: ContextVar[Language] = ContextVar("keystone_cli_spoken", default=DEFAULT)
"""The language argparse speaks while it parses, so a `type=` check (`whole`, `positive`) refuses in it too."""


def argparse_word(lang: Language, text: str) -> str:
    """One of argparse's own words in `lang` (any word not listed stays argparse's English)."""
    name = ARGPARSE_WORDS.get(text)
    return text if name is None else tr(lang, f"cli.argparse.{name}")


@contextlib.contextmanager
def speaking(lang: Language) -> Iterator[None]:
    """argparse says its own words in `lang` meanwhile (argparse looks its gettext up as `argparse._`)."""
    hooked: Any = argparse
    saved = hooked._
    hooked._ = lambda text: argparse_word(lang, text)
    spoken = _SPOKEN.set(lang)
    try:
        yield
    finally:
        hooked._ = saved
        _SPOKEN.reset(spoken)


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one sentence on one line, in the language `add_language` set."""

    lang: Language = DEFAULT

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{_sentence(message)} ({self._pointer()}).\n")

    def parse_args(self, args: Any = None, namespace: Any = None) -> Any:
        with speaking(self.lang):
            return super().parse_args(args, namespace)

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        with speaking(self.lang):
            return super().parse_known_args(args, namespace)

    def format_usage(self) -> str:
        with speaking(self.lang):
            return super().format_usage()

    def format_help(self) -> str:
        with speaking(self.lang):
            return super().format_help()

    def _pointer(self) -> str:
        usage = " ".join(self.format_usage().split())
        return usage if len(usage) <= USAGE_WIDTH else tr(self.lang, "cli.pointer", prog=self.prog)


def _sentence(message: str) -> str:
    return message[:1].upper() + message[1:].rstrip(".")


def parse(
    made: argparse.ArgumentParser,
    argv: Sequence[str] | None,
    check: Callable[[argparse.ArgumentParser, argparse.Namespace], None] | None = None,
) -> argparse.Namespace | int:
    """The parsed options, or the exit status when argparse has already answered: 0 after `-h`,
    2 after a usage mistake (from argparse or from `check`, which refuses options that cannot go
    together by calling `made.error`)."""
    try:
        args = made.parse_args(None if argv is None else list(argv))
        if check is not None:
            check(made, args)
    except SystemExit as done:
        return 0 if done.code is None else done.code if isinstance(done.code, int) else 2
    return args


def whole(text: str) -> int:
    """A whole number of 0 or more, for `type=`: a bad one is refused by argparse in a sentence, in the
    language the parser speaks (`cli.number.whole`)."""
    if not text.isascii() or not text.isdigit():
        raise argparse.ArgumentTypeError(tr(_SPOKEN.get(), "cli.number.whole", value=repr(text)))
    return int(text)


def positive(text: str) -> int:
    """A whole number of at least 1, for `type=` (refused as `cli.number.positive`)."""
    try:
        number = int(text)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(tr(_SPOKEN.get(), "cli.number.positive", value=repr(text)))
    return number


def listing_parser(command: str, argv: Sequence[str] | None) -> Parser:
    """The parser of a command that prints a listing for people, or JSON for machines with --json;
    its help speaks the language `--lang` asks for."""
    lang = asked_language(argv)
    made = Parser(prog=f"python -m keystone {command}", description=tr(lang, f"cli.{command}.description"))
    made.add_argument("--json", action="store_true", help=tr(lang, "cli.option.json"))
    add_language(made, lang)
    return made


def add_language(made: argparse.ArgumentParser, lang: Language = DEFAULT) -> None:
    """`--lang en|de`: the language a command speaks to people (English unless asked)."""
    named = ", ".join(f"{code} ({name})" for code, name in LANGUAGE_NAMES.items())
    explained = tr(lang, "cli.option.lang", languages=named, default=DEFAULT)
    made.add_argument("--lang", choices=LANGUAGES, default=DEFAULT, help=explained)
    if isinstance(made, Parser):
        made.lang = lang
    made._optionals.title = tr(lang, "cli.argparse.options")
    made._positionals.title = tr(lang, "cli.argparse.positional")
    for action in made._actions:
        if isinstance(action, argparse._HelpAction):
            action.help = tr(lang, "cli.argparse.help")


def asked_language(argv: Sequence[str] | None) -> Language:
    """The language `--lang` asks for, read before the options are parsed so `--help` can speak it;
    anything but German is English here, and the parser itself refuses a language it does not know."""
    given = list(sys.argv[1:] if argv is None else argv)
    for i, word in enumerate(given):
        if word.startswith("--lang="):
            return language(word.split("=", 1)[1])
        if word == "--lang" and i + 1 < len(given):
            return language(given[i + 1])
    return DEFAULT


def command_list(names: Iterable[str], lang: Language) -> str:
    """`python -m keystone`'s usage: each command with a line of what it does, in `lang`."""
    lines = [tr(lang, "cli.usage"), ""]
    lines += [f"  {name:<11} {tr(lang, f'cli.command.{name}')}" for name in names]
    return "\n".join(lines)


def unknown_command(name: str, lang: Language) -> str:
    return tr(lang, "cli.unknown_command", command=repr(name))
