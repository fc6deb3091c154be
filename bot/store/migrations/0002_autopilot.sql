-- After this many quiet seconds a bot makes the awaited players' moves for them (0 = never).
ALTER TABLE game_tables ADD COLUMN autopilot_after INTEGER NOT NULL DEFAULT 0;
