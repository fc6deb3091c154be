"""Ghost Stories in Discord: `/ghost` commands and the components of the board and the Play panel.

Design (see docs/rules/ghost_stories.md, "Playing in Discord"):

* Co-operative and without secrets: everyone sees the same board (a new board message whenever a new
  decision starts); only the awaited Taoist may act, and the table gate refuses anyone else.
* The board carries the awaited player's choices, grouped the way a turn goes: where to move, what
  to do on the tile (help of the villager, exorcisms with the symbols they need and the dice rolled,
  Buddha spaces, the Yin-Yang token), the Taoist powers (own and borrowed), and **End turn**. A
  pending decision (placing a ghost, paying an exorcism with Tao tokens, a lost token, a reward…)
  shows its options as buttons, or menus when there are many. The **Play** panel shows the same.
* A choice that falls to another player (a Tao token lost to Soul Eater or Bone Cracker, sharing
  Wu-Feng's reward) awaits that player: the platform pings them, and the board's components and
  their panel offer the choice.
* Every move is also `/ghost …` and `/game move`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import discord
from discord import app_commands

from bot.i18n import N_, Msg
from bot.rules import Game, GameError, InvalidInput
from bot.rules.ghost_stories import core
from bot.rules.ghost_stories.core import tao_word
from bot.rules.ghost_stories.data import CARDS, FACES, space_index, tile_index
from bot.rules.ghost_stories.game import GAME, Act
from bot.store import TableRow
from cogs.common.gamecog import GameCog
from cogs.common.ui import (
    SELECT_SIZE,
    GameUI,
    TableButton,
    TableSelect,
    choice,
    fit_label,
    register_ui,
)

KEY = "ghost_stories"
Item = discord.ui.Item[Any]
BUTTONS_PER_ROW = 5

TURN_GROUPS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("move", ("move",), N_("🚶 Move to a tile…")),
    ("act", ("exorcise", "help", "buddha", "yinyang"), N_("⚔️ Exorcise, ask the villager, place a Buddha, Yin-Yang…")),
    ("power", ("pocket", "mantra", "push", "power"), N_("✨ Taoist powers…")),
)
PENDING_PROMPTS = {
    "side": N_("🀄 Choose your board's side"),
    "place": N_("👻 Place the ghost"),
    "curse_reroll": N_("🎲 Keep or reroll the curse die"),
    "exorcism": N_("⚔️ Pay the exorcism with Tao tokens"),
    "pay": N_("🔹 Which Tao tokens pay?"),
    "herbs": N_("🎲 Keep or reroll the herbs dice"),
    "discard": N_("🔻 Discard a Tao token"),
    "take": N_("🔹 Take a Tao token"),
    "reward": N_("🎁 Choose a reward"),
    "share": N_("🎁 Give Wu-Feng's reward"),
    "victim": N_("🎲 Who takes the ghost's effect?"),
    "yyhelp": N_("☯️ Choose the help"),
    "blow": N_("🌬️ Blow the ghost to…"),
    "pavilion": N_("🌬️ Blow a Taoist to…"),
}
EMOJI = {
    "move": "🚶",
    "exorcise": "⚔️",
    "help": "🏮",
    "buddha": "🗿",
    "yinyang": "☯️",
    "pocket": "👝",
    "mantra": "📿",
    "push": "🌬️",
    "power": "✨",
    "end": "⏭️",
    "banish": "⚔️",
    "pay": "🔹",
    "place": "👻",
    "keep": "✋",
    "reroll": "🎲",
    "discard": "🔻",
    "take": "🔹",
    "reward": "🎁",
    "give": "🎁",
    "suffer": "🎲",
    "blow": "🌬️",
    "pavilion": "🌬️",
}


def ordinal(n: int) -> str:
    return {2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def _state(table: TableRow) -> Any:
    return GAME.load_state(table.state or {})


def _notation(action: Act) -> str:
    return GAME.format_action(action)


def _button_style(action: Act) -> discord.ButtonStyle:
    if action.parts[0] == "end" or action.parts[-1] in ("none", "skip"):
        return discord.ButtonStyle.secondary
    if action.parts[0] in ("banish", "exorcise"):
        return discord.ButtonStyle.success
    return discord.ButtonStyle.primary


def _fits(table: TableRow, version: int, text: str) -> bool:
    return len(f"st:do:{table.id}:{version}:{text}") <= 100


def option_description(state: dict[str, Any] | None, action: Act) -> str | None:
    """A menu option's second line: where a move leads (the ghosts facing the tile, a haunted tile),
    and for an exorcism the Tao tokens that may complete it (own and the Taoists' on the tile)."""
    if state is None:
        return None
    if action.parts[0] == "exorcise":
        return tokens_on_tile(state, state["turn"])
    if action.parts[0] != "move":
        return None
    x = tile_index(action.parts[1])
    if x is None:
        return None
    ghosts = []
    for k in FACES[x]:
        g = state["spaces"][k]
        if g is not None:
            c = CARDS[g["id"]]
            need = Msg.cat(
                *(N_("{n} {colour}", n=n, colour=tao_word(col)) for col, n in c["resistance"].items() if n), sep=" "
            )
            ghosts.append(N_("{ghost} ({need})", ghost=c["name"], need=need))
    text: str = N_("faces {ghosts}", ghosts=Msg.cat(*ghosts, sep=", ")) if ghosts else N_("no ghost faces this tile")
    if state["tiles"][x]["haunted"]:
        text = Msg.cat(N_("haunted (no help)"), text, sep=" · ")
    return fit_label(text)


def tokens_on_tile(state: dict[str, Any], t: int) -> str:
    """The Tao tokens the Taoist of board `t` may spend after a roll: their own, then their partners' on
    the same tile (as `core.token_pool` counts them)."""
    if core.tao_locked(state):
        return N_("Tao tokens are locked: only the dice count")
    pos = state["boards"][t]["pos"]
    parts = []
    for b in [t, *((t + i) % 4 for i in range(1, 4))]:
        bd = state["boards"][b]
        if b != t and not (bd["alive"] and bd["pos"] == pos and bd["seat"] is not None):
            continue
        held = ", ".join(f"{n} {c}" for c, n in bd["tao"].items() if n)
        if held:
            parts.append(f"{held} ({'yours' if b == t else core.cap(bd['colour']) + chr(39) + 's'})")
    return fit_label(N_("tokens to pay with: ") + "; ".join(parts) if parts else N_("no Tao tokens on your tile"))


def _select(
    table: TableRow,
    version: int,
    tag: str,
    actions: Sequence[Act],
    placeholder: str,
    row: int,
    state: dict[str, Any] | None = None,
) -> Item:
    options = [
        discord.SelectOption(
            label=GAME.describe_action(a),
            value=_notation(a)[:100],
            emoji=EMOJI.get(a.parts[0]),
            description=option_description(state, a),
        )
        for a in actions
    ]
    return TableSelect("do", table.id, version, tag, options=options, placeholder=placeholder, row=row)


def decision_items(
    table: TableRow,
    legal: Sequence[Act],
    version: int,
    pending: str | None,
    first_row: int,
    state: dict[str, Any] | None = None,
) -> list[Item]:
    """Components for the awaited seat's legal actions, from row `first_row` to row 4."""
    rows = 5 - first_row
    items: list[Item] = []
    if pending is not None:
        # a pending choice: buttons when they fit (four rows of five), else menus of 25
        if len(legal) <= rows * BUTTONS_PER_ROW and all(_fits(table, version, _notation(a)) for a in legal):
            for i, a in enumerate(legal):
                items.append(
                    TableButton(
                        "do",
                        table.id,
                        version,
                        _notation(a),
                        label=GAME.describe_action(a),
                        emoji=EMOJI.get(a.parts[0]),
                        style=_button_style(a),
                        row=first_row + i // BUTTONS_PER_ROW,
                    )
                )
            return items
        prompt = PENDING_PROMPTS.get(pending, "Choose…")
        chunks = [legal[i : i + SELECT_SIZE] for i in range(0, len(legal), SELECT_SIZE)][:rows]
        for n, chunk in enumerate(chunks):
            suffix = f" ({n + 1}/{len(chunks)})" if len(chunks) > 1 else ""
            items.append(_select(table, version, f"p{n}", chunk, prompt + suffix, first_row + n))
        return items
    # the Yang phase: one menu per kind of step, and End turn as a button on the last row
    row = first_row
    for tag, verbs, placeholder in TURN_GROUPS:
        group = sorted((a for a in legal if a.parts[0] in verbs), key=lambda a: verbs.index(a.parts[0]))
        for n in range(0, len(group), SELECT_SIZE):
            if row >= 4:
                break
            chunk = group[n : n + SELECT_SIZE]
            items.append(_select(table, version, f"{tag}{n}", chunk, placeholder, row, state))
            row += 1
    # End turn; on the centre tile with Power tokens there, also "take only k of them" (all or part)
    for a in [a for a in legal if a.parts[0] == "end"][:BUTTONS_PER_ROW]:
        items.append(
            TableButton(
                "do",
                table.id,
                version,
                _notation(a),
                label=N_("End turn") if len(a.parts) == 1 else N_("End, take {parts} Power token(s)", parts=a.parts[1]),
                emoji=EMOJI["end"],
                style=discord.ButtonStyle.secondary,
                row=min(row, 4),
            )
        )
    return items


class GhostUI(GameUI):
    """The board offers the awaited Taoist's choices; the Play panel offers the clicking seat's own."""

    def board_items(self, table: TableRow, view: dict[str, Any]) -> list[Item]:
        if table.state is None or view.get("result") is not None:
            return []
        state = _state(table)
        seats = sorted(GAME.to_act(state))
        if len(seats) != 1 and not GAME.shared_decision(state):
            return []
        legal = GAME.legal_actions(state, seats[0])
        pending = state["pending"]["kind"] if state["pending"] else None
        return decision_items(table, legal, table.version, pending, first_row=1, state=state)

    def panel_items(
        self, game: Game[Any, Any], table: TableRow, seat: int, legal: Sequence[Any], page: int
    ) -> list[Item]:
        state = _state(table)
        pending = state["pending"]["kind"] if state["pending"] else None
        version = table.awaited.get(seat, table.version)
        return decision_items(table, list(legal), version, pending, first_row=0, state=state)


UI = GhostUI()


def _choice(action: Act, value: str) -> app_commands.Choice[str]:
    return choice(GAME.describe_action(action), value[:100])


class GhostCog(GameCog, group_name="ghost", group_description=N_("Ghost Stories: defend the village as Taoist monks")):
    game_key = KEY

    async def _legal(self, interaction: discord.Interaction) -> tuple[TableRow, list[Act]]:
        table = await self.table_here(interaction)
        return table, self.bot.service.legal_for(table, interaction.user.id)

    async def _choices(
        self,
        interaction: discord.Interaction,
        current: str,
        pick: Callable[[Act], str | None],
    ) -> list[app_commands.Choice[str]]:
        """Autocomplete: the legal actions `pick` accepts (it returns the option's value)."""
        try:
            _table, legal = await self._legal(interaction)
        except GameError:
            return []
        needle = current.strip().lower()
        out: list[app_commands.Choice[str]] = []
        for action in legal:
            value = pick(action)
            if value is None:
                continue
            choice = _choice(action, value)
            if needle in f"{choice.name} {choice.value}".lower():
                out.append(choice)
        return out[:25]

    async def _only(self, interaction: discord.Interaction, verbs: tuple[str, ...], what: str) -> str:
        """The notation of the single legal action with one of `verbs`, for a command given no value."""
        _table, legal = await self._legal(interaction)
        found = [a for a in legal if a.parts[0] in verbs]
        if not found:
            raise InvalidInput(N_("You cannot {what} right now.", what=what))
        if len(found) > 1:
            options = "; ".join(f"`{_notation(a)}`" for a in found[:8])
            raise InvalidInput(
                N_(
                    "There are several ways to {what}: {options}. Pick one in the list of the command.",
                    what=what,
                    options=options,
                )
            )
        return _notation(found[0])

    # -- the turn ------------------------------------------------------------------------------------
    @app_commands.command(name="move", description=N_("Move your Taoist to a village tile (before acting)"))
    @app_commands.describe(tile=N_("A tile such as B2 (the list shows where you may go)"))
    async def move(self, interaction: discord.Interaction, tile: str) -> None:
        if tile_index(tile) is None:
            raise InvalidInput(
                N_("{strip!r} is not a village tile: tiles are A1…C3 (column, row).", strip=tile.strip()[:20])
            )
        await self.play(interaction, f"move {tile.strip()}")

    @move.autocomplete("tile")
    async def _move_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        choices = await self._choices(
            interaction, current, lambda a: a.parts[1].upper() if a.parts[0] == "move" else None
        )
        try:  # name what each tile faces, as the board's menu does
            table = await self.table_here(interaction)
            state = _state(table)
        except GameError:
            return choices
        out = []
        for c in choices:
            desc = option_description(state, Act(("move", c.value.lower())))
            out.append(choice(f"{c.name} — {desc}" if desc else c.name, c.value))
        return out

    @app_commands.command(
        name="exorcise", description=N_("Roll the Tao dice to exorcise the ghost(s) facing your tile")
    )
    @app_commands.describe(
        target=N_("A ghost space such as red2, or two from a corner (the list shows what each needs)")
    )
    async def exorcise(self, interaction: discord.Interaction, target: str | None = None) -> None:
        if target is None:
            await self.play(interaction, await self._only(interaction, ("exorcise",), "exorcise"))
            return
        spaces = target.replace(",", " ").split()
        if not spaces or any(space_index(x) is None for x in spaces):
            raise InvalidInput(
                N_(
                    "{strip!r} is not a ghost space: spaces are red1…red3, yellow1…, green1…, blue1….",
                    strip=target.strip()[:30],
                )
            )
        await self.play(interaction, "exorcise " + " ".join(spaces))

    @exorcise.autocomplete("target")
    async def _exorcise_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._choices(
            interaction, current, lambda a: " ".join(a.parts[1:]) if a.parts[0] == "exorcise" else None
        )

    @app_commands.command(name="villager", description=N_("Ask for the help of the villager of your tile"))
    @app_commands.describe(choice=N_("What to ask for, when the help needs a choice (a colour, a space, a board…)"))
    async def villager(self, interaction: discord.Interaction, choice: str | None = None) -> None:
        if choice is None:
            await self.play(interaction, await self._only(interaction, ("help",), N_("ask the villager for help")))
            return
        await self.play(interaction, f"help {choice.strip()}")

    @villager.autocomplete("choice")
    async def _villager_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._choices(
            interaction, current, lambda a: " ".join(a.parts[1:]) if a.parts[0] == "help" and len(a.parts) > 1 else None
        )

    @app_commands.command(
        name="buddha", description=N_("Place a Buddha from your board on an empty space facing your tile")
    )
    @app_commands.describe(space=N_("A ghost space such as green3"))
    async def buddha(self, interaction: discord.Interaction, space: str | None = None) -> None:
        if space is None:
            await self.play(interaction, await self._only(interaction, ("buddha",), N_("place a Buddha")))
            return
        if space_index(space) is None:
            raise InvalidInput(
                N_("{strip!r} is not a ghost space: spaces are red1…red3, yellow1…, …", strip=space.strip()[:20])
            )
        await self.play(interaction, f"buddha {space.strip()}")

    @buddha.autocomplete("space")
    async def _buddha_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._choices(interaction, current, lambda a: a.parts[1] if a.parts[0] == "buddha" else None)

    @app_commands.command(
        name="yinyang", description=N_("Spend your Yin-Yang token: restore a haunted tile or use any tile's help")
    )
    @app_commands.describe(target=N_("A tile such as C2, or 'restore C2' for a haunted tile"))
    async def yinyang(self, interaction: discord.Interaction, target: str) -> None:
        await self.play(interaction, f"yinyang {target.strip()}")

    @yinyang.autocomplete("target")
    async def _yinyang_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._choices(
            interaction, current, lambda a: _notation(a).split(" ", 1)[1] if a.parts[0] == "yinyang" else None
        )

    @app_commands.command(
        name="power", description=N_("Use a Taoist power: Bottomless Pockets, the Mantra, Twin Winds, a borrowed power")
    )
    @app_commands.describe(use=N_("The list shows the powers you may use now"))
    async def power(self, interaction: discord.Interaction, use: str) -> None:
        verb = use.strip().split(" ", 1)[0].lower()
        if verb not in ("pocket", "mantra", "push", "power"):
            raise InvalidInput(N_("Pick a power from the list (pocket …, mantra …, push …, power …)."))
        await self.play(interaction, use)

    @power.autocomplete("use")
    async def _power_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._choices(
            interaction,
            current,
            lambda a: _notation(a) if a.parts[0] in ("pocket", "mantra", "push", "power") else None,
        )

    @app_commands.command(name="end", description=N_("End your turn (the next Taoist's Yin phase follows)"))
    @app_commands.describe(
        tokens=N_("On the centre tile: how many of the Power tokens there to pick up (default: all)")
    )
    async def end(self, interaction: discord.Interaction, tokens: app_commands.Range[int, 0, 4] | None = None) -> None:
        await self.play(interaction, "end" if tokens is None else f"end {tokens}")

    # -- decisions -------------------------------------------------------------------------------------
    @app_commands.command(
        name="choose", description=N_("Answer the decision awaited from you (place a ghost, pay, discard…)")
    )
    @app_commands.describe(option=N_("The list shows the choices of the decision awaited from you"))
    async def choose(self, interaction: discord.Interaction, option: str) -> None:
        table = await self.table_here(interaction)
        if table.state is not None and _state(table)["pending"] is None:
            raise InvalidInput(N_("No decision is awaited: on your turn use /ghost move, /ghost exorcise, /ghost end…"))
        await self.play(interaction, option)

    @choose.autocomplete("option")
    async def _choose_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            table = await self.table_here(interaction)
        except GameError:
            return []
        if table.state is None or _state(table)["pending"] is None:
            return []
        return await self._choices(interaction, current, _notation)

    @app_commands.command(
        name="ghosts",
        description=N_("The ghosts in play (what each needs, its effects in full) and the powers (only you see it)"),
    )
    async def ghosts(self, interaction: discord.Interaction) -> None:
        table = await self.table_here(interaction)
        if table.state is None:
            raise InvalidInput(N_("The game has not started yet."))
        view = self.bot.service.view_for(table, None)
        content, rest = split_message(ghost_list(view))
        embed = discord.Embed(description=rest) if rest else None
        if embed is None:
            await interaction.response.send_message(content, ephemeral=True)
        else:
            await interaction.response.send_message(content, embed=embed, ephemeral=True)


# Each ghost icon in words, as the rules document says it (the board shows a short word or two).
EFFECT_TEXT = {
    "SUMMON": N_("another ghost arrives"),
    "HAUNTER": N_("haunter: its figure moves a step towards the village"),
    "HAUNTER_FAST": N_("fast haunter: its figure starts on the board"),
    "HAUNT_NOW": N_("haunts the tile in front of it"),
    "CURSE": N_("the curse die is rolled"),
    "LOSE_QI": N_("-1 Qi (the drawer's, or the neutral board's it lands on)"),
    "GROUP_LOSE_TAO": N_("every Taoist discards a Tao token"),
    "CAPTURE_DIE": N_("captures a Tao die until it leaves"),
    "TAO_LOCK": N_("Tao tokens are locked while it is in play"),
    "CLEAR_CIRCLE": N_("removes the Circle of Prayer token"),
    "BONE_CRACK": N_("a Tao token is discarded (Bone Cracker)"),
    "DICE_IMMUNE": N_("dice have no effect on it (tokens, the Circle and the Mantra still work)"),
    "POWER_BLOCK": N_("seals the power of its board"),
    "ALL_POWERS_BLOCK": N_("seals every Taoist's power, borrowed ones too"),
    "NO_WHITE": N_("white faces count for nothing"),
    "OPPOSITE_EMPTY": N_("can only be exorcised while the opposite space across the village is empty"),
    "NEEDS_BUDDHA": N_("can only be exorcised once it has been put on a Buddha"),
    "R_TAO1": N_("1 Tao token of your choice"),
    "R_TAO2": N_("2 Tao tokens of your choice"),
    "R_QI_OR_YY": N_("1 Qi or your Yin-Yang back"),
    "R_QI_AND_YY": N_("1 Qi and 1 Yin-Yang for the team"),
}


def effects_text(g: dict[str, Any]) -> str:
    """A ghost's effects in full: on arrival, in each Yin phase, while in play, when exorcised."""

    def words(codes: Sequence[str]) -> str:
        return ", ".join(EFFECT_TEXT.get(c, c.lower().replace("_", " ")) for c in codes)

    parts = []
    if g["arrival"]:
        parts.append(N_("on arrival: ") + words(g["arrival"]))
    if g["yin"]:
        parts.append(N_("each Yin phase of its board: ") + words(g["yin"]))
    if g["states"]:
        parts.append(N_("while in play: ") + words(g["states"]))
    curses = [c for c in g["exit"] if not c.startswith("R_")]
    rewards = [c for c in g["exit"] if c.startswith("R_")]
    if curses:
        parts.append(N_("when exorcised: ") + words(curses))
    if rewards:
        parts.append("reward: " + words(rewards))
    return "; ".join(parts)


def ghost_list(view: dict[str, Any]) -> str:
    """A text summary of the public view's ghosts, tile by tile facing, with their effects in full
    (for /ghost ghosts; the board image shows them as short words)."""
    lines = []
    tiles = {t["tile"]: t for t in view["tiles"]}
    for sp in view["spaces"]:
        g = sp["ghost"]
        if g is None:
            continue
        need = " + ".join(f"{n} {c}" for c, n in g["resistance"].items() if n) or "nothing"
        tile = tiles[sp["front"]]
        marks = []
        if g["incarnation"]:
            marks.append("incarnation")
        if sp["mantra"]:
            marks.append("Mantra")
        if g["captured"]:
            marks.append(
                N_("holds a {g} die", g=g["captured"]) if isinstance(g["captured"], str) else N_("holds a die")
            )
        if g["haunt"] is not None:
            n = g["haunts_in"]
            marks.append(N_("haunts at the {x} Yin phase of its board", x="next" if n == 1 else ordinal(n)))
        effects = effects_text(g)
        extra = f" · {', '.join(marks)}" if marks else ""
        lines.append(
            N_(
                "**{g}** ({g2}) on {sp}, facing {tile} ({upper}) — needs {need}{extra}",
                g=g["name"],
                g2=g["colour"],
                sp=sp["space"],
                tile=tile["name"],
                upper=sp["front"].upper(),
                need=need,
                extra=extra,
            )
            + (f"\n  effects: {effects}" if effects else "")
        )
    head = N_(
        "Deck: {view} cards · haunted tiles {view2}/{view3}",
        view=view["deck"],
        view2=view["haunted"],
        view3=view["haunt_limit"],
    )
    names = view.get("names") or []
    powers = ["**Powers**"]
    for b in view["boards"]:
        p = b["power"]
        seat = b["seat"]
        who = "neutral" if seat is None else (str(names[seat]) if seat < len(names) else f"seat {seat + 1}")
        sealed = "" if p["active"] else " (sealed)"
        powers.append(f"{b['colour'].capitalize()} ({who}) — {p['name']}{sealed}: {p['text']}")
    legend = N_(
        "On the board: 1R = needs 1 red (K black); yin: = in each Yin phase of its board; "
        "out: = when exorcised; +1T/+2T = Tao tokens; Qi/YY = 1 Qi or the Yin-Yang; H1–H3 "
        "= haunts in that many Yin phases of its board; D = a captured die; M = the "
        "Mantra."
    )
    return "\n".join([head, *(lines or ["No ghost is in play."]), *powers, legend])


def split_message(text: str, first: int = 2000, rest: int = 4096) -> tuple[str, str]:
    """`text` as a message's content and, when longer, an embed's description: whole lines only."""
    head: list[str] = []
    tail: list[str] = []
    size = 0
    for line in text.split("\n"):
        if not tail and size + len(line) + 1 <= first:
            head.append(line)
            size += len(line) + 1
        else:
            tail.append(line)
    more = "\n".join(tail)
    if len(more) > rest:
        more = more[: rest - 2].rsplit("\n", 1)[0] + "\n…"
    return "\n".join(head), more


async def setup(bot: Any) -> None:
    register_ui(KEY, UI)
    await bot.add_cog(GhostCog(bot))


__all__ = ["UI", "GhostCog", "GhostUI", "decision_items", "effects_text", "ghost_list", "setup", "split_message"]
