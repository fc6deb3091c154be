"""The `Game` facade: legal actions with labels, apply, views, outcome and the action notation."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from bot.i18n import N_
from bot.rules.base import BotPolicy, Event, Game, OptionSpec, Outcome
from bot.rules.errors import InvalidInput
from bot.rules.ghost_stories import core
from bot.rules.ghost_stories.core import State, cap
from bot.rules.ghost_stories.data import (
    ADJ,
    BOARD_COLOURS,
    CARDS,
    CURSE_DIE,
    FACES,
    FRONT,
    POWER_NAMES,
    POWER_TEXT,
    SIDES,
    TAO_COLOURS,
    TAO_DIE,
    TILES,
    space_index,
    space_name,
    tile_index,
    tile_name,
)


@dataclass(frozen=True)
class Act:
    """An action is its notation words; the label is a friendly description (not part of equality)."""

    parts: tuple[str, ...]
    label: str = field(default="", compare=False, hash=False)


VERBS = (
    "side", "place", "keep", "reroll", "banish", "pay", "discard", "take", "reward", "give", "suffer", "blow",
    "pavilion", "move", "pocket", "mantra", "push", "help", "exorcise", "yinyang", "buddha", "power", "end",
)  # fmt: skip

TYPED = {  # how a typed action reads in the confirmation ("✅ Move to B2")
    "move": "Move to",
    "exorcise": "Exorcise",
    "help": "Ask the villager for help:",
    "buddha": "Place a Buddha on",
    "yinyang": "Spend the Yin-Yang token:",
    "end": "End your turn",
    "place": "Place the ghost on",
    "banish": "Banish",
    "discard": "Discard a Tao token:",
    "take": "Take a Tao token:",
}


def _sp(name: str) -> str:
    k = space_index(name)
    return cap(name) if k is None else f"{cap(BOARD_COLOURS[k // 3])} {k % 3 + 1}"


def need_text(s: State, k: int) -> str:
    req, flex, dice_ok = core.requirement(s, k)
    parts = [f"{n} {c}" for c, n in req.items() if n > 0]
    total = sum(req.values()) - flex
    text = " + ".join(parts) if parts else "nothing"
    if flex:
        text += " (-1 Mantra)"
    if not dice_ok:
        text += ", dice don't count"
    return text if total > 0 else "nothing"


def help_label(s: State, tile: int, args: tuple[str, ...]) -> str:
    key = s["tiles"][tile]["key"]
    name = TILES[key]["name"]
    if key == "tea_house":
        return f"{name}: take a {args[0]} token, +1 Qi, a ghost arrives" if args else f"{name}: +1 Qi, a ghost arrives"
    if key == "altar":
        return f"{name}: restore {core.tname(s, tile_index(args[0]) or 0)}, a ghost arrives"
    if key == "herbalist":
        return f"{name}: roll 2 Tao dice for tokens"
    if key == "sorcerer":
        k = space_index(args[0])
        assert k is not None
        return f"{name}: -1 Qi, remove {core.ghost_label(s, k)}"
    if key == "temple":
        return f"{name}: take a Buddha"
    if key == "watchman":
        return f"{name}: haunting figures of the {cap(args[0])} board go home"
    if key == "circle":
        return f"{name}: put a {args[0]} token on it"
    if key == "pavilion":
        k = space_index(args[0])
        assert k is not None
        return f"{name}: blow {card_name(s, k)} away from {_sp(args[0])}"
    if key == "cemetery":
        return f"{name}: revive the {cap(args[0])} Taoist"
    return name


def payment_text(s: State, t: int, alloc: Sequence[Sequence[Any]]) -> str:
    """Who pays which Tao tokens, e.g. "1 red (yours) + 1 blue (Green's)"."""
    if not alloc:
        return "no tokens"
    counts: dict[tuple[str, int], int] = {}
    for c, b in alloc:
        counts[(c, b)] = counts.get((c, b), 0) + 1
    return " + ".join(
        f"{x} {c} ({'yours' if b == t else cap(BOARD_COLOURS[b]) + chr(39) + 's'})" for (c, b), x in counts.items()
    )


def pay_token(c: str, b: int) -> str:
    """One token of a payment in notation: `black-green` is a black token of the Green Taoist."""
    return f"{c}-{BOARD_COLOURS[b]}"


def all_payments(s: State, p: dict[str, Any]) -> dict[str, list[dict[str, int]]]:
    """The least-count colour payments of every result of an exorcism roll (computed once per use)."""
    return core.payments(s, p["targets"], p["dice"], core.token_pool(s, p["t"]))


def payment_ways(s: State, t: int, pays: list[dict[str, int]]) -> list[list[tuple[str, int]]]:
    """Every distinct way to make one of `pays`: any colour mix, from any Taoist on the exorcist t's
    tile; the exorcist's own tokens first in the first way."""
    out: list[list[tuple[str, int]]] = []
    seen: set[tuple[str, ...]] = set()
    for pay in pays:
        for alloc in core.allocations(s, t, pay):
            sig = tuple(sorted(pay_token(c, b) for c, b in alloc))
            if sig not in seen:
                seen.add(sig)
                out.append(alloc)
    return out


def card_name(s: State, k: int) -> str:
    return str(core.card(s["spaces"][k])["name"])


_TAOIST_SEAT = re.compile(r"the (\w+) Taoist \(seat (\d)\)|\bseat (\d)\b")


def name_seats(text: str, names: Sequence[str]) -> str:
    """`the Red Taoist (seat 1)` -> `alice (the Red Taoist)`, `seat 2` -> `bob`, when names are known."""
    if not names:
        return text

    def sub(m: re.Match[str]) -> str:
        k = int(m.group(2) or m.group(3)) - 1
        if not 0 <= k < len(names):
            return m.group(0)
        return f"{names[k]} (the {m.group(1)} Taoist)" if m.group(1) else str(names[k])

    return _TAOIST_SEAT.sub(sub, text)


# What a pending decision asks, in words (the status line here and the board's renderer both say it).
PENDING_WHAT = {
    "side": "choose which side of their board to play",
    "curse_reroll": "keep or reroll the curse die",
    "exorcism": "finish the exorcism",
    "herbs": "keep or reroll the herbs dice",
    "discard": "discard a Tao token",
    "take": "take a Tao token",
    "reward": "choose a reward",
    "pay": "choose which Tao tokens pay for the exorcism",
    "share": "share Wu-Feng's reward",
    "pavilion": "move a Taoist with the winds",
    "blow": "choose where the winds blow the ghost",
    "yyhelp": "choose how to use the help called with the Yin-Yang",
}


class GhostStories(Game[State, Act]):
    key = "ghost_stories"
    title = N_("Ghost Stories")
    min_players = 1
    max_players = 4
    summary = N_("Co-operative: Taoist monks defend a village from ghosts until Wu-Feng's incarnation is exorcised.")
    options = (
        OptionSpec("difficulty", N_("Initiation, Normal, Nightmare or Hell"), core.DIFFICULTIES, "initiation"),
        OptionSpec(
            "power_sides",
            N_("Each player chooses their board's side at the start, or random, first or second for all"),
            ("choose", "random", "first", "second"),
            "choose",
        ),
        OptionSpec(
            "black_token",
            N_("Initiation only: each Taoist also starts with a black Tao token (the English rulebook)"),
            ("no", "yes"),
            "no",
        ),
        OptionSpec(
            "bone_cracker",
            N_("Bone Cracker's Yin effect: its board's player discards (the seed), or every Taoist"),
            ("board", "all"),
            "board",
        ),
        OptionSpec(
            "haunting",
            N_("Haunting figures: three steps to the village as the seed tells it, or two"),
            ("three", "two"),
            "three",
        ),
    )
    has_private_info = False
    cooperative = True  # the team wins or loses together: a resignation hands the seat to a bot
    rules_doc = "docs/rules/ghost_stories.md"

    # -- lifecycle ----------------------------------------------------------------------
    def new(self, num_players: int, seed: int, options: Mapping[str, str] | None = None) -> State:
        self.check_players(num_players)
        return core.new_state(num_players, seed, self.check_options(options))

    def to_act(self, state: State) -> frozenset[int]:
        if state["result"] is not None:
            return frozenset()
        p = state["pending"]
        if p is not None:
            return frozenset(int(x) for x in p["seats"]) if "seats" in p else frozenset({int(p["seat"])})
        if state["phase"] == "yang":
            return frozenset({core.seat_of(state, state["turn"])})
        return frozenset()

    def shared_decision(self, state: State) -> bool:
        p = state["pending"]
        return state["result"] is None and p is not None and "seats" in p

    # -- legal actions --------------------------------------------------------------------
    def legal_actions(self, state: State, seat: int) -> list[Act]:
        if seat not in self.to_act(state):
            return []
        p = state["pending"]
        if p is not None:
            return self._pending_actions(state, p)
        return self._yang_actions(state, state["turn"])

    def _pending_actions(self, s: State, p: dict[str, Any]) -> list[Act]:
        kind = p["kind"]
        if kind == "side":
            return [Act(("side", key), f"Play {POWER_NAMES[key]}: {POWER_TEXT[key]}"[:80]) for key in p["choices"]]
        if kind == "place":
            name = CARDS[p["card"]]["name"]
            return [
                Act(
                    ("place", space_name(k)),
                    f"Place {name} on {_sp(space_name(k))} (facing {core.tname(s, FRONT[k])})"[:80],
                )
                for k in p["spaces"]
            ]
        if kind == "curse_reroll":
            face = core.CURSE_TEXT[p["op"]["face"]]
            return [
                Act(("keep",), f"Keep the curse: {face}"),
                Act(("reroll",), "Reroll the curse die (Gods' Favorite)"),
            ]
        if kind in ("exorcism", "herbs") and p.get("reroll"):
            out = [Act(("keep",), f"Keep the roll: {core.fmt_dice(p['dice'])}")]
            n = len(p["dice"])
            for r in range(1, n + 1):
                for combo in combinations(range(n), r):
                    idx = "".join(str(i + 1) for i in combo)
                    what = ", ".join(p["dice"][i] for i in combo)
                    out.append(Act(("reroll", idx), f"Reroll {what} (dice {', '.join(idx)})"))
            return out
        if kind == "exorcism":
            out = []
            every = all_payments(s, p)
            for key, pay in p["options"].items():
                ks = key.split()
                cost = payment_text(s, p["t"], core.allocations(s, p["t"], pay)[0])
                if len(payment_ways(s, p["t"], every.get(key, []))) > 1:
                    cost += ", or choose how"
                names = " and ".join(f"{card_name(s, space_index(x) or 0)} on {_sp(x)}" for x in ks)
                label = f"Exorcise {names}, paying {cost}"
                if len(label) > 80:
                    label = f"Exorcise {' and '.join(_sp(x) for x in ks)}, paying {cost}"
                out.append(Act(("banish", *ks), label[:80]))
            out.append(Act(("banish", "none"), "Give up: keep the Tao tokens"))
            return out
        if kind == "pay":
            return [
                Act(("pay", *sorted(pay_token(c, b) for c, b in way)), f"Pay {payment_text(s, p['t'], way)}"[:80])
                for way in p["ways"]
            ]
        if kind == "discard":
            return [Act(("discard", c), f"Discard a {c} Tao token") for c in p["colours"]]
        if kind == "take":
            return [Act(("take", c), f"Take a {c} Tao token") for c in p["colours"]]
        if kind == "reward":
            return [
                Act(("reward", c), "Gain 1 Qi" if c == "qi" else "Recover your Yin-Yang token") for c in p["choices"]
            ]
        if kind == "victim":
            if p["op"]["op"] == "discard":
                return [
                    Act(
                        ("suffer", BOARD_COLOURS[t]),
                        f"The {cap(BOARD_COLOURS[t])} Taoist ({sum(s['boards'][t]['tao'].values())} Tao tokens)"
                        " discards a Tao token",
                    )
                    for t in p["cands"]
                ]
            return [
                Act(
                    ("suffer", BOARD_COLOURS[t]),
                    f"The {cap(BOARD_COLOURS[t])} Taoist ({s['boards'][t]['qi']} Qi) rolls the curse die",
                )
                for t in p["cands"]
            ]
        if kind == "share":
            what = "1 Qi" if p["what"] == "qi" else "the Yin-Yang token"
            return [
                Act(("give", BOARD_COLOURS[t]), f"Give {what} to the {cap(BOARD_COLOURS[t])} Taoist")
                for t in p["cands"]
            ]
        if kind == "yyhelp":
            x = p["tile"]
            return [Act(("help", *args), help_label(s, x, args)[:80]) for args in core.help_args(s, p["t"], x)]
        if kind == "blow":
            name = card_name(s, p["k"])
            return [
                Act(
                    ("blow", space_name(j)),
                    f"Blow {name} to {_sp(space_name(j))}" + (" (Buddha!)" if s["buddha_on"][j] else ""),
                )
                for j in p["spaces"]
            ]
        if kind == "pavilion":
            out = [Act(("pavilion", "skip"), "Move no Taoist")]
            for b in core.living(s):
                if b == p["t"] and s["players"] > 1:
                    continue
                for x in range(9):
                    if x != s["boards"][b]["pos"]:
                        out.append(
                            Act(
                                ("pavilion", BOARD_COLOURS[b], tile_name(x)),
                                f"Blow the {cap(BOARD_COLOURS[b])} Taoist to {core.tname(s, x)}",
                            )
                        )
            return out
        raise AssertionError(kind)

    def _yang_actions(self, s: State, t: int) -> list[Act]:
        y = s["yang"]
        bd = s["boards"][t]
        pos = bd["pos"]
        out: list[Act] = []
        early = not y["moved"] and not y["acts"] and not y["buddha"]
        if early and not y["pockets"] and core.has_power(s, t, "pockets"):
            out += [
                Act(("pocket", c), f"Bottomless Pockets: take a {c} Tao token")
                for c in TAO_COLOURS
                if s["supply"][c] > 0
            ]
        if early and not y["mantra"] and core.has_power(s, t, "mantra") and s["mantra"] not in (None, "gone"):
            for k, _ in core.in_play(s):
                if s["mantra"] != k:
                    out.append(Act(("mantra", space_name(k)), f"Mantra on {core.ghost_label(s, k)}"[:80]))
        if early:
            dests = [x for x in range(9) if x != pos] if core.has_power(s, t, "peaks") else list(ADJ[pos])
            out += [Act(("move", tile_name(x)), f"Move to {core.tname(s, x)}") for x in dests]
        if not y["push"] and not y["acts"] and core.has_power(s, t, "twin_winds"):
            for b in core.living(s):
                if b == t and s["players"] > 1:
                    continue
                for x in ADJ[s["boards"][b]["pos"]]:
                    out.append(
                        Act(
                            ("push", BOARD_COLOURS[b], tile_name(x)),
                            f"Twin Winds: move the {cap(BOARD_COLOURS[b])} Taoist to {core.tname(s, x)}",
                        )
                    )
        if not y["buddha"]:
            if self._can_act(s, t, "help"):
                for args in core.help_args(s, t, pos):
                    out.append(Act(("help", *args), help_label(s, pos, args)[:80]))
            if self._can_act(s, t, "exorcise"):
                ks = [k for k in FACES[pos] if core.exorcisable(s, k)]
                for k in ks:
                    n = core.dice_count(s, t)
                    out.append(
                        Act(
                            ("exorcise", space_name(k)),
                            f"Exorcise {core.ghost_label(s, k)} — needs {need_text(s, k)} ({n} dice)"[:80],
                        )
                    )
                if len(ks) == 2:
                    out.append(
                        Act(
                            ("exorcise", *(space_name(k) for k in ks)),
                            f"Exorcise both {card_name(s, ks[0])} and {card_name(s, ks[1])} with one roll"[:80],
                        )
                    )
        if bd["yy"]:
            for x in range(9):
                if s["tiles"][x]["haunted"]:
                    out.append(Act(("yinyang", "restore", tile_name(x)), f"Yin-Yang: restore {core.tname(s, x)}"))
                elif core.help_args(s, t, x):
                    out.append(Act(("yinyang", tile_name(x)), f"Yin-Yang: use the help of {core.tname(s, x)}"))
        if bd["buddhas"] - bd["fresh"] > 0:
            for k in FACES[pos]:
                if s["spaces"][k] is None and not s["buddha_on"][k]:
                    out.append(Act(("buddha", space_name(k)), f"Place a Buddha on {_sp(space_name(k))}"))
        if bd["tokens"] > 0:
            for nb in range(4):
                if s["boards"][nb]["seat"] is None and nb not in y["borrowed"] and core.board_power_ok(s, nb):
                    power = s["boards"][nb]["power"]
                    out.append(
                        Act(
                            ("power", BOARD_COLOURS[nb]),
                            f"Spend a Power token: use {POWER_NAMES[power]} this turn",
                        )
                    )
        n = s["centre_tokens"]
        if pos == 4 and n > 0:
            # 「可從正中央的村莊板塊上拿取全部或部分的中立技能標記」: all (`end`) or some (`end 1`, `end 0`)
            out.append(Act(("end",), f"End your turn, picking up the {n} Power token{'s' if n > 1 else ''} here"))
            for k in range(n - 1, -1, -1):
                label = f"picking up {k} of the {n} Power tokens" if k else "leaving the Power tokens here"
                out.append(Act(("end", str(k)), f"End your turn, {label}"))
        else:
            out.append(Act(("end",), "End your turn"))
        return out

    @staticmethod
    def _can_act(s: State, t: int, kind: str) -> bool:
        acts = s["yang"]["acts"]
        if not acts:
            return True
        if len(acts) == 1:
            if core.has_power(s, t, "second_wind") and acts[0] == kind:
                return True
            if core.has_power(s, t, "gust") and acts[0] != kind:
                return True
        return False

    # -- apply ----------------------------------------------------------------------------
    def confirm(self, state: State, seat: int, action: Act) -> str | None:
        """The Yin-Yang token is one-shot: spending it asks first."""
        if not action.parts or action.parts[0] != "yinyang":
            return None
        legal = next((a for a in self.legal_actions(state, seat) if a == action), None)
        if legal is None:
            return None
        what = legal.label.split(":", 1)[-1].strip() or self.format_action(action)
        return f"Spend your Yin-Yang token (you get it back only as a reward) to {what}?"

    def _apply(self, state: State, seat: int, action: Act) -> tuple[State, list[Event]]:
        action = self.find_legal(state, seat, action)
        s = core.copy_state(state)
        ev: list[Event] = []
        try:
            if s["pending"] is not None:
                self._answer(s, action.parts, ev)
            else:
                self._yang(s, s["turn"], action.parts, ev)
            core.run(s, ev)
        except core.Stop:
            s["queue"] = []
            s["pending"] = None
            s["phase"] = "over"
        return s, ev

    def _answer(self, s: State, a: tuple[str, ...], ev: list[Event]) -> None:
        p = s["pending"]
        kind = p["kind"]
        verb = a[0]
        if kind == "side":
            core.side_chosen(s, a[1], ev)
        elif kind == "place":
            s["pending"] = None
            k = space_index(a[1])
            assert k is not None
            core.place(s, k, p["card"], p["t"], ev)
        elif kind == "curse_reroll":
            s["pending"] = None
            op = dict(p["op"])
            if verb == "reroll":
                face = core.roll(s, CURSE_DIE, 1)[0]
                s["last_roll"] = {
                    "kind": "curse",
                    "faces": [face],
                    "by": s["boards"][p["t"]]["colour"],
                    "why": op["who"],
                }
                ev.append(Event(f"Gods' Favorite: the curse die is rerolled: {core.CURSE_TEXT[face]}."))
                op["face"] = face
            core.apply_curse(s, op, op["face"], ev)
        elif kind in ("exorcism", "herbs") and p.get("reroll"):
            if verb == "reroll":
                idx = [int(ch) - 1 for ch in a[1]]
                new = core.roll(s, TAO_DIE, len(idx))
                for i, d in zip(idx, new, strict=True):
                    p["dice"][i] = d
                s["last_roll"] = {**s["last_roll"], "faces": list(p["dice"])}
                ev.append(Event(f"Gods' Favorite: reroll gives {core.fmt_dice(p['dice'])}."))
            if kind == "exorcism":
                core.settle_prepare(s, ev)
            else:
                core.herbs_resolve(s, ev)
        elif kind == "exorcism":
            s["pending"] = None
            if a[1] == "none":
                ev.append(Event("The Taoist gives up the exorcism."))
            else:
                key = " ".join(a[1:])
                ks = [k for k in (space_index(x) for x in a[1:]) if k is not None]
                ways = payment_ways(s, p["t"], all_payments(s, p).get(key, []))
                if len(ways) > 1:
                    s["pending"] = {"kind": "pay", "seat": p["seat"], "t": p["t"], "targets": ks, "ways": ways}
                else:
                    core.banish(s, p["t"], ks, ways[0] if ways else [], ev)
        elif kind == "pay":
            s["pending"] = None
            way = next(w for w in p["ways"] if sorted(pay_token(c, b) for c, b in w) == sorted(a[1:]))
            core.banish(s, p["t"], p["targets"], [(c, b) for c, b in way], ev)
        elif kind == "discard":
            s["pending"] = None
            bd = s["boards"][p["t"]]
            bd["tao"][a[1]] -= 1
            s["supply"][a[1]] += 1
            ev.append(Event(f"The {cap(bd['colour'])} Taoist discards a {a[1]} Tao token."))
        elif kind == "take":
            s["pending"] = None
            core.give_tao(s, p["t"], a[1], ev)
        elif kind == "reward":
            s["pending"] = None
            core.grant(s, p["t"], a[1], ev)
        elif kind == "share":
            s["pending"] = None
            core.grant(s, BOARD_COLOURS.index(a[1]), p["what"], ev)
        elif kind == "victim":
            s["pending"] = None
            op = {**p["op"], "t": BOARD_COLOURS.index(a[1])}
            if op["op"] == "discard":
                ev.append(Event(f"The team chooses the {cap(a[1])} Taoist to discard a Tao token for {op['who']}."))
                core.discard_one(s, op["t"], ev)
            else:
                ev.append(Event(f"The team chooses the {cap(a[1])} Taoist to roll the curse die for {op['who']}."))
                core.curse(s, op, ev)
        elif kind == "yyhelp":
            s["pending"] = None
            core.do_help(s, p["t"], p["tile"], a[1:], ev)
        elif kind == "blow":
            j = space_index(a[1])
            assert j is not None
            s["pending"] = {"kind": "pavilion", "seat": p["seat"], "t": p["t"]}
            core.move_ghost(s, p["k"], j, ev)
        elif kind == "pavilion":
            s["pending"] = None
            if a[1] != "skip":
                b = BOARD_COLOURS.index(a[1])
                x = tile_index(a[2])
                s["boards"][b]["pos"] = x
                ev.append(Event(f"The heavenly winds carry the {cap(a[1])} Taoist to {core.tname(s, x or 0)}."))

    def _yang(self, s: State, t: int, a: tuple[str, ...], ev: list[Event]) -> None:
        y = s["yang"]
        bd = s["boards"][t]
        me = f"The {cap(bd['colour'])} Taoist"
        verb = a[0]
        if verb == "move":
            bd["pos"] = tile_index(a[1])
            y["moved"] = True
            ev.append(Event(f"{me} moves to {core.tname(s, bd['pos'])}."))
        elif verb == "pocket":
            y["pockets"] = True
            core.give_tao(s, t, a[1], ev)
        elif verb == "mantra":
            y["mantra"] = True
            s["mantra"] = space_index(a[1])
            ev.append(Event(f"{me} puts the Enfeeblement Mantra on {core.ghost_label(s, s['mantra'])}."))
        elif verb == "push":
            y["push"] = True
            b = BOARD_COLOURS.index(a[1])
            s["boards"][b]["pos"] = tile_index(a[2])
            ev.append(Event(f"Twin Winds: the {cap(a[1])} Taoist moves to {core.tname(s, s['boards'][b]['pos'])}."))
        elif verb == "help":
            y["acts"].append("help")
            y["moved"] = True
            core.do_help(s, t, bd["pos"], a[1:], ev)
        elif verb == "exorcise":
            y["acts"].append("exorcise")
            y["moved"] = True
            ks = [space_index(x) for x in a[1:]]
            core.start_exorcism(s, t, [k for k in ks if k is not None], ev)
        elif verb == "yinyang":
            bd["yy"] = False
            if a[1] == "restore":
                x = tile_index(a[2])
                assert x is not None
                s["tiles"][x]["haunted"] = False
                ev.append(Event(f"{me} spends the Yin-Yang token to restore {core.tname(s, x)}."))
            else:
                x = tile_index(a[1])
                assert x is not None
                ev.append(Event(f"{me} spends the Yin-Yang token to call on the {core.tname(s, x)}."))
                options = core.help_args(s, t, x)
                if len(options) == 1:
                    core.do_help(s, t, x, options[0], ev)
                else:
                    s["pending"] = {"kind": "yyhelp", "seat": core.seat_of(s, t), "t": t, "tile": x}
        elif verb == "buddha":
            k = space_index(a[1])
            assert k is not None
            bd["buddhas"] -= 1
            s["buddha_on"][k] = True
            y["buddha"] = True
            y["moved"] = True
            ev.append(Event(f"{me} places a Buddha on {_sp(a[1])}."))
        elif verb == "power":
            nb = BOARD_COLOURS.index(a[1])
            bd["tokens"] -= 1
            s["centre_tokens"] += 1
            y["borrowed"].append(nb)
            ev.append(Event(f"{me} spends a Power token to use {POWER_NAMES[s['boards'][nb]['power']]} this turn."))
        elif verb == "end":
            take = s["centre_tokens"] if len(a) == 1 else int(a[1])
            if bd["pos"] == 4 and take > 0:
                bd["tokens"] += take
                s["centre_tokens"] -= take
                left = f", leaving {s['centre_tokens']} there" if s["centre_tokens"] else ""
                ev.append(Event(f"{me} picks up {take} Power token(s) from the centre tile{left}."))
            ev.append(Event(f"{me} ends the turn."))
            core.next_turn(s, ev)

    # -- views ----------------------------------------------------------------------------
    def undo_refusal(self, before: State, seat: int, action: Act, after: State, events: Sequence[Event]) -> str | None:
        """A step of the Taoist's own turn that rolls no die, draws no ghost and ends nothing (moving
        before acting, placing a Buddha) may be taken back; answering the ghosts' demands may not."""
        if before["pending"] is not None:
            return "it answered the ghosts"
        if after["turn"] != before["turn"] or after["phase"] != before["phase"]:
            return "it ended the turn"
        if after["deck"] != before["deck"]:
            return "it drew a ghost"
        return self.undo_blocker(before, seat, after, events)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        s = state
        boards = []
        for b, bd in enumerate(s["boards"]):
            power = bd["power"]
            boards.append(
                {
                    "colour": bd["colour"],
                    "side": SIDES[b],
                    "seat": bd["seat"],
                    "neutral": bd["seat"] is None,
                    "alive": bd["alive"],
                    "haunted": core.board_haunted(s, b),
                    "qi": bd["qi"],
                    "tao": dict(bd["tao"]),
                    "yinyang": bd["yy"],
                    "buddhas": bd["buddhas"],
                    "buddhas_new": bd["fresh"],
                    "power_tokens": bd["tokens"],
                    "power": {
                        "key": power,
                        "name": POWER_NAMES[power],
                        "text": POWER_TEXT[power],
                        "active": core.board_power_ok(s, b),
                    },
                    "pos": tile_name(bd["pos"]) if bd["pos"] is not None else None,
                }
            )
        spaces = []
        for k in range(12):
            g = s["spaces"][k]
            gv = None
            if g is not None:
                c = CARDS[g["id"]]
                gv = {
                    "id": g["id"],
                    "name": c["name"],
                    "colour": c["colour"],
                    "resistance": dict(c["resistance"]),
                    "arrival": list(c["arrival"]),
                    "yin": list(c["yin"]),
                    "states": list(c["states"]),
                    "exit": list(c["exit"]),
                    "incarnation": c["incarnation"],
                    "haunt": g["haunt"],
                    "haunts_in": core.haunts_in(s, g),
                    "captured": g["captured"],
                    "vulnerable": g["vulnerable"],
                    "exorcisable": core.exorcisable(s, k),
                }
            spaces.append(
                {
                    "space": space_name(k),
                    "front": tile_name(FRONT[k]),
                    "ghost": gv,
                    "buddha": s["buddha_on"][k],
                    "mantra": s["mantra"] == k,
                }
            )
        tiles = []
        for x, tl in enumerate(s["tiles"]):
            tiles.append(
                {
                    "tile": tile_name(x),
                    "key": tl["key"],
                    "name": TILES[tl["key"]]["name"],
                    "help": TILES[tl["key"]]["help"],
                    "haunted": tl["haunted"],
                    "taoists": [bd["colour"] for bd in s["boards"] if bd["pos"] == x and bd["seat"] is not None],
                }
            )
        p = s["pending"]
        pv = None
        if p is not None:
            pv = {k: v for k, v in p.items() if k not in ("op",)}
            if p["kind"] == "place":
                pv["card_name"] = CARDS[p["card"]]["name"]
                pv["spaces"] = [space_name(k) for k in p["spaces"]]
            if "targets" in p:
                pv["targets"] = [space_name(k) for k in p["targets"]]
            if p["kind"] == "victim":
                pv["who"] = p["op"]["who"]
                pv["what"] = "discard" if p["op"]["op"] == "discard" else "curse"
                pv["neutral"] = bool(p["op"].get("neutral"))
        active = s["boards"][s["turn"]]
        v: dict[str, Any] = {
            "game": self.key,
            "players": s["players"],
            "seat": seat,
            "my_colour": next((bd["colour"] for bd in s["boards"] if bd["seat"] == seat), None)
            if seat is not None
            else None,
            "difficulty": s["difficulty"],
            "round": s["round"],
            "turn": active["colour"],
            "turn_seat": active["seat"],
            "phase": s["phase"],
            "boards": boards,
            "spaces": spaces,
            "tiles": tiles,
            "supply": dict(s["supply"]),
            "qi_supply": s["qi_supply"],
            "temple_buddhas": s["temple"],
            "circle": s["circle"],
            "centre_power_tokens": s["centre_tokens"],
            "mantra": space_name(s["mantra"]) if isinstance(s["mantra"], int) else s["mantra"],
            "tao_locked": core.tao_locked(s),
            "captured_dice": core.captured_dice(s),
            "whites_wild": core.whites_wild(s),
            "deck": len(s["deck"]),
            "discard": len(s["discard"]),
            "discard_ids": list(s["discard"]),
            "options": dict(s["options"]),
            "incarnations": {"total": s["incarnations"], "banished": s["banished_incarnations"]},
            "haunted": sum(1 for tl in s["tiles"] if tl["haunted"]),
            "haunt_limit": core.haunt_limit(s),
            "last_roll": s["last_roll"],
            "pending": pv,
            "yang": dict(s["yang"]) if s["yang"] else None,
            "result": s["result"],
            "reason": s["reason"],
            "to_act": sorted(self.to_act(s)),
        }
        out = self.outcome(s)
        v["score"] = out.scores[0] if out is not None else None
        v["status"] = self._status(v)
        out_v: dict[str, Any] = json.loads(json.dumps(v))
        return out_v

    def status(self, view: dict[str, Any]) -> str:
        """The status line with the players' names, when the platform gives them: "alice (the Red
        Taoist)" rather than "the Red Taoist (seat 1)"."""
        return name_seats(str(view.get("status", "")), view.get("names") or [])

    def board_words(self, view: dict[str, Any], names: Sequence[str]) -> str:
        """The board in words: each Taoist's place, Qi and tokens, the ghosts on each board, the
        haunted tiles."""
        parts: list[str] = []
        taoists = []
        for b in view.get("boards") or []:
            if b.get("seat") is None:
                continue
            i = int(b["seat"])
            who = names[i] if i < len(names) else f"Seat {i + 1}"
            tokens = ", ".join(f"{n} {c}" for c, n in (b.get("tao") or {}).items() if n) or "no Tao tokens"
            life = f"{b['qi']} Qi" if b.get("alive") else "dead"
            taoists.append(f"{who} (the {cap(b['colour'])} Taoist) on {b.get('pos')}, {life}, {tokens}")
        if taoists:
            parts.append("Taoists: " + "; ".join(taoists) + ".")
        ghosts = [
            f"{sp['ghost']['name']} ({sp['ghost']['colour']}) on {sp['space']} facing {sp['front']}"
            for sp in view.get("spaces") or []
            if sp.get("ghost")
        ]
        parts.append("Ghosts: " + ("; ".join(ghosts) if ghosts else "none") + ".")
        haunted = [t["tile"] for t in view.get("tiles") or [] if t.get("haunted")]
        if haunted:
            parts.append(f"Haunted tiles: {', '.join(haunted)}.")
        return " ".join(parts)

    @staticmethod
    def _status(v: dict[str, Any]) -> str:
        if v["result"] == "win":
            return f"Victory! Score {v['score']}."
        if v["result"] == "lose":
            return f"Defeat: {v['reason']} Score {v['score']}."
        head = f"{cap(v['difficulty'])} · deck {v['deck']} · haunted {v['haunted']}/{v['haunt_limit']}"
        p = v["pending"]
        if p is not None:
            if "seats" in p:
                who = "the team (any living Taoist may answer)"
            else:
                mine = [b["colour"] for b in v["boards"] if b["seat"] == p["seat"]]
                who = f"the {cap(mine[0])} Taoist (seat {p['seat'] + 1})" if mine else f"seat {p['seat'] + 1}"
            what = {
                **PENDING_WHAT,
                "place": f"place {p.get('card_name', 'a ghost')}",
                "victim": (
                    f"choose who discards a Tao token for {p.get('who', 'a ghost')}"
                    if p.get("what") == "discard"
                    else f"choose who rolls the curse die for {p.get('who', 'a ghost')}"
                ),
            }[p["kind"]]
            roll = v["last_roll"]
            if p["kind"] in ("exorcism", "herbs") and roll and roll.get("kind") == "tao":
                what += f" (rolled {', '.join(roll['faces']) or 'no dice'})"
            return f"{head} — {who} must {what}."
        return f"{head} — the {cap(v['turn'])} Taoist (seat {(v['turn_seat'] or 0) + 1}) to act."

    # -- outcome ---------------------------------------------------------------------------
    def outcome(self, state: State) -> Outcome | None:
        s = state
        if s["result"] is None:
            return None
        won = s["result"] == "win"
        parts = score_details(s)
        score = sum(parts.values())
        n = s["players"]
        reason = str(s["reason"]).rstrip(".")
        return Outcome(
            scores=tuple(score for _ in range(n)),
            ranking=(tuple(range(n)),),
            winners=frozenset(range(n)) if won else frozenset(),
            summary=("Victory" if won else "Defeat") + f" ({reason}) — team score {score}.",
            details={**parts, "reason": reason},
            cooperative=True,
        )

    def outcome_lines(self, outcome: Outcome, names: Sequence[str]) -> list[str]:
        """The verdict with its reason and score ("The team lost — 4 village tiles are haunted; score −29"),
        then the parts of the score in words; no standings, since the team wins or loses together."""
        d = outcome.details
        parts = {k: int(d[k]) for k in SCORE_LABELS if isinstance(d.get(k), int)}
        score = sum(parts.values())
        verdict = "🏆 The team won" if outcome.winners else "💀 The team lost"
        why = str(d.get("reason") or "")
        why = "the " + why[4:] if why.startswith("The ") else why  # it follows a dash: "— the ghost deck ran out"
        reason = f" — {why}" if why else ""
        lines = [f"{verdict}{reason}; score {_signed(score)} (scored as in the rulebook)."]
        shown = [f"{SCORE_LABELS[k]} {_signed(v)}" for k, v in parts.items() if v or k in ("deck", "qi")]
        if shown:
            lines.append("Score: " + " · ".join(shown))
        team = ", ".join(names)
        if team:
            lines.append(f"The team: {team}")
        return lines

    # -- serialisation ---------------------------------------------------------------------
    def dump_state(self, state: State) -> dict[str, Any]:
        return core.copy_state(state)

    def load_state(self, data: dict[str, Any]) -> State:
        s = core.copy_state(data)
        if isinstance(s.get("pending"), dict) and "options" in s["pending"]:
            s["pending"]["options"] = {k: dict(v) for k, v in s["pending"]["options"].items()}
        return s

    def dump_action(self, action: Act) -> dict[str, Any]:
        return {"a": list(action.parts)}

    def load_action(self, data: dict[str, Any]) -> Act:
        parts = data.get("a")
        if not isinstance(parts, list) or not parts:
            raise InvalidInput("Malformed Ghost Stories action.")
        return Act(tuple(str(p) for p in parts))

    def format_action(self, action: Act) -> str:
        return " ".join(w.upper() if tile_index(w) is not None else w for w in action.parts)

    def parse_action(self, text: str) -> Act:
        parts = tuple(text.strip().lower().split())
        if not parts:
            raise InvalidInput("Write an action, e.g. 'move B1', 'exorcise red2', 'help', 'end'.")
        if parts[0] not in VERBS:
            raise InvalidInput(f"Unknown action {parts[0]!r}; try one of: {', '.join(VERBS)}.")
        return Act(parts)

    def describe_action(self, action: Act) -> str:
        """The legal action's label; a typed action (no label) reads as a short sentence."""
        if action.label:
            return action.label
        text = self.format_action(action)
        if action.parts == ("banish", "none"):
            return "Give up the exorcism"
        if action.parts[0] == "end" and len(action.parts) == 2:
            return f"End your turn, picking up {action.parts[1]} Power token(s)"
        verb, _, rest = text.partition(" ")
        phrase = TYPED.get(verb)
        return (f"{phrase} {rest}" if rest else phrase.rstrip(":")) if phrase else text

    def bot_policy(self) -> BotPolicy[Act]:
        # The heuristic: it wins more than the look-ahead SearchPolicy in the bench and decides in
        # milliseconds (the search needs up to ~1.5 s a decision). See docs/rules/ghost_stories.md, "Bot".
        from bot.rules.ghost_stories.bot import TaoistPolicy

        return TaoistPolicy()


SCORE_LABELS = {
    "victory": "victory",
    "deck": "ghost cards left in the deck",
    "qi": "Qi left",
    "dead": "dead Taoists",
    "haunted": "haunted tiles",
    "incarnations": "incarnations exorcised",
}


def _signed(n: int) -> str:
    return f"−{-n}" if n < 0 else str(n)


def score_details(s: State) -> dict[str, int]:
    won = s["result"] == "win"
    d: dict[str, int] = {}
    d["victory"] = (20 if s["difficulty"] == "hell" else 10) if won else 0
    d["deck"] = len(s["deck"]) if won else -len(s["deck"])
    d["qi"] = sum(bd["qi"] for bd in s["boards"] if bd["seat"] is not None and bd["alive"])
    d["dead"] = -3 * sum(1 for bd in s["boards"] if bd["seat"] is not None and not bd["alive"])
    d["haunted"] = -4 * sum(1 for tl in s["tiles"] if tl["haunted"])
    m = min(3, s["banished_incarnations"]) if s["difficulty"] in ("nightmare", "hell") else 0
    d["incarnations"] = sum((2, 4, 6)[:m])
    return d


GAME = GhostStories()
