"""Pure rules cores and the contract they share. Importing this package registers every game."""

from bot.rules.base import BotPolicy, Event, Game, OptionSpec, Outcome, RandomPolicy
from bot.rules.errors import (
    GameError,
    GameOver,
    IllegalAction,
    InvalidInput,
    NotYourTurn,
    StaleAction,
)
from bot.rules.registry import GAMES, get_game, register, unregister
from bot.rules.rng import Rng

__all__ = [
    "GAMES",
    "BotPolicy",
    "Event",
    "Game",
    "GameError",
    "GameOver",
    "IllegalAction",
    "InvalidInput",
    "NotYourTurn",
    "OptionSpec",
    "Outcome",
    "RandomPolicy",
    "Rng",
    "StaleAction",
    "get_game",
    "register",
    "unregister",
]

from bot.rules import _builtin  # noqa: F401  (registers the shipped games)
