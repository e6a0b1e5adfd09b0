-- Finding finished games for history and replays without reading every result or game:
-- a person's results newest first, and a channel's finished games newest first.

CREATE INDEX results_by_user_time ON results (user_id, finished_at) WHERE user_id IS NOT NULL;
CREATE INDEX games_finished_by_channel ON games (channel_id, updated_at) WHERE status = 'finished';
