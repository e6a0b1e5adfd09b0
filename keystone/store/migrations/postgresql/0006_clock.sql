-- Turn clocks (as on SQLite: see ../sqlite/0006_clock.sql for what each holds).

ALTER TABLE games ADD COLUMN pace text;
ALTER TABLE games ADD COLUMN paused_at double precision;

ALTER TABLE seats ADD COLUMN missed integer NOT NULL DEFAULT 0 CHECK (missed >= 0);
ALTER TABLE seats ADD COLUMN away integer NOT NULL DEFAULT 0 CHECK (away IN (0, 1));

CREATE TABLE clocks (
    game_id     bigint  PRIMARY KEY REFERENCES games (id),
    turn        integer NOT NULL CHECK (turn >= 0),
    seat        integer NOT NULL CHECK (seat >= 0),
    started_at  double precision NOT NULL,
    remind_at   double precision NOT NULL,
    deadline    double precision NOT NULL,
    reminded    integer NOT NULL DEFAULT 0 CHECK (reminded IN (0, 1))
);

CREATE INDEX clocks_by_deadline ON clocks (deadline);
CREATE INDEX clocks_unsent_reminders ON clocks (remind_at) WHERE reminded = 0;

CREATE TABLE user_settings (
    user_id  bigint  PRIMARY KEY,
    notify   integer NOT NULL DEFAULT 0 CHECK (notify IN (0, 1))
);

CREATE TABLE away_votes (
    game_id   bigint  NOT NULL REFERENCES games (id),
    seat      integer NOT NULL,
    turn      integer NOT NULL,
    voter_id  bigint  NOT NULL,
    PRIMARY KEY (game_id, seat, turn, voter_id)
);
