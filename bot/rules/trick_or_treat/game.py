"""Trick or Treat Halloween: roll dice, walk the streets, ring doorbells, trade candy for score cards.

A turn is a sequence of small actions so that every decision is a short list: in the roll phase the
player marks dice (`mark 3`) and rerolls them (`reroll`) or stops (`done`); in the act phase each
action spends die faces and permanent symbols (`move V22`, `ring B3`, `steal 2` …); buying a card
(`buy 4`) starts the trade phase; `end` passes the turn. Choices that belong to someone else (the
victim of a steal picks the candy) are phases of their own with that seat in `to_act`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.i18n import N_, T_, Msg, Nn_
from bot.rules.base import Event, Game, OptionSpec, Outcome, cut, standings_lines
from bot.rules.errors import IllegalAction, InvalidInput
from bot.rules.rng import Rng
from bot.rules.trick_or_treat.data import (
    BESIDE,
    BUILDING_NAMES,
    BUILDINGS,
    CANDY_ICON,
    CARDS,
    CHAR_ORDER,
    CHARACTERS,
    ENTRANCES,
    FACE_ICON,
    FACE_NAME,
    FACES,
    KIND_NAME,
    KINDS,
    LINES,
    NEIGHBOURS,
    NOT_WITH_TWO,
    ORANGE_DICE,
    PER_KIND,
    PLAIN,
    STREETS,
    TYPE_NAME,
    WILD,
    card_cost_size,
    card_cost_text,
)

State = dict[str, Any]
JSON = dict[str, Any]

TARGET = 12  # points that trigger the last round
MAX_ROUNDS = 30  # safety net for async tables (documented house rule)
BASE_REROLLS = 2
# 「另2個「放大鏡」圖案的骰子則可自行轉至行動玩家所須要的圖案面」: any face the player needs, a magnifier too
SET_FACES: tuple[str, ...] = tuple(FACES)

VERBS = (
    "choose",
    "start",
    "mark",
    "reroll",
    "done",
    "move",
    "ring",
    "grab",
    "steal",
    "reveal",
    "set",
    "discount",
    "supply",
    "take",
    "give",
    "pay",
    "buy",
    "spend",
    "save",
    "end",
)


def card_words(cid: int) -> str:
    """A score card as players know it, by what it is worth and costs ("the 4-point card (4 corn candy)"):
    the card ids are the data file's, printed nowhere."""
    c = CARDS[cid]
    return N_("the {points}-point card ({cost})", points=c["points"], cost=card_cost_text(c))


@dataclass(frozen=True, order=True)
class Action:
    """One small step of a turn; `arg`/`arg2` are lower-case tokens of the notation."""

    verb: str
    arg: str = ""
    arg2: str = ""


_SEAT_TOKEN = re.compile(r"(?<![A-Za-z0-9])P([1-8])(?![0-9])")  # Chinese may touch it: no \b


def P(seat: int) -> str:
    return f"P{seat + 1}"


def icons(faces: list[str] | tuple[str, ...]) -> str:
    """Die faces for a log line, space-separated so 👣👣 (one die) never reads as two 👣 dice."""
    return " ".join(FACE_ICON[f] for f in faces)


def who(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"{P(seat)}"


def event_names(text: str, names: Sequence[str]) -> str:
    """'P2' tokens replaced by the players' names (when known)."""
    return _SEAT_TOKEN.sub(lambda m: who(names, int(m.group(1)) - 1), text)


def dice_line(view: JSON) -> str:
    """The dice of the turn as emoji: numbered while rolling, the unused ones while acting."""
    dice = view.get("dice") or []
    if view["phase"] == "roll":
        marked = view.get("marked") or []
        parts = [
            f"`{i + 1}` {FACE_ICON[d['f']]}{' ↻' if i < len(marked) and marked[i] else ''}" for i, d in enumerate(dice)
        ]
        perm = " ".join(FACE_ICON[f] for f in view.get("perm") or [])
        rolled = "🎲 " + "  ".join(parts)
        return Msg.cat(rolled, N_("permanent {perm}", perm=perm), sep="  · ") if perm else rolled
    free = [FACE_ICON[d["f"]] for d in dice if not d["used"]]
    pieces: list[str] = [N_("🎲 left: {dice}", dice=" ".join(free)) if free else N_("🎲 left: none")]
    if view.get("banked"):
        pieces.append(N_("{n} 👣 banked", n=view["banked"]))
    if view.get("discounts"):
        pieces.append(Nn_("{n} discount", "{n} discounts", view["discounts"]))
    return Msg.cat(*pieces, sep=" · ")


# ---------------------------------------------------------------------------------------------
# pure helpers on a state


def score_of(s: State, seat: int) -> int:
    p = s["players"][seat]
    pts = sum(int(CARDS[c]["points"]) for c in p["cards"])
    if p["char"]:
        mod = int(CHARACTERS[p["char"]]["modifier"])
        if p["char"] == "cowboy" and s["opts"]["cowboy"] == "-2":
            mod = -2
        pts += mod
    return pts


def candy_total(p: Mapping[str, Any]) -> int:
    return sum(int(v) for v in p["candy"].values())


def club_symbols(s: State, seat: int) -> int:
    """Clubs a player owns on character and score cards: each makes stealing from them dearer."""
    p = s["players"][seat]
    n = sum(1 for c in p["cards"] if CARDS[c]["symbol"] == "club")
    if p["char"]:
        n += CHARACTERS[p["char"]]["symbols"].count("club")
    return n


def turn_kit(s: State, seat: int) -> tuple[list[str], int, int]:
    """Permanent faces, black dice and extra rerolls from the character and owned score cards."""
    p = s["players"][seat]
    faces: list[str] = []
    black = 0
    extra = 0
    if p["char"]:
        ch = CHARACTERS[p["char"]]
        faces.extend(ch["symbols"])
        extra += int(ch["rerolls"])
    for cid in p["cards"]:
        sym = CARDS[cid]["symbol"]
        if sym == "black":
            black += 1
        elif sym == "reroll":
            extra += 1
        elif sym:
            faces.append(sym)
    return faces, black, extra


def free_count(s: State, face: str) -> int:
    return sum(1 for d in s["sym"] if d["f"] == face and not d["used"])


def feet_points(s: State) -> int:
    return int(s["banked"]) + 2 * free_count(s, "feet2") + free_count(s, "feet")


def pawns_on(s: State, street: str, but: int) -> int:
    return sum(1 for i, p in enumerate(s["players"]) if i != but and p["pos"] == street)


def step_cost(s: State, seat: int, street: str) -> int:
    return 1 + pawns_on(s, street, seat)


def plan_payment(
    candy: Mapping[str, int], card: Mapping[str, Any], discounts: int
) -> tuple[dict[str, int], int] | None:
    """Tiles to pay for a card and discounts used, or None if unaffordable.

    The payment is automatic (documented): matching kinds first, wilds only for a shortfall, the
    `discounts` the buyer puts on this card used (sparing wilds first; at most the card's size);
    "any N" takes from the largest piles.
    """
    cost = card["cost"]
    have = {k: int(candy.get(k, 0)) for k in KINDS}
    pay = dict.fromkeys(KINDS, 0)
    if "need" in cost:
        need = {k: int(v) for k, v in cost["need"].items()}
        size = sum(need.values())
        used = min(discounts, size)
        left = used
        short = 0
        for k in PLAIN:
            if k in need:
                got = min(have[k], need[k])
                pay[k] = got
                short += need[k] - got
        cut = min(left, short)
        short -= cut
        left -= cut
        for k in PLAIN:
            while left and pay[k]:
                pay[k] -= 1
                left -= 1
        if short > have[WILD]:
            return None
        pay[WILD] = short
        return pay, used
    if "any" in cost:
        n = int(cost["any"])
        used = min(discounts, n)
        n -= used
        pool = dict(have)
        while n:
            best = max(PLAIN, key=lambda k: (pool[k], -PLAIN.index(k)))
            if pool[best] > 0:
                pool[best] -= 1
                pay[best] += 1
            elif pool[WILD] > 0:
                pool[WILD] -= 1
                pay[WILD] += 1
            else:
                return None
            n -= 1
        return pay, used
    n = int(cost["same"])
    used = min(discounts, n)
    n -= used
    best = max(PLAIN, key=lambda k: (have[k], -PLAIN.index(k)))
    got = min(have[best], n)
    if n - got > have[WILD]:
        return None
    pay[best] = got
    pay[WILD] = n - got
    return pay, used


def buy_actions(candy: Mapping[str, int], slot: int, cid: int, discounts: int) -> list[Action]:
    """`buy 4` (full price) and `buy 4 -k` (k of this turn's discounts on this card), when affordable.

    「在換取分數卡時，可少支付1個糖果板塊」 is one candy fewer per discount: the buyer decides how many of them
    go on each card, so two discounts can pay for two cards, one candy off each.
    """
    card = CARDS[cid]
    out = []
    for k in range(min(discounts, card_cost_size(card)) + 1):
        if plan_payment(candy, card, k) is not None:
            out.append(Action("buy", str(slot), str(k) if k else ""))
    return out


def discount_choices(candy: Mapping[str, int], card: Mapping[str, Any], used: int) -> int:
    """How many of the `used` discounts on a printed-cost card save a tile of the buyer's choice:
    those not needed to cover a shortfall, when the tiles to pay are of more than one kind."""
    cost = card["cost"]
    if "need" not in cost or not used:
        return 0
    need = {k: int(v) for k, v in cost["need"].items()}
    short = sum(max(0, n - int(candy.get(k, 0))) for k, n in need.items())
    free = used - min(used, short)
    full = plan_payment(candy, card, used - free)
    if not free or full is None:
        return 0
    return free if sum(1 for k in KINDS if full[0][k] > 0) > 1 else 0


def spendable(candy: Mapping[str, int], pend: Mapping[str, Any]) -> list[str]:
    """Kinds that may pay the next tile of an "any N" / "N of one kind" card and keep it payable."""
    left = int(pend["left"])
    held = [k for k in KINDS if candy[k] > 0]
    if not pend["same"]:
        return held
    fixed = pend["fixed"]
    if fixed:
        return [k for k in (fixed, WILD) if candy[k] > 0]
    wild = candy[WILD]
    ok = [k for k in PLAIN if candy[k] > 0 and candy[k] + wild >= left]
    if wild and (any(candy[k] + wild >= left for k in PLAIN) or wild >= left):
        ok.append(WILD)
    return ok


@dataclass(frozen=True)
class Walk:
    """A walk of several streets in one choice: the `move` steps it stands for, what it costs in
    footprints, and what is on the way (bikers that take a candy, crowded streets)."""

    path: tuple[str, ...]  # the streets entered, in order, upper-case
    cost: int
    bikers: tuple[str, ...] = ()  # streets of the path beside face-up bikers (a candy each)
    crowded: tuple[str, ...] = ()  # streets of the path where other pawns stand

    @property
    def moves(self) -> list[str]:
        return [f"move {street.lower()}" for street in self.path]


def _bikers_beside(s: State, street: str) -> int:
    return sum(1 for b in BESIDE[street] if s["city"][b]["up"] and BUILDINGS[s["city"][b]["b"]]["type"] == "bikers")


def walks(s: State, seat: int) -> list[Walk]:
    """The cheapest walk to every street two or more steps away that this turn's footprints reach.

    Pawns stand still while one walks, so each street's price (1 + the pawns on it) is fixed and the
    cheapest path is a shortest path (fewest footprints, then fewest bikers, then fewest steps). A walk
    is a list of ordinary `move` steps, so bots, `/game move` and replays know nothing of it. Bikers
    that would *ask* which candy to hand back (two or more kinds held, not the Lion) end a walk: the
    question comes first, then the player walks on.
    """
    if s["phase"] != "act" or s["pending"] or seat != s["turn"]:
        return []
    me = s["players"][seat]
    pos = me["pos"]
    if pos is None:
        return []
    budget = feet_points(s)
    asks = me["char"] != "lion" and sum(1 for k in KINDS if me["candy"][k] > 0) > 1
    first = (ENTRANCES[pos],) if pos in ENTRANCES else NEIGHBOURS[pos]
    best: dict[str, tuple[int, int, int, tuple[str, ...]]] = {}
    frontier: list[tuple[int, int, int, tuple[str, ...]]] = []
    for street in first:
        cost = step_cost(s, seat, street)
        if cost <= budget:
            frontier.append((cost, min(1, _bikers_beside(s, street)), 1, (street,)))
    while frontier:
        frontier.sort()
        cost, bikers, steps, path = frontier.pop(0)
        here = path[-1]
        if here in best:
            continue
        best[here] = (cost, bikers, steps, path)
        if asks and _bikers_beside(s, here):
            continue  # the bikers' question interrupts the walk here
        for street in NEIGHBOURS[here]:
            if street in best or street in path or street == pos:
                continue
            price = cost + step_cost(s, seat, street)
            if price <= budget:
                frontier.append((price, bikers + min(1, _bikers_beside(s, street)), steps + 1, (*path, street)))
    out = []
    for cost, _bikers, steps, path in best.values():
        if steps < 2:
            continue
        out.append(
            Walk(
                path,
                cost,
                tuple(x for x in path if _bikers_beside(s, x)),
                tuple(x for x in path if pawns_on(s, x, seat)),
            )
        )
    return sorted(out, key=lambda w: (w.cost, len(w.path), w.path))


def last_round_reason(s: State) -> str | None:
    """Why the round being played is the last one, or None: 12 points (the seed's end), or one of the
    two house rules for an online table (every score card bought; round 30)."""
    best = max(score_of(s, i) for i in range(s["n"]))
    if best >= TARGET:
        leaders = [P(i) for i in range(s["n"]) if score_of(s, i) == best]
        return Nn_(
            "{names} has {points} points",
            "{names} have {points} points",
            len(leaders),
            names=Msg.join(leaders),
            points=best,
        )
    if not s["row"]:
        return N_("The last score card is bought")
    if s["round"] >= MAX_ROUNDS:
        return N_("Round {MAX_ROUNDS} (house rule: at most {MAX_ROUNDS} rounds)", MAX_ROUNDS=MAX_ROUNDS)
    return None


def clone(s: State) -> State:
    """A structural copy, several times faster than deepcopy (apply copies on every move)."""
    out = dict(s)
    out["opts"] = dict(s["opts"])
    out["city"] = [{"b": c["b"], "up": c["up"], "candy": list(c["candy"])} for c in s["city"]]
    out["removed"] = list(s["removed"])
    out["supply"] = dict(s["supply"])
    out["row"] = list(s["row"])
    out["deck"] = list(s["deck"])
    out["players"] = [
        {
            "char": p["char"],
            "pos": p["pos"],
            "candy": dict(p["candy"]),
            "cards": list(p["cards"]),
            "rang_prev": list(p["rang_prev"]),
        }
        for p in s["players"]
    ]
    out["sym"] = [dict(d) for d in s["sym"]]
    out["marked"] = list(s["marked"])
    out["perm"] = list(s["perm"])
    out["rang"] = list(s["rang"])
    if s.get("trail"):
        out["trail"] = {"seat": s["trail"]["seat"], "streets": list(s["trail"]["streets"])}
    pend = s["pending"]
    out["pending"] = (
        {k: list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else v for k, v in pend.items()}
        if pend
        else None
    )
    return out


class TrickOrTreat(Game[State, Action]):
    key = "trick_or_treat"
    title = N_("Trick or Treat Halloween")
    min_players = 2
    max_players = 8
    summary = N_("Roll dice, walk the city, ring doorbells and trade your candy for score cards.")
    options = (
        OptionSpec(
            "ring_face_down",
            N_(
                "Ringing a face-down building: 'reveal' turns it up and stocks it (seed); 'take' "
                "also gives its 1st candy"
            ),
            ("reveal", "take"),
            "reveal",
        ),
        OptionSpec("cowboy", N_("The Cowboy's score modifier (the seed prints +2)"), ("+2", "-2"), "+2"),
    )
    # Nothing is secret, but the victim of a steal decides privately which candy to give: the
    # platform DMs a panel to every human who newly has to decide (the steal victim, the next player),
    # or offers it ephemerally when their DMs are closed.
    has_private_info = True
    rules_doc = "docs/rules/trick_or_treat.md"
    # A turn is many small steps (mark a die, reroll, move one street…): editing one board message
    # keeps the channel readable where a new image per step would flood it.
    live_board = True

    # -- setup -------------------------------------------------------------------------------
    def new(self, num_players: int, seed: int, options: Mapping[str, str] | None = None) -> State:
        self.check_players(num_players)
        opts = self.check_options(options)
        rng = Rng.from_seed(seed)
        tiles = rng.shuffled([b["id"] for b in BUILDINGS])
        deck = rng.shuffled(sorted(CARDS))
        return {
            "schema": 1,
            "n": num_players,
            "opts": opts,
            "rng": rng.state,
            "city": [{"b": t, "up": False, "candy": []} for t in tiles[:16]],
            "removed": tiles[16:],
            "supply": dict.fromkeys(KINDS, PER_KIND),
            "row": deck[:6],
            "deck": deck[6:],
            "players": [
                {"char": None, "pos": None, "candy": dict.fromkeys(KINDS, 0), "cards": [], "rang_prev": []}
                for _ in range(num_players)
            ],
            "start": 0,
            "phase": "choose",
            "turn": 0,
            "round": 1,
            "sym": [],
            "marked": [],
            "rerolls": 0,
            "perm": [],
            "banked": 0,
            "rang": [],
            "discounts": 0,
            "pending": None,
            # a turn with nothing left to do but End passes by itself (tables created before this rule
            # lack the key and keep their explicit `end` moves, so their logs replay unchanged)
            "auto_end": True,
        }

    # -- whose decision ----------------------------------------------------------------------
    def to_act(self, state: State) -> frozenset[int]:
        if state["phase"] == "over":
            return frozenset()
        pend = state["pending"]
        if pend and pend["kind"] == "give":
            return frozenset({int(pend["victim"])})
        return frozenset({int(state["turn"])})

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        s = state
        phase = s["phase"]
        me = s["players"][seat]
        if phase == "choose":
            taken = {p["char"] for p in s["players"]}
            return [
                Action("choose", c) for c in CHAR_ORDER if c not in taken and not (s["n"] == 2 and c in NOT_WITH_TWO)
            ]
        if phase == "start":
            return [Action("start", e.lower()) for e in ENTRANCES]
        if phase == "roll":
            out = [Action("mark", str(i + 1)) for i in range(len(s["sym"]))]
            if any(s["marked"]) and s["rerolls"] > 0:
                out.append(Action("reroll"))
            out.append(Action("done"))
            return out
        pend = s["pending"]
        if pend:
            verb = pend["kind"]
            if verb == "take":
                kinds = s["city"][pend["b"]]["candy"]
            elif verb == "spend":
                kinds = spendable(me["candy"], pend)
            elif verb == "save":
                kinds = [k for k in KINDS if pend["pay"][k] > 0]
            else:
                kinds = [k for k in KINDS if me["candy"][k] > 0]
            return [Action(verb, k) for k in KINDS if k in kinds]
        out = []
        if phase == "act":
            out.extend(self._act_actions(s, seat))
            if self._must_enter(s, seat):
                # 「除遊戲開始外，玩家不能將自家立牌停留在城市區邊緣」: step in before buying or ending
                return out
        for i, cid in enumerate(s["row"]):
            out.extend(buy_actions(me["candy"], i + 1, cid, int(s["discounts"])))
        out.append(Action("end"))
        return out

    def _must_enter(self, s: State, seat: int) -> bool:
        """A pawn still at its entrance that can step into the city this turn must do so before the
        turn (or the act phase) ends: it may not stay at the edge. Without the footprints it waits."""
        pos = s["players"][seat]["pos"]
        if pos not in ENTRANCES or s["pending"]:
            return False
        return step_cost(s, seat, ENTRANCES[pos]) <= feet_points(s)

    def _ringable(self, s: State, seat: int, idx: int, need_candy: int) -> bool:
        if idx in s["rang"] or idx in s["players"][seat]["rang_prev"]:
            return False
        cell = s["city"][idx]
        if not cell["up"]:
            return need_candy == 0
        if BUILDINGS[cell["b"]]["type"] == "plant":
            return False
        return len(cell["candy"]) >= max(need_candy, 1)

    def _act_actions(self, s: State, seat: int) -> list[Action]:
        out: list[Action] = []
        me = s["players"][seat]
        pos = me["pos"]
        if pos is None:
            return out
        feet = feet_points(s)
        if pos in ENTRANCES:
            dests: tuple[str, ...] = (ENTRANCES[pos],)
        else:
            dests = NEIGHBOURS[pos]
        for d in dests:
            if step_cost(s, seat, d) <= feet:
                out.append(Action("move", d.lower()))
        if pos in ENTRANCES:
            return out + self._symbol_only_actions(s)
        pumpkins = free_count(s, "pumpkin")
        clubs = free_count(s, "club")
        glass = free_count(s, "glass")
        beside = BESIDE[pos]
        if pumpkins >= 2:
            for b in beside:
                if self._ringable(s, seat, b, 0):
                    out.append(Action("ring", BUILDING_NAMES[b].lower()))
            if clubs >= 3:
                for b in beside:
                    if self._ringable(s, seat, b, 2):
                        out.append(Action("grab", BUILDING_NAMES[b].lower()))
        for v, p in enumerate(s["players"]):
            if v == seat or p["pos"] != pos or p["char"] == "lion" or candy_total(p) == 0:
                continue
            if clubs >= 3 + club_symbols(s, v):
                out.append(Action("steal", str(v + 1)))
                if glass >= 1:
                    out.extend(Action("steal", str(v + 1), k) for k in KINDS if p["candy"][k] > 0)
        if glass >= 2:
            for b in beside:
                if not s["city"][b]["up"]:
                    out.append(Action("reveal", BUILDING_NAMES[b].lower()))
        return out + self._symbol_only_actions(s)

    def _symbol_only_actions(self, s: State) -> list[Action]:
        out: list[Action] = []
        if free_count(s, "glass") >= 4:
            for i, a in enumerate(SET_FACES):
                for b in SET_FACES[i:]:
                    out.append(Action("set", a, b))
        candies = free_count(s, "candy")
        if candies >= 2:
            out.append(Action("discount"))
        if candies >= 4:
            out.extend(Action("supply", k) for k in PLAIN if s["supply"][k] > 0)
        return out

    # -- applying ----------------------------------------------------------------------------
    def _apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        if action.verb in ("end", "buy") and state["phase"] == "act" and self._must_enter(state, seat):
            pos = state["players"][seat]["pos"]
            raise IllegalAction(
                N_(
                    "Your pawn may not stay at the edge of the city: step into {ENTRANCES} first (you "
                    "have the footprints).",
                    ENTRANCES=ENTRANCES[pos],
                )
            )
        action = self.find_legal(state, seat, action)
        s = clone(state)
        ev: list[Event] = []
        verb = action.verb
        handler = getattr(self, f"_do_{verb}")
        handler(s, seat, action, ev)
        self._auto_end(s, ev)
        return s, ev

    def _auto_end(self, s: State, ev: list[Event]) -> None:
        """When End is the mover's only legal move, the turn ends at once: no decision is left
        (every die that could still act is spent or useless, nothing is affordable), so the seed's
        turn is over; bots, `/game move` and replays all see the same rule."""
        if not s.get("auto_end") or s["phase"] not in ("act", "trade") or s["pending"]:
            return
        seat = int(s["turn"])
        if self.legal_actions(s, seat) == [Action("end")]:
            self._do_end(s, seat, Action("end"), ev, auto=True)

    def confirm(self, state: State, seat: int, action: Action) -> str | None:
        """Ending the turn asks first when it wastes something: dice that could still act (ring, rob,
        turn up, convert, take candy — here or after a walk; footprints that could only walk on do not
        count), or a discount that an affordable card could still use. When End is the only move the
        turn ends by itself, and nothing is asked."""
        if action.verb != "end" or state["phase"] not in ("act", "trade") or state["pending"]:
            return None
        legal = self.legal_actions(state, seat)
        if Action("end") not in legal or legal == [Action("end")]:
            return None
        unused = []
        if self._could_still_act(state, seat, legal):
            unused.append(icons([d["f"] for d in state["sym"] if not d["used"]]))
            if int(state["banked"]):
                unused.append(N_("half a 👣👣"))
        discounts = int(state["discounts"])
        if discounts and any(a.verb == "buy" and a.arg2 for a in legal):
            unused.append(Nn_("{n} discount (🍬🍬)", "{n} discounts (🍬🍬)", discounts))
        if not unused:
            return None
        return N_("End your turn with {unused} unused?", unused=Msg.join(unused))

    def _could_still_act(self, s: State, seat: int, legal: list[Action]) -> bool:
        """Some die action besides walking is possible now, or at a street the footprints reach."""
        acting = [a for a in legal if a.verb not in ("move", "buy", "end")]
        if acting or s["phase"] != "act":
            return bool(acting)
        paths = [[a.arg] for a in legal if a.verb == "move"] + [[x.lower() for x in w.path] for w in walks(s, seat)]
        for path in paths:
            after = s
            for street in path:
                after, _ = self.apply(after, seat, Action("move", street))
            still = after["turn"] == seat and not after["pending"]
            if still and any(a.verb not in ("move", "buy", "end") for a in self.legal_actions(after, seat)):
                return True
        return False

    def _do_choose(self, s: State, seat: int, a: Action, ev: list[Event]) -> None:
        s["players"][seat]["char"] = a.arg
        character = T_(f"trick_or_treat.char.{a.arg}", CHARACTERS[a.arg]["name"])
        ev.append(Event(N_("{seat} plays the {character}.", seat=P(seat), character=character)))
        nxt = (seat + 1) % s["n"]
        if nxt == s["start"]:
            s["phase"] = "start"
        s["turn"] = nxt

    def _do_start(self, s: State, seat: int, a: Action, ev: list[Event]) -> None:
        s["players"][seat]["pos"] = a.arg.upper()
        ev.append(Event(N_("{seat} waits at entrance {upper}.", seat=P(seat), upper=a.arg.upper())))
        nxt = (seat + 1) % s["n"]
        s["turn"] = nxt
        if nxt == s["start"]:
            self._begin_turn(s, ev)

    def _begin_turn(self, s: State, ev: list[Event]) -> None:
        seat = s["turn"]
        faces, black, extra = turn_kit(s, seat)
        rng = Rng(s["rng"])
        s["sym"] = [
            {"f": FACES[rng.below(6)], "src": "orange" if i < ORANGE_DICE else "black", "used": False}
            for i in range(ORANGE_DICE + black)
        ]
        s["rng"] = rng.state
        s["marked"] = [False] * len(s["sym"])
        s["rerolls"] = BASE_REROLLS + extra
        s["perm"] = faces
        s["banked"] = 0
        s["rang"] = []
        s["discounts"] = 0
        s["pending"] = None
        s["phase"] = "roll"
        s["moved"] = False  # the first step of this turn starts a new trail (the last one stays till then)
        ev.append(Event(N_("{seat} rolls {x}.", seat=P(seat), x=icons([d["f"] for d in s["sym"]]))))

    def _do_mark(self, s: State, seat: int, a: Action, ev: list[Event]) -> None:
        i = int(a.arg) - 1
        s["marked"][i] = not s["marked"][i]

    def _do_reroll(self, s: State, seat: int, a: Action, ev: list[Event]) -> None:
        rng = Rng(s["rng"])
        which = []
        for i, m in enumerate(s["marked"]):
            if m:
                s["sym"][i]["f"] = FACES[rng.below(6)]
                which.append(str(i + 1))
        s["rng"] = rng.state
        s["marked"] = [False] * len(s["sym"])
        s["rerolls"] -= 1
        ev.append(
            Event(
                N_(
                    "{seat} rerolls dice {which}: {x}.",
                    seat=P(seat),
                    which=", ".join(which),
                    x=icons([d["f"] for d in s["sym"]]),
                )
            )
        )
        if s["rerolls"] == 0:
            self._to_act_phase(s)

    def _do_done(self, s: State, seat: int, a: Action, ev: list[Event]) -> None:
        self._to_act_phase(s)

    def _to_act_phase(self, s: State) -> None:
        s["marked"] = [False] * len(s["sym"])
        s["sym"].extend({"f": f, "src": "perm", "used": False} for f in s["perm"])
        s["phase"] = "act"

    # spending symbols
    def _use(self, s: State, face: str, n: int) -> None:
        for d in s["sym"]:
            if n == 0:
                return
            if d["f"] == face and not d["used"]:
                d["used"] = True
                n -= 1
        if n:
            raise AssertionError("spent a symbol that was not there")

    def _pay_feet(self, s: State, cost: int) -> None:
        take = min(int(s["banked"]), cost)
        s["banked"] -= take
        rem = cost - take
        while rem > 0:
            if rem >= 2 and free_count(s, "feet2"):
                self._use(s, "feet2", 1)
                rem -= 2
            elif free_count(s, "feet"):
                self._use(s, "feet", 1)
                rem -= 1
            else:
                self._use(s, "feet2", 1)
                rem -= 2
        s["banked"] -= rem  # rem is 0 or -1: half of a 2-footprint die kept for later

    def _do_move(self, s: State, seat: int, a: Action, ev: list[Event]) -> None:
        dest = a.arg.upper()
        cost = step_cost(s, seat, dest)
        self._pay_feet(s, cost)
        if not s.get("moved") or not s.get("trail"):  # this turn's first step: the last turn's trail goes
            s["trail"] = {"seat": seat, "streets": [s["players"][seat]["pos"]]}
            s["moved"] = True
        s["trail"]["streets"].append(dest)
        s["players"][seat]["pos"] = dest
        ev.append(
            Event(
                N_("{seat} moves to {dest} (crowded: {cost} footprints).", seat=P(seat), dest=dest, cost=cost)
                if cost > 1
                else N_("{seat} moves to {dest}.", seat=P(seat), dest=dest)
            )
        )
        bikers = sum(1 for b in BESIDE[dest] if s["city"][b]["up"] and BUILDINGS[s["city"][b]["b"]]["type"] == "bikers")
        if bikers:
            self._bikers(s, seat, bikers, ev, N_("passes the bikers"))

    def _bikers(self, s: State, seat: int, n: int, ev: list[Event], why: str) -> None:
        p = s["players"][seat]
        if p["char"] == "lion":
            ev.append(Event(N_("{seat} {why}, but the Lion owes them nothing.", seat=P(seat), why=why)))
            return
        for _ in range(n):
            kinds = [k for k in KINDS if p["candy"][k] > 0]
            if not kinds:
                ev.append(Event(N_("{seat} {why} but has no candy to hand over.", seat=P(seat), why=why)))
                return
            if len(kinds) == 1:
                self._hand_back(s, seat, kinds[0], ev, why)
                continue
            pend = s["pending"]
            if pend and pend["kind"] == "pay":
                pend["n"] += 1
            else:
                s["pending"] = {"kind": "pay", "n": 1}
                ev.append(Event(N_("{seat} {why} and must hand back a candy.", seat=P(seat), why=why)))

    def _hand_back(self, s: State, seat: int, kind: str, ev: list[Event], why: str) -> None:
        p = s["players"][seat]
        p["candy"][kind] -= 1
        s["supply"][kind] += 1
        ev.append(Event(N_("{seat} {why} and hands back a {kind}.", seat=P(seat), why=why, kind=KIND_NAME[kind])))

    def _do_pay(self, s: State, seat: int, a: Action, ev: list[Event]) -> None:
        pend = s["pending"]
        self._hand_back(s, seat, a.arg, ev, N_("pays the bikers"))
        pend["n"] -= 1
        s["pending"] = None
        if pend["n"] > 0:
            self._bikers(s, seat, pend["n"], ev, N_("still owes the bikers"))

    def _reveal(self, s: State, idx: int) -> str:
        cell = s["city"][idx]
        cell["up"] = True
        self._stock(s, idx)
        b = BUILDINGS[cell["b"]]
        if cell["candy"]:
            candy = Msg.cat(*(KIND_NAME[k] for k in cell["candy"]), sep=", ")
            return N_("{building} with {candy}", building=TYPE_NAME[b["type"]], candy=candy)
        return TYPE_NAME[b["type"]]

    def _stock(self, s: State, idx: int) -> None:
        cell = s["city"][idx]
        for k in BUILDINGS[cell["b"]]["candy"]:
            if s["supply"][k] > 0:
                s["supply"][k] -= 1
                cell["candy"].append(k)

    def _take_from(self, s: State, seat: int, idx: int, n: int, ev: list[Event]) -> None:
        """Take n candies from a building: the first ones, or the Cowboy's choice."""
        cell = s["city"][idx]
        n = min(n, len(cell["candy"]))
        if n == 0:
            return
        p = s["players"][seat]
        if p["char"] == "cowboy" and len(set(cell["candy"])) > 1:
            s["pending"] = {"kind": "take", "b": idx, "n": n}
            return
        got = cell["candy"][:n]
        del cell["candy"][:n]
        for k in got:
            p["candy"][k] += 1
        ev.append(
            Event(
                N_(
                    "{seat} takes {x} from {square}.",
                    seat=P(seat),
                    x=Msg.cat(*(KIND_NAME[k] for k in got), sep=", "),
                    square=BUILDING_NAMES[idx],
                )
            )
        )

    def _do_take(self, s: State, seat: int, a: Action, ev: list[Event]) -> None:
        pend = s["pending"]
        idx = pend["b"]
        cell = s["city"][idx]
        cell["candy"].remove(a.arg)
        s["players"][seat]["candy"][a.arg] += 1
        ev.append(
            Event(
                N_(
                    "{seat} (Cowboy) picks a {kind} from {square}.",
                    seat=P(seat),
                    kind=KIND_NAME[a.arg],
                    square=BUILDING_NAMES[idx],
                )
            )
        )
        s["pending"] = None
        if pend["n"] > 1 and cell["candy"]:
            self._take_from(s, seat, idx, pend["n"] - 1, ev)
        self._restock(s, idx, ev)

    def _restock(self, s: State, idx: int, ev: list[Event]) -> None:
        for line in LINES:
            if idx in line and all(s["city"][i]["up"] and not s["city"][i]["candy"] for i in line):
                if s["pending"] and s["pending"]["kind"] == "take":
                    return  # the Cowboy is still choosing from this building
                for i in line:
                    self._stock(s, i)
                names = "–".join((BUILDING_NAMES[line[0]], BUILDING_NAMES[line[-1]]))
                if any(s["city"][i]["candy"] for i in line):
                    ev.append(
                        Event(N_("Every building of {names} is open and empty: their candy is restocked.", names=names))
                    )

    def _do_ring(self, s: State, seat: int, a: Action, ev: list[Event]) -> None:
        idx = BUILDING_NAMES.index(a.arg.upper())
        self._use(s, "pumpkin", 2)
        s["rang"].append(idx)
        cell = s["city"][idx]
        name = BUILDING_NAMES[idx]
        if cell["up"]:
            ev.append(Event(N_("{seat} rings the doorbell at {name}.", seat=P(seat), name=name)))
            self._take_from(s, seat, idx, 1, ev)
            self._restock(s, idx, ev)
            return
        what = self._reveal(s, idx)
        ev.append(Event(N_("{seat} rings the doorbell at {name}: a {what}.", seat=P(seat), name=name, what=what)))
        kind = BUILDINGS[cell["b"]]["type"]
        if kind == "bikers":
            self._bikers(s, seat, 1, ev, N_("woke the bikers"))
        elif kind == "plant":
            ev.append(Event(N_("Nobody answers at the power plant.")))
        elif s["opts"].get("ring_face_down", "take") == "take":  # option since the start; "take" was its default
            self._take_from(s, seat, idx, 1, ev)
        self._restock(s, idx, ev)

    def _do_grab(self, s: State, seat: int, a: Action, ev: list[Event]) -> None:
        idx = BUILDING_NAMES.index(a.arg.upper())
        self._use(s, "pumpkin", 2)
        self._use(s, "club", 3)
        s["rang"].append(idx)
        ev.append(
            Event(
                N_(
                    "{seat} rings hard at {square} for two candies.",
                    seat=P(seat),
                    square=BUILDING_NAMES[idx],
                )
            )
        )
        self._take_from(s, seat, idx, 2, ev)
        self._restock(s, idx, ev)

    def _do_reveal(self, s: State, seat: int, a: Action, ev: list[Event]) -> None:
        idx = BUILDING_NAMES.index(a.arg.upper())
        self._use(s, "glass", 2)
        what = self._reveal(s, idx)
        ev.append(
            Event(
                N_(
                    "{seat} peeks at {square}: a {what}.",
                    seat=P(seat),
                    square=BUILDING_NAMES[idx],
                    what=what,
                )
            )
        )
        self._restock(s, idx, ev)

    def _do_steal(self, s: State, seat: int, a: Action, ev: list[Event]) -> None:
        victim = int(a.arg) - 1
        self._use(s, "club", 3 + club_symbols(s, victim))
        if a.arg2:
            self._use(s, "glass", 1)
            self._move_candy(s, victim, seat, a.arg2)
            ev.append(
                Event(
                    N_(
                        "{seat} steals a {kind} from {seat2}.",
                        seat=P(seat),
                        kind=KIND_NAME[a.arg2],
                        seat2=P(victim),
                    )
                )
            )
            return
        kinds = [k for k in KINDS if s["players"][victim]["candy"][k] > 0]
        if len(kinds) == 1:
            self._move_candy(s, victim, seat, kinds[0])
            ev.append(
                Event(
                    N_(
                        "{seat} steals {seat2}'s only kind of candy: a {kind}.",
                        seat=P(seat),
                        seat2=P(victim),
                        kind=KIND_NAME[kinds[0]],
                    )
                )
            )
            return
        s["pending"] = {"kind": "give", "thief": seat, "victim": victim}
        ev.append(Event(N_("{seat} robs {seat2}, who chooses which candy to give.", seat=P(seat), seat2=P(victim))))

    def _move_candy(self, s: State, src: int, dst: int, kind: str) -> None:
        s["players"][src]["candy"][kind] -= 1
        s["players"][dst]["candy"][kind] += 1

    def _do_give(self, s: State, seat: int, a: Action, ev: list[Event]) -> None:
        thief = int(s["pending"]["thief"])
        self._move_candy(s, seat, thief, a.arg)
        s["pending"] = None
        ev.append(Event(N_("{seat} gives {seat2} a {kind}.", seat=P(seat), seat2=P(thief), kind=KIND_NAME[a.arg])))

    def _do_set(self, s: State, seat: int, a: Action, ev: list[Event]) -> None:
        self._use(s, "glass", 4)
        s["sym"].append({"f": a.arg, "src": "set", "used": False})
        s["sym"].append({"f": a.arg2, "src": "set", "used": False})
        ev.append(
            Event(N_("{seat} spends four magnifiers and sets two dice to {x}.", seat=P(seat), x=icons([a.arg, a.arg2])))
        )

    def _do_discount(self, s: State, seat: int, a: Action, ev: list[Event]) -> None:
        self._use(s, "candy", 2)
        s["discounts"] += 1
        ev.append(Event(N_("{seat} will pay one candy fewer for a score card this turn.", seat=P(seat))))

    def _do_supply(self, s: State, seat: int, a: Action, ev: list[Event]) -> None:
        self._use(s, "candy", 4)
        s["supply"][a.arg] -= 1
        s["players"][seat]["candy"][a.arg] += 1
        ev.append(Event(N_("{seat} takes a {kind} from the supply.", seat=P(seat), kind=KIND_NAME[a.arg])))

    def _do_buy(self, s: State, seat: int, a: Action, ev: list[Event]) -> None:
        was_last = last_round_reason(s)
        slot = int(a.arg) - 1
        cid = s["row"][slot]
        p = s["players"][seat]
        plan = plan_payment(p["candy"], CARDS[cid], int(a.arg2 or 0))
        assert plan is not None
        pay, used = plan
        s["discounts"] -= used
        p["cards"].append(cid)
        if s["deck"]:
            s["row"][slot] = s["deck"].pop(0)
        else:
            s["row"].pop(slot)
        s["phase"] = "trade"
        now_last = last_round_reason(s)
        if now_last and not was_last:
            ev.append(
                Event(
                    N_("{now_last}: this is the last round — the game ends when it is complete.", now_last=now_last),
                    kind="last",
                )
            )
        cost = CARDS[cid]["cost"]
        left = sum(pay.values())
        if "need" not in cost and left:
            # the buyer picks the tiles for "any N" / "N of one kind" one at a time
            s["pending"] = {
                "kind": "spend",
                "card": cid,
                "left": left,
                "same": "same" in cost,
                "fixed": None,
                "paid": [],
                "used": used,
            }
            self._auto_spend(s, seat, ev)
            return
        free = discount_choices(p["candy"], CARDS[cid], used)
        if free:
            # 「可少支付1個糖果板塊(種類由行動玩家決定)」: the buyer names the tile each discount saves
            full = plan_payment(p["candy"], CARDS[cid], used - free)
            assert full is not None
            s["pending"] = {"kind": "save", "card": cid, "pay": full[0], "left": free, "used": used}
            self._auto_save(s, seat, ev)
            return
        self._pay(s, seat, cid, pay, used, ev)

    def _pay(self, s: State, seat: int, cid: int, pay: Mapping[str, int], used: int, ev: list[Event]) -> None:
        p = s["players"][seat]
        for k, n in pay.items():
            p["candy"][k] -= n
            s["supply"][k] += n
        self._bought(s, seat, cid, [k for k in KINDS for _ in range(pay[k])], used, ev)

    def _auto_save(self, s: State, seat: int, ev: list[Event]) -> None:
        """Apply the remaining discounts without asking once only one kind of tile is left to save."""
        pend = s["pending"]
        kinds = [k for k in KINDS if pend["pay"][k] > 0]
        if pend["left"] and len(kinds) > 1:
            return
        for k in kinds:
            cut = min(pend["left"], pend["pay"][k])
            pend["pay"][k] -= cut
            pend["left"] -= cut
        s["pending"] = None
        self._pay(s, seat, pend["card"], pend["pay"], pend["used"], ev)

    def _bought(self, s: State, seat: int, cid: int, paid: list[str], used: int, ev: list[Event]) -> None:
        text: str = Msg.cat(
            *(N_("{n} {kind}", n=paid.count(k), kind=KIND_NAME[k]) for k in KINDS if k in paid), sep=", "
        ) or N_("nothing")
        ev.append(
            Event(
                Nn_(
                    "{seat} buys {card} for {text} and {n} discount.",
                    "{seat} buys {card} for {text} and {n} discounts.",
                    used,
                    seat=P(seat),
                    card=card_words(cid),
                    text=text,
                )
                if used
                else N_("{seat} buys {card} for {text}.", seat=P(seat), card=card_words(cid), text=text)
            )
        )

    def _auto_spend(self, s: State, seat: int, ev: list[Event]) -> None:
        """Pay without asking while there is no real choice left."""
        p = s["players"][seat]
        while s["pending"]:
            pend = s["pending"]
            kinds = spendable(p["candy"], pend)
            if len(kinds) != 1 and candy_total(p) != pend["left"]:
                return
            self._spend_one(s, seat, kinds[0], ev)

    def _spend_one(self, s: State, seat: int, kind: str, ev: list[Event]) -> None:
        pend = s["pending"]
        p = s["players"][seat]
        p["candy"][kind] -= 1
        s["supply"][kind] += 1
        pend["paid"].append(kind)
        pend["left"] -= 1
        if pend["same"] and kind != WILD:
            pend["fixed"] = kind
        if pend["left"] == 0:
            s["pending"] = None
            self._bought(s, seat, pend["card"], pend["paid"], pend["used"], ev)

    def _do_spend(self, s: State, seat: int, a: Action, ev: list[Event]) -> None:
        self._spend_one(s, seat, a.arg, ev)
        self._auto_spend(s, seat, ev)

    def _do_save(self, s: State, seat: int, a: Action, ev: list[Event]) -> None:
        pend = s["pending"]
        pend["pay"][a.arg] -= 1
        pend["left"] -= 1
        self._auto_save(s, seat, ev)

    def _do_end(self, s: State, seat: int, a: Action, ev: list[Event], auto: bool = False) -> None:
        p = s["players"][seat]
        p["rang_prev"] = list(s["rang"])
        s["sym"] = []
        s["marked"] = []
        s["perm"] = []
        s["rang"] = []
        s["banked"] = 0
        s["discounts"] = 0
        s["rerolls"] = 0
        nxt = (seat + 1) % s["n"]
        s["turn"] = nxt
        if auto:
            ev.append(
                Event(N_("{seat}'s turn ends (nothing left to do) with {s} points.", seat=P(seat), s=score_of(s, seat)))
            )
        else:
            ev.append(Event(N_("{seat} ends the turn with {s} points.", seat=P(seat), s=score_of(s, seat))))
        if nxt == s["start"]:
            if last_round_reason(s):
                s["phase"] = "over"
                ev.append(Event(N_("The round is complete: the game is over."), kind="end"))
                return
            s["round"] += 1
            if s["round"] == MAX_ROUNDS:
                ev.append(Event(N_("{s}: this is the last round.", s=last_round_reason(s)), kind="last"))
        self._begin_turn(s, ev)

    # -- views and the end ---------------------------------------------------------------------
    UNDOABLE = ("choose", "start", "mark", "done", "move", "pay")

    def undo_refusal(
        self, before: State, seat: int, action: Action, after: State, events: Sequence[Event]
    ) -> str | None:
        """Choosing, marking dice, stopping the roll, walking and paying the bikers roll and reveal
        nothing; a reroll rolls, ringing reveals a house and takes candy, a buy draws a card."""
        if action.verb not in self.UNDOABLE:
            return N_("it rolled dice") if action.verb == "reroll" else N_("it cannot be taken back once made")
        return self.undo_blocker(before, seat, after, events)

    def view(self, state: State, seat: int | None) -> JSON:
        s = state
        city = []
        for i, cell in enumerate(s["city"]):
            if cell["up"]:
                b = BUILDINGS[cell["b"]]
                city.append(
                    {
                        "name": BUILDING_NAMES[i],
                        "up": True,
                        "type": b["type"],
                        "printed": list(b["candy"]),
                        "candy": list(cell["candy"]),
                    }
                )
            else:
                city.append({"name": BUILDING_NAMES[i], "up": False})
        players = []
        for i, p in enumerate(s["players"]):
            players.append(
                {
                    "seat": i,
                    "char": p["char"],
                    "pos": p["pos"],
                    "candy": dict(p["candy"]),
                    "candy_total": candy_total(p),
                    "cards": [
                        {"id": c, "points": CARDS[c]["points"], "symbol": CARDS[c]["symbol"]} for c in p["cards"]
                    ],
                    "score": score_of(s, i),
                    "clubs": club_symbols(s, i),
                    "rang_prev": [BUILDING_NAMES[b] for b in p["rang_prev"]],
                }
            )
        pend = s["pending"]
        v: JSON = {
            "game": self.key,
            "players": s["n"],
            "seat": seat,
            "phase": s["phase"],
            "turn": s["turn"],
            "round": s["round"],
            "to_act": sorted(self.to_act(s)),
            "city": city,
            "removed_count": len(s["removed"]),
            "supply": dict(s["supply"]),
            "row": [self._card_view(c) for c in s["row"]],
            "deck_count": len(s["deck"]),
            "seats": players,
            "dice": [dict(d) for d in s["sym"]],
            "marked": list(s["marked"]),
            "perm": list(s["perm"]) if s["phase"] == "roll" else [],  # shown beside the dice while rolling
            "rerolls": s["rerolls"],
            "banked": s["banked"],
            "discounts": s["discounts"],
            "rang": [BUILDING_NAMES[b] for b in s["rang"]],
            # the last walk on the streets (this turn's, else the previous turn's): what moved since
            "trail": {"seat": s["trail"]["seat"], "streets": list(s["trail"]["streets"])} if s.get("trail") else None,
            "pending": dict(pend) if pend else None,
            "opts": dict(s["opts"]),
            "target": TARGET,
            "last_round": last_round_reason(s) if s["phase"] in ("roll", "act", "trade") else None,
        }
        if pend and pend["kind"] == "take":
            v["pending"] = {"kind": "take", "building": BUILDING_NAMES[pend["b"]], "n": pend["n"]}
        v["status"] = self._status(s)
        return v

    @staticmethod
    def _card_view(cid: int) -> JSON:
        c = CARDS[cid]
        return {
            "id": cid,
            "points": c["points"],
            "symbol": c["symbol"],
            "cost": {k: (dict(v) if isinstance(v, dict) else v) for k, v in c["cost"].items()},
            "cost_text": card_cost_text(c),
            "size": card_cost_size(c),
        }

    def _status(self, s: State) -> str:
        scores = ", ".join(f"{P(i)} {score_of(s, i)}" for i in range(s["n"]))
        ph = s["phase"]
        t = P(s["turn"])
        if ph == "over":
            out = self.outcome(s)
            return out.summary if out else N_("Game over.")
        if ph == "choose":
            return N_("{t} chooses a character.", t=t)
        if ph == "start":
            return N_("{t} chooses an entrance.", t=t)
        pend = s["pending"]
        if pend and pend["kind"] == "give":
            return N_(
                "{seat} chooses a candy to give to {t}. Scores: {scores}.", seat=P(pend["victim"]), t=t, scores=scores
            )
        if pend and pend["kind"] == "take":
            return N_("{t} (Cowboy) picks a candy. Scores: {scores}.", t=t, scores=scores)
        if pend and pend["kind"] == "pay":
            return N_("{t} hands a candy back to the bikers. Scores: {scores}.", t=t, scores=scores)
        if pend and pend["kind"] == "spend":
            return N_(
                "{t} picks {n} more candy to pay for {card}. Scores: {scores}.",
                t=t,
                n=pend["left"],
                card=card_words(pend["card"]),
                scores=scores,
            )
        if pend and pend["kind"] == "save":
            return N_(
                "{t} picks the candy a discount saves on {card}. Scores: {scores}.",
                t=t,
                card=card_words(pend["card"]),
                scores=scores,
            )
        what = {
            "roll": Nn_("rolling ({n} reroll left)", "rolling ({n} rerolls left)", s["rerolls"]),
            "act": N_("acting"),
            "trade": N_("buying score cards"),
        }
        last = last_round_reason(s)
        flag = Msg.cat(" ", N_("LAST ROUND ({last}).", last=last)) if last else ""
        return N_(
            "Round {s}: {t} is {ph}.{flag} Scores: {scores}.",
            s=s["round"],
            t=t,
            ph=what.get(ph, ph),
            flag=flag,
            scores=scores,
        )

    def board_words(self, view: JSON, names: Sequence[str]) -> str:
        """The board in words: each child's character, place, score, candy and cards, the city's
        face-up buildings and the score cards on offer."""
        parts: list[str] = []
        kids = []
        for p in view.get("seats") or []:
            i = int(p["seat"])
            candy = Msg.cat(
                *(N_("{n} {kind}", n=n, kind=KIND_NAME[k]) for k, n in p["candy"].items() if n), sep=", "
            ) or N_("no candy")
            char = (
                T_(f"trick_or_treat.char.{p['char']}", str(p["char"]).capitalize())
                if p.get("char")
                else N_("no character yet")
            )
            where = N_("on {street}", street=p["pos"]) if p.get("pos") else N_("not in the city yet")
            kids.append(
                N_(
                    "{seat}: {char}, {where}, {p} points, {candy}, {p2} cards",
                    seat=who(names, i),
                    char=char,
                    where=where,
                    p=p["score"],
                    candy=candy,
                    p2=len(p["cards"]),
                )
            )
        parts.append(N_("Players: {kids}.", kids=Msg.cat(*kids, sep="; ")))
        up = [c for c in view.get("city") or [] if c.get("up")]
        if up:
            shown = []
            for c in up:
                kind = TYPE_NAME.get(str(c["type"]).lower(), c["type"])
                if c.get("candy"):
                    candy_up = Msg.cat(*(KIND_NAME[k] for k in c["candy"]), sep=", ")
                    shown.append(
                        N_("{square} {building} with {candy}", square=c["name"], building=kind, candy=candy_up)
                    )
                else:
                    shown.append(N_("{square} {building}", square=c["name"], building=kind))
            parts.append(N_("Face-up buildings: {buildings}.", buildings=Msg.cat(*shown, sep="; ")))
        row = view.get("row") or []
        if row:
            offer = Msg.cat(
                *(
                    N_("slot {i}: {cost} for {points} points", i=i, cost=c["cost_text"], points=c["points"])
                    for i, c in enumerate(row, 1)
                ),
                sep="; ",
            )
            parts.append(N_("Score cards: {offer}.", offer=offer))
        return Msg.cat(*parts, sep=" ")

    def event_text(self, text: str, names: Sequence[str]) -> str:
        """Event lines name seats as P1…P8; show the players' names instead."""
        if isinstance(text, Msg):  # the names go in after translation
            return text.then(lambda s: event_names(s, names))
        return event_names(text, names)

    def status(self, view: JSON) -> str:
        """The public status line with player names (when the platform adds them) and the dice."""
        names = list(view.get("names") or [])
        phase = view["phase"]
        turn = who(names, int(view["turn"]))
        scores = " · ".join(f"{who(names, p['seat'])} {p['score']}" for p in view["seats"])
        pend = view.get("pending")
        if phase == "over":
            ranked = sorted(view["seats"], key=lambda p: (p["score"], p["candy_total"]), reverse=True)
            best = (ranked[0]["score"], ranked[0]["candy_total"])
            won = [who(names, p["seat"]) for p in ranked if (p["score"], p["candy_total"]) == best]
            tie = sum(1 for p in ranked if p["score"] == best[0]) > 1
            over = (
                Nn_(
                    "Game over: {won} wins with {best} points (tie-break: most candy).",
                    "Game over: {won} win with {best} points (tie-break: most candy).",
                    len(won),
                    won=Msg.join(won),
                    best=best[0],
                )
                if tie
                else Nn_(
                    "Game over: {won} wins with {best} points.",
                    "Game over: {won} win with {best} points.",
                    len(won),
                    won=Msg.join(won),
                    best=best[0],
                )
            )
            return Msg.cat(over, N_("Scores: {scores}", scores=scores), sep="\n")
        if phase == "choose":
            return N_("{turn} chooses a character.", turn=turn)
        if phase == "start":
            return N_("{turn} chooses an entrance.", turn=turn)
        if pend and pend["kind"] == "give":
            head = N_("{seat} chooses a candy to give to {turn}", seat=who(names, int(pend["victim"])), turn=turn)
        elif pend and pend["kind"] == "take":
            head = N_("{turn} (Cowboy) picks a candy at {pend}", turn=turn, pend=pend["building"])
        elif pend and pend["kind"] == "pay":
            head = N_("{turn} hands candy back to the bikers", turn=turn)
        elif pend and pend["kind"] == "spend":
            head = N_(
                "{turn} picks {n} more candy to pay for {card}",
                turn=turn,
                n=pend["left"],
                card=card_words(pend["card"]),
            )
        elif pend and pend["kind"] == "save":
            head = N_("{turn} picks the candy a discount saves on {card}", turn=turn, card=card_words(pend["card"]))
        elif phase == "roll":
            head = Nn_(
                "{turn} is rolling ({n} reroll left)",
                "{turn} is rolling ({n} rerolls left)",
                view["rerolls"],
                turn=turn,
            )
        elif phase == "act":
            head = N_("{turn} is acting", turn=turn)
        else:
            head = N_("{turn} is buying score cards", turn=turn)
        line: str = N_("Round {view} · {head}.", view=view["round"], head=head)
        if view.get("last_round"):
            last = self.event_text(view["last_round"], names)
            line = Msg.cat(N_("🏁 Last round ({why})", why=last), line, sep=" · ")
        if phase in ("roll", "act") and view.get("dice"):
            line = Msg.cat(line, dice_line(view), sep="\n")
        mover = view["seats"][int(view["turn"])]
        held = " ".join(f"{CANDY_ICON[k]}{n}" for k, n in mover["candy"].items() if n)
        line = Msg.cat(
            line,
            N_("{turn}'s candy: {held}", turn=turn, held=held) if held else N_("{turn}'s candy: none", turn=turn),
            sep="\n",
        )
        return N_(
            "{line}\nScores: {scores} (game ends after the round someone reaches {view})",
            line=line,
            scores=scores,
            view=view["target"],
        )

    def outcome(self, state: State) -> Outcome | None:
        s = state
        if s["phase"] != "over":
            return None
        n = s["n"]
        scores = [score_of(s, i) for i in range(n)]
        keys = [(scores[i], candy_total(s["players"][i])) for i in range(n)]
        order = sorted(set(keys), reverse=True)
        ranking = tuple(tuple(i for i in range(n) if keys[i] == k) for k in order)
        winners = frozenset(ranking[0])
        names = Msg.join([P(i) for i in sorted(winners)])
        tie = sum(1 for sc in scores if sc == scores[min(winners)]) > 1
        summary = (
            Nn_(
                "{names} wins with {points} points (tie-break: most candy).",
                "{names} win with {points} points (tie-break: most candy).",
                len(winners),
                names=names,
                points=scores[min(winners)],
            )
            if tie
            else Nn_(
                "{names} wins with {points} points.",
                "{names} win with {points} points.",
                len(winners),
                names=names,
                points=scores[min(winners)],
            )
        )
        details = {
            "candy": [candy_total(p) for p in s["players"]],
            "cards": [list(p["cards"]) for p in s["players"]],
            "characters": [p["char"] for p in s["players"]],
            "character_points": [
                score_of(s, i) - sum(int(CARDS[c]["points"]) for c in s["players"][i]["cards"]) for i in range(n)
            ],
            "tie_break": any(scores[a] == scores[b] and keys[a] != keys[b] for a in range(n) for b in range(a + 1, n)),
        }
        return Outcome(tuple(scores), ranking, winners, summary, details)

    def outcome_lines(self, outcome: Outcome, names: Sequence[str]) -> list[str]:
        """Per seat, best place first: "🥇 alice — 12 points: cards #18 (5) + #1 (3) · Cowboy −2 · 6 candy left"."""
        d = outcome.details
        if not isinstance(d.get("cards"), list):  # a resignation: no breakdown
            return super().outcome_lines(outcome, names)
        cards, chars = d.get("cards") or [], d.get("characters") or []
        mods, candy = d.get("character_points") or [], d.get("candy") or []
        per_seat = []
        for seat in range(len(names)):
            score = outcome.scores[seat] if seat < len(outcome.scores) else None
            parts = []
            owned = cards[seat] if seat < len(cards) else []
            if owned:
                worth = " + ".join(str(CARDS[int(c)]["points"]) for c in owned)
                parts.append(N_("cards worth {points}", points=worth))
            else:
                parts.append(N_("no cards"))
            char = chars[seat] if seat < len(chars) else None
            if char in CHARACTERS:
                mod = int(mods[seat]) if seat < len(mods) else 0
                name = T_(f"trick_or_treat.char.{char}", str(CHARACTERS[char]["name"]))
                parts.append(Msg.cat(name, f"{'−' if mod < 0 else '+'}{abs(mod)}", sep=" ") if mod else name)
            if seat < len(candy):
                parts.append(N_("{candy} candy left", candy=candy[seat]))
            joined = Msg.cat(*parts, sep=" · ")
            per_seat.append(
                joined
                if score is None
                else N_("{points}: {parts}", points=Nn_("{n:g} point", "{n:g} points", score), parts=joined)
            )
        lines = standings_lines(outcome, names, per_seat)
        if d.get("tie_break"):
            lines.append(N_("Tie-break: equal scores were split by the most candy left."))
        return lines

    # -- serialisation and notation ------------------------------------------------------------
    def dump_state(self, state: State) -> JSON:
        return clone(state)

    def load_state(self, data: JSON) -> State:
        if data.get("schema") != 1:
            raise InvalidInput("This Trick or Treat save has an unknown schema.")
        return clone(data)

    def dump_action(self, action: Action) -> JSON:
        return {"verb": action.verb, "arg": action.arg, "arg2": action.arg2}

    def load_action(self, data: JSON) -> Action:
        return Action(str(data["verb"]), str(data.get("arg", "")), str(data.get("arg2", "")))

    def format_action(self, action: Action) -> str:
        if action.verb == "buy" and action.arg2:
            return f"buy {action.arg} -{action.arg2}"  # 'buy 4 -1': card 4, one candy fewer
        return " ".join(x for x in (action.verb, action.arg, action.arg2) if x)

    def parse_action(self, text: str) -> Action:
        parts = text.strip().lower().replace(",", " ").split()
        if not parts:
            raise InvalidInput(N_("Write an action, e.g. 'move v22', 'ring b3', 'buy 2' or 'end'."))
        verb, args = parts[0], parts[1:]
        if verb not in VERBS:
            raise InvalidInput(
                N_("Unknown action {parts!r}; try one of: {VERBS}.", parts=parts[0], VERBS=", ".join(VERBS))
            )
        kinds = {k: k for k in KINDS} | {"?": WILD, "lollipop": "lolly", "corncandy": "corn"}

        def kind(tok: str) -> str:
            if tok in kinds:
                return kinds[tok]
            hits = [k for k in KINDS if k.startswith(tok)]
            if len(hits) == 1:
                return hits[0]
            raise InvalidInput(N_("{tok!r} is not a candy; use one of {KINDS}.", tok=tok, KINDS=", ".join(KINDS)))

        def face(tok: str) -> str:
            alias = {"2feet": "feet2", "feet1": "feet", "foot": "feet", "magnifier": "glass"}
            f = alias.get(tok, tok)
            if f not in SET_FACES:
                raise InvalidInput(
                    N_("{tok!r} is not a face you can set; use {SET_FACES}.", tok=tok, SET_FACES=", ".join(SET_FACES))
                )
            return f

        n0 = {"reroll": 0, "done": 0, "discount": 0, "end": 0}
        if verb in n0:
            if args:
                raise InvalidInput(N_("'{verb}' takes no argument.", verb=verb))
            return Action(verb)
        if not args:
            raise InvalidInput(N_("'{verb}' needs an argument, e.g. '{verb2}'.", verb=verb, verb2=self._example(verb)))
        a = args[0]
        if verb == "choose":
            if a not in CHARACTERS:
                raise InvalidInput(
                    N_("{a!r} is not a character; choose one of {CHAR_ORDER}.", a=a, CHAR_ORDER=", ".join(CHAR_ORDER))
                )
            return self._one(verb, args, a)
        if verb == "start":
            if a.upper() not in ENTRANCES:
                raise InvalidInput(N_("{a!r} is not an entrance; use N1–N3, S1–S3, W1–W3 or E1–E3.", a=a))
            return self._one(verb, args, a)
        if verb == "buy":
            less = args[1].lstrip("-−") if len(args) == 2 else "0"
            if not a.isdigit() or not less.isdigit() or len(args) > 2:
                raise InvalidInput(
                    N_("Write 'buy 4' (slot 4, full price) or 'buy 4 -1' (one discount on it: one candy fewer).")
                )
            return Action("buy", str(int(a)), str(int(less)) if int(less) else "")
        if verb == "mark":
            if not a.isdigit():
                raise InvalidInput(N_("'{verb}' needs a number, e.g. '{verb2}'.", verb=verb, verb2=self._example(verb)))
            return self._one(verb, args, str(int(a)))
        if verb == "move":
            if a.upper() not in STREETS:
                raise InvalidInput(N_("{a!r} is not a street; streets are V11–V43 and H11–H34.", a=a))
            return self._one(verb, args, a)
        if verb in ("ring", "grab", "reveal"):
            if a.upper() not in BUILDING_NAMES:
                raise InvalidInput(N_("{a!r} is not a building; buildings are A1–D4.", a=a))
            return self._one(verb, args, a)
        if verb == "steal":
            seat = a[1:] if a.startswith("p") else a
            if not seat.isdigit():
                raise InvalidInput(N_("Write 'steal 2' (the victim picks) or 'steal 2 donut' (with a magnifier)."))
            if len(args) > 2:
                raise InvalidInput(N_("'steal' takes a player number and at most one candy."))
            return Action("steal", str(int(seat)), kind(args[1]) if len(args) == 2 else "")
        if verb == "set":
            if len(args) != 2:
                raise InvalidInput(N_("Write 'set pumpkin club': the two faces you want."))
            f1, f2 = sorted((face(args[0]), face(args[1])), key=SET_FACES.index)
            return Action("set", f1, f2)
        return self._one(verb, args, kind(a))  # supply / take / give / pay / spend / save

    @staticmethod
    def _one(verb: str, args: list[str], arg: str) -> Action:
        if len(args) != 1:
            raise InvalidInput(N_("'{verb}' takes exactly one argument.", verb=verb))
        return Action(verb, arg)

    @staticmethod
    def _example(verb: str) -> str:
        return {
            "choose": "choose witch",
            "start": "start n1",
            "mark": "mark 3",
            "move": "move v22",
            "ring": "ring b3",
            "grab": "grab b3",
            "steal": "steal 2",
            "reveal": "reveal c2",
            "set": "set pumpkin pumpkin",
            "supply": "supply donut",
            "take": "take donut",
            "give": "give corn",
            "pay": "pay corn",
            "buy": "buy 4",
            "spend": "spend corn",
            "save": "save corn",
        }.get(verb, verb)

    def describe_action(self, action: Action) -> str:
        v, a, b = action.verb, action.arg, action.arg2
        if v == "choose":
            ch = CHARACTERS[a]
            return cut(N_("Play the {ch}: {ch2}", ch=ch["name"], ch2=ch["ability"]))
        if v == "start":
            return N_("Start at entrance {upper} (enters {ENTRANCES})", upper=a.upper(), ENTRANCES=ENTRANCES[a.upper()])
        if v == "mark":
            return N_("Mark/unmark die {a} for rerolling", a=a)
        if v == "reroll":
            return N_("Reroll the marked dice")
        if v == "done":
            return N_("Keep these dice and start acting")
        if v == "move":
            near = ", ".join(BUILDING_NAMES[b] for b in BESIDE[a.upper()])
            return N_("Move to street {upper} (by {near}) — 👣", upper=a.upper(), near=near)
        if v == "ring":
            return N_("Ring doorbell at {upper} — 🎃🎃", upper=a.upper())
        if v == "grab":
            return N_("Take 2 candies at {upper} — 🎃🎃🏏🏏🏏", upper=a.upper())
        if v == "steal":
            if b:
                return N_("Steal a {kind} from P{a} — 🏏🏏🏏+🔍", kind=KIND_NAME[b], a=a)
            return N_("Steal from P{a} (they choose the candy) — 🏏🏏🏏", a=a)
        if v == "reveal":
            return N_("Turn up building {upper} — 🔍🔍", upper=a.upper())
        if v == "set":
            return N_(
                "Turn 2 dice into {FACE_NAME} + {FACE_NAME2} — 🔍🔍🔍🔍",
                FACE_NAME=FACE_NAME[a],
                FACE_NAME2=FACE_NAME[b],
            )
        if v == "discount":
            return N_("Pay 1 candy fewer for a score card (you pick which) — 🍬🍬")
        if v == "supply":
            return N_("Take a {kind} from the supply — 🍬🍬🍬🍬", kind=KIND_NAME[a])
        if v == "take":
            return N_("Take the {kind} (Cowboy's choice)", kind=KIND_NAME[a])
        if v == "give":
            return N_("Give a {kind} to the thief", kind=KIND_NAME[a])
        if v == "pay":
            return N_("Hand a {kind} back to the bikers", kind=KIND_NAME[a])
        if v == "buy":
            if b:
                return Nn_(
                    "Buy score card in slot {a}, {n} candy fewer ({n} 🍬🍬 discount)",
                    "Buy score card in slot {a}, {n} candies fewer ({n} 🍬🍬 discount)",
                    int(b),
                    a=a,
                )
            return N_("Buy score card in slot {a}", a=a)
        if v == "spend":
            return N_("Pay a {kind} for the score card", kind=KIND_NAME[a])
        if v == "save":
            return N_("Keep a {kind}: the discount saves it", kind=KIND_NAME[a])
        return N_("End your turn")
