"""Persistence: every ongoing game lives here between messages.

`Store.open(target)` (or `open_store`) opens either engine: a `postgresql://` URL is PostgreSQL
(`bot/store/postgres.py`), anything else a SQLite file (`bot/store/sqlite.py`, the default).
"""

from bot.store.base import DuplicateInteraction, Store, StoreError, TableConflict
from bot.store.models import ActionRow, FinishedRow, FinishedSeat, SeatRow, TableRow
from bot.store.postgres import PostgresStore
from bot.store.sqlite import SqliteStore

open_store = Store.open

__all__ = [
    "ActionRow",
    "DuplicateInteraction",
    "FinishedRow",
    "FinishedSeat",
    "PostgresStore",
    "SeatRow",
    "SqliteStore",
    "Store",
    "StoreError",
    "TableConflict",
    "TableRow",
    "open_store",
]
