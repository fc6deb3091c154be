"""Shared fixtures: the test-only game is registered for every test, and a fresh store per test.

`store` is SQLite unless a test directory asks for both engines (tests/store, tests/tables do, through
`engines.parametrize_store`); the PostgreSQL run uses one throwaway cluster per session (`pg_cluster`)
and one database in it, emptied for each test (`pg_dsn` gives a new database, for migration tests).
"""

from __future__ import annotations

import itertools
import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.rules import register, unregister
from bot.store import Store
from bot.tables import TableService
from tests.pg import REQUIRE_ENV, Cluster, create_database, emptied_database, start_cluster
from tests.takeaway import GAME as TAKEAWAY

_databases = itertools.count(1)


@pytest.fixture(autouse=True)
def takeaway_registered() -> Iterator[None]:
    register(TAKEAWAY)
    yield
    unregister(TAKEAWAY.key)


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """A PostgreSQL cluster for the whole session, started on first use; skipped (with the reason)
    when the machine has no PostgreSQL binaries, unless SPOOKY_REQUIRE_POSTGRES is set (CI)."""
    try:
        cluster = start_cluster()
    except RuntimeError as err:
        if os.environ.get(REQUIRE_ENV):
            pytest.fail(f"{err}, and {REQUIRE_ENV} is set")
        pytest.skip(f"PostgreSQL tests skipped: {err} (install the postgresql package to run them)")
    yield cluster
    cluster.stop()


@pytest.fixture
async def pg_dsn(pg_cluster: Cluster) -> str:
    """A new, empty database of the session's cluster."""
    return await create_database(pg_cluster, f"test_{next(_databases)}")


@pytest.fixture
async def pg_emptied(pg_cluster: Cluster) -> str:
    """The cluster's shared test database, migrated and empty (cheaper than `pg_dsn`)."""
    return await emptied_database(pg_cluster)


@pytest.fixture
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    engine = getattr(request, "param", "sqlite")
    if engine == "postgresql":
        cluster: Cluster = request.getfixturevalue("pg_cluster")
        s = await Store.open(await emptied_database(cluster))
    else:
        s = await Store.open(tmp_path / "test.sqlite3")
    yield s
    await s.close()


@pytest.fixture
def service(store: Store) -> TableService:
    return TableService(store)
