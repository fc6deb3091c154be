"""Dawn Under: the rules core registers itself; see game.py and docs/rules/dawn_under.md."""

from bot.rules.dawn_under.game import GAME, Action, DawnUnder
from bot.rules.registry import register

register(GAME)

__all__ = ["GAME", "Action", "DawnUnder"]
