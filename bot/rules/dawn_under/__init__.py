"""Dawn Under: the rules core registers itself; see game.py and docs/rules/dawn_under.md."""

from bot.rules.dawn_under.game import GAME, Action, DawnUnder
from bot.rules.dawn_under.policy import MemoryPolicy
from bot.rules.registry import register

register(GAME, bot=MemoryPolicy)

__all__ = ["GAME", "Action", "DawnUnder"]
