"""The render caches (card faces, placed and flattened faces, icons) and the PNG encoder: a cached
picture is the picture a fresh draw gives, every cache is bounded, faces are keyed by language and
size, and the same image always gives the same bytes."""

from __future__ import annotations

import functools
import io
import zlib
from typing import Any

import pytest
from PIL import Image

from keystone.engine import public_view
from keystone.render import cards, encode, icons, render_board, render_table, render_turn
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
