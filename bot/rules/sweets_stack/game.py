"""Sweets Stack: pass candy cards, drop them into your bucket like falling blocks, score full rows.

Flow of a round (three rounds): every active seat secretly picks a card (phase "pick", all active
seats in to_act); the picks are revealed and passed to the next active seat in the round's
direction; every receiver then chooses where the candy comes to rest (phase "place", all receivers
in to_act) or pays to swap/rotate; a candy with no resting place eliminates its receiver and gives
the passer a candle. When at most one player is left (or a player has no card), the round is scored.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import bot.rules.sweets_stack.data as D
from bot.i18n import N_, T_, Msg, Nn_
from bot.rules.base import Event, Game, OptionSpec, Outcome, cut, standing_line
from bot.rules.errors import IllegalAction, InvalidInput
from bot.rules.rng import Rng

# per round: no card, a card drawn at random (from those not chosen), or the named card
ADVANCED_ROUND_CHOICES: tuple[str, ...] = ("none", "random", *D.ADVANCED_IDS)
# the single option of tables made before the per-round options (issue #13): still accepted
LEGACY_ADVANCED: dict[str, tuple[str, str, str]] = {
    "off": ("none", "none", "none"),
    "rounds23": ("none", "random", "random"),
    "every": ("random", "random", "random"),
}
FIREBALL = "dragons_fireball"
REFILL_CHOICES = ("up-to-3", "draw-1")
ROTATE_COST = 2
SWAP_COST = 3
REFRESH_COST = 1
START_PUMPKINS = 2


@dataclass(frozen=True)
class Action:
    """One decision. verb: pick | refresh | place | swap | overflow.

    `place` carries the quarter turns paid for (0 = upright) and the sheet position of the candy's
    bounding box: `col` = its leftmost column, `row` = its bottom row (row 1 = bottom of the bucket).
    """

    verb: str
    card: str = ""
    turns: int = 0
    col: int = 0
    row: int = 0


State = dict[str, Any]


# -- small helpers --------------------------------------------------------------------------------


def _seat(i: int) -> str:
    """A seat as the log names it ("seat 2"); `event_text` puts the player's name in (any language)."""
    return f"seat {i + 1}"


def _Seat(i: int) -> str:  # the same token at the start of a sentence
    return f"Seat {i + 1}"


def card_text(cid: str) -> str:
    """'red small corner, open top left (pumpkin, ghost)': what players read in logs and labels; the
    colour, the shape's words and the symbols are glossary terms (the shape's code stays in views)."""
    c = D.CARDS[cid]
    colour = T_(f"sweets_stack.{c.colour}", D.COLOUR_NAMES[c.colour])
    name = T_(f"sweets_stack.shape.{c.name}", c.label)
    if not c.symbols:
        return N_("{colour} {name}", colour=colour, name=name)
    sym = Msg.cat(*(T_(f"sweets_stack.sym.{s}", _SYMBOL_WORD[s]) for s in c.symbols), sep=", ")
    return N_("{colour} {name} ({symbols})", colour=colour, name=name, symbols=sym)


_SYMBOL_WORD = {
    "pumpkin": "pumpkin",
    "arrow": "pumpkin-arrow",
    "norot": "no-rotation",
    "ghost": "ghost",
    "crown": "crown",
}


def _span(word: str, a: int, b: int) -> str:
    """'row 3' or 'rows 3–5' ('column 2', 'columns 2–4')."""
    if word == "row":
        return N_("row {a}", a=a) if a == b else N_("rows {a}–{b}", a=a, b=b)
    return N_("column {a}", a=a) if a == b else N_("columns {a}–{b}", a=a, b=b)


def _copy(s: State) -> State:
    """A copy deep enough for _apply: every container we may change is fresh."""
    out = dict(s)
    out["players"] = [{k: (list(v) if isinstance(v, list) else v) for k, v in p.items()} for p in s["players"]]
    out["adv"] = list(s["adv"])
    out["history"] = list(s["history"])
    return out


def grid_mask(grid: list[str]) -> int:
    """Filled cells (candy or pre-fill) of a stored grid as a bucket bitmask."""
    m = 0
    bit = 1
    for line in grid:
        for ch in line:
            if ch != ".":
                m |= bit
            bit <<= 1
    return m


def _empty_grid(adv: str | None) -> list[str]:
    rows = [["."] * D.W for _ in range(D.H)]
    if adv is not None:
        for col, row in D.ADVANCED[adv].prefill:
            rows[D.H - row][col - 1] = "#"
    return ["".join(r) for r in rows]


def _python_mask(adv: str | None) -> int:
    if adv is None:
        return 0
    return D.cells_mask(D.ADVANCED[adv].forbidden_first)


def neighbour(s: State, seat: int, active_only: bool = True) -> int:
    """The next seat in this round's passing direction (left = next seat number; right in round 3)."""
    n: int = s["n"]
    step = 1 if s["round"] < 3 else -1
    nxt: int = (seat + step) % n
    while active_only and not s["players"][nxt]["active"] and nxt != seat:
        nxt = (nxt + step) % n
    return nxt


def current_adv(s: State) -> str | None:
    adv: str | None = s["adv"][s["round"] - 1]
    return adv


# -- placement options ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Placement:
    action: Action
    mask: int  # the cells the candy would occupy


def _board_for(s: State, seat: int, cid: str) -> int:
    p = s["players"][seat]
    board = grid_mask(p["grid"])
    if p["python"] and not D.CARDS[cid].crown:
        board |= _python_mask(current_adv(s))
    return board


def norot_on_top(p: dict[str, Any]) -> bool:
    """The no-rotation symbol blocks paid rotation while it is on the top face-up scoring card."""
    return bool(p["pile"]) and "norot" in D.CARDS[p["pile"][-1]].symbols


def placements(s: State, seat: int, cid: str, rotations: bool) -> list[Placement]:
    """Every distinct resting place of card `cid` in the seat's bucket (rotated ones if asked)."""
    board = _board_for(s, seat, cid)
    out: list[Placement] = []
    orients = D.orientations(D.CARDS[cid].cells)
    for q, cells in orients if rotations else orients[:1]:
        h = max(y for _, y in cells) + 1
        for px, py, m in D.resting_positions(board, cells):
            out.append(Placement(Action("place", "", q, px + 1, D.H - py - h + 1), m))
    return out


def can_rotate(p: dict[str, Any], extra_cost: int = 0) -> bool:
    return p["pumpkins"] - extra_cost >= ROTATE_COST and not norot_on_top(p)


def receiver_actions(s: State, seat: int) -> list[Action]:
    p = s["players"][seat]
    cid = p["incoming"]
    acts = [pl.action for pl in placements(s, seat, cid, can_rotate(p))]
    if not any(a.turns == 0 for a in acts):
        acts.append(Action("overflow"))
    if p["pumpkins"] >= SWAP_COST and not p["swapped"]:
        acts.extend(Action("swap", c) for c in p["hand"])
    return acts


def fit_report(s: State, seat: int) -> dict[str, Any]:
    """What a receiver must know before choosing: does it fit, and which paid option would save them."""
    p = s["players"][seat]
    cid = p["incoming"]
    upright = bool(placements(s, seat, cid, False))
    rot_fits = any(pl.action.turns for pl in placements(s, seat, cid, True))
    rot_ok = can_rotate(p)
    swap_ok = p["pumpkins"] >= SWAP_COST and not p["swapped"]
    swap_fits = [c for c in p["hand"] if placements(s, seat, c, False)]
    # a swapped-in card may also be rotated if 2 more pumpkins remain after the swap
    swap_rot = [
        c for c in p["hand"] if c not in swap_fits and can_rotate(p, SWAP_COST) and placements(s, seat, c, True)
    ]
    saves: list[str] = []
    if not upright:
        if rot_fits and rot_ok:
            saves.append(N_("rotate (pay {ROTATE_COST} pumpkins)", ROTATE_COST=ROTATE_COST))
        if swap_ok and swap_fits:
            saves.append(
                N_(
                    "swap with {swap_fits} (pay {SWAP_COST} pumpkins)",
                    swap_fits=", ".join(swap_fits),
                    SWAP_COST=SWAP_COST,
                )
            )
        if swap_ok and swap_rot:
            saves.append(
                N_(
                    "swap with {swap_rot} and rotate it (pay {x} pumpkins)",
                    swap_rot=", ".join(swap_rot),
                    x=SWAP_COST + ROTATE_COST,
                )
            )
    if upright:
        msg = N_("Your candy fits: choose where it comes to rest.")
    elif saves:
        msg = N_("Your candy does NOT fit upright. You can save yourself: {saves}.", saves=Msg.cat(*saves, sep="; "))
    else:
        msg = N_("Your candy does not fit anywhere: you will be out of this round.")
        if rot_fits and not rot_ok:
            msg = (
                N_(
                    "Your candy does not fit anywhere (rotating would fit, but the no-rotation symbol is on "
                    "top of your scoring cards): you will be out of this round."
                )
                if norot_on_top(p)
                else N_(
                    "Your candy does not fit anywhere (rotating would fit, but you lack the pumpkins): you "
                    "will be out of this round."
                )
            )
    return {
        "fits": upright,
        "rotation_fits": rot_fits,
        "can_rotate": rot_ok,
        "can_swap": swap_ok,
        "swap_cards_that_fit": swap_fits,
        "swap_cards_that_fit_rotated": swap_rot,
        "saves": saves,
        "message": msg,
    }


def _draw_advanced(opts: Mapping[str, str], rng: Rng) -> list[str | None]:
    """The advanced card of each round: as named, none, or drawn from the cards not named.

    Dragon's Fireball is drawn only when every round has a card. The draw uses one shuffle of the
    remaining cards in data order, so the old `rounds23` / `every` tables draw what they drew before.
    """
    picks = [opts.get(f"advanced_r{r}", "none") for r in (1, 2, 3)]
    adv: list[str | None] = [None if p in ("none", "random") else p for p in picks]
    drawn_rounds = [i for i, p in enumerate(picks) if p == "random"]
    if drawn_rounds:
        pool = [a for a in D.ADVANCED_IDS if a not in adv and (a != FIREBALL or "none" not in picks)]
        for i, card in zip(drawn_rounds, rng.shuffled(pool), strict=False):
            adv[i] = card
    return adv


# -- the game -------------------------------------------------------------------------------------


class SweetsStack(Game[State, Action]):
    key = "sweets_stack"
    title = N_("Sweets Stack")
    min_players = 2
    max_players = 4
    summary = N_("Pass candy cards secretly and stack the candies in your bucket; fill favourite rows.")
    options = (
        OptionSpec(
            "advanced_r1",
            N_("Advanced rule card of round 1: none (allowed in round 1), one you name, or random"),
            ADVANCED_ROUND_CHOICES,
            "none",
        ),
        OptionSpec(
            "advanced_r2",
            N_("Advanced rule card of round 2: none (basic game), one you name, or random"),
            ADVANCED_ROUND_CHOICES,
            "none",
        ),
        OptionSpec(
            "advanced_r3",
            N_("Advanced rule card of round 3: none (basic game), one you name, or random"),
            ADVANCED_ROUND_CHOICES,
            "none",
        ),
        OptionSpec(
            "refill",
            N_("Hand refill after a step: up to 3 cards, or draw 1 when you hold 3 or fewer"),
            REFILL_CHOICES,
            "up-to-3",
        ),
    )
    has_private_info = True
    rules_doc = "docs/rules/sweets_stack.md"

    def check_options(self, options: Mapping[str, str] | None) -> dict[str, str]:
        """The per-round advanced cards, checked together (「每輪選擇一個進階規則使用」).

        A table made before the per-round options carries `advanced=off|rounds23|every`; it is read
        as the per-round values it meant (explicit per-round values win), so old tables still load,
        replay and draw the same cards. A named card is used once; Dragon's Fireball needs a card in
        every round (「如果你僅想在此模式下使用二張進階規則…(在此狀況下你無法使用Dragon's fireball進階規則)」).
        """
        given = dict(options or {})
        legacy = given.pop("advanced", None)
        if legacy is not None:
            if legacy not in LEGACY_ADVANCED:
                raise IllegalAction(
                    N_(
                        "Option 'advanced' must be one of {LEGACY_ADVANCED}; got {legacy!r}.",
                        LEGACY_ADVANCED=", ".join(LEGACY_ADVANCED),
                        legacy=legacy,
                    )
                )
            for r, value in enumerate(LEGACY_ADVANCED[legacy], 1):
                given.setdefault(f"advanced_r{r}", value)
        out = super().check_options(given)
        picks = [out[f"advanced_r{r}"] for r in (1, 2, 3)]
        named = [p for p in picks if p not in ("none", "random")]
        for card in set(named):
            if named.count(card) > 1:
                raise IllegalAction(
                    N_(
                        "{name} is chosen for two rounds: each round needs a different card.",
                        name=T_(f"sweets_stack.{card}", D.ADVANCED[card].name),
                    )
                )
        if FIREBALL in named and "none" in picks:
            raise IllegalAction(
                N_(
                    "Dragon's Fireball needs an advanced card in every round (with only two cards it "
                    "is not available): choose the cards of the other rounds first."
                )
            )
        return out

    # -- lifecycle ----------------------------------------------------------------------------
    def new(self, num_players: int, seed: int, options: Mapping[str, str] | None = None) -> State:
        self.check_players(num_players)
        opts = self.check_options(options)
        rng = Rng.from_seed(seed)
        deck = rng.shuffled(list(D.BASE_DECK))
        adv = _draw_advanced(opts, rng)
        players = []
        for i in range(num_players):
            own = deck[16 * i : 16 * (i + 1)]
            players.append(
                {
                    "deck": own,
                    "hand": [],
                    "pile": [],
                    "down": [],
                    "grid": _empty_grid(None),
                    "ticks": [False] * D.H,
                    "pumpkins": 0,
                    "candles": 0,
                    "active": True,
                    "pick": None,
                    "refreshed": False,
                    "incoming": None,
                    "giver": None,
                    "swapped": False,
                    "done": True,
                    "python": False,
                    "scores": [],
                    "crowns": 0,
                }
            )
        s: State = {
            "schema": 1,
            "n": num_players,
            "opts": opts,
            "rng": rng.state,
            "round": 0,
            "phase": "pick",
            "step": 0,
            "adv": adv,
            "history": [],
        }
        s["players"] = players
        start_round(s, 1)
        return s

    def to_act(self, state: State) -> frozenset[int]:
        ph = state["phase"]
        if ph == "pick":
            return frozenset(i for i, p in enumerate(state["players"]) if p["active"] and p["pick"] is None)
        if ph == "place":
            return frozenset(i for i, p in enumerate(state["players"]) if not p["done"])
        return frozenset()

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        p = state["players"][seat]
        if state["phase"] == "pick":
            acts = [Action("pick", c) for c in p["hand"]]
            if p["pumpkins"] >= REFRESH_COST and not p["refreshed"] and p["deck"]:
                acts.append(Action("refresh"))
            return acts
        return receiver_actions(state, seat)

    def confirm(self, state: State, seat: int, action: Action) -> str | None:
        """Giving up ("I am out of this round") asks first when a paid option would still save you."""
        if action != Action("overflow") or state["phase"] != "place" or seat not in self.to_act(state):
            return None
        if Action("overflow") not in receiver_actions(state, seat):
            return None
        saves = fit_report(state, seat)["saves"]
        if not saves:
            return None  # nothing can save the candy: no question, you are out
        return N_("Give up this round? You could still {saves}.", saves=" or ".join(saves))

    def _apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        if not isinstance(action, Action):
            raise IllegalAction(N_("That is not a Sweets Stack action."))
        s = _copy(state)
        p = s["players"][seat]
        who = _Seat(seat)
        ph = s["phase"]
        if ph == "pick":
            if action.verb == "refresh":
                if p["refreshed"]:
                    raise IllegalAction(N_("You already refreshed your hand this step."))
                if p["pumpkins"] < REFRESH_COST:
                    raise IllegalAction(N_("Refreshing your hand costs 1 pumpkin and you have none."))
                if not p["deck"]:
                    raise IllegalAction(N_("Your deck is empty: refreshing would give you the same hand."))
                k = len(p["hand"])
                p["deck"] = p["deck"] + p["hand"]
                p["hand"] = p["deck"][:k]
                p["deck"] = p["deck"][k:]
                p["pumpkins"] -= REFRESH_COST
                p["refreshed"] = True
                return s, [
                    Event(
                        N_("{who} paid 1 pumpkin to refresh their hand.", who=who),
                        {seat: N_("Your new hand: {cards}.", cards=", ".join(p["hand"]))},
                    )
                ]
            if action.verb != "pick":
                raise IllegalAction(N_("Now choose a card to pass (or refresh your hand)."))
            if action.card not in p["hand"]:
                raise IllegalAction(N_("{x} is not in your hand.", x=action.card or "That card"))
            p["hand"].remove(action.card)
            p["pick"] = action.card
            mine = N_("You chose {card} {card2}.", card=action.card, card2=card_text(action.card))
            events = [Event(N_("{who} has chosen a card.", who=who), {seat: mine})]
            if not self.to_act(s):
                events += _reveal(s)
                if not self.to_act(s):  # every receiver was out at once
                    events += _end_step(s)
            return s, events
        # place phase
        legal = receiver_actions(state, seat)
        if action not in legal:
            raise IllegalAction(self._why_not(state, seat, action))
        events = []
        if action.verb == "swap":
            old = p["incoming"]
            p["hand"].remove(action.card)
            p["hand"].append(old)
            p["incoming"] = action.card
            p["swapped"] = True
            p["pumpkins"] -= SWAP_COST
            events.append(
                Event(
                    N_("{who} paid 3 pumpkins to swap the candy for one from their hand.", who=who),
                    {seat: N_("You swapped {old} for {card}.", old=old, card=card_text(action.card))},
                )
            )
            if receiver_actions(s, seat) == [Action("overflow")]:
                events += _eliminate(s, seat)
        elif action.verb == "overflow":
            events += _eliminate(s, seat)
        else:
            events += _place(s, seat, action)
        if not self.to_act(s):
            events += _end_step(s)
        return s, events

    def _why_not(self, state: State, seat: int, action: Action) -> str:
        p = state["players"][seat]
        if action.verb in ("pick", "refresh"):
            return N_("Cards are being placed now; you can pick again in the next step.")
        if action.verb == "swap":
            if p["swapped"]:
                return N_("You already swapped this step.")
            if p["pumpkins"] < SWAP_COST:
                return N_("Swapping costs {SWAP_COST} pumpkins; you have {p}.", SWAP_COST=SWAP_COST, p=p["pumpkins"])
            return N_("{card} is not in your hand.", card=action.card)
        if action.verb == "overflow":
            return N_("Your candy fits somewhere, so you cannot give up on it.")
        if action.turns:
            if norot_on_top(p):
                return N_("The no-rotation symbol is on top of your scoring cards: you cannot rotate now.")
            if p["pumpkins"] < ROTATE_COST:
                return N_(
                    "Rotating costs {ROTATE_COST} pumpkins; you have {p}.", ROTATE_COST=ROTATE_COST, p=p["pumpkins"]
                )
        return N_(
            "'{action}' is not a resting place your candy can reach; choose one of the listed placements.",
            action=self.format_action(action),
        )

    # -- views --------------------------------------------------------------------------------
    def undo_refusal(
        self, before: State, seat: int, action: Action, after: State, events: Sequence[Event]
    ) -> str | None:
        """A secret pick before the reveal, or placing a candy before the step ends, showed nothing new."""
        same_step = (after["round"], after["step"]) == (before["round"], before["step"])
        if action.verb == "pick":
            if not same_step or after["players"][seat]["pick"] != action.card:
                return N_("it revealed everyone's picks")
        elif action.verb == "place":
            if after["phase"] != "place" or not same_step:
                return N_("it ended the step")
        elif action.verb == "refresh":
            return N_("you drew a new hand")
        else:
            return N_("it cannot be taken back once made")
        return self.undo_blocker(before, seat, after, events)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        s = state
        ph = s["phase"]
        seen: set[str] = set()
        seats = []
        for i, p in enumerate(s["players"]):
            incoming = None
            if ph == "place" and not p["done"] and not p["swapped"]:
                incoming = p["incoming"]
            seats.append(
                {
                    "seat": i,
                    "grid": list(p["grid"]),
                    "last": [list(c) for c in p.get("last", [])],  # (column, row) cells; absent in older states
                    "ticks": list(p["ticks"]),
                    "pumpkins": p["pumpkins"],
                    "candles": p["candles"],
                    "active": p["active"],
                    "hand_count": len(p["hand"]),
                    "deck_count": len(p["deck"]),
                    "pile": list(p["pile"]),
                    "down": list(p["down"]),
                    "picked": ph == "pick" and p["active"] and p["pick"] is not None,
                    "awaiting": (ph == "pick" and p["active"] and p["pick"] is None)
                    or (ph == "place" and not p["done"]),
                    "incoming": incoming,
                    "swapped": ph == "place" and not p["done"] and p["swapped"],
                    "giver": p["giver"] if ph == "place" and not p["done"] else None,
                    "no_rotation": norot_on_top(p),
                    "python": p["python"],
                    "round_scores": [dict(r) for r in p["scores"]],
                    "total": sum(r["total"] for r in p["scores"]),
                }
            )
            seen.update(p["pile"], p["down"])
            if incoming:
                seen.add(incoming)
        if ph == "place":
            seen.update(r["card"] for r in _revealed(s) if r["card"])
        adv = current_adv(s) if ph != "over" else None
        v: dict[str, Any] = {
            "game": self.key,
            "players": s["n"],
            "round": s["round"],
            "step": s["step"],
            "phase": ph,
            "direction": "left" if s["round"] < 3 else "right",
            "advanced": [a for a in s["adv"]],
            "advanced_now": None
            if adv is None
            else {
                "id": adv,
                "name": D.ADVANCED[adv].name,
                "text": D.ADVANCED[adv].text,
                "python_cells": [list(c) for c in D.ADVANCED[adv].forbidden_first],
            },
            "bucket": {"width": D.W, "height": D.H, "row_colours": list(D.ROW_COLOURS)},
            "seats": seats,
            "history": [dict(h) for h in s["history"]],
            # what this step's reveal showed everyone (kept while the candies are being placed)
            "revealed": _revealed(s) if ph == "place" else [],
            "seat": seat,
        }
        if seat is not None:
            p = s["players"][seat]
            me: dict[str, Any] = {
                "hand": list(p["hand"]),
                "pick": p["pick"],
                "refreshed": p["refreshed"],
                "incoming": p["incoming"] if ph == "place" and not p["done"] else None,
            }
            seen.update(p["hand"])
            if p["pick"]:
                seen.add(p["pick"])
            if me["incoming"]:
                seen.add(me["incoming"])
                opts = []
                for a in receiver_actions(s, seat):
                    entry: dict[str, Any] = {"action": self.format_action(a), "label": self.describe_action(a)}
                    if a.verb == "place":
                        cid = p["incoming"]
                        cells = D.orientations(D.CARDS[cid].cells)
                        oc = next(c for q, c in cells if q == a.turns)
                        entry["cells"] = _placed_cells(oc, a)
                        entry["turns"] = a.turns
                    opts.append(entry)
                me["options"] = opts
                me["fit"] = fit_report(s, seat)
            v["you"] = me
        v["cards"] = {c: _card_json(c) for c in sorted(seen)}
        v["status"] = self._status(s, v)
        return v

    def _status(self, s: State, v: dict[str, Any]) -> str:
        totals = ", ".join(f"S{x['seat'] + 1} {x['total']}" for x in v["seats"])
        if s["phase"] == "over":
            o = self.outcome(s)
            return Msg.cat(o.summary if o else N_("Game over."), N_("Totals: {totals}.", totals=totals), sep=" ")
        waiting = sorted(self.to_act(s))
        names = Msg.join([_seat(i) for i in waiting])
        what = N_("choose a card to pass") if s["phase"] == "pick" else N_("place their candy")
        adv = current_adv(s)
        extra = N_("Advanced rule: {name}.", name=T_(f"sweets_stack.{adv}", D.ADVANCED[adv].name)) if adv else ""
        revealed = ""
        if s["phase"] == "pick" and s["step"] == 1 and s["history"]:
            revealed = _score_text(s["history"][-1]["round"], s["history"][-1]["scores"])
        if v["revealed"]:
            revealed = N_(
                "Revealed: {picks}.",
                picks=Msg.cat(
                    *(
                        N_(
                            "{giver} → {to}: {card} {text}",
                            giver=_seat(r["from"]),
                            to=_seat(r["to"]),
                            card=r["card"],
                            text=card_text(r["card"]),
                        )
                        if r["card"]
                        else N_("{giver} → {to}: (swapped into their hand)", giver=_seat(r["from"]), to=_seat(r["to"]))
                        for r in v["revealed"]
                    ),
                    sep="; ",
                ),
            )
        waiting_line = (
            N_(
                "Round {round}, step {step} (passing left): waiting for {names} to {what}.",
                round=s["round"],
                step=s["step"],
                names=names,
                what=what,
            )
            if v["direction"] == "left"
            else N_(
                "Round {round}, step {step} (passing right): waiting for {names} to {what}.",
                round=s["round"],
                step=s["step"],
                names=names,
                what=what,
            )
        )
        tail = N_("Totals: {totals}.", totals=totals)
        v["status_line"] = Msg.cat(waiting_line, extra, tail, sep=" ")
        return Msg.cat(waiting_line, revealed, extra, tail, sep=" ")

    def event_text(self, text: str, names: Sequence[str]) -> str:
        """Log lines with the players' names for 'seat 2' (the platform passes the names).

        Lines are shown as whole sentences, so the seat is named, not dropped: 'Bo stacks R-S05 …'.
        """
        if isinstance(text, Msg):  # the names go in after translation
            return text.then(lambda s: name_seats(s, names))
        return name_seats(text, names)

    def board_words(self, view: dict[str, Any], names: Sequence[str]) -> str:
        """The board in words: each bucket in numbers; in a seat's own view (its private panel) also
        its hand and the candy it must place."""
        parts: list[str] = []
        buckets = []
        for x in view.get("seats") or []:
            i = int(x["seat"])
            who = names[i] if i < len(names) else _Seat(i)
            filled = sum(row.count(".") == 0 for row in x["grid"])
            cells = sum(len(row) - row.count(".") for row in x["grid"])
            state = N_("in the round") if x["active"] else N_("out of this round")
            doing = (
                N_(" (card chosen)") if x.get("picked") else (N_(" (to act)") if x.get("awaiting") else "")
            )  # i18n: a suffix
            buckets.append(
                N_(
                    "{who}: {x} points, {state}{doing}, {cells} bucket cells filled, {filled} full "
                    "rows, {x2} pumpkins, {x3} candles",
                    who=who,
                    x=x["total"],
                    state=state,
                    doing=doing,
                    cells=cells,
                    filled=filled,
                    x2=x["pumpkins"],
                    x3=x["candles"],
                )
            )
        parts.append(N_("Buckets: {buckets}.", buckets=Msg.cat(*buckets, sep="; ")))
        you = view.get("you") or {}
        if you.get("hand"):
            parts.append(
                N_(
                    "Your hand: {cards}.",
                    cards=Msg.cat(*(Msg.cat(c, card_text(c), sep=" ") for c in you["hand"]), sep=", "),
                )
            )
        if you.get("incoming"):
            parts.append(N_("You must place: {you} {you2}.", you=you["incoming"], you2=card_text(you["incoming"])))
        chosen = [o for o in you.get("options") or [] if o.get("action") == you.get("selected")]
        if chosen:  # the placing panel previews one resting place in the bucket
            parts.append(N_("Shown in your bucket: {chosen}.", chosen=chosen[0]["label"]))
        return Msg.cat(*parts, sep=" ")

    def status(self, view: dict[str, Any]) -> str:
        """The status line with the players' names (when the platform gives them) and, in a seat's own
        view while it places, whether its candy fits and what would save it."""
        text = self.event_text(view.get("status", ""), view.get("names") or [])
        you = view.get("you") or {}
        fit = you.get("fit")
        if fit and you.get("incoming"):
            text = Msg.cat(text, Msg.cat("✅ " if fit["fits"] else "⚠️ ", fit["message"]), sep="\n")
        return text

    def outcome(self, state: State) -> Outcome | None:
        if state["phase"] != "over":
            return None
        n = state["n"]
        totals = [sum(r["total"] for r in p["scores"]) for p in state["players"]]
        third = [p["scores"][2]["total"] if len(p["scores"]) > 2 else 0 for p in state["players"]]
        keys = sorted({(totals[i], third[i]) for i in range(n)}, reverse=True)
        ranking = tuple(tuple(i for i in range(n) if (totals[i], third[i]) == k) for k in keys)
        winners = frozenset(ranking[0])
        names = Msg.join([_Seat(w) for w in sorted(winners)])
        summary = Nn_(
            "{names} wins with {points} points.",
            "{names} share the win with {points} points.",
            len(winners),
            names=names,
            points=totals[min(winners)],
        )
        # each round's score parts per seat, shown by `outcome_lines`; the tie-break only when it split a tie
        details: dict[str, Any] = {"rounds": [[dict(sc) for sc in h["scores"]] for h in state["history"]]}
        place = {seat: i for i, seats in enumerate(ranking) for seat in seats}
        if any(totals[a] == totals[b] and place[a] != place[b] for a in range(n) for b in range(a + 1, n)):
            details["tie_break"] = N_("the higher round 3 score")
        return Outcome(tuple(totals), ranking, winners, summary, details)

    def outcome_lines(self, outcome: Outcome, names: Sequence[str]) -> list[str]:
        """Standings with each round's parts: "Round 1: 12 candies + 10 favourite + 3 candles = 25"."""
        rounds = outcome.details.get("rounds")
        if not isinstance(rounds, list):  # an outcome stored before rounds were kept as numbers
            return super().outcome_lines(outcome, names)
        lines = []
        for place, seats in enumerate(outcome.ranking):
            for seat in seats:
                score = outcome.scores[seat] if seat < len(outcome.scores) else None
                name = names[seat] if seat < len(names) else _Seat(seat)
                what = "" if score is None else Nn_("{n:g} point", "{n:g} points", score)
                lines.append(standing_line(place, name, what))
                for number, scores in enumerate(rounds, start=1):
                    if seat < len(scores):
                        lines.append(N_("  Round {number}: {scores}", number=number, scores=_score_parts(scores[seat])))
        if outcome.details.get("tie_break"):
            lines.append(N_("Tie-break: equal totals were split by {details}.", details=outcome.details["tie_break"]))
        return lines

    # -- serialisation ------------------------------------------------------------------------
    def dump_state(self, state: State) -> dict[str, Any]:
        out: dict[str, Any] = _deep(state)
        return out

    def load_state(self, data: dict[str, Any]) -> State:
        if data.get("schema") != 1:
            raise InvalidInput("Unknown Sweets Stack state schema.")
        out: State = _deep(data)
        return out

    def dump_action(self, action: Action) -> dict[str, Any]:
        return {"verb": action.verb, "card": action.card, "turns": action.turns, "col": action.col, "row": action.row}

    def load_action(self, data: dict[str, Any]) -> Action:
        return Action(
            str(data["verb"]),
            str(data.get("card", "")),
            int(data.get("turns", 0)),
            int(data.get("col", 0)),
            int(data.get("row", 0)),
        )

    def format_action(self, action: Action) -> str:
        v = action.verb
        if v in ("pick", "swap"):
            return f"{v} {action.card}"
        if v == "place":
            pos = f"r{action.row} c{action.col}"
            return f"place {pos}" if action.turns == 0 else f"rotate{90 * action.turns} {pos}"
        return v

    def parse_action(self, text: str) -> Action:
        t = " ".join(text.strip().lower().replace(",", " ").split())
        parts = t.split()
        help_ = N_("write 'pick R-S05', 'refresh', 'place r1 c3', 'rotate90 r1 c3', 'swap G-S08' or 'overflow'")
        if not parts:
            raise InvalidInput(N_("Cannot read an empty move: {help_}.", help_=help_))
        verb = parts[0]
        if verb in ("refresh", "overflow") and len(parts) == 1:
            return Action(verb)
        if verb in ("pick", "swap") and len(parts) == 2:
            cid = parts[1].upper()
            if cid not in D.CARDS:
                raise InvalidInput(
                    N_("There is no candy card {parts!r}; card names look like R-S05 or C-G.", parts=parts[1])
                )
            return Action(verb, cid)
        m = re.fullmatch(r"(place|rotate|rot)\s*(\d*)°?\s*(.*)", t)
        if m and verb.startswith(("place", "rot")):
            kind, angle, pos = m.group(1), m.group(2), m.group(3).replace(" ", "")
            turns = 0
            if kind != "place":
                if angle not in ("90", "180", "270"):
                    raise InvalidInput(
                        N_("Cannot read {text!r}: rotate by 90, 180 or 270, e.g. 'rotate90 r1 c3'.", text=text)
                    )
                turns = int(angle) // 90
            elif angle:
                raise InvalidInput(N_("Cannot read {text!r}: write the position as 'place r1 c3'.", text=text))
            rc = re.fullmatch(r"r(\d+)c(\d+)", pos)
            cr = re.fullmatch(r"c(\d+)r(\d+)", pos)
            if rc:
                return Action("place", "", turns, int(rc.group(2)), int(rc.group(1)))
            if cr:
                return Action("place", "", turns, int(cr.group(1)), int(cr.group(2)))
        raise InvalidInput(N_("Cannot read {text!r}: {help_}.", text=text, help_=help_))

    def describe_action(self, action: Action) -> str:
        v = action.verb
        if v == "pick":
            return cut(N_("Pass {card}", card=card_text(action.card)))
        if v == "refresh":
            return N_("Refresh hand (1 pumpkin): hand under deck, draw again")
        if v == "swap":
            return cut(N_("Swap in {card} from hand (3 pumpkins)", card=card_text(action.card)))
        if v == "overflow":
            return N_("Give up: it does not fit; you are out of this round")
        where = N_("lowest row {row}, leftmost column {col}", row=action.row, col=action.col)
        if action.turns:
            return N_("Rotate {x}° (2 pumpkins): {where}", x=90 * action.turns, where=where)
        return N_("Rest at {where}", where=where)


_SEAT_WORD = re.compile(r"(?<![A-Za-z])([Ss])eat (\d)(?!\d)|(?<![A-Za-z])S(\d)(?= -?\d)")  # CJK may touch it


def name_seats(text: str, names: Any) -> str:
    """'seat 2' / 'Seat 2' / 'S2 14' (totals) -> the player's name, when names are known."""
    if not names:
        return text

    def sub(m: re.Match[str]) -> str:
        k = int(m.group(2) or m.group(3)) - 1
        return str(names[k]) if 0 <= k < len(names) else m.group(0)

    return _SEAT_WORD.sub(sub, text)


def _deep(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: _deep(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_deep(v) for v in x]
    return x


def _card_json(cid: str) -> dict[str, Any]:
    c = D.CARDS[cid]
    return {"colour": c.colour, "name": c.name, "cells": [list(x) for x in c.cells], "symbols": list(c.symbols)}


def _placed_cells(cells: D.Cells, a: Action) -> list[list[int]]:
    h = max(y for _, y in cells) + 1
    top = a.row + h - 1
    return [[a.col + x, top - y] for x, y in cells]


# -- transitions (mutate the fresh copy) --------------------------------------------------------


def start_round(s: State, rnd: int) -> None:
    """Preparation: gather and shuffle each player's cards, 2 pumpkins, a new sheet, draw a hand."""
    rng = Rng(s["rng"])
    s["round"] = rnd
    s["step"] = 1
    s["phase"] = "pick"
    adv = s["adv"][rnd - 1]
    crowns: list[str] = rng.shuffled(list(D.CROWNS)) if adv == "dragons_fireball" else []
    for i, p in enumerate(s["players"]):
        pool = p["deck"] + p["hand"] + p["pile"] + p["down"]
        if rnd > 1:
            rng.shuffle(pool)
        size = 7 if adv == "seven_flavor_beans" else 4 if adv == "dragons_fireball" else 5
        p["hand"], p["deck"] = pool[:size], pool[size:]
        if crowns:
            p["hand"].append(crowns[i])
            p["crowns"] += 1
        p.update(
            pile=[],
            down=[],
            last=[],
            grid=_empty_grid(adv),
            ticks=[False] * D.H,
            pumpkins=START_PUMPKINS,
            candles=0,
            active=True,
            pick=None,
            refreshed=False,
            incoming=None,
            giver=None,
            swapped=False,
            done=True,
            python=adv == "gummy_python",
        )
    s["rng"] = rng.state


def _reveal(s: State) -> list[Event]:
    """All picks are in: reveal, pumpkin gains, pass to the next active seat, await placements."""
    players = s["players"]
    parts = []
    gains = []
    passes = []
    for i, p in enumerate(players):
        if not p["active"]:
            continue
        cid = p["pick"]
        to = neighbour(s, i)
        passes.append([i, to, cid])
        parts.append(
            N_("{seat} passes {cid} {cid2} to {seat2}", seat=_Seat(i), cid=cid, cid2=card_text(cid), seat2=_seat(to))
        )
        if "pumpkin" in D.CARDS[cid].symbols:
            p["pumpkins"] += 1
            gains.append(_seat(i))
        r = players[to]
        r["incoming"], r["giver"], r["done"], r["swapped"] = cid, i, False, False
    for p in players:
        if p["active"]:
            p["pick"] = None
    s["phase"] = "place"
    s["passes"] = passes
    text: str = N_("Revealed: {picks}.", picks=Msg.cat(*parts, sep="; "))
    if gains:
        text = Msg.cat(text, N_("Pumpkin symbol: +1 pumpkin for {seats}.", seats=Msg.join(gains)), sep=" ")
    events = [Event(text, kind="reveal")]
    for i, p in enumerate(players):
        if not p["done"] and receiver_actions(s, i) == [Action("overflow")]:
            events += _eliminate(s, i)
    return events


def _place(s: State, seat: int, a: Action) -> list[Event]:
    p = s["players"][seat]
    cid = p["incoming"]
    card = D.CARDS[cid]
    cells = next(c for q, c in D.orientations(card.cells) if q == a.turns)
    placed = _placed_cells(cells, a)
    rows = [list(line) for line in p["grid"]]
    for col, row in placed:
        rows[D.H - row][col - 1] = card.colour
    p["grid"] = ["".join(r) for r in rows]
    p["last"] = placed  # the board lights the candy placed last (what changed since the last board)
    if a.turns:
        p["pumpkins"] -= ROTATE_COST
    p["pile"].append(cid)
    if not card.crown:
        p["python"] = False
    gained = ""
    if "arrow" in card.symbols:
        p["pumpkins"] += 1
        gained = N_("Pumpkin-arrow: +1 pumpkin.")
    ticked = []
    for r in D.full_rows(grid_mask(p["grid"])):
        if not p["ticks"][r - 1]:
            p["ticks"][r - 1] = True
            colour = D.ROW_COLOURS[r - 1]
            ticked.append(N_("row {r} ({colour})", r=r, colour=T_(f"sweets_stack.{colour}", D.COLOUR_NAMES[colour])))
    p["incoming"], p["giver"], p["done"] = None, None, True
    cs = [c for c, _ in placed]
    rs = [r for _, r in placed]
    where = {"rows": _span("row", min(rs), max(rs)), "columns": _span("column", min(cs), max(cs))}
    text: str = (
        N_(
            "{seat} stacks {card} {text}, rotated {degrees}° for 2 pumpkins, in {rows}, {columns}.",
            seat=_Seat(seat),
            card=cid,
            text=card_text(cid),
            degrees=90 * a.turns,
            **where,
        )
        if a.turns
        else N_(
            "{seat} stacks {card} {text} in {rows}, {columns}.",
            seat=_Seat(seat),
            card=cid,
            text=card_text(cid),
            **where,
        )
    )
    text = Msg.cat(text, gained, sep=" ")
    if ticked:
        text = Msg.cat(text, N_("Favourite ticked: {rows}.", rows=Msg.cat(*ticked, sep=", ")), sep=" ")
    return [Event(text)]


def _eliminate(s: State, seat: int) -> list[Event]:
    p = s["players"][seat]
    cid = p["incoming"]
    giver = p["giver"]
    p["down"].append(cid)
    p["active"] = False
    p["incoming"], p["giver"], p["done"] = None, None, True
    s["players"][giver]["candles"] += 1
    mine = N_(
        "{cid} {cid2} did not fit in your bucket: you are out of round {s} (your candies still score at its end).",
        cid=cid,
        cid2=card_text(cid),
        s=s["round"],
    )
    return [
        Event(
            N_(
                "{cid} {cid2} does not fit in {seat}'s bucket: {seat} is out of round {s}; {seat2} gains a candle.",
                cid=cid,
                cid2=card_text(cid),
                seat=_seat(seat),
                s=s["round"],
                seat2=_seat(giver),
            ),
            {seat: mine},
            kind="eliminated",
        )
    ]


def _end_step(s: State) -> list[Event]:
    """Step 5: refill to 3 and loop while two players remain, else score the round."""
    players = s["players"]
    active = [i for i, p in enumerate(players) if p["active"]]
    events: list[Event] = []
    if len(active) >= 2:
        for i in active:
            p = players[i]
            want = 3 - len(p["hand"]) if s["opts"]["refill"] == "up-to-3" else int(len(p["hand"]) <= 3)
            if want > 0 and p["deck"]:
                take = p["deck"][:want]
                p["hand"] = p["hand"] + take
                p["deck"] = p["deck"][len(take) :]
        empty = [i for i in active if not players[i]["hand"]]
        if not empty:
            s["step"] += 1
            s["phase"] = "pick"
            for p in players:
                p["refreshed"] = False
            return events
        events.append(
            Event(N_("{seats} has no card left to play: the round ends.", seats=Msg.join([_Seat(i) for i in empty])))
        )
    return events + _score_round(s)


def round_scores(s: State) -> list[dict[str, int]]:
    """Base + favourite bonus + candle bonus (with the round's advanced card), per seat."""
    adv = current_adv(s)
    out = []
    for p in s["players"]:
        cards = [D.CARDS[c] for c in p["pile"]]
        base = len(cards)
        fav = sum(sum(1 for c in cards if c.colour == D.ROW_COLOURS[r]) for r in range(D.H) if p["ticks"][r])
        ghosts = sum(c.symbols.count("ghost") for c in cards)
        candle = p["candles"] * ghosts
        if adv == "candy_fairy":
            fav *= 2
        if adv == "witchs_cauldron":
            candle *= 2
        out.append({"base": base, "favourite": fav, "candle": candle, "goblin": 0})
    if adv == "sugar_goblin":
        for i, sc in enumerate(out):
            sc["goblin"] = -out[neighbour(s, i, active_only=False)]["favourite"]
    for sc in out:
        sc["total"] = sc["base"] + sc["favourite"] + sc["candle"] + sc["goblin"]
    return out


def _revealed(s: State) -> list[dict[str, Any]]:
    """This step's passes as revealed; a candy its receiver swapped into their hand is not repeated."""
    out: list[dict[str, Any]] = []
    for a, b, c in s.get("passes", []):
        hidden = c in s["players"][b]["hand"]
        out.append({"from": a, "to": b, "card": None if hidden else c})
    return out


def _score_parts(sc: dict[str, int]) -> str:
    """'12 candies + 10 favourite + 3 candles = 25' (and '− 4 goblin' with the Sugar Goblin)."""
    candies = Nn_("{n} candy", "{n} candies", sc["base"])
    candles = Nn_("{n} candle", "{n} candles", sc["candle"])
    if sc.get("goblin"):
        return N_(
            "{candies} + {favourite} favourite + {candles} {sign} {goblin} goblin = {total}",
            candies=candies,
            favourite=sc["favourite"],
            candles=candles,
            sign="−" if sc["goblin"] < 0 else "+",
            goblin=abs(sc["goblin"]),
            total=sc["total"],
        )
    return N_(
        "{candies} + {favourite} favourite + {candles} = {total}",
        candies=candies,
        favourite=sc["favourite"],
        candles=candles,
        total=sc["total"],
    )


def _score_text(rnd: int, scores: list[dict[str, int]]) -> str:
    """'Round 1 scored — seat 1: 6 + 3 + 0 = 9; …' (base + favourite + candles, goblin if any)."""
    lines = "; ".join(
        f"{_seat(i)}: {sc['base']} + {sc['favourite']} + {sc['candle']}"
        + (f" {sc['goblin']:+d}" if sc["goblin"] else "")
        + f" = {sc['total']}"
        for i, sc in enumerate(scores)
    )
    return N_("Round {rnd} scored — {lines}.", rnd=rnd, lines=lines)


def _score_round(s: State) -> list[Event]:
    scores = round_scores(s)
    rnd = s["round"]
    for p, sc in zip(s["players"], scores, strict=True):
        p["scores"] = p["scores"] + [sc]
    s["history"] = s["history"] + [
        {
            "round": rnd,
            "advanced": current_adv(s),
            "grids": [list(p["grid"]) for p in s["players"]],
            "ticks": [list(p["ticks"]) for p in s["players"]],
            "scores": scores,
        }
    ]
    events = [Event(_score_text(rnd, scores), kind="score")]
    if rnd == 3:
        s["phase"] = "over"
        for p in s["players"]:
            p["done"] = True
        totals = [sum(r["total"] for r in p["scores"]) for p in s["players"]]
        events.append(
            Event(
                N_("Final totals: {totals}.", totals=", ".join(f"{_seat(i)} {t}" for i, t in enumerate(totals))),
                kind="end",
            )
        )
    else:
        start_round(s, rnd + 1)
        adv = current_adv(s)
        extra = (
            N_(
                "Advanced rule: {name} — {text}",
                name=T_(f"sweets_stack.{adv}", D.ADVANCED[adv].name),
                text=T_(f"sweets_stack.{adv}.text", D.ADVANCED[adv].text),
            )
            if adv
            else ""
        )
        events.append(
            Event(
                Msg.cat(
                    N_("Round {n} begins (passing left).", n=rnd + 1)
                    if rnd + 1 < 3
                    else N_("Round {n} begins (passing right).", n=rnd + 1),
                    extra,
                    sep=" ",
                )
            )
        )
    return events
