-- Provably fair randomness: a secret salt per table; sha256 of game, table, seed and salt is shown
-- when the game starts and seed and salt when it ends (bot/tables/fair.py). Older tables have none.
ALTER TABLE game_tables ADD COLUMN seed_salt TEXT
;
-- "My games" looks a user up across every table.
CREATE INDEX seats_by_user ON seats (user_id) WHERE user_id IS NOT NULL
