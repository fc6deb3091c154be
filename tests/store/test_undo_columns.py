"""Migration 0005: each action keeps what an undo needs (the state before it, or why not)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.store import Store
from bot.store.sqlite import migrations


async def test_actions_from_before_0005_read_as_not_undoable(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:  # a database as migration 0003 left it, with one action
        db.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at REAL)")
        for number, sql in migrations():
            if number <= 3:
                for statement in sql.split(";\n"):
                    if statement.strip():
                        db.execute(statement)
                db.execute("INSERT INTO schema_migrations VALUES (?, 0)", (number,))
        db.execute(
            "INSERT INTO game_tables (channel_id, game, seed, host_id, status, reminder_after, created_at,"
            " updated_at, version) VALUES (5, 'takeaway', 1, 1, 'active', 60, 0, 0, 1)"
        )
        db.execute("INSERT INTO actions (table_id, seq, seat, kind, action, at) VALUES (1, 1, 0, 'move', '{}', 0)")
    store = await Store.open(path)
    try:
        (row,) = await store.actions(1)
        assert not row.undoable and row.undo_refusal is None
        assert await store.undo_state(1, 1) is None
        await store.apply(
            1,
            expected_version=1,
            seat=1,
            action={"verb": "bid", "n": 1},
            events=[],
            state={"x": 2},
            awaited={},
            undo_state={"x": 1},
        )
        rows = await store.actions(1)
        assert [(r.seq, r.undoable) for r in rows] == [(1, False), (2, True)]
        assert await store.undo_state(1, 2) == {"x": 1}
    finally:
        await store.close()
