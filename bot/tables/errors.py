"""Errors of the table service; like the rules errors, their text goes to the player verbatim."""

from bot.rules.errors import GameError, IllegalAction


class UnknownTable(GameError):
    code = "unknown_table"


class NotSeated(GameError):
    code = "not_seated"


class NotAllowed(GameError):
    """The user is seated (or not) but may not do this (e.g. only the host may start)."""

    code = "not_allowed"


class LobbyError(IllegalAction):
    code = "lobby"


class AlreadyApplied(GameError):
    """The same interaction was delivered twice; the first delivery already made the move."""

    code = "already_applied"


class UndoRefused(GameError):
    """The move cannot be taken back (nothing to undo, someone played since, it revealed or rolled)."""

    code = "undo_refused"
