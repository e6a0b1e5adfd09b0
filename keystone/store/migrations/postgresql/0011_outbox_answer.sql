-- An answer Discord may already show (as on SQLite: see ../sqlite/0011_outbox_answer.sql).
ALTER TABLE outbox ADD COLUMN answer text;
