-- Forgetting a person or a server (as on SQLite: see ../sqlite/0013_privacy.sql for why).
DROP TRIGGER actions_no_update ON actions;

CREATE TRIGGER actions_no_update BEFORE UPDATE OF game_id, version, seat, notation, created_at ON actions
    FOR EACH ROW EXECUTE FUNCTION actions_append_only();

CREATE TABLE server_departures (
    guild_id  bigint           PRIMARY KEY,
    left_at   double precision NOT NULL
);

CREATE INDEX server_departures_by_time ON server_departures (left_at);
