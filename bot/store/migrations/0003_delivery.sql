-- Durable delivery: the version the channel's board shows and the decision each seat was last told
-- about, so a crash or a failed post is shown again at start-up or by the sweep. Tables that exist
-- already count as shown (an upgrade must not repost every board).
ALTER TABLE game_tables ADD COLUMN shown_version INTEGER NOT NULL DEFAULT -1;
UPDATE game_tables SET shown_version = version;
-- A channel that answered 403/404 again and again: background passes leave the table alone.
ALTER TABLE game_tables ADD COLUMN unreachable_at REAL;
ALTER TABLE seats ADD COLUMN notified_version INTEGER NOT NULL DEFAULT -1;
UPDATE seats SET notified_version = (SELECT version FROM game_tables WHERE game_tables.id = seats.table_id);
-- When DMs were found closed: the mark is tried again after a while, or when the player opens a panel.
ALTER TABLE seats ADD COLUMN dm_closed_at REAL;
-- The DM message holding the seat's current private panel, to retire it when it is superseded.
ALTER TABLE seats ADD COLUMN panel_channel_id INTEGER;
ALTER TABLE seats ADD COLUMN panel_message_id INTEGER;
-- The interaction that produced an action: a duplicated interaction is applied at most once.
ALTER TABLE actions ADD COLUMN interaction_id INTEGER;
CREATE UNIQUE INDEX actions_once_per_interaction ON actions (interaction_id) WHERE interaction_id IS NOT NULL
