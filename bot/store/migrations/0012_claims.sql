-- Background work (reminders, autopilot, the delivery sweep, bots owed a move after a restart) is claimed
-- per table with a lease, so with several bot processes each pass over a table runs in one of them: one
-- reminder per table, not one per process. A process that dies holding a claim loses it when it expires.
ALTER TABLE game_tables ADD COLUMN claimed_by TEXT;
ALTER TABLE game_tables ADD COLUMN claimed_until REAL
