"""Persistence: games, their move logs, results and solo campaigns in one SQLite file or PostgreSQL database.

Games in progress survive restarts and crashes, and every move is kept so any game can be
replayed and audited. The service layer is the only intended caller; it never writes SQL.

Typical use by the service::

    await Store.check(settings.database)                     # at start-up: refuses, writes nothing
    store = await Store.open(settings.database)             # a path or postgresql:// URL; migrated
    lobby = await store.create_lobby(guild_id=g, channel_id=c, kind="competitive",
                                     host_id=u, host_name="Ada", config=GameConfig(players=2))
    lobby = await store.join_lobby(lobby.id, SeatInfo.human(v, "Brook"))   # or SeatInfo.bot(2, "Bot")
    state = engine.new_game(GameConfig(players=2), seed, [s.name for s in lobby.seats])
    game = await store.start_game(lobby.id, state)

    loaded = await store.load_game(game.id)                  # verified; raises CorruptGame
    new, events = engine.apply(loaded.state, action)         # IllegalAction -> tell the player
    try:
        await store.commit_action(game.id, loaded.state.version, seat, str(action), new,
                                  results=sheets_if_over)    # one transaction
    except StaleVersion:
        ...                                                  # "the game has moved on": reload, re-show

Rules of the API:
- Every error is a `StoreError` whose `str()` is a sentence fit to show a player; when one is
  raised nothing was written. `InvalidInput` is also a `ValueError`.
- `commit_action` is the only way a game's state changes. It writes the log row and the new
  snapshot together, only if the stored version is `expected_version`; otherwise it raises
  `StaleVersion` (compare `button version` with `record.version` before applying to save work).
  When the new state is over, `results` (one `SeatResult` per seat) are required and the game
  finishes in the same transaction; `stars` in a result also records the Field Journal
  campaign for that person.
- Seats are the people and bots at the table in order (`SeatInfo`); in a co-op game several
  seats share the engine's one board, so `seat` in the log is the store seat, not the board.
- At most one lobby or running game per channel (`ChannelBusy`); `abandon_game` or the end of
  a game frees the channel. If the host leaves a lobby, the next person seated becomes host;
  when no person is left the lobby is abandoned.
- `load_game` checks digests (fast, every load). `verify_game` also replays seed + log move by
  move; use it for audits, since it fails if the rules of play changed after a game was recorded.
- Only our own files are written: `open` and `check` refuse a missing folder, another program's
  file, a damaged or read-only one with a `DatabaseUnusable` naming the file, before any write.
  A PostgreSQL server that cannot be reached, or a database there holding other tables, is
  refused the same way; its password is never part of a message.
- SQLite and PostgreSQL give the same guarantees through the same SQL (see `backend`);
  `keystone.store.copy` moves every record from one to the other.
- The daily challenge: `start_daily_game` creates and starts a person's solo game of a UTC day
  together with its day row (`DailyTaken` for a second one that day); the move that finishes it
  writes its result in the same transaction. `daily_secret` is made once, at first use.
- Languages: `chosen_languages` reads a person's and a server's choice ("en", "de", or None to
  follow Discord's locale); `set_language` and `set_server_language` keep or clear (None) them.
- The outbox (`keystone.store.outbox`): what the bot owes Discord is written with its cause
  (`posts=` on `commit_action`, `commit_moves`, `claim_reminder`, the clock's calls) and stays
  until `mark_sent` (Discord accepted it) or `give_up` (it never can be); `waiting_posts` gives
  each queue's next message, in order. A passed deadline is taken on with `claim_deadline`,
  which counts the person's missed turn once per turn.
- Times are Unix seconds from the clock given to `Store.open` (default `time.time`).
"""

from keystone.store.daily import DailyBoard, DailyGame, DailyTaken
from keystone.store.errors import (
    ChannelBusy,
    CorruptGame,
    DatabaseUnusable,
    GameNotFound,
    InvalidInput,
    LobbyError,
    SchemaError,
    StaleVersion,
    StoreError,
    WrongStatus,
)
from keystone.store.integrity import state_digest
from keystone.store.models import (
    ASSIGNMENTS,
    MAX_SEATS,
    MAX_STARS,
    PACES,
    AssignmentBest,
    BoardSummary,
    CampaignProgress,
    Clock,
    DueClock,
    FinishedGame,
    GameRecord,
    Kind,
    LoadedGame,
    LogEntry,
    Pace,
    PlayerRating,
    PlayerResult,
    SeatInfo,
    SeatResult,
    Status,
    UserStats,
)
from keystone.store.outbox import Outgoing, Waiting
from keystone.store.privacy import Labels, PersonForgotten
from keystone.store.rows import KEEP
from keystone.store.shards import Shards, shard_of
from keystone.store.store import Store

__all__ = [
    "ASSIGNMENTS", "KEEP", "MAX_SEATS", "MAX_STARS", "PACES", "AssignmentBest", "BoardSummary", "CampaignProgress",
    "ChannelBusy", "Clock", "CorruptGame", "DailyBoard", "DailyGame", "DailyTaken", "DatabaseUnusable", "DueClock",
    "FinishedGame", "GameNotFound", "GameRecord", "InvalidInput", "Kind", "Labels", "LoadedGame", "LobbyError",
    "LogEntry", "Outgoing", "Pace", "PersonForgotten", "PlayerRating", "PlayerResult", "SchemaError", "SeatInfo",
    "SeatResult", "Shards",
    "StaleVersion", "Status", "Store", "StoreError", "UserStats", "Waiting", "WrongStatus", "shard_of", "state_digest",
]
