"""The aiosqlite store: WAL, numbered migrations, and one transaction per applied move.

One connection serves the process; an asyncio lock keeps each transaction's statements together
(aiosqlite runs them on one thread, but coroutines could otherwise interleave inside a transaction).
Optimistic concurrency: a move commits only `WHERE version = expected`, so a stale or concurrent
write is rejected, never merged.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Iterable, Mapping
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any

import aiosqlite

from bot.rules.errors import StaleAction
from bot.store.models import ActionRow, FinishedRow, FinishedSeat, SeatRow, TableRow


class TableConflict(Exception):
    """A unique rule of the store was violated (e.g. a second open table in a channel)."""


class DuplicateInteraction(Exception):
    """This interaction already produced an action (the same click delivered twice): nothing was written."""


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def migrations() -> list[tuple[int, str]]:
    """The numbered SQL scripts shipped in bot/store/migrations, in order."""
    out = []
    for entry in resources.files("bot.store").joinpath("migrations").iterdir():
        name = entry.name
        if name.endswith(".sql") and name[:4].isdigit():
            out.append((int(name[:4]), entry.read_text()))
    return sorted(out)


class StoreError(Exception):
    """The database cannot be opened or migrated; the message names the file and the reason."""


class Store:
    """Tables, seats and the action log behind a narrow async interface."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._db = conn
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: Path | str, *, busy_timeout: float = 5.0) -> Store:
        """Open (creating it if needed) and migrate the database at `path`.

        Raises StoreError naming the path when it cannot be opened (a bad path, a locked or corrupt
        file, a failed migration); the connection is closed first, so its worker thread does not keep
        the process alive. `busy_timeout`: seconds to wait for another process's lock.
        """
        conn: aiosqlite.Connection | None = None
        try:
            if str(path) != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            conn = await aiosqlite.connect(str(path), isolation_level=None, timeout=busy_timeout)
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
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")

    async def migrate(self) -> int:
        """Apply every migration newer than the database; return the schema version."""
        await self._db.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at REAL)"
        )
        async with self._db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations") as cur:
            row = await cur.fetchone()
        current = int(row[0]) if row else 0
        for number, sql in migrations():
            if number <= current:
                continue
            async with self.transaction() as db:
                for statement in sql.split(";\n"):
                    if statement.strip():
                        await db.execute(statement)
                await db.execute("INSERT INTO schema_migrations VALUES (?, ?)", (number, time.time()))
            current = number
        return current

    # -- reading ---------------------------------------------------------------------------------
    async def get_table(self, table_id: int) -> TableRow | None:
        async with self._db.execute("SELECT * FROM game_tables WHERE id = ?", (table_id,)) as cur:
            row = await cur.fetchone()
        return await self._table(row) if row else None

    async def open_table_in_channel(self, channel_id: int) -> TableRow | None:
        async with self._db.execute(
            "SELECT * FROM game_tables WHERE channel_id = ? AND status IN ('lobby', 'active')", (channel_id,)
        ) as cur:
            row = await cur.fetchone()
        return await self._table(row) if row else None

    async def latest_ended_in_channel(self, channel_id: int) -> TableRow | None:
        """The channel's most recently ended (finished or abandoned) table, if any."""
        async with self._db.execute(
            "SELECT * FROM game_tables WHERE channel_id = ? AND status IN ('finished', 'abandoned')"
            " ORDER BY updated_at DESC, id DESC LIMIT 1",
            (channel_id,),
        ) as cur:
            row = await cur.fetchone()
        return await self._table(row) if row else None

    async def active_tables(self) -> list[TableRow]:
        async with self._db.execute("SELECT * FROM game_tables WHERE status = 'active' ORDER BY id") as cur:
            rows = await cur.fetchall()
        return [await self._table(r) for r in rows]

    async def tables_of_user(self, user_id: int) -> list[TableRow]:
        async with self._db.execute(
            "SELECT t.* FROM game_tables t JOIN seats s ON s.table_id = t.id "
            "WHERE s.user_id = ? AND t.status IN ('lobby', 'active') ORDER BY t.updated_at DESC",
            (user_id,),
        ) as cur:
            rows = await cur.fetchall()
        return [await self._table(r) for r in rows]

    async def finished_tables(
        self, guild_id: int, *, after: tuple[float, int] | None = None, game: str | None = None
    ) -> tuple[int, list[FinishedRow]]:
        """(how many finished tables the server has, those that ended after `after` — (updated_at, id) —
        in the order they ended, each with its seats): one query, however many tables there are."""
        at, last = after if after is not None else (-1.0, -1)
        only = " AND game = :game" if game else ""
        sql = (
            "SELECT c.total, t.id, t.game, t.options, t.outcome, t.updated_at,"
            " (SELECT json_group_array(json_array(s.seat, s.user_id, s.name, s.is_bot, s.resigned))"
            "  FROM seats s WHERE s.table_id = t.id) AS seat_list"
            " FROM (SELECT COUNT(*) AS total FROM game_tables"
            f"  WHERE guild_id = :guild AND status = 'finished'{only}) c"
            " LEFT JOIN game_tables t ON t.guild_id = :guild AND t.status = 'finished'"
            f"  {only.replace('game', 't.game')}"
            "  AND (t.updated_at > :at OR (t.updated_at = :at AND t.id > :last))"
            " ORDER BY t.updated_at, t.id"
        )
        async with self._db.execute(sql, {"guild": guild_id, "game": game, "at": at, "last": last}) as cur:
            rows = list(await cur.fetchall())
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
        async with self._db.execute(
            "SELECT COUNT(*), COALESCE(SUM(x.gap), 0) FROM ("
            " SELECT a.table_id, a.seat, a.kind, a.at - LAG(a.at) OVER (PARTITION BY a.table_id ORDER BY a.seq)"
            "  AS gap FROM actions a WHERE a.table_id IN (SELECT s.table_id FROM seats s JOIN game_tables t"
            "  ON t.id = s.table_id WHERE s.user_id = :user AND s.is_bot = 0 AND t.guild_id = :guild"
            "  AND t.status = 'finished')"
            ") x JOIN seats s ON s.table_id = x.table_id AND s.seat = x.seat"
            " WHERE s.user_id = :user AND x.kind = 'move' AND x.gap IS NOT NULL",
            {"user": user_id, "guild": guild_id},
        ) as cur:
            row = await cur.fetchone()
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
        async with self._db.execute(sql, args) as cur:
            rows = list(await cur.fetchall())
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

    async def undo_state(self, table_id: int, seq: int) -> dict[str, Any] | None:
        """The state from before action `seq`, kept when that action may be taken back (else None)."""
        async with self._db.execute(
            "SELECT undo_state FROM actions WHERE table_id = ? AND seq = ?", (table_id, seq)
        ) as cur:
            row = await cur.fetchone()
        return json.loads(row[0]) if row and row[0] is not None else None

    async def _table(self, row: aiosqlite.Row) -> TableRow:
        async with self._db.execute("SELECT * FROM seats WHERE table_id = ? ORDER BY seat", (row["id"],)) as cur:
            seat_rows = await cur.fetchall()
        seats = tuple(
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
            state=json.loads(row["state"]) if row["state"] else None,
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
        )

    # -- lobby -----------------------------------------------------------------------------------
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
            async with self.transaction() as db:
                cur = await db.execute(
                    "INSERT INTO game_tables (guild_id, channel_id, game, options, seed, host_id, status,"
                    " reminder_after, created_at, updated_at, wants_thread, seed_salt, lang)"
                    " VALUES (?, ?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?)",
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
                table_id = cur.lastrowid
                await db.execute(
                    "INSERT INTO seats (table_id, seat, user_id, name, locale) VALUES (?, 0, ?, ?, ?)",
                    (table_id, host_id, host_name, host_locale),
                )
        except aiosqlite.IntegrityError as err:
            raise TableConflict("This channel already has an open table.") from err
        assert table_id is not None
        table = await self.get_table(table_id)
        assert table is not None
        return table

    async def set_seats(self, table_id: int, seats: Iterable[SeatRow]) -> None:
        """Replace a lobby's seats (join/leave/add bot renumber them)."""
        async with self.transaction() as db:
            await db.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
            for s in seats:
                await db.execute(
                    "INSERT INTO seats (table_id, seat, user_id, name, is_bot, locale) VALUES (?, ?, ?, ?, ?, ?)",
                    (table_id, s.seat, s.user_id, s.name, int(s.is_bot), s.locale),
                )
            await db.execute("UPDATE game_tables SET updated_at = ? WHERE id = ?", (time.time(), table_id))

    async def start_table(self, table_id: int, state: Mapping[str, Any], awaited: Mapping[int, int], seed: int) -> None:
        async with self.transaction() as db:
            cur = await db.execute(
                "UPDATE game_tables SET status = 'active', state = ?, awaited = ?, seed = ?, version = 0,"
                " updated_at = ? WHERE id = ? AND status = 'lobby'",
                (_dumps(state), _dumps(awaited), seed, time.time(), table_id),
            )
            if cur.rowcount != 1:
                raise StaleAction("This table has already started or was closed.")
            await db.execute("UPDATE seats SET glimpsed_version = 0 WHERE table_id = ?", (table_id,))

    async def set_options(self, table_id: int, options: Mapping[str, str]) -> None:
        async with self.transaction() as db:
            await db.execute(
                "UPDATE game_tables SET options = ?, updated_at = ? WHERE id = ? AND status = 'lobby'",
                (_dumps(dict(options)), time.time(), table_id),
            )

    async def set_status(self, table_id: int, status: str, outcome: Mapping[str, Any] | None = None) -> None:
        """Close a table by a command (cancel, abandon): the command's own answer tells the channel, so
        no game-over message is owed."""
        now = time.time()
        announced = now if status not in ("lobby", "active") else None
        async with self.transaction() as db:
            await db.execute(
                "UPDATE game_tables SET status = ?, outcome = COALESCE(?, outcome), updated_at = ?,"
                " end_announced_at = COALESCE(end_announced_at, ?) WHERE id = ?",
                (status, _dumps(outcome) if outcome is not None else None, now, announced, table_id),
            )

    async def set_message(self, table_id: int, *, lobby: int | None = None, board: int | None = None) -> None:
        async with self.transaction() as db:
            if lobby is not None:
                await db.execute("UPDATE game_tables SET lobby_message_id = ? WHERE id = ?", (lobby, table_id))
            if board is not None:
                await db.execute("UPDATE game_tables SET board_message_id = ? WHERE id = ?", (board, table_id))

    async def set_dm_flags(self, table_id: int, seat: int, *, closed: bool, told: bool) -> None:
        async with self.transaction() as db:
            await db.execute(
                "UPDATE seats SET dm_closed = ?, dm_told = ?, dm_closed_at = ? WHERE table_id = ? AND seat = ?",
                (int(closed), int(told), time.time() if closed else None, table_id, seat),
            )

    # -- delivery ----------------------------------------------------------------------------------
    async def mark_shown(self, table_id: int, version: int) -> None:
        """The channel's board shows `version` (never moves back: deliveries may finish out of order)."""
        async with self.transaction() as db:
            await db.execute(
                "UPDATE game_tables SET shown_version = MAX(shown_version, ?), unreachable_at = NULL WHERE id = ?",
                (version, table_id),
            )

    async def mark_notified(self, table_id: int, seats: Mapping[int, int]) -> None:
        """Seat -> the awaited-since version of the decision it has now been told of."""
        if not seats:
            return
        async with self.transaction() as db:
            for seat, version in seats.items():
                await db.execute(
                    "UPDATE seats SET notified_version = MAX(notified_version, ?) WHERE table_id = ? AND seat = ?",
                    (version, table_id, seat),
                )

    async def set_panel_message(
        self, table_id: int, seat: int, channel_id: int | None, message_id: int | None, version: int | None = None
    ) -> None:
        async with self.transaction() as db:
            await db.execute(
                "UPDATE seats SET panel_channel_id = ?, panel_message_id = ?, panel_version = ?"
                " WHERE table_id = ? AND seat = ?",
                (channel_id, message_id, version, table_id, seat),
            )

    async def set_ping(self, table_id: int, seats: Mapping[int, int], message_id: int | None) -> None:
        """Seat -> the decision version `message_id` pinged it for (None clears the seats' ping)."""
        async with self.transaction() as db:
            for seat, version in seats.items():
                await db.execute(
                    "UPDATE seats SET ping_message_id = ?, ping_version = ? WHERE table_id = ? AND seat = ?",
                    (message_id, version if message_id else None, table_id, seat),
                )

    async def move_to_thread(self, table_id: int, thread_id: int) -> None:
        """The game now plays in `thread_id`; the channel it came from is kept as its parent."""
        async with self.transaction() as db:
            await db.execute(
                "UPDATE game_tables SET parent_channel_id = channel_id, channel_id = ? WHERE id = ?",
                (thread_id, table_id),
            )

    async def mark_glimpsed(self, table_id: int, seat: int, version: int, *, if_at_least: int | None = None) -> None:
        """The seat has seen every momentary reveal up to `version` (only if it had caught up to
        `if_at_least`, when given: a mover who saw their own reveal, but not what came before it)."""
        async with self.transaction() as db:
            await db.execute(
                "UPDATE seats SET glimpsed_version = MAX(glimpsed_version, ?)"
                " WHERE table_id = ? AND seat = ? AND glimpsed_version >= ?",
                (version, table_id, seat, -1 if if_at_least is None else if_at_least),
            )

    async def set_locale(self, table_id: int, user_id: int, locale: str) -> None:
        """Remember the Discord locale a player last used at this table (their DMs follow it)."""
        async with self.transaction() as db:
            await db.execute(
                "UPDATE seats SET locale = ? WHERE table_id = ? AND user_id = ? AND locale IS NOT ?",
                (locale, table_id, user_id, locale),
            )

    async def set_notify(self, table_id: int, seat: int, level: str) -> None:
        async with self.transaction() as db:
            await db.execute("UPDATE seats SET notify = ? WHERE table_id = ? AND seat = ?", (level, table_id, seat))

    async def set_unreachable(self, table_id: int, at: float | None) -> None:
        async with self.transaction() as db:
            await db.execute("UPDATE game_tables SET unreachable_at = ? WHERE id = ?", (at, table_id))

    async def mark_end_announced(self, table_id: int, message_id: int | None, at: float | None = None) -> None:
        """The game-over message of a table was posted (or, for a table closed by a command, is not owed)."""
        async with self.transaction() as db:
            await db.execute(
                "UPDATE game_tables SET end_announced_at = ?, end_message_id = COALESCE(?, end_message_id)"
                " WHERE id = ?",
                (time.time() if at is None else at, message_id, table_id),
            )

    async def set_rematch(self, table_id: int, rematch_id: int) -> None:
        async with self.transaction() as db:
            await db.execute("UPDATE game_tables SET rematch_id = ? WHERE id = ?", (rematch_id, table_id))

    async def interaction_applied(self, interaction_id: int) -> bool:
        async with self._db.execute("SELECT 1 FROM actions WHERE interaction_id = ?", (interaction_id,)) as cur:
            return await cur.fetchone() is not None

    async def due_tables(self, now: float, *, autopilot: bool) -> list[TableRow]:
        """Active, reachable tables with an awaited human who has been quiet long enough: for a reminder
        (since the last move or reminder, the table's reminder time) or for autopilot (since the last
        move, the table's autopilot time). Chosen in SQL, so a pass loads only the tables it acts on."""
        away = "EXISTS (SELECT 1 FROM away w WHERE w.user_id = s.user_id AND w.until > :now)"
        human = "s.is_bot = 0 AND s.resigned = 0"

        def awaited(condition: str) -> str:
            return (
                "EXISTS (SELECT 1 FROM json_each(t.awaited) a JOIN seats s ON s.table_id = t.id"
                f" AND s.seat = CAST(a.key AS INTEGER) WHERE {condition})"
            )

        if autopilot:  # quiet long enough, or an awaited human is away (from the first missing decision)
            where = (
                f"t.autopilot_after > 0 AND ((:now - t.updated_at >= t.autopilot_after AND {awaited(human)})"
                f" OR {awaited(f'{human} AND {away}')})"
            )
        else:  # a reminder is for the awaited humans who are not away
            where = (
                ":now - MAX(t.updated_at, COALESCE(t.reminded_at, 0)) >= t.reminder_after"
                f" AND {awaited(f'{human} AND NOT {away}')}"
            )
        async with self._db.execute(
            "SELECT t.* FROM game_tables t WHERE t.status = 'active' AND t.unreachable_at IS NULL AND "
            + where
            + " ORDER BY t.id",
            {"now": now},
        ) as cur:
            rows = await cur.fetchall()
        return [await self._table(r) for r in rows]

    # -- followers ---------------------------------------------------------------------------------
    async def set_follow(self, table_id: int, user_id: int, every_board: bool | None) -> None:
        """Follow a table (at its end, or `every_board`), or stop (None)."""
        async with self.transaction() as db:
            if every_board is None:
                await db.execute("DELETE FROM followers WHERE table_id = ? AND user_id = ?", (table_id, user_id))
            else:
                await db.execute(
                    "INSERT INTO followers (table_id, user_id, every_board) VALUES (?, ?, ?)"
                    " ON CONFLICT(table_id, user_id) DO UPDATE SET every_board = excluded.every_board",
                    (table_id, user_id, int(every_board)),
                )

    async def followers(self, table_id: int) -> dict[int, bool]:
        """User -> whether they follow every board (else only the end)."""
        async with self._db.execute(
            "SELECT user_id, every_board FROM followers WHERE table_id = ?", (table_id,)
        ) as cur:
            return {int(r[0]): bool(r[1]) for r in await cur.fetchall()}

    # -- time off ----------------------------------------------------------------------------------
    async def away_until(self, user_ids: Iterable[int], now: float) -> dict[int, float]:
        """User -> until when they are away, for those of `user_ids` who are away now."""
        ids = list(user_ids)
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        async with self._db.execute(
            f"SELECT user_id, until FROM away WHERE until > ? AND user_id IN ({marks})", (now, *ids)
        ) as cur:
            return {int(r[0]): float(r[1]) for r in await cur.fetchall()}

    async def days_away(self, user_id: int, month: str) -> float:
        async with self._db.execute(
            "SELECT days FROM away_days WHERE user_id = ? AND month = ?", (user_id, month)
        ) as cur:
            row = await cur.fetchone()
        return float(row[0]) if row else 0.0

    async def set_away(self, user_id: int, since: float, until: float, month: str, days: float) -> None:
        """Away from `since` to `until`; `days` (negative: days given back) count against `month`."""
        async with self.transaction() as db:
            if until > since:
                await db.execute(
                    "INSERT INTO away (user_id, since, until) VALUES (?, ?, ?)"
                    " ON CONFLICT(user_id) DO UPDATE SET since = excluded.since, until = excluded.until",
                    (user_id, since, until),
                )
            else:
                await db.execute("DELETE FROM away WHERE user_id = ?", (user_id,))
            await db.execute(
                "INSERT INTO away_days (user_id, month, days) VALUES (?, ?, MAX(0, ?))"
                " ON CONFLICT(user_id, month) DO UPDATE SET days = MAX(0, days + excluded.days)",
                (user_id, month, days),
            )

    async def lagging_tables(self) -> list[TableRow]:
        """Tables whose board, an awaited human's notice or the game-over message is behind the stored state
        (in SQL, not Python)."""
        async with self._db.execute(
            "SELECT t.* FROM game_tables t WHERE t.unreachable_at IS NULL AND ("
            " (t.status IN ('active', 'finished') AND t.shown_version < t.version)"
            " OR (t.status IN ('finished', 'abandoned') AND t.end_announced_at IS NULL)"
            " OR (t.status = 'active' AND EXISTS ("
            "   SELECT 1 FROM json_each(t.awaited) a JOIN seats s"
            "   ON s.table_id = t.id AND s.seat = CAST(a.key AS INTEGER)"
            "   WHERE s.is_bot = 0 AND s.resigned = 0 AND s.notified_version < a.value))"
            ") ORDER BY t.id"
        ) as cur:
            rows = await cur.fetchall()
        return [await self._table(r) for r in rows]

    async def set_reminder(
        self,
        table_id: int,
        *,
        after: int | None = None,
        reminded_at: float | None = None,
        autopilot_after: int | None = None,
    ) -> None:
        async with self.transaction() as db:
            if autopilot_after is not None:
                await db.execute("UPDATE game_tables SET autopilot_after = ? WHERE id = ?", (autopilot_after, table_id))
            if after is not None:
                await db.execute("UPDATE game_tables SET reminder_after = ? WHERE id = ?", (after, table_id))
            if reminded_at is not None:
                await db.execute("UPDATE game_tables SET reminded_at = ? WHERE id = ?", (reminded_at, table_id))

    # -- playing ---------------------------------------------------------------------------------
    async def apply(
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
    ) -> int:
        """Append the action and store the state it produced, atomically; return the new version.

        `undo_state` is the state from before an action its author may take back; `undo_refusal` says
        why one may not. Raises StaleAction when the table moved on since `expected_version`, and DuplicateInteraction
        when `interaction_id` already produced an action (in both cases nothing is written).
        """
        now = time.time()
        new_version = expected_version + 1
        async with self.transaction() as db:
            cur = await db.execute(
                "UPDATE game_tables SET version = ?, state = ?, awaited = ?, status = ?, outcome = ?,"
                " updated_at = ?, reminded_at = NULL WHERE id = ? AND version = ? AND status = 'active'",
                (
                    new_version,
                    _dumps(state),
                    _dumps(awaited),
                    status,
                    _dumps(outcome) if outcome is not None else None,
                    now,
                    table_id,
                    expected_version,
                ),
            )
            if cur.rowcount != 1:
                raise StaleAction("The table changed while you were acting; look at the current board.")
            try:
                await db.execute(
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
            except aiosqlite.IntegrityError as err:
                raise DuplicateInteraction("this interaction was already applied") from err
            for s, memory in (bot_memories or {}).items():
                await db.execute(
                    "UPDATE seats SET bot_memory = ? WHERE table_id = ? AND seat = ?",
                    (_dumps(memory), table_id, s),
                )
            if resign_seat is not None:
                await db.execute(
                    "UPDATE seats SET resigned = 1 WHERE table_id = ? AND seat = ?", (table_id, resign_seat)
                )
        return new_version

    # -- settings kept by the bot itself -----------------------------------------------------------
    async def get_meta(self, key: str) -> str | None:
        async with self._db.execute("SELECT value FROM bot_meta WHERE key = ?", (key,)) as cur:
            row = await cur.fetchone()
        return str(row[0]) if row else None

    async def set_meta(self, key: str, value: str) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO bot_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, value),
            )
