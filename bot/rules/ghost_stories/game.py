"""The `Game` facade: legal actions with labels, apply, views, outcome and the action notation."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import bot.rules.ghost_stories.core as core
from bot.i18n import N_, T_, Msg, Nn_
from bot.rules.base import Event, Game, OptionSpec, Outcome, cut
from bot.rules.errors import InvalidInput
from bot.rules.ghost_stories.core import State, cap, tao_word
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
    "move": N_("Move to"),
    "exorcise": N_("Exorcise the ghost on"),
    "help": N_("Ask the villager for help:"),
    "buddha": N_("Place a Buddha on"),
    "yinyang": N_("Spend the Yin-Yang token:"),
    "end": N_("End your turn"),
    "place": N_("Place the ghost on"),
    "banish": N_("Banish the ghost on"),
    "side": N_("Play the board side:"),
    "power": N_("Spend a Power token on the power of board"),
    "reward": N_("Reward:"),
    "keep": N_("Keep the roll"),
    "reroll": N_("Reroll dice:"),
    "pay": N_("Pay with:"),
    "pocket": N_("Bottomless Pockets: take a Tao token:"),
    "mantra": N_("Put the Mantra on"),
    "give": N_("Choose:"),
    "suffer": N_("Choose:"),
    "blow": N_("Choose:"),
    "push": N_("Choose:"),
    "pavilion": N_("Choose:"),
    "discard": N_("Discard a Tao token:"),
    "take": N_("Take a Tao token:"),
}


def space_words(name: str) -> str:
    """A space (`green3`) or tile in words, "Green 3": the menus' and the boards' name for it."""
    k = space_index(name)
    return cap(name) if k is None else N_("{colour} {n}", colour=cap(BOARD_COLOURS[k // 3]), n=k % 3 + 1)


_sp = space_words  # the menus' short name for it


REWARDS = {"qi": N_("1 Qi"), "yinyang": N_("your Yin-Yang token"), "skip": N_("no one"), "none": N_("none")}


def _word(token: str) -> str:
    """A typed action's argument in words (the echo of `/game move` reads as the buttons do):
    "red1" -> "Red 1", "peaks" -> the power's name, "blue" -> the board's colour."""
    low = token.lower()
    if space_index(low) is not None:
        return _sp(low)
    if low in POWER_NAMES:
        return POWER_NAMES[low]
    if low in REWARDS:
        return REWARDS[low]
    if low in TAO_COLOURS:
        return cap(low)
    colour, _, board = low.partition("-")  # a payment's token: `black-green`, a black token of Green's
    if colour in TAO_COLOURS and board in BOARD_COLOURS:
        return N_("{n} {colour} ({board}'s)", n=1, colour=tao_word(colour), board=cap(board))
    return token


def need_text(s: State, k: int) -> str:
    req, flex, dice_ok = core.requirement(s, k)
    parts = [N_("{n} {colour}", n=n, colour=tao_word(c)) for c, n in req.items() if n > 0]
    total = sum(req.values()) - flex
    if total <= 0:
        return N_("nothing")
    text: str = Msg.cat(*parts, sep=" + ") if parts else N_("nothing")
    if flex:
        text = N_("{need} (-1 Mantra)", need=text)
    if not dice_ok:
        text = N_("{need}, dice don't count", need=text)
    return text


def help_label(s: State, tile: int, args: tuple[str, ...]) -> str:
    key = s["tiles"][tile]["key"]
    name = T_(f"ghost_stories.tile.{key}", TILES[key]["name"])
    if key == "tea_house":
        return (
            N_("{name}: take a {args} token, +1 Qi, a ghost arrives", name=name, args=args[0])
            if args
            else N_("{name}: +1 Qi, a ghost arrives", name=name)
        )
    if key == "altar":
        return N_("{name}: restore {s}, a ghost arrives", name=name, s=core.tname(s, tile_index(args[0]) or 0))
    if key == "herbalist":
        return N_("{name}: roll 2 Tao dice for tokens", name=name)
    if key == "sorcerer":
        k = space_index(args[0])
        assert k is not None
        return N_("{name}: -1 Qi, remove {s}", name=name, s=core.ghost_label(s, k))
    if key == "temple":
        return N_("{name}: take a Buddha", name=name)
    if key == "watchman":
        return N_("{name}: haunting figures of the {args} board go home", name=name, args=cap(args[0]))
    if key == "circle":
        return N_("{name}: put a {args} token on it", name=name, args=args[0])
    if key == "pavilion":
        k = space_index(args[0])
        assert k is not None
        return N_("{name}: blow {s} away from {args}", name=name, s=card_name(s, k), args=_sp(args[0]))
    if key == "cemetery":
        return N_("{name}: revive the {args} Taoist", name=name, args=cap(args[0]))
    return name


def payment_text(s: State, t: int, alloc: Sequence[Sequence[Any]]) -> str:
    """Who pays which Tao tokens, e.g. "1 red (yours) + 1 blue (Green's)"."""
    if not alloc:
        return N_("no tokens")
    counts: dict[tuple[str, int], int] = {}
    for c, b in alloc:
        counts[(c, b)] = counts.get((c, b), 0) + 1
    return Msg.cat(
        *(
            N_("{n} {colour} (yours)", n=x, colour=tao_word(c))
            if b == t
            else N_("{n} {colour} ({board}'s)", n=x, colour=tao_word(c), board=cap(BOARD_COLOURS[b]))
            for (c, b), x in counts.items()
        ),
        sep=" + ",
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


_TAOIST_SEAT = re.compile(r"the (\w+) Taoist \(seat (\d)\)|(?<![A-Za-z])seat (\d)(?!\d)")  # no \b: CJK


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
    "side": N_("choose which side of their board to play"),
    "curse_reroll": N_("keep or reroll the curse die"),
    "exorcism": N_("finish the exorcism"),
    "herbs": N_("keep or reroll the herbs dice"),
    "discard": N_("discard a Tao token"),
    "take": N_("take a Tao token"),
    "reward": N_("choose a reward"),
    "pay": N_("choose which Tao tokens pay for the exorcism"),
    "share": N_("share Wu-Feng's reward"),
    "pavilion": N_("move a Taoist with the winds"),
    "blow": N_("choose where the winds blow the ghost"),
    "yyhelp": N_("choose how to use the help called with the Yin-Yang"),
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
        OptionSpec(
            "full_line",
            N_(
                "A haunting on a fully haunted line: nothing happens (the seed lists no such loss), or the game is lost"
            ),
            ("spared", "lost"),
            "spared",
        ),
        OptionSpec(
            "corner_dice",
            N_("Two ghosts from a corner: each die counts for one of them, or the whole roll counts for each"),
            ("split", "each"),
            "split",
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
            return [
                Act(
                    ("side", key),
                    cut(
                        N_("Play {POWER_NAMES}: {POWER_TEXT}", POWER_NAMES=POWER_NAMES[key], POWER_TEXT=POWER_TEXT[key])
                    ),
                )
                for key in p["choices"]
            ]
        if kind == "place":
            name = CARDS[p["card"]]["name"]
            return [
                Act(
                    ("place", space_name(k)),
                    cut(
                        N_(
                            "Place {name} on {k} (facing {s})",
                            name=name,
                            k=_sp(space_name(k)),
                            s=core.tname(s, FRONT[k]),
                        )
                    ),
                )
                for k in p["spaces"]
            ]
        if kind == "curse_reroll":
            face = core.CURSE_TEXT[p["op"]["face"]]
            return [
                Act(("keep",), N_("Keep the curse: {face}", face=face)),
                Act(("reroll",), N_("Reroll the curse die (Gods' Favorite)")),
            ]
        if kind in ("exorcism", "herbs") and p.get("reroll"):
            out = [Act(("keep",), N_("Keep the roll: {p}", p=core.fmt_dice(p["dice"])))]
            n = len(p["dice"])
            for r in range(1, n + 1):
                for combo in combinations(range(n), r):
                    idx = "".join(str(i + 1) for i in combo)
                    what = ", ".join(p["dice"][i] for i in combo)
                    out.append(Act(("reroll", idx), N_("Reroll {what} (dice {idx})", what=what, idx=", ".join(idx))))
            return out
        if kind == "exorcism":
            out = []
            every = all_payments(s, p)
            for key, pay in p["options"].items():
                ks = key.split()
                cost = payment_text(s, p["t"], core.allocations(s, p["t"], pay)[0])
                if len(payment_ways(s, p["t"], every.get(key, []))) > 1:
                    cost = N_("{cost}, or choose how", cost=cost)
                names = Msg.join(
                    [N_("{ghost} on {space}", ghost=card_name(s, space_index(x) or 0), space=_sp(x)) for x in ks]
                )
                label = N_("Exorcise {names}, paying {cost}", names=names, cost=cost)
                if len(label) > 80:
                    label = N_("Exorcise {x}, paying {cost}", x=Msg.join([_sp(x) for x in ks]), cost=cost)
                out.append(Act(("banish", *ks), cut(label)))
            out.append(Act(("banish", "none"), N_("Give up: keep the Tao tokens")))
            return out
        if kind == "pay":
            return [
                Act(
                    ("pay", *sorted(pay_token(c, b) for c, b in way)),
                    cut(N_("Pay {tokens}", tokens=payment_text(s, p["t"], way))),
                )
                for way in p["ways"]
            ]
        if kind == "discard":
            return [Act(("discard", c), N_("Discard a {c} Tao token", c=c)) for c in p["colours"]]
        if kind == "take":
            return [Act(("take", c), N_("Take a {c} Tao token", c=c)) for c in p["colours"]]
        if kind == "reward":
            return [
                Act(("reward", c), N_("Gain 1 Qi") if c == "qi" else N_("Recover your Yin-Yang token"))
                for c in p["choices"]
            ]
        if kind == "victim":
            if p["op"]["op"] == "discard":
                return [
                    Act(
                        ("suffer", BOARD_COLOURS[t]),
                        N_(
                            "The {BOARD_COLOURS} Taoist ({values} Tao tokens) discards a Tao token",
                            BOARD_COLOURS=cap(BOARD_COLOURS[t]),
                            values=sum(s["boards"][t]["tao"].values()),
                        ),
                    )
                    for t in p["cands"]
                ]
            return [
                Act(
                    ("suffer", BOARD_COLOURS[t]),
                    N_(
                        "The {BOARD_COLOURS} Taoist ({s} Qi) rolls the curse die",
                        BOARD_COLOURS=cap(BOARD_COLOURS[t]),
                        s=s["boards"][t]["qi"],
                    ),
                )
                for t in p["cands"]
            ]
        if kind == "share":
            what = N_("1 Qi") if p["what"] == "qi" else N_("the Yin-Yang token")
            return [
                Act(
                    ("give", BOARD_COLOURS[t]),
                    N_("Give {what} to the {BOARD_COLOURS} Taoist", what=what, BOARD_COLOURS=cap(BOARD_COLOURS[t])),
                )
                for t in p["cands"]
            ]
        if kind == "yyhelp":
            x = p["tile"]
            return [Act(("help", *args), cut(help_label(s, x, args))) for args in core.help_args(s, p["t"], x)]
        if kind == "blow":
            name = card_name(s, p["k"])
            return [
                Act(
                    ("blow", space_name(j)),
                    N_("Blow {name} to {j} (Buddha!)", name=name, j=_sp(space_name(j)))
                    if s["buddha_on"][j]
                    else N_("Blow {name} to {j}", name=name, j=_sp(space_name(j))),
                )
                for j in p["spaces"]
            ]
        if kind == "pavilion":
            out = [Act(("pavilion", "skip"), N_("Move no Taoist"))]
            for b in core.living(s):
                if b == p["t"] and s["players"] > 1:
                    continue
                for x in range(9):
                    if x != s["boards"][b]["pos"]:
                        out.append(
                            Act(
                                ("pavilion", BOARD_COLOURS[b], tile_name(x)),
                                N_(
                                    "Blow the {BOARD_COLOURS} Taoist to {s}",
                                    BOARD_COLOURS=cap(BOARD_COLOURS[b]),
                                    s=core.tname(s, x),
                                ),
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
                Act(("pocket", c), N_("Bottomless Pockets: take a {c} Tao token", c=tao_word(c)))
                for c in TAO_COLOURS
                if s["supply"][c] > 0
            ]
        if early and not y["mantra"] and core.has_power(s, t, "mantra") and s["mantra"] not in (None, "gone"):
            for k, _ in core.in_play(s):
                if s["mantra"] != k:
                    out.append(Act(("mantra", space_name(k)), cut(N_("Mantra on {s}", s=core.ghost_label(s, k)))))
        if early:
            dests = [x for x in range(9) if x != pos] if core.has_power(s, t, "peaks") else list(ADJ[pos])
            out += [Act(("move", tile_name(x)), N_("Move to {s}", s=core.tname(s, x))) for x in dests]
        if not y["push"] and not y["acts"] and core.has_power(s, t, "twin_winds"):
            for b in core.living(s):
                if b == t and s["players"] > 1:
                    continue
                for x in ADJ[s["boards"][b]["pos"]]:
                    out.append(
                        Act(
                            ("push", BOARD_COLOURS[b], tile_name(x)),
                            N_(
                                "Twin Winds: move the {BOARD_COLOURS} Taoist to {s}",
                                BOARD_COLOURS=cap(BOARD_COLOURS[b]),
                                s=core.tname(s, x),
                            ),
                        )
                    )
        if not y["buddha"]:
            if self._can_act(s, t, "help"):
                for args in core.help_args(s, t, pos):
                    out.append(Act(("help", *args), cut(help_label(s, pos, args))))
            if self._can_act(s, t, "exorcise"):
                ks = [k for k in FACES[pos] if core.exorcisable(s, k)]
                for k in ks:
                    n = core.dice_count(s, t)
                    out.append(
                        Act(
                            ("exorcise", space_name(k)),
                            cut(
                                N_(
                                    "Exorcise {s} — needs {s2} ({n} dice)",
                                    s=core.ghost_label(s, k),
                                    s2=need_text(s, k),
                                    n=n,
                                )
                            ),
                        )
                    )
                if len(ks) == 2:
                    out.append(
                        Act(
                            ("exorcise", *(space_name(k) for k in ks)),
                            cut(
                                N_(
                                    "Exorcise both {s} and {s2} with one roll",
                                    s=card_name(s, ks[0]),
                                    s2=card_name(s, ks[1]),
                                )
                            ),
                        )
                    )
        if bd["yy"]:
            for x in range(9):
                if s["tiles"][x]["haunted"]:
                    out.append(
                        Act(("yinyang", "restore", tile_name(x)), N_("Yin-Yang: restore {s}", s=core.tname(s, x)))
                    )
                elif core.help_args(s, t, x):
                    out.append(Act(("yinyang", tile_name(x)), N_("Yin-Yang: use the help of {s}", s=core.tname(s, x))))
        if bd["buddhas"] - bd["fresh"] > 0:
            for k in FACES[pos]:
                if s["spaces"][k] is None and not s["buddha_on"][k]:
                    out.append(Act(("buddha", space_name(k)), N_("Place a Buddha on {k}", k=_sp(space_name(k)))))
        if bd["tokens"] > 0:
            for nb in range(4):
                if s["boards"][nb]["seat"] is None and nb not in y["borrowed"] and core.board_power_ok(s, nb):
                    power = s["boards"][nb]["power"]
                    out.append(
                        Act(
                            ("power", BOARD_COLOURS[nb]),
                            N_("Spend a Power token: use {POWER_NAMES} this turn", POWER_NAMES=POWER_NAMES[power]),
                        )
                    )
        n = s["centre_tokens"]
        if pos == 4 and n > 0:
            # 「可從正中央的村莊板塊上拿取全部或部分的中立技能標記」: all (`end`) or some (`end 1`, `end 0`)
            out.append(
                Act(
                    ("end",),
                    Nn_(
                        "End your turn, picking up the {n} Power token here",
                        "End your turn, picking up the {n} Power tokens here",
                        n,
                    ),
                )
            )
            for k in range(n - 1, -1, -1):
                label = (
                    N_("picking up {k} of the {n} Power tokens", k=k, n=n) if k else N_("leaving the Power tokens here")
                )
                out.append(Act(("end", str(k)), N_("End your turn, {label}", label=label)))
        else:
            out.append(Act(("end",), N_("End your turn")))
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
        return N_("Spend your Yin-Yang token (you get it back only as a reward) to {what}?", what=what)

    def _apply(self, state: State, seat: int, action: Act) -> tuple[State, list[Event]]:
        action = self.find_legal(state, seat, action)
        s = core.copy_state(state)
        ev: list[Event] = []
        self._play(s, action, ev)
        return s, ev

    def play_in_place(self, s: State, action: Act) -> None:
        """Play `action`, one of `legal_actions(s, seat)`'s own, on `s` itself, its events dropped: the
        planner's rollouts own their state and play only legal actions, so they need neither `apply`'s
        copy nor its check (a rollout step at about half the cost; issue #14)."""
        self._play(s, action, [])

    def _play(self, s: State, action: Act, ev: list[Event]) -> None:
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
                ev.append(
                    Event(
                        N_("Gods' Favorite: the curse die is rerolled: {CURSE_TEXT}.", CURSE_TEXT=core.CURSE_TEXT[face])
                    )
                )
                op["face"] = face
            core.apply_curse(s, op, op["face"], ev)
        elif kind in ("exorcism", "herbs") and p.get("reroll"):
            if verb == "reroll":
                idx = [int(ch) - 1 for ch in a[1]]
                new = core.roll(s, TAO_DIE, len(idx))
                for i, d in zip(idx, new, strict=True):
                    p["dice"][i] = d
                s["last_roll"] = {**s["last_roll"], "faces": list(p["dice"])}
                ev.append(Event(N_("Gods' Favorite: reroll gives {p}.", p=core.fmt_dice(p["dice"]))))
            if kind == "exorcism":
                core.settle_prepare(s, ev)
            else:
                core.herbs_resolve(s, ev)
        elif kind == "exorcism":
            s["pending"] = None
            if a[1] == "none":
                ev.append(Event(N_("The Taoist gives up the exorcism.")))
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
            ev.append(Event(N_("The {bd} Taoist discards a {a} Tao token.", bd=cap(bd["colour"]), a=a[1])))
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
                ev.append(
                    Event(
                        N_(
                            "The team chooses the {a} Taoist to discard a Tao token for {op}.",
                            a=cap(a[1]),
                            op=op["who"],
                        )
                    )
                )
                core.discard_one(s, op["t"], ev)
            else:
                ev.append(
                    Event(
                        N_("The team chooses the {a} Taoist to roll the curse die for {op}.", a=cap(a[1]), op=op["who"])
                    )
                )
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
                ev.append(
                    Event(N_("The heavenly winds carry the {a} Taoist to {s}.", a=cap(a[1]), s=core.tname(s, x or 0)))
                )

    def _yang(self, s: State, t: int, a: tuple[str, ...], ev: list[Event]) -> None:
        y = s["yang"]
        bd = s["boards"][t]
        me = N_("The {bd} Taoist", bd=cap(bd["colour"]))
        verb = a[0]
        if verb == "move":
            bd["pos"] = tile_index(a[1])
            y["moved"] = True
            ev.append(Event(N_("{me} moves to {s}.", me=me, s=core.tname(s, bd["pos"]))))
        elif verb == "pocket":
            y["pockets"] = True
            core.give_tao(s, t, a[1], ev)
        elif verb == "mantra":
            y["mantra"] = True
            s["mantra"] = space_index(a[1])
            ev.append(Event(N_("{me} puts the Enfeeblement Mantra on {s}.", me=me, s=core.ghost_label(s, s["mantra"]))))
        elif verb == "push":
            y["push"] = True
            b = BOARD_COLOURS.index(a[1])
            s["boards"][b]["pos"] = tile_index(a[2])
            ev.append(
                Event(
                    N_("Twin Winds: the {a} Taoist moves to {s}.", a=cap(a[1]), s=core.tname(s, s["boards"][b]["pos"]))
                )
            )
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
                ev.append(Event(N_("{me} spends the Yin-Yang token to restore {s}.", me=me, s=core.tname(s, x))))
            else:
                x = tile_index(a[1])
                assert x is not None
                ev.append(Event(N_("{me} spends the Yin-Yang token to call on the {s}.", me=me, s=core.tname(s, x))))
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
            ev.append(Event(N_("{me} places a Buddha on {a}.", me=me, a=_sp(a[1]))))
        elif verb == "power":
            nb = BOARD_COLOURS.index(a[1])
            bd["tokens"] -= 1
            s["centre_tokens"] += 1
            y["borrowed"].append(nb)
            ev.append(
                Event(
                    N_(
                        "{me} spends a Power token to use {POWER_NAMES} this turn.",
                        me=me,
                        POWER_NAMES=POWER_NAMES[s["boards"][nb]["power"]],
                    )
                )
            )
        elif verb == "end":
            take = s["centre_tokens"] if len(a) == 1 else int(a[1])
            if bd["pos"] == 4 and take > 0:
                bd["tokens"] += take
                s["centre_tokens"] -= take
                left = N_(", leaving {s} there", s=s["centre_tokens"]) if s["centre_tokens"] else ""
                ev.append(
                    Event(
                        N_(
                            "{me} picks up {take} Power token(s) from the centre tile{left}.",
                            me=me,
                            take=take,
                            left=left,
                        )
                    )
                )
            ev.append(Event(N_("{me} ends the turn.", me=me)))
            core.next_turn(s, ev)

    # -- views ----------------------------------------------------------------------------
    def undo_refusal(self, before: State, seat: int, action: Act, after: State, events: Sequence[Event]) -> str | None:
        """A step of the Taoist's own turn that rolls no die, draws no ghost and ends nothing (moving
        before acting, placing a Buddha) may be taken back; answering the ghosts' demands may not."""
        if before["pending"] is not None:
            return N_("it answered the ghosts")
        if after["turn"] != before["turn"] or after["phase"] != before["phase"]:
            return N_("it ended the turn")
        if after["deck"] != before["deck"]:
            return N_("it drew a ghost")
        return self.undo_blocker(before, seat, after, events)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        out_v: dict[str, Any] = json.loads(json.dumps(self.bot_view(state, seat)))
        out_v["status"] = self._status(out_v)  # after the copy: a message, translated by the presenter
        return out_v

    def bot_view(self, state: State, seat: int | None) -> dict[str, Any]:
        """`view` without its JSON copy and status line, for the planner's rollouts (their bots read it
        once and drop it): its names are messages, not strings, and a few parts (the last roll, the
        pending choice's lists) are the state's own objects, so it is read-only and short-lived."""
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
        return v

    def event_text(self, text: str, names: Sequence[str]) -> str:
        """Event and status lines with the players' names for "seat N" (after translation)."""
        if isinstance(text, Msg):
            return text.then(lambda s: name_seats(s, names))
        return name_seats(text, names)

    def status(self, view: dict[str, Any]) -> str:
        """The status line with the players' names, when the platform gives them: "alice (the Red
        Taoist)" rather than "the Red Taoist (seat 1)"."""
        return self.event_text(view.get("status", ""), view.get("names") or [])

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
            tokens = Msg.cat(
                *(N_("{n} {colour}", n=n, colour=tao_word(c)) for c, n in (b.get("tao") or {}).items() if n), sep=", "
            ) or N_("no Tao tokens")
            life = N_("{n} Qi", n=b["qi"]) if b.get("alive") else N_("dead")
            taoists.append(
                N_(
                    "{who} (the {b} Taoist) on {x}, {life}, {tokens}",
                    who=who,
                    b=cap(b["colour"]),
                    x=b.get("pos"),
                    life=life,
                    tokens=tokens,
                )
            )
        if taoists:
            parts.append(N_("Taoists: {taoists}.", taoists=Msg.cat(*taoists, sep="; ")))
        ghosts = [
            N_(
                "{sp} ({sp2}) on {sp3} facing {sp4}",
                sp=T_(f"ghost_stories.ghost.{sp['ghost']['name']}", sp["ghost"]["name"]),
                sp2=tao_word(sp["ghost"]["colour"]),
                sp3=sp["space"],
                sp4=sp["front"],
            )
            for sp in view.get("spaces") or []
            if sp.get("ghost")
        ]
        parts.append(N_("Ghosts: {ghosts}.", ghosts=Msg.cat(*ghosts, sep="; ")) if ghosts else N_("Ghosts: none."))
        haunted = [t["tile"] for t in view.get("tiles") or [] if t.get("haunted")]
        if haunted:
            parts.append(N_("Haunted tiles: {haunted}.", haunted=", ".join(haunted)))
        return Msg.cat(*parts, sep=" ")

    @staticmethod
    def _status(v: dict[str, Any]) -> str:
        if v["result"] == "win":
            return N_("Victory! Score {v}.", v=v["score"])
        if v["result"] == "lose":
            return N_("Defeat: {v} Score {v2}.", v=v["reason"], v2=v["score"])
        head = N_(
            "{v} · deck {v2} · haunted {v3}/{v4}",
            v=T_(f"ghost_stories.diff.{v['difficulty']}", str(v["difficulty"]).capitalize()),
            v2=v["deck"],
            v3=v["haunted"],
            v4=v["haunt_limit"],
        )
        p = v["pending"]
        if p is not None:
            if "seats" in p:
                who = N_("the team (any living Taoist may answer)")
            else:
                mine = [b["colour"] for b in v["boards"] if b["seat"] == p["seat"]]
                who = (
                    N_("the {mine} Taoist (seat {x})", mine=cap(mine[0]), x=p["seat"] + 1)
                    if mine
                    else N_("seat {x}", x=p["seat"] + 1)
                )
            what = {
                **PENDING_WHAT,
                "place": N_("place {ghost}", ghost=T_(f"ghost_stories.ghost.{p['card_name']}", p["card_name"]))
                if p.get("card_name")
                else N_("place a ghost"),
                "victim": (
                    N_("choose who discards a Tao token for {x}", x=p.get("who", "a ghost"))
                    if p.get("what") == "discard"
                    else N_("choose who rolls the curse die for {x}", x=p.get("who", "a ghost"))
                ),
            }[p["kind"]]
            roll = v["last_roll"]
            if p["kind"] in ("exorcism", "herbs") and roll and roll.get("kind") == "tao":
                what = (
                    N_(
                        "{what} (rolled {faces})",
                        what=what,
                        faces=Msg.cat(*(tao_word(f) for f in roll["faces"]), sep=", "),
                    )
                    if roll["faces"]
                    else N_("{what} (rolled no dice)", what=what)
                )
            return N_("{head} — {who} must {what}.", head=head, who=who, what=what)
        return N_(
            "{head} — the {v} Taoist (seat {x}) to act.", head=head, v=cap(v["turn"]), x=(v["turn_seat"] or 0) + 1
        )

    # -- outcome ---------------------------------------------------------------------------
    def outcome(self, state: State) -> Outcome | None:
        s = state
        if s["result"] is None:
            return None
        won = s["result"] == "win"
        parts = score_details(s)
        score = sum(parts.values())
        n = s["players"]
        reason = reason_of(s.get("reason_msg"), s["reason"])
        return Outcome(
            scores=tuple(score for _ in range(n)),
            ranking=(tuple(range(n)),),
            winners=frozenset(range(n)) if won else frozenset(),
            summary=(
                N_("Victory ({reason}) — team score {score}.", reason=reason, score=score)
                if won
                else N_("Defeat ({reason}) — team score {score}.", reason=reason, score=score)
            ),
            details={
                **parts,
                "reason": str.__str__(reason),
                **({"reason_msg": reason.to_json()} if isinstance(reason, Msg) else {}),
            },
            cooperative=True,
        )

    def outcome_lines(self, outcome: Outcome, names: Sequence[str]) -> list[str]:
        """The verdict with its reason and score ("The team lost — 4 village tiles are haunted; score −29"),
        then the parts of the score in words; no standings, since the team wins or loses together."""
        d = outcome.details
        parts = {k: int(d[k]) for k in SCORE_LABELS if isinstance(d.get(k), int)}
        score = sum(parts.values())
        verdict = N_("🏆 The team won") if outcome.winners else N_("💀 The team lost")
        why = reason_of(d.get("reason_msg"), str(d.get("reason") or ""))
        # it follows a dash: "— the ghost deck ran out"
        why = why.then(lambda w: "the " + w[4:] if w.startswith("The ") else w) if isinstance(why, Msg) else why
        lines: list[str] = [
            N_(
                "{verdict} — {reason}; score {score} (scored as in the rulebook).",
                verdict=verdict,
                reason=why,
                score=_signed(score),
            )
            if why
            else N_("{verdict}; score {score} (scored as in the rulebook).", verdict=verdict, score=_signed(score))
        ]
        shown = [
            N_("{label} {n}", label=SCORE_LABELS[k], n=_signed(v)) for k, v in parts.items() if v or k in ("deck", "qi")
        ]
        if shown:
            lines.append(N_("Score: {parts}", parts=Msg.cat(*shown, sep=" · ")))
        team = ", ".join(names)
        if team:
            lines.append(N_("The team: {team}", team=team))
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
            raise InvalidInput(N_("Write an action, e.g. 'move B1', 'exorcise red2', 'help', 'end'."))
        if parts[0] not in VERBS:
            raise InvalidInput(
                N_("Unknown action {parts!r}; try one of: {VERBS}.", parts=parts[0], VERBS=", ".join(VERBS))
            )
        return Act(parts)

    def describe_action(self, action: Act) -> str:
        """The legal action's label; a typed action (no label) reads as a short sentence."""
        if action.label:
            return action.label
        text = self.format_action(action)
        if action.parts == ("banish", "none"):
            return N_("Give up the exorcism")
        if action.parts[0] == "end" and len(action.parts) == 2:
            return N_("End your turn, picking up {parts} Power token(s)", parts=action.parts[1])
        verb, _, rest = text.partition(" ")
        phrase = TYPED.get(verb)
        if not phrase:
            return text
        if not rest:
            return phrase.then(lambda p: p.rstrip(":：")) if isinstance(phrase, Msg) else phrase.rstrip(":")
        return Msg.cat(phrase, Msg.cat(*(_word(w) for w in rest.split()), sep=", "), sep=" ")


SCORE_LABELS = {
    "victory": N_("victory"),
    "deck": N_("ghost cards left in the deck"),
    "qi": N_("Qi left"),
    "dead": N_("dead Taoists"),
    "haunted": N_("haunted tiles"),
    "incarnations": N_("incarnations exorcised"),
}


def reason_of(stored: Any, text: str) -> str:
    """Why the game ended, as a message again: the stored message id, else the English text (itself
    a message id when it had no parameters), without its final full stop."""
    msg = Msg.from_json(stored) if isinstance(stored, dict) else N_(str(text))
    return msg.then(lambda r: r.rstrip(".。")) if isinstance(msg, Msg) else str(msg).rstrip(".")


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
