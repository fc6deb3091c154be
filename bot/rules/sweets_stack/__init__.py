"""Sweets Stack (甜蜜堆疊): pass candy cards secretly, stack them in your bucket, fill favourite rows."""

from bot.rules.registry import register
from bot.rules.sweets_stack.bot import SweetsBot
from bot.rules.sweets_stack.game import Action, SweetsStack

GAME = SweetsStack()
register(GAME, bot=SweetsBot)

__all__ = ["GAME", "Action", "SweetsStack"]
