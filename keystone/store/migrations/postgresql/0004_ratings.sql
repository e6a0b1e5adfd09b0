-- Statistics and ratings (as on SQLite: see ../sqlite/0004_ratings.sql for what each holds).

ALTER TABLE results ADD COLUMN best_line text;
ALTER TABLE results ADD COLUMN best_line_points integer;
ALTER TABLE results ADD COLUMN habitats text;

CREATE TABLE ratings (
    player      text    NOT NULL PRIMARY KEY,
    mu          double precision NOT NULL,
    sigma       double precision NOT NULL CHECK (sigma > 0),
    games       integer NOT NULL CHECK (games >= 1),
    updated_at  double precision NOT NULL
);

CREATE TABLE rating_changes (
    game_id       bigint  NOT NULL REFERENCES games (id),
    position      integer NOT NULL,
    player        text    NOT NULL,
    place         integer NOT NULL CHECK (place >= 1),
    mu_before     double precision NOT NULL,
    sigma_before  double precision NOT NULL,
    mu_after      double precision NOT NULL,
    sigma_after   double precision NOT NULL,
    PRIMARY KEY (game_id, position)
);

CREATE INDEX rating_changes_by_player ON rating_changes (player);

CREATE TABLE resignations (
    game_id   bigint  NOT NULL REFERENCES games (id),
    position  integer NOT NULL,
    user_id   bigint  NOT NULL,
    PRIMARY KEY (game_id, position)
);
