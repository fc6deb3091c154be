-- Tables (one game each), their seats, and the append-only log of what was played.
CREATE TABLE game_tables (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id        INTEGER,
    channel_id      INTEGER NOT NULL,
    game            TEXT    NOT NULL,
    options         TEXT    NOT NULL DEFAULT '{}',
    seed            INTEGER NOT NULL,
    host_id         INTEGER NOT NULL,
    status          TEXT    NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'cancelled', 'abandoned')),
    version         INTEGER NOT NULL DEFAULT 0,
    state           TEXT,
    awaited         TEXT    NOT NULL DEFAULT '{}',
    outcome         TEXT,
    lobby_message_id INTEGER,
    board_message_id INTEGER,
    reminder_after  INTEGER NOT NULL,
    reminded_at     REAL,
    created_at      REAL    NOT NULL,
    updated_at      REAL    NOT NULL
);
-- One open (lobby or active) table per channel or thread.
CREATE UNIQUE INDEX one_open_table_per_channel ON game_tables (channel_id)
    WHERE status IN ('lobby', 'active');
CREATE INDEX tables_by_status ON game_tables (status, updated_at);

CREATE TABLE seats (
    table_id   INTEGER NOT NULL REFERENCES game_tables (id),
    seat       INTEGER NOT NULL,
    user_id    INTEGER,
    name       TEXT    NOT NULL,
    is_bot     INTEGER NOT NULL DEFAULT 0,
    resigned   INTEGER NOT NULL DEFAULT 0,
    dm_closed  INTEGER NOT NULL DEFAULT 0,
    dm_told    INTEGER NOT NULL DEFAULT 0,
    bot_memory TEXT    NOT NULL DEFAULT '{}',
    PRIMARY KEY (table_id, seat)
);
CREATE UNIQUE INDEX one_seat_per_user ON seats (table_id, user_id) WHERE user_id IS NOT NULL;

CREATE TABLE actions (
    table_id INTEGER NOT NULL REFERENCES game_tables (id),
    seq      INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    kind     TEXT    NOT NULL DEFAULT 'move',
    action   TEXT    NOT NULL,
    events   TEXT    NOT NULL DEFAULT '[]',
    at       REAL    NOT NULL,
    PRIMARY KEY (table_id, seq)
);

CREATE TABLE bot_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
