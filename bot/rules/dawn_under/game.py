"""Dawn Under (夜訪吸血鬼 / Dicke Luft in der Gruft): the memory game of vampires and graves.

The whole game is about remembering what lay under lids that were open for a moment, so the state
keeps a clear line between *open* lids (visible to everyone) and closed ones (visible to no one, not
even in event text). A lid touched by the last action stays *ajar* (shown) until the next action,
which is how a reveal lasts "a moment" on an asynchronous live board. See docs/rules/dawn_under.md.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.i18n import N_, T_, Msg, Nn_
from bot.rules.base import Event, Game, OptionSpec, Outcome, standings_lines
from bot.rules.dawn_under.data import BOARD, COMPONENTS
from bot.rules.errors import IllegalAction, InvalidInput
from bot.rules.rng import Rng

State = dict[str, Any]
SIDES = ("left", "right")
VERBS = ("flip", "stop", "sleep", "garlic", "close", "give", "put")
RAT = "rat"
_GRAVE_RE = re.compile(r"^([a-z])\s*([0-9]{1,2})$")


@dataclass(frozen=True, order=True)
class Action:
    """One decision. `grave` for flip/garlic/close, `side` for sleep/give/put, `colour` for put."""

    verb: str
    grave: str = ""
    side: str = ""
    colour: str = ""


def seat_name(seat: int) -> str:
    return f"Seat {seat + 1}"


def colour_name(code: str) -> str:
    """ "red (R)": the glossary's colour word and the letter players type."""
    return N_("{colour} ({code})", colour=T_(f"dawn_under.{code}", COMPONENTS.colour_names.get(code, code)), code=code)


SIDE_NAMES: dict[str, str] = {"left": N_("left"), "right": N_("right")}


def side_name(side: str) -> str:
    return SIDE_NAMES.get(side, side)


def _clone(obj: Any) -> Any:
    """A deep copy of plain JSON data; several times faster than copy.deepcopy."""
    if isinstance(obj, dict):
        return {k: _clone(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_clone(v) for v in obj]
    return obj


def _copy_state(state: State) -> State:
    """The copy `_apply` works on: every mutable part is fresh, immutable leaves are shared."""
    s = dict(state)
    for key in ("lid", "content", "found", "opts"):
        s[key] = dict(state[key])
    for key in ("open", "ajar", "reserve", "garlic", "stakes", "lifted", "blocked", "winners", "colours"):
        s[key] = list(state[key])
    s["rows"] = [list(r) for r in state["rows"]]
    if state["plague"] is not None:
        s["plague"] = {**state["plague"], "order": list(state["plague"]["order"])}
    if state["gift"] is not None:
        g = state["gift"]
        s["gift"] = {**g, "owed": list(g["owed"]), "chosen": list(g["chosen"]), "pending": list(g["pending"])}
    return s


def _reveal(row: list[str]) -> list[int]:
    """Keep the two outermost vampires at each end face up; return the indices turned up now."""
    turned = []
    for i in {0, 1, len(row) - 2, len(row) - 1}:
        if 0 <= i < len(row) and row[i].islower():
            row[i] = row[i].upper()
            turned.append(i)
    return sorted(turned)


def _end_colour(row: list[str], side: str) -> str:
    return row[0] if side == "left" else row[-1]


class DawnUnder(Game[State, Action]):
    key = "dawn_under"
    title = N_("Dawn Under")
    min_players = 2
    max_players = 6
    summary = N_(
        "Open grave lids, remember what you saw, and put your vampires to sleep in graves "
        "of their colour; the first with no vampires left wins."
    )
    options = (
        OptionSpec(
            "chain",
            N_("After putting a vampire to sleep: may you stop, or must you keep flipping?"),
            ("may_stop", "must_continue"),
            "may_stop",
        ),
        OptionSpec(
            "duel_rule_1",
            N_("2 players only: what makes the opponent give you 2 vampires (see the rules)"),
            ("opponent_garlic", "vampire"),
            "opponent_garlic",
        ),
        OptionSpec(
            "list_garlic",
            N_("List where your own garlic lies in your panel (the seed asks you to remember it)"),
            ("no", "yes"),
            "no",
        ),
        OptionSpec(
            "glimpse",
            N_("Seconds each player sees a reveal they missed (once, via What you missed); off: until the next move"),
            ("15", "30", "60", "off"),
            "15",
        ),
        OptionSpec(
            "plague_penalty",
            N_("A vampire or garlic found in a plague: the flipper goes on, or their part ends"),
            ("go_on", "ends_part"),
            "go_on",
        ),
    )
    # Nothing a seat may know is worth a kept copy: DMs would keep every reveal (and a panel image of
    # the board) readable for ever, which breaks the memory. Private bits (your own garlic, your gift
    # choice) are shown in ephemeral panels instead; see docs/rules/dawn_under.md "Memory".
    has_private_info = False
    rules_doc = "docs/rules/dawn_under.md"
    live_board = True

    # -- setup -----------------------------------------------------------------------------------
    def new(self, num_players: int, seed: int, options: Mapping[str, str] | None = None) -> State:
        self.check_players(num_players)
        opts = self.check_options(options)
        rng = Rng.from_seed(seed)
        comp = COMPONENTS
        colours = list(comp.colours)
        duel = num_players == 2
        if duel:
            removed = rng.shuffled(colours)[: int(comp.two_player["colours_removed"])]
            colours = [c for c in colours if c not in removed]
            rats = int(comp.two_player["rat_lids"])
            reserve_n = int(comp.two_player["reserve_lids"])
            per_quadrant = int(comp.two_player["graves_with_lids_per_quadrant"])
            graves: list[str] = []
            for q in range(4):
                in_q = [g for g in BOARD.graves if BOARD.quadrant[g] == q]
                graves.extend(rng.shuffled(in_q)[:per_quadrant])
            graves = [g for g in BOARD.graves if g in set(graves)]
        else:
            rats = comp.rat_lids
            reserve_n = comp.reserve_lids
            graves = list(BOARD.graves)
        lids = rng.shuffled([c for c in colours for _ in range(comp.lids_per_colour)])
        reserve, lids = lids[:reserve_n], lids[reserve_n:]
        lids = rng.shuffled(lids + [RAT] * rats)
        if len(lids) != len(graves):
            raise ValueError(f"{len(lids)} lids for {len(graves)} graves: check data/dawn_under")
        vampires = rng.shuffled([c for c in colours for _ in range(comp.vampires_per_colour)])
        each = len(vampires) // num_players
        rows = []
        for p in range(num_players):
            row = [c.lower() for c in vampires[p * each : (p + 1) * each]]
            _reveal(row)
            rows.append(row)
        start = rng.below(num_players)
        return {
            "schema": 1,
            "n": num_players,
            "opts": opts,
            "colours": colours,
            "lid": {g: lid for g, lid in zip(graves, lids, strict=True)},
            "content": {g: None for g in graves},
            "open": [],
            "ajar": [],
            "found": {},
            "reserve": reserve,
            "rats_total": rats,
            "rats_out": 0,
            "rows": rows,
            "garlic": [comp.garlic_per_player] * num_players,
            "stakes": [0] * num_players,
            "turn": start,
            "actor": start,
            "phase": "flip",
            "pending": None,
            "chained": False,
            "plague": None,
            "gift": None,
            "lifted": [],
            "blocked": [],
            "winners": [],
            "rng": rng.state,
        }

    # -- queries ---------------------------------------------------------------------------------
    def to_act(self, state: State) -> frozenset[int]:
        if state["winners"]:
            return frozenset()
        if state["phase"] == "give":
            gift = state["gift"]
            return frozenset(p for p in range(state["n"]) if gift["owed"][p] > 0 and gift["chosen"][p] is None)
        if state["phase"] == "place":
            return frozenset({state["gift"]["to"]})
        return frozenset({state["actor"]})

    def surrounding(self, state: State) -> list[str]:
        """The graves with lids around the current rat (empty when no plague)."""
        plague = state["plague"]
        if plague is None:
            return []
        return [g for g in BOARD.adjacent[plague["center"]] if g in state["lid"]]

    def _closed_surrounding(self, state: State) -> list[str]:
        return [g for g in self.surrounding(state) if g not in state["open"]]

    def flippable(self, state: State, seat: int) -> list[str]:
        """Graves `seat` may flip now, in board order."""
        if state["plague"] is not None:
            cands = self._closed_surrounding(state)
        else:
            cands = [g for g in state["lid"] if g not in state["open"]]
        if state["n"] == 2 and seat == state["turn"] and state["blocked"]:
            blocked = set(state["blocked"])
            cands = [g for g in cands if g not in blocked]
        return cands

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        phase = state["phase"]
        if phase == "flip":
            acts = [Action("flip", g) for g in self.flippable(state, seat)]
            if self._may_stop(state) or not acts:
                acts.append(Action("stop"))
            return acts
        if phase == "sleep":
            return [Action("sleep", side=s) for s in SIDES]
        if phase == "garlic":
            g = state["pending"]
            return [Action("garlic", g), Action("close", g)]
        if phase == "give":
            row = state["rows"][seat]
            return [Action("give", side=s) for s in (SIDES if len(row) > 1 else SIDES[:1])]
        if phase == "place":
            pending = state["gift"]["pending"]
            return [Action("put", side=s, colour=c) for c in sorted(set(pending)) for s in SIDES]
        return []

    def _may_stop(self, state: State) -> bool:
        if state["plague"] is not None:
            return True
        return bool(state["chained"]) and state["opts"]["chain"] == "may_stop"

    # -- errors that say why ---------------------------------------------------------------------
    def _why_illegal(self, state: State, seat: int, action: Action) -> str:
        phase = state["phase"]
        wanted = {
            "flip": N_("flip a grave or stop") if self._may_stop(state) else N_("flip a grave"),
            "sleep": N_("choose which end's vampire goes to sleep ('sleep left' or 'sleep right')"),
            "garlic": N_("place garlic in {g} or close it ('garlic {g}' or 'close {g}')", g=state.get("pending")),
            "give": N_("choose which end's vampire to give ('give left' or 'give right')"),
            "place": N_("add each vampire you received to an end of your row ('put R left')"),
        }.get(phase, N_("wait"))
        if action.verb == "flip" and phase == "flip":
            g = action.grave
            if g not in state["lid"]:
                return N_("Grave {g} has no lid in this game; pick a grave that has one.", g=g)
            if g in state["open"]:
                return N_("Grave {g} is already open.", g=g)
            if state["plague"] is not None and g not in self.surrounding(state):
                around = ", ".join(self._closed_surrounding(state)) or N_("none left")
                return N_(
                    "During the plague you may only flip graves around the rat at {state} (closed: {around}), or stop.",
                    state=state["plague"]["center"],
                    around=around,
                )
            if g in state["blocked"] and seat == state["turn"]:
                return N_("Your opponent opened {g} on their last turn, so you may not open it this turn.", g=g)
        if action.verb == "stop" and phase == "flip":
            if state["opts"]["chain"] == "must_continue":
                return N_("With the 'must continue' option you keep flipping until a flip fails.")
            return N_("You must flip a grave first; you may stop only after putting a vampire to sleep.")
        return N_(
            "'{action}' is not possible now: you must {wanted}.", action=self.format_action(action), wanted=wanted
        )

    # -- apply -----------------------------------------------------------------------------------
    def _apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        if action not in self.legal_actions(state, seat):
            raise IllegalAction(self._why_illegal(state, seat, action))
        s = _copy_state(state)
        s["ajar"] = []
        s["found"] = {g: v for g, v in s["found"].items() if g in s["open"]}
        events: list[Event] = []
        verb = action.verb
        if verb == "flip":
            self._flip(s, seat, action.grave, events)
        elif verb == "stop":
            events.append(Event(N_("{seat} stops flipping.", seat=seat_name(seat))))
            if s["plague"] is not None:
                self._end_part(s, events)
            else:
                self._end_turn(s)
        elif verb == "sleep":
            self._sleep(s, seat, s["pending"], action.side, events)
        elif verb == "garlic":
            g = action.grave
            s["content"][g] = f"g:{seat}"
            s["garlic"][seat] -= 1
            self._close(s, g)
            events.append(Event(N_("{seat} hides garlic in {g}.", seat=seat_name(seat), g=g), transient=True))
            events.append(
                Event(
                    N_(
                        "{seat} hides a garlic in a grave ({s} left in hand).",
                        seat=seat_name(seat),
                        s=s["garlic"][seat],
                    ),
                    private={seat: N_("Your garlic lies in {g}.", g=g)} if _lists_garlic(s) else {},
                )
            )
            self._end_turn(s)
        elif verb == "close":
            self._close(s, action.grave)
            events.append(Event(N_("{seat} closes the grave without garlic.", seat=seat_name(seat))))
            self._end_turn(s)
        elif verb == "give":
            self._give(s, seat, action.side, events)
        elif verb == "put":
            self._put(s, seat, action.colour, action.side, events)
        return s, events

    def _close(self, s: State, g: str) -> None:
        """Close a lid the last action touched; it stays shown (ajar) until the next action."""
        if g in s["open"]:
            s["open"].remove(g)
        s["ajar"].append(g)

    def _flip(self, s: State, seat: int, g: str, events: list[Event]) -> None:
        who = seat_name(seat)
        if s["n"] == 2 and seat == s["turn"] and g not in s["lifted"]:
            s["lifted"].append(g)
        s["open"].append(g)
        lid = s["lid"][g]
        content = s["content"][g]
        if lid == RAT:
            events.append(Event(N_("{who} flips {g}: a rat!", who=who, g=g), transient=True))
            self._start_plague(s, seat, g, events)
            return
        lid_text = N_("{who} flips {g}: {lid} lid", who=who, g=g, lid=colour_name(lid))
        then = "part" if s["plague"] is not None else "turn"
        opp = 1 - seat if s["n"] == 2 else None
        if content is not None and content.startswith("v:"):
            events.append(
                Event(
                    N_(
                        "{lid_text}, a {content} vampire sleeps inside!",
                        lid_text=lid_text,
                        content=colour_name(content[2:]),
                    ),
                    transient=True,
                )
            )
            owed = [0] * s["n"]
            events.append(Event(N_("{who} woke a sleeping vampire and takes a stake.", who=who)))
            self._take_stake(s, seat, owed, events)
            if opp is not None and s["opts"]["duel_rule_1"] == "vampire":
                owed[opp] += int(COMPONENTS.two_player["gifts"]["vampire_literal"])
                events.append(Event(N_("Two-player rule: {opp} owes {who} 2 vampires.", opp=seat_name(opp), who=who)))
            if then == "turn":
                self._close(s, g)
            self._start_gift(s, seat, owed, then, events, g)
            return
        if content is not None and content.startswith("g:"):
            owner = int(content[2:])
            s["content"][g] = None
            s["found"][g] = content
            s["garlic"][owner] += 1
            owed = [0] * s["n"]
            if owner == seat:
                events.append(
                    Event(N_("{lid_text}: your own garlic, {who}!", lid_text=lid_text, who=who), transient=True)
                )
                each = int(COMPONENTS.two_player["gifts"]["own_garlic"]) if opp is not None else 1
                for p in range(s["n"]):
                    if p != seat:
                        owed[p] += each
                events.append(
                    Event(
                        N_(
                            "{who} found their own garlic and takes it back: {opp} gives them {each} vampires.",
                            who=who,
                            opp=seat_name(opp),
                            each=each,
                        )
                        if opp is not None
                        else N_(
                            "{who} found their own garlic and takes it back: every other player gives them a vampire.",
                            who=who,
                        )
                    )
                )
            else:
                events.append(
                    Event(
                        N_("{lid_text}: {owner}'s garlic!", lid_text=lid_text, owner=seat_name(owner)), transient=True
                    )
                )
                n_gift = 1
                if opp is not None and s["opts"]["duel_rule_1"] == "opponent_garlic":
                    n_gift = int(COMPONENTS.two_player["gifts"]["opponent_garlic"])
                owed[owner] += n_gift
                events.append(
                    Event(
                        Nn_(
                            "{who} found {owner}'s garlic: {owner} takes it back and gives {who} {n} vampire.",
                            "{who} found {owner}'s garlic: {owner} takes it back and gives {who} {n} vampires.",
                            n_gift,
                            who=who,
                            owner=seat_name(owner),
                        )
                    )
                )
            if then == "turn":
                self._close(s, g)
            self._start_gift(s, seat, owed, then, events, g)
            return
        row = s["rows"][seat]
        sides = [side for side in SIDES if _end_colour(row, side) == lid]
        if sides:
            events.append(Event(N_("{lid_text}, empty: a match!", lid_text=lid_text), transient=True))
            if len(sides) == 2 and len(row) > 1:
                s["phase"] = "sleep"
                s["pending"] = g
                s["actor"] = seat
                return
            self._sleep(s, seat, g, sides[0], events)
            return
        events.append(Event(N_("{lid_text}, empty, no match.", lid_text=lid_text), transient=True))
        if s["plague"] is not None:
            self._continue_part(s, seat, events, g)
        elif s["garlic"][seat] > 0:
            s["phase"] = "garlic"
            s["pending"] = g
        else:
            self._close(s, g)
            events.append(Event(N_("{who} found no match and has no garlic left; the turn passes.", who=who)))
            self._end_turn(s)

    def _sleep(self, s: State, seat: int, g: str, side: str, events: list[Event]) -> None:
        row = s["rows"][seat]
        colour = (row.pop(0) if side == "left" else row.pop()).upper()
        s["content"][g] = f"v:{colour}"
        who = seat_name(seat)
        events.append(
            Event(
                N_("{who} puts the {colour} vampire to sleep in {g}.", who=who, colour=colour_name(colour), g=g),
                transient=True,
            )
        )
        events.append(
            Event(
                N_(
                    "{who} puts a {colour} vampire to sleep ({row} left).",
                    who=who,
                    colour=colour_name(colour),
                    row=len(row),
                )
            )
        )
        self._announce_reveal(s, seat, events)
        s["pending"] = None
        if s["plague"] is None:
            self._close(s, g)
        if not row:
            s["winners"] = [seat]
            s["phase"] = "over"
            events.append(Event(N_("{who} has no vampires left and wins!", who=who), kind="end"))
            return
        if s["plague"] is not None:
            self._continue_part(s, seat, events, g)
            return
        s["chained"] = True
        s["phase"] = "flip"
        s["actor"] = seat

    def _announce_reveal(self, s: State, seat: int, events: list[Event]) -> None:
        row = s["rows"][seat]
        for i in _reveal(row):
            where = "left" if i < len(row) / 2 else "right"
            events.append(
                Event(
                    N_(
                        "{seat} turns up a {row} vampire on the {where}.",
                        seat=seat_name(seat),
                        row=colour_name(row[i]),
                        where=side_name(where),
                    )
                )
            )

    def _take_stake(self, s: State, seat: int, owed: list[int], events: list[Event]) -> None:
        s["stakes"][seat] += 1
        if s["stakes"][seat] < COMPONENTS.stakes_for_penalty:
            return
        s["stakes"][seat] = 0
        each = int(COMPONENTS.two_player["gifts"]["three_stakes"]) if s["n"] == 2 else 1
        for p in range(s["n"]):
            if p != seat:
                owed[p] += each
        events.append(
            Event(
                N_(
                    "{seat} has three stakes and returns them to the path: {other} gives them {each} vampires.",
                    seat=seat_name(seat),
                    other=seat_name(1 - seat),
                    each=each,
                )
                if s["n"] == 2
                else N_(
                    "{seat} has three stakes and returns them to the path: every other player gives them a vampire.",
                    seat=seat_name(seat),
                )
            )
        )

    # -- gifts -----------------------------------------------------------------------------------
    def _start_gift(self, s: State, to: int, owed: list[int], then: str, events: list[Event], touched: str) -> None:
        if sum(owed) == 0:
            self._continue(s, then, events, touched)
            return
        s["gift"] = {"to": to, "owed": owed, "chosen": [None] * s["n"], "pending": [], "then": then}
        s["phase"] = "give"
        s["pending"] = None

    def _give(self, s: State, seat: int, side: str, events: list[Event]) -> None:
        gift = s["gift"]
        gift["chosen"][seat] = side
        if self.to_act(s):
            events.append(Event(N_("{seat} has chosen which vampire to give.", seat=seat_name(seat))))
            return
        n = s["n"]
        to = gift["to"]
        winners = []
        for i in range(1, n):
            giver = (to + i) % n
            choice = gift["chosen"][giver]
            if choice is None:
                continue
            row = s["rows"][giver]
            colour = (row.pop(0) if choice == "left" else row.pop()).upper()
            gift["pending"].append(colour)
            gift["owed"][giver] -= 1
            gift["chosen"][giver] = None
            events.append(
                Event(
                    N_(
                        "{giver} gives {to} the {colour} vampire from their {choice} end.",
                        giver=seat_name(giver),
                        to=seat_name(to),
                        colour=colour_name(colour),
                        choice=side_name(choice),
                    )
                )
            )
            self._announce_reveal(s, giver, events)
            if not row:
                winners.append(giver)
        if winners:
            s["winners"] = winners
            s["phase"] = "over"
            names = Msg.join([seat_name(w) for w in winners])
            events.append(
                Event(
                    Nn_(
                        "{names} gave away their last vampire and wins!",
                        "{names} gave away their last vampire and win!",
                        len(winners),
                        names=names,
                    ),
                    kind="end",
                )
            )
            return
        if any(gift["owed"]):
            s["phase"] = "give"
        else:
            s["phase"] = "place"

    def _put(self, s: State, seat: int, colour: str, side: str, events: list[Event]) -> None:
        gift = s["gift"]
        gift["pending"].remove(colour)
        row = s["rows"][seat]
        if side == "left":
            row.insert(0, colour.upper())
        else:
            row.append(colour.upper())
        _reveal(row)
        events.append(
            Event(
                N_(
                    "{seat} adds the {colour} vampire at their {side} end.",
                    seat=seat_name(seat),
                    colour=colour_name(colour),
                    side=side_name(side),
                )
            )
        )
        if gift["pending"]:
            return
        s["gift"] = None
        self._continue(s, gift["then"], events, None)

    # -- turn flow -------------------------------------------------------------------------------
    def _continue(self, s: State, then: str, events: list[Event], touched: str | None) -> None:
        if then == "part":
            # 「若是翻到其他吸血鬼或大蒜，處罰方式照常」 and 「若是之前翻開的，此時有吸血鬼被移動到我這裡，就算
            # 顏色符合，也不能放進去」: after the penalty the flipper goes on (option plague_penalty=go_on)
            if s["opts"].get("plague_penalty", "ends_part") == "go_on":
                self._continue_part(s, s["actor"], events, touched)
            else:
                self._end_part(s, events, touched)
        else:
            self._end_turn(s)

    def _end_turn(self, s: State) -> None:
        if s["n"] == 2:
            s["blocked"] = s["lifted"]
            s["lifted"] = []
        s["turn"] = (s["turn"] + 1) % s["n"]
        s["actor"] = s["turn"]
        s["phase"] = "flip"
        s["pending"] = None
        s["chained"] = False

    def _continue_part(self, s: State, seat: int, events: list[Event], touched: str | None) -> None:
        """After a harmless plague flip the same player may go on, unless nothing is left to open."""
        s["pending"] = None
        if not self._closed_surrounding(s):
            self._end_plague(s, events, touched)
            return
        s["phase"] = "flip"
        s["actor"] = seat

    def _end_part(self, s: State, events: list[Event], touched: str | None = None) -> None:
        plague = s["plague"]
        plague["idx"] += 1
        s["pending"] = None
        if not self._closed_surrounding(s) or plague["idx"] >= s["n"]:
            self._end_plague(s, events, touched)
            return
        s["actor"] = plague["order"][plague["idx"]]
        s["phase"] = "flip"
        events.append(Event(N_("{s} may now flip graves around the rat, or stop.", s=seat_name(s["actor"]))))

    def _tidy_plague(self, s: State, keep: str | None = None) -> None:
        """Discard the rat, put a reserve lid (unseen) on its grave, close every open lid."""
        plague = s["plague"]
        center = plague["center"]
        for g in list(s["open"]):
            if g != keep:
                s["open"].remove(g)
        if s["reserve"]:
            s["lid"][center] = s["reserve"].pop(0)
        else:  # cannot happen with the shipped counts (one reserve lid per rat); keep the grave usable
            raise ValueError("no reserve lid left for a rat grave: check data/dawn_under")
        s["ajar"] = [g for g in s["ajar"] if g != center]
        s["found"] = {g: v for g, v in s["found"].items() if g in s["open"] or g in s["ajar"]}
        s["rats_out"] += 1
        s["plague"] = None

    def _end_plague(self, s: State, events: list[Event], touched: str | None = None) -> None:
        plague = s["plague"]
        # the lid the last action opened stays shown for a moment, like any other lid
        if touched is not None and touched != plague["center"] and touched not in s["ajar"]:
            s["ajar"].append(touched)
        self._tidy_plague(s)
        events.append(
            Event(
                N_("The plague is over: the rat is discarded, a reserve lid covers its grave and every lid is closed.")
            )
        )
        self._end_turn(s)

    def _start_plague(self, s: State, seat: int, g: str, events: list[Event]) -> None:
        n = s["n"]
        old = s["plague"]
        if old is not None:
            finder = seat if seat != old["finder"] else (old["finder"] + 1) % n
            self._tidy_plague(s, keep=g)
            events.append(Event(N_("A new rat ends the old plague at once: its lids are closed.")))
        else:
            finder = seat
        s["plague"] = {"center": g, "finder": finder, "order": [(finder + i) % n for i in range(n)], "idx": 0}
        s["pending"] = None
        if finder != seat:
            events.append(
                Event(
                    N_(
                        "{seat} found a second rat during their own plague: {finder} takes the new plague.",
                        seat=seat_name(seat),
                        finder=seat_name(finder),
                    )
                )
            )
        else:
            events.append(Event(N_("{seat} found a rat: plague!", seat=seat_name(seat))))
        if not self._closed_surrounding(s):
            self._end_plague(s, events)
            return
        s["actor"] = finder
        s["phase"] = "flip"

    # -- views -----------------------------------------------------------------------------------
    def _grave_view(self, s: State, g: str) -> dict[str, Any]:
        if g not in s["lid"]:
            return {"id": g, "state": "none"}
        shown = g in s["open"] or g in s["ajar"]
        if not shown:
            return {"id": g, "state": "closed"}
        out: dict[str, Any] = {"id": g, "state": "open" if g in s["open"] else "ajar", "lid": s["lid"][g]}
        content = s["content"][g]
        if content is None:
            out["holds"] = None
        elif content.startswith("v:"):
            out["holds"] = {"vampire": content[2:]}
        else:
            out["holds"] = {"garlic": int(content[2:])}
        found = s["found"].get(g)
        if found is not None:
            out["found"] = {"garlic": int(found[2:])}
        return out

    UNDOABLE = ("close", "give", "put", "stop")

    def undo_refusal(
        self, before: State, seat: int, action: Action, after: State, events: Sequence[Event]
    ) -> str | None:
        """Closing a lid, stopping, or a gift choice may be taken back if every lid the undo would show
        again is shown now exactly so; a flip, a sleep or a garlic reveals (memory game), never undoable."""
        if action.verb not in self.UNDOABLE:
            return N_("it showed what lies in a grave") if action.verb == "flip" else N_("it hid something under a lid")
        if action.verb == "give" and not (after["gift"] and after["gift"]["chosen"][seat] == action.side):
            return N_("it revealed the vampires everyone gave")
        for g in set(before["open"]) | set(before["ajar"]):  # open or ajar: shown either way
            was, now = self._grave_view(before, g), self._grave_view(after, g)
            if now["state"] == "closed" or {**was, "state": ""} != {**now, "state": ""}:
                return N_("taking it back would show a closed lid again")
        hidden = [sum(c.islower() for c in row) for row in before["rows"]]
        if [sum(c.islower() for c in row) for row in after["rows"]] != hidden:
            return N_("it turned up a vampire")
        return self.undo_blocker(before, seat, after, events)

    def glimpse_seconds(self, options: Mapping[str, str]) -> int:
        """Every lid a move shows is seen by every player for the same time (tables made before the
        option keep the old way: the touched lid stays on the board until the next move)."""
        value = options.get("glimpse", "off")
        return int(value) if value.isdigit() else 0

    def lasting_view(self, view: dict[str, Any], options: Mapping[str, str]) -> dict[str, Any]:
        """A lid the last move touched (ajar) is drawn closed on the board: it is in each player's glimpse."""
        if not self.glimpse_seconds(options):
            return view
        graves = [{"id": g["id"], "state": "closed"} if g.get("state") == "ajar" else g for g in view["graves"]]
        return {**view, "graves": graves}

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        s = state
        n = s["n"]
        to_act = sorted(self.to_act(s))
        v: dict[str, Any] = {
            "game": self.key,
            "players": n,
            "seat": seat,
            "board": {
                "columns": BOARD.columns,
                "rows": BOARD.rows,
                "path_after_column": BOARD.path_after_column,
                "path_after_row": BOARD.path_after_row,
            },
            "colours": list(s["colours"]),
            "graves": [self._grave_view(s, g) for g in BOARD.graves],
            "rows": [[c if c.isupper() else None for c in row] for row in s["rows"]],
            "vampires_left": [len(row) for row in s["rows"]],
            "garlic_in_hand": list(s["garlic"]),
            "stakes": list(s["stakes"]),
            "stakes_on_path": COMPONENTS.stakes - sum(s["stakes"]),
            "reserve_lids": len(s["reserve"]),
            "rats_found": s["rats_out"] + (1 if s["plague"] is not None else 0),
            "rats_total": s["rats_total"],
            "turn": s["turn"],
            "actor": s["actor"],
            "phase": s["phase"],
            "to_act": to_act,
            "pending_grave": s["pending"],
            "may_stop": self._may_stop(s) and s["phase"] == "flip" and not s["winners"],
            "blocked": list(s["blocked"]),
            "plague": None,
            "gift": None,
            "winners": list(s["winners"]),
        }
        if s["plague"] is not None:
            p = s["plague"]
            v["plague"] = {
                "center": p["center"],
                "finder": p["finder"],
                "surrounding": self.surrounding(s),
                "chooser": s["actor"],
            }
        if s["gift"] is not None:
            gift = s["gift"]
            v["gift"] = {
                "to": gift["to"],
                "owed": list(gift["owed"]),
                "decided": [p for p in range(n) if gift["chosen"][p] is not None],
                "received": list(gift["pending"]),
            }
        if seat is not None:
            if _lists_garlic(s):
                mark = f"g:{seat}"
                v["my_garlic"] = [g for g in s["lid"] if s["content"][g] == mark]
            if s["gift"] is not None and s["gift"]["chosen"][seat] is not None:
                v["my_choice"] = s["gift"]["chosen"][seat]
        v["status"] = self._status(v)
        return v

    def status(self, view: dict[str, Any]) -> str:
        """The status line, with the players' names when the platform added them to the view.

        A seat's view (its private panel) adds what only that seat may know: during a gift, the end
        it chose, and, with the option list_garlic=yes, where its own garlic lies.
        """
        text = str(view.get("status", ""))
        seat = view.get("seat")
        if seat is not None and not view.get("winners"):
            if "my_garlic" in view:  # only with the option list_garlic=yes: the seed says 「要牢記」
                mine = view["my_garlic"]
                text = Msg.cat(
                    text,
                    N_("🧄 Your garlic lies in: {graves} (only you see this).", graves=", ".join(mine))
                    if mine
                    else N_("🧄 Your garlic lies in: no grave (only you see this)."),
                    sep="\n",
                )
            if view.get("my_choice"):
                text = Msg.cat(
                    text, N_("🎁 You give your {side}-end vampire.", side=side_name(view["my_choice"])), sep="\n"
                )
        return self.event_text(text, view.get("names") or [])

    def board_words(self, view: dict[str, Any], names: Sequence[str]) -> str:
        """The board in words: each row's count and ends, the stakes, and every lid shown now."""
        parts: list[str] = []
        rows = []
        for i, row in enumerate(view.get("rows") or []):
            who = names[i] if i < len(names) else seat_name(i)
            shown = [c for c in row if c]
            ends = (
                N_(", ends {row} and {row2}", row=colour_name(row[0]), row2=colour_name(row[-1]))
                if row and row[0] and row[-1]
                else ""
            )
            left = view["vampires_left"][i] if i < len(view.get("vampires_left") or []) else len(row)
            stakes = view["stakes"][i] if i < len(view.get("stakes") or []) else 0
            rows.append(
                N_(
                    "{who}: {left} vampires ({shown} face up{ends}), {stakes} stakes",
                    who=who,
                    left=left,
                    shown=len(shown),
                    ends=ends,
                    stakes=stakes,
                )
            )
        if rows:
            parts.append(N_("Rows: {rows}.", rows=Msg.cat(*rows, sep="; ")))
        lids = []
        for g in view.get("graves") or []:
            if g.get("state") not in ("open", "ajar"):
                continue
            holds = g.get("holds")
            if holds is None:
                inside = N_("empty")
            elif "vampire" in holds:
                inside = N_("a sleeping {holds} vampire", holds=colour_name(holds["vampire"]))
            else:
                k = int(holds["garlic"])
                inside = N_("{x}'s garlic", x=names[k] if k < len(names) else seat_name(k))
            lid = N_("a rat lid") if g["lid"] == RAT else N_("{colour} lid", colour=colour_name(g["lid"]))
            lids.append(N_("{grave} {lid}, {inside}", grave=g["id"], lid=lid, inside=inside))
        parts.append(
            N_("Open graves: {graves}.", graves=Msg.cat(*lids, sep="; ")) if lids else N_("Open graves: none.")
        )
        if view.get("plague"):
            parts.append(N_("Plague: a rat at {view}.", view=view["plague"]["center"]))
        return Msg.cat(*parts, sep=" ")

    def event_text(self, text: str, names: Sequence[str]) -> str:
        """`text` (an event's or the status) with "Seat N" replaced by the players' names.

        The platform may call this for the event lines it shows (a proposed hook: see the cog
        report); until then the board's row bands carry the seat numbers.
        """
        if isinstance(text, Msg):  # put the names in after translation, in whichever language
            return text.then(lambda s: self.event_text(s, names))
        for i, name in enumerate(names):
            text = text.replace(seat_name(i), str(name))
        return text

    @staticmethod
    def _status(v: dict[str, Any]) -> str:
        if v["winners"]:
            names = Msg.join([seat_name(w) for w in v["winners"]])
            return Nn_(
                "{names} wins: no vampires left!", "{names} win: no vampires left!", len(v["winners"]), names=names
            )
        actor = seat_name(v["actor"])
        phase = v["phase"]
        if phase == "give":
            gift = v["gift"]
            waiting = Msg.join([seat_name(p) for p in v["to_act"]])
            done = Msg.join([seat_name(p) for p in gift["decided"]])
            line = N_("{waiting} must choose a vampire to give to {gift}.", waiting=waiting, gift=seat_name(gift["to"]))
            return Msg.cat(line, N_("Decided: {done}.", done=done), sep=" ") if done else line
        if phase == "place":
            gift = v["gift"]
            got = ", ".join(gift["received"])
            return N_(
                "{gift} adds the vampires received ({got}) to an end of their row.", gift=seat_name(gift["to"]), got=got
            )
        if phase == "sleep":
            return N_(
                "{actor}: both ends match {v}; choose which vampire goes to sleep.", actor=actor, v=v["pending_grave"]
            )
        if phase == "garlic":
            return N_("{actor}: no match in {v}; hide a garlic there or close it.", actor=actor, v=v["pending_grave"])
        if v["plague"] is not None:
            p = v["plague"]
            return N_(
                "Plague at {p} (found by {p2}): {actor} may flip a grave around the rat, or stop.",
                p=p["center"],
                p2=seat_name(p["finder"]),
                actor=actor,
            )
        if v["may_stop"]:
            return N_("{actor}'s turn: flip a grave (or stop).", actor=actor)
        return N_("{actor}'s turn: flip a grave.", actor=actor)

    def outcome(self, state: State) -> Outcome | None:
        if not state["winners"]:
            return None
        left = [len(row) for row in state["rows"]]
        places: list[tuple[int, ...]] = []
        for count in sorted(set(left)):
            places.append(tuple(p for p in range(state["n"]) if left[p] == count))
        winners = frozenset(state["winners"])
        names = " and ".join(seat_name(w) for w in sorted(winners))
        detail = ", ".join(f"{seat_name(p)}: {left[p]}" for p in range(state["n"]))
        return Outcome(
            scores=tuple(left),
            ranking=tuple(places),
            winners=winners,
            summary=N_("{names} got rid of every vampire. Vampires left — {detail}.", names=names, detail=detail),
            details={"vampires_left": left, "stakes": list(state["stakes"])},
        )

    def outcome_lines(self, outcome: Outcome, names: Sequence[str]) -> list[str]:
        """Per seat, best place first: "🥇 bob — no vampires left · 2 stakes in hand"."""
        left = list(outcome.details.get("vampires_left") or outcome.scores)
        stakes = list(outcome.details.get("stakes") or [])
        per_seat = []
        for seat in range(len(names)):
            n = left[seat] if seat < len(left) else None
            text: str = (
                ""
                if n is None
                else (N_("no vampires left") if n == 0 else Nn_("{n:g} vampire left", "{n:g} vampires left", n))
            )
            if seat < len(stakes):
                held = Nn_("{n:g} stake in hand", "{n:g} stakes in hand", stakes[seat])
                text = Msg.cat(text, held, sep=" · ") if text else held
            per_seat.append(text)
        return standings_lines(outcome, names, per_seat)

    # -- serialisation -----------------------------------------------------------------------------
    def dump_state(self, state: State) -> dict[str, Any]:
        out: dict[str, Any] = _clone(state)
        return out

    def load_state(self, data: dict[str, Any]) -> State:
        if data.get("schema") != 1:
            raise InvalidInput(f"Unknown Dawn Under state schema {data.get('schema')!r}.")
        out: State = _clone(data)
        return out

    def dump_action(self, action: Action) -> dict[str, Any]:
        return {"verb": action.verb, "grave": action.grave, "side": action.side, "colour": action.colour}

    def load_action(self, data: dict[str, Any]) -> Action:
        return Action(
            str(data["verb"]),
            str(data.get("grave", "")),
            str(data.get("side", "")),
            str(data.get("colour", "")),
        )

    def format_action(self, action: Action) -> str:
        if action.verb in ("flip", "garlic", "close"):
            return f"{action.verb} {action.grave}"
        if action.verb in ("sleep", "give"):
            return f"{action.verb} {action.side}"
        if action.verb == "put":
            return f"put {action.colour} {action.side}"
        return action.verb

    def parse_action(self, text: str) -> Action:
        raw = " ".join(text.strip().lower().split())
        help_text = N_(
            "Cannot read {text!r}: write 'flip C4', 'stop', 'garlic C4', 'close C4', 'sleep "
            "left', 'give right' or 'put R left'.",
            text=text,
        )
        verb = next((v for v in VERBS if raw.startswith(v)), None)
        if verb is None:
            raise InvalidInput(help_text)
        rest = raw[len(verb) :].strip()
        if verb == "stop":
            if rest:
                raise InvalidInput(help_text)
            return Action("stop")
        if verb in ("flip", "garlic", "close"):
            m = _GRAVE_RE.match(rest)
            grave = f"{m.group(1).upper()}{int(m.group(2))}" if m else ""
            if grave not in BOARD.position:
                raise InvalidInput(
                    N_(
                        "There is no grave {x!r}: graves are A1 to H8 (D4, E4, D5 and E5 are the stake "
                        "plaza). Write e.g. 'flip C4'.",
                        x=rest.upper() or "(none given)",
                    )
                )
            return Action(verb, grave)
        words = rest.split()
        side_word = words[-1] if words else ""
        side = {"left": "left", "l": "left", "right": "right", "r": "right"}.get(side_word)
        if side is None:
            raise InvalidInput(N_("Cannot read {text!r}: say which end, 'left' or 'right'.", text=text))
        if verb in ("sleep", "give"):
            if len(words) != 1:
                raise InvalidInput(help_text)
            return Action(verb, side=side)
        if len(words) != 2:
            raise InvalidInput(N_("Cannot read {text!r}: write e.g. 'put R left' (colour, then end).", text=text))
        colour = _parse_colour(words[0])
        if colour is None:
            names = ", ".join(colour_name(c) for c in COMPONENTS.colours)
            raise InvalidInput(N_("Unknown vampire colour {words!r}: use one of {names}.", words=words[0], names=names))
        return Action("put", side=side, colour=colour)

    def describe_action(self, action: Action) -> str:
        v = action.verb
        if v == "flip":
            return N_("Flip grave {grave}", grave=action.grave)
        if v == "stop":
            return N_("Stop flipping and pass")
        if v == "sleep":
            return N_("Put your {side}-end vampire to sleep", side=side_name(action.side))
        if v == "garlic":  # no grave named: the label is echoed back in the mover's answer
            return N_("Hide a garlic in the grave you opened")
        if v == "close":  # no grave named: this label is echoed back after the lid has closed
            return N_("Close the lid without garlic")
        if v == "give":
            return N_("Give away your {side}-end vampire", side=side_name(action.side))
        if v == "put":
            return N_(
                "Add the {colour} vampire at your {side} end",
                colour=colour_name(action.colour),
                side=side_name(action.side),
            )
        return self.format_action(action)


def _lists_garlic(s: State) -> bool:
    """Whether a seat's view lists where its garlic lies; games stored before the option did."""
    return bool(s["opts"].get("list_garlic", "yes") == "yes")


def _parse_colour(word: str) -> str | None:
    for code in COMPONENTS.colours:
        if word in (code.lower(), COMPONENTS.colour_names[code]):
            return code
    return None


GAME = DawnUnder()
