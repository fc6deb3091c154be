"""A bot seat's move, made where it may think as long as it needs: a worker process, or a thread.

A bot's decision is pure Python. In a thread of the bot process it shares the GIL with the event
loop: while it thinks, every time the loop lets the GIL go (a socket write, a `select`, a hop to the
database's thread) the thinker takes it and keeps it up to the switch interval (5 ms), so a planner
that thinks for a few hundred milliseconds (Ghost Stories' endgame) slows every other table's
answers. In a render worker (`rendering.pool`, a process of its own) it truly runs beside the loop.
The worker is sent what the table's row already holds (`BotJob`: the stored state text, the seat's
memory and the seed of its dice) and parses the state once per version (a small cache per worker);
it sends back the action, the new state and the events, which the service writes as before.

The same function makes the move in a thread (`bot_move`), for a game a fresh interpreter does not
know (registered at run time, as tests do) or a bot with no worker processes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.rules.base import BotPolicy, Event, Game
from bot.rules.registry import get_game
from bot.rules.rng import Rng
from bot.statecache import StateCache


@dataclass(frozen=True)
class BotJob:
    """One bot step, as plain values cheap to pickle: the row's own state text, not a parsed copy."""

    game: str
    table_id: int
    version: int
    state: str  # the table's stored state JSON at `version`
    seat: int
    memory: dict[str, Any]  # the seat's bot memory (a copy: the policy may change it)
    seed: str  # the seed of the bot's dice for this step (`Rng.from_seed`), so a step is reproducible


def bot_move(
    game: Game[Any, Any], policy: BotPolicy[Any], data: dict[str, Any], seat: int, memory: dict[str, Any], rng: Rng
) -> tuple[Any, Any, list[Event]]:
    """The bot's choice for `seat` from its own view of the stored state `data`, applied."""
    state = game.load_state(data)
    action = policy.choose(game.view(state, seat), game.legal_actions(state, seat), memory, rng)
    new_state, events = game.apply(state, seat, action)
    return action, new_state, events


def shipped(game: Game[Any, Any]) -> bool:
    """The game is one of `bot.rules`' own packages, which every fresh interpreter registers when it
    imports the rules: a worker process knows it (a game registered at run time, as tests do, it does not)."""
    return type(game).__module__.startswith("bot.rules.")


STATES = 8  # parsed states kept per worker (a chain of bot steps reads one version after another)
# served only for the very text it was parsed from; shared, never mutated (`load_state` copies it)
_states = StateCache(entries=STATES)


def think(job: BotJob) -> tuple[tuple[Any, Any, list[Event]], bytes]:
    """What a worker runs for a bot step (`Renderer.think("bot.rules.thinking", "think", job)`): the
    action, the new state and the events (and no raw bytes)."""
    game = get_game(job.game)
    data = _states.parsed(job.table_id, job.version, job.state)
    return bot_move(game, game.bot_policy(), data, job.seat, dict(job.memory), Rng.from_seed(job.seed)), b""


__all__ = ["BotJob", "bot_move", "shipped", "think"]
