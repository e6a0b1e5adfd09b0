"""Pictures: drawn from views only, deterministic, within size limits, and different when the game
differs. Looking at them is the demo's job (python -m keystone render --demo DIR)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops, ImageStat

from keystone.cards import Habitat
from keystone.cli.render import main as render_main
from keystone.cli.render import rulebook_view
from keystone.data import load_catalog
from keystone.engine import GameState, apply_text, player_view, public_view
from keystone.engine.state import PlacedCard
from keystone.render import board as board_art
from keystone.render import cards as card_art
from keystone.render import (
    common,
    encode,
    fonts,
    glyphs,
    icons,
    palette,
    render_board,
    render_card,
    render_scoresheet,
    render_table,
    render_turn,
    tabletop,
    text_board,
    text_table,
    warm_up,
)
from keystone.render import table as table_art
from keystone.render import tiles as tile_art
from keystone.render import turn as turn_art
from keystone.render.icons import habitat_icon
from tests.render_helpers import drawn_hand, finished, image, play, sheets, start

MAX_WIDTH = 1200
MAX_BOARD_BYTES = 300 * 1024


# --------------------------------------------------------------------------- views only


@pytest.mark.parametrize(
    "call",
    [
        lambda s: render_board(s, 0),
        lambda s: render_table(s),
        lambda s: render_turn(s, 0),
        lambda s: render_scoresheet(s, []),
        lambda s: text_board(s, 0),
        lambda s: text_table(s),
    ],
    ids=["board", "table", "turn", "scoresheet", "text_board", "text_table"],
)
def test_a_full_game_state_is_refused(call: Callable[[GameState], object]) -> None:
    state = start()
    with pytest.raises(TypeError, match="GameView"):
        call(state)


def test_a_seat_that_does_not_exist_is_a_clear_error() -> None:
    view = public_view(start())
    with pytest.raises(ValueError, match="There is no seat 2"):
        render_board(view, 2)
    with pytest.raises(ValueError, match="There is no seat -1"):
        render_turn(view, -1)


def test_the_score_sheet_needs_one_sheet_per_seat() -> None:
    view = public_view(finished())
    with pytest.raises(ValueError, match="one score sheet per seat"):
        render_scoresheet(view, sheets(view)[:1])


def test_a_score_sheet_may_not_reveal_an_objective_the_view_hides() -> None:
    over = finished()
    full = sheets(public_view(over))
    mid_game = public_view(play(start(), 6))  # objectives hidden from the public mid-game
    with pytest.raises(ValueError, match="may not see"):
        render_scoresheet(mid_game, full)


def test_a_drawn_hand_shows_only_to_its_drawer() -> None:
    state = drawn_hand()
    names = [load_catalog().card(c).name for c in state.held]
    own = text_table(player_view(state, state.current))
    public = text_table(public_view(state))
    assert all(name in own for name in names)
    assert not any(name in public for name in names)
    assert render_table(player_view(state, state.current)) != render_table(public_view(state))


# --------------------------------------------------------------------------- determinism and limits


def _clear_caches(*keep: object) -> None:
    """Forget every cached sprite, template and glyph in the renderer, except the caches in `keep`."""
    for module in (board_art, card_art, common, encode, fonts, glyphs, icons, table_art, tabletop, tile_art):
        for value in vars(module).values():
            clear = getattr(value, "cache_clear", None)
            if callable(clear) and value not in keep:
                clear()


def test_same_view_same_bytes_even_with_cold_caches() -> None:
    view = public_view(finished())
    first = (render_board(view, 0), render_table(view), render_turn(view, 1))
    _clear_caches()
    second = (render_board(view, 0), render_table(view), render_turn(view, 1))
    assert first == second


def test_the_shared_palette_keeps_every_named_colour() -> None:
    named = encode._named_colours()
    swatches = Image.new("RGB", (10 * len(named), 10))
    for i, colour in enumerate(named):
        swatches.paste(colour, (10 * i, 0, 10 * i + 10, 10))
    decoded = image(encode.png(swatches)).convert("RGB")
    for i, colour in enumerate(named):
        got = decoded.getpixel((10 * i + 5, 5))
        assert isinstance(got, tuple)
        assert max(abs(a - b) for a, b in zip(got, colour, strict=True)) <= 6, (colour, got)


def test_encoding_loses_almost_nothing() -> None:
    picture = table_art.render_table_image(public_view(finished()))
    decoded = image(encode.png(picture)).convert("RGB")
    error = ImageStat.Stat(ImageChops.difference(picture, decoded)).mean
    assert max(error) < 3


def test_full_board_fits_the_limits() -> None:
    view = rulebook_view()
    assert all(p is not None for p in view.seats[0].board)
    data = render_board(view, 0)
    assert len(data) <= MAX_BOARD_BYTES
    assert image(data).width <= MAX_WIDTH


def test_every_picture_is_at_most_1200_px_wide_even_with_four_players() -> None:
    over = finished(players=4, seed=5)
    view = public_view(over)
    pictures = [render_board(view, 3), render_table(view), render_turn(view, 2), render_scoresheet(view, sheets(view))]
    for data in pictures:
        assert image(data).width <= MAX_WIDTH


def test_no_text_is_drawn_below_14_px(monkeypatch: pytest.MonkeyPatch) -> None:
    """Card faces are drawn at twice their size, so their text must be at least 28 px there."""
    sizes: list[tuple[int, bool]] = []
    real = fonts._mask

    def spy(text: str, size: int, bold: bool, anchor: str) -> object:
        sizes.append((size, in_face))
        return real(text, size, bold, anchor)

    in_face = False
    _clear_caches()
    monkeypatch.setattr(fonts, "_mask", spy)
    view = public_view(finished())
    render_turn(view, 0)
    render_scoresheet(view, sheets(view))
    in_face = True
    for card in load_catalog().all_cards():
        card_art.draw_face(card.id)
    assert sizes
    assert all(size >= (2 * fonts.MIN_SIZE if face else fonts.MIN_SIZE) for size, face in sizes)
    monkeypatch.undo()
    _clear_caches()


# --------------------------------------------------------------------------- different games, different pictures


def test_placing_a_card_changes_the_board_picture() -> None:
    state = start()
    before = render_board(public_view(state), 0)
    after_state, _ = apply_text(state, "take 6 B2")
    after = render_board(public_view(after_state), 0)
    assert before != after
    diff = ImageChops.difference(image(before).convert("RGB"), image(after).convert("RGB")).getbbox()
    assert diff is not None


def test_research_tokens_show_on_the_board() -> None:
    view = rulebook_view()
    sally = view.seats[0]
    cleared = replace(sally, board=tuple(None if p is None else PlacedCard(p.card, 0) for p in sally.board))
    assert render_board(view, 0) != render_board(replace(view, seats=(cleared, view.seats[1])), 0)


def test_the_table_changes_when_the_field_does() -> None:
    state = start()
    moved, _ = apply_text(state, "take 1 A1")
    assert render_table(public_view(state)) != render_table(public_view(moved))


def test_each_seat_gets_its_own_board_in_the_turn_picture() -> None:
    view = public_view(finished())
    assert render_turn(view, 0) != render_turn(view, 1)


def test_the_turn_picture_holds_the_field_and_the_board() -> None:
    """Both chat pictures are one inline shape; the turn's right part is the Field, its left the board."""
    view = public_view(play(start(), 8))
    turn = image(render_turn(view, view.current)).convert("RGB")
    table = image(render_table(view))
    assert turn.size == table.size == (tile_art.PIC_W, tile_art.PIC_H)
    cleared = replace(view, field=tuple(None for _ in view.field))
    right = (turn_art.RIGHT_X, 0, turn.width, turn.height)
    no_field = image(render_turn(cleared, view.current)).convert("RGB")
    assert ImageChops.difference(turn.crop(right), no_field.crop(right)).getbbox() is not None
    left = (0, 0, turn_art.RIGHT_X, turn.height)
    other = image(render_turn(view, 1 - view.current)).convert("RGB")
    assert ImageChops.difference(turn.crop(left), other.crop(left)).getbbox() is not None


def test_the_score_sheet_follows_the_scores() -> None:
    view = public_view(finished())
    richer = replace(view, seats=(replace(view.seats[0], synergy=view.seats[0].synergy + 30), view.seats[1]))
    assert sheets(richer)[0].total == sheets(view)[0].total + 10
    assert render_scoresheet(view, sheets(view)) != render_scoresheet(richer, sheets(richer))


# --------------------------------------------------------------------------- art


def test_habitats_differ_by_shape_not_only_colour() -> None:
    """Colour-blind players tell habitats apart by outline: compare the icons' alpha masks."""
    masks = {h: habitat_icon(h, 48).getchannel("A").point(lambda a: 255 if a > 128 else 0) for h in Habitat}
    habitats = list(Habitat)
    for i, a in enumerate(habitats):
        for b in habitats[i + 1 :]:
            union = ImageChops.lighter(masks[a], masks[b]).histogram()[255]
            inter = ImageChops.darker(masks[a], masks[b]).histogram()[255]
            assert inter / union < 0.85, f"{a} and {b} have nearly the same shape"


def test_a_wild_card_looks_unlike_any_species_card() -> None:
    catalog = load_catalog()
    wild = card_art.card_face(catalog.wilds[0].id).convert("RGB")
    for species in catalog.species[:20]:
        diff = ImageChops.difference(wild, card_art.card_face(species.id).convert("RGB")).convert("L")
        changed = sum(diff.point(lambda v: 255 if v > 40 else 0).histogram()[255:])
        assert changed > wild.width * wild.height // 5


def test_warm_up_draws_every_card_face_in_advance() -> None:
    _clear_caches()
    warm_up()
    assert card_art._face.cache_info().currsize == len(load_catalog().all_cards())


def test_render_card_draws_a_card_and_refuses_an_unknown_id() -> None:
    picture = image(render_card("coyote"))
    assert picture.size == (palette.CARD_W, palette.CARD_H)
    with pytest.raises(KeyError):
        render_card("no-such-card")


def test_empty_cells_show_their_own_coordinate() -> None:
    assert card_art.empty_cell("B3").tobytes() != card_art.empty_cell("C3").tobytes()


# --------------------------------------------------------------------------- properties


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 60))
def test_any_reachable_view_renders_within_limits(seed: int, steps: int) -> None:
    state = play(start(2, seed % 50), steps, seed)
    for view in (public_view(state), player_view(state, state.current)):
        for data in (render_board(view, state.current), render_table(view)):
            picture = image(data)
            assert picture.width <= MAX_WIDTH
            assert picture.height > 0
        assert render_table(view) == render_table(view)


# --------------------------------------------------------------------------- the demo command


def test_demo_writes_every_picture(tmp_path: Path) -> None:
    assert render_main(["--demo", str(tmp_path)]) == 0
    names = {p.name for p in tmp_path.iterdir()}
    for required in ("board-empty.png", "board-full.png", "table-start.png", "table-late.png", "scoresheet.png"):
        assert required in names
    for path in tmp_path.glob("*.png"):
        with Image.open(path) as picture:
            assert picture.width <= MAX_WIDTH or path.name == "cards.png"


def test_the_demo_speaks_german_when_asked(tmp_path: Path) -> None:
    english, german = tmp_path / "en", tmp_path / "de"
    assert render_main(["--demo", str(english)]) == 0 and render_main(["--demo", str(german), "--lang", "de"]) == 0
    assert "Row A" in (english / "scores.txt").read_text() and "Reihe A" in (german / "scores.txt").read_text()
    assert (english / "turn-late.png").read_bytes() != (german / "turn-late.png").read_bytes()


def test_demo_refuses_bad_options_politely(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert render_main(["--demo"]) == 2
    assert "usage" in capsys.readouterr().err
    assert render_main(["--demo", str(tmp_path), "--seed", "x"]) == 2
    assert "Argument --seed: 'x' is not a whole number" in capsys.readouterr().err
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert render_main(["--demo", str(blocker)]) == 2
    assert "not a folder" in capsys.readouterr().err
