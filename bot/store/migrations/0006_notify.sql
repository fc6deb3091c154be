-- Notifications, one per decision: how loud the table may be for each seat, which DM panel (and for
-- which decision) is the seat's current one, and the channel ping that told the seat of its decision,
-- so the ping is deleted and the panel retired once the decision is made.
ALTER TABLE seats ADD COLUMN notify TEXT NOT NULL DEFAULT 'every';
ALTER TABLE seats ADD COLUMN panel_version INTEGER;
ALTER TABLE seats ADD COLUMN ping_message_id INTEGER;
ALTER TABLE seats ADD COLUMN ping_version INTEGER
;
-- A table may play in its own thread: the lobby and the result stay in the parent channel.
ALTER TABLE game_tables ADD COLUMN wants_thread INTEGER NOT NULL DEFAULT 0;
ALTER TABLE game_tables ADD COLUMN parent_channel_id INTEGER
