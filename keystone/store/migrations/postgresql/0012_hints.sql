-- Hints (as on SQLite: see ../sqlite/0012_hints.sql).
ALTER TABLE games ADD COLUMN hints integer CHECK (hints IN (0, 1));
ALTER TABLE games ADD COLUMN hinted integer NOT NULL DEFAULT 0 CHECK (hinted IN (0, 1));
