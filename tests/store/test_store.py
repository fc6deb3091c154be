"""Store behaviour: migrations, versioned apply, replay, and crash consistency with a real SIGKILL."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot.rules import StaleAction
from bot.store import Store
from bot.store.sqlite import migrations
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
