"""A one-turn look-ahead for where to go: the bot's few best tiles, each played out with the real engine.

The heuristic's tile values (bot.py) are local guesses: what an exorcism there is worth, or a help.
Here the few best candidate tiles are each tried on a handful of *determinized* states (the unseen
cards shuffled, the dice left to the engine's own Rng, the same samples for every candidate). The
heuristic finishes the turn from that tile, the engine plays the Yin phases of the boards that come
before the next Taoist's turn, and the position is scored by `evaluate`. Only this decision uses the
look-ahead, so the decision time stays within the budget.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.rules.errors import GameError
from bot.rules.ghost_stories.game import GAME, Act
from bot.rules.rng import Rng

View = dict[str, Any]
CANDIDATES = 3  # best tiles by the heuristic that are played out
SAMPLES = 3  # determinized samples per candidate (common to all candidates)
MAX_STEPS = 40  # a guard: decisions in one play-out
QI_VALUE = (0.0, 40.0, 52.0, 58.0, 62.0)  # worth of a living Taoist's Qi (0..4; +2 a Qi beyond)
DEAD = 30.0  # a dead Taoist, beyond the Qi lost
HAUNTED = 12.0  # per haunted tile ...
HAUNTED_NEAR = 30.0  # ... and once one more loses
TAO_TOKEN = 1.5
YINYANG = 3.0
BUDDHA_HELD = 5.0
BUDDHA_PLACED = 5.0
STAY_BIAS = 0.5  # the heuristic's own choice wins ties
CLOSE = 1e9  # only tiles within this much of the best heuristic value are played out
BLEND = 0.0  # share of the heuristic's tile value added to the play-outs' mean


def evaluate(view: View, danger: Callable[[View, int], float]) -> float:
    """The team's position after the play-out, in the heuristic's units (a ghost's danger)."""
    v = 0.0
    for b in view["boards"]:
        if b["neutral"]:
            continue
        if not b["alive"]:
            v -= DEAD
            continue
        q = int(b["qi"])
        v += QI_VALUE[min(q, 4)] + 2.0 * max(0, q - 4)
        v += TAO_TOKEN * sum(b["tao"].values()) + YINYANG * b["yinyang"] + BUDDHA_HELD * b["buddhas"]
    haunted = int(view["haunted"])
    v -= HAUNTED * haunted + (HAUNTED_NEAR if haunted >= view["haunt_limit"] - 1 else 0.0)
    for k, sp in enumerate(view["spaces"]):
        if sp["ghost"] is not None:
            v -= danger(view, k)
        elif sp["buddha"]:
            owner = view["boards"][k // 3]
            v += BUDDHA_PLACED if owner["alive"] and not owner["neutral"] else 1.0
    return v


def playout(
    view: View, seat: int, first: Act | None, policy: Any, danger: Callable[[View, int], float], seed: int
) -> float:
    """Play `first` (None: stay) and the heuristic's rest of the turn on one determinized state, then
    the Yin phases up to the next Taoist's Yang phase; score the result."""
    from bot.rules.ghost_stories.search import determinize  # search.py imports bot.py

    rng = Rng(seed)
    s = determinize(view, rng)
    me = s["turn"]
    if first is not None:
        s, _ = GAME.apply(s, seat, first)
    for _ in range(MAX_STEPS):
        if s["result"] is not None:
            break
        if s["pending"] is None and s["phase"] == "yang" and s["turn"] != me:
            break
        actor = min(GAME.to_act(s))
        a = policy.choose(GAME.view(s, actor), GAME.legal_actions(s, actor), {}, rng)
        s, _ = GAME.apply(s, actor, a)
    if s["result"] is not None:
        return 1000.0 if s["result"] == "win" else -1000.0
    return evaluate(GAME.view(s, seat), danger)


def best_move(
    view: View,
    moves: Sequence[tuple[Act | None, float]],
    default: Act | None,
    policy: Any,
    danger: Callable[[View, int], float],
    rng: Rng,
) -> Act | None:
    """Among the candidates (a move, or None to stay, with its heuristic value) the one whose
    play-outs score best; `default` is the heuristic's own choice."""
    seat = view["seat"]
    ranked = sorted(moves, key=lambda m: -m[1])[:CANDIDATES]
    ranked = [m for m in ranked if m[1] >= ranked[0][1] - CLOSE]
    if len(ranked) < 2:
        return default
    seeds = [rng.next64() for _ in range(SAMPLES)]
    best, best_v = default, -1e18
    for a, hv in ranked:
        total = 0.0
        for sd in seeds:
            try:
                total += playout(view, seat, a, policy, danger, sd)
            except GameError:  # a line the engine refuses is never chosen
                total -= 1e6
        mean = total / SAMPLES + BLEND * hv + (STAY_BIAS if a == default else 0.0)
        if mean > best_v:
            best, best_v = a, mean
    return best
