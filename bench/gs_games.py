"""A Ghost Stories game played by the table bot at every seat, one step at a time: the loop the reading
tools share (`trace_ghost_stories.py`, `haunts_ghost_stories.py`, `deaths_ghost_stories.py`,
`tune_ghost_stories.py`, `regret_ghost_stories.py`), with the dice stream of `bench_ghost_stories.play`
(seed * 31 + players), so a seed is the same game in each of them."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.rules import Rng
from bot.rules.ghost_stories import GAME

MAX_STEPS = 20000  # a game that has not ended by then is cut (none has)


@dataclass
class Step:
    """One decision: the seat's view and legal actions before it, what the bot chose, and the state and
    event lines after it."""

    seat: int
    view: dict[str, Any]
    legal: list[Any]
    act: Any
    after: dict[str, Any]
    events: list[Any]


def bot_game(s: dict[str, Any], players: int, seed: int, policy: Any = None, rng: Rng | None = None) -> Iterator[Step]:
    """Play `s` (a `GAME.new(players, seed, ...)` state) to its end, every seat the table bot; the bots'
    own dice stream is `rng` if given (a play-out from a copied state), else the seed's."""
    rng = rng if rng is not None else Rng.from_seed(seed * 31 + players)
    policy = policy if policy is not None else GAME.bot_policy()
    memories: dict[int, Any] = {}
    for _ in range(MAX_STEPS):
        if GAME.outcome(s) is not None:
            return
        seat = min(GAME.to_act(s))
        legal = GAME.legal_actions(s, seat)
        view = GAME.view(s, seat)
        memories[seat] = policy.observe(memories.get(seat, {}), view)
        act = policy.choose(view, legal, memories[seat], rng)
        s, events = GAME.apply(s, seat, act)
        yield Step(seat, view, legal, act, s, events)
