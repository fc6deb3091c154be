"""The game registry: cogs, help and the lobby read it instead of naming games."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.rules.base import BotPolicy, Game
from bot.rules.errors import InvalidInput

_GAMES: dict[str, Game[Any, Any]] = {}
GAMES: Mapping[str, Game[Any, Any]] = _GAMES


def register(game: Game[Any, Any], bot: Callable[[], BotPolicy[Any]] | None = None) -> Game[Any, Any]:
    """Add a game, and tie its table bot to it (`bot`: a policy factory; without it the game keeps the
    bot it had, or random legal moves). Registering the same key twice replaces it (tests re-register
    freely). The game's package calls this, so data -> rules -> bot stay one-way."""
    if bot is not None:
        game.bot_factory = bot
    _GAMES[game.key] = game
    return game


def unregister(key: str) -> None:
    _GAMES.pop(key, None)


def get_game(key: str) -> Game[Any, Any]:
    try:
        return _GAMES[key]
    except KeyError:
        known = ", ".join(sorted(_GAMES)) or "none"
        raise InvalidInput(f"Unknown game {key!r}; known games: {known}.") from None
