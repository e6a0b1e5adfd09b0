"""Load test: many games at once through the fake Discord server against the real `bot.py` process.

For each set-up (SQLite or PostgreSQL, pictures drawn in threads or in the render pool, one bot
process or two with different shards on one PostgreSQL) the bot runs as `python bot.py` pointed at
a fake Discord server in this process. 256 two-player games are opened and started across
servers; then 16, 64 and 256 of them are driven at once, each keeping one move in flight (a
`/take`, `/wild` or `/endturn` of its current player) for a fixed time. Printed per level: moves
per second and the p50 / p95 time from the interaction reaching the server to the bot's answer.

Afterwards every game's stored log must be exactly the moves the driver saw accepted, in order
(none lost, none doubled), and every game must pass the store's full replay audit.

PostgreSQL set-ups need PostgreSQL's server programs (a throwaway cluster is started) or a server
URL in KEYSTONE_TEST_POSTGRES. Run: python bench/bench_load.py [--quick] [--only NAME ...]
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from keystone.engine import GameState, apply_text, is_over, legal_actions  # noqa: E402
from keystone.store import Store  # noqa: E402
from tests.fakediscord.models import FakeChannel, FakeUser  # noqa: E402
from tests.fakediscord.server import FakeDiscord  # noqa: E402
from tests.outbox_helpers import DRIVEN, slash_of  # noqa: E402
from tests.postgres_cluster import SERVER_URL_VARIABLE, Cluster, NoServerPrograms, fresh_database  # noqa: E402

LEVELS = (16, 64, 256)
SECONDS_PER_LEVEL = 12.0
DISCORD_DEADLINE = 3.0
"""Discord fails an interaction not acknowledged within 3 s; the fake server allows more here, and counts."""


@dataclass(frozen=True)
class Setup:
    name: str
    backend: str
    """"sqlite" or "postgresql"."""
    render_workers: int
    shards: tuple[str, ...] = ()
    """One shard per bot process ("0", "1"); empty: one unsharded process."""
    shard_count: int = 0


SETUPS = (
    Setup("sqlite, threads", "sqlite", 0),
    Setup("sqlite, pool", "sqlite", 2),
    Setup("sqlite, threads, 2 processes", "sqlite", 0, ("0", "1"), 2),
    Setup("postgresql, threads", "postgresql", 0),
    Setup("postgresql, pool", "postgresql", 2),
    Setup("postgresql, threads, 2 processes", "postgresql", 0, ("0", "1"), 2),
    Setup("postgresql, pool, 2 processes", "postgresql", 1, ("0", "1"), 2),
)


@dataclass
class Table:
    """One game the driver plays: its channel, its two players, and the moves the bot accepted."""

    channel: FakeChannel
    people: tuple[FakeUser, FakeUser]
    """The host first; `players` follows the seats once the game has started."""
    players: tuple[FakeUser, ...] = ()
    game_id: int = 0
    state: GameState | None = None
    accepted: list[str] = field(default_factory=list)
    rng: random.Random = field(default_factory=lambda: random.Random(7))
    stuck: bool = False


@dataclass
class Level:
    moves: int
    seconds: float
    latencies: list[float]
    acknowledged: list[float]

    def line(self, games: int) -> str:
        ordered = sorted(self.latencies)
        p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))] if ordered else float("nan")
        p50 = statistics.median(ordered) if ordered else float("nan")
        late = sum(1 for t in self.acknowledged if t > DISCORD_DEADLINE)
        return (f"  {games:>3} at once: {self.moves / self.seconds:6.1f} moves/s, "
                f"p50 {p50 * 1000:6.0f} ms, p95 {p95 * 1000:6.0f} ms "
                f"({self.moves} moves, {late} acknowledged after 3 s)")


def next_move(table: Table) -> str | None:
    """A move for the current player among those made with one slash command; None when there is none."""
    state = table.state
    assert state is not None
    if is_over(state):
        return None
    options = [str(a) for a in legal_actions(state)]
    for kind in DRIVEN:
        found = [o for o in options if o.split()[0] == kind]
        if found:
            return table.rng.choice(found)
    return None


async def move_once(fake: FakeDiscord, table: Table, notation: str) -> tuple[float, float]:
    """Send one move and wait for the bot's answer: the seconds to its answer, and to its first
    acknowledgement (which Discord requires within 3 s; the answer itself may come later)."""
    assert table.state is not None
    mover = table.players[table.state.current]
    command, options = slash_of(notation)
    started = time.perf_counter()
    result = await fake.slash(mover, table.channel, command, options, timeout=60)
    took = time.perf_counter() - started
    table.state, _ = apply_text(table.state, notation)
    table.accepted.append(notation)
    return took, result.record.acknowledged_after or took


async def drive(fake: FakeDiscord, tables: Sequence[Table], seconds: float) -> Level:
    """Keep one move in flight per table for `seconds`."""
    latencies: list[float] = []
    acknowledged: list[float] = []
    stop_at = time.perf_counter() + seconds

    async def play(table: Table) -> None:
        while time.perf_counter() < stop_at and not table.stuck:
            notation = next_move(table)
            if notation is None:
                table.stuck = True
                return
            answered, acked = await move_once(fake, table, notation)
            latencies.append(answered)
            acknowledged.append(acked)

    started = time.perf_counter()
    await asyncio.gather(*(play(t) for t in tables))
    return Level(len(latencies), time.perf_counter() - started, latencies, acknowledged)


# ---------------------------------------------------------------------- the world and the bots


async def build_world(fake: FakeDiscord, games: int, shard_count: int) -> list[Table]:
    """`games` channels, spread over servers so that every shard owns some, two members in each."""
    owner = await fake.add_user("owner", member=False)
    count = max(1, shard_count)
    guilds = [await fake.add_guild(f"Server {n + 1}", owner=owner, shard=(n % count, count)) for n in range(4 * count)]
    tables = []
    for number in range(games):
        guild = guilds[number % len(guilds)]
        channel = await fake.add_text_channel(guild, f"table-{number + 1}")
        people = (await fake.add_user(f"host{number}", guild=guild), await fake.add_user(f"guest{number}", guild=guild))
        tables.append(Table(channel, people, rng=random.Random(number)))
    return tables


async def start_bots(fake: FakeDiscord, setup: Setup, database: str, folder: Path) -> list[asyncio.subprocess.Process]:
    """`python bot.py` once per shard range (or once), pointed at the fake server; returns when all are connected."""
    ranges: Sequence[str | None] = setup.shards or (None,)
    processes = []
    for number, shards in enumerate(ranges):
        env = {**os.environ, "DISCORD_TOKEN": fake.token, "DISCORD_API_BASE_URL": fake.base_url,
               "DISCORD_GATEWAY_URL": fake.gateway_url, "KEYSTONE_DB": database, "LOG_LEVEL": "WARNING",
               "KEYSTONE_RENDER_WORKERS": str(setup.render_workers)}
        if shards is not None:
            env |= {"KEYSTONE_SHARDS": shards, "KEYSTONE_SHARD_COUNT": str(setup.shard_count)}
        log = open(folder / f"bot-{number}.log", "wb")  # noqa: SIM115 - the process writes it until it stops
        processes.append(await asyncio.create_subprocess_exec(
            sys.executable, str(ROOT / "bot.py"), cwd=str(ROOT), env=env, stdout=log, stderr=log))
        await fake.wait_for(functools.partial(_ready, fake, number + 1), timeout=120, what="the bot to connect")
    await asyncio.sleep(1.0)
    return processes


def cpu_seconds(processes: Sequence[asyncio.subprocess.Process]) -> list[tuple[float, float]]:
    """CPU seconds used so far: this process (the driver with the fake Discord), then each bot
    process, each as (its own, its picture workers')."""
    mine = os.times()
    return [(mine.user + mine.system, 0.0), *(_split_cpu(p.pid) for p in processes)]


def cpu_line(used: Sequence[tuple[float, float]], moves: int) -> str:
    """CPU a move: the driver with the fake Discord, then each bot (its event loop + its picture
    workers), so a change in either shows where it belongs."""
    def ms(seconds: float) -> str:
        return f"{1000 * seconds / max(1, moves):.1f}"

    each = ", ".join(f"{ms(own + workers)} ({ms(own)} + pictures {ms(workers)})" for own, workers in used[1:])
    return f"; CPU a move: driver {ms(used[0][0])} ms, bot {each} ms"


def _split_cpu(pid: int) -> tuple[float, float]:
    """A process's own CPU seconds and its living descendants' (Linux /proc; zeros once it has ended)."""
    total = _tree_cpu(pid)
    own = _own_cpu(pid)
    return own, max(0.0, total - own)


def _own_cpu(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _tree_cpu(pid: int) -> float:
    """A process's CPU seconds and its living descendants' (Linux /proc; 0 for one that has ended)."""
    try:
        children = [int(c) for t in Path(f"/proc/{pid}/task").iterdir()
                    for c in (t / "children").read_text().split()]
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    return _own_cpu(pid) + sum(_tree_cpu(c) for c in children)


def _ready(fake: FakeDiscord, sessions: int) -> bool:
    """At least this many gateway sessions are connected, and the commands are registered."""
    live = sum(1 for s in fake.sessions.values() if not s.ended and s.ws is not None and not s.ws.closed)
    return live >= sessions and bool(fake.global_commands)


async def stop_bots(processes: Sequence[asyncio.subprocess.Process]) -> None:
    for process in processes:
        if process.returncode is None:
            process.terminate()
    for process in processes:
        try:
            await asyncio.wait_for(process.wait(), 30)
        except TimeoutError:
            process.kill()
            await process.wait()


async def open_games(fake: FakeDiscord, store: Store, tables: Sequence[Table]) -> None:
    """Open, join and start every table's game (a few at a time), then read each game's first state."""
    async def open_one(table: Table) -> None:
        host, guest = table.people
        lobby = await fake.slash(host, table.channel, "keystone new", {"players": 2}, timeout=120)
        await fake.click(guest, lobby.message, label="Join", timeout=120)
        await fake.click(host, lobby.message, label="Start", timeout=120)
        record = await store.get_active_game(table.channel.id)
        assert record is not None and record.status == "active", f"no game started in {table.channel.name}"
        loaded = await store.load_game(record.id)
        by_id = {p.id: p for p in table.people}
        table.game_id, table.state = record.id, loaded.state
        table.players = tuple(by_id[s.user_id] for s in record.seats if s.user_id is not None)

    for start in range(0, len(tables), 16):
        await asyncio.gather(*(open_one(t) for t in tables[start:start + 16]))


async def audit(store: Store, tables: Sequence[Table]) -> str:
    """Every stored log is exactly the accepted moves, and every game replays to its snapshot."""
    lost_or_doubled = 0
    for table in tables:
        if await store.log(table.game_id) != table.accepted:
            lost_or_doubled += 1
        await store.verify_game(table.game_id)
    moves = sum(len(t.accepted) for t in tables)
    verdict = "every log matches" if not lost_or_doubled else f"{lost_or_doubled} logs DIFFER"
    return f"  audit: {moves} moves in {len(tables)} games, {verdict}; all games replay to their snapshots"


async def run_setup(setup: Setup, database: str, folder: Path, levels: Sequence[int], seconds: float) -> None:
    """Drive one set-up through every level, printing each level's line as soon as it is measured."""
    fake = FakeDiscord(populate=False, interaction_deadline=30.0, recommended_shards=max(1, setup.shard_count))
    await fake.start()
    processes: list[asyncio.subprocess.Process] = []
    print(f"{setup.name}:", flush=True)
    try:
        tables = await build_world(fake, max(levels), setup.shard_count)
        processes = await start_bots(fake, setup, database, folder)
        async with await Store.open(database) as store:
            await open_games(fake, store, tables)
            for games in levels:
                before = cpu_seconds(processes)
                level = await drive(fake, tables[:games], seconds)
                used = [(a_own - b_own, a_kids - b_kids) for (a_own, a_kids), (b_own, b_kids)
                        in zip(cpu_seconds(processes), before, strict=True)]
                print(level.line(games) + cpu_line(used, level.moves), flush=True)
            print(await audit(store, tables), flush=True)
    finally:
        await stop_bots(processes)
        await fake.close()


async def main_async(only: Sequence[str], levels: Sequence[int], seconds: float) -> None:
    chosen = [s for s in SETUPS if not only or any(o in s.name for o in only)]
    cluster: Cluster | None = None
    server = os.environ.get(SERVER_URL_VARIABLE)
    with tempfile.TemporaryDirectory() as folder:
        try:
            for number, setup in enumerate(chosen):
                if setup.backend == "postgresql":
                    if server is None:
                        try:
                            cluster = Cluster.start()
                        except NoServerPrograms as missing:
                            print(f"{setup.name}: skipped. {missing}")
                            continue
                        server = cluster.url
                    database = await fresh_database(server, f"load_{number}")
                else:
                    database = str(Path(folder) / f"load_{number}.db")
                await run_setup(setup, database, Path(folder), levels, seconds)
        finally:
            if cluster is not None:
                cluster.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="levels 4 and 16 for 4 seconds each")
    parser.add_argument("--only", nargs="*", default=[], help="run only the set-ups whose name holds one of these")
    args = parser.parse_args()
    levels, seconds = ((4, 16), 4.0) if args.quick else (LEVELS, SECONDS_PER_LEVEL)
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; {seconds:.0f} s per level")
    asyncio.run(main_async(args.only, levels, seconds))


if __name__ == "__main__":
    main()
