"""Pictures for messages, drawn by keystone.render; a plain text card stands in for any picture
the renderer fails to draw, so a rendering problem never blocks a move."""

from __future__ import annotations

import io
import logging
from collections.abc import Callable, Sequence

from PIL import Image, ImageDraw

from keystone import render
from keystone.app import text
from keystone.engine import GameView
from keystone.engine.scoring import ScoreSheet

log = logging.getLogger(__name__)


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


def field_png(view: GameView) -> bytes:
    return _draw(lambda: render.render_table(view), lambda: text.field_lines(view))


def board_png(view: GameView, seat: int) -> bytes:
    return _draw(lambda: render.render_board(view, seat), lambda: text.board_lines(view, seat))


def scores_png(view: GameView, sheets: Sequence[ScoreSheet]) -> bytes:
    return _draw(lambda: render.render_scoresheet(view, list(sheets)), lambda: text.score_lines(view, sheets))
