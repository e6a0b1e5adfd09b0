"""Pictures for messages, drawn by keystone.render; a plain text card stands in for any picture
the renderer fails to draw, so a rendering problem never blocks a move.

Each `*_file` gives a ready attachment in the reader's language (`lang`): a file name, the PNG and
its alt text (the picture in words, within Discord's 1024 characters), so a screen reader tells
what the picture shows.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Callable, Sequence

from PIL import Image, ImageDraw

from keystone import render
from keystone.app import text
from keystone.app.replies import File
from keystone.data import load_catalog
from keystone.engine import GameView
from keystone.engine.scoring import ScoreSheet
from keystone.engine.words import GOAL_LETTERS, goal_sentence
from keystone.i18n import DEFAULT, Language, tr
from keystone.render.turn import Pointer

log = logging.getLogger(__name__)

DESCRIPTION_MAX = 1024
"""Discord's limit on an attachment's description (its alt text)."""


def _placeholder(lines: Sequence[str]) -> bytes:
    width, height = 640, 24 + 18 * len(lines)
    image = Image.new("RGB", (width, height), (246, 241, 228))
    draw = ImageDraw.Draw(image)
    for row, line in enumerate(lines):
        draw.text((12, 12 + 18 * row), line, fill=(40, 40, 40))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def _draw(draw: Callable[[], bytes], fallback: Callable[[], Sequence[str]]) -> bytes:
    try:
        return draw()
    except Exception:
        log.exception("drawing a picture failed; sending a plain one instead")
    return _placeholder(fallback())


def alt_text(words: str) -> str:
    """Alt text within Discord's limit: whole lines while they fit, then an ellipsis."""
    words = words.strip()
    if len(words) <= DESCRIPTION_MAX:
        return words
    kept = ""
    for line in words.splitlines():
        if len(kept) + len(line) + 2 > DESCRIPTION_MAX:
            break
        kept += line + "\n"
    return (kept.rstrip() or words[: DESCRIPTION_MAX - 1]) + "…"


def _words(describe: Callable[[], str], fallback: Callable[[], Sequence[str]]) -> str:
    try:
        return alt_text(describe())
    except Exception:
        log.exception("describing a picture failed; using plain lines instead")
    return alt_text("\n".join(fallback()))


def field_png(view: GameView, lang: Language = DEFAULT, pointed_skill: int | None = None) -> bytes:
    return _draw(lambda: render.render_table(view, lang=lang, pointed_skill=pointed_skill),
                 lambda: text.field_lines(view, lang=lang))


def board_png(view: GameView, seat: int, lang: Language = DEFAULT) -> bytes:
    return _draw(lambda: render.render_board(view, seat, lang=lang), lambda: text.board_lines(view, seat, lang))


def scores_png(view: GameView, sheets: Sequence[ScoreSheet], lang: Language = DEFAULT) -> bytes:
    return _draw(lambda: render.render_scoresheet(view, list(sheets), lang),
                 lambda: text.score_lines(view, sheets, lang))


def turn_png(view: GameView, seat: int, marked: Sequence[int] = (), lang: Language = DEFAULT,
             pointers: Sequence[Pointer] = ()) -> bytes:
    """The Field, the time track, the players and the mover's board with the cards just placed
    framed: the one picture of a turn's message (a lesson's also frames where to move next)."""
    return _draw(lambda: render.render_turn(view, seat, marked, lang=lang, pointers=pointers),
                 lambda: [*text.field_lines(view, lang=lang), *text.board_lines(view, seat, lang)])


def hand_png(view: GameView, cards: Sequence[str], lang: Language = DEFAULT) -> bytes:
    """The cards in the actor's hand (drawn or searched) as full card faces."""
    return _draw(lambda: render.render_hand(view, cards, lang=lang), lambda: [_card_name(c, lang) for c in cards])


def _card_name(card_id: str, lang: Language) -> str:
    return load_catalog().card(card_id).name_in(lang)


def _objective_words(number: int | None, lang: Language) -> str:
    """The secret objective's four goals in words, for its owner's eyes only."""
    if number is None:
        return tr(lang, "picture.alt.no_objective")
    goals = load_catalog().objectives[number].goals
    parts = [f"{letter}. {goal_sentence(g.pattern, g.symbol, lang)}"
             for letter, g in zip(GOAL_LETTERS, goals, strict=True)]
    return tr(lang, "picture.alt.objective", number=number, goals="; ".join(parts))


def objective_png(view: GameView, seat: int, lang: Language = DEFAULT) -> bytes:
    """One seat's secret objective with its owner's progress on each goal; only ever sent to its owner."""
    return _draw(lambda: render.render_objective(view, seat, lang),
                 lambda: _objective_words(view.seats[seat].objective, lang).split("; "))


def field_file(view: GameView, lang: Language = DEFAULT, pointed_skill: int | None = None) -> File:
    """The whole table; `pointed_skill` frames that skill token (0: every exhausted one)."""
    words = _words(lambda: render.text_table(view, lang=lang), lambda: text.field_lines(view, lang=lang))
    return "field.png", field_png(view, lang, pointed_skill), words


def board_file(view: GameView, seat: int, lang: Language = DEFAULT) -> File:
    words = _words(lambda: render.text_board(view, seat, lang), lambda: text.board_lines(view, seat, lang))
    return "board.png", board_png(view, seat, lang), words


def turn_file(view: GameView, seat: int, marked: Sequence[int] = (), lang: Language = DEFAULT,
              pointers: Sequence[Pointer] = ()) -> File:
    def describe() -> str:
        return f"{render.text_board(view, seat, lang)}\n{render.text_table(view, lang=lang)}"

    words = _words(describe, lambda: [*text.board_lines(view, seat, lang), *text.field_lines(view, lang=lang)])
    return "turn.png", turn_png(view, seat, marked, lang, pointers), words


def scores_file(view: GameView, sheets: Sequence[ScoreSheet], lang: Language = DEFAULT) -> File:
    names = [s.name for s in view.seats]
    words = _words(lambda: render.text_scores(list(sheets), names, lang=lang),
                   lambda: text.score_lines(view, sheets, lang))
    return "scores.png", scores_png(view, sheets, lang), words


def hand_file(view: GameView, cards: Sequence[str], lang: Language = DEFAULT) -> File:
    words = tr(lang, "picture.alt.hand", cards=", ".join(_card_name(c, lang) for c in cards))
    return "cards.png", hand_png(view, cards, lang), alt_text(words)


def objective_file(view: GameView, seat: int, lang: Language = DEFAULT) -> File:
    words = _objective_words(view.seats[seat].objective, lang)
    return "objective.png", objective_png(view, seat, lang), alt_text(words)
