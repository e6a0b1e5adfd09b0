-- Exactly once from the database to Discord.
--
-- A missed turn counts once per turn: `missed_turn` is the last turn counted for the seat, so a
-- stand-in interrupted by a crash, or two schedulers on one database, never count it twice.
ALTER TABLE seats ADD COLUMN missed_turn INTEGER;

-- A scheduler acting on a passed deadline holds the clock until `claimed_until`; another one (an
-- overlapping deploy) leaves it alone meanwhile, and takes it over if the first one died.
ALTER TABLE clocks ADD COLUMN claimed_until REAL;

-- What the bot owes Discord, written in the same transaction as its cause (a move, a turn run
-- out, a reminder), delivered in order per queue (a channel, or a person's direct messages), and
-- marked sent only once Discord accepted it.
CREATE TABLE outbox (
    id          INTEGER PRIMARY KEY,
    key         TEXT    NOT NULL UNIQUE,  -- the caller's name for it (marks it sent; Discord's nonce)
    queue       TEXT    NOT NULL,   -- 'c<channel id>' or 'u<user id>': delivered in id order within it
    game_id     INTEGER REFERENCES games (id),
    guild_id    INTEGER,            -- the server whose shard delivers it (NULL: a direct message)
    channel_id  INTEGER,            -- a public message's channel
    user_id     INTEGER,            -- a direct message's person
    body        TEXT    NOT NULL,   -- the message as JSON (words, mentions, controls, pictures)
    for_turn    INTEGER,            -- a reminder: dropped once the game's clock times another turn
    created_at  REAL    NOT NULL,
    held_until  REAL,               -- an interaction answers with it until then; the channel after
    attempts    INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    next_at     REAL    NOT NULL,   -- not tried again before (backoff after a failure)
    sent_at     REAL,               -- Discord accepted it
    gave_up     TEXT,               -- why it will never be sent (the channel is gone, no permission)
    CHECK ((channel_id IS NULL) <> (user_id IS NULL))
);

CREATE INDEX outbox_waiting ON outbox (queue, id) WHERE sent_at IS NULL AND gave_up IS NULL;

-- The soonest a held deadline may be taken over (the scheduler sleeps until then at most).
CREATE INDEX clocks_claimed ON clocks (claimed_until) WHERE claimed_until IS NOT NULL;
