-- Reviews: `/keystone review` of a finished game, computed once per seat and kept.
--
-- `body` is the review's language-independent data as JSON (each turn's move and the hard bot's
-- choice, their estimated values, the costliest habit); the words are made when it is shown, in the
-- asker's language. A finished game never changes, so a kept review stays true.
CREATE TABLE reviews (
    game_id     INTEGER NOT NULL,
    seat        INTEGER NOT NULL,
    body        TEXT    NOT NULL,
    created_at  REAL    NOT NULL,
    PRIMARY KEY (game_id, seat),
    FOREIGN KEY (game_id, seat) REFERENCES seats (game_id, position)
) WITHOUT ROWID;
