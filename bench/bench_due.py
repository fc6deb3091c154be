"""The reminder and autopilot passes' scan for due tables at many active tables.

Run: python bench/bench_due.py [tables] [--engine=sqlite|postgresql|both]. Fills a fresh store (SQLite,
or PostgreSQL on a throwaway local cluster from tests/pg.py) with that many active two-seat
tables (each with a 3,000-number state, like a mid-game Sweets Stack), none of them due, and times
(median of 5) loading every active table — what a pass did before — against `Store.due_tables`, which
chooses the due tables in SQL; the first is the floor the second is compared with in the same run.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.store import SeatRow, Store


async def timed(fn: Callable[[], Awaitable[Any]]) -> float:
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        await fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


async def main(n: int, engine: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        cluster = None
        if engine == "postgresql":
            from tests.pg import create_database, start_cluster

            cluster = start_cluster(durable=True)
            store = await Store.open(await create_database(cluster, "due"))
        else:
            store = await Store.open(Path(tmp) / "due.sqlite3")
        state = {"cells": list(range(3000))}
        for i in range(n):
            t = await store.create_table(
                guild_id=1,
                channel_id=10_000 + i,
                game="takeaway",
                options={},
                seed=i,
                host_id=1,
                host_name="a",
                reminder_after=43200,
            )
            await store.set_seats(t.id, [SeatRow(0, 1, "a"), SeatRow(1, 2, "b")])
            await store.start_table(t.id, state, {0: 0, 1: 0}, i)
        now = time.time()
        floor = await timed(store.active_tables)
        due = await timed(lambda: store.due_tables(now, autopilot=False))
        auto = await timed(lambda: store.due_tables(now, autopilot=True))
        await store.close()
        if cluster is not None:
            cluster.stop()
    print(f"{engine}: {n} active tables, none due")
    print(f"  load every active table (the old pass): {floor * 1000:8.1f} ms  (1.00)")
    print(f"  due_tables, reminders:                  {due * 1000:8.1f} ms  ({due / floor:.3f})")
    print(f"  due_tables, autopilot:                  {auto * 1000:8.1f} ms  ({auto / floor:.3f})")


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--engine")]
    chosen = next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--engine=")), "both")
    for name in ("sqlite", "postgresql") if chosen == "both" else (chosen,):
        asyncio.run(main(int(args[0]) if args else 1000, name))
