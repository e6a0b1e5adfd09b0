-- Statistics and ratings.
--
-- What `/keystone stats` shows beyond scores is kept with each result when the game ends, so a
-- player's statistics never need to rescore old games: the board's best row or column and how
-- many of its cards show each habitat. Results saved before this version have NULL here; the
-- service fills them in from the game's final snapshot the first time they are asked for.

ALTER TABLE results ADD COLUMN best_line TEXT;            -- "Row B" or "Column 3"
ALTER TABLE results ADD COLUMN best_line_points INTEGER;
ALTER TABLE results ADD COLUMN habitats TEXT;             -- JSON {"forest": 5, ...}: cards on the final board

-- One rating per player: a person ('user:<id>') or a bot level ('bot:<level>'), so people can
-- measure themselves against the bots. `mu` and `sigma` are the rating and its uncertainty.
CREATE TABLE ratings (
    player      TEXT    NOT NULL PRIMARY KEY,
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL CHECK (sigma > 0),
    games       INTEGER NOT NULL CHECK (games >= 1),
    updated_at  REAL    NOT NULL
) WITHOUT ROWID;

-- Each rated seat of each rated game, written in the transaction that finishes the game: the
-- primary key makes counting a game twice impossible, and the rows say who played rated games
-- in which server (the leaderboard) and let any rating be recomputed from the start.
CREATE TABLE rating_changes (
    game_id       INTEGER NOT NULL REFERENCES games (id),
    position      INTEGER NOT NULL,
    player        TEXT    NOT NULL,
    place         INTEGER NOT NULL CHECK (place >= 1),
    mu_before     REAL    NOT NULL,
    sigma_before  REAL    NOT NULL,
    mu_after      REAL    NOT NULL,
    sigma_after   REAL    NOT NULL,
    PRIMARY KEY (game_id, position)
) WITHOUT ROWID;

CREATE INDEX rating_changes_by_player ON rating_changes (player);

-- A person who resigned and whose seat a bot played on: rated last for that game, in the bot's stead.
CREATE TABLE resignations (
    game_id   INTEGER NOT NULL REFERENCES games (id),
    position  INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,
    PRIMARY KEY (game_id, position)
) WITHOUT ROWID;
