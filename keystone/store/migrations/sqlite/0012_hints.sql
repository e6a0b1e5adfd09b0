-- Hints: whether players may ask `/keystone hint` in a game, and whether anyone did.
--
-- `hints` is the host's choice at `/keystone new hints:` (NULL: not chosen; the app then allows them
-- wherever the game would not be rated). `hinted` is set once a hint was given; such a game is not rated.
ALTER TABLE games ADD COLUMN hints INTEGER CHECK (hints IN (0, 1));
ALTER TABLE games ADD COLUMN hinted INTEGER NOT NULL DEFAULT 0 CHECK (hinted IN (0, 1));
