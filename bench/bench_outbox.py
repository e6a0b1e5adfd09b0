"""Exactly once from the database to Discord, under random SIGKILLs and Discord's failures.

For each database (SQLite, then PostgreSQL) two scenarios run side by side, each with its own fake
Discord (in this process), its own database and its own `python bot.py` process:

- "SIGKILLs": clocked games (pace `live`, KEYSTONE_CLOCK_SCALE making a turn about 2 s) at several
  tables: some players never act (their turns run out, reminders fall, stand-in bots play, tables of
  absentees wait and their host comes back), some play through slash commands (sometimes too slowly,
  then come back); the bot process (and its picture workers) is killed with SIGKILL at a random
  moment of each run, and started again, `--kills` times;
- "+ Discord failures": the same, while the fake Discord also fails `--failures` requests (403 and 404
  on posts, 500, 502, 503, 429 and connections dropped before or after the work, on posts, interaction
  answers and follow-ups).

Then the players stop, the bot runs until nothing is left to do, and the figures come from the
database (outbox rows and the words a trigger kept of each, seats, clocks, the move log replayed)
and from the fake's messages (by nonce, or by words for what an interaction posted; see
tests/outbox_helpers.py `audit`): messages owed, delivered, doubled, lost, given up (for a reason the
bot logged: Discord refused it, or a reminder whose turn was over), games stuck, misses
double-counted and reminders to the wrong person.

PostgreSQL needs its server programs (a throwaway cluster is started) or a server URL in
KEYSTONE_TEST_POSTGRES. Run: python bench/bench_outbox.py [--quick] [--only sqlite|postgresql] [--keep FOLDER]
(--quick: SQLite only unless --only says otherwise, 8 kills a scenario; about a minute and a half)
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import random
import sys
import tempfile
import time
from collections.abc import Awaitable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from keystone.app import clock  # noqa: E402
from keystone.store import Store  # noqa: E402
from tests.fakediscord.models import FakeAttachment, FakeChannel, FakeUser  # noqa: E402
from tests.outbox_helpers import (  # noqa: E402
    CALLBACK,
    FOLLOW_UP,
    BotProcess,
    Figures,
    HoldingDiscord,
    audit,
    bot_environment,
    driven_moves,
    fetch,
    prepare_database,
    settle,
    slash_of,
    turn_seconds,
)
from tests.postgres_cluster import SERVER_URL_VARIABLE, Cluster, NoServerPrograms, fresh_database  # noqa: E402

SCALE = 0.0035
TURN = turn_seconds(SCALE)  # 2.1 s a live turn
KILL_AFTER = (0.0, 2.5)
"""Seconds after the bot is ready (2 s after it connected) at which it is killed, drawn uniformly."""
KILL_STARTING = 0.3
"""The share of kills that come at a random moment of the start-up instead (its first 4 s)."""
ANSWER_WAIT = 3.5
"""Seconds a player waits for the bot's answer (Discord wants the first within 3)."""
SETTLE = 240.0
"""Seconds the last run may take to deliver everything and let every table time out (a clock a killed
scheduler held is taken over after 60 s of real time)."""
POST_FAULTS = ("403", "404", "500", "502", "503", "429", "drop", "drop-after")
ANSWER_FAULTS = ("500", "502", "503", "429", "drop", "drop-after")
NAMES = ("Zoë 🦊", "Bjørn", "Łucja Żak", "Chloé ☕", "Ngozi Okafor", "Sørina 🌲", "José Ángel", "Mei 🐼", "Ülkü",
         "Renée", "Björk 🎶", "Ōta Hiro", "Dvořák", "Ana-María", "Jürgen", "Saoirse", "Þóra", "Kenji 🎴")
Kind = Literal["sleepers", "mixed", "duel"]
KINDS: tuple[Kind, ...] = ("sleepers", "mixed", "duel")


class LeanDiscord(HoldingDiscord):
    """The fake Discord, keeping no picture bytes (a long run posts thousands of pictures)."""

    def _upload(self, filename: str, data: bytes, description: str | None) -> FakeAttachment:
        uploaded = super()._upload(filename, data, description)
        uploaded.data = b""
        self.uploads.clear()
        return uploaded


@dataclass
class Table:
    channel: FakeChannel
    kind: Kind
    host: FakeUser
    guest: FakeUser
    active: set[int]
    """The people here who play (the others never act)."""
    thinking: tuple[int, float] | None = None
    """(game version, when to move) while an active player thinks."""
    away_since: float | None = None
    wakes_after: float = 0.0


@dataclass
class Scenario:
    name: str
    database: str
    kills: int
    failures: int
    tables: int
    folder: Path
    seed: int
    fault_rate: float = 0.1
    """The chance that each post, interaction answer or follow-up fails, until `failures` have."""
    fake: LeanDiscord = field(default_factory=LeanDiscord)
    driven: int = 0
    refused: int = 0
    started: float = 0.0
    figures: Figures | None = None
    settled: float | None = None
    log_counts: dict[str, int] = field(default_factory=dict)

    async def run(self, progress: int) -> None:
        rng = random.Random(self.seed)
        self.started = time.monotonic()
        fake = self.fake
        await fake.start()
        await prepare_database(self.database)
        env = bot_environment(fake, self.database, scale=SCALE, workers=1, log_level="INFO", dev_guild=False)
        bot = BotProcess(fake, env, self.folder, name=f"bot-{Path(self.database).name}-{self.seed}")
        tables = await self._world(rng)
        stopping = asyncio.Event()
        async with await Store.open(self.database) as store:
            drivers = [asyncio.create_task(self._drive(t, store, bot, rng, stopping)) for t in tables]
            watcher = asyncio.create_task(self._watch_faults(stopping))
            try:
                await bot.start()  # a first run without a kill, until every table has its game going
                await self._games_going(store, tables, 60)
                await bot.kill()
                for number in range(1, self.kills + 1):
                    await bot.start()
                    if rng.random() < KILL_STARTING:
                        await asyncio.sleep(rng.uniform(0.0, 4.0))
                    else:
                        await _ready(bot, 60)
                        await asyncio.sleep(rng.uniform(*KILL_AFTER))
                    await bot.kill()
                    if number % progress == 0 or number == self.kills:
                        owed = (await fetch(store, "SELECT count(*) FROM outbox"))[0][0]
                        print(f"  {self.name}: {number}/{self.kills} kills, {time.monotonic() - self.started:4.0f} s, "
                              f"{owed} messages owed, {len(fake.faults.injected)} failures injected, "
                              f"{self.driven} moves by people", flush=True)
            finally:
                stopping.set()
                await asyncio.gather(*drivers, watcher, return_exceptions=True)
            fake.faults.clear()
            settle_from = time.monotonic()
            await bot.start()
            try:
                if await settle(store, SETTLE, poll=1.0):
                    self.settled = time.monotonic() - settle_from
            finally:
                await bot.kill()
                bot.close()
            self.figures = await audit(store, fake)

        self.log_counts = {
            "taken over": sum(_count(ln, "message(s) the last run answered") for ln in bot.lines),
            "re-timed": sum("had no clock for its turn" in ln for ln in bot.lines),
            "gave up": sum("gave up message" in ln for ln in bot.lines),
            "errors": len(bot.errors()),
        }
        await fake.close()

    async def _games_going(self, store: Store, tables: Sequence[Table], timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = [await store.get_active_game(t.channel.id) for t in tables]
            if all(r is not None and r.status == "active" for r in found):
                return
            await asyncio.sleep(0.2)

    async def _world(self, rng: random.Random) -> list[Table]:
        fake = self.fake
        owner = await fake.add_user("owner", member=False)
        guild = await fake.add_guild("Lodge of many tables", owner=owner)
        names = list(NAMES)
        rng.shuffle(names)
        tables = []
        for number in range(self.tables):
            kind = KINDS[number % len(KINDS)]
            channel = await fake.add_text_channel(guild, f"table-{number + 1}")
            host = await fake.add_user(f"host{number}", guild=guild)
            guest = await fake.add_user(f"guest{number}", guild=guild)
            host.global_name, guest.global_name = names[(2 * number) % len(names)], names[(2 * number + 1) % len(names)]
            active = {"sleepers": set(), "mixed": {host.id}, "duel": {host.id, guest.id}}[kind]
            tables.append(Table(channel, kind, host, guest, active))
        return tables

    async def _act(self, work: Awaitable[object]) -> bool:
        try:
            await asyncio.wait_for(work, ANSWER_WAIT + 1)
            return True
        except Exception as exc:  # the bot died while answering, Discord failed, or the move went stale
            self.refused += 1
            if os.environ.get("BENCH_DEBUG"):
                print(f"    {self.name}: {type(exc).__name__}: {str(exc)[:200]}", flush=True)
            return False

    async def _drive(self, table: Table, store: Store, bot: BotProcess, rng: random.Random,
                     stopping: asyncio.Event) -> None:
        notified = False
        while not stopping.is_set():
            await asyncio.sleep(rng.uniform(0.1, 0.3))
            if not bot.connected():  # it answers from then on (its scheduler only once it is ready)
                continue
            if not notified and rng.random() < 0.5:
                notified = await self._act(self._slash(table.guest, table.channel, "keystone notify", {"on": True}))
            try:
                await self._step(table, store, rng)
            except Exception as exc:  # the store met a game being written: look again
                if os.environ.get("BENCH_DEBUG"):
                    print(f"    {self.name} step: {type(exc).__name__}: {str(exc)[:200]}", flush=True)
                continue

    async def _step(self, table: Table, store: Store, rng: random.Random) -> None:
        channel = table.channel
        record = await store.get_active_game(channel.id)
        if record is None:
            await self._act(self._slash(table.host, channel, "keystone new", {"players": 2, "pace": "live"}))
            return
        if record.status == "lobby":
            if record.seat_of(table.guest.id) is None:
                await self._act(self._slash(table.guest, channel, "keystone join"))
            else:
                await self._act(self._slash(table.host, channel, "keystone start"))
            return
        state = (await store.load_game(record.id)).state
        now = time.monotonic()
        if all(s.away for s in record.seats if not s.is_bot):
            if table.away_since is None:
                table.away_since, table.wakes_after = now, rng.uniform(1.0, 3.0) * TURN
            elif now - table.away_since > table.wakes_after:
                table.away_since = None
                await self._act(self._slash(table.host, channel, "keystone back"))
            return
        table.away_since = None
        for person in (table.host, table.guest):
            seat = record.seat_of(person.id)
            if person.id in table.active and seat is not None and record.seats[seat].away and rng.random() < 0.15:
                await self._act(self._slash(person, channel, "keystone back"))  # often during the other's turn
                return
        who = clock.decider(record, state)
        if who is None:
            return
        deciding = record.seats[who.seat]
        if deciding.user_id not in table.active or deciding.away:
            return
        if table.thinking is None or table.thinking[0] != state.version:
            table.thinking = (state.version, now + rng.uniform(0.05, 1.3) * TURN)
            return
        if now < table.thinking[1]:
            return
        moves = driven_moves(state)
        if not moves:
            return
        person = table.host if deciding.user_id == table.host.id else table.guest
        command, options = slash_of(rng.choice(moves[:3]))
        self.driven += await self._act(self._slash(person, channel, command, options))

    def _slash(self, user: FakeUser, channel: FakeChannel, command: str,
               options: Mapping[str, object] | None = None) -> Awaitable[object]:
        """A slash command, waited for no longer than Discord waits for its first answer (a bot killed
        meanwhile never answers, and the next run is soon up)."""
        return self.fake.slash(user, channel, command, options, timeout=ANSWER_WAIT)

    async def _watch_faults(self, stopping: asyncio.Event) -> None:
        faults = self.fake.faults
        if not self.failures:
            return
        faults.random(self.fault_rate, kinds=POST_FAULTS, seed=self.seed, path=r"/channels/\d+/messages")
        faults.random(self.fault_rate, kinds=ANSWER_FAULTS, seed=self.seed + 1, path=f"{CALLBACK}|{FOLLOW_UP}")
        while not stopping.is_set() and len(faults.injected) < self.failures:
            await asyncio.sleep(0.05)
        faults.clear()


async def _ready(bot: BotProcess, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not bot.ready() and bot.alive and time.monotonic() < deadline:
        await asyncio.sleep(0.05)


def _count(line: str, needle: str) -> int:
    if needle not in line:
        return 0
    words = line.split(": ", 1)[-1].split()
    return int(words[0]) if words and words[0].isdigit() else 1


HEADER = (f"{'database':<11}{'scenario':<22}{'kills':>6}{'faults':>7}{'games':>6}{'owed':>6}{'deliv.':>7}"
          f"{'doubled':>8}{'lost':>5}{'given up':>9}{'stuck':>6}{'miss x2':>8}{'wrong rem.':>11}")


def row(database: str, scenario: Scenario) -> str:
    f = scenario.figures or Figures()
    given = f"{f.given_up}"
    return (f"{database:<11}{scenario.name:<22}{scenario.kills:>6}{len(scenario.fake.faults.injected):>7}{f.games:>6}"
            f"{f.owed:>6}{f.delivered:>7}{f.doubled:>8}{f.lost:>5}{given:>9}{f.stuck:>6}"
            f"{f.misses_double_counted:>8}{f.wrong_reminders:>11}")


def details(database: str, scenario: Scenario) -> list[str]:
    f = scenario.figures or Figures()
    settled = f"settled in {scenario.settled:.0f} s" if scenario.settled is not None else "DID NOT SETTLE"
    logs = ", ".join(f"{k} {v}" for k, v in scenario.log_counts.items())
    lines = [f"{database}, {scenario.name}: {settled}; doubled: {f.doubled_by_interaction} answered by an interaction "
             f"and posted again by the outbox; given up: {f.given_up - f.given_up_stale} refused by Discord, "
             f"{f.given_up_stale} reminders whose turn was over; lost still waiting: {f.waiting}; "
             f"{f.reminders} reminders ({f.repeated_reminders} repeated for a turn), {f.timeouts} turns run out, "
             f"{f.misses} misses standing; {scenario.driven} moves by people; bot log: {logs}"]
    problems = sorted(f.problems, key=lambda p: p.startswith("shown "))  # the lost first, then the doubled
    lines += [f"    {p}" for p in problems[:12]]
    if len(problems) > 12:
        lines.append(f"    ... and {len(problems) - 12} more")
    notes = [n for n in f.notes if "reminders owed for turn" in n]
    lines += [f"    note: {n}" for n in notes[:5]]
    return lines


async def run_database(database: str, make_target: Sequence[str], folder: Path, kills: int, failures: int,
                       tables: int, progress: int) -> list[Scenario]:
    scenarios = [
        Scenario("SIGKILLs", make_target[0], kills, 0, tables, folder, seed=11),
        Scenario("+ Discord failures", make_target[1], kills, failures, tables, folder, seed=23,
                 fault_rate=0.1 if kills >= 50 else 0.3),
    ]
    started = time.monotonic()
    await asyncio.gather(*(s.run(progress) for s in scenarios))
    print(f"  {database}: {time.monotonic() - started:.0f} s", flush=True)
    return scenarios


async def main_async(only: Sequence[str], kills: int, failures: int, tables: int, progress: int,
                     keep: Path | None) -> None:
    cluster: Cluster | None = None
    server = os.environ.get(SERVER_URL_VARIABLE)
    results: list[tuple[str, Scenario]] = []
    with tempfile.TemporaryDirectory() as name:
        folder = keep or Path(name)
        folder.mkdir(parents=True, exist_ok=True)
        try:
            for database in ("sqlite", "postgresql"):
                if only and database not in only:
                    continue
                if database == "postgresql":
                    if server is None:
                        try:
                            cluster = Cluster.start()
                        except NoServerPrograms as missing:
                            print(f"postgresql: skipped. {missing}")
                            continue
                        server = cluster.url
                    targets = [await fresh_database(server, f"outbox_{n}") for n in range(2)]
                else:
                    targets = [str(folder / f"outbox_{n}.db") for n in range(2)]
                    for target in targets:
                        for old in folder.glob(Path(target).name + "*"):
                            old.unlink()
                print(f"{database}: {tables} tables a scenario, {kills} kills each, {failures} failures in the second",
                      flush=True)
                for scenario in await run_database(database, targets, folder, kills, failures, tables, progress):
                    results.append((database, scenario))
        finally:
            if cluster is not None:
                cluster.stop()
    print()
    print(HEADER)
    for database, scenario in results:
        print(row(database, scenario))
    print()
    for database, scenario in results:
        for line in details(database, scenario):
            print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true",
                        help="SQLite only (unless --only), 8 kills and 25 failures a scenario, 3 tables")
    parser.add_argument("--only", nargs="*", default=[], choices=["sqlite", "postgresql"])
    parser.add_argument("--kills", type=int, default=None)
    parser.add_argument("--failures", type=int, default=None)
    parser.add_argument("--tables", type=int, default=None)
    parser.add_argument("--keep", type=Path, default=None, help="keep the databases and bot logs in this folder")
    args = parser.parse_args()
    kills = args.kills or (8 if args.quick else 200)
    failures = args.failures if args.failures is not None else (25 if args.quick else 100)
    tables = args.tables or (3 if args.quick else 6)
    only = args.only or (["sqlite"] if args.quick else [])
    logging.getLogger("tests.fakediscord").setLevel(logging.CRITICAL)  # late answers and cut uploads of killed bots
    logging.getLogger("aiohttp.server").setLevel(logging.CRITICAL)  # connections of killed bots
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; a live turn lasts {TURN:.1f} s")
    asyncio.run(main_async(only, kills, failures, tables, progress=max(1, kills // 10), keep=args.keep))


if __name__ == "__main__":
    main()
