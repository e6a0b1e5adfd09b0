-- An answer Discord may already show.
--
-- A message an interaction answers with is held for that answer; if the process dies after Discord
-- took it but before it was marked sent, the deliverer takes it over. `answer` ('<application
-- id>/<interaction token>') lets the deliverer first read the interaction's original answer back:
-- if Discord shows this message there, it is marked sent instead of being posted again. Discord
-- keeps an interaction's token for 15 minutes; the column is cleared once the message is settled.
ALTER TABLE outbox ADD COLUMN answer TEXT;
