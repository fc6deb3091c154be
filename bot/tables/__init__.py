"""The table service: everything between a player's request and the rules core."""

from bot.tables.errors import AlreadyApplied, LobbyError, NotAllowed, NotSeated, UndoRefused, UnknownTable
from bot.tables.service import Change, Frame, Logged, Moment, TableService, next_awaited, registered_games

__all__ = [
    "AlreadyApplied",
    "Change",
    "Frame",
    "LobbyError",
    "Logged",
    "Moment",
    "NotAllowed",
    "NotSeated",
    "TableService",
    "UndoRefused",
    "UnknownTable",
    "next_awaited",
    "registered_games",
]
