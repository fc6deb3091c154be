"""The Wu-Feng endgame: once an exorcisable incarnation is in play, the whole team plays for it.

After the incarnation shows there are only about ten draws left, so surviving matters less than
banishing it. Strong players then do three things, which this planner does from the public view:
gather on the one tile that faces the incarnation (Tao tokens of every Taoist on the exorcist's tile
pay), get tokens of its colours (Tea House, Herbalist, rewards) and the Circle of Prayer of its colour,
and attempt the exorcism every turn someone stands there (a failed attempt costs no token).

`wufeng_action` returns the next step of the active Taoist's Yang phase, or None to let the general
heuristic decide (no exorcisable incarnation, or a loss is imminent and must be fended off first).
As the plan decides before the heuristic's rules for the turn's start, it takes the Bottomless
Pockets token itself and borrows a neutral board's power for an attempt (`_borrow_for`): attempting
at once had left both unused.
Uncatchable is not exorcisable until the Pavilion has blown it onto a Buddha: `uncatchable_action`
fetches a Buddha, puts it down and calls the Pavilion first.
"""

from __future__ import annotations

from typing import Any

from bot.rules.ghost_stories.data import ADJ, FACES, FRONT, tile_index
from bot.rules.ghost_stories.game import Act
from bot.rules.ghost_stories.reading import _dice, has_power, haunts_in, overrun_crisis, power_of, success_chance

View = dict[str, Any]

GO = 0.55  # attempt now at least at these odds while more turns remain ...
FUT = 0.8  # ... a preparation step is worth this share of the odds it adds to later attempts
STEP = 0.04  # each step of distance from the incarnation's tile costs this much (in odds)
ROUTE = 0.6  # a token source (Tea House, Herbalist, Circle) k steps away is worth ROUTE ** k of its gain
POWER_MIN = 0.03  # a Power token is spent on a neutral board's power that adds at least this to the attempt's odds
# (before moving, `power_action`; at the incarnation's tile, `_borrow_for`)
BORROW_INC = True  # at the incarnation's tile: the Pockets token first, then a power for the attempt


def _tname(tile: int) -> str:
    return "abc"[tile % 3] + str(tile // 3 + 1)


def _dist(a: int, b: int) -> int:
    return max(abs(a // 3 - b // 3), abs(a % 3 - b % 3))


def target(view: View) -> int | None:
    """The space of the incarnation the team plays for (exorcisable now), if any. Only the last one:
    at Nightmare and Hell the earlier incarnations are fought without giving up the village."""
    inc = view["incarnations"]
    if int(inc["total"]) - int(inc["banished"]) > 1:
        return None
    for k, sp in enumerate(view["spaces"]):
        g = sp["ghost"]
        if g is not None and g["incarnation"] and g["exorcisable"]:
            return k
    return None


def imminent_loss(view: View) -> bool:
    """A haunting that would lose the game this round, or a Taoist at 1 Qi whose full board will be
    overrun before another teammate can help: the general heuristic handles it first (a death there
    loses the dead Taoist's tokens, and the last one loses the game)."""

    if any(view["boards"][b]["qi"] <= 1 for b in overrun_crisis(view)):
        return True
    if view["haunted"] < view["haunt_limit"] - 1:
        return False
    return any(sp["ghost"] is not None and haunts_in(sp["ghost"]) == 1 for sp in view["spaces"])


def odds(view: View, me: dict[str, Any], k: int, pool: dict[str, int], circle: str | None, flex: int = 0) -> float:
    """Chance that an exorcism of k from its tile succeeds with `pool` tokens and that Circle colour
    (`flex`: a Mantra to be placed on it)."""

    sp = view["spaces"][k]
    g = sp["ghost"]
    need = dict(g["resistance"])
    if circle and need.get(circle, 0) > 0:
        need[circle] -= 1
    flex = 1 if sp["mantra"] else flex
    tokens = {} if view["tao_locked"] else pool
    return success_chance(need, flex, _dice(view, me), tokens, view["whites_wild"], "DICE_IMMUNE" not in g["states"])


def _pool(view: View, me: dict[str, Any], tile: int, mine: dict[str, int]) -> dict[str, int]:
    pool = dict(mine)
    for b in view["boards"]:
        if b["colour"] != me["colour"] and b["alive"] and not b["neutral"] and b["pos"] == _tname(tile):
            for c, n in b["tao"].items():
                pool[c] = pool.get(c, 0) + n
    return pool


def _team_pool(view: View, mine: dict[str, int]) -> dict[str, int]:
    """Every living Taoist's tokens: what the gathered team could pay at a later attempt."""
    return _pool_all(view, mine)


def _pool_all(view: View, mine: dict[str, int]) -> dict[str, int]:
    pool = dict(mine)
    for b in view["boards"]:
        if b["colour"] != view["turn"] and b["alive"] and not b["neutral"]:
            for c, n in b["tao"].items():
                pool[c] = pool.get(c, 0) + n
    return pool


def _useful(view: View, k: int) -> list[str]:
    g = view["spaces"][k]["ghost"]
    return [c for c, n in g["resistance"].items() if n > 0]


def _token_gain(view: View, me: dict[str, Any], k: int, mine: dict[str, int], c: str, base: float) -> float:
    """What one more token of colour c adds to the odds against k. When one alone adds nothing (4 green
    against 2 dice: the dice cover 2 at most), half of what two add: the first is the way to the second
    (without this the plan saw no gain anywhere and attempted at odds 0 turn after turn)."""
    more = dict(mine)
    more[c] = more.get(c, 0) + 1
    gain = odds(view, me, k, _team_pool(view, more), view["circle"]) - base
    if gain <= 0.0 and view["supply"].get(c, 0) >= 2:
        more[c] += 1
        gain = (odds(view, me, k, _team_pool(view, more), view["circle"]) - base) / 2
    return gain


def _prep_gain(view: View, me: dict[str, Any], k: int, tile: int, via_yy: bool = False) -> tuple[float, str | None]:
    """What the help of `tile` adds to later odds against k (and the colour to choose)."""
    t = view["tiles"][tile]
    if t["haunted"]:
        return 0.0, None
    key = t["key"]
    mine = dict(me["tao"])
    base = odds(view, me, k, _team_pool(view, mine), view["circle"])
    best, colour = 0.0, None
    if key in ("tea_house", "circle"):
        for c in _useful(view, k):
            if view["supply"].get(c, 0) <= 0:
                continue
            if key == "tea_house":
                p = base + _token_gain(view, me, k, mine, c, base)
            else:
                if c == view["circle"]:
                    continue
                p = odds(view, me, k, _team_pool(view, mine), c)
            if p - base > best:
                best, colour = p - base, c
    elif key == "herbalist" and not view["tao_locked"]:
        # two dice: each gives a token of its colour, white one of our choice
        gain = 0.0
        for c in _useful(view, k):
            gain = max(gain, _token_gain(view, me, k, mine, c, base))
        share = sum(1 for c in _useful(view, k)) / 6 + 1 / 6
        best = gain * min(1.0, 2 * share)
    return best, colour


def wufeng_action(view: View, me: dict[str, Any], by: dict[str, list[Act]]) -> Act | None:
    """The next step of this Taoist's turn in the Wu-Feng endgame, or None (see the module doc)."""
    k = target(view)
    if k is None or imminent_loss(view):
        return None
    here = tile_index(me["pos"]) or 0
    front = FRONT[k]
    living = sum(1 for b in view["boards"] if b["alive"] and not b["neutral"])
    last_round = int(view["deck"]) <= living
    fut = 0.0 if last_round else FUT
    wname = view["spaces"][k]["space"]

    # 0. Bottomless Pockets (own or borrowed) first: the token of the colour that helps the attempt most
    if BORROW_INC and "pocket" in by:
        pool = _team_pool(view, dict(me["tao"]))
        return max(
            by["pocket"],
            key=lambda a: odds(view, me, k, {**pool, a.parts[1]: pool.get(a.parts[1], 0) + 1}, view["circle"]),
        )

    # 1. At the incarnation's tile: attempt it (every Taoist here pays), unless preparing is clearly better.
    exo = [a for a in by.get("exorcise", []) if wname in a.parts[1:]]
    if exo and here == front:
        p_now = odds(view, me, k, _pool(view, me, here, me["tao"]), view["circle"])
        prep = 0.0
        if "help" in by:
            prep = fut * _prep_gain(view, me, k, here)[0]
        if p_now >= min(GO, prep + 0.01) or p_now > prep:
            return _borrow_for(view, me, k, by, p_now) or max(exo, key=lambda a: len(a.parts))

    # 2. The Yin-Yang calls the Circle of Prayer (or the Tea House) from anywhere.
    if "yinyang" in by:
        best_yy, best_gain = None, 0.05
        for a in by["yinyang"]:
            if a.parts[1] == "restore":
                continue
            x = tile_index(a.parts[1])
            if x is None or view["tiles"][x]["key"] not in ("circle", "tea_house"):
                continue
            gain = _prep_gain(view, me, k, x, via_yy=True)[0]
            if gain > best_gain:
                best_yy, best_gain = a, gain
        if best_yy is not None and not last_round:
            return best_yy

    # 3. Move: to the incarnation's tile to attempt it, or to a helpful tile on the way.
    if "move" in by or ("help" in by or "exorcise" in by):
        reach = [here] + [tile_index(a.parts[1]) or 0 for a in by.get("move", [])]
        can_move = "move" in by

        gains = {y: _prep_gain(view, me, k, y)[0] for y in range(9)}
        # with Dance of the Peaks every tile is one move away (solo: always), so no tile is on the way
        peaks = has_power(view, me, "peaks")

        def steps(a: int, b: int) -> int:
            return min(1, _dist(a, b)) if peaks else _dist(a, b)

        def score(x: int) -> tuple[float, str]:
            if x == front:
                p = odds(view, me, k, _pool(view, me, x, me["tao"]), view["circle"])
                return p, "exorcise"
            # a help here, or one on the way: the tokens the incarnation needs are fetched over turns
            route = max((g * ROUTE ** steps(x, y) for y, g in gains.items() if y != x), default=0.0)
            return fut * max(gains[x], route) - STEP * steps(x, front), "help" if gains[x] > 0 else "route"

        options = [(score(x), x) for x in (reach if can_move else [here])]
        (best_v, what), best_x = max(options, key=lambda o: (o[0][0], o[1] == here))
        # nothing to do anywhere: walk towards the incarnation's tile
        if best_v <= 0.0 and can_move:
            near = min(reach, key=lambda x: (_dist(x, front), x != here))
            if near != here:
                return next(a for a in by["move"] if tile_index(a.parts[1]) == near)
        if best_x != here and can_move:
            return next(a for a in by["move"] if tile_index(a.parts[1]) == best_x)
        if what == "exorcise" and exo and best_v > 0.0:
            return _borrow_for(view, me, k, by, best_v) or max(exo, key=lambda a: len(a.parts))
        if what == "help" and "help" in by and best_v > 0.0:
            _, colour = _prep_gain(view, me, k, here)
            helps = by["help"]
            if colour is not None:
                for a in helps:
                    if a.parts[1:] == (colour,):
                        return a
            return helps[0]
    return None


def power_action(view: View, me: dict[str, Any], by: dict[str, list[Act]]) -> Act | None:
    """Powers for this turn's attempt on the incarnation, before moving: the Mantra on it, a Pockets token
    of its colour, or a Power token spent on the neutral board's power that raises the attempt's odds
    most (a 4th die, the Mantra, a token, a second attempt), when I can reach its tile this turn. The
    plan used to move first, so a borrowed power never served the attempt (solo holds 3 Power tokens).
    None: nothing to gain, or no attempt this turn."""
    k = target(view)
    if k is None or imminent_loss(view) or view["yang"]["moved"] or view["yang"]["acts"]:
        return None
    here = tile_index(me["pos"]) or 0
    front = FRONT[k]
    if front != here and front not in ADJ[here] and not has_power(view, me, "peaks"):
        return None
    wname = view["spaces"][k]["space"]
    if "mantra" in by and view["mantra"] in (None, "home"):
        for a in by["mantra"]:
            if a.parts[1] == wname:
                return a
    if "pocket" in by:
        colour = wants_colour(view)
        for a in by["pocket"]:
            if a.parts[1] == colour:
                return a
    if "power" not in by:
        return None
    pool = _pool(view, me, front, me["tao"])
    p0 = odds(view, me, k, pool, view["circle"])
    sp = view["spaces"][k]
    best, best_gain = None, POWER_MIN
    for a in by["power"]:
        key = power_of(view, a.parts[1])
        if has_power(view, me, key):
            continue
        if key == "mountain":
            p = odds(view, {**me, "_extra": (*me.get("_extra", ()), key)}, k, pool, view["circle"])
        elif key == "mantra" and not sp["mantra"] and view["mantra"] in (None, "home"):
            p = odds(view, me, k, pool, view["circle"], flex=1)
        elif key == "pockets" and not view["tao_locked"]:
            colour = wants_colour(view)
            p = odds(view, me, k, {**pool, colour: pool.get(colour, 0) + 1}, view["circle"]) if colour else p0
        elif key == "second_wind":
            p = 1 - (1 - p0) ** 2
        else:
            continue
        if p - p0 > best_gain:
            best, best_gain = a, p - p0
    return best


def _borrow_for(view: View, me: dict[str, Any], k: int, by: dict[str, list[Act]], p: float) -> Act | None:
    """Before an attempt on the incarnation: the neutral board's power worth a Power token most this turn
    (a 4th die, a second attempt, a reroll, a token of its colour), if it adds POWER_MIN to the
    chance of banishing it now. The heuristic's rule for Power tokens is not reached in the all-in plan."""
    if not BORROW_INC or "power" not in by:
        return None
    here = tile_index(me["pos"]) or 0
    pool = _pool(view, me, here, me["tao"])
    best, best_p = None, p + POWER_MIN
    for a in by["power"]:
        key = power_of(view, a.parts[1])
        if key == "mountain":
            q = odds(view, {**me, "_extra": (*me.get("_extra", ()), "mountain")}, k, pool, view["circle"])
        elif key in ("second_wind", "favorite"):  # a second roll (a reroll of chosen dice: at least that)
            q = 1.0 - (1.0 - p) ** 2
        elif key == "pockets" and not view["yang"]["moved"] and not view["tao_locked"]:
            q = max(odds(view, me, k, {**pool, c: pool.get(c, 0) + 1}, view["circle"]) for c in _useful(view, k))
        else:
            continue
        if q > best_p:
            best, best_p = a, q
    return best


def _uncatchable(view: View) -> int | None:
    """The space of the last incarnation if it is Uncatchable and not yet exorcisable (it must first be
    put on a Buddha: only the Pavilion can blow it onto one)."""
    inc = view["incarnations"]
    if int(inc["total"]) - int(inc["banished"]) > 1:
        return None
    for k, sp in enumerate(view["spaces"]):
        g = sp["ghost"]
        if g is not None and g["incarnation"] and "NEEDS_BUDDHA" in g["states"] and not g["exorcisable"]:
            return k
    return None


def uncatchable_action(view: View, me: dict[str, Any], by: dict[str, list[Act]]) -> Act | None:
    """Uncatchable can only be exorcised once the Pavilion has blown it onto a Buddha: a Buddha from the
    Temple, placed on an empty space, then the Pavilion (walked to, or called with the Yin-Yang).
    Without this plan the team took the Buddha only by chance and the deck ran out with Uncatchable
    in play. None: not that incarnation, or nothing of the plan to do from here."""
    k = _uncatchable(view)
    if k is None or imminent_loss(view):
        return None
    here = tile_index(me["pos"]) or 0
    tiles = view["tiles"]

    def tile_of(key: str) -> int | None:
        return next((x for x, t in enumerate(tiles) if t["key"] == key and not t["haunted"]), None)

    pavilion, temple = tile_of("pavilion"), tile_of("temple")
    ready = any(sp["buddha"] and sp["ghost"] is None for sp in view["spaces"])
    src = view["spaces"][k]["space"]
    if ready and pavilion is not None:
        if here == pavilion and "help" in by:
            blow = [a for a in by["help"] if a.parts[1:] == (src,)]
            if blow:
                return blow[0]
        return _step_to(by, pavilion)
    if pavilion is None:
        return None
    if "buddha" in by and (view["yang"]["acts"] or not view["yang"]["moved"]):
        # at once from where I stand (the Pavilion can follow this round), or after the action of the
        # tile I stepped to (a Buddha ends the turn's actions)
        return by["buddha"][0]
    if "buddha" in by:
        return None
    held = me["buddhas"] - me.get("buddhas_new", 0) > 0
    if held and "move" in by:
        # a tile that faces an empty space, nearest the Pavilion
        def empty_faces(x: int) -> bool:
            return any(view["spaces"][j]["ghost"] is None and not view["spaces"][j]["buddha"] for j in FACES[x])

        dests = [tile_index(a.parts[1]) or 0 for a in by["move"]]
        good = [x for x in dests if empty_faces(x)]
        if good and not empty_faces(here):
            best = min(good, key=lambda x: _dist(x, pavilion))
            return next(a for a in by["move"] if tile_index(a.parts[1]) == best)
        return None
    team_holds = any(b["buddhas"] > 0 for b in view["boards"] if b["alive"] and not b["neutral"])
    if not team_holds and temple is not None and view["temple_buddhas"] > 0:
        if here == temple and "help" in by:
            return by["help"][0]
        return _step_to(by, temple)
    return None


def _step_to(by: dict[str, list[Act]], tile: int) -> Act | None:
    """The way to `tile` this turn: a walk there, else the Yin-Yang's flight there."""
    for a in by.get("move", []):
        if tile_index(a.parts[1]) == tile:
            return a
    for a in by.get("yinyang", []):
        if a.parts[1] != "restore" and tile_index(a.parts[1]) == tile:
            return a
    return None


def wants_colour(view: View) -> str | None:
    """The colour a token choice should take in the endgame: the incarnation's most needed one."""
    k = target(view)
    if k is None:
        return None
    res: dict[str, int] = view["spaces"][k]["ghost"]["resistance"]
    return max(res, key=lambda c: res[c])
