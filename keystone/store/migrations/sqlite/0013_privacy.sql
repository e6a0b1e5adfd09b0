-- Forgetting a person or a server.
--
-- A forgotten person's name leaves every game they played, its snapshot included, so the digests
-- of a game's log are worked out again from its seed and moves with the new names. The log stays
-- append-only for what was played (seat, move, time); only its digests may be rewritten.
DROP TRIGGER actions_no_update;

CREATE TRIGGER actions_no_update BEFORE UPDATE OF game_id, version, seat, notation, created_at ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;

-- Servers the bot was removed from, and when: their data is forgotten 30 days later unless the bot
-- is added back first (the row is then deleted).
CREATE TABLE server_departures (
    guild_id  INTEGER PRIMARY KEY,
    left_at   REAL    NOT NULL
) WITHOUT ROWID;

CREATE INDEX server_departures_by_time ON server_departures (left_at);
