"""Per-table locks that exist only while they are used.

A process with thousands of tables would otherwise keep an `asyncio.Lock` for every table it ever
touched; here a table's lock is dropped as soon as nobody holds or waits for it.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


class KeyedLocks:
    """One lock per key (a table id), held with `async with locks.hold(key):`."""

    def __init__(self) -> None:
        self._locks: dict[int, tuple[asyncio.Lock, int]] = {}  # key -> (lock, holders + waiters)

    @asynccontextmanager
    async def hold(self, key: int) -> AsyncIterator[None]:
        lock, users = self._locks.get(key, (None, 0))
        if lock is None:
            lock = asyncio.Lock()
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            _, users = self._locks[key]
            if users <= 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)

    def locked(self, key: int) -> bool:
        """Someone holds the key's lock right now (work for that table is under way)."""
        entry = self._locks.get(key)
        return entry is not None and entry[0].locked()

    def __len__(self) -> int:
        return len(self._locks)


__all__ = ["KeyedLocks"]
