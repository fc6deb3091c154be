"""Trick or Treat Halloween in Discord: the `/trick` commands and the dice-game panels.

A turn is many small steps (mark dice, reroll, walk, ring…), so the panels are built per phase:
- roll: one toggle button per die (keep ↔ reroll), a multi-select to reroll several dice in one go,
  and **Reroll** / **Done**;
- act / trade: a select of the reachable streets with their footprint cost, a select of the actions
  possible now with the dice they use, the magnifier conversions, the affordable score cards, and
  **End turn**;
- the small candy questions (give to a thief, pay the bikers, the Cowboy's pick, paying a card).

Every click of the panel goes through `TrickUI.on_component` and `TrickCog.run`: the mover gets the
next panel in place, the live board is edited, and only a player who *newly* has to decide is pinged
(the mover is not pinged again after each of their own steps). Everything stays reachable with
`/game move` too.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.i18n import N_, Msg, Nn_
from bot.rules import Game, GameError, InvalidInput, StaleAction, get_game
from bot.rules.errors import NotYourTurn
from bot.rules.trick_or_treat.data import (
    BESIDE,
    BUILDING_NAMES,
    CANDY_ICON,
    CARDS,
    CHARACTERS,
    ENTRANCES,
    FACE_ICON,
    FACE_NAME,
    KIND_NAME,
    KINDS,
    TYPE_NAME,
)
from bot.rules.trick_or_treat.game import Action, Walk, discount_choices, plan_payment, walks, who
from bot.store import TableRow
from bot.tables import Change, Logged
from bot.tables.locks import KeyedLocks
from bot.tables.text import CONTENT_MAX, clip, escape
from cogs.common.gamecog import GameCog
from cogs.common.i18n import localized_choices
from cogs.common.ui import (
    CONFIRMED,
    MAX_BUTTONS,
    SELECT_SIZE,
    GameUI,
    TableButton,
    TableSelect,
    action_items,
    choice,
    fit_label,
    make_view,
    register_ui,
)

if TYPE_CHECKING:
    from bot.app import SpookyBot
    from cogs.table import TableCog

KEY = "trick_or_treat"
VERB = "tt"  # one move: the notation is the button's arg or the select's value
WALK = "walk"  # `walk v12 v22`: one choice of the panel, played as the moves `move v12`, `move v22`
ACT_NOW = "act"  # a roll-panel choice `<move>|<dice key>|act`: `done`, then the move, in one click
ROLL = "ttroll"  # a multi-select of dice: mark exactly those, then reroll
MAX_SELECT_ROWS = 4  # and one row of buttons

CANDY_EMOJI = CANDY_ICON
ICON_OF_VERB = {
    "ring": "🔔",
    "grab": "🔔",
    "steal": "🦹",
    "reveal": "🔍",
    "set": "🔍",
    "discount": "💸",
    "supply": "🍬",
}

Item = discord.ui.Item[Any]


# -- labels ---------------------------------------------------------------------------------------


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def names_of(table: TableRow) -> list[str]:
    return [s.name for s in table.seats]


def move_cost(view: dict[str, Any], seat: int, street: str) -> int:
    return 1 + sum(1 for p in view["seats"] if p["seat"] != seat and p["pos"] == street)


SYMBOL_TEXT = {"reroll": N_("an extra reroll"), "black": N_("a black die")}


def card_label(slot: int, card: dict[str, Any]) -> str:
    sym = card.get("symbol") or ""
    gives = N_(" + {x} every turn", x=SYMBOL_TEXT.get(sym) or FACE_ICON.get(sym, sym)) if sym else ""
    return N_(
        "Slot {slot}: {card} pts{gives} — costs {card2}",
        slot=slot,
        card=card["points"],
        gives=gives,
        card2=card["cost_text"],
    )


def buy_label(slot: int, card: dict[str, Any], discounts: int) -> str:
    """The card's label, and how many of this turn's discounts this purchase puts on it."""
    label = card_label(slot, card)
    if discounts:
        label = f"{label} · −{discounts} (🍬🍬×{discounts})"
    return fit_label(label)


def payment_text(pay: dict[str, int], used: int, card: dict[str, Any], choose: bool = False) -> str:
    """What the automatic payment will take, when that is not simply the printed cost."""
    cost = card["cost"]
    parts: list[str] = []
    if "any" in cost or "same" in cost:
        parts.append(N_("you pick the tiles"))
    elif choose:
        parts.append(N_("you pick the candy the discount saves"))
    elif pay != {k: int(cost["need"].get(k, 0)) for k in pay}:
        paid = Msg.cat(*(N_("{n} {kind}", n=n, kind=KIND_NAME[k]) for k, n in pay.items() if n), sep=", ")
        parts.append(N_("pays {candy}", candy=paid))
    if used:
        parts.append(Nn_("{n} discount used", "{n} discounts used", used))
    return Msg.cat(*parts, sep="; ")


def describe(view: dict[str, Any], names: Sequence[str], action: Action, game: Game[Any, Any]) -> str:
    """A menu label for an action, with the names of players and the real footprint cost."""
    seat = int(view["seat"])
    if action.verb == "move":
        street = action.arg.upper()
        a, b = (BUILDING_NAMES[i] for i in BESIDE[street])
        cost = move_cost(view, seat, street)
        crowd = Nn_(" (crowded: {n} pawn)", " (crowded: {n} pawns)", cost - 1) if cost > 1 else ""
        return N_("{street} between {a} and {b} — {cost} 👣{crowd}", street=street, a=a, b=b, cost=cost, crowd=crowd)
    if action.verb == "steal":
        victim = int(action.arg) - 1
        clubs = "🏏" * (3 + int(view["seats"][victim].get("clubs", 0)))  # +1 per club the victim owns
        if action.arg2:
            return fit_label(
                N_(
                    "Steal a {KIND_NAME} from {seat} — {clubs}+🔍",
                    KIND_NAME=KIND_NAME[action.arg2],
                    seat=who(names, victim),
                    clubs=clubs,
                )
            )
        return fit_label(
            N_("Steal from {seat} (they choose the candy) — {clubs}", seat=who(names, victim), clubs=clubs)
        )
    return fit_label(game.describe_action(action))


def walk_notation(w: Walk) -> str:
    return " ".join([WALK, *(street.lower() for street in w.path)])


def expand(notation: str) -> list[str]:
    """The moves one panel choice stands for: a walk is its steps, anything else itself."""
    verb, _, rest = notation.partition(" ")
    if verb == WALK:
        return [f"move {street}" for street in rest.split()]
    return [notation]


def walk_label(view: dict[str, Any], w: Walk) -> str:
    """`V24 via V23 — 3 👣 · crowded V23 · bikers take 1 candy`: the whole walk and what is on it."""
    seat = int(view["seat"])
    me = view["seats"][seat]
    label: str = N_("{path} via {path2} — {cost} 👣", path=w.path[-1], path2=", ".join(w.path[:-1]), cost=w.cost)
    if w.crowded:
        label = Msg.cat(label, N_("crowded {crowded}", crowded=", ".join(w.crowded)), sep=" · ")
    if w.bikers and me["char"] != "lion" and me["candy_total"]:
        n = min(len(w.bikers), int(me["candy_total"]))
        label = Msg.cat(label, Nn_("bikers take {n} candy", "bikers take {n} candies", n), sep=" · ")
    return fit_label(label)


def walk_entries(
    game: Game[Any, Any], view: dict[str, Any], names: Sequence[str], legal: Sequence[Action], state: Any, seat: int
) -> list[tuple[str, str, str]]:
    """The walk menu: the neighbouring streets (one step each), then farther streets as whole walks."""
    entries = [(game.format_action(a), describe(view, names, a, game), "") for a in legal if a.verb == "move"]
    if state is not None:
        for w in walks(state, seat):
            a, b = (BUILDING_NAMES[i] for i in BESIDE[w.path[-1]])
            entries.append(
                (
                    walk_notation(w),
                    walk_label(view, w),
                    N_("{path} streets; ends between {a} and {b}", path=len(w.path), a=a, b=b),
                )
            )
    return entries[:SELECT_SIZE]


def act_entries(
    game: Game[Any, Any], view: dict[str, Any], names: Sequence[str], legal: Sequence[Action]
) -> list[tuple[str, str, str]]:
    """The menu of the actions that use dice, with what each building or victim holds."""
    entries = []
    for a in legal:
        if a.verb not in ("ring", "grab", "steal", "reveal", "discount", "supply"):
            continue
        desc = ""
        if a.verb in ("ring", "grab", "reveal"):
            cell = next(c for c in view["city"] if c["name"] == a.arg.upper())
            if cell["up"]:
                held = Msg.join([KIND_NAME[k] for k in cell["candy"]]) if cell["candy"] else N_("no candy left")
                desc = Msg.cat(TYPE_NAME.get(cell["type"], cell["type"]), held, sep=": ")
            else:
                desc = N_("face down")
        elif a.verb == "steal":
            victim = view["seats"][int(a.arg) - 1]
            desc = N_("they hold {victim} candies", victim=victim["candy_total"])
        entries.append((game.format_action(a), describe(view, names, a, game), desc))
    return entries


# -- the panel ------------------------------------------------------------------------------------


def _select(
    table: TableRow, version: int, entries: list[tuple[str, str, str]], placeholder: str, row: int
) -> TableSelect:
    """A menu of moves; the row number keeps custom ids unique within the message."""
    options = [
        discord.SelectOption(
            label=label,
            value=value[:100],
            description=(fit_label(desc) or None),
            emoji=ICON_OF_VERB.get(value.split(" ", 1)[0]),
        )
        for value, label, desc in entries[:SELECT_SIZE]
    ]
    return TableSelect(VERB, table.id, version, f"m{row}", options=options, placeholder=placeholder, row=row)


def _button(
    table: TableRow,
    version: int,
    text: str,
    label: str,
    row: int,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    disabled: bool = False,
    emoji: str | None = None,
) -> TableButton:
    return TableButton(VERB, table.id, version, text, label=label, style=style, row=row, disabled=disabled, emoji=emoji)


def panel_components(
    game: Game[Any, Any],
    table: TableRow,
    seat: int,
    legal: Sequence[Action],
    view: dict[str, Any],
    version: int,
    state: Any = None,
) -> list[Item] | None:
    """The panel for this phase, or None when it would not fit Discord's limits.

    With the `state`, the walk menu offers farther streets as whole walks, and the roll panel also
    offers the first actions of the act phase (a pick there keeps the dice and plays it: one click)."""
    if not legal:
        return []
    names = names_of(table)
    phase = view["phase"]
    by_verb: dict[str, list[Action]] = {}
    for a in legal:
        by_verb.setdefault(a.verb, []).append(a)
    me = view["seats"][seat]
    items: list[Item] = []
    pend = view.get("pending")

    if phase == "choose":
        entries = [(game.format_action(a), CHARACTERS[a.arg]["name"], CHARACTERS[a.arg]["ability"]) for a in legal]
        return [_select(table, version, entries, N_("Choose your character…"), 0)]
    if phase == "start":
        entries = []
        for a in legal:
            street = ENTRANCES[a.arg.upper()]
            x, y = (BUILDING_NAMES[i] for i in BESIDE[street])
            entries.append(
                (
                    game.format_action(a),
                    N_("Entrance {upper} → street {street}", upper=a.arg.upper(), street=street),
                    N_("between {x} and {y}", x=x, y=y),
                )
            )
        return [_select(table, version, entries, N_("Choose your entrance…"), 0)]
    if pend is not None:
        kinds = [a for a in legal if a.verb == pend["kind"]]
        for i, a in enumerate(kinds):
            if a.verb == "take":
                label = N_("Take {KIND_NAME}", KIND_NAME=KIND_NAME[a.arg])
            else:
                have = me["candy"].get(a.arg, 0)
                kind = KIND_NAME[a.arg]
                if a.verb == "give":
                    label = N_("Give {KIND_NAME} (you have {have})", KIND_NAME=kind, have=have)
                elif a.verb == "save":
                    label = N_("Keep {KIND_NAME} (you have {have})", KIND_NAME=kind, have=have)
                else:  # pay, spend
                    label = N_("Pay {KIND_NAME} (you have {have})", KIND_NAME=kind, have=have)
            items.append(
                _button(table, version, game.format_action(a), label, i // MAX_BUTTONS, emoji=CANDY_EMOJI[a.arg])
            )
        return items
    if phase == "roll":
        key = roll_key(view)
        dice = view["dice"]
        marked = view["marked"]
        rows = -(-len(dice) // MAX_BUTTONS)
        if rows > 2:
            return None
        last = len(dice) - MAX_BUTTONS * (rows - 1)  # Reroll and Done share the last row of dice if they fit
        buttons_row = rows - 1 if last + 2 <= MAX_BUTTONS else rows
        for i, die in enumerate(dice):
            icon = FACE_ICON[die["f"]]
            black = " (black)" if die["src"] == "black" else ""
            if marked[i]:
                label, style = (
                    N_("{x}{black}: {icon} → reroll", x=i + 1, black=black, icon=icon),
                    discord.ButtonStyle.danger,
                )
            else:
                label, style = (
                    N_("{x}{black}: {icon} keep", x=i + 1, black=black, icon=icon),
                    discord.ButtonStyle.secondary,
                )
            want = "off" if marked[i] else "on"
            items.append(
                _button(
                    table,
                    version,
                    f"mark {i + 1}|{key}|{want}",
                    label,
                    i // MAX_BUTTONS,
                    style,
                )
            )
        row = buttons_row + 1
        if view["rerolls"] > 0:
            options = [
                discord.SelectOption(
                    label=N_(
                        "Die {x}: {FACE_ICON} {FACE_NAME}",
                        x=i + 1,
                        FACE_ICON=FACE_ICON[d["f"]],
                        FACE_NAME=FACE_NAME[d["f"]],
                    ),
                    value=str(i + 1),
                    description=N_("black die") if d["src"] == "black" else None,
                )
                for i, d in enumerate(dice)
            ]
            select = TableSelect(
                ROLL,
                table.id,
                version,
                key,
                options=options,
                placeholder=N_("Reroll several dice at once… ({view} left)", view=plural(view["rerolls"], "reroll")),
                row=row,
            )
            select.item.min_values = 1
            select.item.max_values = len(options)
            items.append(select)
            row += 1
        items += act_now_items(game, table, seat, view, version, state, key, row)
        n_marked = sum(1 for m in marked if m)
        can = "reroll" in by_verb
        items.append(
            _button(
                table,
                version,
                f"reroll|{key}",
                (
                    (
                        N_("Reroll {n_marked} marked ({view} left)", n_marked=n_marked, view=view["rerolls"])
                        if n_marked
                        else N_("Mark dice to reroll")
                    )
                    if view["rerolls"]
                    else N_("No rerolls left")
                ),
                buttons_row,
                discord.ButtonStyle.primary,
                disabled=not can,
                emoji="🎲",
            )
        )
        items.append(
            _button(
                table,
                version,
                f"done|{key}",
                N_("Done: keep these dice"),
                buttons_row,
                discord.ButtonStyle.success,
                emoji="✅",
            )
        )
        return items

    # act / trade
    groups: list[tuple[str, list[tuple[str, str, str]]]] = []
    if by_verb.get("move"):
        groups.append((N_("Walk to a street (footprint cost)…"), walk_entries(game, view, names, legal, state, seat)))
    entries = act_entries(game, view, names, legal)
    if entries:
        for start in range(0, len(entries), SELECT_SIZE):
            part = entries[start : start + SELECT_SIZE]
            groups.append((N_("Do something with your dice…"), part))
    sets = by_verb.get("set", [])
    if sets:
        groups.append(
            (
                N_("Turn 2 magnifiers into any 2 faces…"),
                [
                    (
                        game.format_action(a),
                        Msg.cat(
                            f"{FACE_ICON[a.arg]} + {FACE_ICON[a.arg2]}  (",
                            FACE_NAME[a.arg],
                            " + ",
                            FACE_NAME[a.arg2],
                            ")",
                        ),
                        N_("uses 🔍🔍🔍🔍"),
                    )
                    for a in sets
                ],
            )
        )
    buys = by_verb.get("buy", [])
    if buys:
        entries = []
        for a in buys:
            slot = int(a.arg)
            card = view["row"][slot - 1]
            plan = plan_payment(me["candy"], CARDS[card["id"]], int(a.arg2 or 0))
            choose = bool(plan and discount_choices(me["candy"], CARDS[card["id"]], plan[1]))
            desc = payment_text(plan[0], plan[1], card, choose) if plan else ""
            entries.append((game.format_action(a), buy_label(slot, card, int(a.arg2 or 0)), desc))
        placeholder: str = N_("Buy a score card…")
        if int(view["discounts"]):
            placeholder = N_(
                "Buy a score card (choose how many of your {view})…",
                view=Nn_("{n} discount", "{n} discounts", int(view["discounts"])),
            )
        for start in range(0, len(entries), SELECT_SIZE):
            groups.append((placeholder, entries[start : start + SELECT_SIZE]))
    if len(groups) > MAX_SELECT_ROWS:
        return None
    for row, (placeholder, entries) in enumerate(groups):
        items.append(_select(table, version, entries, placeholder, row))
    if "end" in by_verb:
        items.append(
            _button(table, version, "end", N_("End turn"), len(groups), discord.ButtonStyle.danger, emoji="🌙")
        )
    return items


def act_now_items(
    game: Game[Any, Any],
    table: TableRow,
    seat: int,
    view: dict[str, Any],
    version: int,
    state: Any,
    key: str,
    row: int,
) -> list[Item]:
    """While rolling: the walks and the dice actions that keeping these dice would allow, in the free
    rows. A pick plays `done` and then the move (`<move>|<dice key>|act`), valid while the dice last."""
    if state is None or row > 4:
        return []
    after, _ = game.apply(state, seat, Action("done"))  # pure; `done` draws no die
    if after["turn"] != seat or after["phase"] != "act":
        return []  # nothing could be done with these dice: Done ends the turn
    legal = game.legal_actions(after, seat)
    names = names_of(table)
    later = game.view(after, seat)
    groups = [
        (N_("…or keep these dice and walk…"), walk_entries(game, later, names, legal, after, seat)),
        (N_("…or keep these dice and act…"), act_entries(game, later, names, legal)[:SELECT_SIZE]),
    ]
    items: list[Item] = []
    for placeholder, entries in groups:
        if entries and row <= 4:
            entries = [(f"{value}|{key}|{ACT_NOW}", label, desc) for value, label, desc in entries]
            if all(len(value) <= 100 for value, _, _ in entries):
                items.append(_select(table, version, entries, placeholder, row))
                row += 1
    return items


class TrickUI(GameUI):
    def panel_items(
        self, game: Game[Any, Any], table: TableRow, seat: int, legal: Sequence[Any], page: int
    ) -> list[Item]:
        version = table.awaited.get(seat, table.version)
        state = game.load_state(table.state or {})
        view = game.view(state, seat)
        items = panel_components(game, table, seat, legal, view, version, state)
        if items is None:  # too many choices for one panel: the generic paged menus
            return action_items(game, table, legal, version, page)
        return items

    async def on_component(
        self,
        cog: TableCog,
        interaction: discord.Interaction,
        table: TableRow,
        verb: str,
        version: int,
        arg: str,
        values: Sequence[str],
    ) -> bool:
        trick = interaction.client.get_cog("TrickCog")  # type: ignore[attr-defined]
        if verb not in (VERB, ROLL, CONFIRMED) or not isinstance(trick, TrickCog):
            return False
        if verb == CONFIRMED:  # "Yes" to the platform's question: the move, without asking again
            await trick.run(interaction, table, expand(arg), version=version, from_panel=True)
            return True
        if verb == ROLL:  # the dice select: its arg names the dice it was drawn for
            dice = [int(v) for v in values if v.isdigit()]
            plan = partial(trick.reroll_plan, user_id=interaction.user.id, dice=dice, key=arg)
            await trick.run(interaction, table, [], from_panel=True, plan=plan)
            return True
        notation, _, key = (values[0] if values else arg).partition("|")
        if key:
            # a die toggle, Reroll or Done: valid while the dice it was drawn for are unchanged
            plan = partial(roll_step, notation=notation, key=key, user_id=interaction.user.id)
            await trick.run(interaction, table, [], from_panel=True, plan=plan)
        elif len(expand(notation)) > 1:  # a walk: checked whole against the table before its first step
            plan = partial(checked_plan, texts=expand(notation), user_id=interaction.user.id)
            await trick.run(interaction, table, [], version=version, from_panel=True, plan=plan)
        elif not await cog.ask_first(interaction, table, notation, version):
            await trick.run(interaction, table, [notation], version=version, from_panel=True)
        return True


def roll_key(state: dict[str, Any]) -> str:
    """Identifies one set of dice: the round, whose turn, and how many rerolls are left."""
    return f"{state.get('round')}.{state.get('turn')}.{state.get('rerolls')}"


def check_roll_key(table: TableRow, key: str) -> dict[str, Any]:
    state = table.state or {}
    if state.get("phase") != "roll" or roll_key(state) != key:
        raise StaleAction(N_("This panel is out of date: these dice were rerolled or kept since it was shown."))
    return state


def checked_plan(table: TableRow, *, texts: Sequence[str], user_id: int) -> list[str]:
    """Several moves of one click, tried on the table as it is now: all of them, or StaleAction and
    none (a walk drawn before the pawn moved otherwise would stop halfway)."""
    game = get_game(KEY)
    seat = table.seat_of(user_id)
    if seat is None or seat.seat not in table.awaited or not table.state:
        return list(texts)  # the service refuses it with its usual words
    state = game.load_state(table.state)
    for text in texts:
        try:
            state, _ = game.apply(state, seat.seat, game.parse_action(text))
        except GameError:
            raise StaleAction(N_("This panel is out of date: that walk is no longer possible from here.")) from None
    return list(texts)


def roll_step(table: TableRow, *, notation: str, key: str, user_id: int = 0) -> list[str]:
    """`mark 3|<key>|on` marks die 3 unless it already is (a double click is not a double toggle)."""
    state = check_roll_key(table, key.split("|")[0])
    verb, _, rest = notation.partition(" ")
    want = key.split("|")[1] if "|" in key else ""
    if want == ACT_NOW:  # the first action of the act phase: keep the dice, then play it
        return checked_plan(table, texts=["done", *expand(notation)], user_id=user_id)
    if verb == "mark" and want:
        i = int(rest) - 1
        if 0 <= i < len(state["marked"]) and bool(state["marked"][i]) == (want == "on"):
            return []
    return [notation]


# -- the cog --------------------------------------------------------------------------------------


class TrickCog(GameCog, group_name="trick", group_description=N_("Trick or Treat Halloween moves")):
    game_key = KEY

    def __init__(self, bot: SpookyBot) -> None:
        super().__init__(bot)
        self._locks = KeyedLocks()

    # the engine of every move from this cog
    def reroll_plan(self, table: TableRow, user_id: int, dice: Sequence[int], key: str = "") -> list[str]:
        """The moves that mark exactly `dice` (1-based) and reroll them (for the dice `key` names, if given)."""
        state = check_roll_key(table, key) if key else (table.state or {})
        marked = list(state.get("marked") or [])
        if state.get("phase") != "roll":
            raise InvalidInput(N_("You can reroll only while rolling, before you press Done."))
        wanted = set(dice) or {i + 1 for i, m in enumerate(marked) if m}
        bad = sorted(d for d in wanted if not 1 <= d <= len(marked))
        if bad:
            raise InvalidInput(
                N_("There is no die {bad}; your dice are numbered 1–{marked}.", bad=bad[0], marked=len(marked))
            )
        if not wanted:
            raise InvalidInput(N_("Name the dice to reroll, e.g. `1 3 5`."))
        flips = [f"mark {i + 1}" for i, m in enumerate(marked) if m != ((i + 1) in wanted)]
        return [*flips, "reroll"]

    async def run(
        self,
        interaction: discord.Interaction,
        table: TableRow,
        texts: Sequence[str],
        *,
        version: int | None = None,
        from_panel: bool = False,
        plan: Callable[[TableRow], list[str]] | None = None,
    ) -> None:
        """Apply one or more moves of the user, answer them with their next panel, show the board.

        The moves, the answer and the board update of one click happen under a per-table lock, so
        that after quick successive clicks the last panel and board shown are the latest ones.

        With `plan`, the moves are decided from the table as it is when this click's turn comes (under a
        per-table lock): quick successive clicks on the dice each count, instead of all but the first
        being "out of date". `plan` raises StaleAction when the dice it was drawn for are gone.
        """
        tables = self.tables
        service = self.bot.service
        message = interaction.message
        private_surface = (
            from_panel and message is not None and (message.flags.ephemeral or interaction.guild_id is None)
        )
        service.check_open(table)
        if not await tables.ack(interaction, update=private_surface):
            return
        game = get_game(table.game)
        lines: list[Logged] = []
        change: Change | None = None
        newly: set[int] = set()
        labels = []
        async with self._locks.hold(table.id):
            if plan is not None:
                table = await service.table(table.id)
                texts = plan(table)
            for i, text in enumerate(texts):
                change = await service.act(
                    table.id,
                    interaction.user.id,
                    text,
                    version=version if i == 0 else None,
                    text=True,
                    interaction_id=interaction.id if i == 0 else None,
                    panel_message_id=tables.dm_message_id(interaction) if private_surface else None,
                )
                lines.extend(change.lines)
                newly |= change.newly_awaited
                labels.append(game.describe_action(game.parse_action(text)))
                if change.ended:
                    break
            if change is None:  # nothing to do (a die already as asked): show the panel again
                seat = table.seat_of(interaction.user.id)
                if seat is None or seat.seat not in table.awaited:
                    raise NotYourTurn(N_("Nothing is awaited from you right now."))
                change = Change(table=table)
                newly = {seat.seat}
                labels = [N_("That die was already so: nothing changed")]
            assert change is not None
            table = change.table
            seat = table.seat_of(interaction.user.id)
            newly &= set(table.awaited)
            label = labels[-1] if len(labels) == 1 else self._batch_label(lines, labels, texts[: len(labels)])
            mover = seat.seat if seat is not None else -1
            again = mover in newly

            async def answer() -> None:
                if again:
                    panel = await tables.build_panel(table, mover)
                    content = clip(f"✅ {label}\n{panel.content}", CONTENT_MAX)
                    files = [panel.file] if panel.file else []
                    if private_surface:
                        await interaction.edit_original_response(
                            content=content, attachments=files, view=make_view(panel.items)
                        )
                    else:
                        await interaction.followup.send(
                            content, files=files, view=make_view(panel.items), ephemeral=True
                        )
                else:
                    waiting = ", ".join(escape(table.seats[s].name) for s in sorted(table.awaited)) or "nobody"
                    done = f"✅ {label}" + (
                        N_(" — now waiting for {waiting}.", waiting=waiting) if table.status == "active" else ""
                    )
                    if private_surface:
                        await interaction.edit_original_response(content=done, attachments=[], view=None)
                    else:
                        await interaction.followup.send(done, ephemeral=True)

            if not lines and all(t.startswith("mark ") for t in texts):
                # nothing happened yet for the others (a die marked for the next reroll, or nothing):
                # the mover's panel shows it; the board is edited at the reroll, sparing an image and
                # one of Discord's few message edits per channel per second (the public view is unchanged)
                await answer()
                await service.store.mark_shown(table.id, table.version)
                if again:
                    await service.store.mark_notified(table.id, {mover: table.awaited[mover]})
                return
            # the mover gets their panel in the answer (no ping, no DM), unless the answer fails
            quiet = replace(change, lines=tuple(lines), newly_awaited=frozenset(newly))
            await tables.answer_then_deliver(
                interaction, quiet, answer, bots=False, actor=mover, answered_panel=again, skip_dm={mover}
            )

    @staticmethod
    def _batch_label(lines: Sequence[Logged], labels: Sequence[str], texts: Sequence[str] = ()) -> str:
        """Several moves of one click: a dice-select reroll says what the reroll did (the last log
        line); a walk names its streets; a first action after the roll says the dice were kept."""
        rerolled = [line.event.text for line in lines if " rerolls dice " in line.event.text]
        if rerolled:
            return N_("Rerolled dice ") + rerolled[-1].split(" rerolls dice ", 1)[1]
        kept = bool(texts) and texts[0] == "done"
        streets = [t.split()[1].upper() for t in texts if t.startswith("move ")]
        label = labels[-1]
        if len(streets) > 1 and len(streets) == len(texts) - kept:
            label = N_("Walk to {streets} via {streets2}", streets=streets[-1], streets2=", ".join(streets[:-1]))
        return N_("Keep these dice, then {lower}{label}", lower=label[:1].lower(), label=label[1:]) if kept else label

    async def move_here(self, interaction: discord.Interaction, *texts: str) -> None:
        table = await self.table_here(interaction)
        await self.run(interaction, table, texts)

    # legal values for autocomplete
    async def _legal(self, interaction: discord.Interaction, *verbs: str) -> tuple[list[Action], dict[str, Any]]:
        try:
            table = await self.table_here(interaction)
            legal = self.bot.service.legal_for(table, interaction.user.id)
            seat = table.seat_of(interaction.user.id)
            if seat is None:
                return [], {}
            view = self.bot.service.view_for(table, seat.seat)
        except GameError:
            return [], {}
        return [a for a in legal if a.verb in verbs], view

    async def _choices(
        self, interaction: discord.Interaction, current: str, verb: str | tuple[str, ...], value: Any = None
    ) -> list[app_commands.Choice[str]]:
        legal, view = await self._legal(interaction, *((verb,) if isinstance(verb, str) else verb))
        if not legal:
            return []
        game = get_game(KEY)
        names = view.get("names") or []
        needle = current.lower().strip()
        out: list[app_commands.Choice[str]] = []
        seen = set()
        for a in legal:
            val = value(a) if value else a.arg
            if val in seen:
                continue
            seen.add(val)
            label = describe(view, names, a, game)
            if needle in val.lower() or needle in label.lower():
                out.append(choice(label, val[:100]))
        return out[:25]

    # -- commands ---------------------------------------------------------------------------
    @app_commands.command(name="character", description=N_("Choose your character (at the start)"))
    @app_commands.describe(name=N_("Start typing: the characters still free"))
    async def character(self, interaction: discord.Interaction, name: str) -> None:
        await self.move_here(interaction, f"choose {name}")

    @character.autocomplete("name")
    @localized_choices
    async def _ac_character(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        legal, _view = await self._legal(interaction, "choose")
        needle = current.lower()
        return [
            choice(N_("{name}: {ability}", name=CHARACTERS[a.arg]["name"], ability=CHARACTERS[a.arg]["ability"]), a.arg)
            for a in legal
            if needle in a.arg or needle in CHARACTERS[a.arg]["ability"].lower()
        ][:25]

    @app_commands.command(name="entrance", description=N_("Choose the entrance where your pawn waits"))
    @app_commands.describe(name=N_("N1–N3, S1–S3, W1–W3 or E1–E3"))
    async def entrance(self, interaction: discord.Interaction, name: str) -> None:
        await self.move_here(interaction, f"start {name}")

    @entrance.autocomplete("name")
    @localized_choices
    async def _ac_entrance(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        legal, _view = await self._legal(interaction, "start")
        return [
            app_commands.Choice(
                name=N_("{upper} → street {ENTRANCES}", upper=a.arg.upper(), ENTRANCES=ENTRANCES[a.arg.upper()]),
                value=a.arg.upper(),
            )
            for a in legal
            if current.lower() in a.arg
        ][:25]

    @app_commands.command(name="reroll", description=N_("Reroll some of your dice (uses one reroll)"))
    @app_commands.describe(dice=N_("The dice numbers to reroll, e.g. 1 3 5 (empty: the marked dice)"))
    async def reroll(self, interaction: discord.Interaction, dice: str = "") -> None:
        table = await self.table_here(interaction)
        numbers = re.findall(r"\d+", dice)
        if dice.strip() and not numbers:
            raise InvalidInput(N_("Write the dice numbers to reroll, e.g. `1 3 5`."))
        plan = partial(self.reroll_plan, user_id=interaction.user.id, dice=[int(n) for n in numbers])
        plan(table)  # refuse at once what cannot work (not rolling, no such die)
        await self.run(interaction, table, [], plan=plan)

    @app_commands.command(name="done", description=N_("Keep your dice and start acting"))
    async def done(self, interaction: discord.Interaction) -> None:
        await self.move_here(interaction, "done")

    @app_commands.command(name="move", description=N_("Walk to a neighbouring street (costs footprints)"))
    @app_commands.describe(street=N_("Start typing: the streets you can reach, with their cost"))
    async def move(self, interaction: discord.Interaction, street: str) -> None:
        await self.move_here(interaction, f"move {street}")

    @move.autocomplete("street")
    @localized_choices
    async def _ac_move(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._choices(interaction, current, "move", lambda a: a.arg.upper())

    @app_commands.command(name="ring", description=N_("Ring a doorbell beside your street (🎃🎃)"))
    @app_commands.describe(building=N_("Start typing: the buildings you can ring"))
    async def ring(self, interaction: discord.Interaction, building: str) -> None:
        await self.move_here(interaction, f"ring {building}")

    @ring.autocomplete("building")
    @localized_choices
    async def _ac_ring(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._choices(interaction, current, "ring", lambda a: a.arg.upper())

    @app_commands.command(name="grab", description=N_("Take two candies at a building (🎃🎃🏏🏏🏏)"))
    @app_commands.describe(building=N_("Start typing: the buildings with two candies beside you"))
    async def grab(self, interaction: discord.Interaction, building: str) -> None:
        await self.move_here(interaction, f"grab {building}")

    @grab.autocomplete("building")
    @localized_choices
    async def _ac_grab(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._choices(interaction, current, "grab", lambda a: a.arg.upper())

    @app_commands.command(name="steal", description=N_("Steal a candy from a player on your street (🏏🏏🏏)"))
    @app_commands.describe(
        player=N_("Who to rob"), candy=N_("With a magnifier 🔍 you pick the candy; else they choose")
    )
    async def steal(self, interaction: discord.Interaction, player: str, candy: str | None = None) -> None:
        await self.move_here(interaction, f"steal {player} {candy or ''}".strip())

    @steal.autocomplete("player")
    @localized_choices
    async def _ac_steal(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        legal, view = await self._legal(interaction, "steal")
        names = view.get("names") or []
        out = []
        for a in legal:
            if a.arg2:
                continue
            victim = view["seats"][int(a.arg) - 1]
            label = N_(
                "{seat} (P{arg}) — {victim} candies",
                seat=who(names, int(a.arg) - 1),
                arg=a.arg,
                victim=victim["candy_total"],
            )
            if current.lower() in label.lower():
                out.append(choice(label, a.arg))
        return out[:25]

    @steal.autocomplete("candy")
    @localized_choices
    async def _ac_steal_candy(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        legal, _view = await self._legal(interaction, "steal")
        chosen = str(getattr(interaction.namespace, "player", "") or "")
        kinds = sorted({a.arg2 for a in legal if a.arg2 and (not chosen or a.arg == chosen)}, key=KINDS.index)
        return [
            app_commands.Choice(name=N_("{KIND_NAME} (uses a 🔍)", KIND_NAME=KIND_NAME[k]), value=k)
            for k in kinds
            if current.lower() in k or current.lower() in KIND_NAME[k]
        ][:25]

    @app_commands.command(name="reveal", description=N_("Turn up a face-down building beside you (🔍🔍)"))
    @app_commands.describe(building=N_("Start typing: the face-down buildings beside your street"))
    async def reveal(self, interaction: discord.Interaction, building: str) -> None:
        await self.move_here(interaction, f"reveal {building}")

    @reveal.autocomplete("building")
    @localized_choices
    async def _ac_reveal(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._choices(interaction, current, "reveal", lambda a: a.arg.upper())

    @app_commands.command(name="set", description=N_("Turn two magnifiers into any two faces (🔍🔍🔍🔍)"))
    @app_commands.describe(faces=N_("Two faces, e.g. 'pumpkin club'"))
    async def set_(self, interaction: discord.Interaction, faces: str) -> None:
        await self.move_here(interaction, f"set {faces}")

    @set_.autocomplete("faces")
    @localized_choices
    async def _ac_set(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._choices(interaction, current, "set", lambda a: f"{a.arg} {a.arg2}")

    @app_commands.command(name="discount", description=N_("Pay one candy fewer for a score card this turn (🍬🍬)"))
    async def discount(self, interaction: discord.Interaction) -> None:
        await self.move_here(interaction, "discount")

    @app_commands.command(name="supply", description=N_("Take a candy from the supply (🍬🍬🍬🍬)"))
    @app_commands.describe(candy=N_("The kind to take"))
    async def supply(self, interaction: discord.Interaction, candy: str) -> None:
        await self.move_here(interaction, f"supply {candy}")

    @supply.autocomplete("candy")
    @localized_choices
    async def _ac_supply(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._choices(interaction, current, "supply")

    @app_commands.command(name="buy", description=N_("Buy a face-up score card with your candy"))
    @app_commands.describe(card=N_("Start typing: the cards you can afford ('4 -1' uses one discount on card 4)"))
    async def buy(self, interaction: discord.Interaction, card: str) -> None:
        await self.move_here(interaction, f"buy {card}")

    @buy.autocomplete("card")
    @localized_choices
    async def _ac_buy(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        legal, view = await self._legal(interaction, "buy")
        out = []
        for a in legal:
            label = buy_label(int(a.arg), view["row"][int(a.arg) - 1], int(a.arg2 or 0))
            if current.lower() in label.lower():
                value = f"{a.arg} -{a.arg2}" if a.arg2 else a.arg  # '/trick buy card:4 -1'
                out.append(choice(label, value))
        return out[:25]

    @app_commands.command(name="candy", description=N_("Answer a candy question: give to a thief, pay bikers, pick…"))
    @app_commands.describe(kind="Start typing: the candies you can choose now")
    async def candy(self, interaction: discord.Interaction, kind: str) -> None:
        table = await self.table_here(interaction)
        pend = (table.state or {}).get("pending")
        if not pend or (table.state or {}).get("phase") in ("choose", "start", "roll"):
            raise InvalidInput(N_("Nobody is asking you for a candy right now."))
        await self.run(interaction, table, [f"{pend['kind']} {kind}"])

    @candy.autocomplete("kind")
    @localized_choices
    async def _ac_candy(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._choices(interaction, current, ("give", "pay", "take", "spend", "save"))

    @app_commands.command(name="end", description=N_("End your turn"))
    async def end(self, interaction: discord.Interaction) -> None:
        await self.move_here(interaction, "end")


async def setup(bot: Any) -> None:
    register_ui(KEY, TrickUI())
    await bot.add_cog(TrickCog(bot))


__all__ = ["TrickCog", "TrickUI", "panel_components"]
