"""The store interface and its one implementation of every query, shared by both engines.

Every read and write is written here once, in the SQL common to SQLite and PostgreSQL (`?` parameters,
`GREATEST` for the larger of two values, `RETURNING`, `ON CONFLICT`), so the two engines cannot drift
apart in meaning. An engine (`bot/store/sqlite.py`, `bot/store/postgres.py`) supplies only connections,
transactions, migrations, the per-table lock, and two snippets that differ (walking a JSON object, and
aggregating a JSON array). Optimistic concurrency: a move commits only `WHERE version = expected`, so a
stale or concurrent write is rejected, never merged, whichever process made it.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar

from bot.rules.errors import StaleAction
from bot.statecache import StateCache
from bot.store.models import ActionRow, FinishedRow, FinishedSeat, SeatRow, TableRow

# Every table the store keeps, parents before children (a copy to another database goes in this order).
TABLES = ("game_tables", "seats", "actions", "followers", "away", "away_days", "bot_meta")
# Every column of a seat, in the order a table's read carries them as JSON (`Store.SEAT_ROWS`).
SEAT_COLUMNS = (
    "seat",
    "user_id",
    "name",
    "is_bot",
    "resigned",
    "dm_closed",
    "dm_told",
    "bot_memory",
    "notified_version",
    "dm_closed_at",
    "panel_channel_id",
    "panel_message_id",
    "panel_version",
    "notify",
    "ping_message_id",
    "ping_version",
    "glimpsed_version",
    "locale",
)

# One statement and its arguments (a move's transaction is a list of them, `Store._move_transaction`).
Statement = tuple[str, Sequence[Any]]
STALE_TABLE = "The table changed while you were acting; look at the current board."
DUPLICATE = "this interaction was already applied"


class TableConflict(Exception):
    """A unique rule of the store was violated (e.g. a second open table in a channel)."""


class DuplicateInteraction(Exception):
    """This interaction already produced an action (the same click delivered twice): nothing was written."""


class StoreError(Exception):
    """The database cannot be opened or migrated; the message names the database and the reason."""


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def migrations() -> list[tuple[int, str]]:
    """The numbered SQL scripts shipped in bot/store/migrations, in order (SQLite's spelling; see
    `bot/store/postgres.py` `pg_migration` for PostgreSQL's)."""
    out = []
    for entry in resources.files("bot.store").joinpath("migrations").iterdir():
        name = entry.name
        if name.endswith(".sql") and name[:4].isdigit():
            out.append((int(name[:4]), entry.read_text()))
    return sorted(out)


def statements(script: str) -> list[str]:
    """A migration script's statements (they end with `;` at the end of a line); a piece that is only
    comments (a comment line may end with `;`) is none."""
    return [
        s for s in script.split(";\n") if any(ln.strip() and not ln.strip().startswith("--") for ln in s.splitlines())
    ]


# How each engine opens a database: its module registers itself when `bot.store` is imported, so this
# interface never imports an implementation (the layers inside the store go one way).
Opener = Callable[[Path | str, float], Awaitable["Store"]]
_ENGINES: dict[str, Opener] = {}


def register_engine(name: str, opener: Opener) -> None:
    _ENGINES[name] = opener


def is_postgres_url(target: Path | str) -> bool:
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


class Tx(ABC):
    """One connection inside a transaction (or, for reads, any connection): the two calls queries need."""

    @abstractmethod
    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        """Run a statement; return how many rows it changed."""

    @abstractmethod
    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        """Run a query; return its rows (each readable by column name and by index)."""


class Store(ABC):
    """Tables, seats and the action log behind a narrow async interface, on SQLite or PostgreSQL.

    `Store.open(target)` picks the engine: a `postgresql://` URL opens `PostgresStore`, anything else
    is a SQLite file (`SqliteStore`).
    """

    engine: ClassVar[str]
    # the engine's way to walk `t.awaited` (a JSON object seat -> version) as rows `a.key`, `a.value`
    AWAITED_EACH: ClassVar[str]
    # the engine's JSON array of one table's seats, as [seat, user_id, name, is_bot, resigned] lists
    SEAT_LIST: ClassVar[str]
    # the engine's JSON array of every seat of table `{t}`, each a list of SEAT_COLUMNS ({cols}: those columns)
    SEAT_ROWS: ClassVar[str]
    # the engine's JSON object of table `{t}`'s followers, user id -> every_board (0 or 1)
    FOLLOWER_MAP: ClassVar[str]
    # the engine's JSON object of who of table `{t}`'s players is away after `?` (user id -> until, a
    # number or its exact text)
    AWAY_MAP: ClassVar[str]
    # how the engine writes a REAL seat column into that JSON so that it reads back exactly ({c}: the column)
    SEAT_REAL: ClassVar[str] = "{c}"

    def __init__(self) -> None:
        self._local_locks: dict[tuple[str, int], tuple[asyncio.Lock, int]] = {}
        self.states = StateCache()

    @staticmethod
    async def open(target: Path | str, *, busy_timeout: float = 5.0) -> Store:
        """Open (creating it if needed) and migrate the database: a `postgresql://` URL or a SQLite path.

        Raises StoreError naming the database when it cannot be opened or migrated. `busy_timeout`:
        seconds to wait for another process's lock (SQLite) or for the server to answer (PostgreSQL).
        """
        engine = "postgresql" if is_postgres_url(target) else "sqlite"
        return await _ENGINES[engine](target, busy_timeout)

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def migrate(self) -> int:
        """Apply every migration newer than the database, under the engine's lock; return the schema
        version. The version check and the scripts it lets through run in one transaction."""

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Tx]:
        """One transaction: everything inside commits together or not at all."""

    @abstractmethod
    def _reader(self) -> Tx:
        """Where reads outside a transaction run."""

    # What a table lock guards: "play" (a move and the bots' replies, in the table service) and
    # "deliver" (posting the board, the notices, the panels); a move need not wait for a board upload.
    LOCK_SCOPES = ("play", "deliver")

    @abstractmethod
    def table_lock(self, table_id: int, scope: str = "play") -> AbstractAsyncContextManager[None]:
        """Exclusive per-table work (a bot's reply, posting the board) across every process on this
        database: `async with store.table_lock(table_id): ...`. Waits while anyone holds it. Each of
        LOCK_SCOPES is a lock of its own."""

    @asynccontextmanager
    async def _local_lock(self, table_id: int, scope: str = "play") -> AsyncIterator[None]:
        """The in-process half of `table_lock`: one asyncio lock per table and scope, dropped when nobody
        uses it."""
        if scope not in self.LOCK_SCOPES:
            raise ValueError(f"unknown lock scope {scope!r}")
        key = (scope, table_id)
        lock, users = self._local_locks.get(key, (asyncio.Lock(), 0))
        self._local_locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._local_locks[key]
            if users <= 1:
                del self._local_locks[key]
            else:
                self._local_locks[key] = (lock, users - 1)

    async def _fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        return await self._reader().fetch(sql, args)

    async def _fetchone(self, sql: str, args: Sequence[Any] = ()) -> Any:
        rows = await self._reader().fetch(sql, args)
        return rows[0] if rows else None

    async def _write(self, sql: str, args: Sequence[Any] = ()) -> int:
        """One statement, a transaction of its own (both engines commit a lone statement atomically);
        return how many rows it changed. An engine runs it without BEGIN and COMMIT round trips."""
        async with self.transaction() as tx:
            return await tx.execute(sql, args)

    async def _write_rows(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        """`_write` for a statement with RETURNING: its rows."""
        async with self.transaction() as tx:
            return await tx.fetch(sql, args)

    async def _write_each(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """The same statement for each of `rows`, in one transaction (a single row: `_write`)."""
        if len(rows) == 1:
            await self._write(sql, rows[0])
            return
        async with self.transaction() as tx:
            for args in rows:
                await tx.execute(sql, args)

    # -- copying (python -m bot migrate-db) --------------------------------------------------------
    async def row_counts(self) -> dict[str, int]:
        """How many rows each of the store's tables holds."""
        return {t: int((await self._fetch(f"SELECT COUNT(*) FROM {t}"))[0][0]) for t in TABLES}

    async def dump_table(self, table: str) -> tuple[list[str], list[tuple[Any, ...]]]:
        """A whole table: its column names and its rows, in primary-key order."""
        assert table in TABLES
        rows = await self._fetch(f"SELECT * FROM {table} ORDER BY 1, 2")
        if not rows:
            return await self.columns(table), []
        return list(rows[0].keys()), [tuple(r) for r in rows]

    @abstractmethod
    async def columns(self, table: str) -> list[str]:
        """A table's column names, in order."""

    @abstractmethod
    async def load_tables(self, data: Mapping[str, tuple[list[str], list[tuple[Any, ...]]]]) -> None:
        """Insert whole tables (as `dump_table` gives them) in one transaction, keeping their ids."""

    # -- reading ---------------------------------------------------------------------------------
    def _seat_rows(self, of: str) -> str:
        """SQL: the JSON array of every seat of the table `of` names (an alias, or `game_tables` itself)."""
        cols = ", ".join(self.SEAT_REAL.format(c=f"s.{c}") if c == "dm_closed_at" else f"s.{c}" for c in SEAT_COLUMNS)
        return self.SEAT_ROWS.format(cols=cols, t=of)

    def _with_seats(self, where: str) -> str:
        """SQL: the tables `t` meeting `where`, each with all its seats as JSON (`seat_rows`), so a table
        is read in one round trip, not two (the table's row, then its seats)."""
        return f"SELECT t.*, {self._seat_rows('t')} AS seat_rows FROM game_tables t WHERE {where}"

    def _table_with_seats(self, row: Any) -> TableRow:
        each = [dict(zip(SEAT_COLUMNS, s, strict=True)) for s in json.loads(row["seat_rows"])]
        for s in each:
            if isinstance(s["dm_closed_at"], str):  # SEAT_REAL's text (SQLite: `quote`, "NULL" for none)
                s["dm_closed_at"] = None if s["dm_closed_at"] == "NULL" else float(s["dm_closed_at"])
        seats = sorted(each, key=lambda s: int(s["seat"]))
        return self._table_of(row, self._seats(seats))

    async def get_table(self, table_id: int) -> TableRow | None:
        row = await self._fetchone(self._with_seats("t.id = ?"), (table_id,))
        return self._table_with_seats(row) if row else None

    async def table_and_away(self, table_id: int, now: float) -> tuple[TableRow, dict[int, float]] | None:
        """The table with its seats, and user -> until when, for its players away at `now` (`away_until`):
        one statement, for a delivery (who to tell, and the board's away marks)."""
        row = await self._fetchone(
            f"SELECT t.*, {self._seat_rows('t')} AS seat_rows, {self.AWAY_MAP.format(t='t')} AS away_map"
            " FROM game_tables t WHERE t.id = ?",
            (now, table_id),
        )
        if row is None:
            return None
        return self._table_with_seats(row), {int(u): float(v) for u, v in json.loads(row["away_map"]).items()}

    async def board_message_id(self, table_id: int) -> int | None:
        """The table's board message as stored now (one column: a delivery checks it under its lock)."""
        row = await self._fetchone("SELECT board_message_id FROM game_tables WHERE id = ?", (table_id,))
        return int(row[0]) if row and row[0] is not None else None

    async def open_table_in_channel(self, channel_id: int) -> TableRow | None:
        row = await self._fetchone(
            self._with_seats("t.channel_id = ? AND t.status IN ('lobby', 'active')"), (channel_id,)
        )
        return self._table_with_seats(row) if row else None

    async def latest_ended_in_channel(self, channel_id: int) -> TableRow | None:
        """The channel's most recently ended (finished or abandoned) table, if any."""
        row = await self._fetchone(
            self._with_seats("t.channel_id = ? AND t.status IN ('finished', 'abandoned')")
            + " ORDER BY t.updated_at DESC, t.id DESC LIMIT 1",
            (channel_id,),
        )
        return self._table_with_seats(row) if row else None

    async def active_tables(self) -> list[TableRow]:
        rows = await self._fetch("SELECT * FROM game_tables WHERE status = 'active' ORDER BY id")
        return [await self._table(r) for r in rows]

    async def tables_of_user(self, user_id: int) -> list[TableRow]:
        rows = await self._fetch(
            "SELECT t.* FROM game_tables t JOIN seats s ON s.table_id = t.id "
            "WHERE s.user_id = ? AND t.status IN ('lobby', 'active') ORDER BY t.updated_at DESC",
            (user_id,),
        )
        return await self._tables(rows)  # their seats in one query, not one per table

    async def finished_tables(
        self, guild_id: int, *, after: tuple[float, int] | None = None, game: str | None = None
    ) -> tuple[int, list[FinishedRow]]:
        """(how many finished tables the server has, those that ended after `after` — (updated_at, id) —
        in the order they ended, each with its seats): one query, however many tables there are."""
        at, last = after if after is not None else (-1.0, -1)
        only = " AND game = ?" if game else ""
        sql = (
            f"SELECT c.total, t.id, t.game, t.options, t.outcome, t.updated_at, (SELECT {self.SEAT_LIST}"
            "  FROM seats s WHERE s.table_id = t.id) AS seat_list"
            " FROM (SELECT COUNT(*) AS total FROM game_tables"
            f"  WHERE guild_id = ? AND status = 'finished'{only}) c"
            " LEFT JOIN game_tables t ON t.guild_id = ? AND t.status = 'finished'"
            f"  {only.replace('game', 't.game')}"
            "  AND (t.updated_at > ? OR (t.updated_at = ? AND t.id > ?))"
            " ORDER BY t.updated_at, t.id"
        )
        games = (game,) if game else ()
        rows = await self._fetch(sql, (guild_id, *games, guild_id, *games, at, at, last))
        total = int(rows[0]["total"]) if rows else 0
        out = [
            FinishedRow(
                id=r["id"],
                game=r["game"],
                options=json.loads(r["options"]),
                outcome=json.loads(r["outcome"]) if r["outcome"] else None,
                updated_at=r["updated_at"],
                seats=tuple(
                    FinishedSeat(int(s[0]), s[1], str(s[2]), bool(s[3]), bool(s[4]))
                    for s in sorted(json.loads(r["seat_list"]))
                ),
            )
            for r in rows
            if r["id"] is not None
        ]
        return total, out

    async def move_seconds(self, guild_id: int, user_id: int) -> tuple[int, float]:
        """(how many moves, how many seconds in all) the user took at the server's finished tables, each
        move timed from the table's previous action (a table's first action is not timed): one query."""
        row = await self._fetchone(
            "SELECT COUNT(*), COALESCE(SUM(x.gap), 0) FROM ("
            " SELECT a.table_id, a.seat, a.kind, a.at - LAG(a.at) OVER (PARTITION BY a.table_id ORDER BY a.seq)"
            "  AS gap FROM actions a WHERE a.table_id IN (SELECT s.table_id FROM seats s JOIN game_tables t"
            "  ON t.id = s.table_id WHERE s.user_id = ? AND s.is_bot = 0 AND t.guild_id = ?"
            "  AND t.status = 'finished')"
            ") x JOIN seats s ON s.table_id = x.table_id AND s.seat = x.seat"
            " WHERE s.user_id = ? AND x.kind = 'move' AND x.gap IS NOT NULL",
            (user_id, guild_id, user_id),
        )
        return (int(row[0]), float(row[1])) if row else (0, 0.0)

    async def actions(self, table_id: int, kind: str | None = None, tail: int | None = None) -> list[ActionRow]:
        """The log in order; `tail` keeps only the last that many rows (read without loading the rest)."""
        sql = (
            "SELECT seq, seat, kind, action, events, at, undo_state IS NOT NULL AS undoable, undo_refusal"
            " FROM actions WHERE table_id = ?" + (" AND kind = ?" if kind else "")
        )
        args: tuple[Any, ...] = (table_id, kind) if kind else (table_id,)
        if tail is not None:
            sql += " ORDER BY seq DESC LIMIT ?"
            args += (tail,)
        else:
            sql += " ORDER BY seq"
        rows = await self._fetch(sql, args)
        if tail is not None:
            rows.reverse()
        return [
            ActionRow(
                r["seq"],
                r["seat"],
                r["kind"],
                json.loads(r["action"]),
                json.loads(r["events"]),
                r["at"],
                bool(r["undoable"]),
                r["undo_refusal"],
            )
            for r in rows
        ]

    async def log_tail(self, table_id: int, tail: int) -> list[tuple[int, int, str]]:
        """(seq, seat, events JSON as stored) of the last `tail` log rows, oldest first, unparsed: a
        board's lines are kept made by the service (`TableService.log_of`), so a row it has seen is
        neither parsed nor held parsed again."""
        rows = await self._fetch(
            "SELECT seq, seat, events FROM actions WHERE table_id = ? ORDER BY seq DESC LIMIT ?", (table_id, tail)
        )
        return [(int(r["seq"]), int(r["seat"]), str(r["events"])) for r in reversed(rows)]

    async def undo_state(self, table_id: int, seq: int) -> dict[str, Any] | None:
        """The state from before action `seq`, kept when that action may be taken back (else None)."""
        row = await self._fetchone("SELECT undo_state FROM actions WHERE table_id = ? AND seq = ?", (table_id, seq))
        return json.loads(row[0]) if row and row[0] is not None else None

    async def _tables(self, rows: Sequence[Any]) -> list[TableRow]:
        """Tables from their rows, with the seats of all of them read in one query."""
        if not rows:
            return []
        ids = [int(r["id"]) for r in rows]
        seats: dict[int, list[Any]] = {i: [] for i in ids}
        for s in await self._fetch(
            f"SELECT * FROM seats WHERE table_id IN ({', '.join('?' * len(ids))}) ORDER BY table_id, seat", ids
        ):
            seats[int(s["table_id"])].append(s)
        return [await self._table(r, seats[int(r["id"])]) for r in rows]

    async def _table(self, row: Any, seat_rows: Sequence[Any] | None = None) -> TableRow:
        if seat_rows is None:
            seat_rows = await self._fetch("SELECT * FROM seats WHERE table_id = ? ORDER BY seat", (row["id"],))
        return self._table_of(row, self._seats(seat_rows))

    @staticmethod
    def _seats(seat_rows: Sequence[Any]) -> tuple[SeatRow, ...]:
        return tuple(
            SeatRow(
                seat=s["seat"],
                user_id=s["user_id"],
                name=s["name"],
                is_bot=bool(s["is_bot"]),
                resigned=bool(s["resigned"]),
                dm_closed=bool(s["dm_closed"]),
                dm_told=bool(s["dm_told"]),
                bot_memory=json.loads(s["bot_memory"]),
                notified_version=s["notified_version"],
                dm_closed_at=s["dm_closed_at"],
                panel_channel_id=s["panel_channel_id"],
                panel_message_id=s["panel_message_id"],
                panel_version=s["panel_version"],
                notify=s["notify"],
                ping_message_id=s["ping_message_id"],
                ping_version=s["ping_version"],
                glimpsed_version=s["glimpsed_version"],
                locale=s["locale"],
            )
            for s in seat_rows
        )

    def _table_of(self, row: Any, seats: tuple[SeatRow, ...]) -> TableRow:
        """A table from its row (the state parsed once per version: `StateCache`) and its seats."""
        text = row["state"]
        return TableRow(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            game=row["game"],
            options=json.loads(row["options"]),
            seed=row["seed"],
            host_id=row["host_id"],
            status=row["status"],
            version=row["version"],
            state=self.states.parsed(row["id"], row["version"], text) if text else None,
            awaited={int(k): v for k, v in json.loads(row["awaited"]).items()},
            outcome=json.loads(row["outcome"]) if row["outcome"] else None,
            lobby_message_id=row["lobby_message_id"],
            board_message_id=row["board_message_id"],
            reminder_after=row["reminder_after"],
            reminded_at=row["reminded_at"],
            created_at=row["created_at"],
            updated_at=row["updated_at"],
            seats=seats,
            autopilot_after=row["autopilot_after"],
            shown_version=row["shown_version"],
            unreachable_at=row["unreachable_at"],
            wants_thread=bool(row["wants_thread"]),
            parent_channel_id=row["parent_channel_id"],
            seed_salt=row["seed_salt"],
            end_announced_at=row["end_announced_at"],
            end_message_id=row["end_message_id"],
            rematch_id=row["rematch_id"],
            lang=row["lang"],
            state_text=text or None,
        )

    # -- lobby -----------------------------------------------------------------------------------
    @abstractmethod
    def _is_integrity_error(self, err: BaseException) -> bool:
        """A unique (or other integrity) rule of the database refused the write."""

    async def create_table(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game: str,
        options: Mapping[str, str],
        seed: int,
        host_id: int,
        host_name: str,
        reminder_after: int,
        wants_thread: bool = False,
        seed_salt: str | None = None,
        lang: str = "en-US",
        host_locale: str | None = None,
    ) -> TableRow:
        now = time.time()
        try:
            async with self.transaction() as tx:
                (created,) = await tx.fetch(
                    "INSERT INTO game_tables (guild_id, channel_id, game, options, seed, host_id, status,"
                    " reminder_after, created_at, updated_at, wants_thread, seed_salt, lang)"
                    " VALUES (?, ?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?) RETURNING id",
                    (
                        guild_id,
                        channel_id,
                        game,
                        _dumps(dict(options)),
                        seed,
                        host_id,
                        reminder_after,
                        now,
                        now,
                        int(wants_thread),
                        seed_salt,
                        lang,
                    ),
                )
                table_id = int(created[0])
                await tx.execute(
                    "INSERT INTO seats (table_id, seat, user_id, name, locale) VALUES (?, 0, ?, ?, ?)",
                    (table_id, host_id, host_name, host_locale),
                )
        except Exception as err:
            if self._is_integrity_error(err):
                raise TableConflict("This channel already has an open table.") from err
            raise
        table = await self.get_table(table_id)
        assert table is not None
        return table

    async def set_seats(self, table_id: int, seats: Iterable[SeatRow]) -> None:
        """Replace a lobby's seats (join/leave/add bot renumber them)."""
        async with self.transaction() as tx:
            await tx.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
            for s in seats:
                await tx.execute(
                    "INSERT INTO seats (table_id, seat, user_id, name, is_bot, locale) VALUES (?, ?, ?, ?, ?, ?)",
                    (table_id, s.seat, s.user_id, s.name, int(s.is_bot), s.locale),
                )
            await tx.execute("UPDATE game_tables SET updated_at = ? WHERE id = ?", (time.time(), table_id))

    async def start_table(self, table_id: int, state: Mapping[str, Any], awaited: Mapping[int, int], seed: int) -> None:
        async with self.transaction() as tx:
            changed = await tx.execute(
                "UPDATE game_tables SET status = 'active', state = ?, awaited = ?, seed = ?, version = 0,"
                " updated_at = ? WHERE id = ? AND status = 'lobby'",
                (_dumps(state), _dumps(awaited), seed, time.time(), table_id),
            )
            if changed != 1:
                raise StaleAction("This table has already started or was closed.")
            await tx.execute("UPDATE seats SET glimpsed_version = 0 WHERE table_id = ?", (table_id,))

    async def set_options(self, table_id: int, options: Mapping[str, str]) -> None:
        async with self.transaction() as tx:
            await tx.execute(
                "UPDATE game_tables SET options = ?, updated_at = ? WHERE id = ? AND status = 'lobby'",
                (_dumps(dict(options)), time.time(), table_id),
            )

    async def set_status(self, table_id: int, status: str, outcome: Mapping[str, Any] | None = None) -> None:
        """Close a table by a command (cancel, abandon): the command's own answer tells the channel, so
        no game-over message is owed."""
        now = time.time()
        announced = now if status not in ("lobby", "active") else None
        async with self.transaction() as tx:
            await tx.execute(
                "UPDATE game_tables SET status = ?, outcome = COALESCE(?, outcome), updated_at = ?,"
                " end_announced_at = COALESCE(end_announced_at, ?) WHERE id = ?",
                (status, _dumps(outcome) if outcome is not None else None, now, announced, table_id),
            )

    async def set_message(self, table_id: int, *, lobby: int | None = None, board: int | None = None) -> None:
        if lobby is not None:
            await self._write("UPDATE game_tables SET lobby_message_id = ? WHERE id = ?", (lobby, table_id))
        if board is not None:
            await self._write("UPDATE game_tables SET board_message_id = ? WHERE id = ?", (board, table_id))

    async def set_dm_flags(self, table_id: int, seat: int, *, closed: bool, told: bool) -> None:
        await self._write(
            "UPDATE seats SET dm_closed = ?, dm_told = ?, dm_closed_at = ? WHERE table_id = ? AND seat = ?",
            (int(closed), int(told), time.time() if closed else None, table_id, seat),
        )

    # -- delivery ----------------------------------------------------------------------------------
    async def mark_shown(self, table_id: int, version: int) -> None:
        """The channel's board shows `version` (never moves back: deliveries may finish out of order)."""
        await self._write(
            "UPDATE game_tables SET shown_version = GREATEST(shown_version, ?), unreachable_at = NULL WHERE id = ?",
            (version, table_id),
        )

    async def shown(
        self, table_id: int, version: int, *, board: int | None = None
    ) -> tuple[TableRow, dict[int, bool]] | None:
        """`mark_shown` (and, given, the board's new message id), then the table as stored right after
        it, with its seats, and its `followers`: one statement (was four: the board's id, the version, a
        read, the followers). The row comes from the database, never from a cache, so a write by anyone
        since is in it."""
        sets = "shown_version = GREATEST(shown_version, ?), unreachable_at = NULL"
        args: tuple[Any, ...] = (version,)
        if board is not None:
            sets += ", board_message_id = ?"
            args += (board,)
        rows = await self._write_rows(
            f"UPDATE game_tables SET {sets} WHERE id = ? RETURNING *, {self._seat_rows('game_tables')} AS seat_rows,"
            f" {self.FOLLOWER_MAP.format(t='game_tables')} AS follower_map",
            (*args, table_id),
        )
        if not rows:
            return None
        followers = {int(u): bool(every) for u, every in json.loads(rows[0]["follower_map"]).items()}
        return self._table_with_seats(rows[0]), followers

    async def mark_notified(self, table_id: int, seats: Mapping[int, int]) -> None:
        """Seat -> the awaited-since version of the decision it has now been told of."""
        if not seats:
            return
        await self._write_each(
            "UPDATE seats SET notified_version = GREATEST(notified_version, ?) WHERE table_id = ? AND seat = ?",
            [(version, table_id, seat) for seat, version in seats.items()],
        )

    async def set_panel_message(
        self,
        table_id: int,
        seat: int,
        channel_id: int | None,
        message_id: int | None,
        version: int | None = None,
        *,
        if_message: int | None = None,
        notified: bool = False,
    ) -> None:
        """The seat's DM panel and the decision it is for; with `if_message`, only while that message is
        still the seat's panel (a newer panel sent meanwhile by another delivery is kept). `notified`:
        the seat has been told of decision `version` too (`mark_notified`, in the same statement)."""
        where = " AND panel_message_id = ?" if if_message is not None else ""
        told = ", notified_version = GREATEST(notified_version, ?)" if notified and version is not None else ""
        await self._write(
            "UPDATE seats SET panel_channel_id = ?, panel_message_id = ?, panel_version = ?"
            + told
            + " WHERE table_id = ? AND seat = ?"
            + where,
            (
                channel_id,
                message_id,
                version,
                *((version,) if told else ()),
                table_id,
                seat,
                *(() if if_message is None else (if_message,)),
            ),
        )

    async def set_ping(
        self, table_id: int, seats: Mapping[int, int], message_id: int | None, *, notified: bool = False
    ) -> None:
        """Seat -> the decision version `message_id` pinged it for (None clears the seats' ping).
        `notified`: each seat has been told of that decision too (`mark_notified`, in the same statement)."""
        if not seats:
            return
        if notified and message_id:
            await self._write_each(
                "UPDATE seats SET ping_message_id = ?, ping_version = ?,"
                " notified_version = GREATEST(notified_version, ?) WHERE table_id = ? AND seat = ?",
                [(message_id, version, version, table_id, seat) for seat, version in seats.items()],
            )
            return
        await self._write_each(
            "UPDATE seats SET ping_message_id = ?, ping_version = ? WHERE table_id = ? AND seat = ?",
            [(message_id, version if message_id else None, table_id, seat) for seat, version in seats.items()],
        )

    async def move_to_thread(self, table_id: int, thread_id: int) -> None:
        """The game now plays in `thread_id`; the channel it came from is kept as its parent."""
        async with self.transaction() as tx:
            await tx.execute(
                "UPDATE game_tables SET parent_channel_id = channel_id, channel_id = ? WHERE id = ?",
                (thread_id, table_id),
            )

    async def mark_glimpsed(self, table_id: int, seat: int, version: int, *, if_at_least: int | None = None) -> None:
        """The seat has seen every momentary reveal up to `version` (only if it had caught up to
        `if_at_least`, when given: a mover who saw their own reveal, but not what came before it)."""
        await self._write(
            "UPDATE seats SET glimpsed_version = GREATEST(glimpsed_version, ?)"
            " WHERE table_id = ? AND seat = ? AND glimpsed_version >= ?",
            (version, table_id, seat, -1 if if_at_least is None else if_at_least),
        )

    async def set_locale(self, table_id: int, user_id: int, locale: str) -> None:
        """Remember the Discord locale a player last used at this table (their DMs follow it)."""
        await self._write(
            "UPDATE seats SET locale = ? WHERE table_id = ? AND user_id = ? AND (locale IS NULL OR locale <> ?)",
            (locale, table_id, user_id, locale),
        )

    async def set_notify(self, table_id: int, seat: int, level: str) -> None:
        async with self.transaction() as tx:
            await tx.execute("UPDATE seats SET notify = ? WHERE table_id = ? AND seat = ?", (level, table_id, seat))

    async def set_unreachable(self, table_id: int, at: float | None) -> None:
        async with self.transaction() as tx:
            await tx.execute("UPDATE game_tables SET unreachable_at = ? WHERE id = ?", (at, table_id))

    async def mark_end_announced(self, table_id: int, message_id: int | None, at: float | None = None) -> None:
        """The game-over message of a table was posted (or, for a table closed by a command, is not owed)."""
        async with self.transaction() as tx:
            await tx.execute(
                "UPDATE game_tables SET end_announced_at = ?, end_message_id = COALESCE(?, end_message_id)"
                " WHERE id = ?",
                (time.time() if at is None else at, message_id, table_id),
            )

    async def set_rematch(self, table_id: int, rematch_id: int) -> None:
        async with self.transaction() as tx:
            await tx.execute("UPDATE game_tables SET rematch_id = ? WHERE id = ?", (rematch_id, table_id))

    async def interaction_applied(self, interaction_id: int) -> bool:
        return await self._fetchone("SELECT 1 FROM actions WHERE interaction_id = ?", (interaction_id,)) is not None

    def _awaited(self, condition: str) -> str:
        """SQL: some awaited seat of table `t` (as `s`) meets `condition`."""
        return (
            f"EXISTS (SELECT 1 FROM {self.AWAITED_EACH} JOIN seats s ON s.table_id = t.id"
            f" AND s.seat = CAST(a.key AS INTEGER) WHERE {condition})"
        )

    def _due_where(self, autopilot: bool) -> str:
        """SQL: table `t` is due for a reminder or for autopilot (every `?` in it is the time now)."""
        away = "EXISTS (SELECT 1 FROM away w WHERE w.user_id = s.user_id AND w.until > ?)"
        human = "s.is_bot = 0 AND s.resigned = 0"
        if autopilot:  # quiet long enough, or an awaited human is away (from the first missing decision)
            where = (
                f"t.autopilot_after > 0 AND ((? - t.updated_at >= t.autopilot_after AND {self._awaited(human)})"
                f" OR {self._awaited(f'{human} AND {away}')})"
            )
        else:  # a reminder is for the awaited humans who are not away
            where = (
                "? - GREATEST(t.updated_at, COALESCE(t.reminded_at, 0)) >= t.reminder_after"
                f" AND {self._awaited(f'{human} AND NOT {away}')}"
            )
        return "t.status = 'active' AND t.unreachable_at IS NULL AND " + where

    async def due_tables(self, now: float, *, autopilot: bool) -> list[TableRow]:
        """Active, reachable tables with an awaited human who has been quiet long enough: for a reminder
        (since the last move or reminder, the table's reminder time) or for autopilot (since the last
        move, the table's autopilot time). Chosen in SQL, so a pass loads only the tables it acts on."""
        where = self._due_where(autopilot)
        sql = f"SELECT t.* FROM game_tables t WHERE {where} ORDER BY t.id"
        rows = await self._fetch(sql, (now,) * where.count("?"))
        return [await self._table(r) for r in rows]

    # -- claims: each table's background work runs in one process ----------------------------------
    CLAIM_KINDS = ("remind", "autopilot", "lagging", "bots")
    # PostgreSQL: rows another process is claiming right now are skipped, not waited for
    CLAIM_SKIP: ClassVar[str] = ""

    def _claim_where(self, kind: str) -> str:
        """SQL: table `t` needs background work `kind` (every `?` in it is the time now)."""
        if kind == "remind":
            return self._due_where(autopilot=False)
        if kind == "autopilot":
            return self._due_where(autopilot=True)
        if kind == "lagging":
            return self._lagging_where()
        if kind == "bots":  # a restart: tables where a bot (or a resigned seat) owes the next decision
            return "t.status = 'active' AND t.unreachable_at IS NULL AND " + self._awaited(
                "s.is_bot = 1 OR s.resigned = 1"
            )
        raise ValueError(f"unknown claim {kind!r}")

    async def claim(
        self, kind: str, now: float, owner: str, lease: float, *, after: int = 0, limit: int = 20
    ) -> list[TableRow]:
        """Claim up to `limit` tables (ids above `after`, in order) that need background work `kind` (one
        of CLAIM_KINDS) and that no live lease holds, until `now + lease`; return them. The condition and
        the claim are one write, so two processes never both claim a table, and a table another process
        just dealt with is no longer due when this one looks. `release` gives a claim back once its work
        is done; small batches keep every claim's work well within its lease."""
        where = self._claim_where(kind)
        async with self.transaction() as tx:
            rows = await tx.fetch(
                "UPDATE game_tables SET claimed_by = ?, claimed_until = ? WHERE id IN ("
                f" SELECT t.id FROM game_tables t WHERE {where} AND t.id > ?"
                f"  AND (t.claimed_until IS NULL OR t.claimed_until <= ?) ORDER BY t.id LIMIT ?{self.CLAIM_SKIP})"
                " RETURNING id",
                (owner, now + lease, *(now,) * where.count("?"), after, now, limit),
            )
        ids = [int(r[0]) for r in rows]
        if not ids:
            return []
        found = await self._fetch(
            f"SELECT * FROM game_tables WHERE id IN ({', '.join('?' * len(ids))}) ORDER BY id", ids
        )
        return await self._tables(found)

    async def release(self, table_ids: Iterable[int], owner: str) -> None:
        """Give back `owner`'s claims on these tables, in one write (a claim since taken over by another
        process stays)."""
        ids = list(table_ids)
        if not ids:
            return
        async with self.transaction() as tx:
            await tx.execute(
                "UPDATE game_tables SET claimed_by = NULL, claimed_until = NULL"
                f" WHERE claimed_by = ? AND id IN ({', '.join('?' * len(ids))})",
                (owner, *ids),
            )

    # -- followers ---------------------------------------------------------------------------------
    async def set_follow(self, table_id: int, user_id: int, every_board: bool | None) -> None:
        """Follow a table (at its end, or `every_board`), or stop (None)."""
        async with self.transaction() as tx:
            if every_board is None:
                await tx.execute("DELETE FROM followers WHERE table_id = ? AND user_id = ?", (table_id, user_id))
            else:
                await tx.execute(
                    "INSERT INTO followers (table_id, user_id, every_board) VALUES (?, ?, ?)"
                    " ON CONFLICT(table_id, user_id) DO UPDATE SET every_board = excluded.every_board",
                    (table_id, user_id, int(every_board)),
                )

    async def followers(self, table_id: int) -> dict[int, bool]:
        """User -> whether they follow every board (else only the end)."""
        rows = await self._fetch("SELECT user_id, every_board FROM followers WHERE table_id = ?", (table_id,))
        return {int(r[0]): bool(r[1]) for r in rows}

    # -- time off ----------------------------------------------------------------------------------
    async def away_until(self, user_ids: Iterable[int], now: float) -> dict[int, float]:
        """User -> until when they are away, for those of `user_ids` who are away now."""
        ids = list(user_ids)
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        rows = await self._fetch(
            f"SELECT user_id, until FROM away WHERE until > ? AND user_id IN ({marks})", (now, *ids)
        )
        return {int(r[0]): float(r[1]) for r in rows}

    async def days_away(self, user_id: int, month: str) -> float:
        row = await self._fetchone("SELECT days FROM away_days WHERE user_id = ? AND month = ?", (user_id, month))
        return float(row[0]) if row else 0.0

    async def set_away(self, user_id: int, since: float, until: float, month: str, days: float) -> None:
        """Away from `since` to `until`; `days` (negative: days given back) count against `month`."""
        async with self.transaction() as tx:
            if until > since:
                await tx.execute(
                    "INSERT INTO away (user_id, since, until) VALUES (?, ?, ?)"
                    " ON CONFLICT(user_id) DO UPDATE SET since = excluded.since, until = excluded.until",
                    (user_id, since, until),
                )
            else:
                await tx.execute("DELETE FROM away WHERE user_id = ?", (user_id,))
            await tx.execute(
                "INSERT INTO away_days (user_id, month, days) VALUES (?, ?, GREATEST(0, CAST(? AS DOUBLE PRECISION)))"
                " ON CONFLICT(user_id, month) DO UPDATE SET days = GREATEST(0, away_days.days + excluded.days)",
                (user_id, month, float(days)),
            )

    def _lagging_where(self) -> str:
        """SQL: table `t`'s board, an awaited human's notice or its game-over message is behind."""
        return (
            "t.unreachable_at IS NULL AND ("
            " (t.status IN ('active', 'finished') AND t.shown_version < t.version)"
            " OR (t.status IN ('finished', 'abandoned') AND t.end_announced_at IS NULL)"
            " OR (t.status = 'active' AND "
            + self._awaited("s.is_bot = 0 AND s.resigned = 0 AND s.notified_version < CAST(a.value AS INTEGER)")
            + "))"
        )

    async def lagging_tables(self) -> list[TableRow]:
        """Tables whose board, an awaited human's notice or the game-over message is behind the stored state
        (in SQL, not Python)."""
        rows = await self._fetch(f"SELECT t.* FROM game_tables t WHERE {self._lagging_where()} ORDER BY t.id")
        return [await self._table(r) for r in rows]

    async def set_reminder(
        self,
        table_id: int,
        *,
        after: int | None = None,
        reminded_at: float | None = None,
        autopilot_after: int | None = None,
    ) -> None:
        async with self.transaction() as tx:
            if autopilot_after is not None:
                await tx.execute("UPDATE game_tables SET autopilot_after = ? WHERE id = ?", (autopilot_after, table_id))
            if after is not None:
                await tx.execute("UPDATE game_tables SET reminder_after = ? WHERE id = ?", (after, table_id))
            if reminded_at is not None:
                await tx.execute("UPDATE game_tables SET reminded_at = ? WHERE id = ?", (reminded_at, table_id))

    # -- playing ---------------------------------------------------------------------------------
    async def apply(self, table_id: int, **move: Any) -> int:
        """Append the action and store the state it produced, atomically; return the new version
        (`apply_table` returns the table as written). The move's fields and errors are `_apply`'s:
        StaleAction when the table moved on since `expected_version`, DuplicateInteraction when
        `interaction_id` already produced an action."""
        row, _ = await self._apply(table_id, **move)
        return int(row["version"])

    async def apply_table(self, table_id: int, *, seats: Sequence[SeatRow], **move: Any) -> TableRow:
        """`apply`, returning the table as the move left it, without reading it again: the table's row
        comes back from its own UPDATE (in the move's transaction), its state parsed once into the
        cache (so the reads that follow at this version parse nothing; the rules' own dict is not used
        instead, as it may hold what JSON does not keep, such as a translatable `Msg` for a `str`), and
        the seats are `seats` (as read for the move) with what the move changed in them (bot memories,
        a resignation). Other writers' changes to seat fields since `seats` were read (a delivery's
        notified version or panel ids) are not in them: read the table for those."""
        row, memories = await self._apply(table_id, **move)
        resigned = move.get("resign_seat")
        mover, panel = move["seat"], move.get("panel_message_id")
        new_seats = tuple(
            replace(
                s,
                bot_memory=json.loads(memories[s.seat]) if s.seat in memories else s.bot_memory,
                resigned=s.resigned or s.seat == resigned,
                panel_version=(
                    move["awaited"].get(mover)
                    if s.seat == mover and panel is not None and s.panel_message_id == panel
                    else s.panel_version
                ),
            )
            if s.seat in memories or s.seat == resigned or s.seat == mover
            else s
            for s in seats
        )
        return self._table_of(row, new_seats)

    async def _apply(
        self,
        table_id: int,
        *,
        expected_version: int,
        seat: int,
        action: Mapping[str, Any],
        events: list[dict[str, Any]],
        state: Mapping[str, Any],
        awaited: Mapping[int, int],
        status: str = "active",
        outcome: Mapping[str, Any] | None = None,
        bot_memories: Mapping[int, Mapping[str, Any]] | None = None,
        kind: str = "move",
        resign_seat: int | None = None,
        interaction_id: int | None = None,
        undo_state: Mapping[str, Any] | None = None,
        undo_refusal: str | None = None,
        panel_message_id: int | None = None,
    ) -> tuple[Any, dict[int, str]]:
        """The move's transaction: (the table's row as written, seat -> the bot memory JSON written).

        `undo_state` is the state from before an action its author may take back; `undo_refusal` says
        why one may not. Raises StaleAction when the table moved on since `expected_version`, and
        DuplicateInteraction when `interaction_id` already produced an action (in both cases nothing is
        written). Both hold across processes: the version check and the unique interaction id are the
        database's own rules.

        `panel_message_id` is the mover's DM panel the move was clicked on (it is answered in place):
        its decision version becomes the seat's new one (NULL when none is awaited from it), in this
        transaction, so a delivery that reads the table at any moment never sees that panel as one of
        a decision already made (it would retire it as "Done" while it is being answered).
        """
        now = time.time()
        new_version = expected_version + 1
        text = _dumps(state)
        memories = {s: _dumps(memory) for s, memory in (bot_memories or {}).items()}
        update: Statement = (
            "UPDATE game_tables SET version = ?, state = ?, awaited = ?, status = ?, outcome = ?,"
            " updated_at = ?, reminded_at = NULL WHERE id = ? AND version = ? AND status = 'active'"
            " RETURNING *",
            (
                new_version,
                text,
                _dumps(awaited),
                status,
                _dumps(outcome) if outcome is not None else None,
                now,
                table_id,
                expected_version,
            ),
        )
        insert: Statement = (
            "INSERT INTO actions (table_id, seq, seat, kind, action, events, at, interaction_id,"
            " undo_state, undo_refusal) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                table_id,
                new_version,
                seat,
                kind,
                _dumps(action),
                _dumps(events),
                now,
                interaction_id,
                _dumps(undo_state) if undo_state is not None else None,
                undo_refusal,
            ),
        )
        seat_writes: list[Statement] = []
        if memories:  # every changed memory in one statement (Dawn Under's bots note every move)
            cases = " ".join("WHEN ? THEN ?" for _ in memories)
            seat_writes.append(
                (
                    f"UPDATE seats SET bot_memory = CASE seat {cases} END"
                    f" WHERE table_id = ? AND seat IN ({', '.join('?' * len(memories))})",
                    (*(x for s, m in memories.items() for x in (s, m)), table_id, *memories),
                )
            )
        if resign_seat is not None:
            seat_writes.append(
                ("UPDATE seats SET resigned = 1 WHERE table_id = ? AND seat = ?", (table_id, resign_seat))
            )
        if panel_message_id is not None:
            seat_writes.append(
                (
                    "UPDATE seats SET panel_version = ? WHERE table_id = ? AND seat = ? AND panel_message_id = ?",
                    (awaited.get(seat), table_id, seat, panel_message_id),
                )
            )
        row = await self._move_transaction(update, insert, seat_writes)
        return row, memories

    async def _move_transaction(self, update: Statement, insert: Statement, rest: Sequence[Statement]) -> Any:
        """A move's statements in one transaction: `update` (a query) must return exactly one row (the
        table at the expected version; else StaleAction), then `insert` (the action: DuplicateInteraction
        when its interaction id is taken), then `rest`; nothing is written unless all of them are.
        Return `update`'s row. An engine may run the whole transaction in one round trip (SQLite)."""
        async with self.transaction() as tx:
            rows = await tx.fetch(*update)
            if len(rows) != 1:
                raise StaleAction(STALE_TABLE)
            try:
                await tx.execute(*insert)
            except Exception as err:
                if self._is_integrity_error(err):
                    raise DuplicateInteraction(DUPLICATE) from err
                raise
            for statement in rest:
                await tx.execute(*statement)
        return rows[0]

    # -- settings kept by the bot itself -----------------------------------------------------------
    async def get_meta(self, key: str) -> str | None:
        row = await self._fetchone("SELECT value FROM bot_meta WHERE key = ?", (key,))
        return str(row[0]) if row else None

    async def set_meta(self, key: str, value: str) -> None:
        async with self.transaction() as tx:
            await tx.execute(
                "INSERT INTO bot_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, value),
            )


_QMARK = re.compile(r"\?")


def numbered(sql: str) -> str:
    """`?` parameters as PostgreSQL's `$1, $2, …` (the shared queries hold no `?` inside literals)."""
    count = 0

    def number(_: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return f"${count}"

    return _QMARK.sub(number, sql)
