"""Moves per second and answer latency with one bot process and with two sharded ones, on one store.

Run: python bench/bench_shards.py [--engine sqlite|postgresql|both] [--seconds S] [--tables N]
[--pg-no-fsync]. SQLite is a fresh WAL file; PostgreSQL a throwaway local cluster (tests/pg.py), fsync
on unless asked. The local Discord (in this process) routes two guilds to shards 0 and 1; N Dawn Under
tables per guild, two human players and a bot each. Every table is driven in a closed loop for S seconds: its
awaited player types their first legal move and waits for the "✅" answer, then the next move follows.
Two layouts on the same load: one `python -m bot` holding both shards (SHARD_COUNT=2), and two
(SHARD_IDS=0 and 1). Prints committed moves per second and the answer's median and p99 (invoke ->
"✅"); everything (the fake Discord, the drivers, the bots) shares this machine's cores.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.store import TableRow
from tests.e2e.shards import ShardedBots
from tests.fakediscord import FakeDiscord

GAME = "dawn_under"


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


async def drive(bots: ShardedBots, table: TableRow, until: float, answers: list[float], failed: list[int]) -> int:
    """Play `table` until `until`: each move waits for its answer; returns how many were answered ✅.
    A move not acknowledged within Discord's 3 s, or not answered within 10 s, counts in `failed`."""
    moves = 0
    while time.monotonic() < until:
        table = await bots.table(table.id)
        if table.status != "active":
            break
        if not any(s.seat in table.awaited and not s.played_by_bot for s in table.seats):
            await asyncio.sleep(0.02)  # the bot seat is thinking
            continue
        t0 = time.monotonic()
        try:
            r = await bots.move(table)
            await r.wait_for(lambda rec: any(m.content.startswith("✅") for m in rec.messages), timeout=10)
        except TimeoutError:
            failed.append(table.id)
            continue
        answers.append(time.monotonic() - t0)
        moves += 1
        await bots.shown(table.id, above=table.version, timeout=30)  # the board too, before the next move
    return moves


async def run(
    layout: str, engine: str, seconds: float, per_guild: int, durable: bool = True
) -> tuple[float, list[float], int]:
    async with FakeDiscord(fail_fast=False) as server:
        with tempfile.TemporaryDirectory() as tmp:
            cluster = None
            if engine == "postgresql":
                from tests.pg import create_database, start_cluster

                cluster = start_cluster(durable=durable)
                url = await create_database(cluster, "bench")
            else:
                url = f"sqlite:///{tmp}/bench.sqlite3"
            bots = ShardedBots(server, Path(tmp), url)
            await bots.open_store()
            try:
                if layout == "1 process":
                    await bots.boot(None)
                else:
                    await asyncio.gather(bots.boot(0), bots.boot(1))
                tables: list[TableRow] = []
                for shard in (0, 1):
                    for i in range(per_guild):
                        chan = server.add_channel(bots.guilds[shard], f"bench-{i}")
                        bots.chans[shard] = chan
                        tables.append(await bots.open_table(shard, GAME))
                answers: list[float] = []
                failed: list[int] = []
                started = time.monotonic()
                moves = await asyncio.gather(*(drive(bots, t, started + seconds, answers, failed) for t in tables))
                elapsed = time.monotonic() - started
            finally:
                try:
                    for shard, text in (await bots.stop()).items():
                        if "Traceback" in text or " ERROR " in text:
                            print(f"process of shard {shard}:\n{text}")
                finally:
                    if cluster is not None:
                        cluster.stop()
    return sum(moves) / elapsed, answers, len(failed)


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--engine", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--tables", type=int, default=4, help="tables per guild (two guilds, one per shard)")
    parser.add_argument("--pg-no-fsync", action="store_true", help="PostgreSQL without fsync at commit")
    args = parser.parse_args()
    print(
        f"{2 * args.tables} {GAME} tables (2 humans and a bot each), {args.seconds:g} s per run"
        + (", PostgreSQL without fsync" if args.pg_no_fsync else "")
    )
    for engine in ("sqlite", "postgresql") if args.engine == "both" else (args.engine,):
        for layout in ("1 process", "2 processes"):
            rate, answers, failed = await run(layout, engine, args.seconds, args.tables, durable=not args.pg_no_fsync)
            print(
                f"  {engine:<10} {layout:<12} {rate:6.1f} moves/s   answer median"
                f" {statistics.median(answers) * 1000:5.0f} ms   p99 {pct(answers, 0.99) * 1000:5.0f} ms"
                f"   ({len(answers)} moves, {failed} not answered in time)"
            )


if __name__ == "__main__":
    asyncio.run(main())
