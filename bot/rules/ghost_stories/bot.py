"""Placeholder, replaced below."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.rules.base import BotPolicy
from bot.rules.rng import Rng


class TaoistPolicy(BotPolicy[Any]):
    def choose(self, view: dict[str, Any], legal: Sequence[Any], memory: dict[str, Any], rng: Rng) -> Any:
        return rng.choice(legal)
