"""Dawn Under in Discord: `/dawn` commands and the live board's components.

Design (see docs/rules/dawn_under.md, "Memory" and "Playing in Discord"):

* One **live board** message is edited after every move (the platform does this for `live_board`
  games), so a reveal is readable only while its lid is shown; nothing the bot keeps in the channel
  (pings, /game log) names a grave.
* No DMs: a DM would keep a reveal (or a picture of the board) for ever. What only one seat may know
  — which end it chose to give and, with the table option list_garlic=yes, where its own garlic
  lies — is shown in ephemeral panels ("Play"). By default nobody is told where their garlic lies.
* The board carries what the awaited player needs next: graves to flip (one menu per quarter, since
  up to 60 graves exceed a menu's 25 options), Stop, the garlic / close choice, the sleep side, the
  plague's surrounding graves, "Choose my gift" for every giver at once, and the receiver's
  placements. Every move is also `/dawn …` and `/game move`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Literal

import discord
from discord import app_commands

from bot.i18n import N_
from bot.rules import Game, GameError, InvalidInput
from bot.rules.dawn_under.data import BOARD, COMPONENTS
from bot.rules.dawn_under.game import GAME, Action
from bot.store import TableRow
from cogs.common.gamecog import GameCog
from cogs.common.ui import SELECT_SIZE, GameUI, TableButton, TableSelect, register_ui

KEY = "dawn_under"
QUARTERS = ("north-west", "north-east", "south-west", "south-east")
BUTTONS_PER_ROW = 5
GRAVE_PREFIX = re.compile(r"^[A-H]?[0-9]*$")
Item = discord.ui.Item[Any]


def quarter_of(grave: str) -> int:
    return BOARD.quadrant[grave]


def quarter_span(q: int) -> str:
    graves = [g for g in BOARD.graves if BOARD.quadrant[g] == q]
    cols = sorted({g[0] for g in graves})
    rows = sorted({int(g[1:]) for g in graves})
    return f"{cols[0]}–{cols[-1]} {rows[0]}–{rows[-1]}"


def colour_label(code: str) -> str:
    return f"{COMPONENTS.colour_names.get(code, code).capitalize()} ({code})"


def _state(table: TableRow) -> Any:
    return GAME.load_state(table.state or {})


def end_colours(view: dict[str, Any], seat: int) -> tuple[str | None, str | None]:
    """The face-up colours at the left and right ends of a seat's row (public)."""
    row = view["rows"][seat]
    if not row:
        return None, None
    return row[0], row[-1]


def labelled(view: dict[str, Any], seat: int, action: Action) -> tuple[str, str]:
    """(label, emoji) for a follow-up button, naming colours a player would otherwise look up."""
    left, right = end_colours(view, seat)
    end = {"left": left, "right": right}
    if action.verb == "sleep":
        return N_("Sleep the {side} end — {x}", side=action.side, x=colour_label(end[action.side] or "?")), "💤"
    if action.verb == "give":
        return N_("Give my {side} end — {x}", side=action.side, x=colour_label(end[action.side] or "?")), "🎁"
    if action.verb == "put":
        return N_("Add {colour} at my {side} end", colour=colour_label(action.colour), side=action.side), "➕"
    if action.verb == "garlic":
        return N_("Hide garlic in {grave}", grave=action.grave), "🧄"
    if action.verb == "close":
        return N_("Close {grave} (no garlic)", grave=action.grave), "🪦"
    if action.verb == "stop":
        return (N_("Stop (pass the plague on)") if view.get("plague") else N_("Stop and pass the turn")), "✋"
    if action.verb == "flip":
        return f"Flip {action.grave}", "🔦"
    return GAME.describe_action(action), ""


def _buttons(
    table: TableRow, version: int, entries: Sequence[tuple[str, str, str, discord.ButtonStyle]], first_row: int
) -> list[Item]:
    """Buttons for (notation, label, emoji, style), five to a row from `first_row`."""
    items: list[Item] = []
    for i, (text, label, emoji, style) in enumerate(entries):
        row = first_row + i // BUTTONS_PER_ROW
        if row > 4:
            break
        items.append(TableButton("do", table.id, version, text, label=label, emoji=emoji or None, style=style, row=row))
    return items


def flip_selects(table: TableRow, version: int, graves: Sequence[str], first_row: int) -> list[Item]:
    """One menu per quarter of the cemetery (at most 15 graves each), in board order."""
    items: list[Item] = []
    row = first_row
    for q in range(4):
        mine = [g for g in graves if quarter_of(g) == q]
        if not mine or row > 4:
            continue
        options = [discord.SelectOption(label=N_("Flip {g}", g=g), value=f"flip {g}") for g in mine[:SELECT_SIZE]]
        placeholder = N_(
            "🔦 Flip a grave in the {QUARTERS} ({q}): {mine} to choose from",
            QUARTERS=QUARTERS[q],
            q=quarter_span(q),
            mine=len(mine),
        )
        items.append(TableSelect("do", table.id, version, f"q{q}", options=options, placeholder=placeholder, row=row))
        row += 1
    return items


def decision_items(
    table: TableRow, view: dict[str, Any], seat: int, legal: Sequence[Action], version: int, *, board: bool
) -> list[Item]:
    """The components for `seat`'s legal actions, laid out for the board (row 0 is shared with the
    platform's Play button) or for a private panel."""
    flips = [a.grave for a in legal if a.verb == "flip"]
    first = 1 if board else 0
    if not flips:
        entries: list[tuple[str, str, str, discord.ButtonStyle]] = []
        for a in legal:
            label, emoji = labelled(view, seat, a)
            style = discord.ButtonStyle.secondary if a.verb in ("stop", "close") else discord.ButtonStyle.primary
            entries.append((GAME.format_action(a), label, emoji, style))
        return _buttons(table, version, entries, first)
    items: list[Item]
    if len(flips) <= (2 * BUTTONS_PER_ROW if view.get("plague") else BUTTONS_PER_ROW - 1):
        entries = [(f"flip {g}", N_("Flip {g}", g=g), "🔦", discord.ButtonStyle.primary) for g in flips]
        items = _buttons(table, version, entries, first)
        last_row = first + (len(items) - 1) // BUTTONS_PER_ROW
    else:
        items = flip_selects(table, version, flips, first)
        last_row = first + len(items) - 1
    if any(a.verb == "stop" for a in legal):
        row = 0 if board else min(4, last_row + 1)
        label, emoji = labelled(view, seat, Action("stop"))
        items.append(TableButton("do", table.id, version, "stop", label=label, emoji=emoji, row=row))
    return items


class DawnUI(GameUI):
    """The live board offers the awaited player's choices; panels offer the clicking seat's own."""

    def board_items(self, table: TableRow, view: dict[str, Any]) -> list[Item]:
        if table.state is None or view.get("winners"):
            return []
        state = _state(table)
        phase = view["phase"]
        if phase == "give":
            # several givers decide at once, each in private: the button opens the clicker's own panel
            return [
                TableButton(
                    "panel",
                    table.id,
                    table.version,
                    "gift",
                    label=N_("Choose my gift"),
                    emoji="🎁",
                    style=discord.ButtonStyle.success,
                    row=1,
                )
            ]
        seats = sorted(GAME.to_act(state))
        if len(seats) != 1:
            return []
        seat = seats[0]
        legal = GAME.legal_actions(state, seat)
        return decision_items(table, view, seat, legal, table.version, board=True)

    def panel_items(
        self, game: Game[Any, Any], table: TableRow, seat: int, legal: Sequence[Any], page: int
    ) -> list[Item]:
        view = game.view(_state(table), seat)
        version = table.awaited.get(seat, table.version)
        return decision_items(table, view, seat, list(legal), version, board=False)


UI = DawnUI()


class DawnCog(GameCog, group_name="dawn", group_description=N_("Dawn Under: flip graves, put vampires to sleep")):
    game_key = KEY

    async def _legal(self, interaction: discord.Interaction) -> tuple[TableRow, list[Action]]:
        table = await self.table_here(interaction)
        return table, self.bot.service.legal_for(table, interaction.user.id)

    async def _choices(
        self, interaction: discord.Interaction, current: str, pick: Any
    ) -> list[app_commands.Choice[str]]:
        try:
            _table, legal = await self._legal(interaction)
        except GameError:
            return []
        needle = current.strip().lower()
        out: list[app_commands.Choice[str]] = []
        for action in legal:
            choice = pick(action)
            if choice is not None and needle in f"{choice.name} {choice.value}".lower():
                out.append(choice)
        return out

    # -- commands --------------------------------------------------------------------------------
    @app_commands.command(name="flip", description=N_("Flip a grave's lid (your turn, or your part of a plague)"))
    @app_commands.describe(grave=N_("A grave such as C4; the list shows the closed graves you may flip"))
    async def flip(self, interaction: discord.Interaction, grave: str) -> None:
        await self.play(interaction, f"flip {grave}")

    @flip.autocomplete("grave")
    async def _flip_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        def pick(a: Action) -> app_commands.Choice[str] | None:
            if a.verb != "flip":
                return None
            return app_commands.Choice(name=f"{a.grave} · {QUARTERS[quarter_of(a.grave)]}", value=a.grave)

        needle = current.strip().upper()
        choices = await self._choices(interaction, "", pick)
        # a typed prefix narrows by grave id ("c" -> C1…C8, "c4" -> C4), other words by quarter ("south")
        if GRAVE_PREFIX.match(needle):
            return [c for c in choices if c.value.startswith(needle)][:25]
        return [c for c in choices if needle.lower() in c.name.split(" · ", 1)[1]][:25]

    @app_commands.command(
        name="stop", description=N_("Stop flipping (after a sleep), or pass your part of a plague on")
    )
    async def stop(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, "stop")

    @app_commands.command(name="sleep", description=N_("Both ends match: which end's vampire goes to sleep"))
    @app_commands.describe(side=N_("The end of your row whose vampire goes to sleep"))
    async def sleep(self, interaction: discord.Interaction, side: Literal["left", "right"]) -> None:
        await self.play(interaction, f"sleep {side}")

    @app_commands.command(name="garlic", description=N_("Hide a garlic in the empty grave you just opened"))
    async def garlic(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, f"garlic {await self._pending(interaction, N_('hide garlic'))}")

    @app_commands.command(name="close", description=N_("Close the empty grave you just opened, without garlic"))
    async def close(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, f"close {await self._pending(interaction, N_('close a grave'))}")

    @app_commands.command(name="give", description=N_("Choose which end's vampire you give away"))
    @app_commands.describe(side=N_("The end of your row whose vampire you give"))
    async def give(self, interaction: discord.Interaction, side: Literal["left", "right"]) -> None:
        await self.play(interaction, f"give {side}")

    @app_commands.command(name="put", description=N_("Add a vampire you received to an end of your row"))
    @app_commands.describe(colour=N_("The colour of a vampire you received"), side=N_("Which end of your row"))
    async def put(self, interaction: discord.Interaction, colour: str, side: Literal["left", "right"]) -> None:
        await self.play(interaction, f"put {colour} {side}")

    @put.autocomplete("colour")
    async def _put_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        seen: set[str] = set()

        def pick(a: Action) -> app_commands.Choice[str] | None:
            if a.verb != "put" or a.colour in seen:
                return None
            seen.add(a.colour)
            return app_commands.Choice(name=colour_label(a.colour), value=a.colour)

        return (await self._choices(interaction, current, pick))[:25]

    async def _pending(self, interaction: discord.Interaction, what: str) -> str:
        table = await self.table_here(interaction)
        if table.status != "active":
            raise InvalidInput(N_("This table has no game in progress."))
        state = _state(table)
        grave = state["pending"]
        if state["phase"] != "garlic" or not grave:
            raise InvalidInput(
                N_(
                    "There is no grave to {what} in right now: that choice comes after you open an "
                    "empty grave that matches neither end of your row.",
                    what=what,
                )
            )
        return str(grave)


async def setup(bot: Any) -> None:
    register_ui(KEY, UI)
    await bot.add_cog(DawnCog(bot))


__all__ = ["QUARTERS", "UI", "DawnCog", "DawnUI", "decision_items", "setup"]
