"""The reminder and autopilot passes' scan for due tables at many active tables.

Run: python bench/bench_due.py [tables] [--engine=sqlite|postgresql|both] [--bot]. Fills a fresh store (SQLite,
or PostgreSQL on a throwaway local cluster from tests/pg.py) with that many active two-seat
tables (each with a 3,000-number state, like a mid-game Sweets Stack), none of them due, and times
(median of 5) loading every active table — what a pass did before — against `Store.due_tables`, which
chooses the due tables in SQL; the first is the floor the others are compared with in the same run. Then
the pass as several processes run it: the due tables claimed 20 at a time (`Store.claim`) and each
released again, with none due and with every table due (the claims' own cost; no reminder is sent).

With `--bot` (SQLite), the whole background pass as the running bot makes it: `python -m bot`'s own
`create_bot` connected to the local Discord server (tests/fakediscord) on that store, and the three
jobs of its reminder loop (`send_reminders`, `run_autopilot`, `sweep`, cogs/table.py) timed with none
due (median of 7), then once with every table due (a reminder sent to each of them).
"""

from __future__ import annotations

import argparse
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
    for _ in range(7):
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

        async def claimed_pass(at: float) -> int:
            """What a process's reminder pass does with claims (cogs/table.py `_claimed`), sending nothing:
            claim 20 at a time, release them."""
            done, after = 0, 0
            while batch := await store.claim("remind", at, "bench", 120.0, after=after, limit=20):
                await store.release([t.id for t in batch], "bench")
                done += len(batch)
                after = batch[-1].id
            return done

        claim_none = await timed(lambda: claimed_pass(now))
        assert await claimed_pass(now + 86400) == n
        claim_all = await timed(lambda: claimed_pass(now + 86400))
        await store.close()
        if cluster is not None:
            cluster.stop()
    print(f"{engine}: {n} active tables, none due")
    print(f"  load every active table (the old pass): {floor * 1000:8.1f} ms  (1.00)")
    print(f"  due_tables, reminders:                  {due * 1000:8.1f} ms  ({due / floor:.3f})")
    print(f"  due_tables, autopilot:                  {auto * 1000:8.1f} ms  ({auto / floor:.3f})")
    print(f"  claimed reminder pass, none due:        {claim_none * 1000:8.1f} ms  ({claim_none / floor:.3f})")
    print(f"  claimed reminder pass, all {n} due:    {claim_all * 1000:8.1f} ms  ({claim_all / floor:.3f})"
          "  (claim + release, nothing sent)")


async def bot_pass(n: int) -> None:
    """The reminder loop's pass through a running bot, on `n` active tables in `n` channels."""
    from harness import bench_bot

    from bot.rules import register
    from tests.fakediscord import FakeDiscord
    from tests.takeaway import GAME

    register(GAME)
    server = await FakeDiscord().start()
    try:
        owner = server.add_user("owner")
        guild = server.add_guild(name="Spooky", owner=owner)
        users = [server.add_user(name) for name in ("a", "b")]
        for user in users:
            server.add_member(guild, user)
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "due.sqlite3"
            store = await Store.open(path)
            for i in range(n):
                channel = server.add_channel(guild, f"t{i}")
                t = await store.create_table(
                    guild_id=guild.id,
                    channel_id=channel.id,
                    game=GAME.key,
                    options={},
                    seed=i,
                    host_id=users[0].id,
                    host_name="a",
                    reminder_after=43200,
                )
                await store.set_seats(t.id, [SeatRow(0, users[0].id, "a"), SeatRow(1, users[1].id, "b")])
                await store.start_table(t.id, GAME.dump_state(GAME.new(2, i)), {0: 0, 1: 0}, i)
                await store.mark_shown(t.id, 0)
            await store.close()
            bot = await bench_bot(server, path)  # its loop sleeps: the passes are called here
            cog: Any = bot.get_cog("TableCog")  # (the extension's own module: not `cogs.table` as imported here)
            assert cog is not None

            async def one_pass(now: float | None = None) -> int:
                sent = await cog.send_reminders(now)
                await cog.run_autopilot(now)
                await cog.sweep()
                return sent

            await one_pass()  # warm
            none_due = await timed(one_pass)
            jobs = {job.__name__: await timed(job) for job in (cog.send_reminders, cog.run_autopilot, cog.sweep)}
            later = time.time() + 86400
            t0 = time.perf_counter()
            sent = await one_pass(later)
            all_due = time.perf_counter() - t0
            floor = await timed(bot.service.store.active_tables)
            await bot.close()
    finally:
        await server.stop()
    print(f"the running bot's background pass (reminders, autopilot, sweep), {n} active tables, SQLite")
    print(f"  load every active table (the old pass's floor): {floor * 1000:8.1f} ms  (1.00)")
    print(f"  the pass, none due:                             {none_due * 1000:8.1f} ms  ({none_due / floor:.3f})")
    print("    of which " + ", ".join(f"{name} {v * 1000:.1f} ms" for name, v in jobs.items()))
    print(f"  the pass, all due ({sent} reminders sent):    {all_due * 1000:8.1f} ms"
          f"  ({all_due / max(sent, 1) * 1000:.2f} ms a reminder)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("tables", type=int, nargs="?", default=1000, help="active tables (default 1000)")
    parser.add_argument("--engine", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--bot", action="store_true", help="the whole pass through the running bot (SQLite)")
    options = parser.parse_args()
    if options.bot:
        asyncio.run(bot_pass(options.tables))
        sys.exit(0)
    for name in ("sqlite", "postgresql") if options.engine == "both" else (options.engine,):
        asyncio.run(main(options.tables, name))
