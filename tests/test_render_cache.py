"""The render caches (card faces, placed and flattened faces, icons) and the PNG encoder: a cached
picture is the picture a fresh draw gives, every cache is bounded, faces are keyed by language and
size, and the same image always gives the same bytes."""

from __future__ import annotations

import functools
import io
import zlib
from typing import Any

import pytest
from PIL import Image, ImageChops

from keystone.data import load_catalog
from keystone.engine import public_view
from keystone.render import cards, encode, icons, render_board, render_table, render_turn, tabletop, tiles, turn
from keystone.render.palette import CARD_H, CARD_W, MAT, PAGE
from tests.render_helpers import finished, image

SPECIES = "coyote"


def _bounded(cache: Any) -> bool:
    info = cache.cache_info()
    return info.maxsize is not None and info.currsize <= info.maxsize


def test_a_cached_face_has_the_pixels_of_a_fresh_draw() -> None:
    for lang in ("en", "de"):
        assert cards.card_face(SPECIES, lang).tobytes() == cards.draw_face(SPECIES, lang).tobytes()
        assert cards.card_face(SPECIES, lang, 120).tobytes() == cards.draw_face(SPECIES, lang, 120).tobytes()
    cards._placed.cache_clear()
    placed = cards.placed_face(SPECIES, 2).tobytes()
    cards._placed.cache_clear()
    assert cards.placed_face(SPECIES, 2).tobytes() == placed


def test_a_face_is_drawn_once_however_it_is_asked_for() -> None:
    cards._face.cache_clear()
    first = cards.card_face(SPECIES)
    assert cards.card_face(SPECIES, "en") is first
    assert cards.card_face(SPECIES, "en", CARD_W) is first
    assert cards.placed_face(SPECIES, 0) is first
    assert cards._face.cache_info().currsize == 1


def test_faces_are_keyed_by_language() -> None:
    english, german = cards.card_face(SPECIES, "en"), cards.card_face(SPECIES, "de")
    assert english.size == german.size
    assert english.tobytes() != german.tobytes()
    assert cards.flat_face(SPECIES, "en").tobytes() != cards.flat_face(SPECIES, "de").tobytes()


def test_a_smaller_face_keeps_the_card_whole_and_its_proportions() -> None:
    small = cards.card_face(SPECIES, width=120)
    assert small.size == (120, cards.face_height(120)) == (120, round(120 * CARD_H / CARD_W))
    assert small.mode == "RGBA"
    # The whole card scaled down, not a crop: close to the full face scaled the same way.
    scaled = cards.card_face(SPECIES).resize(small.size, Image.Resampling.LANCZOS)
    delta = sum(abs(a - b) for a, b in zip(small.tobytes(), scaled.tobytes(), strict=True)) / len(small.tobytes())
    assert delta < 6
    assert cards.placed_face(SPECIES, 1, width=120).size == small.size


def test_a_flat_face_pastes_as_the_alpha_paste_does_on_its_background() -> None:
    for background in (PAGE, MAT):
        for research in (0, 2):
            face = cards.placed_face(SPECIES, research)
            flat = cards.flat_face(SPECIES, research=research, background=background)
            assert flat.mode == "RGB" and flat.size == face.size
            blended = Image.new("RGB", (CARD_W + 20, CARD_H + 20), background)
            copied = blended.copy()
            icons.paste(blended, face, (10, 10))
            icons.paste(copied, flat, (10, 10))  # an RGB sprite is copied with no mask
            assert blended.tobytes() == copied.tobytes()
    assert cards.flat_face(SPECIES, background=PAGE).tobytes() != cards.flat_face(SPECIES, background=MAT).tobytes()


def test_every_cache_is_bounded() -> None:
    for cache in (cards._face, cards._placed, cards._flat, cards.card_back, cards.empty_cell, cards.empty_slot,
                  icons.icon):
        assert _bounded(cache), cache
    assert cards.FACE_CACHE >= 2 * 95  # every card in both languages fits at full size
    icons.icon.cache_clear()
    for size in range(8, 8 + icons.ICON_CACHE + 20):
        icons.icon("check", size)
    info = icons.icon.cache_info()
    assert info.currsize == icons.ICON_CACHE
    icons.icon.cache_clear()


def test_the_module_caches_in_render_are_all_bounded() -> None:
    """No unbounded functools.cache on a function taking a size or a card: a long-running bot would
    keep every picture piece it ever drew."""
    for module in (cards, icons):
        for name, value in vars(module).items():
            mine = getattr(value, "__module__", None) == module.__name__
            if mine and isinstance(value, functools._lru_cache_wrapper) and value.cache_info().maxsize is None:
                pytest.fail(f"{module.__name__}.{name} is cached without a bound")


def test_encoding_is_deterministic() -> None:
    view = public_view(finished())
    assert render_turn(view, 0) == render_turn(view, 0)
    assert render_table(view) == render_table(view)
    assert render_board(view, 1) == render_board(view, 1)
    picture = image(render_turn(view, 0)).convert("RGB")
    assert encode.png(picture) == encode.png(picture.copy())


def test_the_own_png_writer_gives_the_pixels_pillow_writes() -> None:
    picture = image(render_turn(public_view(finished()), 0)).convert("RGB")
    indexed = encode.indexed(picture)
    written = encode.write_png(indexed, lambda raw: zlib.compress(raw, 1))
    assert written == encode.write_png(indexed, lambda raw: zlib.compress(raw, 1))
    decoded = Image.open(io.BytesIO(written))
    assert decoded.format == "PNG" and decoded.mode == "P" and decoded.size == picture.size
    assert decoded.convert("RGB").tobytes() == image(encode.png(picture)).convert("RGB").tobytes()
    with pytest.raises(ValueError, match="indexed"):
        encode.write_png(picture, zlib.compress)


def test_pictures_stay_small() -> None:
    view = public_view(finished(4))
    for data in (render_turn(view, 0), render_table(view), render_board(view, 0)):
        assert len(data) < 300 * 1024


def test_with_isal_installed_the_picture_is_the_same_but_for_its_deflate_stream(monkeypatch: pytest.MonkeyPatch) -> None:
    isal_zlib = pytest.importorskip("isal.isal_zlib")
    picture = image(render_turn(public_view(finished()), 0)).convert("RGB")
    monkeypatch.setattr(encode, "_isal", isal_zlib)
    fast = encode.png(picture)
    assert fast == encode.png(picture)
    monkeypatch.setattr(encode, "_isal", None)
    assert image(fast).convert("RGB").tobytes() == image(encode.png(picture)).convert("RGB").tobytes()


# --------------------------------------------------------------------------- pictures composed from kept pieces


def _cell_labels_box() -> tuple[int, int, int, int]:
    """The part of a cell its coordinate ("A1") is lettered in, the same for all sixteen cells, whose
    grounds (the cell without its letters) are all alike."""
    def cell(i: int) -> tuple[int, int, int, int]:
        x, y = tiles.tile_origin(i)
        return x, y, x + tiles.TILE_W, y + tiles.TILE_H

    ground = tiles._bare_cells().crop(cell(0)).tobytes()
    boxes = []
    for i in range(16):
        assert tiles._bare_cells().crop(cell(i)).tobytes() == ground
        lettered = ImageChops.difference(tiles._empty_mat().crop(cell(i)), tiles._bare_cells().crop(cell(i)))
        box = lettered.getbbox(alpha_only=False)
        assert box is not None
        boxes.append(box)
    return min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes)


def test_every_tile_hides_its_cells_coordinate_so_one_cell_serves_all_sixteen() -> None:
    """`cell_tile` is flattened on cell A1's ground without its letters: exact only if every tile
    is opaque over the letters of any cell, whatever the card, language or research."""
    box = _cell_labels_box()
    for card in load_catalog().all_cards():
        for lang, research in (("en", 0), ("de", 0), ("en", 1), ("de", 3)):
            alpha = tiles.card_tile(card.id, research, lang).getchannel("A").crop(box)
            assert alpha.getextrema() == (255, 255), (card.id, lang, research)


def test_a_board_of_flat_tiles_is_the_board_of_alpha_pasted_tiles() -> None:
    view = public_view(finished(4))
    for seat in view.seats:
        mat = tiles._empty_mat().copy()
        for i, placed in enumerate(seat.board):
            if placed is not None:
                tile = tiles.card_tile(placed.card, placed.research)
                mat.paste(tile, tiles.tile_origin(i), tile)
        blended = Image.new("RGB", (tiles.PIC_W, tiles.PIC_H), PAGE)
        blended.paste(mat, (tiles.MARGIN, tiles.MARGIN), mat)
        flat = tiles.board_page((tiles.PIC_W, tiles.PIC_H), (tiles.MARGIN, tiles.MARGIN)).copy()
        tiles.paste_board(flat, (tiles.MARGIN, tiles.MARGIN), seat)
        assert flat.tobytes() == blended.tobytes()


def test_the_turn_picture_drawn_on_the_palette_is_the_rgb_picture_mapped_onto_it() -> None:
    """`render_turn` keeps the board's pieces mapped onto the palette and maps only the column beside
    it: the very bytes of mapping the whole RGB picture."""
    for players in (2, 4):
        view = public_view(finished(players))
        for mover, marked in ((0, ()), (players - 1, (0, 5, 15))):
            assert render_turn(view, mover, marked) == encode.png(turn.render_turn_image(view, mover, marked))


def test_a_kept_piece_pastes_the_pixels_drawing_it_there_gives() -> None:
    view = public_view(finished())
    for stage in (None, ("Final round", PAGE)):
        drawn = Image.new("RGB", (600, 120), PAGE)
        tabletop._draw_track(drawn, (20, 20), 500, max(view.time_start, view.time), view.time, "en", 46, stage)
        pasted = Image.new("RGB", (600, 120), PAGE)
        tabletop.time_track(pasted, (20, 20), 500, view, "en", 46, stage)
        assert pasted.tobytes() == drawn.tobytes()


def test_a_framed_picture_writes_the_png_write_png_writes() -> None:
    picture = encode.indexed(image(render_turn(public_view(finished()), 0)).convert("RGB"))
    holder = encode.framed(picture.size)
    holder.paste(picture, (0, 0))
    assert encode.png_framed(holder) == encode.write_png(picture, encode._deflate)
