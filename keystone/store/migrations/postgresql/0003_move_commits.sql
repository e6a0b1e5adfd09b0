-- Committing a move is one statement, as on SQLite: inserting into `move_commits` checks the
-- expected version and writes the snapshot and the log row together, or fails and writes nothing.
-- The version check is the UPDATE's own WHERE clause, so of two connections racing on one
-- version the second waits for the first's row lock, re-reads the row, matches nothing and fails.

CREATE VIEW move_commits AS
SELECT 0::bigint AS game_id, 0::integer AS expected_version, 0::bigint AS seed, 0::integer AS seat,
       ''::text AS notation, ''::text AS snapshot, ''::bytea AS state_hash, 0.0::double precision AS created_at
WHERE false;

CREATE FUNCTION move_commits_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE games
    SET snapshot = NEW.snapshot, version = NEW.expected_version + 1, state_hash = NEW.state_hash,
        updated_at = NEW.created_at
    WHERE id = NEW.game_id AND version = NEW.expected_version AND status = 'active' AND seed = NEW.seed;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'stale: the game is not at the expected version'
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    INSERT INTO actions (game_id, version, seat, notation, state_hash, created_at)
    VALUES (NEW.game_id, NEW.expected_version + 1, NEW.seat, NEW.notation, NEW.state_hash, NEW.created_at);
    RETURN NEW;
END;
$$;

CREATE TRIGGER move_commits_insert INSTEAD OF INSERT ON move_commits
    FOR EACH ROW EXECUTE FUNCTION move_commits_insert();
