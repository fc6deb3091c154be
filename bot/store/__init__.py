"""Persistence: every ongoing game lives here between messages."""

from bot.store.models import ActionRow, FinishedRow, FinishedSeat, SeatRow, TableRow
from bot.store.sqlite import DuplicateInteraction, Store, TableConflict

__all__ = [
    "ActionRow",
    "DuplicateInteraction",
    "FinishedRow",
    "FinishedSeat",
    "SeatRow",
    "Store",
    "TableConflict",
    "TableRow",
]
