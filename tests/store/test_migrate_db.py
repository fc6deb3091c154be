"""`python -m bot migrate-db`: a played SQLite database copied into PostgreSQL, table for table."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import asyncpg

from bot.store import Store
from bot.store.base import TABLES
from bot.tables import TableService

REPO = Path(__file__).resolve().parents[2]


def _migrate_db(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    return subprocess.run(
        [sys.executable, "-m", "bot", "migrate-db", *args],
        cwd=REPO,
        env={**env, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=60,
    )


async def _played(path: Path) -> Store:
    """A SQLite database with a finished game, an open lobby, a follower, time off and a setting."""
    store = await Store.open(path)
    service = TableService(store)
    table = await service.new_table(game_key="takeaway", guild_id=1, channel_id=10, host_id=1, host_name="Ann")
    await service.join(table.id, 2, "Bob")
    row = (await service.start(table.id, 1)).table
    while row.status == "active":
        user = row.seats[min(row.awaited)].user_id
        assert user is not None
        row = (await service.act(table.id, user, service.legal_for(row, user)[0])).table
    await service.new_table(game_key="takeaway", guild_id=1, channel_id=11, host_id=2, host_name="Bob")
    await store.set_follow(table.id, 3, every_board=True)
    await store.set_away(3, 0.5, 10.25, "2026-12", 1.5)
    await store.set_meta("commands_hash", "abc")
    return store


async def test_a_sqlite_database_is_copied_to_postgresql_and_a_second_copy_is_refused(
    tmp_path: Path, pg_emptied: str
) -> None:
    source = await _played(tmp_path / "old.sqlite3")
    before = {t: await source.dump_table(t) for t in TABLES}
    tables = [await source.get_table(i) for i in (1, 2)]
    await source.close()

    done = _migrate_db("--from", str(tmp_path / "old.sqlite3"), "--to", pg_emptied)
    assert done.returncode == 0, done.stderr
    assert "copied" in done.stdout and "  actions: " in done.stdout and "  game_tables: 2" in done.stdout

    target = await Store.open(pg_emptied)
    try:
        assert {t: await target.dump_table(t) for t in TABLES} == before
        assert [await target.get_table(i) for i in (1, 2)] == tables
        assert await target.followers(1) == {3: True} and await target.days_away(3, "2026-12") == 1.5
        # new tables draw ids after the copied ones
        fresh = await TableService(target).new_table(
            game_key="takeaway", guild_id=1, channel_id=12, host_id=1, host_name="Ann"
        )
        assert fresh.id == 3
    finally:
        await target.close()

    again = _migrate_db("--from", str(tmp_path / "old.sqlite3"), "--to", pg_emptied)
    assert again.returncode == 1 and "is not empty" in again.stderr and "Traceback" not in again.stderr
    conn = await asyncpg.connect(pg_emptied)
    try:
        assert await conn.fetchval("SELECT COUNT(*) FROM game_tables") == 3  # nothing added
    finally:
        await conn.close()
    missing = _migrate_db("--from", str(tmp_path / "nope.sqlite3"), "--to", pg_emptied)
    assert missing.returncode == 1 and "there is no SQLite database at" in missing.stderr
    assert not (tmp_path / "nope.sqlite3").exists()
