"""An animated replay of a finished game: every board growing turn by turn, the final scores last.

Each frame shows every seat's board as a grid of compact tiles (habitat colours and shapes, the
card's number, its season, Keystone and research marks) drawn from a public view only; the cards a
turn placed are framed. The last frame holds each board's final score, place and breakdown.
All frames share one size (800 x 551, landscape for Discord's inline box) and the fixed palette, so an animated
encoder stores only what changed from one frame to the next and the same game gives the same bytes.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from keystone.cards import Habitat
from keystone.data import load_catalog
from keystone.engine.results import view_scores
from keystone.engine.scoring import ScoreSheet, rank
from keystone.engine.views import GameView, SeatView
from keystone.engine.words import counted
from keystone.i18n import DEFAULT, Language, tr
from keystone.render import fonts
from keystone.render.board import check_cells
from keystone.render.common import canvas, pill, require_seat, require_view, token_count
from keystone.render.encode import shared_palette
from keystone.render.gif import write_gif
from keystone.render.icons import habitat_icon, icon, paste, season_icon
from keystone.render.palette import (
    ALERT,
    CARD,
    CARD_EDGE,
    GOLD,
    HABITAT_COLOUR,
    HABITAT_TINT,
    HIGHLIGHT,
    INK,
    MAT,
    MAT_EDGE,
    MUTED,
    PAGE,
    PAGE_DARK,
    SLOT,
    SLOT_TEXT,
    WHITE,
)
from keystone.render.scoresheet import ordinal

WIDTH = 800
"""Like every picture: Discord shows it about 400 px wide on a phone."""
MARGIN = 12
GAP = 12
TITLE_H = 96
"""The frame's title: round and mover, then what the turn did in up to two lines."""
PANEL_HEAD = 64
TILE_GAP = 5
PANEL_PAD = 10
FRAME_MS = 800
"""How long each turn shows: long enough to find the framed cards, short enough to watch a game."""
FIRST_MS = 1500
LAST_MS = 6000
"""The final scores stay up longest; then the replay starts again."""

MAX_BYTES = 8 * 1024 * 1024
"""Discord's upload limit for a bot's file: a replay larger than this is thinned, then refused."""
AIM_BYTES = 4 * 1024 * 1024
"""What a replay aims to stay under: turn frames are thinned until it does (or cannot be)."""


class ReplayTooLarge(ValueError):
    """Even with the fewest frames the replay would not fit Discord's upload limit; `str()` says so in
    English, `sentence(lang)` in any language."""

    def __init__(self, megabytes: int) -> None:
        self.megabytes = megabytes
        super().__init__(self.sentence())

    def sentence(self, lang: Language = DEFAULT) -> str:
        return tr(lang, "misc.replay.too_large", megabytes=self.megabytes)


@dataclass(frozen=True, slots=True)
class Frame:
    """One moment of the replay: a public view, the board that just played (None before the first
    turn) with the cells its turn filled, and what the turn did in words (public events only)."""

    view: GameView
    mover: int | None = None
    marked: tuple[int, ...] = ()
    caption: str = ""
    turn: int = 0
    """The turn played (0 for the first turn of the game): the round is told from it."""


@dataclass(frozen=True, slots=True)
class Final:
    """The end: the finished game's public view (objectives are revealed once it is over) and each
    seat's score sheet."""

    view: GameView
    sheets: tuple[ScoreSheet, ...]


# --------------------------------------------------------------------------- geometry


def columns(seats: int) -> int:
    return 1 if seats == 1 else 2


def panel_width(seats: int) -> int:
    """Half the width less the gap, for every game: a solo board is the same size, centred."""
    return (WIDTH - 2 * MARGIN - GAP) // 2


def tile_size(seats: int) -> int:
    """A square tile: four across a panel."""
    return (panel_width(seats) - 2 * PANEL_PAD - 3 * TILE_GAP) // 4


def panel_height(seats: int) -> int:
    return PANEL_HEAD + 4 * tile_size(seats) + 3 * TILE_GAP + 2 * PANEL_PAD


def frame_size(seats: int) -> tuple[int, int]:
    rows = -(-seats // columns(seats))
    return WIDTH, TITLE_H + rows * (panel_height(seats) + GAP) + MARGIN - GAP


def panel_origin(seats: int, index: int) -> tuple[int, int]:
    if seats == 1:
        return (WIDTH - panel_width(seats)) // 2, TITLE_H
    row, col = divmod(index, columns(seats))
    return MARGIN + col * (panel_width(seats) + GAP), TITLE_H + row * (panel_height(seats) + GAP)


# --------------------------------------------------------------------------- tiles


@functools.lru_cache(maxsize=512)
def tile(card_id: str, research: int, size: int) -> Image.Image:
    """A placed card as a square tile: a band of its habitats (colour and shape), its number large
    (W for a Wild card), its season, a gold corner for a Keystone and its research tokens."""
    card = load_catalog().card(card_id)
    image = Image.new("RGB", (size, size), MAT)
    draw = ImageDraw.Draw(image)
    edge = HABITAT_COLOUR[card.habitats[0]] if card.wild else CARD_EDGE
    fill = HABITAT_TINT[card.habitats[0]] if card.wild else CARD
    draw.rounded_rectangle((0, 0, size - 1, size - 1), radius=8, fill=fill, outline=edge, width=2)
    band = size * 3 // 10
    part = (size - 4) / len(card.habitats)
    mark = min(band - 6, int(part) - 4)
    for i, habitat in enumerate(card.habitats):
        left, right = round(2 + i * part), round(2 + (i + 1) * part) - 1
        draw.rectangle((left, 2, right, band), fill=HABITAT_COLOUR[habitat])
        if mark >= 12:
            paste(image, _on_white(habitat, mark), ((left + right - mark) // 2, 2 + (band - mark) // 2))
    text = "W" if card.number is None else str(card.number)
    fonts.draw_text(image, (size / 2, band + (size - band) * 0.42), text, size * 2 // 5, INK, anchor="mm", bold=True)
    corner = size // 4
    if card.season is not None:
        paste(image, season_icon(card.season, corner), (4, size - corner - 4))
    if card.keystone:
        draw.polygon([(size - 3 - corner, band + 1), (size - 3, band + 1), (size - 3, band + 1 + corner)], fill=GOLD)
    if research:
        paste(image, icon("research", corner), (size - corner - 4, size - corner - 4))
        if research > 1:
            fonts.draw_text(image, (size - corner - 6, size - corner // 2 - 4), f"{research}", 18, INK, anchor="rm",
                            bold=True)
    return image


@functools.cache
def _on_white(habitat: Habitat, size: int) -> Image.Image:
    """A habitat's shape on a white disc, so it reads on its own colour."""
    from_icon = habitat_icon(habitat, size - 4)
    disc = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    ImageDraw.Draw(disc).ellipse((0, 0, size - 1, size - 1), fill=WHITE)
    disc.paste(from_icon, (2, 2), from_icon)
    return disc


@functools.lru_cache(maxsize=64)
def empty_tile(label: str, size: int) -> Image.Image:
    image = Image.new("RGB", (size, size), MAT)
    ImageDraw.Draw(image).rounded_rectangle((0, 0, size - 1, size - 1), radius=8, fill=SLOT, outline=MAT_EDGE)
    fonts.draw_text(image, (size / 2, size / 2), label, 20, SLOT_TEXT, anchor="mm")
    return image


# --------------------------------------------------------------------------- panels and frames


def _draw_panel(image: Image.Image, xy: tuple[int, int], view: GameView, seat: SeatView, points: int,
                moved: bool, marked: Sequence[int], result: tuple[ScoreSheet, int] | None, lang: Language) -> None:
    """One seat: name and points above its grid; the mover's panel and the cards it placed framed;
    at the end the place and how the total is made."""
    seats = len(view.seats)
    x, y = xy
    width, height, size = panel_width(seats), panel_height(seats), tile_size(seats)
    draw = ImageDraw.Draw(image)
    outline = HIGHLIGHT if moved else PAGE_DARK
    draw.rounded_rectangle((x, y, x + width - 1, y + height - 1), radius=14, fill=PAGE_DARK, outline=outline,
                           width=4 if moved else 1)
    left, right = x + PANEL_PAD, x + width - PANEL_PAD
    score = counted("word.point", points if result is None else result[0].total, lang)
    fonts.draw_text(image, (right, y + 22), score, 22, INK, anchor="rm", bold=True)
    room = right - left - fonts.width(score, 22, bold=True) - 12
    place = None if result is None or seats == 1 else result[1]
    if place is not None:
        won = place == 1 and view.resigned != seat.index
        resigned = view.resigned == seat.index
        label = ordinal(place, lang) if not won else tr(lang, "picture.wins")
        label = tr(lang, "picture.resigned") if resigned else label
        badge = pill(image, (left, y + 22), label, GOLD if won else (ALERT if resigned else MUTED),
                     INK if won else WHITE, size=20)
        left_name, room = left + badge + 8, room - badge - 8
    else:
        left_name = left
    fonts.draw_text(image, (left_name, y + 22), fonts.fit(seat.name, 24, room), 24, INK, anchor="lm", bold=True)
    _detail(image, draw, (left, y + 50), right - left, seat, result, lang)
    grid_top = y + PANEL_HEAD
    draw.rounded_rectangle((left - 4, grid_top - 4, right + 3, grid_top + 4 * size + 3 * TILE_GAP + 3), radius=10,
                           fill=MAT)
    for i, placed in enumerate(seat.board):
        row, col = divmod(i, 4)
        cx, cy = left + col * (size + TILE_GAP), grid_top + row * (size + TILE_GAP)
        face = empty_tile(CELLS[i], size) if placed is None else tile(placed.card, placed.research, size)
        image.paste(face, (cx, cy))
        if i in marked:
            draw.rounded_rectangle((cx - 3, cy - 3, cx + size + 2, cy + size + 2), radius=10, outline=HIGHLIGHT,
                                   width=5)


CELLS = tuple(f"{row}{col}" for row in "ABCD" for col in range(1, 5))


def _detail(image: Image.Image, draw: ImageDraw.ImageDraw, xy: tuple[int, int], width: int, seat: SeatView,
            result: tuple[ScoreSheet, int] | None, lang: Language) -> None:
    """Under the name: synergy and cells filled while playing; at the end, how the total is made."""
    x, y = xy
    if result is None:
        used = token_count(image, draw, (x, y), "synergy", seat.synergy, size=24, text_size=20)
        filled = sum(p is not None for p in seat.board)
        fonts.draw_text(image, (x + used + 16, y), tr(lang, "picture.cells", filled=filled), 20, MUTED, anchor="lm")
        return
    sheet = result[0]
    lines = sum(line.points for line in (*sheet.rows, *sheet.columns))
    parts = tr(lang, "picture.breakdown", lines=lines, goals=sheet.objective_points, synergy=sheet.synergy_points)
    fonts.draw_text(image, (x, y), fonts.fit(parts, 20, width), 20, MUTED, anchor="lm")


def _title(image: Image.Image, heading: str, progress: str, caption: str) -> None:
    fonts.draw_text(image, (WIDTH - MARGIN, MARGIN + 18), progress, 20, MUTED, anchor="rm")
    room = WIDTH - 2 * MARGIN - fonts.width(progress, 20) - 16
    fonts.draw_text(image, (MARGIN, MARGIN + 18), fonts.fit(heading, 28, room), 28, INK, anchor="lm", bold=True)
    for i, line in enumerate(fonts.wrap(caption, 20, WIDTH - 2 * MARGIN, max_lines=2)):
        fonts.draw_text(image, (MARGIN, MARGIN + 50 + 24 * i), line, 20, INK, anchor="lm")


def _points(view: GameView) -> list[int]:
    """Each board's points so far as the public sees them (hidden objectives do not count yet)."""
    return [sheet.total for sheet in view_scores(view)]


def frame_image(frame: Frame, number: int, count: int, lang: Language = DEFAULT) -> Image.Image:
    """Frame `number` (1-based) of `count`: the title, then every board."""
    view = require_view(frame.view, "frame_image")
    mover = None if frame.mover is None else require_seat(view, frame.mover)
    marked = check_cells(frame.marked)
    image, _ = canvas(*frame_size(len(view.seats)), PAGE)
    players = max(1, len(view.seats))
    heading = (tr(lang, "picture.begins") if mover is None
               else tr(lang, "picture.round.mover", number=frame.turn // players + 1, name=view.seats[mover].name))
    _title(image, heading, f"{number}/{count}", frame.caption)
    for seat, points in zip(view.seats, _points(view), strict=True):
        moved = seat.index == mover
        _draw_panel(image, panel_origin(players, seat.index), view, seat, points, moved,
                    marked if moved else (), None, lang)
    return image


def final_image(final: Final, count: int, caption: str, lang: Language = DEFAULT) -> Image.Image:
    """The last frame: every board with its final score, place and breakdown."""
    view = require_view(final.view, "final_image")
    if not view.over:
        raise ValueError("The final frame needs the view of a finished game.")
    if len(final.sheets) != len(view.seats):
        raise ValueError(f"Expected one score sheet per seat ({len(view.seats)}), got {len(final.sheets)}.")
    for seat, sheet in zip(view.seats, final.sheets, strict=True):
        if sheet.objective is not None and sheet.objective != seat.objective:
            raise ValueError(f"The sheet for {seat.name} shows a secret objective that this view may not see.")
    image, _ = canvas(*frame_size(len(view.seats)), PAGE)
    places = rank(final.sheets, view.resigned)
    _title(image, tr(lang, "picture.final"), f"{count}/{count}", caption)
    for seat, sheet, place in zip(view.seats, final.sheets, places, strict=True):
        _draw_panel(image, panel_origin(len(view.seats), seat.index), view, seat, sheet.total, False, (),
                    (sheet, place), lang)
    return image


# --------------------------------------------------------------------------- the animation

THINNING = (1, 2, 3, 4, 6, 8)
"""Keep every turn frame, then every 2nd, 3rd... until the file fits (first and last always stay)."""


def render_replay(frames: Sequence[Frame], final: Final, caption: str, lang: Language = DEFAULT) -> bytes:
    """An animated GIF of the game in `lang`: `frames` (the start, then one per turn), then the final
    scores with `caption`. Deterministic: the same frames give the same bytes.

    If the file would exceed AIM_BYTES, turn frames are thinned (every 2nd, 3rd... kept); raises
    ReplayTooLarge when even the thinnest would exceed Discord's limit (MAX_BYTES)."""
    if not frames:
        raise ValueError("A replay needs at least its first frame.")
    data = b""
    for step in THINNING:
        data = encode(thinned(frames, step), final, caption, lang)
        if len(data) <= AIM_BYTES:
            return data
    if len(data) > MAX_BYTES:
        raise ReplayTooLarge(len(data) // (1024 * 1024))
    return data


def thinned(frames: Sequence[Frame], step: int) -> list[Frame]:
    """The first frame, then every `step`-th turn frame counted back from the last turn."""
    turns = list(frames[1:])
    kept = turns[len(turns) - 1::-step][::-1] if turns else []
    return [frames[0], *kept]


def durations(count: int) -> list[int]:
    """Milliseconds per frame: the start a little longer, the final scores longest."""
    if count == 1:
        return [LAST_MS]
    return [FIRST_MS] + [FRAME_MS] * (count - 2) + [LAST_MS]


def encode(frames: Sequence[Frame], final: Final, caption: str, lang: Language = DEFAULT) -> bytes:
    """Every frame drawn one at a time, put on the shared palette and streamed to the GIF writer."""
    count = len(frames) + 1
    palette = shared_palette().getpalette() or []
    palette += [0] * (768 - len(palette))
    return write_gif(_indexed(_drawn(frames, final, caption, count, lang)), count, durations(count), palette)


def _drawn(frames: Sequence[Frame], final: Final, caption: str, count: int,
           lang: Language) -> Iterator[Image.Image]:
    for number, frame in enumerate(frames, start=1):
        yield frame_image(frame, number, count, lang)
    yield final_image(final, count, caption, lang)


def _indexed(images: Iterable[Image.Image]) -> Iterator[Image.Image]:
    """Each picture on the fixed palette: a quarter of the memory of RGB, and exact colours."""
    palette = shared_palette()
    for image in images:
        yield image.quantize(palette=palette, dither=Image.Dither.NONE)
