"""Trick or Treat Halloween (不給糖就搗蛋－萬聖夜), 2–8 players: registers the game at import."""

from bot.rules.registry import register
from bot.rules.trick_or_treat.bot import TrickBot
from bot.rules.trick_or_treat.game import Action, TrickOrTreat

GAME = TrickOrTreat()
register(GAME, bot=TrickBot)

__all__ = ["GAME", "Action", "TrickOrTreat"]
