"""Pictures for messages, drawn by keystone.render; a plain text card stands in for any picture
the renderer cannot draw, so a rendering problem never blocks a move."""

from __future__ import annotations

import importlib
import io
import logging
from collections.abc import Callable, Sequence
from typing import Any

from PIL import Image, ImageDraw

from keystone.app import text
from keystone.engine import GameView
from keystone.engine.scoring import ScoreSheet

log = logging.getLogger(__name__)


def _renderer(name: str) -> Callable[..., bytes] | None:
    try:
        module = importlib.import_module("keystone.render")
    except ImportError:
        return None
    found: Any = getattr(module, name, None)
    return found if callable(found) else None


def _placeholder(lines: Sequence[str]) -> bytes:
    width, height = 640, 24 + 18 * len(lines)
    image = Image.new("RGB", (width, height), (246, 241, 228))
    draw = ImageDraw.Draw(image)
    for row, line in enumerate(lines):
        draw.text((12, 12 + 18 * row), line, fill=(40, 40, 40))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def _draw(name: str, fallback: Callable[[], Sequence[str]], *args: object) -> bytes:
    render = _renderer(name)
    if render is not None:
        try:
            return render(*args)
        except Exception:
            log.exception("render %s failed; sending a plain picture instead", name)
    return _placeholder(fallback())


def field_png(view: GameView) -> bytes:
    return _draw("render_table", lambda: text.field_lines(view), view)


def board_png(view: GameView, seat: int) -> bytes:
    return _draw("render_board", lambda: text.board_lines(view, seat), view, seat)


def scores_png(view: GameView, sheets: Sequence[ScoreSheet]) -> bytes:
    return _draw("render_scoresheet", lambda: text.score_lines(view, sheets), view, list(sheets))
