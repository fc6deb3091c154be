"""Apply + commit latency of the table service on the sqlite store (the test game, a temp database).

Run: python bench/bench_store.py [moves]. Prints median and p99 of `TableService.act` (gate, rules,
one transaction) and of the bare store transaction.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.rules import Rng, register
from bot.store import Store
from bot.tables import TableService
from tests.takeaway import GAME


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


async def main(moves: int) -> None:
    register(GAME)
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "bench.sqlite3")
        service = TableService(store)
        pick = Rng.from_seed(7)
        act_ms: list[float] = []
        channel = 0
        while len(act_ms) < moves:
            channel += 1
            table = await service.new_table(
                game_key="takeaway", guild_id=1, channel_id=channel, host_id=1, host_name="a"
            )
            await service.join(table.id, 2, "b")
            table = (await service.start(table.id, 1)).table
            while table.status == "active" and len(act_ms) < moves:
                seat = pick.choice(sorted(table.awaited))
                user = table.seats[seat].user_id
                assert user is not None
                action = pick.choice(service.legal_for(table, user))
                t0 = time.perf_counter()
                table = (await service.act(table.id, user, action)).table
                act_ms.append((time.perf_counter() - t0) * 1000)
        await store.close()
    print(f"apply + commit (TableService.act, {len(act_ms)} moves, {channel} tables)")
    print(f"  median {statistics.median(act_ms):.3f} ms   p99 {pct(act_ms, 0.99):.3f} ms   max {max(act_ms):.3f} ms")


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000))
