"""Shared fixtures: the test-only game is registered for every test, and a fresh store per test."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.rules import register, unregister
from bot.store import Store
from bot.tables import TableService
from tests.takeaway import GAME as TAKEAWAY


@pytest.fixture(autouse=True)
def takeaway_registered() -> Iterator[None]:
    register(TAKEAWAY)
    yield
    unregister(TAKEAWAY.key)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(tmp_path / "test.sqlite3")
    yield s
    await s.close()


@pytest.fixture
def service(store: Store) -> TableService:
    return TableService(store)
