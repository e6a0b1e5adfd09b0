"""A game against a bot survives a crash between the person's saved move and the bot's reply.

The worker really dies by SIGKILL in that window; afterwards the bot's turn is played at start-up,
when the person acts next, or after a failure, and the game goes on.
"""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from keystone.app import Actor, GameService, Where
from keystone.app import moves as service_module
from keystone.app.bots import simple_action
from keystone.engine.coop import acting_player
from keystone.store import Store
from tests.discord_helpers import make_bot
from tests.fakediscord.fixtures import BotRunner
from tests.fakediscord.server import FakeDiscord

ROOT = Path(__file__).resolve().parent.parent
DM = Where(channel_id=77)
ANA = Actor(5, "Ana")


def crash_after_the_persons_move(db: Path, channel: int = DM.channel_id, guild: int = 0, user: int = 5) -> None:
    done = subprocess.run([sys.executable, "-m", "tests.bot_crash_worker", str(db), str(channel), str(guild),
                           str(user)], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert "killed at version" in done.stdout


@pytest.fixture(scope="module")
def crashed_dm(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with one database crashed in a direct message game; tests take copies of it."""
    folder = tmp_path_factory.mktemp("crashed")
    crash_after_the_persons_move(folder / "k.db")
    return folder


def copy_of(crashed: Path, into: Path) -> Path:
    """The database and its write-ahead log exactly as the killed process left them."""
    for file in crashed.iterdir():
        shutil.copy(file, into / file.name)
    return into / "k.db"


async def stuck_service(db: Path) -> GameService:
    """A fresh service (as after a restart) on the crashed database, checked to be stuck on the bot."""
    service = GameService(await Store.open(db), seeds=lambda: 3)
    found = await service.state_here(DM)
    assert found is not None
    record, state = found
    assert record.seats[acting_player(state)].is_bot, "the crash came before the bot's reply"
    return service


async def test_the_persons_next_action_plays_the_due_bot_turn_first(crashed_dm: Path, tmp_path: Path) -> None:
    db = copy_of(crashed_dm, tmp_path)
    service = await stuck_service(db)
    try:
        stuck = await service.state_here(DM)
        assert stuck is not None
        reply = await service.act(DM, ANA, "endturn")
        assert reply.public is not None and "A bot turn was still due" in reply.public
        assert "<@5>, it is your turn." in ([reply, *reply.more][-1].public or "")
        found = await service.state_here(DM)
        assert found is not None and found[1].version > stuck[1].version
        move = str(simple_action(found[1]))
        assert (await service.act(DM, ANA, move)).ok, "the game goes on"
        assert (await service.store.verify_game(found[0].id)).state.version > found[1].version
    finally:
        await service.store.close()


async def test_start_up_plays_every_due_bot_turn(crashed_dm: Path, tmp_path: Path) -> None:
    db = copy_of(crashed_dm, tmp_path)
    service = await stuck_service(db)
    try:
        posts = await service.play_due_bot_turns(everywhere=True)
        assert [channel for channel, _ in posts] == [DM.channel_id]
        assert [name for name, _, _ in posts[0][1].files] == ["turn.png"], "one turn, one picture"
        found = await service.state_here(DM)
        assert found is not None and not found[0].seats[acting_player(found[1])].is_bot
        assert await service.play_due_bot_turns(everywhere=True) == [], "nothing is played twice"
    finally:
        await service.store.close()


async def test_a_failed_bot_turn_is_retried_and_the_apology_says_the_move_was_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = GameService(await Store.open(tmp_path / "k.db"), seeds=lambda: 3)
    try:
        assert (await service.new(DM, ANA, opponent="easy")).ok

        def broken(*args: object) -> None:
            raise RuntimeError("the bot's thread died")

        monkeypatch.setattr(service_module, "bot_action", broken)
        for _ in range(20):
            found = await service.state_here(DM)
            assert found is not None
            reply = await service.act(DM, ANA, str(simple_action(found[1])))
            if not reply.ok:
                break
        assert "your move was saved, so the game kept it" in (reply.private or "")
        assert "unchanged" not in (reply.private or "")
        monkeypatch.undo()
        assert await service.play_due_bot_turns(everywhere=False) != []
        found = await service.state_here(DM)
        assert found is not None and not found[0].seats[acting_player(found[1])].is_bot
    finally:
        await service.store.close()


async def test_the_restarted_bot_posts_the_due_bot_turn_in_the_channel(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    alice = fake.user("alice")
    channel = fake.channel("table-1")
    db = tmp_path / "k.db"
    crash_after_the_persons_move(db, channel.id, channel.guild_id or 0, alice.id)
    mark = fake.mark()
    await bot_runner.start(make_bot(db))
    posted = await fake.wait_for_message(channel, lambda m: "A bot turn was still due" in m.content, after=mark)
    assert alice.id in posted.pinged_user_ids
    assert [a.filename for a in posted.attachments] == ["turn.png"]
    again = await fake.slash(alice, channel, "keystone board")
    assert again.is_ephemeral
