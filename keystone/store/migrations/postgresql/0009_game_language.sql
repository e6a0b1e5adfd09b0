-- The language of a game's public messages (as on SQLite: see ../sqlite/0009_game_language.sql).

ALTER TABLE games ADD COLUMN language text CHECK (language IN ('en', 'de'));
