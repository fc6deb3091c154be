"""Store behaviour: migrations, versioned apply, replay, and crash consistency with a real SIGKILL."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from bot.rules import StaleAction
from bot.store import SqliteStore, Store
from bot.store.sqlite import StoreError, migrations
from bot.tables import TableService

REPO = Path(__file__).resolve().parents[2]


async def _started(service: TableService) -> int:
    table = await service.new_table(game_key="takeaway", guild_id=1, channel_id=10, host_id=1, host_name="Ann")
    await service.join(table.id, 2, "Bob")
    await service.start(table.id, 1)
    return table.id


async def test_migrations_are_numbered_and_reapplying_is_a_no_op(tmp_path: Path) -> None:
    numbers = [n for n, _ in migrations()]
    assert numbers == sorted(set(numbers)) and numbers[0] == 1
    store = await Store.open(tmp_path / "m.sqlite3")
    assert await store.migrate() == numbers[-1]
    await store.close()
    again = await Store.open(tmp_path / "m.sqlite3")
    assert await again.migrate() == numbers[-1]
    await again.close()


@pytest.mark.parametrize("store", ["sqlite"], indirect=True)
async def test_wal_mode_is_on(store: Store) -> None:
    async with store._db.execute("PRAGMA journal_mode") as cur:
        row = await cur.fetchone()
    assert row is not None and row[0] == "wal"


async def test_apply_with_a_stale_version_is_rejected_and_writes_nothing(service: TableService) -> None:
    table_id = await _started(service)
    table = await service.table(table_id)
    assert table.state is not None
    kwargs = dict(seat=0, action={"verb": "bid", "n": 1}, events=[], state=table.state, awaited={})
    assert await service.store.apply(table_id, expected_version=0, **kwargs) == 1  # type: ignore[arg-type]
    with pytest.raises(StaleAction):
        await service.store.apply(table_id, expected_version=0, **kwargs)  # type: ignore[arg-type]
    assert len(await service.store.actions(table_id)) == 1
    assert (await service.table(table_id)).version == 1


async def test_replay_of_seed_and_log_equals_the_stored_state(service: TableService) -> None:
    table_id = await _started(service)
    table = await service.table(table_id)
    while table.status == "active":
        seat = min(table.awaited)
        user = table.seats[seat].user_id
        assert user is not None
        table = (await service.act(table_id, user, service.legal_for(table, user)[0])).table
    game = service.game_of(table)
    assert game.dump_state(await service.replay(table_id)) == table.state
    assert table.status == "finished" and table.outcome is not None


async def test_one_open_table_per_channel_is_enforced_by_the_database(store: Store) -> None:
    from bot.store import TableConflict

    common = dict(guild_id=1, channel_id=5, game="takeaway", options={}, seed=1, host_id=1, host_name="a")
    await store.create_table(**common, reminder_after=60)  # type: ignore[arg-type]
    with pytest.raises(TableConflict):
        await store.create_table(**common, reminder_after=60)  # type: ignore[arg-type]


def test_a_writer_killed_with_sigkill_loses_no_acknowledged_action(tmp_path: Path) -> None:
    db = tmp_path / "crash.sqlite3"
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.store.writer", str(db)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    acked: dict[int, int] = {}
    assert proc.stdout is not None
    for line in proc.stdout:
        _, table, version = line.split()
        acked[int(table)] = int(version)
        if sum(acked.values()) >= 300:
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert len(acked) >= 3

    async def check() -> None:
        store = await Store.open(db)
        service = TableService(store)
        for table_id, version in acked.items():
            table = await service.table(table_id)
            assert table.version >= version, f"table {table_id} lost acknowledged moves"
            seqs = [a.seq for a in await store.actions(table_id)]
            assert seqs == list(range(1, table.version + 1))
            game = service.game_of(table)
            assert game.dump_state(await service.replay(table_id)) == table.state
        await store.close()

    asyncio.run(check())


async def test_an_old_database_is_migrated_forward_keeping_its_tables(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "old.sqlite3"
    first = dict(migrations())[1]
    with sqlite3.connect(path) as db:  # a database as release 1 left it, with a table in it
        db.executescript(first)
        db.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at REAL)")
        db.execute("INSERT INTO schema_migrations VALUES (1, 0)")
        db.execute(
            "INSERT INTO game_tables (channel_id, game, seed, host_id, status, reminder_after, created_at,"
            " updated_at) VALUES (5, 'takeaway', 1, 1, 'lobby', 60, 0, 0)"
        )
    store = await Store.open(path)
    table = await store.get_table(1)
    assert table is not None and table.autopilot_after == 0
    await store.close()


@pytest.fixture
def no_thread_left() -> Iterator[None]:
    """Fails the test if a thread it started (aiosqlite's worker) is still alive at its end."""
    before = set(threading.enumerate())
    yield
    left = [t for t in threading.enumerate() if t not in before]
    for t in left:
        t.join(timeout=2)
    assert not [t for t in left if t.is_alive()], left


def _corrupt(tmp_path: Path) -> Path:
    path = tmp_path / "corrupt.sqlite3"
    path.write_bytes(b"not a database, only garbage\n" * 200)
    return path


def _under_a_file(tmp_path: Path) -> Path:
    (tmp_path / "a-file").write_text("")
    return tmp_path / "a-file" / "x.sqlite3"


@pytest.mark.usefixtures("no_thread_left")
@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (_corrupt, "file is not a database"),
        (_under_a_file, "File exists"),
        (lambda tmp_path: tmp_path, "unable to open database file"),  # a directory
    ],
    ids=["corrupt-file", "parent-is-a-file", "a-directory"],
)
async def test_a_database_that_cannot_be_opened_raises_store_error_and_leaves_no_thread(
    tmp_path: Path, make: Any, reason: str
) -> None:
    path = make(tmp_path)
    with pytest.raises(StoreError, match=f"cannot open the database at {path}: .*{reason}"):
        await asyncio.wait_for(Store.open(path), 10)


@pytest.mark.usefixtures("no_thread_left")
async def test_a_locked_database_raises_store_error_after_the_busy_timeout(tmp_path: Path) -> None:
    path = tmp_path / "locked.sqlite3"
    store = await Store.open(path)
    await store.close()
    other = sqlite3.connect(path, isolation_level=None)  # another process holding the database
    try:
        other.execute("PRAGMA locking_mode=EXCLUSIVE")
        other.execute("BEGIN EXCLUSIVE")
        with pytest.raises(StoreError, match="database is locked"):
            await asyncio.wait_for(Store.open(path, busy_timeout=0.2), 10)
    finally:
        other.close()
    store = await Store.open(path)  # free again
    await store.close()


async def test_open_closes_every_cursor_it_creates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Cursors kept alive (as by a tool holding references) must not stay open behind Store.open."""
    created: list[aiosqlite.Cursor] = []
    closed: list[aiosqlite.Cursor] = []
    init, close = aiosqlite.Cursor.__init__, aiosqlite.Cursor.close

    def spy_init(self: aiosqlite.Cursor, *args: Any) -> None:
        init(self, *args)
        created.append(self)

    async def spy_close(self: aiosqlite.Cursor) -> None:
        closed.append(self)
        await close(self)

    async def no_migrations(self: SqliteStore) -> int:
        return 0  # migrate() is not Store.open's own: only the cursors of open itself are checked

    monkeypatch.setattr(aiosqlite.Cursor, "__init__", spy_init)
    monkeypatch.setattr(aiosqlite.Cursor, "close", spy_close)
    monkeypatch.setattr(SqliteStore, "migrate", no_migrations)
    store = await Store.open(tmp_path / "c.sqlite3")
    await store.close()
    assert len(created) == 4 and all(any(c is d for d in closed) for c in created)


async def test_a_table_lock_is_exclusive_and_per_table(store: Store) -> None:
    order: list[str] = []

    async def second() -> None:
        async with store.table_lock(1):
            order.append("second")

    async with store.table_lock(1):
        task = asyncio.create_task(second())
        for _ in range(20):  # the second holder had every chance to get in
            await asyncio.sleep(0)
        async with store.table_lock(2):
            order.append("another table")
        order.append("first")
    await asyncio.wait_for(task, 10)
    assert order == ["another table", "first", "second"]
    assert not store._local_locks  # nothing kept for tables nobody is locking

