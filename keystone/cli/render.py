"""`python -m keystone render --demo DIR [--seed N]`: write a gallery of every picture;
`--assets DIR`: write the art the bot ships (its avatar and icons), as kept in `assets/`.

The gallery plays one seeded two-player game with a simple greedy player (so boards form real
ecosystems) and draws every picture the bot posts: an empty board, a full board (the rulebook's
scoring example), the table at the start and late in the game (with a hand of drawn cards as its
drawer and as the others see it), the hand of drawn cards itself, a secret objective with each
goal's progress, the one-picture turn summary, the final score sheet, the animated replay of the
whole game, every card face, and the text renderings; all in the language `--lang` asks for, as
are the command's help and refusals.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from PIL import Image

from keystone.app.replays import replay_file
from keystone.cli.options import Parser, add_language, asked_language, parse, whole
from keystone.data import load_catalog
from keystone.engine import GameConfig, GameState, apply, is_over, legal_actions, new_game, player_view, public_view
from keystone.engine.actions import Action, Draw, UseSkill
from keystone.engine.scoring import ScoreSheet, score_board
from keystone.engine.state import PlacedCard
from keystone.engine.views import GameView
from keystone.i18n import DEFAULT, Language, tr
from keystone.render import (
    render_board,
    render_hand,
    render_objective,
    render_scoresheet,
    render_table,
    render_turn,
    text_board,
    text_scores,
    text_table,
)
from keystone.render.assets import write_assets
from keystone.render.cards import card_face
from keystone.render.common import png
from keystone.render.palette import CARD_H, CARD_W, PAGE

NAMES = ["Ana", "Bo"]
DEMO_SKILLS = (1, 2, 3, 4, 9)
"""Skills that between them draw, search the discard pile, move and research: every kind of table."""


def sheets_for(view: GameView) -> list[ScoreSheet]:
    """Score every seat of a view (objectives as far as the view shows them)."""
    catalog = load_catalog()
    out = []
    for seat in view.seats:
        board = [None if p is None else (catalog.card(p.card), p.research) for p in seat.board]
        objective = catalog.objectives.get(seat.objective) if seat.objective is not None else None
        out.append(score_board(board, objective, seat.synergy, view.rules))
    return out


RULEBOOK_BOARD: tuple[tuple[str, int], ...] = (
    ("american-black-bear", 0), ("saguaro-cactus", 0), ("american-bison", 0), ("mountain-lion", 1),
    ("montezuma-bald-cypress", 0), ("cottontail-rabbit", 1), ("snail-kite", 0), ("peregrine-falcon", 0),
    ("piping-plover", 0), ("coyote", 0), ("desert-tortoise", 1), ("wild-desert-summer", 0),
    ("swallow-tailed-kite", 0), ("mountain-goat", 0), ("musk-ox", 1), ("prairie-fringed-orchid", 0),
)
"""Sally's finished board from the rulebook's scoring example (97 points with objective 1 and 7 synergy)."""


def rulebook_view() -> GameView:
    """A finished-game view whose first seat holds the rulebook's example board: full, and checkable."""
    base = public_view(new_game(GameConfig(players=2), 1, ["Sally", "Jim"]))
    board = tuple(PlacedCard(card, research) for card, research in RULEBOOK_BOARD)
    sally = replace(base.seats[0], board=board, synergy=7, objective=1, turns=16)
    return replace(base, seats=(sally, base.seats[1]), phase="over")


def _value(state: GameState, seat: int) -> float:
    catalog = load_catalog()
    s = state.seats[seat]
    board = [None if p is None else (catalog.card(p.card), p.research) for p in s.board]
    objective = catalog.objectives.get(s.objective) if s.objective is not None else None
    return score_board(board, objective, s.synergy, state.config.rules).total + s.synergy / 4


def _choose(state: GameState, rng: random.Random) -> Action:
    """Greedy on the mover's own score, with some skill use so the table shows every kind of state."""
    actions = legal_actions(state)
    if Draw() in actions:  # always look: the gallery wants a hand of drawn cards
        return Draw()
    skills = [a for a in actions if isinstance(a, UseSkill)]
    if skills and rng.random() < 0.3:
        return rng.choice(skills)
    seat = state.current
    scored = [(_value(apply(state, a)[0], seat) + rng.random() * 0.5, i) for i, a in enumerate(actions)]
    return actions[max(scored)[1]]


def play_demo(seed: int) -> list[GameState]:
    """Every state of one seeded two-player demo game, start to finish."""
    return demo_game(seed)[0]


def demo_game(seed: int) -> tuple[list[GameState], list[str]]:
    """Every state of one seeded two-player demo game, start to finish, and its move log."""
    rng = random.Random(seed)
    state = new_game(GameConfig(players=2, skills=list(DEMO_SKILLS)), seed, NAMES)
    history, log = [state], []
    while not is_over(state):
        action = _choose(state, rng)
        state, _ = apply(state, action)
        history.append(state)
        log.append(str(action))
    return history, log


def card_sheet(columns: int = 7, lang: Language = DEFAULT) -> Image.Image:
    """Every card face in one picture: species by number, then the Wild cards."""
    cards = load_catalog().all_cards()
    rows = -(-len(cards) // columns)
    gap = 10
    image = Image.new("RGB", (gap + columns * (CARD_W + gap), gap + rows * (CARD_H + gap)), PAGE)
    for i, card in enumerate(cards):
        face = card_face(card.id, lang)
        image.paste(face, (gap + (i % columns) * (CARD_W + gap), gap + (i // columns) * (CARD_H + gap)), face)
    return image


def _pick(history: Sequence[GameState]) -> dict[str, GameState]:
    """The states the gallery shows; a hand falls back to a late state when the game had none."""
    mains = [s for s in history if s.phase == "main"]
    late = mains[len(mains) * 4 // 5]
    drawn = [s for s in history if s.held and s.held_private]
    looked = [s for s in history if s.held and not s.held_private]
    return {
        "start": history[0],
        "late": late,
        "drawn": drawn[-1] if drawn else late,
        "looked": looked[-1] if looked else late,
        "final": history[-1],
    }


def _hand(state: GameState) -> list[str]:
    """The cards the player to act has drawn; the Field's cards when the demo game drew none."""
    return list(state.held) or [slot.card for slot in state.field if slot is not None][:3]


def write_gallery(directory: Path, seed: int, lang: Language = DEFAULT) -> list[Path]:
    """Write every picture and text rendering, in `lang`, into `directory`; returns the files written."""
    directory.mkdir(parents=True, exist_ok=True)
    history, log = demo_game(seed)
    picked = _pick(history)
    final = picked["final"]
    fullest = max(range(len(final.seats)), key=lambda i: sum(p is not None for p in final.seats[i].board))
    rulebook = rulebook_view()
    end_view = public_view(final)
    drawn, looked = picked["drawn"], picked["looked"]
    files: dict[str, bytes | str] = {
        "board-empty.png": render_board(player_view(picked["start"], 0), 0, lang=lang),
        "board-full.png": render_board(rulebook, 0, lang=lang),
        "board-end.png": render_board(end_view, fullest, lang=lang),
        "table-start.png": render_table(public_view(picked["start"]), lang=lang),
        "table-late.png": render_table(public_view(picked["late"]), lang=lang),
        "table-drawn-own-view.png": render_table(player_view(drawn, drawn.current), lang=lang),
        "table-drawn-public-view.png": render_table(public_view(drawn), lang=lang),
        "table-discard-search.png": render_table(public_view(looked), lang=lang),
        "hand.png": render_hand(player_view(drawn, drawn.current), _hand(drawn), lang=lang),
        "objective.png": render_objective(player_view(final, fullest), fullest, lang=lang),
        "turn-late.png": render_turn(public_view(picked["late"]), picked["late"].current, lang=lang),
        "scoresheet.png": render_scoresheet(end_view, sheets_for(end_view), lang=lang),
        "replay.gif": replay_file(history[0], log, lang=lang)[1],
        "cards.png": png(card_sheet(lang=lang)),
        "board-full.txt": text_board(rulebook, 0, lang) + "\n",
        "table-late.txt": text_table(public_view(picked["late"]), lang=lang) + "\n",
        "scores.txt": text_scores(sheets_for(end_view), [s.name for s in end_view.seats], lang=lang) + "\n",
    }
    written = []
    for name, content in files.items():
        path = directory / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        written.append(path)
    return written


DEMO_SEED = 7
"""The demo game's seed unless --seed chooses another."""


def parser(lang: Language = DEFAULT) -> argparse.ArgumentParser:
    made = Parser(prog="python -m keystone render", description=tr(lang, "tools.render.description"))
    folder = tr(lang, "tools.render.folder")
    task = made.add_mutually_exclusive_group(required=True)
    task.add_argument("--demo", type=Path, metavar=folder, help=tr(lang, "tools.render.demo", folder=folder))
    task.add_argument("--assets", type=Path, metavar=folder, help=tr(lang, "tools.render.assets", folder=folder))
    made.add_argument("--seed", type=whole, metavar="N", help=tr(lang, "tools.render.seed", seed=DEMO_SEED))
    add_language(made, lang)
    return made


def _check(made: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    if args.seed is not None and args.demo is None:
        made.error(tr(args.lang, "tools.render.seed_alone"))


def main(argv: Sequence[str]) -> int:
    args = parse(parser(asked_language(argv)), argv, _check)
    if isinstance(args, int):
        return args
    lang: Language = args.lang
    directory: Path = args.demo or args.assets
    if directory.exists() and not directory.is_dir():
        print(tr(lang, "tools.render.not_a_folder", directory=directory), file=sys.stderr)
        return 2
    try:
        if args.demo is not None:
            written = write_gallery(directory, DEMO_SEED if args.seed is None else args.seed, lang)
        else:
            written = write_assets(directory)
    except OSError as exc:
        what = "tools.render.cannot_write_gallery" if args.demo is not None else "tools.render.cannot_write_assets"
        print(tr(lang, what, directory=directory, reason=exc.strerror or exc), file=sys.stderr)
        return 2
    for path in written:
        print(path)
    return 0
