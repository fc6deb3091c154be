"""Plain rows the store hands out; nothing here talks to a database."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

OPEN_STATUSES = ("lobby", "active")


@dataclass(frozen=True)
class SeatRow:
    seat: int
    user_id: int | None
    name: str
    is_bot: bool = False
    resigned: bool = False
    dm_closed: bool = False
    dm_told: bool = False
    bot_memory: dict[str, Any] = field(default_factory=dict)

    @property
    def played_by_bot(self) -> bool:
        """Bot seats and resigned seats are both played by the bot policy."""
        return self.is_bot or self.resigned


@dataclass(frozen=True)
class TableRow:
    id: int
    guild_id: int | None
    channel_id: int
    game: str
    options: dict[str, str]
    seed: int
    host_id: int
    status: str
    version: int
    state: dict[str, Any] | None
    awaited: dict[int, int]  # seat -> version since which its decision is awaited
    outcome: dict[str, Any] | None
    lobby_message_id: int | None
    board_message_id: int | None
    reminder_after: int
    reminded_at: float | None
    created_at: float
    updated_at: float
    seats: tuple[SeatRow, ...] = ()
    autopilot_after: int = 0  # seconds of quiet before a bot moves for awaited humans; 0 = never

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES

    def seat_of(self, user_id: int) -> SeatRow | None:
        for s in self.seats:
            if s.user_id == user_id:
                return s
        return None


@dataclass(frozen=True)
class ActionRow:
    seq: int
    seat: int
    kind: str
    action: dict[str, Any]
    events: list[dict[str, Any]]
    at: float
