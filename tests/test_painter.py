"""Pictures drawn in worker processes: the same bytes as drawn here, a killed worker costs no
picture, a stuck one costs no picture and is stopped, closing leaves no worker behind, a bot killed
outright leaves none behind either, and a move through the fake Discord gets its picture from a
pool of one."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import os
import pickle
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PIL import Image

from keystone.app import File, pictures, replays
from keystone.app.painter import LIMIT, Painter, PoolPainter, painter_for
from keystone.engine import new_game, player_view, public_view
from keystone.settings import Settings, default_render_workers
from tests.discord_helpers import cheap_turn, make_bot
from tests.fakediscord.fixtures import BotRunner
from tests.fakediscord.server import FakeDiscord
from tests.render_helpers import drawn_hand, finished, play, sheets, start


@pytest.fixture(scope="module")
def pool() -> Iterator[PoolPainter]:
    """One started worker shared by the module's drawing tests (each start costs about a second);
    the tests that kill or stall it leave a fresh one behind."""
    painter = PoolPainter(1)
    asyncio.run(painter.start())
    yield painter
    asyncio.run(painter.close())


def stall(parent: int) -> int:
    """The id of the process that draws this: at once in `parent`, only after a minute anywhere else
    (a worker stuck, for a short time limit)."""
    if os.getpid() != parent:
        time.sleep(60)
    return os.getpid()


def alive(pid: int) -> bool:
    """Whether process `pid` still runs (a zombie, dead but not yet reaped, counts as gone)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not stat.exists() or stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"


async def test_pictures_drawn_in_a_worker_are_the_bytes_drawn_here(pool: PoolPainter) -> None:
    state = play(start(3, 4), 20, 4)
    view, end, hand = public_view(state), public_view(finished()), drawn_hand()
    asks: list[tuple[Callable[..., File], tuple[object, ...]]] = [
        (pictures.turn_file, (view, 1, (0, 5))),
        (pictures.field_file, (view,)),
        (pictures.board_file, (view, 2)),
        (pictures.objective_file, (player_view(state, 0), 0)),
        (pictures.hand_file, (player_view(hand, 0), list(hand.held))),
        (pictures.scores_file, (end, sheets(end))),
    ]
    for fn, args in asks:
        here = fn(*args)
        there = await pool.draw(fn, *args)
        assert there == here, fn.__name__
        assert there[1].startswith(b"\x89PNG")
    assert await pool.draw(os.getpid) != os.getpid(), "the pool drew them, not a thread of this process"


async def test_a_refusal_raised_in_a_worker_comes_back_as_itself(pool: PoolPainter) -> None:
    opening = new_game(finished().config, finished().seed, [s.name for s in finished().seats])
    with pytest.raises(replays.Unreplayable):
        await pool.draw(replays.replay_file, opening, ["no such move"])


def test_what_crosses_to_a_worker_pickles_unchanged() -> None:
    state = finished()
    view = public_view(state)
    assert pickle.loads(pickle.dumps(state)) == state
    assert pickle.loads(pickle.dumps(view)) == view
    assert pickle.loads(pickle.dumps(sheets(view))) == sheets(view)


async def test_a_killed_worker_costs_no_picture_and_a_new_pool_takes_over(
    pool: PoolPainter, caplog: pytest.LogCaptureFixture,
) -> None:
    view = public_view(play(start(2, 3), 12, 3))
    expected = pictures.turn_file(view, 0)
    killed = await pool.draw(os.getpid)
    os.kill(killed, signal.SIGKILL)
    with caplog.at_level(logging.WARNING, logger="keystone.app.painter"):
        drawn = await asyncio.gather(*(pool.draw(pictures.turn_file, view, 0) for _ in range(3)))
    assert drawn == [expected] * 3
    assert len([r for r in caplog.records if "worker stopped" in r.getMessage()]) == 1, "logged once"
    again = await pool.draw(os.getpid)
    assert again not in (killed, os.getpid()), "the next picture is drawn by a fresh worker"
    assert await pool.draw(pictures.turn_file, view, 0) == expected


def gone_within(pids: list[int], seconds: float) -> float:
    """How long until none of `pids` runs, polling; fails after `seconds`."""
    started = time.monotonic()
    while any(alive(pid) for pid in pids):
        assert time.monotonic() - started < seconds, [pid for pid in pids if alive(pid)]
        time.sleep(0.01)
    return time.monotonic() - started


async def test_a_picture_past_its_limit_is_drawn_in_a_thread_its_worker_killed_and_a_new_pool_takes_over(
    pool: PoolPainter, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
) -> None:
    assert PoolPainter(1).limit_for(replays.replay_file) > PoolPainter(1).limit_for(pictures.turn_file) == LIMIT
    monkeypatch.setattr(pool, "limit", 0.3)
    monkeypatch.setattr(pool, "slow", {"time.sleep": 5.0})
    stuck = await pool.draw(os.getpid)
    with caplog.at_level(logging.WARNING, logger="keystone.app.painter"):
        slow = asyncio.ensure_future(pool.draw(time.sleep, 0.5))
        await asyncio.sleep(0)
        assert await pool.draw(os.getpid) == stuck, "waiting 0.5 s behind a slower picture is no hang"
        await slow
        assert [r for r in caplog.records if r.name == "keystone.app.painter"] == []
        asked = time.monotonic()
        assert await pool.draw(stall, os.getpid()) == os.getpid(), "drawn in a thread of this process"
        assert time.monotonic() - asked < 3
    warned = [r.getMessage() for r in caplog.records if r.name == "keystone.app.painter"]
    assert len(warned) == 1 and warned[0].startswith("tests.test_painter.stall took over 0.3 s"), warned
    gone_within([stuck], 5)
    fresh = await pool.draw(os.getpid)
    assert fresh not in (stuck, os.getpid()), "the next picture is drawn by a fresh worker"


BOT = """
import asyncio, functools, os, re
from keystone.app import pictures
from keystone.app.painter import PoolPainter
from keystone.engine import public_view
from tests.render_helpers import start

async def main() -> None:
    painter = PoolPainter(2)
    await painter.start()
    await painter.draw(pictures.field_file, public_view(start(2, 3)))
    asyncio.ensure_future(painter.draw(functools.partial(re.fullmatch, "(a+)+b", "a" * 40)))
    await asyncio.sleep(0.1)
    print("ready", flush=True)
    await asyncio.sleep(60)

asyncio.run(main())
"""
"""A bot that draws a picture, leaves one worker stuck in C code holding the GIL (a regular
expression that backtracks for ever), and waits to be killed."""


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
        except (FileNotFoundError, ProcessLookupError):
            pass
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_bot_killed_outright_leaves_no_picture_process_behind() -> None:
    bot = subprocess.Popen([sys.executable, "-c", BOT], cwd=Path(__file__).parent.parent, stdout=subprocess.PIPE,
                           text=True)
    servers: list[int] = []  # the fork server and the resource tracker
    workers: list[int] = []
    try:
        assert bot.stdout is not None and select.select([bot.stdout], [], [], 30)[0], "the bot started its pool"
        assert bot.stdout.readline() == "ready\n"
        servers = children(bot.pid)
        workers = [w for s in servers for w in children(s)]
        assert len(workers) == 2, (servers, workers)
        bot.kill()
        bot.wait()
        gone_within(servers + workers, 5)
    finally:
        servers = servers or children(bot.pid)
        for pid in servers + (workers or [w for s in servers for w in children(s)]):
            with contextlib.suppress(ProcessLookupError):
                if alive(pid):
                    os.kill(pid, signal.SIGKILL)
        bot.kill()
        bot.wait()


async def test_closing_finishes_what_was_asked_stops_every_worker_and_later_pictures_use_a_thread() -> None:
    view = public_view(play(start(2, 3), 12, 3))
    painter = PoolPainter(2)
    await painter.start()
    workers = set(await asyncio.gather(*(painter.draw(os.getpid) for _ in range(8))))
    assert workers and os.getpid() not in workers
    asked = [asyncio.ensure_future(painter.draw(pictures.field_file, view)) for _ in range(4)]
    await asyncio.sleep(0)
    await painter.close()
    assert await asyncio.gather(*asked) == [pictures.field_file(view)] * 4
    assert [pid for pid in workers if alive(pid)] == []
    assert await painter.draw(os.getpid) == os.getpid()


def test_the_setting_chooses_threads_or_a_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    assert type(painter_for(0)) is Painter
    assert isinstance(painter_for(2), PoolPainter) and painter_for(2).workers == 2
    monkeypatch.setenv("KEYSTONE_RENDER_WORKERS", "3")
    assert Settings(_env_file=None).render_workers == 3
    monkeypatch.setenv("KEYSTONE_RENDER_WORKERS", " ")
    assert Settings(_env_file=None).render_workers == default_render_workers()


async def test_a_move_through_discord_gets_its_picture_from_a_worker(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = await bot_runner.start(make_bot(tmp_path / "ks.db", render_workers=1))
    painter = bot.painter
    assert isinstance(painter, PoolPainter) and bot.service.painter is painter
    worker = await painter.draw(os.getpid)
    assert worker != os.getpid()
    alice, bob = fake.user("alice"), fake.user("bob")
    channel = fake.channel("table-1")
    lobby = await fake.slash(alice, channel, "keystone new", {"players": 2})
    await fake.click(bob, lobby.message, label="Join")
    await fake.click(alice, lobby.message, label="Start")
    told = await cheap_turn(fake, channel, alice)
    turn = [a for a in told.attachments if a.filename == "turn.png"]
    assert turn and turn[0].description, told.content
    width, height = Image.open(io.BytesIO(turn[0].data)).size
    assert width / height >= 1.45 and min(550 / width, 350 / height) >= 0.5, "read inline in the channel"
    await bot_runner.stop(bot)
    assert bot.painter is None and not alive(worker), "closing the bot stops its picture worker"
