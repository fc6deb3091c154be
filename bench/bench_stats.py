"""/game stats and /game mine against a store holding 10,000 finished tables (issue #17).

Run: python bench/bench_stats.py [tables]. Fills a temp database directly (one transaction of plain
inserts: 200 players and some bot seats over five games, 2-4 seats and 20 actions a table, 20 open
tables for the measured player), then times, 50 calls each (median, p99, max):

- the first read of a server's book (every finished table: one query, then the ratings), once;
- the leaderboard when the book is up to date (one query that returns no table);
- the leaderboard after one more table finished (the query returns it; one rating update);
- a player's card (the book, plus the one query for their time to move);
- `Store.tables_of_user` (what /game mine reads) for that player.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.rules import register
from bot.store import Store
from bot.tables import stats
from tests.takeaway import GAME

GUILD = 1
PLAYERS = 200
ME = 1  # the measured player
GAMES = ("takeaway", "dawn_under", "trick_or_treat", "sweets_stack", "ghost_stories")
LEVELS = ("initiation", "normal", "nightmare", "hell")


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


class Filler:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.rng = random.Random(17)
        self.next_id = 1
        self.clock = time.time() - 400 * 86400

    async def tables(self, n: int, *, status: str = "finished", seat_me: bool = False) -> None:
        db = self.store._db  # direct inserts: the bench measures reads, not the play that made them
        await db.execute("BEGIN IMMEDIATE")
        for _ in range(n):
            tid, self.next_id = self.next_id, self.next_id + 1
            self.clock += 60 * self.rng.random()
            game = self.rng.choice(GAMES)
            k = self.rng.randint(2, 4)
            users = self.rng.sample(range(1, PLAYERS + 1), k)
            if seat_me and ME not in users:
                users[0] = ME
            bots = {i for i in range(k) if self.rng.random() < 0.15 and not (seat_me and users[i] == ME)}
            order = self.rng.sample(range(k), k)
            coop = game == "ghost_stories"
            score = self.rng.randint(-30, 40)
            won = self.rng.random() < 0.5
            outcome: dict[str, Any] | None = {
                "scores": [score] * k if coop else [self.rng.randint(0, 50) for _ in range(k)],
                "ranking": [list(range(k))] if coop else [[s] for s in order],
                "winners": (list(range(k)) if won else []) if coop else [order[0]],
                "summary": "",
                "details": {},
                "cooperative": coop,
            }
            options = {"difficulty": self.rng.choice(LEVELS)} if coop else {}
            await db.execute(
                "INSERT INTO game_tables (id, guild_id, channel_id, game, options, seed, host_id, status, version,"
                " state, outcome, reminder_after, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 1, ?, ?, 20, '{}',"
                " ?, 3600, ?, ?)",
                (
                    tid,
                    GUILD,
                    tid,
                    game,
                    json.dumps(options),
                    users[0],
                    status,
                    json.dumps(outcome) if status == "finished" else None,
                    self.clock - 3600,
                    self.clock,
                ),
            )
            await db.executemany(
                "INSERT INTO seats (table_id, seat, user_id, name, is_bot) VALUES (?, ?, ?, ?, ?)",
                [
                    (tid, i, None if i in bots else u, f"Bot {i}" if i in bots else f"player{u}", int(i in bots))
                    for i, u in enumerate(users)
                ],
            )
            at = self.clock - 3600
            rows = []
            for seq in range(1, 21):
                at += 180 * self.rng.random()
                rows.append((tid, seq, seq % k, "move", "{}", at))
            await db.executemany(
                "INSERT INTO actions (table_id, seq, seat, kind, action, at) VALUES (?,?,?,?,?,?)", rows
            )
        await db.execute("COMMIT")


async def timed(
    label: str, call: Callable[[], Awaitable[Any]], before: Callable[[], Awaitable[Any]] | None = None
) -> None:
    ms = []
    for _ in range(50):
        if before is not None:
            await before()
        t0 = time.perf_counter()
        await call()
        ms.append((time.perf_counter() - t0) * 1000)
    print(f"  {label:<44} median {statistics.median(ms):7.2f} ms   p99 {pct(ms, 0.99):7.2f} ms   max {max(ms):7.2f} ms")


async def main(n: int) -> None:
    register(GAME)
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "bench.sqlite3")
        fill = Filler(store)
        t0 = time.perf_counter()
        await fill.tables(n)
        await fill.tables(20, status="active", seat_me=True)
        print(f"filled {n} finished tables (+20 open) in {time.perf_counter() - t0:.1f} s")
        t0 = time.perf_counter()
        total, _rows = await store.finished_tables(GUILD)
        print(f"  Store.finished_tables, all {total} rows, once  {(time.perf_counter() - t0) * 1000:7.1f} ms")
        book = stats.StatsBook(store)
        t0 = time.perf_counter()
        await book.book(GUILD)
        print(f"  first read of the book (query + ratings), once  {(time.perf_counter() - t0) * 1000:7.1f} ms")

        async def board() -> None:
            stats.leaderboard(await book.book(GUILD), "")

        async def one_more() -> None:
            await fill.tables(1)

        await timed("leaderboard, book up to date", board)
        await timed("leaderboard after one more table finished", board, before=one_more)
        await timed("a player's card (book + time to move)", lambda: stats.card(book, GUILD, ME))
        await timed("Store.tables_of_user (/game mine)", lambda: store.tables_of_user(ME))
        await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("tables", type=int, nargs="?", default=10_000, help="finished tables (default 10000)")
    asyncio.run(main(parser.parse_args().tables))
