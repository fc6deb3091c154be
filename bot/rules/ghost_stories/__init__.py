"""Ghost Stories (聊齋): the cooperative Taoist game, base game, 1–4 players, four difficulty levels."""

from bot.rules.ghost_stories.bot import TaoistPolicy
from bot.rules.ghost_stories.game import GAME, Act, GhostStories
from bot.rules.registry import register

register(GAME, bot=TaoistPolicy)

__all__ = ["GAME", "Act", "GhostStories"]
