-- The last table version each seat has caught up on with "What you missed": the momentary reveals
-- after it are shown to that player once, for the table's glimpse time.
ALTER TABLE seats ADD COLUMN glimpsed_version INTEGER NOT NULL DEFAULT -1
