"""Claims: with several processes on one store, each table's background work is claimed by one of them.

Two `Store`s on one database (a SQLite file, or a PostgreSQL database) are two connections, as two bot
processes would hold.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import SeatRow, Store
from tests.engines import ENGINES
from tests.pg import emptied_database

LEASE = 60.0


@pytest.fixture(params=ENGINES)
async def two(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[tuple[Store, Store]]:
    where: Path | str = tmp_path / "shared.sqlite3"
    if request.param == "postgresql":
        where = await emptied_database(request.getfixturevalue("pg_cluster"))
    a = await Store.open(where)
    b = await Store.open(where)
    yield a, b
    await a.close()
    await b.close()


async def _active(store: Store, n: int, *, bot_awaited: bool = False, first: int = 0) -> list[int]:
    """n active two-seat tables, every one with a reminder time of 60 s; seat 1 a bot when asked."""
    ids = []
    for i in range(n):
        t = await store.create_table(
            guild_id=1, channel_id=1000 + first + i, game="takeaway", options={}, seed=i, host_id=1, host_name="a",
            reminder_after=60,
        )  # fmt: skip
        second = SeatRow(1, None, "b", is_bot=True) if bot_awaited else SeatRow(1, 2, "b")
        await store.set_seats(t.id, [SeatRow(0, 1, "a"), second])
        await store.start_table(t.id, {"n": 0}, {1: 0} if bot_awaited else {0: 0, 1: 0}, i)
        await store.mark_shown(t.id, 0)
        await store.mark_notified(t.id, {0: 0, 1: 0})
        ids.append(t.id)
    return ids


async def test_two_processes_claim_each_due_table_once(two: tuple[Store, Store]) -> None:
    a, b = two
    ids = await _active(a, 30)
    later = time.time() + 3600  # every table quiet for an hour: a reminder is due at each
    done: dict[str, list[int]] = {"a": [], "b": []}
    claimed = {"a": asyncio.Event(), "b": asyncio.Event()}

    async def a_pass(store: Store, me: str) -> None:
        """What a process's reminder pass does: claim a batch, remind each (mark it), release it.
        Each holds its first batch until the other has claimed one too (how fast each engine hands out
        its lock is no part of the test): the other must then skip the live claims and take others."""
        other = "b" if me == "a" else "a"
        after = 0
        while batch := await store.claim("remind", later, me, LEASE, after=after, limit=4):
            if not claimed[me].is_set():
                claimed[me].set()
                await asyncio.wait_for(claimed[other].wait(), 30)
            for table in batch:
                await asyncio.sleep(0)  # the other process runs meanwhile
                await store.set_reminder(table.id, reminded_at=later)
                done[me].append(table.id)
            await store.release([t.id for t in batch], me)
            after = batch[-1].id

    await asyncio.gather(a_pass(a, "a"), a_pass(b, "b"))
    assert sorted(done["a"] + done["b"]) == ids, "every due table reminded exactly once"
    assert done["a"] and done["b"], "both processes took a share"
    assert await b.claim("remind", later + 1, "b", LEASE) == [], "reminded: nothing due again"


async def test_a_live_claim_is_skipped_and_an_expired_one_taken_over(two: tuple[Store, Store]) -> None:
    a, b = two
    (tid,) = await _active(a, 1)
    later = time.time() + 3600
    assert [t.id for t in await a.claim("remind", later, "a", LEASE)] == [tid]
    assert await b.claim("remind", later + 1, "b", LEASE) == [], "a live claim is another process's work"
    await b.release([tid], "b")  # not b's claim: it stays
    assert await b.claim("remind", later + 2, "b", LEASE) == []
    # a died holding it: once the lease runs out, b takes the table over
    assert [t.id for t in await b.claim("remind", later + LEASE + 1, "b", LEASE)] == [tid]
    await a.release([tid], "a")  # a's late release does not drop b's claim
    assert await a.claim("remind", later + LEASE + 2, "a", LEASE) == []


async def test_each_kind_claims_only_the_tables_that_need_it(two: tuple[Store, Store]) -> None:
    a, _ = two
    humans = await _active(a, 2)
    bots = await _active(a, 1, bot_awaited=True, first=2)
    now = time.time()
    assert [t.id for t in await a.claim("bots", now, "a", LEASE)] == bots
    assert await a.claim("lagging", now, "a", LEASE) == []
    await a.apply(humans[0], expected_version=0, seat=0, action={"n": 1}, events=[], state={"n": 1}, awaited={1: 1})
    assert [t.id for t in await a.claim("lagging", now, "a", LEASE)] == [humans[0]], "its board is behind"
    assert await a.claim("autopilot", now + 3600, "a", LEASE) == [], "autopilot is off at these tables"
    await a.set_reminder(humans[1], autopilot_after=120)
    assert [t.id for t in await a.claim("autopilot", time.time() + 3600, "a", LEASE)] == [humans[1]]
    with pytest.raises(ValueError, match="unknown claim"):
        await a.claim("everything", now, "a", LEASE)
