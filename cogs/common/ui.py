"""Shared Discord presentation: custom ids, restart-safe components, and the messages of a table.

Every component is a `DynamicItem` whose custom_id is `st:<verb>:<table>:<version>:<arg>`, so a click
is understood after a restart, and a click on an old message is recognised as stale. Nothing here holds
game state: each message is built from the store's table row and a view of the rules core.
"""

from __future__ import annotations

import importlib
import io
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.i18n import N_, SOURCE, Msg, lang_name, tr
from bot.rules import Game, Outcome, get_game
from bot.store import TableRow
from bot.tables.text import ALT_TEXT_MAX, clip, escape
from cogs.common.i18n import localize_embed, localize_item
from rendering import panels
from rendering.pool import Renderer
from rendering.pool import render_png as pool_render_png
from rendering.worker import Sample

if TYPE_CHECKING:
    from cogs.table import TableCog

# Buttons and selects need distinct prefixes: discord.py picks a DynamicItem class by template alone.
# The templates take anything after the prefix, so a damaged or forged id is still answered (with a
# clean refusal) instead of being ignored, which Discord would show as "This interaction failed".
BUTTON_ID = re.compile(r"st:(?P<rest>.*)", re.DOTALL)
SELECT_ID = re.compile(r"ss:(?P<rest>.*)", re.DOTALL)
PARTS = re.compile(r"(?P<verb>[a-z_]{1,20}):(?P<table>\d{1,19}):(?P<version>\d{1,12}):(?P<arg>.{0,90})", re.DOTALL)
BAD_ID = "bad_id"  # the verb of a component whose custom_id could not be read
LOBBY_VERBS = ("join", "leave", "addbot", "cancel", "opt", "start")
MAX_BUTTONS = 5
SELECT_SIZE = 25
SELECTS_PER_PAGE = 4
EMBED_COLOUR = discord.Colour.from_rgb(255, 140, 26)


LABEL_MAX = 80  # a button's label (Discord's limit)
OPTION_MAX = 100  # a select option's label or description, an autocomplete choice's name


def fit_label(text: str, limit: int = OPTION_MAX) -> str:
    """`text` within Discord's `limit` characters, cut after the last whole word that fits, with "…".

    Discord refuses longer labels; a plain slice would cut "Exorcise the Ghoul" into "Exorcise the Gh".
    A text with no space before the limit (a long name, Chinese) is cut at the limit. A message is
    fitted after its translation (in every language)."""
    if isinstance(text, Msg):
        return text.then(lambda s: fit_label(s, limit))
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if text[limit - 1] != " " and " " in cut:
        cut = cut[: cut.rfind(" ")]
    return cut.rstrip(" ,;:·—-(") + "…"


def fit_option(option: discord.SelectOption) -> discord.SelectOption:
    """The option with its label and description fitted (`fit_label`)."""
    option.label = fit_label(option.label)
    if option.description:
        option.description = fit_label(option.description)
    return option


def choice(name: str, value: str) -> app_commands.Choice[str]:
    """An autocomplete choice: its name fitted at a word (`fit_label`); the value is notation and is
    never cut (a value over 100 characters is not offered)."""
    return app_commands.Choice(name=fit_label(name), value=value)


def custom_id(verb: str, table_id: int, version: int = 0, arg: str = "", prefix: str = "st") -> str:
    cid = f"{prefix}:{verb}:{table_id}:{version}:{arg}"
    if len(cid) > 100:
        raise ValueError(f"custom_id too long: {cid!r}")
    return cid


def parse_custom_id(rest: str) -> tuple[str, int, int, str]:
    """(verb, table, version, arg) of a custom_id after its prefix; (BAD_ID, 0, 0, "") if it is not ours."""
    m = PARTS.fullmatch(rest)
    if m is None:
        return BAD_ID, 0, 0, ""
    return m["verb"], int(m["table"]), int(m["version"]), m["arg"]


def _cog(interaction: discord.Interaction) -> TableCog:
    cog = interaction.client.get_cog("TableCog")  # type: ignore[attr-defined]
    assert cog is not None, "the table cog is not loaded"
    return cog  # type: ignore[no-any-return]


class TableButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_ID):
    """Any button of a table; the table cog routes it by verb."""

    def __init__(
        self,
        verb: str,
        table_id: int,
        version: int = 0,
        arg: str = "",
        *,
        label: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        row: int | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=fit_label(label, LABEL_MAX),
                style=style,
                emoji=emoji,
                custom_id=custom_id(verb, table_id, version, arg),
                disabled=disabled,
            ),
            row=row,
        )
        self.verb, self.table_id, self.version, self.arg = verb, table_id, version, arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TableButton:
        return cls(*parse_custom_id(match["rest"]), label="?")

    async def callback(self, interaction: discord.Interaction) -> None:
        await _cog(interaction).on_component(interaction, self.verb, self.table_id, self.version, self.arg, [])


class TableSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_ID):
    """Any select menu of a table; the chosen values travel with the click."""

    def __init__(
        self,
        verb: str,
        table_id: int,
        version: int = 0,
        arg: str = "",
        *,
        options: Sequence[discord.SelectOption] = (),
        placeholder: str = "Choose…",
        row: int | None = None,
    ) -> None:
        opts = [fit_option(o) for o in options] or [discord.SelectOption(label="…", value="-")]
        super().__init__(
            discord.ui.Select(
                custom_id=custom_id(verb, table_id, version, arg, prefix="ss"),
                options=opts,
                placeholder=fit_label(placeholder, 150),
                min_values=1,
                max_values=1,
            ),
            row=row,
        )
        self.verb, self.table_id, self.version, self.arg = verb, table_id, version, arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TableSelect:
        return cls(*parse_custom_id(match["rest"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = list(self.item.values)
        await _cog(interaction).on_component(interaction, self.verb, self.table_id, self.version, self.arg, values)


def make_view(items: Sequence[discord.ui.Item[Any]]) -> discord.ui.View:
    """A timeout-free view; empty when there is nothing to click (which also clears old components)."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


# -- rendering ------------------------------------------------------------------------------------


def renderer_module(game_key: str) -> ModuleType:
    """`rendering.<game key>` if the game ships one, else the generic card."""
    return importlib.import_module(panels.renderer_name(game_key))


def render_png(game_key: str, view: dict[str, Any], lang: str = SOURCE) -> bytes:
    """The renderer's image in `lang`, drawn here (tests, benchmarks; the bot uses `render_file`)."""
    return pool_render_png(renderer_module(game_key).__name__, view, lang)


def warm_samples(games: Sequence[Game[Any, Any]]) -> list[Sample]:
    """One opening board (and, with secrets, one seat's panel) per game, for the render workers to
    draw before the first real request: fonts, static layers and common glyphs are then cached."""
    samples: list[Sample] = []
    for game in games:
        options = game.check_options({})
        state = game.new(game.min_players, 1, options)
        names = [f"Player {i + 1}" for i in range(game.min_players)]
        for seat in (None, 0) if game.has_private_info else (None,):
            view = game.view(state, seat)
            if seat is None:
                view = game.lasting_view(view, options)
            view.setdefault("players", game.min_players)
            view.setdefault("title", game.title)
            view["names"] = names
            samples.append((renderer_module(game.key).__name__, view))
    return samples


async def render_file(
    renderer: Renderer,
    game_key: str,
    view: dict[str, Any],
    name: str = "board.png",
    *,
    description: str | None = None,
    lang: str = SOURCE,
) -> discord.File:
    """Render in the render workers (rendering/pool.py), a bounded number at a time, so the event
    loop only does I/O and interactions stay answered.

    `description` is the image's alt text (screen readers); by default the game's `alt_text` of this
    same view, so no image goes out without one and none says more than its view.
    """
    data = await renderer.png(renderer_module(game_key).__name__, view, lang)
    if description is None:
        description = alt_text(get_game(game_key), view, lang=lang)
    return discord.File(io.BytesIO(data), filename=name, description=clip(tr(lang, description), ALT_TEXT_MAX))


def alt_text(game: Game[Any, Any], view: dict[str, Any], changes: Sequence[str] = (), lang: str = SOURCE) -> str:
    """An image's alt text in `lang` within Discord's 1,024 characters (`rendering.panels.alt_text`,
    where a render worker makes a panel's too)."""
    return panels.alt_text(game, view, changes, lang, limit=ALT_TEXT_MAX)


# -- message pieces -------------------------------------------------------------------------------


def text_view(view: dict[str, Any]) -> dict[str, Any]:
    """A view for building *text* (status lines): the names escaped, so none reads as markup."""
    return {**view, "names": [escape(str(n)) for n in view.get("names") or []]}


def seat_label(table: TableRow, seat: int) -> str:
    s = table.seats[seat]
    if s.is_bot:
        return f"🤖 {escape(s.name)}"
    tag = f"<@{s.user_id}>" if s.user_id else escape(s.name)
    return f"{tag} (resigned, bot plays)" if s.resigned else tag


def board_link(table: TableRow) -> str:
    if not table.board_message_id:
        return ""
    guild = table.guild_id if table.guild_id else "@me"
    return f"https://discord.com/channels/{guild}/{table.channel_id}/{table.board_message_id}"


def lobby_embed(table: TableRow) -> discord.Embed:
    game = get_game(table.game)
    embed = discord.Embed(
        title=N_("🎃 {title} — lobby", title=game.title), description=game.summary, colour=EMBED_COLOUR
    )
    seats = "\n".join(f"{i + 1}. {seat_label(table, i)}" for i in range(len(table.seats))) or "—"
    embed.add_field(
        name=N_("Seats ({seats}/{max_players})", seats=len(table.seats), max_players=game.max_players),
        value=seats,
        inline=False,
    )
    embed.add_field(name=N_("Players"), value=f"{game.min_players}–{game.max_players}", inline=True)
    if table.options:
        embed.add_field(name=N_("Options"), value=", ".join(f"{k}: {v}" for k, v in table.options.items()), inline=True)
    status = {
        "lobby": N_(
            "Host: <@{host_id}>. Press **Join** to sit down; the host presses **Start**.", host_id=table.host_id
        ),
        "active": (
            N_("The game has started — it plays in <#{channel_id}>.", channel_id=table.channel_id)
            if table.parent_channel_id
            else N_("The game has started — see the board below.")
        ),
        "cancelled": N_("This table was cancelled."),
        "abandoned": N_("This table was abandoned."),
        "finished": N_("This game is over."),
    }[table.status]
    embed.add_field(name=N_("Status"), value=status, inline=False)
    embed.add_field(name=N_("Language"), value=lang_name(table.lang), inline=True)
    embed.set_footer(text=N_("Table #{id}", id=table.id))
    return localize_embed(table.lang, embed)  # the lobby is public: the table's language


def lobby_items(table: TableRow) -> list[discord.ui.Item[Any]]:
    if table.status != "lobby":
        return []
    game = get_game(table.game)
    items: list[discord.ui.Item[Any]] = []
    # a menu per option on four rows (the buttons take the fifth); beyond four, the rest share the last
    own = game.options if len(game.options) <= 4 else game.options[:3]
    for row, spec in enumerate(own):
        current = table.options.get(spec.name, spec.default)
        opts = [
            discord.SelectOption(label=f"{spec.name}: {c}", value=f"{spec.name}={c}", default=c == current)
            for c in spec.choices[:SELECT_SIZE]
        ]
        items.append(TableSelect("opt", table.id, 0, spec.name, options=opts, placeholder=spec.description, row=row))
    rest = game.options[len(own) :]
    if rest:
        opts = [
            discord.SelectOption(
                label=N_("{name}: {value} (current)", name=spec.name, value=c)
                if c == table.options.get(spec.name, spec.default)
                else f"{spec.name}: {c}",
                value=f"{spec.name}={c}",
            )
            for spec in rest
            for c in spec.choices
        ][:SELECT_SIZE]
        names = ", ".join(spec.name for spec in rest)
        items.append(
            TableSelect("opt", table.id, 0, "more", options=opts, placeholder=N_("More: {names}", names=names), row=3)
        )
    r = len(items)
    items += [
        TableButton("join", table.id, label=N_("Join"), style=discord.ButtonStyle.success, row=r),
        TableButton("leave", table.id, label=N_("Leave"), row=r),
        TableButton("addbot", table.id, label=N_("Add bot"), emoji="🤖", row=r),
        TableButton("start", table.id, label=N_("Start"), style=discord.ButtonStyle.primary, row=r),
        TableButton("cancel", table.id, label=N_("Cancel"), style=discord.ButtonStyle.danger, row=r),
    ]
    return [localize_item(table.lang, item) for item in items]


def outcome_text(table: TableRow, game: Game[Any, Any]) -> str:
    """The summary and the game's readable breakdown (`Game.outcome_lines`), names put in by the game."""
    out = table.outcome
    if not out:
        return N_("The table was closed before the end.") if table.status == "abandoned" else ""
    names = [("🤖 " if s.is_bot else "") + escape(s.name) for s in table.seats]
    outcome = Outcome.from_json(out)
    head = (
        N_("🏁 **Game over**")
        if outcome.cooperative
        else N_("🏁 **Game over** — {summary}", summary=game.event_text(outcome.summary, names))
    )
    lines = [head, *game.outcome_lines(outcome, names)]
    return Msg.cat(*lines, sep="\n")


@dataclass
class Panel:
    """A seat's private panel: text, image and the components of its legal actions."""

    content: str
    file: discord.File | None = None
    items: list[discord.ui.Item[Any]] = field(default_factory=list)


def action_items(
    game: Game[Any, Any], table: TableRow, legal: Sequence[Any], version: int, page: int = 0
) -> list[discord.ui.Item[Any]]:
    """Buttons for a handful of actions, else select menus of 25 grouped by verb, paged by four."""
    entries = [(game.format_action(a), game.describe_action(a)) for a in legal]
    if len(entries) <= MAX_BUTTONS and all(len(custom_id("do", table.id, version, t)) <= 100 for t, _ in entries):
        return [
            TableButton("do", table.id, version, text, label=label, style=discord.ButtonStyle.primary, row=0)
            for text, label in entries
        ]
    entries.sort(key=lambda e: e[0].split(" ", 1)[0])  # group by verb, keep order within a verb
    chunks = [entries[i : i + SELECT_SIZE] for i in range(0, len(entries), SELECT_SIZE)]
    pages = max(1, -(-len(chunks) // SELECTS_PER_PAGE))
    page = min(max(page, 0), pages - 1)
    items: list[discord.ui.Item[Any]] = []
    for row, chunk in enumerate(chunks[page * SELECTS_PER_PAGE : (page + 1) * SELECTS_PER_PAGE]):
        verbs = sorted({t.split(" ", 1)[0] for t, _ in chunk})
        options = [discord.SelectOption(label=label, value=text[:100]) for text, label in chunk]
        placeholder = f"Choose: {' / '.join(verbs)}"
        items.append(TableSelect("do", table.id, version, "", options=options, placeholder=placeholder, row=row))
    if pages > 1:
        items.append(
            TableButton("page", table.id, version, str(page - 1), label="◀ Previous", row=4, disabled=page == 0)
        )
        items.append(
            TableButton(
                "page",
                table.id,
                version,
                str(page + 1),
                label=f"Next ▶ ({page + 1}/{pages})",
                row=4,
                disabled=page >= pages - 1,
            )
        )
    return items


CONFIRMED = "cf"  # a move the player confirmed: it is played without asking again
CANCELLED = "cx"  # a confirmation cancelled: arg "p" shows the panel again, else "nothing changed"


def confirm_items(
    table_id: int, version: int, notation: str, label: str, *, panel: bool
) -> list[discord.ui.Item[Any]] | None:
    """**Yes, <action>** (the same move and version, played without asking again) and **Cancel**;
    None when the move's notation does not fit in a custom_id (the click is then played as it is)."""
    first = label.split(" ", 1)[0]
    if first[:1].isupper() and not any(c.isupper() for c in first[1:]):
        label = label[:1].lower() + label[1:]  # "Yes, end your turn", but "Yes, Yin-Yang: …"
    try:
        yes = TableButton(
            CONFIRMED, table_id, version, notation, label=f"Yes, {label}", style=discord.ButtonStyle.danger, row=0
        )
    except ValueError:
        return None
    no = TableButton(CANCELLED, table_id, version, "p" if panel else "", label=N_("Cancel"), row=0)
    return [yes, no]


ComponentHook = Callable[[TableRow, dict[str, Any]], list[discord.ui.Item[Any]]]


class GameUI:
    """How a game looks in Discord beyond the generic board; game cogs register a subclass."""

    def board_items(self, table: TableRow, view: dict[str, Any]) -> list[discord.ui.Item[Any]]:
        """Extra public components on the board (anyone may click; the gate decides)."""
        return []

    def panel_items(
        self, game: Game[Any, Any], table: TableRow, seat: int, legal: Sequence[Any], page: int
    ) -> list[discord.ui.Item[Any]]:
        """The components of a seat's private panel; by default every legal action, paged."""
        return action_items(game, table, legal, table.awaited.get(seat, table.version), page)

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
        """Handle a game-specific component verb; return False if the verb is not this game's.

        To make a move, call `await cog.play(interaction, notation, version=version, from_panel=True)`.
        Raise GameError for bad input: the cog answers it ephemerally.
        """
        return False


_UIS: dict[str, GameUI] = {}
_DEFAULT_UI = GameUI()


def register_ui(game_key: str, ui: GameUI) -> None:
    _UIS[game_key] = ui


def ui_for(game_key: str) -> GameUI:
    return _UIS.get(game_key, _DEFAULT_UI)
