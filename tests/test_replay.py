"""Replays: a finished game rebuilt from seed and log into public frames, drawn as an animated GIF
that is deterministic, fits Discord's limit and has one frame per turn plus the start and the end."""

from __future__ import annotations

import functools
import io
import random

import pytest
from PIL import Image, ImageSequence

from keystone.app.replays import NotFinished, Unreplayable, final_words, rebuild, replay_file
from keystone.cli.simulate import bot_game
from keystone.engine import GameState, apply, is_over, legal_actions, new_game
from keystone.engine.history import rebuild as play_log
from keystone.render.encode import shared_palette
from keystone.render.gif import write_gif
from keystone.render.replay import (
    AIM_BYTES,
    FIRST_MS,
    FRAME_MS,
    LAST_MS,
    WIDTH,
    Final,
    Frame,
    ReplayTooLarge,
    final_image,
    frame_image,
    frame_size,
    render_replay,
    thinned,
)
from tests.engine_helpers import game
from tests.render_helpers import frame_count


@functools.cache
def finished(players: int, seed: int = 5) -> tuple[GameState, tuple[str, ...]]:
    """A whole game between easy bots (their boards fill up, as people's do): its start and log."""
    end, log, problems = bot_game(seed, ["easy"] * players, check=False)
    assert not problems and is_over(end)
    return new_game(end.config, end.seed, [s.name for s in end.seats]), tuple(log)


@functools.cache
def picture(players: int) -> bytes:
    start, log = finished(players)
    return replay_file(start, list(log), players)[1]


def frames_of(data: bytes) -> list[Image.Image]:
    animation = Image.open(io.BytesIO(data))
    assert animation.format == "GIF" and getattr(animation, "is_animated", False)
    return [frame.copy() for frame in ImageSequence.Iterator(animation)]


def turns(start: GameState, log: tuple[str, ...]) -> int:
    return sum(s.turns for s in rebuild(start, list(log)).end.seats)


@pytest.mark.parametrize("players", [2, 4])
def test_one_frame_per_turn_plus_the_start_and_the_final_scores(players: int) -> None:
    start, log = finished(players)
    animation = Image.open(io.BytesIO(picture(players)))
    assert frame_count(picture(players)) == turns(start, log) + 2
    assert animation.size == frame_size(players) and animation.width == WIDTH
    shown = [frame.info["duration"] for frame in ImageSequence.Iterator(animation)]
    assert shown[0] == FIRST_MS and shown[-1] == LAST_MS and set(shown[1:-1]) == {FRAME_MS}
    assert animation.info["loop"] == 0


def test_a_four_player_replay_fits_well_under_discords_limit() -> None:
    data = picture(4)
    assert len(data) < AIM_BYTES, f"{len(data) / 1024:.0f} KB"
    assert len(data) < 3 * 1024 * 1024, "the replay grew: look at what every frame now redraws"


def test_the_same_game_gives_the_same_bytes() -> None:
    start, log = finished(2)
    assert replay_file(start, list(log), 2)[1] == picture(2)


def test_every_decoded_frame_is_exactly_the_frame_drawn() -> None:
    """The streaming writer's frames (only the changed rectangle is stored, unchanged pixels in it
    transparent) rebuild every picture exactly, on the shared palette."""
    start, log = finished(2)
    replay = rebuild(start, list(log))
    decoded = frames_of(picture(2))
    count = len(replay.frames) + 1
    palette = shared_palette()
    assert len(decoded) == count
    for number in range(1, count):
        drawn = frame_image(replay.frames[number - 1], number, count).quantize(palette=palette, dither=Image.Dither.NONE)
        assert decoded[number - 1].convert("RGB").tobytes() == drawn.convert("RGB").tobytes()
    last = final_image(replay.final, count, final_words(replay.final)).quantize(palette=palette,
                                                                                dither=Image.Dither.NONE)
    assert decoded[-1].convert("RGB").tobytes() == last.convert("RGB").tobytes()


def test_frames_are_public_views_with_the_turns_placements_framed() -> None:
    start, log = finished(2)
    replay = rebuild(start, list(log))
    first, *played = replay.frames
    assert first.mover is None and first.view.viewer is None and not any(first.view.seats[0].board)
    assert all(frame.view.viewer is None for frame in played)
    assert all(s.objective is None for frame in played[:-1] for s in frame.view.seats), "objectives stay hidden"
    assert [s.objective for s in replay.final.view.seats] == [s.objective for s in replay.end.seats]
    for before, frame in zip(replay.frames, played, strict=False):
        assert frame.mover is not None and frame.caption
        board = frame.view.seats[frame.mover].board
        for cell in frame.marked:
            assert board[cell] is not None
            old = before.view.seats[frame.mover].board[cell]
            assert old is None or old.card != board[cell].card  # type: ignore[union-attr]


def test_an_undone_action_leaves_no_trace_in_the_replay() -> None:
    start = game(players=2, skills=[1, 3, 4, 5, 6], starting_synergy=[20, 20])
    rng = random.Random(3)
    log = ["take 6 A1", "undo", "take 5 B2"]
    state = play_log(start, log).state
    while not is_over(state):
        action = rng.choice(legal_actions(state))
        state, _ = apply(state, action)
        log.append(str(action))
    with_undo = rebuild(start, log)
    without = rebuild(start, [log[2], *log[3:]])
    first_turn = with_undo.frames[1]
    assert first_turn.marked == without.frames[1].marked and 5 in first_turn.marked  # B2
    assert first_turn.caption == without.frames[1].caption and "slot 6" not in first_turn.caption
    assert [f.view.seats for f in with_undo.frames] == [f.view.seats for f in without.frames]


def test_a_running_game_and_a_log_that_no_longer_plays_are_refused() -> None:
    start, log = finished(2)
    with pytest.raises(NotFinished):
        rebuild(start, list(log[:-3]))
    with pytest.raises(Unreplayable):
        replay_file(start, [*log[:5], "take 9 A1"])
    other_start, other_log = finished(2, seed=6)
    other = rebuild(other_start, list(other_log)).end
    with pytest.raises(Unreplayable):
        replay_file(start, list(log), expected=other)


def test_the_renderer_draws_only_views() -> None:
    start, log = finished(2)
    replay = rebuild(start, list(log))
    with pytest.raises(TypeError, match="hidden information"):
        frame_image(Frame(replay.end), 1, 2)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="finished game"):
        final_image(Final(replay.frames[1].view, replay.final.sheets), 2, "")
    hidden = Final(replay.final.view, replay.final.sheets[::-1])
    with pytest.raises(ValueError, match="may not see"):
        final_image(hidden, 2, "")


def test_thinning_keeps_the_start_and_the_last_turn() -> None:
    start, log = finished(2)
    frames = rebuild(start, list(log)).frames
    for step in (1, 2, 3, 8):
        kept = thinned(frames, step)
        assert kept[0] is frames[0] and kept[-1] is frames[-1]
        assert len(kept) == 1 + -(-(len(frames) - 1) // step)


def test_a_replay_too_large_is_thinned_then_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    start, log = finished(2)
    replay = rebuild(start, list(log))
    full = len(picture(2))
    monkeypatch.setattr("keystone.render.replay.AIM_BYTES", full // 2)
    thin = render_replay(replay.frames, replay.final, "")
    assert len(thin) <= full // 2 and frame_count(thin) < len(replay.frames) + 1
    monkeypatch.setattr("keystone.render.replay.AIM_BYTES", 1000)
    monkeypatch.setattr("keystone.render.replay.MAX_BYTES", 2000)
    with pytest.raises(ReplayTooLarge, match="more than Discord accepts"):
        render_replay(replay.frames, replay.final, "")


def test_the_gif_writer_refuses_what_it_cannot_write() -> None:
    palette = [0] * 768
    frame = Image.new("P", (4, 4))
    with pytest.raises(ValueError, match="one duration per frame"):
        write_gif([frame], 2, [100], palette)
    with pytest.raises(ValueError, match="announced with 2 frames but 1 came"):
        write_gif([frame], 2, [100, 100], palette)
    with pytest.raises(ValueError, match="same size"):
        write_gif([frame, Image.new("P", (5, 4))], 2, [100, 100], palette)
    with pytest.raises(ValueError, match="indexed"):
        write_gif([Image.new("RGB", (4, 4))], 1, [100], palette)
    still = write_gif([frame, frame.copy()], 2, [100, 200], palette)
    assert frame_count(still) == 2


def test_the_gif_writer_rebuilds_frames_with_and_without_a_spare_colour() -> None:
    """A changed rectangle using all 256 indices is stored whole (no index is free to mean 'see
    through'); a smaller one marks its unchanged pixels transparent. Both decode to the frames."""
    palette = [channel for i in range(256) for channel in (i, 255 - i, (i * 7) % 256)]
    first = Image.new("P", (16, 16))
    first.putpalette(palette)
    first.putdata(list(range(256)))
    second = first.copy()
    second.putpixel((0, 0), 255)
    second.putpixel((15, 15), 0)
    third = second.copy()
    third.putpixel((5, 5), 1)
    third.putpixel((8, 9), 2)
    frames = [first, second, third]
    decoded = frames_of(write_gif(frames, 3, [100, 100, 100], palette))
    assert [back.convert("RGB").tobytes() for back in decoded] == [made.convert("RGB").tobytes() for made in frames]
