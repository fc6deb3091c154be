"""A greedy Trick or Treat bot: keep the dice that fit the street you are on, walk to the nearest
doorbell worth ringing, ring/grab/rob, and buy the most points it can afford.

It reads only its own seat's view (everything in this game is public except face-down buildings and
the deck order, which the view does not contain).
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from typing import Any

from bot.rules.base import BotPolicy
from bot.rules.rng import Rng
from bot.rules.trick_or_treat.data import (
    BESIDE,
    BUILDING_NAMES,
    CARDS,
    CHARACTERS,
    ENTRANCES,
    KINDS,
    NEIGHBOURS,
    PLAIN,
    STREETS,
    WILD,
)
from bot.rules.trick_or_treat.game import Action, plan_payment

JSON = dict[str, Any]
CHAR_PREFERENCE = ("cowboy", "dinosaur", "witch", "hero", "princess", "pirate", "pumpkin", "lion")
UNKNOWN_VALUE = 0.8  # a face-down building: usually candy, sometimes bikers or a power plant
REVEAL_VALUE = 0.3  # ringing it only turns it up and stocks it (the default, ring_face_down=reveal)


def face_down_value(view: JSON) -> float:
    """What ringing a face-down building is worth: its first candy only with ring_face_down=take."""
    return UNKNOWN_VALUE if (view.get("opts") or {}).get("ring_face_down") == "take" else REVEAL_VALUE


def kind_values(view: JSON, me: JSON) -> dict[str, float]:
    """How much each candy kind helps towards the score cards on offer."""
    have = me["candy"]
    val = dict.fromkeys(KINDS, 0.3)
    val[WILD] = 1.2
    for card in view["row"]:
        cost = card["cost"]
        weight = card["points"] / card["size"]
        if "need" in cost:
            for k, n in cost["need"].items():
                if have[k] < n:
                    val[k] += weight
        elif "same" in cost:
            best = max(PLAIN, key=lambda k: have[k])
            val[best] += weight * 0.5
        else:
            for k in PLAIN:
                val[k] += weight * 0.2
    return val


def perm_faces(me: JSON) -> list[str]:
    faces: list[str] = []
    if me["char"]:
        faces.extend(CHARACTERS[me["char"]]["symbols"])
    for c in me["cards"]:
        if c["symbol"] in ("pumpkin", "club", "feet", "glass", "candy"):
            faces.append(c["symbol"])
    return faces


class TrickBot(BotPolicy[Action]):
    """Greedy, position-aware; no memory needed because the whole table is public."""

    def choose(self, view: JSON, legal: Sequence[Action], memory: JSON, rng: Rng) -> Action:
        seat = int(view["seat"])
        me = view["seats"][seat]
        verbs: dict[str, list[Action]] = {}
        for a in legal:
            verbs.setdefault(a.verb, []).append(a)
        values = kind_values(view, me)
        if "choose" in verbs:
            offered = {a.arg: a for a in verbs["choose"]}
            return next(offered[c] for c in CHAR_PREFERENCE if c in offered)
        if "start" in verbs:
            taken = {p["pos"] for p in view["seats"] if p["pos"]}
            free = [a for a in verbs["start"] if a.arg.upper() not in taken]
            return rng.choice(free or verbs["start"])
        for verb in ("give", "pay"):
            if verb in verbs:  # part with the least useful candy we hold most of
                return min(verbs[verb], key=lambda a: (values[a.arg], -me["candy"][a.arg], a.arg))
        if "spend" in verbs:  # pay for "any N" with the candy we need least
            return min(verbs["spend"], key=lambda a: (values[a.arg], -me["candy"][a.arg], a.arg))
        if "take" in verbs:
            return max(verbs["take"], key=lambda a: (values[a.arg], a.arg))
        if "save" in verbs:  # a discount keeps the candy we need most
            return max(verbs["save"], key=lambda a: (values[a.arg], a.arg))
        if view["phase"] == "roll":
            return self._roll(view, me, verbs)
        return self._act(view, me, verbs, values)

    # -- rolling --------------------------------------------------------------------------------
    def _roll(self, view: JSON, me: JSON, verbs: dict[str, list[Action]]) -> Action:
        dice = [d["f"] for d in view["dice"]]
        faces = dice + perm_faces(me)
        count = {f: faces.count(f) for f in set(faces)}
        here = me["pos"]
        good_here = here in BESIDE and self._ring_value(view, me, here) > 0
        victims = [p for p in view["seats"] if p["seat"] != me["seat"] and p["pos"] == here and p["candy_total"] > 0]
        want: set[str] = {"pumpkin"}
        if not good_here:
            want |= {"feet", "feet2"}
        if count.get("candy", 0) >= 2:
            want.add("candy")
        if count.get("glass", 0) >= 2:
            want.add("glass")
        if count.get("club", 0) >= 2 and (victims or count.get("pumpkin", 0) >= 2):
            want.add("club")
        marked = view["marked"]
        for i, f in enumerate(dice):
            if (f not in want) != bool(marked[i]):
                return Action("mark", str(i + 1))
        if "reroll" in verbs and any(marked):
            return verbs["reroll"][0]
        return verbs["done"][0]

    # -- acting ---------------------------------------------------------------------------------
    def _ring_value(self, view: JSON, me: JSON, street: str) -> float:
        """Best doorbell value beside a street (0 if none can be rung)."""
        best = 0.0
        blocked = set(view["rang"]) | set(me["rang_prev"])
        values = kind_values(view, me)
        for b in BESIDE[street]:
            cell = view["city"][b]
            if cell["name"] in blocked:
                continue
            if not cell["up"]:
                best = max(best, face_down_value(view))
            elif cell["type"] != "plant" and cell["candy"]:
                kinds = cell["candy"] if me["char"] == "cowboy" else cell["candy"][:1]
                best = max(best, max(values[k] for k in kinds))
        return best

    def _act(self, view: JSON, me: JSON, verbs: dict[str, list[Action]], values: dict[str, float]) -> Action:
        free = {f: 0 for f in ("feet2", "feet", "pumpkin", "club", "glass", "candy")}
        for d in view["dice"]:
            if not d["used"]:
                free[d["f"]] += 1

        def cell(name: str) -> JSON:
            cells: list[JSON] = view["city"]
            return cells[BUILDING_NAMES.index(name.upper())]

        def ring_score(a: Action) -> float:
            c = cell(a.arg)
            if not c["up"]:
                return face_down_value(view)
            kinds = c["candy"] if me["char"] == "cowboy" else c["candy"][:1]
            return max(values[k] for k in kinds)

        if "grab" in verbs:
            return max(verbs["grab"], key=lambda a: sum(values[k] for k in cell(a.arg)["candy"][:2]))
        if "ring" in verbs:
            best = max(verbs["ring"], key=ring_score)
            if ring_score(best) > 0.25 or me["candy_total"] == 0:
                return best
        if "steal" in verbs:
            chosen = [a for a in verbs["steal"] if a.arg2]
            if chosen:
                return max(chosen, key=lambda a: values[a.arg2])
            return verbs["steal"][0]
        if "set" in verbs and me["pos"] in BESIDE and self._ring_value(view, me, me["pos"]) > 0:
            for a in verbs["set"]:
                if (a.arg, a.arg2) == ("pumpkin", "pumpkin"):
                    return a
        if "supply" in verbs:
            return max(verbs["supply"], key=lambda a: values[a.arg])
        move = self._step(view, me, verbs.get("move", []), free)
        if move is not None:
            return move
        if "reveal" in verbs and free["pumpkin"] < 2:
            return verbs["reveal"][0]
        if "discount" in verbs and self._discount_helps(view, me):
            return verbs["discount"][0]
        if "buy" in verbs:
            return self._buy(view, me, verbs["buy"])
        return verbs["end"][0]

    def _buy(self, view: JSON, me: JSON, buys: list[Action]) -> Action:
        """The card worth most points; on it, as few discounts as leave a second card affordable with
        the rest of the candy and discounts (one candy off each), else as many as it can take."""
        row = view["row"]
        best = max(buys, key=lambda a: (row[int(a.arg) - 1]["points"], -int(a.arg)))
        options = sorted((a for a in buys if a.arg == best.arg), key=lambda a: int(a.arg2 or 0))
        total = int(view["discounts"])
        candy = dict(me["candy"])
        for a in reversed(options):  # most discounts first: of those leaving a second buy, the most
            k = int(a.arg2 or 0)
            plan = plan_payment(candy, CARDS[row[int(a.arg) - 1]["id"]], k)
            if plan is None:
                continue
            rest = {c: n - plan[0][c] for c, n in candy.items()}
            if any(
                plan_payment(rest, CARDS[card["id"]], total - k) is not None
                for i, card in enumerate(row)
                if i != int(a.arg) - 1
            ):
                return a
        return options[-1]

    def _discount_helps(self, view: JSON, me: JSON) -> bool:
        total = me["candy_total"]
        return any(card["size"] - view["discounts"] - 1 <= total for card in view["row"])

    def _step(self, view: JSON, me: JSON, moves: list[Action], free: dict[str, int]) -> Action | None:
        """One step along the cheapest path to the street with the best doorbell, if worth it."""
        if not moves:
            return None
        here = me["pos"]
        if here in ENTRANCES:
            return moves[0]
        pumpkins_left = free["pumpkin"] >= 2
        if pumpkins_left and self._ring_value(view, me, here) > 0:
            return None  # ring here first
        occupied: dict[str, int] = {}
        for p in view["seats"]:
            if p["seat"] != me["seat"] and p["pos"]:
                occupied[p["pos"]] = occupied.get(p["pos"], 0) + 1
        bikers = {i for i, c in enumerate(view["city"]) if c["up"] and c["type"] == "bikers"}
        fear = 0 if me["char"] == "lion" or me["candy_total"] == 0 else 2

        def cost(st: str) -> int:
            return 1 + occupied.get(st, 0) + fear * sum(1 for b in BESIDE[st] if b in bikers)

        dist = {here: 0}
        first: dict[str, str] = {}
        heap = [(0, here)]
        while heap:
            dcur, st = heapq.heappop(heap)
            if dcur > dist.get(st, 99):
                continue
            for nb in NEIGHBOURS[st]:
                nd = dcur + cost(nb)
                if nd < dist.get(nb, 99):
                    dist[nb] = nd
                    first[nb] = first.get(st, nb) if st != here else nb
                    heapq.heappush(heap, (nd, nb))
        best_st, best_score = None, 0.0
        for st in STREETS:
            if st == here or st not in dist:
                continue
            score = self._ring_value(view, me, st) * 2 + sum(0.3 for b in BESIDE[st] if not view["city"][b]["up"])
            score -= 0.35 * dist[st]
            if score > best_score:
                best_st, best_score = st, score
        if best_st is None:
            return None
        here_score = self._ring_value(view, me, here) * 2 if here in BESIDE else 0.0
        if here_score >= best_score + 0.35 * dist[best_st]:
            return None
        step = first[best_st]
        for a in moves:
            if a.arg.upper() == step:
                return a
        return None
