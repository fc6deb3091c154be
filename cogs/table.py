"""The `/game` commands, the lobby, the board and private panels: every game plays through here.

The cog only translates: Discord input -> table service call -> messages built from views. Errors that
players cause (`GameError`) become specific ephemeral replies in one place (`_fail`); anything else is
logged with its traceback and answered with a short apology.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import os
import secrets
import socket
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot.app import SpookyBot
from bot.config import REPO_ROOT
from bot.i18n import N_, SOURCE, Msg, lang_for, lang_name, languages, localized_path, t, tr
from bot.rules import GAMES, Game, GameError, InvalidInput, StaleAction, get_game
from bot.rules.base import place_mark
from bot.rules.thinking import shipped
from bot.store import SeatRow, TableRow
from bot.tables import AlreadyApplied, Change, Moment, NotAllowed, TableService, UnknownTable, fair, stats
from bot.tables.locks import KeyedLocks
from bot.tables.text import ALT_TEXT_MAX, CONTENT_MAX, EMBED_DESCRIPTION_MAX, EMBED_FIELD_MAX, clip, echo, escape
from cogs.common import ending, replay
from cogs.common.i18n import (
    guild_default,
    localize_embed,
    localize_item,
    localized,
    localized_choices,
    reader,
    seat_lang,
)
from cogs.common.ui import (
    BAD_ID,
    CANCELLED,
    CONFIRMED,
    EMBED_COLOUR,
    LOBBY_VERBS,
    GameUI,
    Panel,
    TableButton,
    TableSelect,
    alt_text,
    board_link,
    choice,
    confirm_items,
    lobby_embed,
    lobby_items,
    make_view,
    outcome_text,
    render_file,
    renderer_module,
    seat_label,
    text_view,
    ui_for,
    warm_samples,
)
from rendering.panels import BoardJob, BoardParts, PanelJob, PanelParts, panel_parts

log = logging.getLogger(__name__)

DM_CLOSED = 50007
ALREADY_ACKNOWLEDGED = 40060  # another process (a deploy overlap) answered this interaction first
UNKNOWN_INTERACTION = 10062  # answered too late: Discord has already told the player it failed
OLD_MESSAGE_EDITS = 30046  # Discord refuses more edits of a message older than an hour
MOVE_CHOICES_KEPT = 32  # tables (moves being typed now) whose autocomplete choices are kept (`_every_choice`)
MoveChoice = tuple[tuple[str, str, str], app_commands.Choice[str]]  # (texts a needle is matched in, the choice)
LOG_LINES_ON_BOARD = 8
LOG_LINES_ON_LIVE_BOARD = 16  # a live board is the only record of what bots turned up
MOVE_MAX = 100  # a typed move: longer than any notation (the option declares it, Discord enforces it)
OPTIONS_MAX = 200
DM_RETRY_SECONDS = 6 * 3600  # a "DMs closed" mark is tried again after this long
UNREACHABLE_AFTER = 3  # consecutive 403/404 from a table's channel before background passes give up on it
BACKOFF_MAX = 3600.0
CLAIM_LEASE = 120.0  # seconds a background claim on a table holds (far more than one table's work takes)
CLAIM_BATCH = 20  # tables claimed at a time, so every claim's work ends well within its lease
GLIMPSE = "glimpse"
FOLLOW = "follow"
MINE = "mine"
MINE_PAGE = 25
STATS = "stats"
STATS_PAGE = 10
GLIMPSE_SCALE = 1.0  # seconds per second of a table's glimpse time (tests shrink it)


@dataclass(frozen=True)
class Drawn:
    """A change's board being made (`TableCog._draw_board`): the task giving its image (with its alt
    text) and its status line, and its lasting public view when it was made here (else None)."""

    task: asyncio.Task[tuple[discord.File, str]]
    view: dict[str, Any] | None


@dataclass(frozen=True)
class Then:
    """What an answer still has to do after its first message (see `TableCog.answer_then_deliver`)."""

    rest: Awaitable[None]


def parse_options(text: str | None) -> dict[str, str]:
    """`difficulty=Hell advanced=every` -> dict; refuses anything else with an example."""
    out: dict[str, str] = {}
    for part in (text or "").replace(",", " ").split():
        key, sep, value = part.partition("=")
        if not sep or not key or not value:
            raise InvalidInput(
                N_("Cannot read option “{part}”: write name=value, e.g. difficulty=Normal.", part=echo(part))
            )
        out[key.strip().lower()] = value.strip()
    return out


def quote_input(message: str, text: str) -> str:
    """A rules core's error may repeat the player's input as typed: show it clipped and escaped."""
    safe = f"“{echo(text)}”"
    for raw in (repr(text), f'"{text}"', text):
        if raw and raw in message:
            return message.replace(raw, safe)
    return message


class TableCog(commands.GroupCog, group_name="game", group_description=N_("Play board games at this table")):
    def __init__(self, bot: SpookyBot) -> None:
        self.bot = bot
        self._deliver_locks = KeyedLocks()
        self._tasks: list[asyncio.Task[None]] = []
        self._failures: dict[int, tuple[int, float]] = {}  # table -> (consecutive failures, retry after)
        self._glimpses: set[asyncio.Task[None]] = set()  # glimpses being shown (each clears itself)
        # `_every_choice`'s, by table version: (the parsed state they were made from, the choices)
        self._choices: OrderedDict[tuple[Any, ...], tuple[Any, list[MoveChoice]]] = OrderedDict()
        self._stats: stats.StatsBook | None = None
        # who holds a background claim (Store.claim): unique per process, even across restarts
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        super().__init__()

    @property
    def service(self) -> TableService:
        return self.bot.service

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(TableButton, TableSelect)
        try:
            samples = warm_samples(list(GAMES.values()))
        except Exception:  # a warm-up only saves time: never a reason not to load
            log.exception("no warm-up views for the render workers")
            samples = []
        self.bot.renderer.start(samples)
        self._tasks.append(asyncio.create_task(self._resume_tables()))
        self._tasks.append(asyncio.create_task(self._reminder_loop()))

    @staticmethod
    async def _show_page(
        interaction: discord.Interaction, embed: discord.Embed, items: list[discord.ui.Item[Any]], *, edit: bool
    ) -> None:
        """A paged ephemeral (My games, stats): the first page is sent, ◀ ▶ edit it in place."""
        kwargs = localized(reader(interaction), embed=embed, view=make_view(items))
        if edit:
            await interaction.response.edit_message(**kwargs)
        else:
            await interaction.response.send_message(**kwargs, ephemeral=True)

    async def cog_unload(self) -> None:
        # the background passes are stopped *and waited for*: their cleanup (releasing claimed tables)
        # must run before the bot closes the store, not race it ("Cannot operate on a closed database")
        running = [task for task in self._tasks if not task.done()]
        for task in running:
            task.cancel()
        if running:
            await asyncio.wait(running, timeout=5)
        # a glimpse still showing is taken out now (its fade runs at once), not left on screen
        glimpses = list(self._glimpses)
        for task in glimpses:
            task.cancel()
        if glimpses:
            await asyncio.wait(glimpses, timeout=3)

    # ------------------------------------------------------------------ slash commands
    @app_commands.command(name="new", description=N_("Open a table for a game in this channel"))
    @app_commands.describe(
        game=N_("Which game"),
        options=N_("Game options, e.g. difficulty=Normal (see /game rules)"),
        language=N_("The language of the lobby, the board and the log (default: the server's)"),
        thread=N_("Play in a thread of this channel (default: yes, where I may open threads)"),
    )
    @app_commands.choices(language=[app_commands.Choice(name=lang_name(lang), value=lang) for lang in languages()])
    async def new(
        self,
        interaction: discord.Interaction,
        game: app_commands.Range[str, 1, 100],
        options: app_commands.Range[str, 0, OPTIONS_MAX] | None = None,
        thread: bool | None = None,
        language: str | None = None,
    ) -> None:
        if interaction.channel_id is None or interaction.guild_id is None:
            raise InvalidInput(N_("Tables live in server channels or threads; run /game new there."))
        key = self._game_key(game)
        may_thread = self._may_open_thread(interaction)
        if thread and not may_thread:
            raise InvalidInput(
                N_(
                    "I cannot open a thread here (this is a thread already, or I lack Create Public "
                    "Threads). Run /game new without thread:, or give me that permission."
                )
            )
        table = await self.service.new_table(
            game_key=key,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            host_id=interaction.user.id,
            host_name=interaction.user.display_name,
            options=parse_options(options),
            wants_thread=may_thread if thread is None else thread,
            lang=lang_for(language) if language else guild_default(interaction),
            host_locale=interaction.locale.value,
        )
        callback = await interaction.response.send_message(
            **localized(reader(interaction), embed=lobby_embed(table), view=make_view(lobby_items(table)))
        )
        message_id = getattr(callback.resource, "id", None)
        if message_id:
            await self.service.store.set_message(table.id, lobby=message_id)

    @staticmethod
    def _may_open_thread(interaction: discord.Interaction) -> bool:
        """A game gets its own thread by default where the bot may create public threads."""
        perms = interaction.app_permissions
        return (
            isinstance(interaction.channel, discord.TextChannel)
            and perms.create_public_threads
            and perms.send_messages_in_threads
        )

    async def _into_thread(self, change: Change) -> Change:
        """At the start, a table that wants a thread moves into one opened on its lobby message (the
        lobby and the final result stay in the parent channel). If Discord refuses, it plays here."""
        table = change.table
        if not table.wants_thread or table.parent_channel_id is not None or not table.lobby_message_id:
            return change
        lobby = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        name = clip(N_("{title} · table #{id}", title=get_game(table.game).title, id=table.id), 100)
        try:
            thread = await lobby.get_partial_message(table.lobby_message_id).create_thread(
                name=name, auto_archive_duration=10080
            )
        except discord.HTTPException as err:
            log.info("table %s: no thread (%s %s); the game plays in the channel", table.id, err.status, err.code)
            return change
        await self.service.store.move_to_thread(table.id, thread.id)
        return replace(change, table=await self.service.table(table.id))

    @new.autocomplete("game")
    @localized_choices
    async def _game_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [
            choice(
                N_(
                    "{title} ({min_players}–{max_players} players)",
                    title=g.title,
                    min_players=g.min_players,
                    max_players=g.max_players,
                ),
                g.key,
            )
            for g in sorted(GAMES.values(), key=lambda g: g.title)
            if current.lower() in g.title.lower() or current.lower() in g.key
        ][:25]

    @app_commands.command(name="join", description=N_("Sit down at the table in this channel"))
    async def join(self, interaction: discord.Interaction) -> None:
        table = await self.service.table_in_channel(self._channel(interaction))
        table = await self.service.join(
            table.id, interaction.user.id, interaction.user.display_name, locale=interaction.locale.value
        )
        await interaction.response.send_message(
            **localized(reader(interaction), embed=lobby_embed(table), view=make_view(lobby_items(table)))
        )

    @app_commands.command(name="leave", description=N_("Leave the lobby in this channel"))
    async def leave(self, interaction: discord.Interaction) -> None:
        table = await self.service.table_in_channel(self._channel(interaction))
        table = await self.service.leave(table.id, interaction.user.id)
        await interaction.response.send_message(
            **localized(reader(interaction), embed=lobby_embed(table), view=make_view(lobby_items(table)))
        )

    @app_commands.command(name="start", description=N_("Start the game (host only)"))
    async def start(self, interaction: discord.Interaction) -> None:
        table = await self.service.table_in_channel(self._channel(interaction))
        change = await self._into_thread(await self.service.start(table.id, interaction.user.id, bots=False))
        await self.answer_then_deliver(
            interaction,
            change,
            lambda: interaction.response.send_message(
                **localized(reader(interaction), embed=lobby_embed(change.table))
            ),
            bots=True,
        )

    @app_commands.command(name="status", description=N_("Post the current board here again"))
    @app_commands.describe(text=N_("Only for you, as text instead of an image (slow connection, screen reader)"))
    async def status(self, interaction: discord.Interaction, text: bool = False) -> None:
        table = await self.service.table_for_user(interaction.channel_id, interaction.user.id)
        if table.status == "lobby":
            await interaction.response.send_message(
                **localized(reader(interaction), embed=lobby_embed(table), view=make_view(lobby_items(table)))
            )
            return
        if text:
            await interaction.response.send_message(
                **localized(reader(interaction), embed=await self.text_board(table), ephemeral=True)
            )
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with self.bot.busy, self.delivery_lock(table.id):  # every board is posted under it (`_board`)
            await self.post_board(Change(table=table), repost=True)
        await interaction.followup.send(
            **localized(reader(interaction), content=N_("Here is the current board."), ephemeral=True)
        )

    @app_commands.command(name="hand", description=N_("Open your private panel (hand, secret choices)"))
    async def hand(self, interaction: discord.Interaction) -> None:
        table = await self.service.table_for_user(interaction.channel_id, interaction.user.id)
        await self._send_panel(interaction, table)

    @app_commands.command(name="move", description=N_("Make any legal move by its notation"))
    @app_commands.describe(action=N_("Start typing: the list shows your legal moves"))
    async def move(self, interaction: discord.Interaction, action: app_commands.Range[str, 1, MOVE_MAX]) -> None:
        await self.play(interaction, action)

    async def play(
        self,
        interaction: discord.Interaction,
        text: str,
        *,
        version: int | None = None,
        from_panel: bool = False,
        table_id: int | None = None,
    ) -> None:
        """Make a move given in notation: acknowledge, commit, then always answer and deliver.

        A component passes the `table_id` its custom_id carries, and the move is made at that table and
        no other; a typed command plays at the table here (or, in DMs, the user's latest). Errors before
        the commit propagate to the caller's error handler (`GameCog` routes them to `fail`); nothing
        after the commit can lose the move or leave the table unshown.
        """
        async with self.bot.busy:
            text = " ".join(text.split())
            if len(text) > MOVE_MAX:
                raise InvalidInput(
                    N_("That is not a move (“{text}”): start typing and pick one from the list.", text=echo(text))
                )
            if not from_panel:
                # a typed move is acknowledged before anything is read (a mistake then comes as the
                # deferred answer, ephemeral like any): the callback never waits for the store or a queue.
                # The table (and whether the mover is away) is read while the acknowledgement is on its
                # way: the reads' tasks start after the ack's request is under way, and the ack never
                # waits for them. Two round trips to the store saved before the answer.
                acking = asyncio.create_task(self.ack(interaction, thinking=True))
                reading = asyncio.create_task(self._table_of(interaction, table_id))
                away = self._away(interaction)
                acked = False
                try:
                    acked = await acking
                finally:
                    if not acked:  # nothing is applied: the reads are dropped quietly
                        for task in (reading, away):
                            task.cancel()
                            task.add_done_callback(lambda t: t.cancelled() or t.exception())
                if not acked:
                    return
                try:
                    table = await reading
                except BaseException:
                    away.cancel()
                    away.add_done_callback(lambda t: t.cancelled() or t.exception())
                    raise
                await self._apply_and_answer(
                    interaction, table, text, version, private_surface=False, from_panel=False, away=away
                )
                return
            table = await self._table_of(interaction, table_id)
            try:
                self.service.gate(table, interaction.user.id, version)  # a mistake is answered at once
            except GameError:
                await self.service.check_fresh(interaction.id)  # unless it is this very click, counted already
                raise
            private_surface = self._private_surface(interaction, table, from_panel)
            if private_surface:
                acked = await self.ack(interaction, update=True)
            else:
                acked = await self.ack(interaction, thinking=not from_panel)
            if not acked:
                return
            await self._apply_and_answer(
                interaction, table, text, version, private_surface=private_surface, from_panel=from_panel
            )

    def _away(self, interaction: discord.Interaction) -> asyncio.Task[dict[int, float]]:
        """Is the mover away? Read while the move is made (it is seldom so: then, back once it counts)."""
        return asyncio.create_task(self.service.store.away_until([interaction.user.id], time.time()))

    async def _table_of(self, interaction: discord.Interaction, table_id: int | None) -> TableRow:
        """The table a move is for: the one its component names, else the one here (in DMs, the user's)."""
        if table_id is not None:
            return await self.service.table(table_id)
        return await self.service.table_for_user(interaction.channel_id, interaction.user.id)

    async def _apply_and_answer(
        self,
        interaction: discord.Interaction,
        table: TableRow,
        text: str,
        version: int | None,
        *,
        private_surface: bool,
        from_panel: bool,
        away: asyncio.Task[dict[int, float]] | None = None,
    ) -> None:
        """After the acknowledgement: apply and commit the move, then answer and deliver. `away`: the
        mover's time off, being read already (else it is read while the move is made)."""
        if away is None:
            away = self._away(interaction)
        try:
            change = await self.service.act(
                table.id,
                interaction.user.id,
                text,
                version=version,
                text=True,
                bots=False,
                interaction_id=interaction.id,
                table=table,  # just read: the move is tried on it (the commit checks its version)
                panel_message_id=self.dm_message_id(interaction) if private_surface else None,
            )
        except BaseException as err:
            away.cancel()
            away.add_done_callback(lambda t: t.cancelled() or t.exception())
            if isinstance(err, GameError):
                err.message = quote_input(err.message, text)
            raise
        try:
            if await away:
                await self.service.go_away(interaction.user.id, 0)  # they are playing again: back
        except Exception:  # the move counted: it is answered and shown whatever happens to this mark
            log.exception("could not end the time off of a player who moved on table %s", table.id)
        await self._after_move(interaction, change, text, private_surface=private_surface, from_panel=from_panel)

    @move.autocomplete("action")
    @localized_choices
    async def _move_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            table = await self.service.table_for_user(interaction.channel_id, interaction.user.id)
            every = self._every_choice(table, interaction.user.id, reader(interaction))
        except GameError:
            return []
        needle = current.lower().strip()
        # What they type is matched against the notation and the label as they read it (and in English).
        return [c for keys, c in every if any(needle in k for k in keys)][:25]

    def _every_choice(self, table: TableRow, user_id: int, lang: str) -> list[MoveChoice]:
        """Every legal move of the user as a choice, with the texts a typed needle is matched against.

        Discord asks again at (nearly) every keystroke of one move, each time for the same table: the
        legal moves and their labels are made once per table version (and seats, and language), kept
        for the next keystrokes; a new version is a new key, so no choice outlives its table. The entry
        holds the parsed state it was made from and is served only for that very object (`StateCache`
        gives every read of one version and state text the same one): a state rewritten in place is
        a new object, so its choices are made anew."""
        key = (
            table.id,
            table.version,
            table.status,
            user_id,
            lang,
            tuple((s.name, s.user_id, s.played_by_bot) for s in table.seats),
        )
        hit = self._choices.get(key)
        if hit is not None and hit[0] is table.state:
            self._choices.move_to_end(key)
            return hit[1]
        game = get_game(table.game)
        names = [s.name for s in table.seats]  # "Steal from P2" -> "Steal from bob" (choices are plain text)
        every: list[MoveChoice] = []
        for action in self.service.legal_for(table, user_id):
            text, label = game.format_action(action), game.event_text(game.describe_action(action), names)
            every.append(((text.lower(), label.lower(), tr(lang, label).lower()), choice(label, text[:100])))
        self._choices[key] = (table.state, every)
        if len(self._choices) > MOVE_CHOICES_KEPT:
            self._choices.popitem(last=False)
        return every

    @app_commands.command(name="log", description=N_("What has happened at this table"))
    async def log_(self, interaction: discord.Interaction) -> None:
        table = await self.service.table_for_user(interaction.channel_id, interaction.user.id)
        lines = await self.service.log(table.id, tail=25)
        lang = reader(interaction)
        text = "\n".join(f"`{seq:>3}` {tr(lang, what)}" for seq, _who, what in lines[-25:]) or t(lang, "Nothing yet.")
        await interaction.response.send_message(**localized(reader(interaction), content=text[-1900:], ephemeral=True))

    @app_commands.command(name="rules", description=N_("How to play a game, with its full rules attached"))
    @app_commands.describe(game=N_("Which game"))
    async def rules(self, interaction: discord.Interaction, game: app_commands.Range[str, 1, 100]) -> None:
        g = get_game(self._game_key(game))
        lang = reader(interaction)
        doc = REPO_ROOT / (g.rules_doc or f"docs/rules/{g.key}.md")
        if (REPO_ROOT / localized_path(doc.relative_to(REPO_ROOT).as_posix(), lang)).is_file():
            doc = REPO_ROOT / localized_path(doc.relative_to(REPO_ROOT).as_posix(), lang)
        embed = discord.Embed(title=N_("How to play {title}", title=g.title), colour=EMBED_COLOUR)
        embed.description = clip(g.how_to_play(lang), EMBED_DESCRIPTION_MAX)
        embed.add_field(name=N_("Players"), value=f"{g.min_players}–{g.max_players}", inline=True)
        opts = "\n".join(
            t(
                lang,
                "• `{name}`: {choices} (default {default}) — {description}",
                name=o.name,
                choices=", ".join(o.choices),
                default=o.default,
                description=o.description,
            )
            for o in g.options
        )
        if opts:
            embed.add_field(
                name=N_("Options for `/game new options:`"), value=clip(opts, EMBED_FIELD_MAX), inline=False
            )
        files = []
        if doc.is_file():
            files = [discord.File(doc, filename=doc.name, description=N_("The full rules of {title}", title=g.title))]
        if files:
            embed.set_footer(text=N_("The full rules, as this bot plays them, are in the attached document."))
        await interaction.response.send_message(**localized(lang, embed=embed, files=files, ephemeral=True))

    rules.autocomplete("game")(_game_choices)

    @app_commands.command(name="resign", description=N_("Resign from your game here (a bot takes your seat)"))
    async def resign(self, interaction: discord.Interaction) -> None:
        table = await self.service.table_for_user(interaction.channel_id, interaction.user.id)
        if not await self.ack(interaction):
            return
        change = await self.service.resign(table.id, interaction.user.id)
        await self.answer_then_deliver(
            interaction,
            change,
            lambda: interaction.followup.send(
                **localized(reader(interaction), content=t(reader(interaction), "You resigned."), ephemeral=True)
            ),
        )

    @app_commands.command(
        name="undo", description=N_("Take back your last move (if nobody played since and it showed nothing)")
    )
    async def undo(self, interaction: discord.Interaction) -> None:
        table = await self.service.table_for_user(interaction.channel_id, interaction.user.id)
        await self.take_back(interaction, table.id)

    @app_commands.command(name="abandon", description=N_("Close the table in this channel (host or Manage Channels)"))
    async def abandon(self, interaction: discord.Interaction) -> None:
        table = await self.service.table_in_channel(self._channel(interaction))
        manage = bool(interaction.permissions.manage_channels) if interaction.guild_id else False
        table = await self.service.abandon(table.id, interaction.user.id, can_manage_channel=manage)
        with contextlib.suppress(discord.HTTPException):
            await interaction.response.send_message(
                **localized(
                    reader(interaction),
                    content=N_(
                        "{mention} closed the {title} table.",
                        mention=interaction.user.mention,
                        title=get_game(table.game).title,
                    ),
                    allowed_mentions=discord.AllowedMentions.none(),
                )
            )
        await self.retire(table)

    @app_commands.command(
        name="mine", description=N_("Your open tables in every server, the ones waiting for you first")
    )
    async def mine(self, interaction: discord.Interaction) -> None:
        await self._mine(interaction, page=0, edit=False)

    async def _mine(self, interaction: discord.Interaction, *, page: int, edit: bool) -> None:
        """Every open table of the user, the ones awaiting them first (the longest-waiting first), with
        the game, since when, and a link to its board; 25 a page, only the user sees it."""
        tables = await self.service.store.tables_of_user(interaction.user.id)

        def key(t: TableRow) -> tuple[int, float]:
            seat = t.seat_of(interaction.user.id)
            mine = t.status == "active" and seat is not None and seat.seat in t.awaited and not seat.played_by_bot
            return (0 if mine else 1, t.updated_at)

        tables.sort(key=key)
        pages = max(1, -(-len(tables) // MINE_PAGE))
        page = min(max(page, 0), pages - 1)
        lines = []
        for row in tables[page * MINE_PAGE : (page + 1) * MINE_PAGE]:
            waiting_for_me = key(row)[0] == 0
            where = board_link(row) or f"https://discord.com/channels/{row.guild_id or '@me'}/{row.channel_id}"
            since = f"<t:{int(row.updated_at)}:R>"
            if row.status == "lobby":
                what = N_("lobby open since {since}", since=since)
            elif waiting_for_me:
                what = N_("**your move** since {since}", since=since)
            else:
                waiting = ", ".join(escape(row.seats[s].name) for s in sorted(row.awaited)) or "nobody"
                what = N_("waiting for {waiting} since {since}", waiting=waiting, since=since)
            lines.append(
                N_(
                    "• **{title}** #{id} — {what} — [board]({where})",
                    title=get_game(row.game).title,
                    id=row.id,
                    what=what,
                    where=where,
                )
            )
        embed = discord.Embed(title=N_("🎃 My games"), colour=EMBED_COLOUR)
        embed.description = Msg.cat(*lines, sep="\n") or N_("You are at no open table. `/game new` opens one.")
        mine_first = sum(1 for row in tables if key(row)[0] == 0)
        embed.set_footer(
            text=N_(
                "{tables} open · {mine_first} waiting for you · page {x}/{pages}",
                tables=len(tables),
                mine_first=mine_first,
                x=page + 1,
                pages=pages,
            )
        )
        items: list[discord.ui.Item[Any]] = []
        if pages > 1:
            items = [
                TableButton(MINE, 0, max(page - 1, 0), label=N_("◀ Previous"), disabled=page == 0),
                TableButton(
                    MINE,
                    0,
                    page + 1,
                    label=N_("Next ▶ ({x}/{pages})", x=page + 1, pages=pages),
                    disabled=page >= pages - 1,
                ),
            ]
        await self._show_page(interaction, embed, items, edit=edit)

    @app_commands.command(name="stats", description=N_("This server's leaderboard, or a player's results"))
    @app_commands.describe(
        game=N_("One game (default: all games)"),
        user=N_("Whose results to show (default: the leaderboard)"),
        me=N_("Show your own results"),
    )
    async def stats_(
        self,
        interaction: discord.Interaction,
        game: app_commands.Range[str, 1, 100] | None = None,
        user: discord.User | None = None,
        me: bool = False,
    ) -> None:
        key = self._game_key(game) if game and game.strip().lower() not in ("all", "all games") else stats.ALL
        if user is None and not me:
            await self._leaderboard(interaction, game=key, page=0, edit=False)
            return
        await self._card(interaction, key, user or interaction.user)

    stats_.autocomplete("game")(_game_choices)

    @property
    def stats_book(self) -> stats.StatsBook:
        if self._stats is None:
            self._stats = stats.StatsBook(self.service.store)
        return self._stats

    @staticmethod
    def _stats_guild(interaction: discord.Interaction) -> int:
        if interaction.guild_id is None:
            raise InvalidInput(N_("Stats are kept per server: ask in a channel of the server you play in."))
        return interaction.guild_id

    async def _leaderboard(self, interaction: discord.Interaction, *, game: str, page: int, edit: bool) -> None:
        """The server's human players of one game (or all games), best first, 10 a page; bot seats are
        counted in the footer, apart, and never rank."""
        book = await self.stats_book.book(self._stats_guild(interaction))
        records = stats.leaderboard(book, game)
        cooperative = bool(game) and (game in book.cooperative or get_game(game).cooperative)
        pages = max(1, -(-len(records) // STATS_PAGE))
        page = min(max(page, 0), pages - 1)
        lines = []
        for i, r in enumerate(records[page * STATS_PAGE : (page + 1) * STATS_PAGE], start=page * STATS_PAGE):
            parts = [N_("{won}/{played} won ({win_rate:.0%})", won=r.won, played=r.played, win_rate=r.win_rate)]
            if not cooperative:
                parts.insert(0, N_("rating **{r}**", r=stats.rating_text(r)))
            if r.best_score is not None:
                parts.append(N_("best score {best_score:g}", best_score=r.best_score))
            if r.levels_won:
                parts.append(N_("levels won: {levels}", levels=", ".join(sorted(r.levels_won))))
            lines.append(Msg.cat(f"{place_mark(i)} **{escape(r.name)}**", Msg.cat(*parts, sep=" · "), sep=" — "))
        title = get_game(game).title if game else N_("all games")
        embed = discord.Embed(title=clip(N_("🏆 Leaderboard — {title}", title=title), 256), colour=EMBED_COLOUR)
        embed.description = Msg.cat(*lines, sep="\n") or (
            N_("No finished games in this server yet.")
            if not game
            else N_("No finished {title} games in this server yet.", title=title)
        )
        bots = book.bots.get(game, stats.BotTally())
        how = N_("team wins, then best score") if cooperative else N_("OpenSkill rating (μ − 3σ)")
        embed.set_footer(
            text=N_(
                "{records} players · {game} finished tables · ranked by {how} · bot seats: "
                "{played} played, {won} won (never ranked) · page {x}/{pages}",
                records=len(records),
                game=book.tables.get(game, 0),
                how=how,
                played=bots.played,
                won=bots.won,
                x=page + 1,
                pages=pages,
            )
        )
        items: list[discord.ui.Item[Any]] = []
        if pages > 1:
            items = [
                TableButton(STATS, 0, max(page - 1, 0), game, label=N_("◀ Previous"), disabled=page == 0),
                TableButton(
                    STATS,
                    0,
                    page + 1,
                    game,
                    label=N_("Next ▶ ({x}/{pages})", x=page + 1, pages=pages),
                    disabled=page >= pages - 1,
                ),
            ]
        await self._show_page(interaction, embed, items, edit=edit)

    async def _card(self, interaction: discord.Interaction, game: str, user: discord.User | discord.Member) -> None:
        """A player's own results in this server: per game, rating, favourite game, streaks, time to move."""
        guild = self._stats_guild(interaction)
        who = escape(user.display_name)
        if user.bot:
            raise InvalidInput(N_("{who} is a bot: bot seats are counted apart and never rank.", who=who))
        c = await stats.card(self.stats_book, guild, user.id)
        games = {k: r for k, r in c.games.items() if not game or k == game}
        embed = discord.Embed(
            title=clip(N_("🎃 {display_name}'s games", display_name=user.display_name), 256), colour=EMBED_COLOUR
        )
        if not games:
            where = f" of {get_game(game).title}" if game else ""
            embed.description = N_("{who} has no finished games{where} in this server yet.", who=who, where=where)
            await interaction.response.send_message(**localized(reader(interaction), embed=embed, ephemeral=True))
            return
        lines = []
        for key, r in sorted(games.items(), key=lambda kv: (-kv[1].played, kv[0])):
            parts = [N_("{played} played, {won} won ({win_rate:.0%})", played=r.played, won=r.won, win_rate=r.win_rate)]
            if r.rating is not None:
                parts.append(N_("rating {rating}", rating=stats.rating_text(r)))
            if r.best_score is not None:
                parts.append(N_("best score {best_score:g}", best_score=r.best_score))
            if r.levels_won:
                parts.append(N_("levels won: {levels}", levels=", ".join(sorted(r.levels_won))))
            name = get_game(key).title if key in GAMES else escape(key)
            lines.append(N_("**{game}** — {parts}", game=name, parts=Msg.cat(*parts, sep=" · ")))
        overall = games[game] if game else c.overall
        assert overall is not None
        if c.favourite is not None and not game:
            fav = c.favourite
            lines.append(N_("Favourite game: **{x}**", x=get_game(fav).title if fav in GAMES else escape(fav)))
        lines.append(
            N_("Win streak: {streak} now, best {best_streak}", streak=overall.streak, best_streak=overall.best_streak)
        )
        if not game and overall.rating is not None:
            lines.append(N_("Rating over all games: {overall}", overall=stats.rating_text(overall)))
        average = c.average_move
        lines.append(
            N_("Average time to move: {average} ({moves} moves)", average=stats.duration(average), moves=c.moves)
            if average is not None
            else N_("Average time to move: no timed moves yet")
        )
        embed.description = Msg.cat(*lines, sep="\n")
        embed.set_footer(text=N_("Finished games in this server · ratings are OpenSkill (μ − 3σ); bots never rank"))
        await interaction.response.send_message(**localized(reader(interaction), embed=embed, ephemeral=True))

    @app_commands.command(name="away", description=N_("Take time off: reminders pause, and a bot may move for you"))
    @app_commands.describe(days=N_("How many days (up to 14 a month in all); 0 = I am back"))
    async def away(self, interaction: discord.Interaction, days: app_commands.Range[float, 0.0, 14.0]) -> None:
        until = await self.service.go_away(interaction.user.id, days)
        if days <= 0:
            text = N_("Welcome back: reminders and pings reach you again at all your tables.")
        else:
            text = N_(
                "You are away until <t:{until}:f> (<t:{until}:R>). At all your tables: boards say "
                "so, reminders pause, and where the host lets a bot move for quiet players (`/game "
                "remind bot_after_hours:`), it moves for you from your first missing decision. "
                "Playing a move, or `/game away days:0`, brings you back.",
                until=int(until),
            )
        await interaction.response.send_message(**localized(reader(interaction), content=text, ephemeral=True))

    @app_commands.command(name="verify", description=N_("Check that this table's dice and shuffles were fair"))
    @app_commands.describe(table=N_("A table number (default: the table here)"))
    async def verify(self, interaction: discord.Interaction, table: app_commands.Range[int, 1] | None = None) -> None:
        row = (
            await self.service.table(table)
            if table is not None
            else await self.service.table_for_user(interaction.channel_id, interaction.user.id)
        )
        if row.guild_id != interaction.guild_id and row.seat_of(interaction.user.id) is None:
            raise NotAllowed(N_("That table is in another server; ask there, or a player of it."))
        pledge = self.service.commitment_of(row)
        if pledge is None:
            raise InvalidInput(
                N_("That table was opened before the bot committed to its seeds: it cannot be verified.")
            )
        how = N_(
            "Table #{id}'s commitment is `{pledge}` = sha256 of "
            "`{FORMAT}|{game}|{id}|<seed>|<salt>`, shown since the game started.",
            id=row.id,
            pledge=pledge,
            FORMAT=fair.FORMAT,
            game=row.game,
        )
        if row.status != "finished":
            await self._tell(interaction, N_("🎲 {how} Seed and salt are revealed when the game ends.", how=how))
            return
        record = await self.service.fair_record(row.id)
        data = json.dumps(record, indent=1, sort_keys=True).encode()
        text = N_(
            "🎲 {how}\nSeed `{seed}`, salt `{seed_salt}`. The attached record lists every "
            "action; `python -m bot replay table-{id}.json` (this project's code) checks the "
            "commitment and replays every move from the seed to the final state, so every roll "
            "and shuffle is checked.",
            how=how,
            seed=row.seed,
            seed_salt=row.seed_salt,
            id=row.id,
        )
        file = discord.File(
            io.BytesIO(data), filename=f"table-{row.id}.json", description=N_("Record of table {id}", id=row.id)
        )
        await interaction.response.send_message(
            **localized(reader(interaction), content=clip(text, CONTENT_MAX), file=file, ephemeral=True)
        )

    @app_commands.command(name="replay", description=N_("Step through a table's public boards, or get it animated"))
    @app_commands.describe(table=N_("A table number (default: the table here, or the game that ended here last)"))
    async def replay_(self, interaction: discord.Interaction, table: app_commands.Range[int, 1] | None = None) -> None:
        row = (
            await self.service.table(table)
            if table is not None
            else await self.service.table_for_user(interaction.channel_id, interaction.user.id)
        )
        await replay.show(self, interaction, row.id, 0, edit=False)

    @app_commands.command(name="notify", description=N_("How often this table notifies you"))
    @app_commands.describe(
        level=N_("every decision (default), only when you are the last one awaited, or reminders only")
    )
    @app_commands.choices(
        level=[
            app_commands.Choice(name=N_("Every decision (a DM panel or a ping)"), value="every"),
            app_commands.Choice(name=N_("Only when I am the last one awaited"), value="last"),
            app_commands.Choice(name=N_("Reminders only"), value="reminders"),
        ]
    )
    async def notify(self, interaction: discord.Interaction, level: app_commands.Choice[str]) -> None:
        table = await self.service.table_for_user(interaction.channel_id, interaction.user.id)
        await self.service.set_notify(table.id, interaction.user.id, level.value)
        text = {
            "every": N_("You will be told of every decision awaited from you at this table."),
            "last": N_("You will be told only when everyone else has decided and the table waits for you."),
            "reminders": (
                N_("Only reminders will reach you from this table; your moves stay on the board and in **My panel**.")
            ),
        }[level.value]
        await interaction.response.send_message(**localized(reader(interaction), content=text, ephemeral=True))

    @app_commands.command(name="remind", description=N_("How long the table waits before reminding (host only)"))
    @app_commands.describe(
        hours=N_("Quiet hours before the awaited players are pinged again"),
        bot_after_hours=N_("Quiet hours before a bot makes the awaited players' move for them (0 = never)"),
    )
    async def remind(
        self,
        interaction: discord.Interaction,
        hours: app_commands.Range[float, 0.1, 168.0],
        bot_after_hours: app_commands.Range[float, 0.0, 336.0] | None = None,
    ) -> None:
        table = await self.service.table_in_channel(self._channel(interaction))
        s = self.bot.settings
        autopilot = None if bot_after_hours is None else int(bot_after_hours * 3600)
        await self.service.set_reminder_after(
            table.id, interaction.user.id, int(hours * 3600), s.reminder_min, s.reminder_max, autopilot
        )
        text: str = N_("Reminders after {hours:g} quiet hours.", hours=hours)
        if autopilot:
            text = Msg.cat(
                text,
                N_(
                    "After {bot_after_hours:g} quiet hours a bot moves for whoever is awaited.",
                    bot_after_hours=bot_after_hours,
                ),
                sep=" ",
            )
        elif autopilot == 0:
            text = Msg.cat(text, N_("No bot will move for anyone."), sep=" ")
        await interaction.response.send_message(**localized(reader(interaction), content=text, ephemeral=True))

    @app_commands.command(name="help", description=N_("How to play on Spooky Table"))
    async def help(self, interaction: discord.Interaction) -> None:
        embed = discord.Embed(title=N_("👻 Spooky Table"), colour=EMBED_COLOUR)
        embed.description = N_(
            "Asynchronous board games in this channel. `/game new` opens a table; others press "
            "**Join**; the host presses **Start**. Play with the buttons under the board, your "
            "**private panel** (sent by DM in games with secrets, or **My panel** / `/game "
            "hand`), or `/game move`. New to a game? `/game rules` explains it in a minute."
        )
        games = Msg.cat(
            *(
                N_(
                    "**{title}** ({low}–{high}) — {summary}",
                    title=g.title,
                    low=g.min_players,
                    high=g.max_players,
                    summary=g.summary,
                )
                for g in sorted(GAMES.values(), key=lambda g: g.key)
            ),
            sep="\n",
        )
        embed.add_field(name=N_("Games"), value=games or "—", inline=False)
        group = self.app_command
        own = [f"`/{group.name} {c.name}`" for c in group.commands] if group is not None else []
        embed.add_field(name=N_("Commands"), value=clip(" ".join(own), EMBED_FIELD_MAX) or "—", inline=False)
        lang = reader(interaction)
        embed.add_field(name=N_("Each game's own commands"), value=self.game_groups(lang) or "—")
        await interaction.response.send_message(**localized(lang, embed=embed, ephemeral=True))

    def game_groups(self, lang: str = SOURCE) -> str:
        """One line per game's command group, read from the command tree (a new game's cog appears by
        itself): `/dawn` — its description: its subcommands."""
        lines = []
        for cmd in sorted(self.bot.tree.get_commands(), key=lambda c: c.name):
            if not isinstance(cmd, app_commands.Group) or cmd is self.app_command:
                continue
            subs = " ".join(f"`{c.name}`" for c in cmd.commands)
            lines.append(f"**/{cmd.name}** — {t(lang, cmd.description)}: {subs}")
        return "\n".join(lines)

    # ------------------------------------------------------------------ errors
    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        await self.fail(interaction, original)

    async def fail(self, interaction: discord.Interaction, error: BaseException, table: TableRow | None = None) -> None:
        """The one place a failure becomes an answer: specific for a player's mistake, honest otherwise."""
        if isinstance(error, AlreadyApplied):
            log.info("interaction %s was delivered twice; the first delivery made the move", interaction.id)
            text: str = Msg.cat("✅ ", error.message)
        elif isinstance(error, GameError):
            text = error.message
            if isinstance(error, StaleAction) and table is not None and (link := board_link(table)):
                text = Msg.cat(text, N_("Current board: {link}", link=link), sep=" ")
        elif isinstance(error, discord.HTTPException) and error.code in (ALREADY_ACKNOWLEDGED, UNKNOWN_INTERACTION):
            log.info("interaction %s can no longer be answered (%s)", interaction.id, error.code)
            return
        else:
            # no interaction data in the log: a custom_id or option can carry a secret move
            where = interaction.command.qualified_name if interaction.command else N_("a component")
            log.error("unexpected error in %s (table %s)", where, table.id if table else "?", exc_info=error)
            text = N_("Sorry — something went wrong on our side. Nothing was changed; please try again.")
        await self._tell(interaction, text)

    async def _tell(self, interaction: discord.Interaction, text: str) -> None:
        """An ephemeral answer, whether or not the interaction was acknowledged; a failure is only logged.
        It is for the reader only: in their language."""
        text = clip(tr(reader(interaction), text), CONTENT_MAX)
        try:
            if interaction.response.is_done():
                await interaction.followup.send(**localized(reader(interaction), content=text, ephemeral=True))
            else:
                await interaction.response.send_message(**localized(reader(interaction), content=text, ephemeral=True))
        except discord.HTTPException as err:
            level = logging.INFO if err.code in (ALREADY_ACKNOWLEDGED, UNKNOWN_INTERACTION) else logging.WARNING
            log.log(level, "could not answer interaction %s (%s %s)", interaction.id, err.status, err.code)

    async def ack(
        self, interaction: discord.Interaction, *, ephemeral: bool = True, thinking: bool = True, update: bool = False
    ) -> bool:
        """Acknowledge before anything is committed; False when the interaction cannot be answered.

        A click Discord already gave up on (10062) or that another process took (40060) changes nothing:
        the player saw it fail, or the other process makes the move.
        """
        try:
            if update:
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=ephemeral, thinking=thinking)
        except discord.HTTPException as err:
            level = logging.INFO if err.code == ALREADY_ACKNOWLEDGED else logging.WARNING
            log.log(
                level, "interaction %s not acknowledged (%s %s): nothing applied", interaction.id, err.status, err.code
            )
            return False
        return True

    async def answer_then_deliver(
        self,
        interaction: discord.Interaction,
        change: Change,
        answer: Callable[[], Awaitable[Any]],
        *,
        bots: bool = True,
        actor: int | None = None,
        answered_panel: bool = False,
        skip_dm: set[int] | None = None,
    ) -> Change:
        """After a commit: answer the player, then let bots reply and show everyone, whatever fails.

        The answer may fail (Discord down, the player's DMs gone): bots still move and the board, pings
        and panels still go out. If delivery fails, the player is told their move counted, and the table
        stays marked as behind, so the sweep shows it again. An answer may return the rest of itself as
        `Then` (the mover's next panel, edited into the "✅" already sent): it runs while bots reply and
        the board is drawn, so panel and board render in parallel; the panel counts as shown once it is.
        """
        answered = False
        rest: Awaitable[None] | None = None
        try:
            result = await answer()
            rest = result.rest if isinstance(result, Then) else None
            answered = True
        except discord.HTTPException as err:
            log.warning(
                "the answer on table %s failed (%s %s); delivering anyway", change.table.id, err.status, err.code
            )
        except Exception:
            log.exception("the answer on table %s failed; delivering anyway", change.table.id)
        follow: asyncio.Task[None] | None = None
        if answered and actor is not None:
            # the message answered in place is the panel of the mover's next decision from now on (its
            # panel follows in it), so the delivery does not retire it as a decided one meanwhile
            await self._panel_answered(interaction, change.table, actor, next_panel=answered_panel)
        if rest is not None:
            follow = asyncio.create_task(self._answer_rest(interaction, change.table, rest, actor, answered_panel))
        elif answered:
            await self._answered(change.table, actor, answered_panel)
        if not answered:  # the player saw nothing: tell them like anyone else
            actor, skip_dm = None, set()
        try:
            if bots:
                change = await self.service.continue_bots(change)
            await self.deliver(change, skip_dm=skip_dm, actor=actor)
        except Exception as err:
            if isinstance(err, discord.HTTPException):
                log.warning(
                    "delivery of table %s failed (%s %s); it will be retried", change.table.id, err.status, err.code
                )
            else:
                log.exception("delivery of table %s failed; it will be retried", change.table.id)
            await self._tell(
                interaction,
                N_("✅ Your move counted. The board could not be updated just now; it will be shown again shortly."),
            )
        if follow is not None:
            await follow
        return change

    async def _answered(self, table: TableRow, actor: int | None, answered_panel: bool) -> None:
        """The mover's answer showed them their next decision's panel: they need no notice for it."""
        if answered_panel and actor is not None and actor in table.awaited:
            await self.service.store.mark_notified(table.id, {actor: table.awaited[actor]})

    async def _answer_rest(
        self,
        interaction: discord.Interaction,
        table: TableRow,
        rest: Awaitable[None],
        actor: int | None,
        answered_panel: bool,
    ) -> None:
        """The second half of an answer (the next panel edited in). If it fails, the decision stays
        untold in the store, so the sweep sends the panel again; the player is told where it is."""
        try:
            await rest
        except Exception as err:
            if isinstance(err, discord.HTTPException):
                log.warning("the panel on table %s failed (%s %s)", table.id, err.status, err.code)
            else:
                log.exception("the panel on table %s failed", table.id)
            await self._tell(
                interaction,
                N_("✅ Your move counted. Your next panel could not be shown: use **My panel**.")
                if get_game(table.game).has_private_info  # the board's button to one's panel
                else N_("✅ Your move counted. Your next choices could not be shown: use **Play** on the board."),
            )
            return
        await self._answered(table, actor, answered_panel)

    @staticmethod
    def dm_message_id(interaction: discord.Interaction) -> int | None:
        """The DM message a click came from (it may be the seat's panel, answered in place): the move's
        transaction moves that panel on with it, so no delivery retires it meanwhile."""
        message = interaction.message
        return message.id if interaction.guild_id is None and message is not None else None

    async def _panel_answered(
        self, interaction: discord.Interaction, table: TableRow, seat: int, *, next_panel: bool
    ) -> None:
        """The mover's DM panel was answered in place: it now holds their next decision (its version
        moves on), or only "✅ …" (it is no longer a panel to retire)."""
        message = interaction.message
        if interaction.guild_id is not None or message is None:
            return
        if table.seats[seat].panel_message_id != message.id:
            return
        if next_panel and seat in table.awaited:
            await self.service.store.set_panel_message(
                table.id, seat, message.channel.id, message.id, table.awaited[seat], if_message=message.id
            )
        else:
            await self.service.store.set_panel_message(table.id, seat, None, None, if_message=message.id)

    # ------------------------------------------------------------------ components
    async def on_component(
        self,
        interaction: discord.Interaction,
        verb: str,
        table_id: int,
        version: int,
        arg: str,
        values: Sequence[str],
    ) -> None:
        async with self.bot.busy:
            await self._component(interaction, verb, table_id, version, arg, values)

    async def _component(
        self,
        interaction: discord.Interaction,
        verb: str,
        table_id: int,
        version: int,
        arg: str,
        values: Sequence[str],
    ) -> None:
        table: TableRow | None = None
        try:
            if verb == BAD_ID:
                raise InvalidInput(
                    N_("This button is damaged or not one of ours; nothing was changed. Try /game hand.")
                )
            if verb == MINE:  # "My games" pages: no table of their own
                await self._mine(interaction, page=version, edit=True)
                return
            if verb == STATS:  # leaderboard pages: the arg is the game's key ("" for all games)
                await self._leaderboard(interaction, game=self._game_key(arg) if arg else "", page=version, edit=True)
                return
            table = await self.service.table(table_id)
            if verb in LOBBY_VERBS:
                await self._lobby_click(interaction, table, verb, arg, values)
                return
            if verb == ending.REMATCH:  # a button of a game that is over: before the closed-table check
                await ending.rematch(self, interaction, table)
                return
            if verb == replay.REPLAY:  # a replay of any started table, over or not: before the closed check
                await replay.on_click(self, interaction, table.id, version, arg, values)
                return
            self.service.check_open(table)
            if verb == "panel":
                await self._send_panel(interaction, table)
            elif verb == "page":
                if not arg.lstrip("-").isdigit() or len(arg) > 4:
                    raise InvalidInput(N_("That page button is damaged; open your panel again with /game hand."))
                await self._send_panel(interaction, table, page=int(arg), edit=True)
            elif verb == "do":
                text = values[0] if values else arg
                if not await self.ask_first(interaction, table, text, version):
                    await self.play(interaction, text, version=version, from_panel=True, table_id=table.id)
            elif verb in (CONFIRMED, CANCELLED):
                await self._confirmation(interaction, table, verb, version, arg, values)
            elif verb == "undo":
                await self.take_back(interaction, table.id, version=version)
            elif verb == GLIMPSE:
                await self.glimpse(interaction, table)
            elif verb == FOLLOW:
                await self._follow(interaction, table, arg)
            elif not await ui_for(table.game).on_component(self, interaction, table, verb, version, arg, values):
                raise InvalidInput(N_("This button belongs to a feature that no longer exists."))
        except Exception as err:  # one place turns every failure into an answer
            await self.fail(interaction, err, table)

    async def ask_first(self, interaction: discord.Interaction, table: TableRow, text: str, version: int) -> bool:
        """Ask "Yes / Cancel" before a click plays a move that wastes something; True if it asked.

        What needs asking is the rules core's decision (`Game.confirm`); typed moves never come here.
        A private panel is edited in place into the question; a board click gets it ephemerally.
        """
        seat = self.service.gate(table, interaction.user.id, version)  # a mistake is refused as usual
        game = get_game(table.game)
        state = self.service.state_of(table)
        try:
            action = game.parse_action(" ".join(text.split()))
        except GameError:
            return False  # `play` refuses it with the rules' own words
        warning = game.confirm(state, seat.seat, action)
        if warning is None:
            return False
        legal = next((a for a in game.legal_actions(state, seat.seat) if a == action), action)
        private = self._private_surface(interaction, table, True)
        items = confirm_items(table.id, version, game.format_action(action), game.describe_action(legal), panel=private)
        if items is None:
            return False
        content = clip(f"⚠️ {warning}", CONTENT_MAX)
        if private:
            await interaction.response.edit_message(
                **localized(reader(interaction), content=content, view=make_view(items))
            )
        else:
            await interaction.response.send_message(
                **localized(reader(interaction), content=content, view=make_view(items), ephemeral=True)
            )
        return True

    async def _confirmation(
        self,
        interaction: discord.Interaction,
        table: TableRow,
        verb: str,
        version: int,
        arg: str,
        values: Sequence[str],
    ) -> None:
        """**Yes** plays the move as confirmed (the game's own UI first, so its moves keep their path);
        a stale one is refused by the usual version check. **Cancel** changes nothing."""
        if verb == CONFIRMED:
            if not await ui_for(table.game).on_component(self, interaction, table, verb, version, arg, values):
                await self.play(interaction, arg, version=version, from_panel=True, table_id=table.id)
        elif arg == "p":
            await self._send_panel(interaction, table, edit=True)
        else:
            await interaction.response.edit_message(
                **localized(reader(interaction), content=N_("Nothing changed."), view=None)
            )

    async def _lobby_click(
        self, interaction: discord.Interaction, table: TableRow, verb: str, arg: str, values: Sequence[str]
    ) -> None:
        user = interaction.user
        change: Change | None = None
        if table.status != "lobby":
            self.service.check_open(table)
        name = user.display_name
        if verb == "join":
            table = await self.service.join(table.id, user.id, name, locale=interaction.locale.value)
        elif verb == "leave":
            table = await self.service.leave(table.id, user.id)
        elif verb == "addbot":
            table = await self.service.add_bot(table.id, user.id)
        elif verb == "cancel":
            table = await self.service.cancel(table.id, user.id)
        elif verb == "opt":
            name, _, value = (values[0] if values else "").partition("=")
            table = await self.service.set_option(table.id, user.id, name, value)
        else:
            change = await self._into_thread(await self.service.start(table.id, user.id, bots=False))
            table = change.table
        shown = table

        async def answer() -> None:
            await interaction.response.edit_message(
                **localized(reader(interaction), embed=lobby_embed(shown), view=make_view(lobby_items(shown)))
            )

        # A lobby click is answered with the lobby itself (a mistake is refused before anything is
        # written); only Start has more to show, and that is delivered whatever happens to the answer.
        if change is not None:
            await self.answer_then_deliver(interaction, change, answer, bots=True)
        else:
            try:
                await answer()
            except discord.HTTPException as err:
                log.warning("could not update the lobby of table %s (%s %s)", table.id, err.status, err.code)

    # ------------------------------------------------------------------ followers
    async def _follow(self, interaction: discord.Interaction, table: TableRow, arg: str) -> None:
        """Follow a table without pings: one DM when it ends (the default), or a DM at every board."""
        if arg not in ("", "end", "every", "stop"):
            raise InvalidInput(N_("That Follow button is damaged; press Follow on the board again."))
        following = (await self.service.store.followers(table.id)).get(interaction.user.id)
        if arg == "stop":
            await self.service.store.set_follow(table.id, interaction.user.id, None)
            text = N_("You no longer follow table #{id}.", id=table.id)
        else:
            every = arg == "every" or (arg == "" and bool(following))
            await self.service.store.set_follow(table.id, interaction.user.id, every)
            what = N_("a DM at every board") if every else N_("one DM when the game ends")
            text = N_(
                "🔔 You follow table #{id} ({title}): {what}, no pings in the channel.",
                id=table.id,
                title=get_game(table.game).title,
                what=what,
            )
        items: list[discord.ui.Item[Any]] = [
            TableButton(FOLLOW, table.id, 0, "every", label=N_("Every board")),
            TableButton(FOLLOW, table.id, 0, "end", label=N_("Only the end")),
            TableButton(FOLLOW, table.id, 0, "stop", label=N_("Stop following"), style=discord.ButtonStyle.danger),
        ]
        if arg and interaction.message is not None and interaction.message.flags.ephemeral:
            await interaction.response.edit_message(
                **localized(reader(interaction), content=text, view=make_view(items))
            )
        else:
            await interaction.response.send_message(
                **localized(reader(interaction), content=text, view=make_view(items), ephemeral=True)
            )

    async def _tell_followers(
        self, table: TableRow, text: str, *, every_board: bool, followers: dict[int, bool] | None = None
    ) -> None:
        """A DM to each follower (every board, or at the end: all of them); closed DMs are skipped."""
        if followers is None:
            followers = await self.service.store.followers(table.id)
        for user_id, every in followers.items():
            if every_board and not every:
                continue
            try:
                channel = await self.bot.create_dm(discord.Object(id=user_id))
                await channel.send(clip(text, CONTENT_MAX), allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException as err:
                log.info("table %s: follower %s not told (%s %s)", table.id, user_id, err.status, err.code)

    # ------------------------------------------------------------------ the glimpse
    async def glimpse(self, interaction: discord.Interaction, table: TableRow) -> None:
        """ "What you missed": each momentary reveal since this player last looked, shown once, one after
        another, each for the table's glimpse time, in an ephemeral that is then cleared. Every player
        sees each reveal for the same time, whether they were online when it happened or not."""
        table, moments = await self.service.glimpse(table.id, interaction.user.id)
        if not moments:
            await self._tell(interaction, N_("👁 Nothing was shown for a moment since you last looked."))
            return
        if not await self.ack(interaction):
            return
        seconds = get_game(table.game).glimpse_seconds(table.options) * GLIMPSE_SCALE
        task = asyncio.create_task(self._show_glimpse(interaction, table, moments, seconds))
        self._glimpses.add(task)
        task.add_done_callback(self._glimpses.discard)

    async def _show_glimpse(
        self, interaction: discord.Interaction, table: TableRow, moments: Sequence[Moment], seconds: float
    ) -> None:
        game = get_game(table.game)
        try:
            for i, moment in enumerate(moments, start=1):
                file = await render_file(self.bot.renderer, table.game, moment.view, "glimpse.png")
                text = "\n".join(f"• {line}" for line in moment.lines)
                head = N_(
                    "👁 **{title}**, what you missed ({i}/{moments}), for {seconds:g} s:",
                    title=game.title,
                    i=i,
                    moments=len(moments),
                    seconds=seconds,
                )
                await interaction.edit_original_response(
                    **localized(reader(interaction), content=clip(f"{head}\n{text}", CONTENT_MAX), attachments=[file])
                )
                await asyncio.sleep(seconds)
        except discord.HTTPException as err:
            log.info("glimpse on table %s stopped (%s %s)", table.id, err.status, err.code)
        finally:
            with contextlib.suppress(discord.HTTPException):
                await interaction.edit_original_response(
                    **localized(
                        reader(interaction),
                        content=N_(
                            "👁 That was everything you missed ({moments}). The lids are closed again.",
                            moments=len(moments),
                        ),
                        attachments=[],
                    )
                )

    async def _fade(self, edit: Callable[[], Awaitable[Any]], seconds: float) -> None:
        """A momentary reveal in a mover's answer is taken out of it after the table's glimpse time."""
        try:
            await asyncio.sleep(seconds)
        finally:  # also when the bot shuts down first: then it is taken out early
            with contextlib.suppress(discord.HTTPException, RuntimeError, aiohttp.ClientError):
                await edit()

    # ------------------------------------------------------------------ panels
    async def build_panel(
        self, table: TableRow, seat: int, page: int = 0, private: Sequence[str] = (), lang: str | None = None
    ) -> Panel:
        """A seat's private panel in its reader's language: `lang` when the reader is here (their
        interaction's locale), else the seat's last-seen locale (a DM sent later)."""
        lang = lang or seat_lang(table, seat)
        game = get_game(table.game)
        awaited = table.status == "active" and seat in table.awaited
        parts = await self._panel_parts(table, game, seat, lang, legal=awaited)
        lines = [
            t(lang, "**{title}** · table #{id} · {seat}", title=game.title, id=table.id, seat=seat_label(table, seat))
        ]
        lines += [f"🔒 {tr(lang, p)}" for p in private]
        lines.append(parts.status)
        items: list[discord.ui.Item[Any]] = []
        if awaited:
            items = ui_for(table.game).panel_items(game, table, seat, parts.legal, page)
            lines.append(t(lang, "**Your move** — choose below, or use `/game move`."))
        elif table.status == "active":
            waiting = t(lang, ", ").join(escape(table.seats[s].name) for s in sorted(table.awaited))
            lines.append(t(lang, "Nothing to choose right now (waiting for {waiting}).", waiting=waiting or "—"))
        file = None
        if parts.png is not None:
            alt = clip(parts.alt or "", ALT_TEXT_MAX)
            file = discord.File(io.BytesIO(parts.png), filename="panel.png", description=alt)
        return Panel(clip("\n".join(lines), CONTENT_MAX), file, [localize_item(lang, item) for item in items])

    async def _panel_parts(
        self, table: TableRow, game: Game[Any, Any], seat: int, lang: str, *, legal: bool
    ) -> PanelParts:
        """The seat's view made into the panel's status line, legal moves, image and alt text: with an
        image, all of it in a render worker from the row's state text (the event loop only sends and
        receives); without one (no secrets) here, as a worker's round trip would cost more than it saves.
        A game registered at run time (tests) is unknown to a fresh worker: made here, image included."""
        names = tuple(s.name for s in table.seats)
        job = PanelJob(
            game=table.game,
            table_id=table.id,
            version=table.version,
            state=table.state_text or "",
            seat=seat,
            names=names,
            text_names=tuple(escape(n) for n in names),
            lang=lang,
            legal=legal,
            image=game.has_private_info,
            alt_max=ALT_TEXT_MAX,
        )
        if job.image and table.state_text is not None and shipped(game):
            made: PanelParts
            made, png = await self.bot.renderer.call("rendering.panels", "make_panel", job)
            return replace(made, png=png)
        parts = panel_parts(game, self.service.state_of(table), replace(job, image=False))
        if not job.image:
            return parts
        view = self.service.view_for(table, seat)
        alt = alt_text(game, view, lang=lang)
        png = await self.bot.renderer.png(renderer_module(table.game).__name__, view, lang)
        return replace(parts, png=png, alt=alt)

    async def _send_panel(
        self, interaction: discord.Interaction, table: TableRow, page: int = 0, edit: bool = False
    ) -> None:
        seat = self.service.seat_of(table, interaction.user.id)
        if table.status == "lobby":
            raise GameError(N_("The game has not started yet."))
        if seat.dm_closed:  # they are here: try DMs again next time (they may have opened them)
            await self.service.mark_dm(table.id, seat.seat, closed=False, told=True)
        acked = await self.ack(interaction, update=True) if edit else await self.ack(interaction)
        if not acked:
            return
        await self.remember_locale(interaction, table)
        panel = await self.build_panel(table, seat.seat, page, lang=reader(interaction))
        if edit:
            await interaction.edit_original_response(
                **localized(
                    reader(interaction),
                    content=panel.content,
                    attachments=[panel.file] if panel.file else [],
                    view=make_view(panel.items),
                )
            )
        else:
            await interaction.followup.send(
                **localized(
                    reader(interaction),
                    content=panel.content,
                    files=[panel.file] if panel.file else [],
                    view=make_view(panel.items),
                    ephemeral=True,
                )
            )
        if table.status == "active" and seat.seat in table.awaited:
            await self.service.store.mark_notified(table.id, {seat.seat: table.awaited[seat.seat]})

    async def remember_locale(self, interaction: discord.Interaction, table: TableRow) -> None:
        """Keep the seat's Discord locale, for the DMs it gets later without an interaction."""
        seat = table.seat_of(interaction.user.id)
        if seat is not None and seat.locale != interaction.locale.value:
            await self.service.store.set_locale(table.id, interaction.user.id, interaction.locale.value)

    @staticmethod
    def _private_surface(interaction: discord.Interaction, table: TableRow, from_panel: bool) -> bool:
        """The click came from the player's own panel (ephemeral or DM): answer it in place."""
        message = interaction.message
        if not from_panel or message is None:
            return False
        on_board = message.id == table.board_message_id and not get_game(table.game).live_board
        return not on_board and (message.flags.ephemeral or interaction.guild_id is None)

    async def _after_move(
        self, interaction: discord.Interaction, change: Change, text: str, *, private_surface: bool, from_panel: bool
    ) -> None:
        """Answer the mover (their next panel, or a confirmation), then show everyone the new board."""
        table = change.table
        game = get_game(table.game)
        seat = table.seat_of(interaction.user.id)
        lang = reader(interaction)  # the mover's own answer: their language
        names = [escape(s.name) for s in table.seats]
        label = game.event_text(tr(lang, game.describe_action(game.parse_action(text))), names)
        again = seat is not None and seat.seat in change.newly_awaited
        undo = await self._undo_button(change, seat.seat) if seat is not None else None

        private = self._private_lines(change, seat.seat) if seat is not None else []
        done = clip("\n".join([f"✅ {label}", *(f"🔒 {tr(lang, p)}" for p in private)]), CONTENT_MAX)
        on_board = from_panel and not private_surface  # a click on the public board's own controls
        # with a glimpse, what the move showed for a moment is in the mover's answer for that long only
        glimpse = game.glimpse_seconds(table.options) * GLIMPSE_SCALE
        moment = [
            game.event_text(tr(lang, line.event.text), names)
            for line in change.lines
            if glimpse and line.event.transient
        ]
        seen = "".join(f"\n👁 {m}" for m in moment) + (
            "\n-# " + t(lang, "shown for {glimpse:g} s", glimpse=glimpse) if moment else ""
        )

        def fade(edit: Callable[[str], Awaitable[Any]], content: str) -> None:
            if moment:
                task = asyncio.create_task(self._fade(lambda: edit(content), glimpse))
                self._glimpses.add(task)
                task.add_done_callback(self._glimpses.discard)

        async def answer() -> Then | None:
            if on_board and (not again or not game.has_private_info):
                # the board is edited to show the result and the next choice: answer in place, and
                # only a secret, a moment's reveal or the Undo button goes to the player alone
                if private or undo is not None or moment:
                    sent = await interaction.followup.send(
                        **localized(
                            reader(interaction),
                            content=clip(done + seen, CONTENT_MAX),
                            view=self._with_undo([], undo),
                            ephemeral=True,
                            wait=True,
                        )
                    )
                    fade(lambda c: sent.edit(content=c), done)
                    if moment and seat is not None:
                        await self.service.caught_up(table, seat.seat, before=table.version - 1)
                return None
            if again and seat is not None:
                # "✅" first; the next panel (its image, its menus of legal moves) is built after it is
                # sent, then edited in: built alongside, its view, legal moves and pickling for the
                # render worker held the event loop while the answer waited for its turn (8–16 ms of a
                # 25 ms answer, measured); built first, a game without secrets answered 2–4× the floor
                first = clip(f"{done}{seen}", CONTENT_MAX)
                edit: Callable[..., Awaitable[Any]]
                if private_surface:
                    await interaction.edit_original_response(**localized(lang, content=first, view=None))
                    edit = interaction.edit_original_response
                else:
                    sent = await interaction.followup.send(**localized(lang, content=first, ephemeral=True, wait=True))
                    edit = sent.edit

                async def rest() -> None:
                    panel = await self.build_panel(table, seat.seat, private=private, lang=lang)
                    content = clip(f"✅ {label}\n{panel.content}", CONTENT_MAX)
                    shown = clip(f"✅ {label}{seen}\n{panel.content}", CONTENT_MAX)
                    await edit(
                        **localized(
                            lang,
                            content=shown,
                            attachments=[panel.file] if panel.file else [],
                            view=self._with_undo(panel.items, undo),
                        )
                    )
                    fade(lambda c: edit(**localized(lang, content=c)), content)
                    if moment:
                        await self.service.caught_up(table, seat.seat, before=table.version - 1)

                return Then(rest())
            if private_surface:
                await interaction.edit_original_response(
                    **localized(
                        reader(interaction),
                        content=clip(done + seen, CONTENT_MAX),
                        attachments=[],
                        view=self._with_undo([], undo),
                    )
                )
                fade(lambda c: interaction.edit_original_response(**localized(reader(interaction), content=c)), done)
            else:
                sent = await interaction.followup.send(
                    **localized(
                        reader(interaction),
                        content=clip(done + seen, CONTENT_MAX),
                        view=self._with_undo([], undo),
                        ephemeral=True,
                        wait=True,
                    )
                )
                fade(lambda c: sent.edit(content=c), done)
            if moment and seat is not None:  # they saw their own reveal: caught up, if they were before it
                await self.service.caught_up(table, seat.seat, before=table.version - 1)
            return None

        mover = seat.seat if seat is not None else None
        await self.answer_then_deliver(
            interaction,
            change,
            answer,
            actor=mover,
            answered_panel=again,
            skip_dm={mover} if again and mover is not None else set(),
        )

    @staticmethod
    def _private_lines(change: Change, seat: int) -> list[str]:
        return [line.event.private[seat] for line in change.lines if seat in line.event.private]

    # ------------------------------------------------------------------ undo
    async def _undo_button(self, change: Change, seat: int) -> TableButton | None:
        """An ↩ Undo button for the mover's answer, when their move may be taken back and no bot is
        about to reply (a bot's move would make it stand); it carries the table version after the move."""
        table = change.table
        if table.status != "active" or any(table.seats[s].played_by_bot for s in table.awaited):
            return None
        if not change.undoable:  # (the move was just committed: it is the last action in effect)
            return None
        lang = seat_lang(table, seat)
        return localize_item(lang, TableButton("undo", table.id, table.version, label=N_("Undo"), emoji="↩"))

    @staticmethod
    def _with_undo(items: Sequence[discord.ui.Item[Any]], undo: TableButton | None) -> discord.ui.View:
        """The answer's components plus the Undo button, if there is room left on the message."""
        view = make_view(items)
        if undo is not None:
            with contextlib.suppress(ValueError):  # five full rows: /game undo still works
                view.add_item(undo)
        return view

    async def take_back(self, interaction: discord.Interaction, table_id: int, *, version: int | None = None) -> None:
        """`/game undo` and the Undo button: acknowledge, take the move back, answer with the panel again.

        A button answers in place (the message it is on is the mover's own answer); a refusal is an
        ephemeral reason and changes nothing.
        """
        async with self.bot.busy:
            await self.service.check_fresh(interaction.id)
            before = await self.service.table(table_id)
            self.service.undo_gate(before, interaction.user.id, version)  # a mistake is answered at once
            in_place = version is not None and interaction.message is not None
            acked = await self.ack(interaction, update=True) if in_place else await self.ack(interaction)
            if not acked:
                return
            change = await self.service.undo(
                table_id,
                interaction.user.id,
                version=version,
                interaction_id=interaction.id,
                panel_message_id=self.dm_message_id(interaction) if in_place else None,
            )
            table = change.table
            seat = self.service.seat_of(table, interaction.user.id).seat
            again = seat in change.newly_awaited
            text = N_("↩ You took back “{note}”.", note=change.note)

            async def answer() -> None:
                panel = await self.build_panel(table, seat) if again else None
                content = clip(f"{text}\n{panel.content}" if panel else text, CONTENT_MAX)
                files = [panel.file] if panel and panel.file else []
                view = make_view(panel.items if panel else [])
                if in_place:
                    await interaction.edit_original_response(
                        **localized(reader(interaction), content=content, attachments=files, view=view)
                    )
                else:
                    await interaction.followup.send(
                        **localized(reader(interaction), content=content, files=files, view=view, ephemeral=True)
                    )

            await self.answer_then_deliver(
                interaction, change, answer, actor=seat, answered_panel=again, skip_dm={seat} if again else set()
            )
            await self._retire_undone_panels(before, change.table)

    async def _retire_undone_panels(self, before: TableRow, after: TableRow) -> None:
        """A seat the undone move had handed a decision to is no longer awaited: its DM panel loses its
        buttons (a click would only be refused)."""
        for s in before.seats:
            if s.seat in before.awaited and s.seat not in after.awaited and s.panel_message_id:
                await self._strip(s.panel_channel_id, s.panel_message_id)
                await self.service.store.set_panel_message(after.id, s.seat, None, None)

    # ------------------------------------------------------------------ delivery
    async def deliver(self, change: Change, skip_dm: set[int] | None = None, actor: int | None = None) -> None:
        """Show a change: the board, one notice per new decision, private lines, retired old notices.

        A newly awaited player is told once: by their DM panel when the game keeps secrets and their DMs
        are open, else by a short channel ping linking to the board (their seat's `notify` level may
        quiet either). `actor` is the seat whose move this was (its private lines were in its answer);
        a seat whose current decision was already shown to it is not told again. What was shown is
        recorded (the board's version, each seat's notified decision), so a delivery that a crash or an
        error cut short is completed by the sweep; pings and DM panels whose decision was made are
        deleted or retired.
        """
        async with self.bot.busy, self.delivery_lock(change.table.id):
            await self._deliver(change, skip_dm, actor)

    @contextlib.asynccontextmanager
    async def delivery_lock(self, table_id: int) -> AsyncIterator[None]:
        """A table's deliveries one at a time: in this process (a lock, which the sweep checks to leave
        a table being delivered alone, dropped when free) and, through the store, across processes (a
        DM click for a table of another shard's guild is delivered by the process holding shard 0)."""
        async with self._deliver_locks.hold(table_id), self.service.store.table_lock(table_id, "deliver"):
            yield

    async def _deliver(self, change: Change, skip_dm: set[int] | None, actor: int | None) -> None:
        """`deliver`'s work; the caller holds the table's delivery lock. The board's image is started
        first: it is drawn from the change alone, while the table is read for who is to be told."""
        board = self._draw_board(change)
        try:
            await self._deliver_drawing(change, skip_dm, actor, board)
        finally:
            board.task.cancel()  # (done already, unless the board could not be posted)
            board.task.add_done_callback(lambda t: t.cancelled() or t.exception())

    async def _deliver_drawing(
        self,
        change: Change,
        skip_dm: set[int] | None,
        actor: int | None,
        board: Drawn,
    ) -> None:
        stored, away = await self.service.table_and_away(change.table.id)  # (the board's away marks too)
        told = {
            s.seat for s in stored.seats if s.seat in stored.awaited and s.notified_version >= stored.awaited[s.seat]
        }
        answered = skip_dm or set()  # their answer carries their next panel (it may still be on its way)
        to_tell = {
            s
            for s in change.newly_awaited
            if s not in told
            and s not in answered
            and s in change.table.awaited
            and not change.table.seats[s].played_by_bot
        }
        if len(stored.awaited) == 1:  # a "last" seat kept quiet so far: everyone else has decided now
            last = stored.seats[next(iter(stored.awaited))]
            since = stored.awaited[last.seat]
            untold = since not in (last.ping_version, last.panel_version)
            if last.notify == "last" and last.seat != actor and not last.played_by_bot and untold:
                to_tell.add(last.seat)
        # the DM panels of this change are rendered while the board is (they are sent after it: they
        # link to it); a prediction only, `_dm_panel` draws afresh if the table moved on meanwhile
        early = self._panels_ahead(change, to_tell - answered)
        try:
            table, followers = await self._board(change, False, bool(to_tell), board, (stored, away))
            await self._tell_dm_panels(change, table, to_tell, answered, actor, early, followers)
        finally:
            for task in early.values():  # not needed after all: dropped quietly
                task.cancel()
                task.add_done_callback(lambda t: t.cancelled() or t.exception())

    def _panels_ahead(self, change: Change, seats: set[int]) -> dict[int, asyncio.Task[Panel]]:
        """Start building the DM panels the seats told of this change will likely get."""
        table = change.table
        game = get_game(table.game)
        if table.status != "active" or not game.has_private_info:
            return {}
        return {
            s: asyncio.create_task(self.build_panel(table, s, private=self._private_lines(change, s)))
            for s in sorted(seats)
            if s in table.awaited
            and table.seats[s].user_id is not None
            and not table.seats[s].dm_closed
            and self._wants_notice(table, table.seats[s])
        }

    async def _tell_dm_panels(
        self,
        change: Change,
        table: TableRow,
        to_tell: set[int],
        skip_dm: set[int],
        actor: int | None,
        early: dict[int, asyncio.Task[Panel]],
        followers: dict[int, bool],
    ) -> None:
        """The rest of `deliver` once the board is out: followers (as read with `table`), retired notices,
        the game-over message or the notices of the new decisions (DM panels, pings) and secrets for the
        others."""
        game = get_game(table.game)
        if table.status == "active" and any(followers.values()):  # someone follows every board
            status = game.status(text_view(game.lasting_view(self.service.view_for(table, None), table.options)))
            await self._tell_followers(
                table,
                N_(
                    "👀 {title} · table #{id}: {status} {table}",
                    title=game.title,
                    id=table.id,
                    status=status,
                    table=board_link(table),
                ),
                every_board=True,
                followers=followers,
            )
        await self._retire_notices(table)
        if table.status != "active":
            await self._retire_panels(table)
            await self.announce_end(table)
            return
        by_dm: list[SeatRow] = []
        by_ping: list[SeatRow] = []
        quiet: dict[int, int] = {}
        for seat in table.seats:
            if seat.seat not in to_tell or seat.user_id is None or seat.seat not in table.awaited:
                continue
            if not self._wants_notice(table, seat):
                quiet[seat.seat] = table.awaited[seat.seat]
            elif game.has_private_info and not seat.dm_closed:
                by_dm.append(seat)
            else:
                by_ping.append(seat)
        await self.service.store.mark_notified(table.id, quiet)
        if by_ping:
            await self._ping(table, by_ping)
        for seat in by_dm:
            if seat.seat not in (skip_dm or set()):
                ready = early.pop(seat.seat, None) if table.version == change.table.version else None
                await self._dm_panel(table, seat.seat, self._private_lines(change, seat.seat), ready)
        for seat in table.seats:  # a secret for someone not deciding now (the actor's is in its answer)
            private = self._private_lines(change, seat.seat)
            shown = seat in by_dm or seat.seat in quiet or seat.seat == actor
            wants = seat.notify == "every" and seat.user_id is not None and not seat.played_by_bot
            if private and not shown and wants and not seat.dm_closed:
                lang = seat_lang(table, seat.seat)
                await self._dm(table, seat.seat, content="\n".join(f"🔒 {tr(lang, p)}" for p in private))

    @staticmethod
    def _wants_notice(table: TableRow, seat: SeatRow) -> bool:
        """The seat's notify level: every decision, only when it is the last one awaited, or reminders only."""
        if seat.notify == "reminders":
            return False
        if seat.notify == "last":
            return set(table.awaited) == {seat.seat}
        return True

    async def _ping(self, table: TableRow, seats: Sequence[SeatRow]) -> None:
        """One short channel message for the players whose controls are on the board (or in My panel)."""
        users = [s.user_id for s in seats if s.user_id is not None]
        link = board_link(table)
        mentions = " ".join(f"<@{u}>" for u in users)
        content = (
            t(table.lang, "{mentions} — your move on the board: {link}", mentions=mentions, link=link)
            if not get_game(table.game).has_private_info
            else t(
                table.lang,
                "{mentions} — your move — press **My panel** on the board: {link}",
                mentions=mentions,
                link=link,
            )
        )
        message = await self._channel_send(
            table,
            content=content.strip(),
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(id=u) for u in users]),
        )
        versions = {s.seat: table.awaited[s.seat] for s in seats}
        await self.service.store.set_ping(table.id, versions, message.id, notified=True)

    async def _retire_notices(self, table: TableRow) -> None:
        """Delete the pings, and retire the DM panels, of decisions that have been made since. `table`
        was read after the board was posted, under the delivery lock that every ping and DM panel of
        a change is sent under."""
        still_needed = {
            s.ping_message_id
            for s in table.seats
            if s.ping_message_id and table.status == "active" and table.awaited.get(s.seat) == s.ping_version
        }
        done_pings: dict[int, int] = {}
        for s in table.seats:
            if s.ping_message_id and s.ping_message_id not in still_needed:
                done_pings.setdefault(s.ping_message_id, s.seat)
        for message_id in done_pings:
            with contextlib.suppress(discord.HTTPException):
                await self.bot.get_partial_messageable(table.channel_id).get_partial_message(message_id).delete()
        stale = [s.seat for s in table.seats if s.ping_message_id in done_pings]
        if stale:
            await self.service.store.set_ping(table.id, dict.fromkeys(stale, 0), None)
        for s in table.seats:
            if not s.panel_message_id or s.panel_version is None:
                continue
            if table.status == "active" and table.awaited.get(s.seat) == s.panel_version:
                continue  # still the panel of the decision awaited from it
            done = t(seat_lang(table, s.seat), "✅ Done: this decision has been made.")  # the seat's own DM
            await self._strip(s.panel_channel_id, s.panel_message_id, done)
            await self.service.store.set_panel_message(table.id, s.seat, None, None)

    async def _dm_panel(
        self, table: TableRow, seat: int, private: Sequence[str], ready: asyncio.Task[Panel] | None = None
    ) -> None:
        """The seat's new decision as a DM panel (`ready`: that panel, already being built)."""
        s = table.seats[seat]
        since = table.awaited.get(seat, table.version)
        if s.dm_closed and s.dm_closed_at is not None and time.time() - s.dm_closed_at < DM_RETRY_SECONDS:
            if ready is not None:
                ready.cancel()
            await self._ping(table, [s])  # their panel is My panel on the board
            return
        panel = await ready if ready is not None else await self.build_panel(table, seat, private=private)
        if link := board_link(table):
            panel.content = clip(f"{panel.content}\nBoard: {link}", CONTENT_MAX)
        message = await self._dm(table, seat, content=panel.content, file=panel.file, view=make_view(panel.items))
        if message is None:  # DMs closed: the notice in the channel pinged them once; later, a ping
            if s.dm_told:
                await self._ping(table, [s])
            else:
                await self.service.store.mark_notified(table.id, {seat: since})
            return
        old = (s.panel_channel_id, s.panel_message_id)
        # the panel and that the seat was told of it: one statement
        await self.service.store.set_panel_message(table.id, seat, message.channel.id, message.id, since, notified=True)
        if s.dm_closed:
            await self.service.mark_dm(table.id, seat, closed=False, told=s.dm_told)
        if old[1] and old[1] != message.id:
            await self._strip(old[0], old[1], t(seat_lang(table, seat), "Out of date: a newer panel follows."))

    async def _dm(self, table: TableRow, seat: int, **kwargs: Any) -> discord.Message | None:
        """Send a DM; None when the player's DMs are closed (the seat is marked, told once in the channel)."""
        s = table.seats[seat]
        assert s.user_id is not None
        kwargs = localized(seat_lang(table, seat), **{k: v for k, v in kwargs.items() if v is not None})
        try:
            channel = await self.bot.create_dm(discord.Object(id=s.user_id))
            return await channel.send(**kwargs)
        except discord.Forbidden as err:
            if err.code != DM_CLOSED:
                raise
            await self.service.mark_dm(table.id, seat, closed=True, told=True)
            if not s.dm_told:
                await self._channel_send(
                    table,
                    content=t(
                        table.lang,
                        "{mention}, I can't send you direct messages. Use **My panel** on the board or "
                        "`/game hand` to see your private panel here (only you will see it).",
                        mention=f"<@{s.user_id}>",
                    ),
                    allowed_mentions=discord.AllowedMentions(users=[discord.Object(id=s.user_id)]),
                )
            return None

    async def _channel_send(self, table: TableRow, *, parent: bool = False, **kwargs: Any) -> discord.Message:
        """Send to the table's channel (its thread, once it plays in one), or with `parent` to the channel
        that holds its lobby and result."""
        where = (table.parent_channel_id or table.channel_id) if parent else table.channel_id
        channel = self.bot.get_partial_messageable(where, guild_id=table.guild_id)
        if kwargs.get("content"):
            kwargs["content"] = clip(kwargs["content"], CONTENT_MAX)
        return await channel.send(**kwargs)

    async def _strip(self, channel_id: int | None, message_id: int | None, content: str | None = None) -> None:
        """Take the components off an old message (a superseded or closed panel); it may be gone.

        With `content`, the panel's text becomes that line (its image stays, so a hand stays readable)."""
        if not channel_id or not message_id:
            return
        message = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        with contextlib.suppress(discord.HTTPException):
            if content is None:
                await message.edit(view=None)
            else:
                await message.edit(content=content, view=None)

    async def _retire_panels(self, table: TableRow) -> None:
        """A closed table's DM panels lose their buttons (a click would only say the game is over)."""
        for seat in table.seats:
            if seat.panel_message_id:
                closed = N_("This game is over.") if table.status == "finished" else N_("This table was closed.")
                await self._strip(seat.panel_channel_id, seat.panel_message_id, closed)
                await self.service.store.set_panel_message(table.id, seat.seat, None, None)

    async def retire(self, table: TableRow) -> None:
        """An abandoned or cancelled table: its lobby, board and DM panels keep no components."""
        async with self.bot.busy, self.delivery_lock(table.id):
            table = await self.service.table(table.id)
            for message_id in (table.lobby_message_id, table.board_message_id):
                if message_id:
                    await self._strip(table.channel_id, message_id)
            await self._retire_panels(table)
            await self.service.store.mark_shown(table.id, table.version)

    def _draw_board(self, change: Change) -> Drawn:
        """The board being made: in a render worker from the row's state text (its lasting public view,
        status line, alt text and image), so the event loop makes none of it; here (the view, its status
        line and alt text, the image in a worker as before) for a game whose board has components made
        from its view (`GameUI.board_items`) or that a worker does not know (`shipped`)."""
        table = change.table
        game = get_game(table.game)
        lang = table.lang
        own_items = type(ui_for(table.game)).board_items is not GameUI.board_items
        if table.state_text is not None and shipped(game) and not own_items:
            names = tuple(s.name for s in table.seats)
            job = BoardJob(
                game=table.game,
                table_id=table.id,
                version=table.version,
                state=table.state_text,
                names=names,
                text_names=tuple(escape(n) for n in names),
                lang=lang,
                options=dict(table.options),
                changes=tuple(tr(lang, line) for line in self._board_changes(change)),
                alt_max=ALT_TEXT_MAX,
            )
            return Drawn(asyncio.create_task(self._board_from_worker(job)), None)
        view = game.lasting_view(self.service.view_for(table, None), table.options)  # nothing momentary
        status = tr(lang, game.status(text_view(view)))
        alt = alt_text(game, view, self._board_changes(change), lang=lang)

        async def here() -> tuple[discord.File, str]:
            return await render_file(self.bot.renderer, table.game, view, description=alt, lang=lang), status

        return Drawn(asyncio.create_task(here()), view)

    async def _board_from_worker(self, job: BoardJob) -> tuple[discord.File, str]:
        parts: BoardParts
        parts, png = await self.bot.renderer.call("rendering.panels", "make_board", job)
        file = discord.File(io.BytesIO(png), filename="board.png", description=clip(parts.alt, ALT_TEXT_MAX))
        return file, parts.status

    async def post_board(self, change: Change, repost: bool = False) -> TableRow:
        """Post (or edit in place) the table's board; return the table as stored (`_board`, which a
        delivery calls, returns its followers too).

        The board mentions nobody (pings are separate, and deleted once answered). A new board is posted
        when someone new must act (so it comes to the bottom of the channel) and the previous one is
        deleted, so the channel keeps one board per table; a live-board game edits its one message.
        """
        return (await self._board(change, repost, False, None, None))[0]

    async def _board(
        self,
        change: Change,
        repost: bool,
        new_decision: bool,
        drawn: Drawn | None,
        stored: tuple[TableRow, dict[int, float]] | None,
    ) -> tuple[TableRow, dict[int, bool]]:
        """`post_board`, returning the followers too. `drawn`: the change's board already being drawn
        (`_draw_board`). `stored`: the table as the delivery read it under the delivery lock this board
        is posted under, and the seats away then (its old board's id is the one to replace: every board
        is posted under that lock, so none can have been posted since); None: read them now."""
        # the image renders in a worker while the log, the away marks and the old board are read
        drawn = drawn or self._draw_board(change)
        try:
            return await self._post_board(change, drawn, repost, new_decision, stored)
        finally:
            drawn.task.cancel()  # (done already, unless the board could not be posted)
            drawn.task.add_done_callback(lambda t: t.cancelled() or t.exception())

    async def _post_board(
        self,
        change: Change,
        drawn: Drawn,
        repost: bool,
        new_decision: bool,
        stored: tuple[TableRow, dict[int, float]] | None = None,
    ) -> tuple[TableRow, dict[int, bool]]:
        table = change.table
        game = get_game(table.game)
        glimpse = game.glimpse_seconds(table.options)
        names = [escape(s.name) for s in table.seats]
        new_decision = new_decision and table.status == "active"
        lang = table.lang  # the board is public: the table's language, whoever's click this answers
        embed = discord.Embed(title=N_("{title} · table #{id}", title=game.title, id=table.id), colour=EMBED_COLOUR)
        if game.live_board:  # this change's lines, reveals included unless each player glimpses them
            kept = [line for line in change.lines if not (glimpse and line.event.transient)]
            lines = [game.event_text(tr(lang, line.event.text), names) for line in kept][-LOG_LINES_ON_LIVE_BOARD:]
            if len(kept) < len(change.lines):
                lines.append(
                    t(
                        lang,
                        "👁 Something was shown for a moment: **What you missed** shows it to you, once, "
                        "for {glimpse} s.",
                        glimpse=glimpse,
                    )
                )
        else:  # the recent kept history, so an edit in place never drops a reveal or a round's scores
            logged = (await self.service.log_of(table, tail=LOG_LINES_ON_BOARD, lang=lang))[-LOG_LINES_ON_BOARD:]
            lines = [text for _, _, text in logged]  # (made in `lang`)
        lines = [f"• {line}" for line in lines]
        if stored is not None:  # the delivery's own read, under its lock
            old, away = stored[0].board_message_id, stored[1]
        else:  # read under the delivery lock: an earlier delivery may just have posted a newer board
            away = await self.service.away_of(table)
            old = await self.service.store.board_message_id(table.id)
        file, status = await drawn.task  # the status line came with the image (read while it was drawn)
        view = drawn.view
        tip = ""
        if table.version == 0 and table.status == "active":  # the first board: a tip for the first player
            if view is None:
                view = game.lasting_view(self.service.view_for(table, None), table.options)
            tip = f"💡 {game.first_tip(text_view(view), lang)}"
        description = "\n".join([*lines, "", f"**{status}**" if status else "", tip]).strip()
        while len(description) > EMBED_DESCRIPTION_MAX and len(lines) > 1:  # drop the oldest lines first
            lines = lines[1:]
            description = "\n".join([*lines, "", f"**{status}**" if status else "", tip]).strip()
        embed.description = clip(description, EMBED_DESCRIPTION_MAX)
        if table.status != "active":
            embed.add_field(name=N_("Result"), value=outcome_text(table, game) or "—", inline=False)
        embed.set_image(url="attachment://board.png")
        pledge = self.service.commitment_of(table)
        fair = t(lang, " · fair dice {pledge}… (/game verify)", pledge=pledge[:12]) if pledge else ""
        embed.set_footer(
            text=N_("v{version} · /game move · /game hand · /game log{fair}", version=table.version, fair=fair)
        )
        if pledge and table.version == 0:  # the first board says what binds the seed, in full
            embed.add_field(
                name=N_("🎲 Fair dice"),
                value=N_(
                    "Every roll and shuffle comes from a seed committed to as `{pledge}`; it is revealed "
                    "when the game ends, and `/game verify` shows how to check the whole game.",
                    pledge=pledge,
                ),
                inline=False,
            )
        localize_embed(lang, embed)
        items: list[discord.ui.Item[Any]] = []
        if table.status == "active":
            panel_label = N_("My panel") if game.has_private_info else N_("Play")
            items.append(
                TableButton(
                    "panel",
                    table.id,
                    table.version,
                    label=panel_label,
                    emoji="🎴",
                    style=discord.ButtonStyle.primary,
                    row=0,
                )
            )
            if glimpse:
                items.append(
                    TableButton(GLIMPSE, table.id, table.version, label=N_("What you missed"), emoji="👁", row=0)
                )
            items.append(TableButton(FOLLOW, table.id, 0, label=N_("Follow"), emoji="🔔", row=0))
            if view is not None:  # (made here for the games that have board items)
                items += ui_for(table.game).board_items(table, view)
        items = [localize_item(lang, item) for item in items]
        awaited = [
            t(lang, "{name} (away until {when})", name=names[s], when=f"<t:{int(away[s])}:R>")
            if s in away
            else names[s]
            for s in sorted(table.awaited)
        ]
        waiting = (
            clip(t(lang, "Waiting for {names}.", names=t(lang, ", ").join(awaited)), CONTENT_MAX)
            if awaited and table.status == "active"
            else ""
        )
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        in_place = game.live_board or not new_decision
        if in_place and old and not repost:
            try:
                await channel.get_partial_message(old).edit(
                    content=waiting or None, embed=embed, attachments=[file], view=make_view(items)
                )
                return await self._shown(table)
            except discord.NotFound:
                pass  # the board was deleted: post a new one
            except discord.HTTPException as err:
                if err.code != OLD_MESSAGE_EDITS:
                    raise
                log.info("table %s: Discord refuses more edits of the old board; posting a new one", table.id)
            file.reset()
        message = await channel.send(
            content=waiting or None,
            embed=embed,
            file=file,
            view=make_view(items),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        after = await self._shown(table, board=message.id)
        if old and old != message.id:
            await self._retire_board(channel, old, message, live=game.live_board)
        return after

    async def _shown(self, table: TableRow, *, board: int | None = None) -> tuple[TableRow, dict[int, bool]]:
        """The board shows `table`'s version (and is message `board`, when new): recorded, and the table
        as stored right after with its followers, read by the same statement (never from a cache: a move
        made meanwhile, here or in another process, is in it)."""
        after = await self.service.store.shown(table.id, table.version, board=board)
        if after is None:
            raise UnknownTable(N_("That table no longer exists."))
        return after

    async def text_board(self, table: TableRow) -> discord.Embed:
        """The board as text, for `/game status text:true`: the status line, the public view in words
        (`Game.board_words`), the recent log and, once over, the result. Nothing private."""
        game = get_game(table.game)
        view = self.service.view_for(table, None)
        names = [escape(s.name) for s in table.seats]
        embed = discord.Embed(
            title=N_("{title} · table #{id} (as text)", title=game.title, id=table.id), colour=EMBED_COLOUR
        )
        recent = [text for _, _, text in (await self.service.log(table.id, tail=LOG_LINES_ON_BOARD))]
        status = game.status(text_view(view))
        words = game.board_words(view, [" ".join(s.name.split()) for s in table.seats])
        parts = [f"**{status}**" if status else "", escape(words)]
        if recent:
            parts += ["", "**Recently**", *(f"• {line}" for line in recent[-LOG_LINES_ON_BOARD:])]
        if table.status == "active" and table.awaited:
            parts += ["", N_("Waiting for {x}.", x=", ".join(names[s] for s in sorted(table.awaited)))]
        embed.description = clip("\n".join(parts).strip(), EMBED_DESCRIPTION_MAX)
        if table.status != "active":
            embed.add_field(name="Result", value=clip(outcome_text(table, game), EMBED_FIELD_MAX) or "—", inline=False)
        if link := board_link(table):
            embed.add_field(name="Image", value=N_("[The board with its picture]({link})", link=link), inline=False)
        embed.set_footer(text=f"v{table.version}")
        return embed

    @staticmethod
    def _board_changes(change: Change) -> list[str]:
        """The public lines of this change for the board image's alt text, after the game's words for
        its view (a transient one only on a live board without a glimpse: with one, each player hears a
        reveal once, in What you missed, like everyone else); names unescaped."""
        game = get_game(change.table.game)
        raw = [s.name for s in change.table.seats]
        momentary_ok = game.live_board and not game.glimpse_seconds(change.table.options)
        lines = [
            game.event_text(line.event.text, raw) for line in change.lines if momentary_ok or not line.event.transient
        ]
        return [line for line in lines if line.strip()]

    @staticmethod
    async def _retire_board(channel: discord.PartialMessageable, old: int, new: discord.Message, *, live: bool) -> None:
        """The previous board is deleted: the channel keeps one board per table, and nothing stale (an
        old live board may show an open lid) stays readable. If Discord refuses, it loses its buttons
        (a live board is blanked)."""
        previous = channel.get_partial_message(old)
        try:
            await previous.delete()
        except discord.NotFound:
            return
        except discord.HTTPException:
            with contextlib.suppress(discord.HTTPException):
                if live:
                    await previous.edit(
                        content=N_("Board moved: {jump_url}", jump_url=new.jump_url),
                        embed=None,
                        attachments=[],
                        view=None,
                    )
                else:
                    await previous.edit(content=None, view=None)

    # ------------------------------------------------------------------ background
    async def _claimed(self, kind: str, now: float, work: Callable[[TableRow], Awaitable[bool]]) -> int:
        """Run `work` on every table this process claims for background work `kind` (see Store.claim),
        in small batches, each released once its work is done; return how many `work` counted.
        Another process's live claim is skipped: that process is doing this very work."""
        done, after = 0, 0
        while True:
            batch = await self.service.claim(
                kind, self.owner, now=now, lease=CLAIM_LEASE, after=after, limit=CLAIM_BATCH
            )
            if not batch:
                return done
            try:
                for table in batch:
                    done += await work(table)
            finally:
                await self.service.release([t.id for t in batch], self.owner)
            after = batch[-1].id

    async def _resume_tables(self) -> None:
        """After a restart: bots owe no move, and every table is shown as it is stored. Only the tables
        where a bot is awaited, and those behind, are loaded (in SQL): not every active table."""
        await self.bot.wait_until_ready()
        await self._claimed("bots", time.time(), lambda t: self._guarded(t, partial(self._resume_one, t)))
        await self.sweep()

    async def _resume_one(self, table: TableRow) -> None:
        change = await self.service.resume_bots(table.id)
        if change.lines:
            await self.deliver(change)

    async def sweep(self) -> int:
        """Show again every table whose board or awaited players are behind its stored state."""

        async def catch_up(table: TableRow) -> bool:
            if self._deliver_locks.locked(table.id):
                return False  # being delivered right now
            return await self._guarded(table, partial(self._catch_up, table))

        return await self._claimed("lagging", time.time(), catch_up)

    async def _catch_up(self, table: TableRow) -> None:
        """Under the delivery lock, so what is owed is read after any delivery in flight has finished."""
        async with self.delivery_lock(table.id):
            fresh = await self.service.table(table.id)
            if fresh.lagging and fresh.shown_version >= fresh.version and fresh.end_unannounced:
                await self.announce_end(fresh)  # the final board is shown; only the game-over message is owed
            elif fresh.lagging:
                await self._deliver(await self.service.catch_up(fresh), None, None)

    async def announce_end(self, table: TableRow) -> None:
        """The game-over message, once per table (cogs/common/ending.py); called under the delivery lock."""
        await ending.announce_end(self, table)

    async def _guarded(self, table: TableRow, work: Callable[[], Awaitable[Any]]) -> bool:
        """Background work for one table: its failure is its own (backed off; after repeated 403/404 the
        table is marked unreachable, logged once), never the end of the pass for every other table."""
        failures, retry_at = self._failures.get(table.id, (0, 0.0))
        if failures and time.monotonic() < retry_at:
            return False
        try:
            async with self.bot.busy:
                await work()
        except (discord.NotFound, discord.Forbidden) as err:
            failures += 1
            self._failures[table.id] = (failures, time.monotonic() + min(BACKOFF_MAX, 30.0 * 2**failures))
            if failures >= UNREACHABLE_AFTER:
                log.warning(
                    "table %s: channel %s keeps refusing us (%s %s); background work for it stops until it is "
                    "played again",
                    table.id,
                    table.channel_id,
                    err.status,
                    err.code,
                )
                await self.service.store.set_unreachable(table.id, time.time())
                self._failures.pop(table.id, None)
            return False
        except Exception as err:
            failures += 1
            self._failures[table.id] = (failures, time.monotonic() + min(BACKOFF_MAX, 30.0 * 2**failures))
            if isinstance(err, discord.HTTPException):
                log.warning("table %s: background work failed (%s %s); retrying later", table.id, err.status, err.code)
            else:
                log.exception("table %s: background work failed; retrying later", table.id)
            return False
        self._failures.pop(table.id, None)
        return True

    async def _reminder_loop(self) -> None:
        await self.bot.wait_until_ready()
        while not self.bot.is_closed():
            await asyncio.sleep(self.bot.settings.reminder_poll)
            for job in (self.send_reminders, self.run_autopilot, self.sweep):
                try:
                    await job()
                except Exception:  # the store itself failed: the next pass tries again
                    log.exception("background pass %s failed", job.__name__)

    async def send_reminders(self, now: float | None = None) -> int:
        """One reminder per quiet table, from whichever process claims it (so one, not one per process)."""
        now = time.time() if now is None else now
        return await self._claimed("remind", now, lambda t: self._guarded(t, partial(self._remind, t, now)))

    async def _remind(self, table: TableRow, now: float) -> None:
        """One reminder for the quiet awaited players; it replaces their earlier ping (deleted), and is
        deleted in turn once they decide, so a quiet table holds one ping, not a stack."""
        seats = [s for s in table.seats if s.seat in table.awaited and not s.played_by_bot and s.user_id is not None]
        text = " ".join(f"<@{s.user_id}>" for s in seats)
        message = await self._channel_send(
            table,
            content=t(  # a public ping: the table's language
                table.lang,
                "⏰ {mentions} — {title} is waiting for your move. {link}",
                mentions=text,
                title=get_game(table.game).title,
                link=board_link(table),
            ),
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(id=s.user_id) for s in seats if s.user_id]),
        )
        for old in {s.ping_message_id for s in seats if s.ping_message_id}:
            with contextlib.suppress(discord.HTTPException):
                await self.bot.get_partial_messageable(table.channel_id).get_partial_message(old).delete()
        await self.service.store.set_ping(table.id, {s.seat: table.awaited[s.seat] for s in seats}, message.id)
        await self.service.mark_reminded(table.id, now)

    async def run_autopilot(self, now: float | None = None) -> int:
        """Let a bot move for players who stayed away longer than their table allows."""
        at = time.time() if now is None else now
        return await self._claimed("autopilot", at, lambda t: self._guarded(t, partial(self._autopilot, t, now)))

    async def _autopilot(self, table: TableRow, now: float | None) -> None:
        await self.deliver(await self.service.autopilot(table.id, now))

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def _channel(interaction: discord.Interaction) -> int:
        if interaction.channel_id is None or interaction.guild_id is None:
            raise UnknownTable(N_("Run this in the server channel where the table is."))
        return interaction.channel_id

    @staticmethod
    def _game_key(text: str) -> str:
        needle = text.strip().lower()
        for g in GAMES.values():
            if needle in (g.key, g.title.lower()):
                return g.key
        known = ", ".join(sorted(g.title for g in GAMES.values()))
        raise InvalidInput(N_("Unknown game {text!r}. Choose one of: {known}.", text=text, known=known))


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, SpookyBot)
    await bot.add_cog(TableCog(bot))


__all__ = ["TableCog", "parse_options"]
