"""A determinized rollout planner over the heuristic: the first decision of a Taoist's turn is played out
to the end of the round with the real engine.

At the first decision of a Yang phase (nothing moved, nothing done) the heuristic (`TaoistPolicy`,
bot.py) proposes its own first action and the planner adds a few alternatives: staying (the
heuristic's turn without its move) and the next best tiles by the heuristic's tile value. Each
candidate is played on `SAMPLES` determinized states built from the seat's view only
(`determinize`: the unseen ghost cards shuffled, never the engine's deck order; the dice from a
seeded stream), the heuristic playing every seat and every later decision, through the teammates'
turns and the Yin phases, until this Taoist's next Yang phase (`horizon`). The end position is scored
by `evaluate` (Qi, dead Taoists, haunted tiles, the danger of the ghosts in play, tokens; a win or
loss outright). All candidates share the same determinized decks and dice streams (common random
numbers; the dice are reseeded at every board's turn so that a candidate using fewer dice does not
shift the later rolls), and an alternative replaces the heuristic's choice only if its paired mean
gain is clearly above noise (`Z` standard errors and `MARGIN`). The later decisions of the turn are
the heuristic's own, so no plan needs to be kept between decisions.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any

from bot.rules.ghost_stories import core
from bot.rules.ghost_stories.bot import TaoistPolicy, danger, pool_bonus, tile_value
from bot.rules.ghost_stories.data import BOARD_COLOURS, CARDS, INCARNATION_IDS, space_index, tile_index
from bot.rules.ghost_stories.game import GAME, Act
from bot.rules.rng import Rng

View = dict[str, Any]
CANDIDATES = 4  # the heuristic's first action, staying, and the best other tiles, up to this many
SAMPLES = 10  # determinized states per candidate at most (the same for every candidate) ...
MIN_SAMPLES = 4  # ... at least this many, even past the step budget (fewer: the heuristic's choice)
STEP_BUDGET = 300  # rollout decisions a plan may take (about 0.8 ms each on an idle core) ...
DEADLINE = 0.45  # ... and seconds (a guard for a loaded machine: decisions stay within the budget)
DROP_Z = 1.0  # an alternative this many standard errors below the heuristic's choice is dropped
MAX_STEPS = 400  # a guard: decisions in one rollout
Z = 1.5  # an alternative must beat the heuristic's choice by this many standard errors ...
MARGIN = 1.0  # ... and by this much
WIN = 1000.0
QI_VALUE = (0.0, 40.0, 52.0, 58.0, 62.0)  # worth of a living Taoist's Qi (0..4; +2 a Qi beyond)
DEAD = 30.0  # a dead Taoist, beyond the Qi lost
HAUNTED = 12.0  # per haunted tile ...
HAUNTED_NEAR = 30.0  # ... and once one more loses
TAO_TOKEN = 1.5
YINYANG = 3.0
BUDDHA = 5.0
PLANNED_VERBS = ("move", "exorcise", "help", "buddha", "end")  # the turn's main decision


def determinize(view: View, rng: Rng) -> core.State:
    """A full engine state consistent with the view at a Yang decision (no pending choice, nothing
    queued): the cards nobody has seen (not in play, not discarded) are shuffled with `rng` into the
    deck, incarnations where the setup puts them, the rest set aside; the dice get a seed from `rng`."""
    seen = set(view["discard_ids"])
    spaces: list[dict[str, Any] | None] = []
    for sp in view["spaces"]:
        g = sp["ghost"]
        if g is None:
            spaces.append(None)
            continue
        seen.add(g["id"])
        spaces.append({"id": g["id"], "haunt": g["haunt"], "captured": g["captured"], "vulnerable": g["vulnerable"]})
    unseen = [i for i in CARDS if i not in seen]
    incs = rng.shuffled([i for i in unseen if i in INCARNATION_IDS])
    ghosts = rng.shuffled([i for i in unseen if i not in INCARNATION_IDS])
    deck: list[int] = []  # index 0 is the bottom card; the setup puts an incarnation under each 10 ghosts
    for pos in range(int(view["deck"])):
        if incs and pos % 11 == 10 and pos // 11 < view["incarnations"]["total"]:
            deck.append(incs.pop())
        elif ghosts:
            deck.append(ghosts.pop())
        else:
            deck.append(incs.pop())
    boards = [
        {
            "colour": b["colour"],
            "seat": b["seat"],
            "power": b["power"]["key"],
            "qi": b["qi"],
            "tao": dict(b["tao"]),
            "yy": b["yinyang"],
            "buddhas": b["buddhas"],
            "fresh": b["buddhas_new"],
            "tokens": b["power_tokens"],
            "alive": b["alive"],
            "pos": tile_index(b["pos"]) if b["pos"] else None,
        }
        for b in view["boards"]
    ]
    mantra = view["mantra"]
    if isinstance(mantra, str) and mantra not in ("home", "gone"):
        mantra = space_index(mantra)
    return {
        "schema": 1,
        "players": view["players"],
        "difficulty": view["difficulty"],
        "options": dict(view["options"]),
        "rng": rng.next64(),
        "boards": boards,
        "spaces": spaces,
        "buddha_on": [sp["buddha"] for sp in view["spaces"]],
        "tiles": [{"key": t["key"], "haunted": t["haunted"]} for t in view["tiles"]],
        "temple": view["temple_buddhas"],
        "circle": view["circle"],
        "centre_tokens": view["centre_power_tokens"],
        "supply": dict(view["supply"]),
        "qi_supply": view["qi_supply"],
        "deck": deck,
        "removed": ghosts + incs,
        "discard": list(view["discard_ids"]),
        "mantra": mantra,
        "turn": BOARD_COLOURS.index(view["turn"]),
        "phase": view["phase"],
        "yang": core.copy_json(view["yang"]),
        "queue": [],
        "pending": None,
        "last_roll": core.copy_json(view["last_roll"]),
        "result": None,
        "reason": "",
        "incarnations": view["incarnations"]["total"],
        "banished_incarnations": view["incarnations"]["banished"],
        "deck_out": False,
        "round": view["round"],
    }


def step(s: core.State, seat: int, act: Act) -> None:
    """`GAME.apply` in place, for an action taken from `GAME.legal_actions` (no copy, no re-check)."""
    ev: list[Any] = []
    try:
        if s["pending"] is not None:
            GAME._answer(s, act.parts, ev)
        else:
            GAME._yang(s, s["turn"], act.parts, ev)
        core.run(s, ev)
    except core.Stop:
        s["queue"] = []
        s["pending"] = None
        s["phase"] = "over"


def evaluate(s: core.State, seat: int) -> float:
    """The team's position, in the heuristic's units (a ghost's danger)."""
    if s["result"] is not None:
        return WIN if s["result"] == "win" else -WIN
    view = GAME.raw_view(s, seat)
    v = 0.0
    for b in view["boards"]:
        if b["neutral"]:
            continue
        if not b["alive"]:
            v -= DEAD
            continue
        q = int(b["qi"])
        v += QI_VALUE[min(q, 4)] + 2.0 * max(0, q - 4)
        v += TAO_TOKEN * sum(b["tao"].values()) + YINYANG * b["yinyang"] + BUDDHA * b["buddhas"]
    haunted = int(view["haunted"])
    v -= HAUNTED * haunted + (HAUNTED_NEAR if haunted >= view["haunt_limit"] - 1 else 0.0)
    for k, sp in enumerate(view["spaces"]):
        if sp["ghost"] is not None:
            v -= danger(view, k)
        elif sp["buddha"]:
            v += BUDDHA
    return v


def rollout(start: core.State, seat: int, first: Act, policy: TaoistPolicy, seed: int) -> tuple[float, int]:
    """Play `first`, then the heuristic for every seat until this seat's board's next Yang phase (or
    past it, if its Taoist is dead); the dice are reseeded from `seed` at every board's turn.
    Returns the end position's value and the decisions played."""
    s = core.copy_state(start)
    at0 = s["round"] * 4 + s["turn"]  # board turns counted from this one
    rng = Rng(seed)
    step(s, seat, first)
    at = at0
    n = 0
    for n in range(MAX_STEPS):  # noqa: B007 (n is returned)
        if s["result"] is not None:
            break
        now = s["round"] * 4 + s["turn"]
        if now != at:
            at = now
            s["rng"] = Rng(seed ^ ((at - at0) * 0x2545F4914F6CDD1D)).next64()
        if at - at0 > 4 or (at - at0 == 4 and s["phase"] == "yang" and s["pending"] is None):
            break
        actor = min(GAME.to_act(s))
        legal = GAME.legal_actions(s, actor)
        step(s, actor, legal[0] if len(legal) == 1 else policy.choose(GAME.raw_view(s, actor), legal, {}, rng))
    return evaluate(s, seat), n + 1


class PlannerPolicy(TaoistPolicy):
    """The heuristic, with its turn's first decision checked by rollouts (module docstring)."""

    def __init__(self) -> None:
        self.heuristic = TaoistPolicy()

    def choose(self, view: View, legal: Sequence[Act], memory: dict[str, Any], rng: Rng) -> Act:
        a0 = self.heuristic.choose(view, legal, memory, rng)
        yang = view["yang"]
        if (
            view["pending"] is not None
            or view["phase"] != "yang"
            or yang is None
            or yang["moved"]
            or yang["acts"]
            or a0.parts[0] not in PLANNED_VERBS
        ):
            return a0
        cands = self.candidates(view, legal, a0, rng)
        if len(cands) < 2:
            return a0
        return self.plan(view, cands, rng)

    def candidates(self, view: View, legal: Sequence[Act], a0: Act, rng: Rng) -> list[Act]:
        """The heuristic's first action, its turn without moving, and the best other tiles."""
        out = [a0]
        if a0.parts[0] == "move":
            stay = [a for a in legal if a.parts[0] != "move"]
            if stay:
                out.append(self.heuristic.choose(view, stay, {}, rng))
        moves = [a for a in legal if a.parts[0] == "move" and a != a0]
        me = next(b for b in view["boards"] if b["colour"] == view["turn"])
        pushes = [a for a in legal if a.parts[0] == "push"]

        def value(a: Act) -> float:
            x = tile_index(a.parts[1]) or 0
            there = {**me, "pos": a.parts[1]}
            return tile_value(view, there, x) + pool_bonus(view, there, x, pushes)

        moves.sort(key=value, reverse=True)
        for a in moves:
            if len(out) >= CANDIDATES:
                break
            out.append(a)
        return out

    def plan(self, view: View, cands: list[Act], rng: Rng) -> Act:
        """The candidate whose rollouts beat the heuristic's choice (cands[0]) by most, beyond noise.

        Samples are added a batch at a time (every live candidate on the same determinized state);
        from MIN_SAMPLES on, an alternative clearly worse than the heuristic's choice is dropped, and
        the plan stops when none is left, at SAMPLES, at the step budget, or at DEADLINE seconds."""
        seat = int(view["seat"])
        t0 = time.perf_counter()
        base: list[float] = []
        diffs: dict[int, list[float]] = {j: [] for j in range(1, len(cands))}
        steps = 0
        for i in range(SAMPLES):
            start, seed = determinize(view, rng), rng.next64()
            v0, n = rollout(start, seat, cands[0], self.heuristic, seed)
            base.append(v0)
            steps += n
            for j, d in diffs.items():
                v, n = rollout(start, seat, cands[j], self.heuristic, seed)
                d.append(v - v0)
                steps += n
            if time.perf_counter() - t0 > DEADLINE:
                break
            if i + 1 >= MIN_SAMPLES:
                for j in [j for j, d in diffs.items() if _mean(d) + DROP_Z * _se(d) < 0]:
                    del diffs[j]
                if not diffs or steps > STEP_BUDGET:
                    break
        if len(base) < MIN_SAMPLES:
            return cands[0]  # too few samples to overrule the heuristic
        best, best_gain = cands[0], 0.0
        for j, d in diffs.items():
            mean = _mean(d)
            if mean > Z * _se(d) + MARGIN and mean > best_gain:
                best, best_gain = cands[j], mean
        return best


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs)


def _se(xs: Sequence[float]) -> float:
    """The standard error of the mean of `xs`."""
    m = _mean(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / max(1, len(xs) - 1) / len(xs))
