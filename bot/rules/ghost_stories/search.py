"""A look-ahead Taoist: it imagines the rest of its turn and the next Yin phases before choosing.

From its own view only, it builds *determinized* states (the unseen cards shuffled into a deck of the
right size, with Wu-Feng's incarnations at the positions the rules put them), plays each candidate
Yang action with the real rules engine, finishes its turn with the heuristic policy, lets the other
Taoists pass, and scores the position when its next turn comes. The candidate with the best mean
score over a few samples is chosen. Other decisions use the heuristic policy.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.rules.errors import GameError
from bot.rules.ghost_stories import core
from bot.rules.ghost_stories.bot import TaoistPolicy
from bot.rules.ghost_stories.data import BOARD_COLOURS, CARDS, INCARNATION_IDS, space_index, tile_index
from bot.rules.ghost_stories.game import GAME, Act
from bot.rules.rng import Rng

View = dict[str, Any]
SAMPLES = 4
HORIZON = 80


def determinize(view: View, rng: Rng) -> core.State:
    """A full state consistent with the view; hidden cards are shuffled with `rng`."""
    seen = set(view["discard_ids"])
    in_play = []
    spaces: list[dict[str, Any] | None] = []
    for sp in view["spaces"]:
        g = sp["ghost"]
        if g is None:
            spaces.append(None)
        else:
            seen.add(g["id"])
            in_play.append(g["id"])
            spaces.append(
                {"id": g["id"], "haunt": g["haunt"], "captured": g["captured"], "vulnerable": g["vulnerable"]}
            )
    unseen = [i for i in CARDS if i not in seen]
    incs = rng.shuffled([i for i in unseen if i in INCARNATION_IDS])
    ghosts = rng.shuffled([i for i in unseen if i not in INCARNATION_IDS])
    n = view["deck"]
    deck: list[int] = []
    for pos in range(n):
        if incs and pos % 11 == 10 and pos // 11 < view["incarnations"]["total"]:
            deck.append(incs.pop())
        elif ghosts:
            deck.append(ghosts.pop())
        else:
            deck.append(incs.pop())
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
                "pos": tile_index(b["pos"]) if b["pos"] else None,
            }
        )
    mantra = view["mantra"]
    if isinstance(mantra, str) and mantra not in ("home", "gone"):
        mantra = space_index(mantra)
    yang = dict(view["yang"]) if view["yang"] else None
    if yang is not None:
        yang["acts"] = list(yang["acts"])
        yang["borrowed"] = list(yang["borrowed"])
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
        "yang": yang,
        "queue": [],
        "pending": None,
        "last_roll": view["last_roll"],
        "result": None,
        "reason": "",
        "incarnations": view["incarnations"]["total"],
        "banished_incarnations": view["incarnations"]["banished"],
        "deck_out": False,
        "round": view["round"],
    }


def evaluate(s: core.State, deck0: int) -> float:
    if s["result"] == "lose":
        return -1000.0
    if s["result"] == "win":
        return 1000.0
    haunted = sum(1 for t in s["tiles"] if t["haunted"])
    limit = core.haunt_limit(s)
    v: float = -30.0 * haunted - (60.0 if haunted >= limit - 1 else 0.0)
    for bd in s["boards"]:
        if bd["seat"] is None:
            continue
        if bd["alive"]:
            v += 7.0 * min(bd["qi"], 3) + 2.0 * max(0, bd["qi"] - 3)
            v += 1.5 * sum(bd["tao"].values()) + 4.0 * bd["yy"] + 3.0 * bd["buddhas"]
        else:
            v -= 45.0
    v += 2.0 * sum(s["buddha_on"]) + (3.0 if s["circle"] else 0.0)
    for k, g in core.in_play(s):
        c = core.card(g)
        d = 3.0 + 1.5 * sum(c["resistance"].values())
        if "HAUNTER" in c["yin"]:
            d += 6.0 if g.get("haunts_in", 2 - (g["haunt"] or 0)) == 1 else 2.5
        if "CURSE" in c["yin"] or "BONE_CRACK" in c["yin"]:
            d += 4.0
        if c["incarnation"]:
            d += 8.0
        if g.get("captured"):
            d += 2.0
        board = k // 3
        if not core.free_spaces(s, board) and core.is_player(s, board) and core.alive(s, board):
            d += 3.0
        v -= d
    v += 1.0 * (deck0 - len(s["deck"]))
    v += 40.0 * s["banished_incarnations"]
    return v


class SearchPolicy(TaoistPolicy):
    """Look-ahead at each Yang decision; heuristic everywhere else (and inside the simulations)."""

    def choose(self, view: View, legal: Sequence[Act], memory: dict[str, Any], rng: Rng) -> Act:
        if view["pending"] is not None or view["phase"] != "yang" or len(legal) == 1:
            return super().choose(view, legal, memory, rng)
        seat = view["seat"]
        if seat is None:
            return super().choose(view, legal, memory, rng)
        default = super().choose(view, legal, memory, rng)
        cands = [a for a in legal if a.parts[0] not in ("power", "push") or a == default]
        if view["yang"]["moved"] or view["yang"]["acts"]:
            cands = [a for a in cands if a.parts[0] != "yinyang" or a == default or a.parts[1] == "restore"]
        best, best_v = default, -1e18
        seeds = [rng.next64() for _ in range(SAMPLES)]
        for a in cands:
            total = 0.0
            for sd in seeds:
                try:
                    total += self._rollout(view, seat, a, Rng(sd))
                except GameError:  # an imagined line the engine refuses: never worth choosing
                    total -= 1e6
            mean = total / SAMPLES + (0.5 if a == default else 0.0)
            if mean > best_v:
                best, best_v = a, mean
        return best

    def _rollout(self, view: View, seat: int, first: Act, rng: Rng) -> float:
        s = determinize(view, rng)
        deck0 = len(s["deck"])
        me = s["turn"]
        s, _ = GAME.apply(s, seat, first)
        base = TaoistPolicy()
        passed_me = False
        for _ in range(HORIZON):
            if s["result"] is not None:
                break
            who = GAME.to_act(s)
            if not who:
                break
            actor = min(who)
            if s["pending"] is None and s["phase"] == "yang":
                if s["turn"] == me and passed_me:
                    break
                if s["turn"] != me:
                    passed_me = True
                    s, _ = GAME.apply(s, actor, Act(("end",)))
                    continue
            legal = GAME.legal_actions(s, actor)
            a = base.choose(GAME.view(s, actor), legal, {}, rng)
            if s["pending"] is None and s["turn"] == me and a.parts[0] == "end":
                passed_me = True
            s, _ = GAME.apply(s, actor, a)
        return evaluate(s, deck0)
