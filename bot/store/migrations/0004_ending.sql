-- The end of a game: its game-over message is posted once (the time it was, and its message), and the
-- rematch lobby opened from it. Tables that ended already count as announced (an upgrade must not
-- announce every old game).
ALTER TABLE game_tables ADD COLUMN end_announced_at REAL;
UPDATE game_tables SET end_announced_at = updated_at WHERE status NOT IN ('lobby', 'active');
ALTER TABLE game_tables ADD COLUMN end_message_id INTEGER;
ALTER TABLE game_tables ADD COLUMN rematch_id INTEGER;
CREATE INDEX ended_tables_by_channel ON game_tables (channel_id, updated_at) WHERE status IN ('finished', 'abandoned')
