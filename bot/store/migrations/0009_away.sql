-- Time off (/game away): a player away until a time has their reminders paused and, where the host
-- allows a bot to move for quiet players, a bot moves for them from the first missing decision.
CREATE TABLE away (
    user_id INTEGER PRIMARY KEY,
    since   REAL NOT NULL,
    until   REAL NOT NULL
);
-- Days of time off taken per calendar month (UTC), against a monthly limit.
CREATE TABLE away_days (
    user_id INTEGER NOT NULL,
    month   TEXT    NOT NULL,
    days    REAL    NOT NULL,
    PRIMARY KEY (user_id, month)
)
