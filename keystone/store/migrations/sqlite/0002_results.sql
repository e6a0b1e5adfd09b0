-- Per-seat results of finished games, for statistics, and the indexes that find a user's games.

CREATE TABLE results (
    game_id      INTEGER NOT NULL REFERENCES games (id),
    position     INTEGER NOT NULL,
    user_id      INTEGER,                     -- copied from the seat: NULL for a bot
    score        INTEGER NOT NULL,
    place        INTEGER NOT NULL CHECK (place >= 1),   -- 1 is first; tied seats share a place
    won          INTEGER NOT NULL CHECK (won IN (0, 1)),
    finished_at  REAL    NOT NULL,
    PRIMARY KEY (game_id, position),
    FOREIGN KEY (game_id, position) REFERENCES seats (game_id, position)
) WITHOUT ROWID;

CREATE INDEX results_by_user ON results (user_id) WHERE user_id IS NOT NULL;
CREATE INDEX seats_by_user ON seats (user_id) WHERE user_id IS NOT NULL;
CREATE INDEX games_by_status ON games (status, updated_at);
