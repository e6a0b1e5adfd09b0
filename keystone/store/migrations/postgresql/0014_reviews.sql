-- Reviews (as on SQLite: see ../sqlite/0014_reviews.sql).
CREATE TABLE reviews (
    game_id     bigint  NOT NULL,
    seat        integer NOT NULL,
    body        text    NOT NULL,
    created_at  double precision NOT NULL,
    PRIMARY KEY (game_id, seat),
    FOREIGN KEY (game_id, seat) REFERENCES seats (game_id, position)
);
