-- The daily challenge (as on SQLite: see ../sqlite/0007_daily.sql for what each holds).

CREATE TABLE daily_secret (
    id          integer PRIMARY KEY CHECK (id = 1),
    secret      bytea   NOT NULL CHECK (octet_length(secret) >= 32),
    created_at  double precision NOT NULL
);

CREATE TABLE daily_games (
    day          text    NOT NULL CHECK (day ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
    user_id      bigint  NOT NULL,
    game_id      bigint  NOT NULL UNIQUE REFERENCES games (id),
    score        integer,
    resigned     integer CHECK (resigned IN (0, 1)),
    finished_at  double precision,
    PRIMARY KEY (day, user_id)
);

CREATE TABLE daily_servers (
    guild_id    bigint NOT NULL,
    user_id     bigint NOT NULL,
    joined_at   double precision NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);

CREATE INDEX daily_servers_by_user ON daily_servers (user_id);
