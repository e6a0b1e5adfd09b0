-- Per-seat results of finished games, and the indexes that find a user's games (as on SQLite).

CREATE TABLE results (
    game_id      bigint  NOT NULL REFERENCES games (id),
    position     integer NOT NULL,
    user_id      bigint,
    score        integer NOT NULL,
    place        integer NOT NULL CHECK (place >= 1),
    won          integer NOT NULL CHECK (won IN (0, 1)),
    finished_at  double precision NOT NULL,
    PRIMARY KEY (game_id, position),
    FOREIGN KEY (game_id, position) REFERENCES seats (game_id, position)
);

CREATE INDEX results_by_user ON results (user_id) WHERE user_id IS NOT NULL;
CREATE INDEX seats_by_user ON seats (user_id) WHERE user_id IS NOT NULL;
CREATE INDEX games_by_status ON games (status, updated_at);
