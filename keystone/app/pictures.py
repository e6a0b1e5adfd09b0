"""Pictures for messages, drawn by keystone.render; a plain text card stands in for any picture
the renderer fails to draw, so a rendering problem never blocks a move.

Each `*_file` gives a ready attachment: a file name, the PNG and its alt text (the picture in
words, within Discord's 1024 characters), so a screen reader tells what the picture shows.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Callable, Sequence

from PIL import Image, ImageDraw

from keystone import render
from keystone.app import text
from keystone.app.replies import File
from keystone.engine import GameView
from keystone.engine.scoring import ScoreSheet

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


def field_png(view: GameView) -> bytes:
    return _draw(lambda: render.render_table(view), lambda: text.field_lines(view))


def board_png(view: GameView, seat: int) -> bytes:
    return _draw(lambda: render.render_board(view, seat), lambda: text.board_lines(view, seat))


def scores_png(view: GameView, sheets: Sequence[ScoreSheet]) -> bytes:
    return _draw(lambda: render.render_scoresheet(view, list(sheets)), lambda: text.score_lines(view, sheets))


def turn_png(view: GameView, seat: int) -> bytes:
    """The table beside one seat's board: the one picture of a turn's message."""
    return _draw(lambda: render.render_turn(view, seat),
                 lambda: [*text.field_lines(view), *text.board_lines(view, seat)])


def hand_png(view: GameView, cards: Sequence[str]) -> bytes:
    """The cards in the actor's hand (drawn or searched), face up side by side."""

    def draw() -> bytes:
        faces = [Image.open(io.BytesIO(render.render_card(card))) for card in cards]
        gap = 8
        width = sum(f.width for f in faces) + gap * (len(faces) + 1)
        height = max(f.height for f in faces) + 2 * gap
        image = Image.new("RGB", (width, height), (246, 241, 228))
        x = gap
        for face in faces:
            image.paste(face.convert("RGB"), (x, gap))
            x += face.width + gap
        out = io.BytesIO()
        image.save(out, format="PNG", optimize=True)
        return out.getvalue()

    return _draw(draw, lambda: [text.card_name(c) for c in cards])


def objective_png(view: GameView, seat: int) -> bytes:
    """One seat's secret objective as a picture (its four goals); only ever sent to its owner."""
    number = view.seats[seat].objective
    lines = text.objective_text(number).split("; ") if number is not None else ["No secret objective."]
    return _placeholder(lines)


def field_file(view: GameView) -> File:
    return "field.png", field_png(view), _words(lambda: render.text_table(view), lambda: text.field_lines(view))


def board_file(view: GameView, seat: int) -> File:
    words = _words(lambda: render.text_board(view, seat), lambda: text.board_lines(view, seat))
    return "board.png", board_png(view, seat), words


def turn_file(view: GameView, seat: int) -> File:
    def describe() -> str:
        return f"{render.text_board(view, seat)}\n{render.text_table(view)}"

    words = _words(describe, lambda: [*text.board_lines(view, seat), *text.field_lines(view)])
    return "turn.png", turn_png(view, seat), words


def scores_file(view: GameView, sheets: Sequence[ScoreSheet]) -> File:
    names = [s.name for s in view.seats]
    words = _words(lambda: render.text_scores(list(sheets), names), lambda: text.score_lines(view, sheets))
    return "scores.png", scores_png(view, sheets), words


def hand_file(view: GameView, cards: Sequence[str]) -> File:
    words = "Your cards: " + ", ".join(text.card_name(c) for c in cards) + "."
    return "cards.png", hand_png(view, cards), alt_text(words)


def objective_file(view: GameView, seat: int) -> File:
    number = view.seats[seat].objective
    words = text.objective_text(number) if number is not None else "No secret objective."
    return "objective.png", objective_png(view, seat), alt_text(words)
