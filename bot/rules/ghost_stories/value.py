"""A learned value of a Ghost Stories position: the chance that the bot team wins from it.

Why: the endgame planner (`plan_endgame.py`) plays rollouts to the end of the game, which only
separates the arms when the end is near; most 2-player losses come before the last incarnation
(issue #14). A value of the position lets a rollout stop after one round and still be scored.

Design. `features` reads only the public view (the same from every seat); the value is a logistic
model per player count, `WEIGHTS`, fitted offline on the bot's own games (the heuristic at every
seat; `bench/value_ghost_stories.py gen` then `fit`, on seeds outside the bench's fresh ranges).
The positions it was fitted on are the starts of living Taoists' Yang phases, which is where the
planner scores its rollouts.
"""

from __future__ import annotations

import math
from typing import Any

from bot.rules.ghost_stories.data import OPPOSITE
from bot.rules.ghost_stories.reading import haunts_in

View = dict[str, Any]

FEATURES = (
    "bias",
    "deck",  # cards left / 10
    "to_wufeng",  # draws before the last incarnation shows / 10 (0 once it is in play)
    "endgame",  # the last incarnation is in play
    "inc_res",  # its resistance (Tao symbols) / 5
    "haunted",  # haunted tiles
    "at_edge",  # one haunted tile from the loss
    "dead",  # dead Taoists
    "qi",  # the living Taoists' Qi, each counted up to 4
    "qi1",  # living Taoists at 1 Qi
    "qi2",  # living Taoists at 2 Qi
    "tokens",  # Tao tokens the living hold (up to 3 each)
    "black",  # black tokens held
    "yinyang",  # Yin-Yang tokens held
    "buddhas",  # Buddhas on spaces or held
    "temple",  # Buddhas still in the Temple
    "ghosts",  # ghosts on living Taoists' boards
    "full",  # living Taoists' boards full
    "full_low",  # ... whose Taoist has 2 Qi or less
    "two",  # living Taoists' boards with two ghosts
    "sink",  # ghosts on neutral or dead boards
    "sink_full",  # neutral or dead boards full
    "h1",  # haunters that haunt at their board's next Yin phase
    "h2",  # ... at the one after
    "torment",  # tormentors (curse dice, Bone Cracker)
    "resist",  # Tao symbols of the ghosts in play (not incarnations) / 4
    "hard",  # ghosts in play with 3 symbols or more
    "locks",  # ghosts that seal powers, lock tokens, capture dice or block whites
    "howl",  # a ghost across from Howling Nightmare
    "nb_qi",  # neutral boards' Qi
    "circle",  # the Circle of Prayer has a colour
    "power",  # Power tokens held
)
N = len(FEATURES)
LOCK_STATES = ("POWER_BLOCK", "TAO_LOCK", "ALL_POWERS_BLOCK", "NO_WHITE")


def features(view: View) -> list[float]:
    """The position's features, in FEATURES order, from the public view."""
    boards, spaces = view["boards"], view["spaces"]
    living = [b for b in boards if b["alive"] and not b["neutral"]]
    players = int(view["players"])
    inc = view["incarnations"]
    incs = [sp["ghost"] for sp in spaces if sp["ghost"] is not None and sp["ghost"]["incarnation"]]
    left = int(inc["total"]) - int(inc["banished"])
    deck = int(view["deck"])
    endgame = left <= 1 and bool(incs)
    to_wufeng = 0.0 if incs or left <= 0 else max(0, deck - (11 * left - 1)) / 10
    f = [0.0] * N
    f[0] = 1.0
    f[1] = deck / 10
    f[2] = to_wufeng
    f[3] = 1.0 if endgame else 0.0
    f[4] = sum(sum(g["resistance"].values()) for g in incs) / 5 if endgame else 0.0
    f[5] = float(view["haunted"])
    f[6] = 1.0 if view["haunted"] >= view["haunt_limit"] - 1 else 0.0
    f[7] = float(players - len(living))
    f[8] = float(sum(min(4, b["qi"]) for b in living))
    f[9] = float(sum(1 for b in living if b["qi"] == 1))
    f[10] = float(sum(1 for b in living if b["qi"] == 2))
    f[11] = float(sum(min(3, sum(b["tao"].values())) for b in living))
    f[12] = float(sum(b["tao"]["black"] for b in living))
    f[13] = float(sum(1 for b in living if b["yinyang"]))
    f[14] = float(sum(1 for sp in spaces if sp["buddha"]) + sum(b["buddhas"] for b in living))
    f[15] = float(view["temple_buddhas"])
    for bi, owner in enumerate(boards):
        n = sum(1 for sp in spaces[bi * 3 : bi * 3 + 3] if sp["ghost"] is not None)
        if owner["alive"] and not owner["neutral"]:
            f[16] += n
            if n == 3:
                f[17] += 1
                f[18] += 1 if owner["qi"] <= 2 else 0
            elif n == 2:
                f[19] += 1
        else:
            f[20] += n
            f[21] += 1 if n == 3 else 0
        if owner["neutral"]:
            f[29] += owner["qi"]
    for k, sp in enumerate(spaces):
        g = sp["ghost"]
        if g is None:
            continue
        hi = haunts_in(g)
        if hi == 1:
            f[22] += 1
        elif hi == 2:
            f[23] += 1
        if "CURSE" in g["yin"] or "BONE_CRACK" in g["yin"]:
            f[24] += 1
        r = sum(g["resistance"].values())
        if not g["incarnation"]:
            f[25] += r / 4
            f[26] += 1 if r >= 3 else 0
        if g["captured"] or any(st in g["states"] for st in LOCK_STATES):
            f[27] += 1
        opp = spaces[OPPOSITE[k]]["ghost"]
        if opp is not None and "OPPOSITE_EMPTY" in opp["states"]:
            f[28] += 1
    f[30] = 1.0 if view["circle"] else 0.0
    f[31] = float(sum(b["power_tokens"] for b in living))
    return f


# fitted by bench/value_ghost_stories.py fit (see the docstring); players -> one weight per feature
WEIGHTS: dict[int, tuple[float, ...]] = {
    1: (
        -0.0383, -0.1056, -1.0944, 1.6802, -1.2359, -0.3006, -0.3915, 0.0, 0.4228, -0.282, -0.0985, 0.3462,
        0.2054, 0.4742, 0.1604, -0.1604, -0.2928, -0.0924, -0.0379, -0.0617, -0.2387, -0.0006, -0.3975, -0.2524,
        -0.4404, 0.0939, -0.1133, -0.0765, -0.9628, -0.0073, 0.5551, 0.1871
    ),
    2: (
        2.014, -0.2333, -1.6166, 1.4942, -0.6577, -0.2375, -0.6464, -0.0791, 0.306, -0.3859, -0.123, 0.1664,
        0.1198, 0.3971, 0.1836, -0.1836, -0.4145, -0.0241, 0.0555, -0.0499, -0.4104, 0.0686, -0.3046, -0.1442,
        -0.0729, 0.0098, -0.0644, 0.0492, -1.9942, 0.0762, 0.1303, 0.1925
    ),
    3: (
        0.4143, 1.008, -2.1908, 0.6493, 0.0357, -0.2794, -0.4957, 0.4504, 0.2088, -0.3488, -0.1372, 0.0884,
        0.0592, 0.2657, 0.15, -0.15, -0.1367, 0.0161, 0.0333, -0.0067, -0.193, 0.1028, -0.3062, -0.1534,
        -0.1424, -0.2327, 0.0811, -0.1612, -1.919, -0.0096, 0.0964, 0.0771
    ),
    4: (
        0.0083, 0.6663, -1.9299, 0.6052, 0.0374, -0.198, -0.1732, -0.2528, 0.2153, -0.1559, -0.0995, 0.1135,
        0.0031, 0.2882, 0.1213, -0.1213, -0.2198, 0.0806, 0.0258, 0.0369, -0.0797, 0.2002, -0.2036, -0.0891,
        -0.1759, -0.1131, 0.0345, -0.0608, -1.8218, 0.0, -0.0327, 0.0
    ),
}


def value(view: View) -> float:
    """The chance the team wins from this position (a won game 1, a lost one 0)."""
    if view["result"] is not None:
        return 1.0 if view["result"] == "win" else 0.0
    w = WEIGHTS[int(view["players"])]
    z = sum(a * b for a, b in zip(w, features(view), strict=True))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
