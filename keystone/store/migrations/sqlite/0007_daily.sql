-- The daily challenge: one seeded solo game per person per UTC day, and the servers whose board
-- of the day lists a person. The seed comes from a secret made once (by the bot, at first use)
-- and kept only here, so nobody can work out a coming day's game from its date.

CREATE TABLE daily_secret (
    id          INTEGER PRIMARY KEY CHECK (id = 1),   -- there is only ever one secret
    secret      BLOB    NOT NULL CHECK (length(secret) >= 32),
    created_at  REAL    NOT NULL
);

-- A person's game of a day: one row, so one attempt. `score` and `finished_at` are written in the
-- transaction that finishes the game; they stay NULL while it runs and when it is abandoned.
CREATE TABLE daily_games (
    day          TEXT    NOT NULL CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),  -- UTC date
    user_id      INTEGER NOT NULL,
    game_id      INTEGER NOT NULL UNIQUE REFERENCES games (id),
    score        INTEGER,
    resigned     INTEGER CHECK (resigned IN (0, 1)),
    finished_at  REAL,
    PRIMARY KEY (day, user_id)
) WITHOUT ROWID;

-- Who plays the daily for which server: their results appear on that server's board of the day.
CREATE TABLE daily_servers (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    joined_at   REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;

CREATE INDEX daily_servers_by_user ON daily_servers (user_id);
