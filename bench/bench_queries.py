"""What one move costs the store: SQL round trips, table reads and state parses, per game.

Run: python bench/bench_queries.py [moves-per-game] [--games dawn_under ...]

The real bot (every cog) and the local Discord server in one process, on SQLite, one human (alice)
against bot seats playing `/game move` (the first legal move autocomplete offers), as in
bench_roundtrip.py. The store is instrumented here, never in the bot: every statement its connection
runs (BEGIN and COMMIT included), every table read (a table row with its seats) and
every parse of a stored state JSON is counted, at two marks of each move: when the mover's answer
(their follow-up) reached the server, and when the move was over (its board in the channel, and the
bot idle). Prints the median per move of each, and which statements ran (the first word and table).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import re
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness import started_table

from bot.store import base as store_base
from bot.store import sqlite as store_sqlite
from tests.fakediscord import FakeDiscord

PLAN = [("dawn_under", 3), ("sweets_stack", 3), ("trick_or_treat", 3), ("ghost_stories", 2)]


class Counts:
    def __init__(self) -> None:
        self.sql = 0
        self.reads = 0
        self.parses = 0
        self.kinds: collections.Counter[str] = collections.Counter()
        self.move_kinds: collections.Counter[str] = collections.Counter()  # within the measured moves

    def snapshot(self) -> tuple[int, int, int]:
        return self.sql, self.reads, self.parses


COUNTS = Counts()
_WORDS = re.compile(r"^\s*(\w+)(?:.*?\b(?:FROM|INTO|UPDATE)\s+(\w+))?", re.S)


def label(sql: str) -> str:
    m = _WORDS.match(sql)
    if not m:
        return sql[:20]
    verb = m.group(1).upper()
    if "AS seat_rows" in sql:
        return "SELECT game_tables with seats"
    if verb == "UPDATE":
        return "UPDATE " + sql.split()[1]
    return f"{verb} {m.group(2) or ''}".strip()


def instrument() -> None:
    """Count at the store's connection: each statement of `_SqliteTx`, BEGIN/COMMIT of a transaction,
    each table read and each state JSON parsed (wherever it is parsed)."""
    tx = store_sqlite._SqliteTx
    execute, fetch = tx.execute, tx.fetch

    async def counted_execute(self: Any, sql: str, args: Any = ()) -> int:
        COUNTS.sql += 1
        COUNTS.kinds[label(sql)] += 1
        return await execute(self, sql, args)

    async def counted_fetch(self: Any, sql: str, args: Any = ()) -> list[Any]:
        COUNTS.sql += 1
        COUNTS.kinds[label(sql)] += 1
        return await fetch(self, sql, args)

    tx.execute = counted_execute  # type: ignore[method-assign]
    tx.fetch = counted_fetch  # type: ignore[method-assign]

    transaction = store_sqlite.SqliteStore.transaction

    def counted_transaction(self: Any) -> Any:
        COUNTS.sql += 2  # BEGIN IMMEDIATE, COMMIT
        COUNTS.kinds["BEGIN/COMMIT"] += 1
        return transaction(self)

    store_sqlite.SqliteStore.transaction = counted_transaction  # type: ignore[method-assign]

    move = store_sqlite.SqliteStore._move_transaction  # a move's statements, in one hop to the thread

    async def counted_move(self: Any, update: Any, insert: Any, rest: Any) -> Any:
        COUNTS.sql += 2 + 2 + len(rest)  # BEGIN IMMEDIATE, the update, the insert, the rest, COMMIT
        COUNTS.kinds["BEGIN/COMMIT"] += 1
        for sql, _args in (update, insert, *rest):
            COUNTS.kinds[label(sql)] += 1
        return await move(self, update, insert, rest)

    store_sqlite.SqliteStore._move_transaction = counted_move  # type: ignore[method-assign]

    table = store_base.Store._table

    async def counted_table(self: Any, row: Any, *args: Any, **kwargs: Any) -> Any:
        COUNTS.reads += 1
        return await table(self, row, *args, **kwargs)

    store_base.Store._table = counted_table  # type: ignore[method-assign]
    with_seats = getattr(store_base.Store, "_table_with_seats", None)  # a table read with its seats at once
    if with_seats is not None:

        def counted_with_seats(self: Any, row: Any) -> Any:
            COUNTS.reads += 1
            return with_seats(self, row)

        store_base.Store._table_with_seats = counted_with_seats  # type: ignore[attr-defined]

    loads = json.loads

    def counted_loads(s: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(s, str) and s.startswith('{"') and '"schema":' in s:  # a game state (every game's has one)
            COUNTS.parses += 1
        return loads(s, *args, **kwargs)

    store_base.json.loads = counted_loads  # type: ignore[attr-defined]  # the module's own `json`


async def measure_move(server: FakeDiscord, bot: Any, user: Any, chan: Any, action: str, out: Any) -> None:
    """One `/game move`, its counts at the answer and at the end added to `out`."""
    signature = {(m.id, m.edits) for m in server.messages(chan)}
    start = COUNTS.snapshot()
    kinds = COUNTS.kinds.copy()
    at_answer: list[tuple[int, int, int]] = []
    bump = server._bump
    rec: Any = None

    def marked(channel: Any = None) -> None:  # the server changed: at the first answer, the counts so far
        if rec is not None and rec.activity > 0 and not at_answer:
            at_answer.append(COUNTS.snapshot())
        bump(channel)

    server._bump = marked  # type: ignore[method-assign]
    try:
        rec = await server.slash(user, chan, "game move", action=action, timeout=30, wait_deferred=False)
        await rec.wait_for(lambda r: r.activity > 0, timeout=30)
        await server.wait_for_message(
            chan, lambda m: (m.id, m.edits) not in signature and bool(m.attachments), timeout=30
        )
        await bot.busy.idle()
    finally:
        server._bump = bump  # type: ignore[method-assign]
    end = COUNTS.snapshot()
    COUNTS.move_kinds += COUNTS.kinds - kinds
    answer = at_answer[0] if at_answer else end
    for i, name in enumerate(("sql", "reads", "parses")):
        out[f"answer {name}"].append(answer[i] - start[i])
        out[f"move {name}"].append(end[i] - start[i])


async def bench_game(key: str, moves: int, seats: int) -> dict[str, list[int]]:
    out: dict[str, list[int]] = collections.defaultdict(list)
    async with started_table(key, seats) as (server, bot, alice, chan):
        COUNTS.move_kinds.clear()
        done = 0
        while done < moves:
            await bot.busy.idle()
            await asyncio.sleep(0.05)  # the last move's fading edits and background work settle
            await bot.busy.idle()
            table = await bot.service.store.open_table_in_channel(chan.id)
            if table is None or table.status != "active":
                break
            choices = await server.autocomplete(alice, chan, "game move", "action", partial="")
            if not choices:
                await asyncio.sleep(0.01)
                continue
            await measure_move(server, bot, alice, chan, choices[0]["value"], out)
            done += 1
        out["kinds"] = [0]
        kinds = dict(COUNTS.move_kinds)
    print(f"  statements over {done} moves: " + ", ".join(f"{k} {v / max(done, 1):.1f}" for k, v in
                                                          sorted(kinds.items(), key=lambda kv: -kv[1])))
    return out


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("moves", nargs="?", type=int, default=10)
    parser.add_argument("--games", nargs="*", default=[g for g, _ in PLAN])
    args = parser.parse_args()
    instrument()
    print("per move, median (SQL statements incl. BEGIN/COMMIT · table reads · state JSON parses)")
    for key, seats in PLAN:
        if key not in args.games:
            continue
        r = await bench_game(key, args.moves, seats)
        m = {k: statistics.median(v) for k, v in r.items() if v and k != "kinds"}
        print(
            f"{key:<16} to the answer: {m['answer sql']:4.0f} SQL, {m['answer reads']:3.0f} reads, "
            f"{m['answer parses']:3.0f} parses   whole move: {m['move sql']:4.0f} SQL, {m['move reads']:3.0f} reads, "
            f"{m['move parses']:3.0f} parses  (n={len(r['move sql'])})"
        )


if __name__ == "__main__":
    asyncio.run(main())
