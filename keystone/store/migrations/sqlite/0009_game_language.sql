-- The language of a game's public messages, resolved when its lobby opened (the server's choice,
-- else its Discord locale) and kept in step with the server's choice: the clock's posts (reminders,
-- turns run out, bot turns after a restart) have no interaction to read a locale from.
-- NULL (games opened before) falls back to the server's choice, else English.

ALTER TABLE games ADD COLUMN language TEXT CHECK (language IN ('en', 'de'));
