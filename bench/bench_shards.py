"""Moves per second and answer latency with one bot process and with two sharded ones, on one store.

Run: python bench/bench_shards.py [DATABASE_URL] [--seconds S] [--tables N]. Without a URL, a fresh
SQLite file. The local Discord (in this process) routes two guilds to shards 0 and 1; N Dawn Under
tables per guild, two human players each. Every table is driven in a closed loop for S seconds: its
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


async def drive(bots: ShardedBots, table: TableRow, until: float, answers: list[float]) -> int:
    """Play `table` until `until`: each move waits for its answer; returns how many were answered ✅."""
    moves = 0
    while time.monotonic() < until:
        table = await bots.table(table.id)
        if table.status != "active":
            break
        if not any(s.seat in table.awaited and not s.played_by_bot for s in table.seats):
            await asyncio.sleep(0.02)  # the bot seat is thinking
            continue
        t0 = time.monotonic()
        r = await bots.move(table)
        await r.wait_for(lambda rec: any(m.content.startswith("✅") for m in rec.messages), timeout=30)
        answers.append(time.monotonic() - t0)
        moves += 1
        await bots.shown(table.id, above=table.version, timeout=30)  # the board too, before the next move
    return moves


async def run(layout: str, url: str | None, seconds: float, per_guild: int) -> tuple[float, list[float]]:
    async with FakeDiscord(fail_fast=False) as server:
        with tempfile.TemporaryDirectory() as tmp:
            bots = ShardedBots(server, Path(tmp), url or f"sqlite:///{tmp}/bench.sqlite3")
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
                started = time.monotonic()
                moves = await asyncio.gather(*(drive(bots, t, started + seconds, answers) for t in tables))
                elapsed = time.monotonic() - started
            finally:
                for shard, text in (await bots.stop()).items():
                    if "Traceback" in text or " ERROR " in text:
                        print(f"process of shard {shard}:\n{text}")
    return sum(moves) / elapsed, answers


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("url", nargs="?", default=None, help="a postgresql:// URL (default: a SQLite file)")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--tables", type=int, default=4, help="tables per guild (two guilds, one per shard)")
    args = parser.parse_args()
    engine = "PostgreSQL" if args.url else "SQLite"
    print(f"{engine}, {2 * args.tables} {GAME} tables (2 humans each), {args.seconds:g} s per layout")
    for layout in ("2 processes", "1 process"):
        rate, answers = await run(layout, args.url, args.seconds, args.tables)
        print(
            f"  {layout:<12} {rate:6.1f} moves/s   answer median {statistics.median(answers) * 1000:6.0f} ms"
            f"   p99 {pct(answers, 0.99) * 1000:6.0f} ms   ({len(answers)} moves)"
        )


if __name__ == "__main__":
    asyncio.run(main())
