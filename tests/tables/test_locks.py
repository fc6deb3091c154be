"""Per-table locks: exclusive per key, independent across keys, and dropped once nobody uses them."""

from __future__ import annotations

import asyncio

from bot.tables.locks import KeyedLocks


async def test_a_key_is_held_by_one_at_a_time_and_forgotten_when_free() -> None:
    locks = KeyedLocks()
    order: list[str] = []

    async def work(name: str, key: int) -> None:
        async with locks.hold(key):
            order.append(f"{name} in")
            await asyncio.sleep(0.01)
            order.append(f"{name} out")

    await asyncio.gather(work("a", 1), work("b", 1), work("c", 2))
    assert order.index("a out") < order.index("b in"), "the same table waits its turn"
    assert order.index("c in") < order.index("a out"), "another table does not wait"
    assert len(locks) == 0 and not locks.locked(1)


async def test_a_failure_inside_releases_and_forgets_the_lock() -> None:
    locks = KeyedLocks()
    try:
        async with locks.hold(7):
            assert locks.locked(7)
            raise ValueError("boom")
    except ValueError:
        pass
    assert len(locks) == 0
    async with locks.hold(7):  # and it can be taken again
        assert len(locks) == 1
