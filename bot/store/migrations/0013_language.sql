-- Issue #16: the language the table's public messages (lobby, board, log, game over) are written in,
-- chosen at /game new; and each seat's last-seen Discord locale, for the DMs sent to it later
-- (reminders, panels), which have no interaction to read a locale from.
ALTER TABLE game_tables ADD COLUMN lang TEXT NOT NULL DEFAULT 'en-US';
ALTER TABLE seats ADD COLUMN locale TEXT
