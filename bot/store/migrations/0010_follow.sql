-- Followers of a table (the board's Follow button): a DM when the game ends, or at every board.
CREATE TABLE followers (
    table_id    INTEGER NOT NULL REFERENCES game_tables (id),
    user_id     INTEGER NOT NULL,
    every_board INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, user_id)
)
