"""Placeholder; replaced below."""

from __future__ import annotations

from bot.rules.base import RandomPolicy


class TrickBot(RandomPolicy):
    pass
