-- Undo: an action that its author may take back keeps the state from before it (NULL: not undoable);
-- one that may not keeps the reason, for the refusal. Older actions have neither: not undoable.
ALTER TABLE actions ADD COLUMN undo_state TEXT;
ALTER TABLE actions ADD COLUMN undo_refusal TEXT
