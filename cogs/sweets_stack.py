"""Sweets Stack in Discord: `/sweets` commands and the private panels for secret picks and placements.

The private panel (sent by DM when a decision is awaited, or ephemerally through **My panel** /
`/game hand` when DMs are closed) has two shapes:

* picking: the hand as an image, a select menu of the cards to pass, and the paid hand refresh;
* placing: the bucket with the incoming candy previewed at one resting place. ◀ ▶ move the preview,
  🔄 turns it (paid rotation), ✅ drops it there; select menus list every resting place (upright and
  rotated) and the swap; when the candy fits nowhere the panel says so, and which paid option saves.

The preview index travels in the custom id of the ◀ ▶ 🔄 buttons (verb `sweets_pv`), so the panel
works after a restart; every move itself goes through the platform's `do` verb (notation as value).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import N_, Msg, tr
from bot.rules import Game, GameError, InvalidInput, StaleAction, get_game
from bot.rules.sweets_stack.game import Action, card_text
from bot.store import TableRow
from cogs.common.gamecog import GameCog
from cogs.common.i18n import localize_item, reader, seat_lang
from cogs.common.ui import (
    SELECT_SIZE,
    GameUI,
    Panel,
    TableButton,
    TableSelect,
    choice,
    make_view,
    register_ui,
    render_file,
    seat_label,
)

if TYPE_CHECKING:
    from cogs.table import TableCog

GAME_KEY = "sweets_stack"
PREVIEW = "sweets_pv"  # component verb: show another resting place in the preview


def _places(legal: Sequence[Any]) -> list[Action]:
    """Resting places in a stable order: upright first, then each rotation, left to right."""
    places = [a for a in legal if isinstance(a, Action) and a.verb == "place"]
    return sorted(places, key=lambda a: (a.turns, a.col, a.row))


def _where(a: Action) -> str:
    return N_("row {row}, column {col}", row=a.row, col=a.col)


def _place_label(a: Action) -> str:
    if a.turns:
        return N_("Rotate {x}° (2 🎃), rest at {a}", x=90 * a.turns, a=_where(a))
    return N_("Rest at {a}", a=_where(a))


def _next_rotation(places: list[Action], index: int) -> int:
    """The preview index of the next orientation (cycling), nearest to the current column."""
    cur = places[index]
    turns = sorted({a.turns for a in places})
    if len(turns) < 2:
        return index
    nxt = turns[(turns.index(cur.turns) + 1) % len(turns)]
    candidates = [i for i, a in enumerate(places) if a.turns == nxt]
    return min(candidates, key=lambda i: (abs(places[i].col - cur.col), places[i].row))


class SweetsUI(GameUI):
    """The private panel of a Sweets Stack seat; `page` is the previewed resting place when placing."""

    def panel_items(
        self, game: Game[Any, Any], table: TableRow, seat: int, legal: Sequence[Any], page: int
    ) -> list[discord.ui.Item[Any]]:
        version = table.awaited.get(seat, table.version)
        if any(isinstance(a, Action) and a.verb in ("pick", "refresh") for a in legal):
            return self._pick_items(game, table, seat, legal, version)
        return self._place_items(game, table, legal, version, page)

    @staticmethod
    def _pick_items(
        game: Game[Any, Any], table: TableRow, seat: int, legal: Sequence[Any], version: int
    ) -> list[discord.ui.Item[Any]]:
        items: list[discord.ui.Item[Any]] = []
        picks = [a for a in legal if a.verb == "pick"]
        if picks:
            options = [
                discord.SelectOption(label=Msg.cat(a.card, card_text(a.card), sep=" · "), value=game.format_action(a))
                for a in picks[:SELECT_SIZE]
            ]
            items.append(
                TableSelect(
                    "do", table.id, version, "", options=options, placeholder=N_("Choose the card to pass…"), row=0
                )
            )
        if any(a.verb == "refresh" for a in legal):
            items.append(
                TableButton(
                    "do", table.id, version, "refresh", label=N_("Refresh hand (pay 1 pumpkin)"), emoji="🔄", row=1
                )
            )
        return items

    @staticmethod
    def _place_items(
        game: Game[Any, Any], table: TableRow, legal: Sequence[Any], version: int, page: int
    ) -> list[discord.ui.Item[Any]]:
        items: list[discord.ui.Item[Any]] = []
        places = _places(legal)
        row = 0
        if places:
            i = min(max(page, 0), len(places) - 1)
            cur = places[i]
            n = len(places)
            items += [
                # b/f/t keep the custom ids distinct when two buttons lead to the same place
                TableButton(PREVIEW, table.id, version, f"b{(i - 1) % n}", label="◀", row=0, disabled=n < 2),
                TableButton(PREVIEW, table.id, version, f"f{(i + 1) % n}", label="▶", row=0, disabled=n < 2),
            ]
            rot = _next_rotation(places, i)
            if rot != i:
                items.append(TableButton(PREVIEW, table.id, version, f"t{rot}", label=N_("Turn"), emoji="🔄", row=0))
            confirm = N_("Drop at {cur} ({x}/{n})", cur=_where(cur), x=i + 1, n=n)
            if cur.turns:
                confirm = N_(
                    "Drop turned {x}° at {cur}, pay 2 ({x2}/{n})", x=90 * cur.turns, cur=_where(cur), x2=i + 1, n=n
                )
            items.append(
                TableButton(
                    "do",
                    table.id,
                    version,
                    game.format_action(cur),
                    label=confirm,
                    emoji="✅",
                    style=discord.ButtonStyle.success,
                    row=0,
                )
            )
            row = 1
            upright = [a for a in places if not a.turns]
            rotated = [a for a in places if a.turns]
            for group, placeholder in (
                (upright, N_("…or choose a resting place")),
                (rotated, N_("…or rotate (2 pumpkins)")),
            ):
                for k in range(0, len(group), SELECT_SIZE):
                    if row > 3:
                        break
                    chunk = group[k : k + SELECT_SIZE]
                    options = [discord.SelectOption(label=_place_label(a), value=game.format_action(a)) for a in chunk]
                    items.append(
                        TableSelect(
                            "do", table.id, version, str(row), options=options, placeholder=placeholder, row=row
                        )
                    )
                    row += 1
        swaps = [a for a in legal if a.verb == "swap"]
        if swaps and row <= 4:
            options = [
                discord.SelectOption(
                    label=N_("Swap in {card} · {card2}", card=a.card, card2=card_text(a.card)),
                    value=game.format_action(a),
                )
                for a in swaps[:SELECT_SIZE]
            ]
            items.append(
                TableSelect(
                    "do",
                    table.id,
                    version,
                    "swap",
                    options=options,
                    placeholder=N_("Swap with a card from your hand (3 pumpkins)…"),
                    row=row,
                )
            )
            row += 1
        if any(a.verb == "overflow" for a in legal):
            items.append(
                TableButton(
                    "do",
                    table.id,
                    version,
                    "overflow",
                    label=N_("It does not fit: I am out of this round"),
                    emoji="💥",
                    style=discord.ButtonStyle.danger,
                    row=min(row, 4),
                )
            )
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
        if verb != PREVIEW:
            return False
        seat = cog.service.seat_of(table, interaction.user.id)
        if table.status != "active" or seat.seat not in table.awaited:
            raise StaleAction(N_("This panel is out of date: nothing is awaited from you now."))
        if version < table.awaited[seat.seat]:
            raise StaleAction(N_("This panel is out of date: your situation changed since it was shown."))
        try:
            index = int(arg.lstrip("bft"))
        except ValueError:
            raise InvalidInput(N_("That preview button is damaged; open your panel again with /game hand.")) from None
        await interaction.response.defer()
        panel = await build_panel(cog, table, seat.seat, index, lang=reader(interaction))
        await interaction.edit_original_response(
            content=panel.content, attachments=[panel.file] if panel.file else [], view=make_view(panel.items)
        )
        return True


UI = SweetsUI()


async def build_panel(cog: TableCog, table: TableRow, seat: int, index: int, lang: str | None = None) -> Panel:
    """The placing panel with resting place `index` previewed in the bucket (like the platform's panel),
    in its reader's language."""
    lang = lang or seat_lang(table, seat)
    game = get_game(table.game)
    view = cog.service.view_for(table, seat)
    legal = game.legal_actions(cog.service.state_of(table), seat)
    places = _places(legal)
    if places:
        index = min(max(index, 0), len(places) - 1)
        view.setdefault("you", {})["selected"] = game.format_action(places[index])
    lines = [
        N_("**{title}** · table #{id} · {table}", title=game.title, id=table.id, table=seat_label(table, seat)),
        game.status(view),
    ]
    lines.append(N_("**Your move** — choose below, or use `/sweets` or `/game move`."))
    file = await render_file(cog.bot.renderer, table.game, view, "panel.png", lang=lang)
    items = [localize_item(lang, item) for item in UI.panel_items(game, table, seat, legal, index)]
    return Panel("\n".join(tr(lang, line) for line in lines)[:2000], file, items)


# -- slash commands ---------------------------------------------------------------------------------


class SweetsCog(GameCog, group_name="sweets", group_description=N_("Sweets Stack moves")):
    game_key = GAME_KEY

    async def _choices(
        self, interaction: discord.Interaction, current: str, verbs: tuple[str, ...]
    ) -> list[app_commands.Choice[str]]:
        try:
            table = await self.table_here(interaction)
            legal = self.bot.service.legal_for(table, interaction.user.id)
        except GameError:
            return []
        game = get_game(GAME_KEY)
        needle = current.lower().strip()
        out = []
        for a in legal:
            if a.verb not in verbs:
                continue
            text = game.format_action(a)
            value = text.split(" ", 1)[1] if a.verb in ("pick", "swap") else text
            label = Msg.cat(a.card, card_text(a.card), sep=" · ") if a.card else _place_label(a)
            if needle in text.lower() or needle in label.lower():
                out.append(choice(label, value[:100]))
        return out[:25]

    @app_commands.command(name="pick", description=N_("Secretly choose the card to pass to your neighbour"))
    @app_commands.describe(card=N_("A card of your hand, e.g. R-S05"))
    async def pick(self, interaction: discord.Interaction, card: str) -> None:
        await self.play(interaction, f"pick {card.strip()}")

    @pick.autocomplete("card")
    async def _pick_cards(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._choices(interaction, current, ("pick",))

    @app_commands.command(name="refresh", description=N_("Pay 1 pumpkin: your hand goes under your deck, draw again"))
    async def refresh(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, "refresh")

    @app_commands.command(name="place", description=N_("Drop the candy you received at a resting place"))
    @app_commands.describe(spot=N_("Start typing: the list shows every place it can rest (rotations cost 2)"))
    async def place(self, interaction: discord.Interaction, spot: str) -> None:
        text = spot.strip()
        if not text.lower().startswith(("place", "rot")):
            text = f"place {text}"
        await self.play(interaction, text)

    @place.autocomplete("spot")
    async def _spots(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._choices(interaction, current, ("place",))

    @app_commands.command(
        name="swap", description=N_("Pay 3 pumpkins: swap the received candy with a card of your hand")
    )
    @app_commands.describe(card=N_("The card of your hand to place instead"))
    async def swap(self, interaction: discord.Interaction, card: str) -> None:
        await self.play(interaction, f"swap {card.strip()}")

    @swap.autocomplete("card")
    async def _swap_cards(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._choices(interaction, current, ("swap",))

    @app_commands.command(
        name="overflow", description=N_("Give up the candy that does not fit (you are out this round)")
    )
    async def overflow(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, "overflow")


async def setup(bot: commands.Bot) -> None:
    register_ui(GAME_KEY, UI)
    await bot.add_cog(SweetsCog(bot))  # type: ignore[arg-type]


__all__ = ["SweetsCog", "SweetsUI", "build_panel"]
