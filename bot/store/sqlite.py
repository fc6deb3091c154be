"""The aiosqlite engine: WAL, numbered migrations, and one transaction per applied move.

One connection serves the process; an asyncio lock keeps each transaction's statements together
(aiosqlite runs them on one thread, but coroutines could otherwise interleave inside a transaction).
The queries themselves are shared with PostgreSQL (`bot/store/base.py`); this is the embedded default
for one process.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

import aiosqlite

from bot.rules.errors import StaleAction
from bot.store.base import (
    DUPLICATE,
    STALE_TABLE,
    DuplicateInteraction,
    Statement,
    Store,
    StoreError,
    TableConflict,
    Tx,
    migrations,
    register_engine,
    statements,
)

__all__ = ["DuplicateInteraction", "SqliteStore", "Store", "StoreError", "TableConflict", "migrations"]


@lru_cache(maxsize=512)
def _sqlite(sql: str) -> str:
    """The shared SQL in SQLite's spelling: its two-argument MAX is GREATEST."""
    return sql.replace("GREATEST(", "MAX(")


def _in_thread(conn: aiosqlite.Connection) -> Callable[..., Awaitable[Any]]:
    """`fn(*args)` run on the connection's own thread, awaited: one hop there and back.

    aiosqlite's cursor calls are a hop each (execute, fetchall, close: three for a read, each waiting
    for the event loop to come round again and, while it is busy, for the GIL); a statement, a read or
    a whole transaction done by one function on that thread is one. `_execute` is how aiosqlite's own
    methods queue their work (0.17 through 0.22)."""
    run: Callable[..., Awaitable[Any]] = conn._execute
    return run


def _rowcount(db: sqlite3.Connection, sql: str, args: tuple[Any, ...]) -> int:
    return db.execute(sql, args).rowcount


def _rows(db: sqlite3.Connection, sql: str, args: tuple[Any, ...]) -> list[Any]:
    return db.execute(sql, args).fetchall()


def _move(db: sqlite3.Connection, update: Statement, insert: Statement, rest: Sequence[Statement]) -> Any:
    """`Store._move_transaction` on the connection's thread: BEGIN IMMEDIATE to COMMIT in one call."""
    db.execute("BEGIN IMMEDIATE")
    try:
        rows = db.execute(_sqlite(update[0]), tuple(update[1])).fetchall()
        if len(rows) != 1:
            raise StaleAction(STALE_TABLE)
        try:
            db.execute(_sqlite(insert[0]), tuple(insert[1]))
        except sqlite3.IntegrityError as err:
            raise DuplicateInteraction(DUPLICATE) from err
        for sql, args in rest:
            db.execute(_sqlite(sql), tuple(args))
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    return rows[0]


class _SqliteTx(Tx):
    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn
        self._run = _in_thread(conn)

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        count: int = await self._run(_rowcount, self._conn._conn, _sqlite(sql), tuple(args))
        return count

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        rows: list[Any] = await self._run(_rows, self._conn._conn, _sqlite(sql), tuple(args))
        return rows


class _LockedReads(Tx):
    """Reads outside a transaction, one at a time with the transactions of this connection. Otherwise a
    read still stepping through its rows holds a read snapshot while another coroutine's BEGIN IMMEDIATE
    needs a fresh one: with a second process writing to the file, SQLite answers "database is locked"
    at once instead of waiting (it cannot upgrade a stale snapshot)."""

    def __init__(self, tx: _SqliteTx, lock: asyncio.Lock) -> None:
        self._tx = tx
        self._lock = lock

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        async with self._lock:
            return await self._tx.execute(sql, args)

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        async with self._lock:
            return await self._tx.fetch(sql, args)


class SqliteStore(Store):
    """The store on one SQLite file (WAL), for a single bot process."""

    engine = "sqlite"
    AWAITED_EACH = "json_each(t.awaited) a"
    SEAT_LIST = "json_group_array(json_array(s.seat, s.user_id, s.name, s.is_bot, s.resigned))"
    SEAT_ROWS = "(SELECT json_group_array(json_array({cols})) FROM seats s WHERE s.table_id = {t}.id)"
    FOLLOWER_MAP = (
        "(SELECT json_group_object(CAST(f.user_id AS TEXT), f.every_board) FROM followers f WHERE f.table_id = {t}.id)"
    )
    AWAY_MAP = (
        "(SELECT json_group_object(CAST(w.user_id AS TEXT), quote(w.until)) FROM away w WHERE w.until > ?"
        " AND w.user_id IN (SELECT s.user_id FROM seats s WHERE s.table_id = {t}.id))"
    )
    SEAT_REAL = "quote({c})"  # SQLite's JSON keeps 15 digits of a REAL; `quote` keeps them all

    def __init__(self, conn: aiosqlite.Connection) -> None:
        super().__init__()
        self._db = conn
        self._lock = asyncio.Lock()
        self._tx = _SqliteTx(conn)
        self._reads = _LockedReads(self._tx, self._lock)

    @classmethod
    async def open_file(cls, path: Path | str, *, busy_timeout: float = 5.0) -> SqliteStore:
        """Open (creating it if needed) and migrate the database at `path`.

        Raises StoreError naming the path when it cannot be opened (a bad path, a locked or corrupt
        file, a failed migration); the connection is closed first, so its worker thread does not keep
        the process alive. `busy_timeout`: seconds to wait for another process's lock.
        """
        conn: aiosqlite.Connection | None = None
        try:
            if str(path) != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            pending = aiosqlite.connect(str(path), isolation_level=None, timeout=busy_timeout)
            try:
                conn = await pending
            except BaseException:
                # aiosqlite stops its worker thread without waiting: wait here, or the thread answers
                # into an event loop that may be gone by then (a process exiting on this error)
                thread = getattr(pending, "_thread", None)
                if thread is not None and thread.is_alive():
                    await asyncio.to_thread(thread.join, 5)
                raise
            conn.row_factory = aiosqlite.Row
            for pragma in (
                "PRAGMA journal_mode=WAL",
                # NORMAL in WAL mode: a commit is in the WAL before we acknowledge it, so a killed
                # process loses nothing; only a power cut could lose the last transactions.
                "PRAGMA synchronous=NORMAL",
                "PRAGMA foreign_keys=ON",
                f"PRAGMA busy_timeout={int(busy_timeout * 1000)}",
            ):
                async with conn.execute(pragma):
                    pass
            store = cls(conn)
            await store.migrate()
        except BaseException as err:
            if conn is not None:
                try:
                    await conn.close()
                except Exception as close_err:  # the error that brought us here is the one to report
                    err.add_note(f"closing the connection failed too: {close_err!r}")
            if isinstance(err, aiosqlite.Error | OSError):
                raise StoreError(f"cannot open the database at {path}: {err}") from err
            raise
        return store

    async def close(self) -> None:
        await self._db.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        async with self._lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._tx
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")

    def _reader(self) -> Tx:
        return self._reads

    async def _write(self, sql: str, args: Sequence[Any] = ()) -> int:
        """A lone statement in autocommit mode: SQLite makes it its own transaction (waiting for another
        process's lock as BEGIN IMMEDIATE would), without the BEGIN and COMMIT round trips."""
        async with self._lock:
            return await self._tx.execute(sql, args)

    async def _write_rows(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        """A lone statement with RETURNING in autocommit mode (as `_write`): its rows."""
        async with self._lock:
            return await self._tx.fetch(sql, args)

    def _is_integrity_error(self, err: BaseException) -> bool:
        return isinstance(err, aiosqlite.IntegrityError)

    async def _move_transaction(self, update: Statement, insert: Statement, rest: Sequence[Statement]) -> Any:
        """The move's whole transaction in one hop to the connection's thread (was one per statement,
        BEGIN and COMMIT included: 5–7 hops, each waiting its turn on a busy event loop)."""
        async with self._lock:
            return await _in_thread(self._db)(_move, self._db._conn, update, insert, rest)

    @asynccontextmanager
    async def table_lock(self, table_id: int, scope: str = "play") -> AsyncIterator[None]:
        """One process holds a SQLite database: an in-process lock per table is exclusion enough."""
        async with self._local_lock(table_id, scope):
            yield

    async def migrate(self) -> int:
        """Apply every migration newer than the database; return the schema version.

        Each migration runs in a write transaction (BEGIN IMMEDIATE) that reads the version first, so a
        second process opening the file at the same moment waits, then finds it already applied."""
        await self._db.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at REAL)"
        )
        current = await self._version(self._tx)
        for number, sql in migrations():
            if number <= current:
                continue
            async with self.transaction() as tx:
                current = await self._version(tx)
                if number <= current:
                    continue
                for statement in statements(sql):
                    await tx.execute(statement)
                await tx.execute("INSERT INTO schema_migrations VALUES (?, ?)", (number, time.time()))
                current = number
        return current

    @staticmethod
    async def _version(tx: Tx) -> int:
        rows = await tx.fetch("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
        return int(rows[0][0]) if rows else 0

    async def columns(self, table: str) -> list[str]:
        return [str(r[1]) for r in await self._fetch(f"PRAGMA table_info({table})")]

    async def load_tables(self, data: Mapping[str, tuple[list[str], list[tuple[Any, ...]]]]) -> None:
        async with self._lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                for table, (names, rows) in data.items():
                    marks = ", ".join("?" * len(names))
                    await self._db.executemany(f"INSERT INTO {table} ({', '.join(names)}) VALUES ({marks})", rows)
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")


async def _open(target: Path | str, timeout: float) -> SqliteStore:
    return await SqliteStore.open_file(target, busy_timeout=timeout)


register_engine("sqlite", _open)
