"""The real `bot.py` as a process against the fake Discord, killed and restarted at will, and an
audit of what the bot owed Discord against what Discord got.

Shared by tests/test_clock_wall.py, tests/test_outbox_crash.py and bench/bench_outbox.py:

- `HoldingDiscord`: the fake Discord, able to hold one request (a message post, an interaction's
  answer) until the test lets it go (run, as Discord accepting it after the bot died, or dropped);
- `BotProcess`: `python bot.py` in a process group of its own (its picture workers with it), its log
  read as it goes; `kill()` is SIGKILL to the whole group, as a machine or a container dies;
- `prepare_database`: migrates a database and adds an audit table that a trigger fills with each
  outbox row's words as it is written (the outbox forgets a message's body once it is sent);
- `audit`: every owed message against the fake's messages (by nonce, or by words for those an
  interaction posted), misses against "Time ran out" messages, reminders against whose turn it was,
  and games that should move but cannot.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import web

from keystone.app import clock
from keystone.engine import GameState, apply_text, legal_actions, load_config, new_game, replay
from keystone.engine.coop import acting_player
from keystone.store import Store
from tests.fakediscord.faults import drop_connection
from tests.fakediscord.models import FakeChannel, FakeMessage, FakeUser
from tests.fakediscord.server import FakeDiscord

ROOT = Path(__file__).resolve().parent.parent
SETTING_NAMES = ("DISCORD_TOKEN", "KEYSTONE_DB", "DEV_GUILD_ID", "LOG_LEVEL", "DISCORD_API_BASE_URL",
                 "DISCORD_GATEWAY_URL", "KEYSTONE_RENDER_WORKERS", "KEYSTONE_CLOCK_SCALE", "KEYSTONE_SHARDS",
                 "KEYSTONE_SHARD_COUNT")
CALLBACK = r"/interactions/\d+/[^/]+/callback"
FOLLOW_UP = r"/webhooks/\d+/[^/]+"
TIMED_OUT = re.compile(r"Time ran out for (?P<name>.+?)(?:, so a normal bot| again \((?P<turns>\d+) turns? in a row\))")
REMINDED = re.compile(r"<@(?P<user>\d+)>, a reminder")
EVERYONE_AWAY = "Everyone at this table is away now"


def turn_seconds(scale: float, pace: clock.Pace = "live") -> float:
    """How long a turn lasts at `pace` with KEYSTONE_CLOCK_SCALE `scale`."""
    return clock.TURN_TIME[pace] * scale


# ---------------------------------------------------------------------- a fake Discord that can hold a request


@dataclass(eq=False)
class Hold:
    """One request to hold: the next one matching `method` and `path` (after /api/v10, whole); held
    before Discord does anything, or with `after` once Discord has done it, before it answers."""

    method: str
    path: re.Pattern[str]
    after: bool = False
    armed: bool = True
    caught: asyncio.Event = field(default_factory=asyncio.Event)
    released: asyncio.Event = field(default_factory=asyncio.Event)
    run: bool = False
    held_path: str = ""

    async def wait_caught(self, timeout: float) -> str:
        """The path of the request being held, once one is."""
        await asyncio.wait_for(self.caught.wait(), timeout)
        return self.held_path

    def release(self, *, run: bool = True) -> None:
        """Let the held request go: `run` it (answer it), or drop its connection (held before:
        nothing happened; held after: it happened, but the bot never hears so)."""
        self.armed = False
        self.run = run
        self.released.set()


class HoldingDiscord(FakeDiscord):
    """The fake Discord, which can also hold a request until the test releases it."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.holds: list[Hold] = []

    def hold(self, path: str, *, method: str = "POST", after: bool = False) -> Hold:
        found = Hold(method, re.compile(path), after)
        self.holds.append(found)
        return found

    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        held = next((h for h in self.holds if h.armed and not h.caught.is_set() and h.method == request.method
                     and h.path.fullmatch(path)), None)
        if held is None:
            return await super()._rest(request)
        held.held_path = path
        answer = await super()._rest(request) if held.after else None
        held.caught.set()
        await held.released.wait()
        if not held.run:
            return await drop_connection(request)
        return answer if answer is not None else await super()._rest(request)


# ---------------------------------------------------------------------- the bot as a process


def bot_environment(fake: FakeDiscord, database: str, *, scale: float, workers: int = 0,
                    log_level: str = "INFO", dev_guild: bool = True) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in SETTING_NAMES}
    env |= {"PYTHONPATH": str(ROOT), "DISCORD_TOKEN": fake.token, "DISCORD_API_BASE_URL": fake.base_url,
            "DISCORD_GATEWAY_URL": fake.gateway_url, "KEYSTONE_DB": database, "LOG_LEVEL": log_level,
            "KEYSTONE_RENDER_WORKERS": str(workers), "KEYSTONE_CLOCK_SCALE": repr(scale)}
    if dev_guild and fake.guilds:
        env["DEV_GUILD_ID"] = str(fake.guild.id)
    return env


class BotProcess:
    """`python bot.py` against `fake`, in a session (process group) of its own; one run per
    `start()`, any number of runs in turn (a restart is a new process on the same database)."""

    def __init__(self, fake: FakeDiscord, env: dict[str, str], folder: Path, name: str = "bot") -> None:
        self.fake = fake
        self.env = env
        self.folder = folder
        self.name = name
        self.runs = 0
        self.lines: list[str] = []
        """Every log line of every run, in order (each run starts with a marker line)."""
        self.process: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None
        self._run_start = 0
        self._log = open(folder / f"{name}.log", "a", encoding="utf-8")  # noqa: SIM115 - closed in close()

    async def start(self) -> None:
        assert self.process is None or self.process.returncode is not None, "the bot is still running"
        self.runs += 1
        marker = f"----- run {self.runs} at {time.strftime('%H:%M:%S')}"
        self.lines.append(marker)
        self._log.write(marker + "\n")
        self._run_start = len(self.lines)
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, str(ROOT / "bot.py"), cwd=str(self.folder), env=self.env,
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE, start_new_session=True)
        self._reader = asyncio.create_task(self._read(self.process))

    async def _read(self, process: asyncio.subprocess.Process) -> None:
        assert process.stderr is not None
        while True:
            raw = await process.stderr.readline()
            if not raw:
                return
            line = raw.decode("utf-8", "replace").rstrip("\n")
            self.lines.append(line)
            self._log.write(line + "\n")

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.returncode is None

    def run_lines(self) -> list[str]:
        """This run's log lines so far."""
        return self.lines[self._run_start:]

    async def wait_for_line(self, needle: str, timeout: float = 30.0) -> str:
        """The first line of this run holding `needle` (fails if the bot ends first)."""
        deadline = time.monotonic() + timeout
        while True:
            found = next((ln for ln in self.run_lines() if needle in ln), None)
            if found is not None:
                return found
            if not self.alive:
                raise AssertionError(f"{self.name} ended before logging {needle!r}:\n" + "\n".join(self.lines[-30:]))
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.name} did not log {needle!r} in {timeout}s:\n"
                                     + "\n".join(self.lines[-30:]))
            await asyncio.sleep(0.01)

    async def wait_ready(self, timeout: float = 30.0) -> None:
        """Connected, commands synced, and `on_ready` fired (the scheduler runs from then on)."""
        await self.wait_for_line("Connected as", timeout)

    def ready(self) -> bool:
        """This run fired `on_ready`: it answers interactions (discord.py holds those that come before)
        and its scheduler runs."""
        return self.alive and any("Connected as" in ln for ln in self.run_lines())

    def connected(self) -> bool:
        """A live gateway session is open and the commands are registered (interactions are answered)."""
        live = any(not s.ended and s.ws is not None and not s.ws.closed for s in self.fake.sessions.values())
        return self.alive and live and bool(self.fake.global_commands or self.fake.guild_commands)

    def picture_workers(self) -> list[int]:
        """The picture workers' process ids, as this run logged them."""
        for line in self.run_lines():
            found = re.search(r"Drawing pictures in \d+ worker process\(es\) \(([\d, ]+)\)", line)
            if found:
                return [int(p) for p in found.group(1).split(",")]
        return []

    def freeze_pictures(self) -> list[int]:
        """SIGSTOP the picture workers: the next picture waits (up to the painter's time limit)."""
        workers = self.picture_workers()
        for pid in workers:
            os.kill(pid, signal.SIGSTOP)
        return workers

    async def kill(self) -> None:
        """SIGKILL the bot and everything it started, at once: no clean-up runs."""
        process = self.process
        if process is None or process.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        await process.wait()
        await self._finish_reading()

    async def _finish_reading(self) -> None:
        if self._reader is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._reader, 5)
            self._reader = None
        self._log.flush()

    def errors(self) -> list[str]:
        """ERROR lines and tracebacks logged so far."""
        return [ln for ln in self.lines if " ERROR " in ln or "Traceback" in ln]

    def close(self) -> None:
        self._log.close()


# ---------------------------------------------------------------------- the database and its audit

SQLITE_AUDIT = """
CREATE TABLE IF NOT EXISTS outbox_audit (key TEXT PRIMARY KEY, text TEXT, files INTEGER NOT NULL);
CREATE TRIGGER IF NOT EXISTS outbox_audit_row AFTER INSERT ON outbox
BEGIN
    INSERT INTO outbox_audit (key, text, files) VALUES (new.key, json_extract(new.body, '$.text'),
        coalesce(json_array_length(new.body, '$.files'), 0));
END;
"""

POSTGRES_AUDIT = """
CREATE TABLE IF NOT EXISTS outbox_audit (key text PRIMARY KEY, text text, files integer NOT NULL);
CREATE OR REPLACE FUNCTION outbox_audit_row() RETURNS trigger LANGUAGE plpgsql AS $audit$
BEGIN
    INSERT INTO outbox_audit (key, text, files) VALUES (NEW.key, NEW.body::json ->> 'text',
        coalesce(json_array_length(NEW.body::json -> 'files'), 0));
    RETURN NEW;
END
$audit$;
DROP TRIGGER IF EXISTS outbox_audit_row ON outbox;
CREATE TRIGGER outbox_audit_row AFTER INSERT ON outbox FOR EACH ROW EXECUTE FUNCTION outbox_audit_row();
"""


async def prepare_database(target: str) -> None:
    """Create (or migrate) the bot's database at `target` and add the audit trigger. The bot itself
    never reads the audit table; it only keeps, for the checks, the words of each message it owed."""
    async with await Store.open(target) as store, store._db.transaction() as db:
        await db.script(POSTGRES_AUDIT if target.startswith("postgres") else SQLITE_AUDIT)


async def fetch(store: Store, sql: str, params: Sequence[object] = ()) -> list[tuple[Any, ...]]:
    """Rows of a read-only query (`?` placeholders, as the store writes them for both databases)."""
    async with store._db.connection() as db:
        return [tuple(r) for r in await db.fetch(sql, params)]


async def execute(store: Store, sql: str, params: Sequence[object] = ()) -> int:
    async with store._db.transaction() as db:
        return await db.execute(sql, params)


@dataclass(frozen=True)
class OwedRow:
    """One outbox row with the words the audit kept of it."""

    id: int
    key: str
    queue: str
    game_id: int | None
    channel_id: int | None
    user_id: int | None
    for_turn: int | None
    created_at: float
    sent_at: float | None
    gave_up: str | None
    held_until: float | None
    text: str
    files: int

    @property
    def reminder(self) -> bool:
        return self.for_turn is not None


async def owed_rows(store: Store) -> list[OwedRow]:
    rows = await fetch(store, "SELECT o.id, o.key, o.queue, o.game_id, o.channel_id, o.user_id, o.for_turn, "
                              "o.created_at, o.sent_at, o.gave_up, o.held_until, a.text, a.files "
                              "FROM outbox o LEFT JOIN outbox_audit a ON a.key = o.key ORDER BY o.id")
    return [OwedRow(int(r[0]), str(r[1]), str(r[2]), _int(r[3]), _int(r[4]), _int(r[5]), _int(r[6]), float(r[7]),
                    _float(r[8]), r[9], _float(r[10]), r[11] or "", int(r[12] or 0)) for r in rows]


def _int(value: object) -> int | None:
    return None if value is None else int(str(value))


def _float(value: object) -> float | None:
    return None if value is None else float(str(value))


async def clock_row(store: Store, game_id: int) -> tuple[int, int, float, float, float | None, bool] | None:
    """(turn, seat, remind_at, deadline, claimed_until, reminded) of the game's clock, or None."""
    rows = await fetch(store, "SELECT turn, seat, remind_at, deadline, claimed_until, reminded FROM clocks "
                              "WHERE game_id = ?", (game_id,))
    if not rows:
        return None
    r = rows[0]
    return int(r[0]), int(r[1]), float(r[2]), float(r[3]), _float(r[4]), bool(r[5])


async def seat_misses(store: Store, game_id: int) -> list[tuple[int, str, int, int | None, bool]]:
    """(position, name, missed, missed_turn, away) of each person's seat."""
    rows = await fetch(store, "SELECT position, name, missed, missed_turn, away FROM seats "
                              "WHERE game_id = ? AND user_id IS NOT NULL ORDER BY position", (game_id,))
    return [(int(r[0]), str(r[1]), int(r[2]), _int(r[3]), bool(r[4])) for r in rows]


# ---------------------------------------------------------------------- who decided each turn


@dataclass
class History:
    """A game's turns as its log replays them: who decided each turn, and each move's turn."""

    deciders: dict[int, int]
    """Turn number -> the store seat deciding it (the current turn included, while running)."""
    moves: list[tuple[int, int, float]]
    """(seat, turn it was made in, when it was saved) for every logged move, in order."""
    current_turn: int | None

    def turn_told_at(self, seat: int, at: float) -> int | None:
        """The turn of the last move `seat` made (itself or a stand-in bot) saved by `at`: for a
        "Time ran out" message, the turn the stand-in played (saved in the message's transaction)."""
        found = None
        for mover, turn, saved in self.moves:
            if saved > at + 1e-3:
                break
            if mover == seat:
                found = turn
        return found

    def turns_of(self, seat: int) -> list[int]:
        return sorted(t for t, s in self.deciders.items() if s == seat)


async def history(store: Store, game_id: int) -> History:
    rows = await fetch(store, "SELECT config, seed, names, status FROM games WHERE id = ?", (game_id,))
    config_text, seed, names_text, _status = rows[0]
    if seed is None:
        return History({}, [], None)
    config, names = load_config(config_text), json.loads(names_text)
    entries = await store.log_entries(game_id)
    state = new_game(config, int(seed), names)
    deciders: dict[int, int] = {}
    moves: list[tuple[int, int, float]] = []
    notations: list[str] = []
    for entry in entries:
        if state.phase != "over":
            deciders.setdefault(state.turn, acting_player(state))
        moves.append((entry.seat, state.turn, entry.created_at))
        notations.append(entry.notation)
        if entry.notation.split()[0] == "undo":
            state = replay(config, int(seed), names, notations)
        else:
            state, _ = apply_text(state, entry.notation)
    current = None
    if state.phase != "over":
        deciders.setdefault(state.turn, acting_player(state))
        current = state.turn
    return History(deciders, moves, current)


# ---------------------------------------------------------------------- the audit


@dataclass
class Figures:
    """What one run owed Discord and what became of it (see `audit`)."""

    owed: int = 0
    delivered: int = 0
    doubled: int = 0
    doubled_by_interaction: int = 0
    """Of those doubled: shown once as an interaction's answer and once more by the deliverer."""
    lost: int = 0
    waiting: int = 0
    given_up: int = 0
    given_up_stale: int = 0
    """Of those given up: reminders whose turn was over before they could be sent."""
    stuck: int = 0
    misses_double_counted: int = 0
    wrong_reminders: int = 0
    repeated_reminders: int = 0
    reminders: int = 0
    timeouts: int = 0
    misses: int = 0
    games: int = 0
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def add(self, other: Figures) -> None:
        for name in ("owed", "delivered", "doubled", "doubled_by_interaction", "lost", "waiting", "given_up", "given_up_stale", "stuck",
                     "misses_double_counted", "wrong_reminders", "repeated_reminders", "reminders", "timeouts",
                     "misses", "games"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.problems += other.problems
        self.notes += other.notes

    @property
    def clean(self) -> bool:
        return not (self.doubled or self.lost or self.waiting or self.stuck or self.misses_double_counted
                    or self.wrong_reminders)


def bot_messages(fake: FakeDiscord) -> list[FakeMessage]:
    """Every visible message the bot made, public or direct, oldest first (ephemeral ones aside)."""
    found = [m for m in fake.all_messages.values()
             if m.author is fake.bot_user and not m.is_ephemeral and not m.deleted]
    return sorted(found, key=lambda m: m.id)


def _contents(message: FakeMessage) -> list[str]:
    """Every content a message showed (an interaction may answer by editing a message: a lobby becomes
    the game's first message)."""
    seen: list[str] = []
    for text in [*(str(r.get("content") or "") for r in message.revisions), message.content]:
        if text and text not in seen:
            seen.append(text)
    return seen


def deliveries(fake: FakeDiscord, rows: Sequence[OwedRow]) -> dict[str, list[FakeMessage]]:
    """For each owed message, the messages Discord shows for it: posted by the deliverer (the nonce is
    its key), or by the interaction that answered with it (same words, in the same channel)."""
    by_key: dict[str, list[FakeMessage]] = {r.key: [] for r in rows}
    by_place: dict[tuple[int, str], list[OwedRow]] = defaultdict(list)
    for row in rows:
        if row.channel_id is not None:
            by_place[(row.channel_id, row.text[:2000])].append(row)
    messages = bot_messages(fake)
    for message in messages:
        if message.nonce is not None and message.nonce in by_key:
            by_key[message.nonce].append(message)
    taken: set[str] = set()
    for message in messages:
        if message.interaction is None or (message.nonce is not None and message.nonce in by_key):
            continue
        for text in _contents(message):
            candidates = [r for r in by_place.get((message.channel.id, text), []) if r.key not in taken]
            # the same words may be owed twice in a channel ("X is back ..."): an interaction's message
            # goes to one the deliverer did not post, if there is one
            candidates.sort(key=lambda r: (bool(by_key[r.key]), r.id))
            if candidates:
                taken.add(candidates[0].key)
                by_key[candidates[0].key].append(message)
    return by_key


async def audit(store: Store, fake: FakeDiscord, *, now: float | None = None, grace: float = 10.0) -> Figures:
    """Everything the bot owed, against what the fake Discord shows, and the games' state.

    - delivered: shown at least once; doubled: more than once; given up: never shown, with the reason
      the bot logged (Discord refused it, or a reminder whose turn was over); lost: never shown and
      not given up (`waiting` of those are still in the outbox, not yet sent).
    - stuck: a running game where a person decides without a clock timing that very turn (or with one
      overdue by more than `grace` seconds and not held by a scheduler), or where a bot should play
      and has not, while somebody still plays.
    - misses double-counted: a "Time ran out ... again (N in a row)" whose N is more than the turns
      that person really let run out in a row, or a seat whose missed count is more than its last
      turns run out in a row.
    - wrong reminders: a reminder shown to, or mentioning, someone other than the person deciding
      its turn; repeated reminders: more than one reminder owed for one turn in one place.
    """
    now = time.time() if now is None else now
    figures = Figures()
    rows = await owed_rows(store)
    shown = deliveries(fake, rows)
    figures.owed = len(rows)
    for row in rows:
        count = len(shown[row.key])
        what = f"{row.key} ({row.queue}, {row.text[:60]!r})"
        if count:
            figures.delivered += 1
            if count > 1:
                figures.doubled += 1
                copies = shown[row.key]
                figures.doubled_by_interaction += any(m.interaction is not None for m in copies) and any(
                    m.nonce == row.key for m in copies)
                figures.problems.append(f"shown {count} times: {what}")
            if row.sent_at is None and row.gave_up is None:
                figures.notes.append(f"shown but not marked sent yet: {what}")
        elif row.gave_up is not None:
            figures.given_up += 1
            figures.given_up_stale += "turn was over" in row.gave_up
        else:
            figures.lost += 1
            if row.sent_at is None:
                figures.waiting += 1
                figures.problems.append(f"never shown, still owed: {what}")
            else:
                figures.problems.append(f"marked sent but never shown: {what}")
    keys = {r.key for r in rows}
    strays = [m for m in bot_messages(fake) if m.nonce is not None and m.nonce.startswith("ks") and m.nonce not in keys]
    if strays:
        figures.problems.append(f"{len(strays)} message(s) posted with a key the outbox does not have")
    games = [int(r[0]) for r in await fetch(store, "SELECT id FROM games WHERE seed IS NOT NULL ORDER BY id")]
    figures.games = len(games)
    for game_id in games:
        own = [r for r in rows if r.game_id == game_id]
        await _audit_game(store, game_id, own, shown, figures, now, grace)
    return figures


async def _audit_game(store: Store, game_id: int, rows: list[OwedRow], shown: dict[str, list[FakeMessage]],
                      figures: Figures, now: float, grace: float) -> None:
    record = await store.get_game(game_id)
    past = await history(store, game_id)
    seats = {s[0]: s for s in await seat_misses(store, game_id)}
    by_name = {seat[1]: position for position, seat in seats.items()}
    user_of = {i: s.user_id for i, s in enumerate(record.seats)}
    # reminders: to the person deciding their turn, once per turn and place
    reminded: Counter[tuple[int, str]] = Counter()
    for row in rows:
        if not row.reminder or row.for_turn is None:
            continue
        figures.reminders += 1
        reminded[(row.for_turn, row.queue)] += 1
        found = REMINDED.match(row.text)
        person = row.user_id if row.user_id is not None else (int(found["user"]) if found else None)
        decider = past.deciders.get(row.for_turn)
        owner = None if decider is None else user_of.get(decider)
        if (person is None or owner is None or owner != person) and shown[row.key]:
            figures.wrong_reminders += 1
            figures.problems.append(f"game {game_id}: reminder for turn {row.for_turn} went to {person}, "
                                    f"but seat {decider} ({owner}) decided that turn")
    for (reminded_turn, queue), count in reminded.items():
        if count > 1:
            figures.repeated_reminders += count - 1
            figures.notes.append(f"game {game_id}: {count} reminders owed for turn {reminded_turn} in {queue}")
    # turns run out: each told once, each "again (N in a row)" true, each seat's count no more than its run
    told: dict[int, dict[int, int]] = defaultdict(dict)   # seat -> turn -> the N its message said
    for row in rows:
        found = TIMED_OUT.match(row.text)
        if row.channel_id is None or found is None or found["name"] not in by_name:
            continue
        figures.timeouts += 1
        seat = by_name[found["name"]]
        turn = past.turn_told_at(seat, row.created_at)
        said = int(found["turns"] or 1)
        if turn is None:
            figures.problems.append(f"game {game_id}: no move of seat {seat} saved with {row.key}")
            continue
        if turn in told[seat]:
            figures.misses_double_counted += 1
            figures.problems.append(f"game {game_id}: turn {turn} of seat {seat} told as run out twice")
        told[seat][turn] = said
    for seat, turns in told.items():
        mine = past.turns_of(seat)
        for turn, said in turns.items():
            before = [t for t in mine if t < turn][-(said - 1):] if said > 1 else []
            if said > 1 and (len(before) < said - 1 or any(t not in turns for t in before)):
                figures.misses_double_counted += 1
                figures.problems.append(f"game {game_id}: seat {seat}'s turn {turn} was told as {said} in a row, "
                                        f"but its turns {before} did not all run out")
    for position, (_, name, missed, missed_turn, away) in seats.items():
        figures.misses += missed
        if not missed:
            continue
        runs = told.get(position, {})
        if away:  # nothing is timed while away: the count stands where the last turn run out left it
            last = max(runs) if runs else None
            expected = runs[last] if last is not None else 0
            if last is not None and missed_turn == last and missed != expected:
                figures.misses_double_counted += 1
                figures.problems.append(f"game {game_id}: {name} has {missed} misses, the last message said {expected}")
            continue
        streak = 0
        for turn in reversed(past.turns_of(position)):
            if turn in runs or (turn == missed_turn == past.current_turn):
                streak += 1
            elif turn != past.current_turn:
                break
        if missed > streak:
            figures.misses_double_counted += 1
            figures.problems.append(f"game {game_id}: {name} has {missed} misses counted, but only their last "
                                    f"{streak} turn(s) ran out")
    problem = await stuck_reason(store, game_id, now, grace)
    if problem is not None:
        figures.stuck += 1
        figures.problems.append(f"game {game_id} is stuck: {problem}")


async def stuck_reason(store: Store, game_id: int, now: float, grace: float) -> str | None:
    """Why a running game cannot move on by itself, or None (it can, or it rightly waits for people)."""
    record = await store.get_game(game_id)
    if record.status != "active" or record.pace is None or record.paused_at is not None:
        return None
    state = (await store.load_game(game_id)).state
    who = clock.decider(record, state)
    if who is None:
        return None
    seat = record.seats[who.seat]
    timed = await clock_row(store, game_id)
    if seat.bot_decides:
        if seat.is_bot or any(not s.is_bot and not s.away for s in record.seats):
            return f"a bot should play turn {who.turn} (seat {who.seat}) and has not"
        return None  # everyone is away: the game waits for them, on purpose
    if timed is None:
        return f"{seat.name} decides turn {who.turn} and no clock times it"
    turn, position, _, deadline, claimed, _ = timed
    if (turn, position) != (who.turn, who.seat):
        return f"the clock times turn {turn} seat {position}, but seat {who.seat} decides turn {who.turn}"
    if deadline < now - grace and (claimed is None or claimed < now - grace):
        return f"turn {who.turn} ran out {now - deadline:.0f} s ago and nobody played it"
    return None


async def clockless(store: Store) -> list[int]:
    """Running games with a pace where a person decides and no clock times them."""
    found = []
    for (game_id,) in await fetch(store, "SELECT id FROM games WHERE status = 'active' AND pace IS NOT NULL "
                                         "AND paused_at IS NULL"):
        record = await store.get_game(int(game_id))
        state = (await store.load_game(record.id)).state
        who = clock.decider(record, state)
        if who is not None and not record.seats[who.seat].bot_decides and record.clock is None:
            found.append(record.id)
    return found


async def at_rest(store: Store) -> bool:
    """Nothing more will happen by itself: every message sent or given up, and every running game
    waiting for people who are all away (or finished)."""
    waiting = await fetch(store, "SELECT count(*) FROM outbox WHERE sent_at IS NULL AND gave_up IS NULL")
    if int(waiting[0][0]):
        return False
    for (game_id,) in await fetch(store, "SELECT id FROM games WHERE status = 'active'"):
        record = await store.get_game(int(game_id))
        if record.pace is not None and record.paused_at is None and (
                record.clock is not None or any(not s.is_bot and not s.away for s in record.seats)):
            return False  # a clock runs (or a scheduler holds one: the last miss counted, its turn not yet played)
    return True


async def settle(store: Store, timeout: float, *, poll: float = 0.25) -> bool:
    """Wait until `at_rest` (True), or `timeout` seconds (False)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if await at_rest(store):
            return True
        await asyncio.sleep(poll)
    return await at_rest(store)


def lines_matching(lines: Iterable[str], needle: str) -> list[str]:
    return [ln for ln in lines if needle in ln]


# ---------------------------------------------------------------------- playing as people


async def open_game(fake: FakeDiscord, host: FakeUser, guest: FakeUser, channel: FakeChannel, *,
                    pace: clock.Pace = "live", timeout: float = 10.0) -> FakeMessage:
    """`/keystone new players:2 pace:` by `host`, Join by `guest`, Start by `host`: the game's first message."""
    lobby = await fake.slash(host, channel, "keystone new", {"players": 2, "pace": pace}, timeout=timeout)
    await fake.click(guest, lobby.message, label="Join", timeout=timeout)
    await fake.click(host, lobby.message, label="Start", timeout=timeout)
    return await fake.wait_for_message(channel, lambda m: "The game begins" in m.content, after=lobby.message,
                                       timeout=timeout)


DRIVEN = ("take", "wild", "endturn")
"""The moves people make here: those made with one slash command and no further choice."""


def driven_moves(state: GameState) -> list[str]:
    """The current player's legal moves among `DRIVEN`, those that end the turn first."""
    if state.phase == "over":
        return []
    options = [str(a) for a in legal_actions(state) if str(a).split()[0] in DRIVEN]
    ending = [o for o in options if apply_text(state, o)[0].turn != state.turn]
    return ending + [o for o in options if o not in ending]


def slash_of(notation: str) -> tuple[str, dict[str, str]]:
    """The slash command and options that make `notation`'s move."""
    words = notation.split()
    if words[0] == "take":
        return "take", {"card": words[1], "cell": words[2]}
    if words[0] == "wild":
        return "wild", {"habitat": words[1], "cell": words[2]}
    return "endturn", {}
