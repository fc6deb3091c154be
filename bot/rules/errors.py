"""The closed error taxonomy the rules cores and the table service raise.

Every message is written for the player who caused it: the cog shows it verbatim, ephemerally.
"""


class GameError(Exception):
    """Base of every error a player can cause; its text is safe to show to that player."""

    code = "game_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidInput(GameError):
    """The input could not be read at all (bad notation, unknown option)."""

    code = "invalid_input"


class IllegalAction(GameError):
    """Well-formed, but the rules do not allow it now."""

    code = "illegal_action"


class NotYourTurn(GameError):
    """The seat exists but no decision is awaited from it."""

    code = "not_your_turn"


class StaleAction(GameError):
    """The action was built from an older version of the table."""

    code = "stale_action"


class GameOver(GameError):
    """The game has ended; nothing more can be played."""

    code = "game_over"
