"""A real `python bot.py` process against the fake Discord, for the graceful-stop test and
bench/bench_stop.py: started with LOG_FORMAT=json, its log read line by line."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from tests.fakediscord.harness import InteractionResult, Wait
from tests.fakediscord.models import FakeChannel, FakeUser
from tests.fakediscord.server import FakeDiscord

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = ("DISCORD_TOKEN", "KEYSTONE_DB", "DEV_GUILD_ID", "LOG_LEVEL", "LOG_FORMAT", "DISCORD_API_BASE_URL",
            "DISCORD_GATEWAY_URL", "KEYSTONE_RENDER_WORKERS", "KEYSTONE_SHARDS", "KEYSTONE_SHARD_COUNT")


class Running:
    """A `python bot.py` process and the JSON log lines it wrote so far."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.lines: list[dict[str, object]] = []

    async def until(self, words: str, timeout: float = 30.0) -> None:
        """Read log lines until one's message holds `words` (fails if the process ends first)."""
        async def read() -> None:
            assert self.proc.stderr is not None
            while not any(words in str(line["message"]) for line in self.lines):
                raw = await self.proc.stderr.readline()
                assert raw, f"bot.py ended before logging {words!r}: {self.lines[-5:]}"
                self.lines.append(json.loads(raw))  # LOG_FORMAT=json: every line one JSON object
        await asyncio.wait_for(read(), timeout)

    async def exit_code(self, timeout: float) -> int:
        assert self.proc.stderr is not None
        rest, _ = await asyncio.wait_for(asyncio.gather(self.proc.stderr.read(), self.proc.wait()), timeout)
        self.lines += [json.loads(raw) for raw in rest.splitlines()]
        return self.proc.returncode or 0


@asynccontextmanager
async def bot_py(fake: FakeDiscord, db: Path, **settings: str) -> AsyncIterator[Running]:
    """`python bot.py` on `db` (pictures drawn in threads unless `settings` say otherwise), once connected."""
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS}
    env |= {"PYTHONPATH": str(ROOT), "DISCORD_TOKEN": fake.token, "DISCORD_API_BASE_URL": fake.base_url,
            "DISCORD_GATEWAY_URL": fake.gateway_url, "DEV_GUILD_ID": str(fake.guild.id), "KEYSTONE_DB": str(db),
            "LOG_LEVEL": "INFO", "LOG_FORMAT": "json", "KEYSTONE_RENDER_WORKERS": "0", **settings}
    proc = await asyncio.create_subprocess_exec(sys.executable, str(ROOT / "bot.py"), cwd=db.parent, env=env,
                                                stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
    running = Running(proc)
    try:
        await running.until("Connected as")
        yield running
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


async def take(fake: FakeDiscord, channel: FakeChannel, user: FakeUser, wait: Wait = "ack") -> InteractionResult:
    """`/take` the rightmost card into the first cell offered; waits only for Discord's acknowledgement."""
    cards = await fake.autocomplete(user, channel, "take", {"card": ""}, focused="card")
    cells = await fake.autocomplete(user, channel, "take", {"card": cards[-1]["value"], "cell": ""}, focused="cell")
    return await fake.slash(user, channel, "take", {"card": cards[-1]["value"], "cell": cells[0]["value"]},
                            wait=wait)


