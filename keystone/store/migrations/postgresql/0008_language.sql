-- The language the bot speaks (as on SQLite: see ../sqlite/0008_language.sql for what each holds).

ALTER TABLE user_settings ADD COLUMN language text CHECK (language IN ('en', 'de'));

CREATE TABLE server_settings (
    guild_id  bigint PRIMARY KEY,
    language  text CHECK (language IN ('en', 'de'))
);
