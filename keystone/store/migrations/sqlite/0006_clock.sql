-- Turn clocks: a pace per game, one clock per running game whose deciding seat is a person, who
-- is away, who wants reminders by direct message, and the votes that hand an absent seat to a bot.

ALTER TABLE games ADD COLUMN pace TEXT;       -- live, daily or relaxed; NULL: no clock (DMs, older games)
ALTER TABLE games ADD COLUMN paused_at REAL;  -- when the host paused the clock; NULL while it runs

ALTER TABLE seats ADD COLUMN missed INTEGER NOT NULL DEFAULT 0 CHECK (missed >= 0);  -- turns missed in a row
ALTER TABLE seats ADD COLUMN away INTEGER NOT NULL DEFAULT 0 CHECK (away IN (0, 1)); -- a bot plays for them

-- The turn being timed: which turn, which store seat must decide, and when it is reminded and runs out.
CREATE TABLE clocks (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id),
    turn        INTEGER NOT NULL CHECK (turn >= 0),
    seat        INTEGER NOT NULL CHECK (seat >= 0),
    started_at  REAL    NOT NULL,
    remind_at   REAL    NOT NULL,
    deadline    REAL    NOT NULL,
    reminded    INTEGER NOT NULL DEFAULT 0 CHECK (reminded IN (0, 1))
);

-- What the scheduler asks every few seconds: deadlines passed, and reminders due but not yet sent.
CREATE INDEX clocks_by_deadline ON clocks (deadline);
CREATE INDEX clocks_unsent_reminders ON clocks (remind_at) WHERE reminded = 0;

CREATE TABLE user_settings (
    user_id  INTEGER PRIMARY KEY,
    notify   INTEGER NOT NULL DEFAULT 0 CHECK (notify IN (0, 1))  -- reminders by direct message too
) WITHOUT ROWID;

-- One row per vote to hand the seat deciding a given turn to a bot.
CREATE TABLE away_votes (
    game_id   INTEGER NOT NULL REFERENCES games (id),
    seat      INTEGER NOT NULL,
    turn      INTEGER NOT NULL,
    voter_id  INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat, turn, voter_id)
) WITHOUT ROWID;
