"""Plain rows the store hands out; nothing here talks to a database."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

OPEN_STATUSES = ("lobby", "active")
ENDED_STATUSES = ("finished", "abandoned")  # a game that was played and is over (cancelled never started)


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
    notified_version: int = -1  # the awaited-since version of the last decision this seat was told of
    dm_closed_at: float | None = None
    panel_channel_id: int | None = None  # the DM holding the seat's latest private panel
    panel_message_id: int | None = None
    panel_version: int | None = None  # the decision (awaited-since version) that DM panel is for
    notify: str = "every"  # every | last | reminders: how loud the table may be for this seat
    ping_message_id: int | None = None  # the channel message that pinged this seat for its decision
    ping_version: int | None = None
    glimpsed_version: int = -1  # the version this seat caught up to with "What you missed"
    locale: str | None = None  # the seat's last-seen Discord locale (for DMs sent without an interaction)

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
    shown_version: int = -1  # the version the channel's board shows
    unreachable_at: float | None = None  # the channel kept refusing us: background passes skip it
    wants_thread: bool = False  # the game is to be played in a thread of the lobby's channel
    parent_channel_id: int | None = None  # set once it is: the lobby's (and the result's) channel
    seed_salt: str | None = None  # with the seed, what the fairness commitment binds (bot/tables/fair.py)
    end_announced_at: float | None = None  # when the game-over message was posted (None: not yet, or open)
    end_message_id: int | None = None  # the game-over message
    rematch_id: int | None = None  # the lobby opened by this table's Rematch button
    lang: str = "en-US"  # the language of the table's public messages (bot.i18n), chosen at /game new
    # the state's JSON as stored (the very string `state` was parsed from; None for a row not read from
    # the store): what a render worker is sent to make a panel from (`rendering.panels`), unparsed
    state_text: str | None = field(default=None, repr=False, compare=False)

    @property
    def end_unannounced(self) -> bool:
        """The game ended and its game-over message has not been posted yet."""
        return self.status in ENDED_STATUSES and self.end_announced_at is None

    @property
    def lagging_seats(self) -> frozenset[int]:
        """Awaited human seats not yet told of their current decision (a crash or a failure cut it)."""
        if self.status != "active":
            return frozenset()
        return frozenset(
            s.seat
            for s in self.seats
            if s.seat in self.awaited and not s.played_by_bot and s.notified_version < self.awaited[s.seat]
        )

    @property
    def lagging(self) -> bool:
        """The channel or an awaited player has not been shown this table as it is stored."""
        return self.shown_version < self.version or bool(self.lagging_seats) or self.end_unannounced

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
    undoable: bool = False  # the author may take it back (its state-before is kept: `Store.undo_state`)
    undo_refusal: str | None = None  # why not, when the rules said so


@dataclass(frozen=True)
class FinishedSeat:
    seat: int
    user_id: int | None
    name: str
    is_bot: bool
    resigned: bool


@dataclass(frozen=True)
class FinishedRow:
    """What /game stats needs of one finished table (read in one query with its seats)."""

    id: int
    game: str
    options: dict[str, str]
    outcome: dict[str, Any] | None
    updated_at: float
    seats: tuple[FinishedSeat, ...]
