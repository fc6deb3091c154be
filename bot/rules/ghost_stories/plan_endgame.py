"""The planner: the Yang phase's main choice by paired rollouts, to the end of the game once the last
incarnation is in play, for one round scored by a learned value before that.

Why: ten passes of hand-written rules plateaued at about a third of Initiation games won, most losses
come with the last incarnation in play (about ten draws), and one-step readings found the heuristic
rarely beaten one decision at a time. The endgame is short, so a true look-ahead fits there: paired
rollouts to the end of the game (issue #14, twelfth pass; figures in docs/rules/ghost_stories.md).

Design.

* **When.** `TaoistPolicy` asks it at a living Taoist's Yang-phase decision, before the turn's action
  (no exorcism or help yet), while the last incarnation is in play (`in_endgame`), when the heuristic's
  own step is a move, an exorcism, a help or the end of the turn (its preparations — a Power token
  borrowed, the Pockets token, Twin Winds — go first unplanned; the planner runs at the next decision).
* **Arms** (built by the bot, which knows its values): the heuristic's step, played on by the heuristic,
  against a few alternatives: the best tile of each other kind (an exorcism, each village help) by the
  bot's own values, reachable by a plain move (or here, once moved), each "move there, take that action,
  then the heuristic" (`Arm.opening` applies the first steps on an engine state).
* **Worlds, fairly.** Only the seat's view is used: `world_from_view` builds an engine state from it
  (the whole board is public) with the cards nobody has seen (neither in play nor discarded) in a random
  order — an incarnation still in the deck keeps its public depth — and fresh dice; the built state's
  view for the seat equals the given view (tested). `K` worlds, the same worlds and the same bot dice for
  every arm (common random numbers); the worlds' seed is a hash of the view, so the same view always
  gives the same choice, and only the public board matters (the hidden deck order cannot change it).
* **Choice.** The arm that wins most of the K rollouts; the heuristic's on a tie. Rollouts are a fixed
  number (never a wall-clock deadline), so a game is reproducible; an alternative is cut short as soon
  as it can no longer win strictly more than the best so far (exact: the choice is that of all K).
* **Before the endgame** (fifteenth pass, `choose_by_value`; 2–4 Taoists; solo it gained nothing, 73
  against 76 of 200, once its round was counted right): at a first decision (not yet moved), the same
  kind of arms (3 alternatives), each played for one round — until a Yang phase begins four board turns
  later (`_board_turns`: the boards with no decision, neutral or dead, pass unseen) — in 4 worlds, and
  scored by the position's value (`value.py`: a logistic model of the public board fitted on the
  heuristic's games). An alternative is played only if its mean beats the heuristic's by `margin` (0.03).
  Rollouts to the end are too far from a win there for 8 binary outcomes to tell arms apart.
* **Time.** A rollout from here is a few hundred heuristic decisions; K = 8 with up to 6 alternatives
  keeps a decision within the table's budget (bench_ghost_stories --timing; docs give the figures).
  The rollouts' own seats play the heuristic alone (no nested planning).
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.rules.ghost_stories.core import RULES_REV, State, copy_state
from bot.rules.ghost_stories.data import CARDS, INCARNATION_IDS, space_index, tile_index
from bot.rules.ghost_stories.game import GAME
from bot.rules.ghost_stories.value import value
from bot.rules.rng import Rng

View = dict[str, Any]
K = 8  # determinized worlds per decision (the same for every arm)
ALTS = 6  # alternatives to the heuristic's step (3 until the thirteenth pass)
MAX_STEPS = 5000  # a rollout longer than this counts as lost (none has come near)
INCS = frozenset(INCARNATION_IDS)


@dataclass
class Arm:
    """One candidate: its label, the real action it starts with, and its first steps on an engine state
    (None: not playable there); the heuristic plays on after them."""

    label: str
    first: Any
    opening: Callable[[State, int], State | None]


def in_endgame(view: View) -> bool:
    """The last incarnation is in play (the all-in endgame, about ten draws)."""
    inc = view["incarnations"]
    if int(inc["total"]) - int(inc["banished"]) > 1:
        return False
    return any(sp["ghost"] is not None and sp["ghost"]["incarnation"] for sp in view["spaces"])


def _inc_slots(view: View, deck_len: int) -> int:
    """How many of the deck's cards are incarnations (their depth is public: every 11th from the bottom)."""
    in_play = sum(1 for sp in view["spaces"] if sp["ghost"] is not None and sp["ghost"]["incarnation"])
    left = int(view["incarnations"]["total"]) - int(view["incarnations"]["banished"]) - in_play
    return max(0, min(left, sum(1 for i in range(10, deck_len, 11))))


def world_from_view(view: View, r: Rng) -> State:
    """An engine state that the seat's view describes, the unseen cards in a random order drawn from `r`
    and the dice seeded from it. Only for decisions with no pending choice (the engine's queue of
    pending operations is empty then, and it is not part of the view)."""
    boards = []
    for b in view["boards"]:
        boards.append(
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
                "pos": tile_index(b["pos"]) if b["pos"] is not None else None,
            }
        )
    spaces: list[Any] = []
    seen: set[int] = set(view["discard_ids"])
    for sp in view["spaces"]:
        g = sp["ghost"]
        if g is None:
            spaces.append(None)
            continue
        seen.add(g["id"])
        spaces.append({"id": g["id"], "haunt": g["haunt"], "captured": g["captured"], "vulnerable": g["vulnerable"]})
    n = int(view["deck"])
    unseen = [i for i in sorted(CARDS) if i not in seen]
    ghosts = r.shuffled([i for i in unseen if i not in INCS])
    incs = r.shuffled([i for i in unseen if i in INCS])
    slots = set(list(range(10, n, 11))[: _inc_slots(view, n)])
    deck = [incs.pop() if i in slots else ghosts.pop() for i in range(n)]
    mantra = view["mantra"]
    y = view["yang"]
    s: State = {
        "schema": 1,
        "rev": RULES_REV,
        "players": view["players"],
        "difficulty": view["difficulty"],
        "options": dict(view["options"]),
        "rng": Rng.from_seed(r.next64()).state,
        "boards": boards,
        "spaces": spaces,
        "buddha_on": [bool(sp["buddha"]) for sp in view["spaces"]],
        "tiles": [{"key": x["key"], "haunted": x["haunted"]} for x in view["tiles"]],
        "temple": view["temple_buddhas"],
        "circle": view["circle"],
        "centre_tokens": view["centre_power_tokens"],
        "supply": dict(view["supply"]),
        "qi_supply": view["qi_supply"],
        "deck": deck,
        "removed": ghosts + incs,
        "discard": list(view["discard_ids"]),
        "mantra": space_index(mantra) if mantra not in (None, "home") else mantra,
        "turn": next(i for i, b in enumerate(view["boards"]) if b["colour"] == view["turn"]),
        "phase": view["phase"],
        "yang": json.loads(json.dumps(y)) if y is not None else None,
        "queue": [],
        "pending": None,
        "last_roll": json.loads(json.dumps(view["last_roll"])),
        "result": view["result"],
        "reason": view["reason"],
        "incarnations": int(view["incarnations"]["total"]),
        "banished_incarnations": int(view["incarnations"]["banished"]),
        "deck_out": False,
        "round": view["round"],
    }
    return s


def rollout(s: State, policy: Any, r: Rng) -> bool:
    """`policy` at every seat from `s` to the end of the game: won? It plays on `s` itself (the caller's
    copy), with the engine's read-only `bot_view`: the same choices as `apply` and `view`, at half the cost."""
    for _ in range(MAX_STEPS):
        if s["result"] is not None:
            return bool(s["result"] == "win")
        seat = min(GAME.to_act(s))
        act = policy.choose(GAME.bot_view(s, seat), GAME.legal_actions(s, seat), {}, r)
        GAME.play_in_place(s, act)
    return False


def _worlds(view: View, k: int, seed: int | None) -> list[State]:
    """The `k` worlds every arm is played in, seeded by the view (or `seed`, its `view_seed`)."""
    r = Rng.from_seed(view_seed(view) if seed is None else seed)
    return [world_from_view(view, r) for _ in range(k)]


def yang_start(s: State) -> bool:
    """A Yang phase's first decision (nothing done, not moved): where the value is fitted and scored."""
    y = s["yang"]
    return s["phase"] == "yang" and s["pending"] is None and y is not None and not y["acts"] and not y["moved"]


def _board_turns(s: State) -> int:
    """Board turns since the game began. Boards whose turn needs no decision (neutral, dead) pass
    unseen, and solo all three do: a round can come back to the same board with no turn change seen."""
    return int(s["round"]) * 4 + int(s["turn"])


def round_out(s: State, policy: Any, r: Rng) -> float:
    """`policy` at every seat from `s` for one round (until a Yang phase begins after four board turns),
    then the value of the position (value.py); 1 or 0 if the game ends first."""
    start = _board_turns(s)
    for _ in range(MAX_STEPS):
        if s["result"] is not None:
            return 1.0 if s["result"] == "win" else 0.0
        seat = min(GAME.to_act(s))
        v = GAME.bot_view(s, seat)
        if _board_turns(s) - start >= 4 and yang_start(s):
            return value(v)
        GAME.play_in_place(s, policy.choose(v, GAME.legal_actions(s, seat), {}, r))
    return 0.0


def _played(
    arm: Arm, worlds: list[State], seat: int, score: Callable[[State, Rng], float], cut: Callable[[float, int], bool]
) -> float:
    """`arm`'s summed score over the worlds (world i's bot dice seeded by i); -1 if it cannot be played in
    one, or once `cut(total so far, i)` says it can no longer beat the best."""
    total = 0.0
    for i, w in enumerate(worlds):
        if cut(total, i):
            return -1.0
        f = arm.opening(copy_state(w), seat)
        if f is None:
            return -1.0
        total += score(f, Rng.from_seed(i))
    return total


def choose_by_value(
    view: View, arms: list[Arm], policy: Any, k: int, seed: int | None = None, margin: float = 0.0
) -> Arm:
    """The arm (arms[0] is the heuristic's) whose `k` paired one-round rollouts end at the highest mean
    value, if it beats arms[0]'s by more than `margin`; else arms[0]."""
    seat, worlds = int(view["seat"]), _worlds(view, k, seed)

    def score(s: State, r: Rng) -> float:
        return round_out(s, policy, r)

    best, best_sum = arms[0], _played(arms[0], worlds, seat, score, lambda t, i: False) + margin * k
    for arm in arms[1:]:
        total = _played(arm, worlds, seat, score, lambda t, i: False)
        if total > best_sum:
            best, best_sum = arm, total
    return best


def view_seed(view: View) -> int:
    """The worlds' seed: a hash of the public view (the same view, the same worlds)."""
    public = {k: v for k, v in view.items() if not k.startswith("_")}  # not the bot's own caches
    return zlib.crc32(json.dumps(public, sort_keys=True, default=str).encode())


def choose(view: View, arms: list[Arm], policy: Any, k: int = K, seed: int | None = None) -> Arm:
    """The arm (arms[0] is the heuristic's) that wins most of `k` paired rollouts; arms[0] on a tie.
    `seed`: the view's `view_seed`, if taken before the bot added its caches to the view."""
    seat, worlds = int(view["seat"]), _worlds(view, k, seed)

    def score(s: State, r: Rng) -> float:
        return 1.0 if rollout(s, policy, r) else 0.0

    best, best_wins = arms[0], _played(arms[0], worlds, seat, score, lambda t, i: False)
    for arm in arms[1:]:
        if best_wins >= k:
            break
        cut = lambda t, i, bar=best_wins: t + (k - i) <= bar  # noqa: E731 (it can no longer win more)
        wins = _played(arm, worlds, seat, score, cut)
        if wins > best_wins:
            best, best_wins = arm, wins
    return best
