-- The first schema: games with their seats and snapshot, the append-only action log,
-- and solo campaign progress. Times are Unix seconds (REAL); Discord ids are INTEGER.

CREATE TABLE games (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER,                      -- NULL in a direct-message channel
    channel_id  INTEGER NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind IN ('competitive', 'solo', 'coop')),
    assignment  INTEGER,                      -- Field Journal assignment, NULL outside the campaign
    ruleset     TEXT    NOT NULL,
    config      TEXT    NOT NULL,             -- engine.dump_config JSON
    host_id     INTEGER NOT NULL,
    status      TEXT    NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
    seed        INTEGER,                      -- set when the game starts
    names       TEXT,                         -- JSON list of board names given to engine.new_game
    snapshot    TEXT,                         -- engine.dump_state JSON of the current state
    version     INTEGER NOT NULL DEFAULT 0,   -- equals the snapshot's version and the log's length
    state_hash  BLOB,                         -- digest of `snapshot`
    created_at  REAL    NOT NULL,
    updated_at  REAL    NOT NULL
);

-- At most one lobby or running game per channel, enforced here rather than trusted to callers.
CREATE UNIQUE INDEX games_one_open_per_channel ON games (channel_id) WHERE status IN ('lobby', 'active');

CREATE TABLE seats (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    position   INTEGER NOT NULL CHECK (position >= 0),
    user_id    INTEGER,                       -- NULL for a bot seat
    bot_level  INTEGER,                       -- NULL for a person
    name       TEXT    NOT NULL,
    PRIMARY KEY (game_id, position),
    CHECK ((user_id IS NULL) <> (bot_level IS NULL))
) WITHOUT ROWID;

CREATE UNIQUE INDEX seats_one_per_user ON seats (game_id, user_id) WHERE user_id IS NOT NULL;

-- One row per applied action; `version` is the game version the action produced (1 for the first).
CREATE TABLE actions (
    game_id     INTEGER NOT NULL REFERENCES games (id),
    version     INTEGER NOT NULL CHECK (version >= 1),
    seat        INTEGER NOT NULL,
    notation    TEXT    NOT NULL,
    state_hash  BLOB    NOT NULL,             -- digest of the snapshot this action produced
    created_at  REAL    NOT NULL,
    PRIMARY KEY (game_id, version),
    FOREIGN KEY (game_id, seat) REFERENCES seats (game_id, position)
) WITHOUT ROWID;

CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;

CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;

-- Best result per user and Field Journal assignment; best means most stars, then highest score.
CREATE TABLE campaign (
    user_id       INTEGER NOT NULL,
    assignment    INTEGER NOT NULL,
    stars         INTEGER NOT NULL,
    best_score    INTEGER NOT NULL,
    attempts      INTEGER NOT NULL,
    completed_at  REAL,                       -- first attempt with at least one star
    updated_at    REAL    NOT NULL,
    PRIMARY KEY (user_id, assignment)
) WITHOUT ROWID;
