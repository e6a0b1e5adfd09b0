-- The language the bot speaks: a person's own choice for their private answers, and a server's
-- choice for its public messages. NULL (or no row) follows the Discord client's or server's locale.

ALTER TABLE user_settings ADD COLUMN language TEXT CHECK (language IN ('en', 'de'));

CREATE TABLE server_settings (
    guild_id  INTEGER PRIMARY KEY,
    language  TEXT CHECK (language IN ('en', 'de'))
) WITHOUT ROWID;
