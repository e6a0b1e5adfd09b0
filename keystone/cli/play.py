"""`python -m keystone play` (and `python bot.py --local`): a whole game in the terminal.

Play against a bot (easy, normal or hard) or pass the keyboard round (hot-seat, 1 to 4 players).
Moves are typed as short notation (`take 3 B2`, `skill 5`, `wild desert C1`, `endturn`,
`draw`, `place 1 B2`, `pile 2`, `move A1 B2`, `research C3`, `discard 4`, `skip`, `resolve 3`);
`undo` takes back the last action of this turn while no card has come out of the deck since;
`board [name]`, `field`, `score`, `objective`, `rules [topic]`, `help` and `quit` look around. Boards
are drawn as text, and `--images DIR` also writes the pictures the Discord bot would post (their hints
name the typed moves instead of Discord's commands). In a hot-seat game of two or more, secret
objectives stay off the shared screen unless their owner asks, and at every hand-over between people
the screen (and the terminal's scrollback) is cleared and the next person must press Enter before the
game shows them anything; where the output is not a terminal (a pipe, a file) nothing can be cleared,
and a line says so instead.
`--save FILE` keeps the game after every move (it never replaces an existing file without `--force`);
`--resume FILE` plays a saved game on from where it stopped, saving it to the same file unless `--save`
names another; `--replay FILE` shows where a saved game stands.
`--lang de` speaks German (prompts, help, results); the typed notation stays the same in every language.

Input and output are streams passed in, so a whole game can be scripted and tested.
"""

from __future__ import annotations

import argparse
import secrets
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TextIO

from keystone.app.text import GOAL_POINTS, RULES_TOPICS, rules_text
from keystone.cli.gamefile import BadGameFile, SavedGame, read_game, write_game
from keystone.cli.options import asked_language, parse
from keystone.cli.play_options import LEAVE, ask_opponent, check_options, parser, same_file, seats_for
from keystone.data import load_catalog
from keystone.engine import (
    GameConfig,
    GameState,
    IllegalAction,
    apply,
    event_text,
    new_game,
    parse_action,
    player_view,
    public_view,
)
from keystone.engine.bots import bot_seed, choose_action
from keystone.engine.events import Event
from keystone.engine.history import UNDO, rebuild
from keystone.engine.results import final_scores, view_scores
from keystone.engine.scoring import ScoreSheet
from keystone.engine.views import GameView
from keystone.engine.words import GOAL_LETTERS, TERMINAL_ACTIONS, ActionWords, action_words, goal_name
from keystone.i18n import DEFAULT, Language, tr, trn
from keystone.render.text import text_board, text_scores, text_table

HARD_SECONDS = 2.0
"""The hard bot stops searching after this long, whatever its budget."""
INTERRUPTED = 130
"""The exit status of a program stopped by Ctrl-C (128 + SIGINT), as shells report it."""
CLEAR_SCREEN = "\x1b[H\x1b[2J\x1b[3J"
"""Cursor home, clear the screen, clear the scrollback (xterm's codes, which terminals share)."""


@dataclass
class Table:
    """A game in progress and who sits where: a bot level per seat, or None for a person."""

    state: GameState
    seats: list[str | None]
    seed: int
    out: TextIO
    images: Path | None = None
    budget: int | None = None
    save: Path | None = None
    clock: Callable[[], float] = time.monotonic
    log: list[str] = field(default_factory=list)
    lang: Language = DEFAULT
    holder: int | None = None
    """The seat of the person who has the keyboard, once someone has confirmed taking it."""
    story: list[str] = field(default_factory=list)
    """What everyone saw happen since the keyboard last changed hands, told again after a clear."""

    def words(self, key: str, /, **params: object) -> str:
        """A sentence of the terminal game in the table's language."""
        return tr(self.lang, key, **params)

    @property
    def actions(self) -> ActionWords:
        """The typed moves, named in the table's language (the notation itself never changes)."""
        return action_words("terminal", self.lang)

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    @property
    def people(self) -> int:
        return sum(level is None for level in self.seats)

    @property
    def view(self) -> GameView:
        """What the person at the keyboard may see: the seat to act, or the first person's seat."""
        return player_view(self.state, self.viewer)

    @property
    def screen(self) -> GameView:
        """What the shared screen shows: with several people at it, no secret objective until the end."""
        view = self.view
        if self.people <= 1 or view.over:
            return view
        return replace(view, seats=tuple(replace(s, objective=None) for s in view.seats))

    @property
    def viewer(self) -> int:
        if self.seats[self.state.current] is None:
            return self.state.current
        people = [i for i, level in enumerate(self.seats) if level is None]
        return people[0] if people else self.state.current

    def keep(self) -> None:
        """Write the game so far to the save file, if there is one; a failure stops saving, not the game."""
        if self.save is None:
            return
        game = SavedGame(seed=self.seed, config=self.state.config, names=[s.name for s in self.state.seats],
                         bots=list(self.seats), moves=self.log)
        try:
            write_game(self.save, game)
        except OSError as exc:
            self.say(self.words("cli.save.failed", path=self.save, why=exc.strerror or exc))
            self.save = None


# --------------------------------------------------------------------------- showing things


def show_events(table: Table, events: Sequence[Event], actor: int) -> None:
    """Public events for everyone; private ones only when a person made them (they are at the keys)."""
    for event in events:
        if not event.private:
            table.story.append(event_text(event, table.lang))
        if not event.private or table.seats[actor] is None:
            table.say(event_text(event, table.lang))


def find_seat(view: GameView, name: str) -> int | None:
    wanted = name.strip().lower()
    for seat in view.seats:
        if seat.name.lower() == wanted or str(seat.index + 1) == wanted:
            return seat.index
    matches = [s.index for s in view.seats if s.name.lower().startswith(wanted)]
    return matches[0] if len(matches) == 1 else None


def objective_text(view: GameView, lang: Language = DEFAULT) -> str:
    number = view.seats[view.viewer].objective if view.viewer is not None else None
    if number is None:
        return tr(lang, "cli.objective.none")
    objective = load_catalog().objectives[number]
    goals = "; ".join(f"{GOAL_LETTERS[i]} {goal_name(g.pattern, g.symbol, lang)}"
                      for i, g in enumerate(objective.goals))
    return tr(lang, "cli.objective", number=number, goals=goals, **GOAL_POINTS)


def scores_so_far(state: GameState, lang: Language = DEFAULT) -> str:
    """Mid-game scores as Discord's /keystone score gives them: public, and nobody has won yet."""
    view = public_view(state)
    sheet = text_scores(view_scores(view), [s.name for s in view.seats], final=False, lang=lang)
    return tr(lang, "cli.scores", sheet=sheet)


def rules_words(topic: str, lang: Language = DEFAULT) -> str:
    """Discord's rules topics (all of them when no topic is named), without Discord's text marks."""
    texts = [rules_text(topic, lang)] if topic else [rules_text(name, lang) for name in RULES_TOPICS]
    return "\n".join(text.replace("**", "").replace("`", "") for text in texts)


def write_images(directory: Path | None, view: GameView, sheets: Sequence[ScoreSheet] | None = None) -> None:
    """Write the Field and every board as `view` sees them (and the score sheet when given)."""
    if directory is None:
        return
    from keystone.render import render_board, render_scoresheet, render_table

    directory.mkdir(parents=True, exist_ok=True)
    (directory / "table.png").write_bytes(render_table(view, TERMINAL_ACTIONS))
    for seat in view.seats:
        (directory / f"board-{seat.index + 1}.png").write_bytes(render_board(view, seat.index))
    if sheets is not None:
        (directory / "scores.png").write_bytes(render_scoresheet(view, sheets))


def look(table: Table, words: list[str]) -> bool:
    """Answer a looking-around command; False when the words are not one."""
    view = table.screen
    match words:
        case ["help"]:
            table.say(table.words("cli.help"))
        case ["board"]:
            table.say(text_board(view, view.viewer if view.viewer is not None else view.current, table.lang))
        case ["board", *name]:
            seat = find_seat(view, " ".join(name))
            if seat is None:
                names = ", ".join(s.name for s in view.seats)
                table.say(table.words("cli.no_player", name=repr(" ".join(name)), names=names))
            else:
                table.say(text_board(view, seat, table.lang))
        case ["field"] | ["table"]:
            table.say(text_table(view, table.actions, table.lang))
        case ["score"] | ["scores"]:
            table.say(scores_so_far(table.state, table.lang))
        case ["objective"]:
            table.say(objective_text(table.view, table.lang))
        case ["rules", *topic]:
            table.say(rules_words(" ".join(topic), table.lang))
        case _:
            return False
    return True


# --------------------------------------------------------------------------- playing


def bot_move(table: Table) -> None:
    state = table.state
    level = table.seats[state.current]
    assert level is not None
    stop = table.clock() + HARD_SECONDS
    action = choose_action(state, level, bot_seed(table.seed, state), budget=table.budget,
                           deadline=lambda: table.clock() > stop)
    actor = state.current
    table.state, events = apply(state, action)
    table.log.append(str(action))
    table.keep()
    show_events(table, events, actor)


def person_move(table: Table, line: str) -> bool:
    """Apply one typed move; False (and the engine's sentence) when it cannot be done."""
    actor = table.state.current
    try:
        action = parse_action(line)
        table.state, events = apply(table.state, action)
    except IllegalAction as exc:
        table.say(exc.sentence(table.lang))
        return False
    table.log.append(str(action))
    table.keep()
    show_events(table, events, actor)
    return True


def take_back(table: Table) -> None:
    """Undo the person's last action of this turn, as Discord's `/undo` does: rebuilt from the log,
    refused in the engine's sentence when a card came out since or the turn has passed."""
    history = rebuild(new_game(table.state.config, table.seed, [s.name for s in table.state.seats]), table.log)
    actor = table.state.current
    try:
        taken = history.undo()
    except IllegalAction as why:
        table.say(why.sentence(table.lang))
        return
    table.state = history.state
    table.log.append(UNDO)
    table.keep()
    said = " ".join(event_text(e, table.lang) for e in taken.events if not e.private or e.seat == actor)
    public = " ".join(event_text(e, table.lang) for e in taken.events if not e.private)
    table.story.append(table.words("cli.taken_back", said=public or taken.notation))
    table.say(table.words("cli.taken_back", said=said or taken.notation))


def is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a stream without a file behind it, or one already closed
        return False


def clear_screen(table: Table) -> None:
    """Wipe what the last person saw (an objective asked for, drawn cards) off the terminal and its
    scrollback, then tell again what everyone saw happen since. Output that is not a terminal (a
    pipe, a file) cannot be wiped: a line says so rather than pretend, and nothing is told twice."""
    if is_terminal(table.out):
        table.out.write(CLEAR_SCREEN)
        for line in table.story:
            table.say(line)
    else:
        table.say(table.words("cli.not_cleared"))
    table.story.clear()


def pass_keyboard(table: Table, stdin: TextIO) -> str | None:
    """Hand the keyboard to the person to act: clear the screen (unless nobody has had it yet), then
    wait until they press Enter on an empty line, so a line the last person typed ahead cannot
    confirm it. None once confirmed; "eof" or "quit" when the game is left instead."""
    name = table.state.seat.name
    if table.holder is None:
        table.story.clear()
    else:
        clear_screen(table)
    table.out.write(table.words("cli.pass_keyboard", name=name))
    while True:
        table.out.flush()
        line = stdin.readline()
        if not line:
            return "eof"
        answer = line.strip().lower()
        if not answer:
            table.holder = table.state.current
            return None
        if answer in LEAVE:
            return "quit"
        table.out.write(table.words("cli.pass_keyboard.again", name=name))


def prompt(table: Table, fresh_turn: bool) -> None:
    view = table.screen
    if fresh_turn:
        table.say("")
        table.say(text_table(view, table.actions, table.lang))
        table.say(text_board(view, view.current, table.lang))
    elif view.phase != "main":
        table.say(text_table(view, table.actions, table.lang).splitlines()[0])
    table.out.write(f"{view.seats[view.current].name}> ")
    table.out.flush()


def replay_hint(path: Path, lang: Language = DEFAULT) -> str:
    return tr(lang, "cli.replay_hint", path=path)


def leave(table: Table, newline: bool) -> str:
    """The one line said when a person leaves before the end."""
    said = (table.words("cli.left.saved", path=table.save, hint=replay_hint(table.save, table.lang))
            if table.save else table.words("cli.left"))
    return ("\n" if newline else "") + said


def finish(table: Table) -> int:
    sheets = final_scores(table.state)
    view = table.screen
    table.say("")
    table.say(text_scores(sheets, [s.name for s in view.seats], lang=table.lang))
    write_images(table.images, view, sheets)
    if table.save is not None:
        table.say(table.words("cli.saved", path=table.save, hint=replay_hint(table.save, table.lang)))
    return 0


def play(table: Table, stdin: TextIO) -> int:
    """Play to the end; Ctrl-C leaves quietly with the status shells expect of an interrupted program."""
    try:
        return play_to_the_end(table, stdin)
    except KeyboardInterrupt:
        table.say(leave(table, newline=True))
        return INTERRUPTED


def play_to_the_end(table: Table, stdin: TextIO) -> int:
    """The game loop: bots move on their own, people type until the game ends or they leave."""
    last_turn = -1
    write_images(table.images, table.screen)
    while table.state.phase != "over":
        state = table.state
        if table.seats[state.current] is not None:
            bot_move(table)
            write_images(table.images, table.screen)
            continue
        handing_over = table.people > 1 and state.current != table.holder
        fresh = state.turn != last_turn or handing_over
        last_turn = state.turn
        if handing_over:
            left = pass_keyboard(table, stdin)
            if left is not None:
                table.say(leave(table, newline=left == "eof"))
                return 0
        prompt(table, fresh)
        line = stdin.readline()
        if not line:
            table.say(leave(table, newline=True))
            return 0
        words = line.strip().lower().split()
        if not words:
            continue
        if words[0] in LEAVE:
            table.say(leave(table, newline=False))
            return 0
        if look(table, words):
            continue
        if words == [UNDO]:
            take_back(table)
            write_images(table.images, table.screen)
            continue
        if person_move(table, line):
            write_images(table.images, table.screen)
    return finish(table)


# --------------------------------------------------------------------------- replaying


def show_replay(path: Path, images: Path | None, out: TextIO, lang: Language = DEFAULT) -> int:
    """Replay a saved game's moves and show where it stands: the table, every board and the scores."""
    try:
        saved = read_game(path)
        state = saved.replay()
    except BadGameFile as exc:
        print(exc.sentence(lang), file=sys.stderr)
        return 2
    view = public_view(state)
    moves = trn(lang, "cli.move.count", len(saved.moves))
    lines = [tr(lang, "cli.replay", path=path, names=", ".join(saved.names), seed=saved.seed, moves=moves),
             text_table(view, action_words("terminal", lang), lang),
             *(text_board(view, seat.index, lang) for seat in view.seats)]
    if view.over:
        sheets = final_scores(state)
        lines.append(text_scores(sheets, saved.names, lang=lang))
    else:
        sheets = None
        lines.append(scores_so_far(state, lang))
    out.write("\n".join(lines) + "\n")
    write_images(images, view, sheets)
    return 0


def resume(args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    """Replay the saved log, then play on from where it stopped, saving to the same file unless
    `--save` names another; a file that is not a saved game, or a finished one, is one sentence."""
    path: Path = args.resume
    lang: Language = args.lang
    try:
        saved = read_game(path)
        state = saved.replay()
    except BadGameFile as exc:
        print(exc.sentence(lang), file=sys.stderr)
        return 2
    if state.phase == "over":
        print(tr(lang, "cli.resume.over", path=path, hint=replay_hint(path, lang)), file=sys.stderr)
        return 2
    table = Table(state, list(saved.bots), saved.seed, out, images=args.images, budget=args.budget,
                  save=args.save or path, lang=lang, log=list(saved.moves))
    if not same_file(table.save or path, path):
        table.keep()
    moves = trn(lang, "cli.move.count", len(saved.moves))
    table.say(table.words("cli.resumed", path=path, names=", ".join(saved.names), seed=saved.seed, moves=moves))
    return play(table, stdin)


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    args = parse(parser(asked_language(argv)), argv, check_options)
    if isinstance(args, int):
        return args
    inp = stdin if stdin is not None else sys.stdin
    out = stdout if stdout is not None else sys.stdout
    if args.replay is not None:
        return show_replay(args.replay, args.images, out, args.lang)
    if args.resume is not None:
        return resume(args, inp, out)
    try:
        choice = args.vs or (str(args.hotseat) if args.hotseat else None) or ask_opponent(inp, out, args.lang)
    except KeyboardInterrupt:
        out.write(tr(args.lang, "cli.no_game"))
        return INTERRUPTED
    if choice is None:
        out.write(tr(args.lang, "cli.no_game"))
        return 0
    seats, names = seats_for(args, choice, args.lang)
    seed = args.seed if args.seed is not None else secrets.randbelow(1 << 31)
    config = GameConfig(players=len(seats), rules=args.rules or "second-edition")
    table = Table(new_game(config, seed, names), seats, seed, out, images=args.images, budget=args.budget,
                  save=args.save, lang=args.lang)
    table.keep()
    table.say(table.words("cli.start", names=", ".join(names), seed=seed))
    return play(table, inp)


if __name__ == "__main__":
    raise SystemExit(main())
