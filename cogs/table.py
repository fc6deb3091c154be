"""The `/game` commands, the lobby, the board and private panels: every game plays through here.

The cog only translates: Discord input -> table service call -> messages built from views. Errors that
players cause (`GameError`) become specific ephemeral replies in one place (`_fail`); anything else is
logged with its traceback and answered with a short apology.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import SpookyBot
from bot.config import REPO_ROOT
from bot.rules import GAMES, GameError, InvalidInput, StaleAction, get_game
from bot.store import TableRow
from bot.tables import Change, TableService, UnknownTable
from cogs.common.ui import (
    EMBED_COLOUR,
    Panel,
    TableButton,
    TableSelect,
    board_link,
    lobby_embed,
    lobby_items,
    make_view,
    outcome_text,
    render_file,
    seat_label,
    ui_for,
)

log = logging.getLogger(__name__)

DM_CLOSED = 50007
LOG_LINES_ON_BOARD = 8
LOG_LINES_ON_LIVE_BOARD = 16  # a live board is the only record of what bots turned up


def parse_options(text: str | None) -> dict[str, str]:
    """`difficulty=Hell advanced=every` -> dict; refuses anything else with an example."""
    out: dict[str, str] = {}
    for part in (text or "").replace(",", " ").split():
        key, sep, value = part.partition("=")
        if not sep or not key or not value:
            raise InvalidInput(f"Cannot read option {part!r}: write name=value, e.g. difficulty=Normal.")
        out[key.strip().lower()] = value.strip()
    return out


class TableCog(commands.GroupCog, group_name="game", group_description="Play board games at this table"):
    def __init__(self, bot: SpookyBot) -> None:
        self.bot = bot
        self._deliver_locks: dict[int, asyncio.Lock] = {}
        self._tasks: list[asyncio.Task[None]] = []
        super().__init__()

    @property
    def service(self) -> TableService:
        return self.bot.service

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(TableButton, TableSelect)
        self._tasks.append(asyncio.create_task(self._resume_tables()))
        self._tasks.append(asyncio.create_task(self._reminder_loop()))

    async def cog_unload(self) -> None:
        for task in self._tasks:
            task.cancel()

    # ------------------------------------------------------------------ slash commands
    @app_commands.command(name="new", description="Open a table for a game in this channel")
    @app_commands.describe(game="Which game", options="Game options, e.g. difficulty=Normal (see /game rules)")
    async def new(self, interaction: discord.Interaction, game: str, options: str | None = None) -> None:
        if interaction.channel_id is None or interaction.guild_id is None:
            raise InvalidInput("Tables live in server channels or threads; run /game new there.")
        key = self._game_key(game)
        table = await self.service.new_table(
            game_key=key,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            host_id=interaction.user.id,
            host_name=interaction.user.display_name,
            options=parse_options(options),
        )
        callback = await interaction.response.send_message(embed=lobby_embed(table), view=make_view(lobby_items(table)))
        message_id = getattr(callback.resource, "id", None)
        if message_id:
            await self.service.store.set_message(table.id, lobby=message_id)

    @new.autocomplete("game")
    async def _game_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [
            app_commands.Choice(name=f"{g.title} ({g.min_players}–{g.max_players} players)"[:100], value=g.key)
            for g in sorted(GAMES.values(), key=lambda g: g.title)
            if current.lower() in g.title.lower() or current.lower() in g.key
        ][:25]

    @app_commands.command(name="join", description="Sit down at the table in this channel")
    async def join(self, interaction: discord.Interaction) -> None:
        table = await self.service.table_in_channel(self._channel(interaction))
        table = await self.service.join(table.id, interaction.user.id, interaction.user.display_name)
        await interaction.response.send_message(embed=lobby_embed(table), view=make_view(lobby_items(table)))

    @app_commands.command(name="leave", description="Leave the lobby in this channel")
    async def leave(self, interaction: discord.Interaction) -> None:
        table = await self.service.table_in_channel(self._channel(interaction))
        table = await self.service.leave(table.id, interaction.user.id)
        await interaction.response.send_message(embed=lobby_embed(table), view=make_view(lobby_items(table)))

    @app_commands.command(name="start", description="Start the game (host only)")
    async def start(self, interaction: discord.Interaction) -> None:
        table = await self.service.table_in_channel(self._channel(interaction))
        change = await self.service.start(table.id, interaction.user.id, bots=False)
        await interaction.response.send_message(embed=lobby_embed(change.table))
        await self.deliver(await self.service.continue_bots(change))

    @app_commands.command(name="status", description="Post the current board here again")
    async def status(self, interaction: discord.Interaction) -> None:
        table = await self.service.table_for_user(interaction.channel_id, interaction.user.id)
        if table.status == "lobby":
            await interaction.response.send_message(embed=lobby_embed(table), view=make_view(lobby_items(table)))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.post_board(Change(table=table), repost=True)
        await interaction.followup.send("Here is the current board.", ephemeral=True)

    @app_commands.command(name="hand", description="Open your private panel (hand, secret choices)")
    async def hand(self, interaction: discord.Interaction) -> None:
        table = await self.service.table_for_user(interaction.channel_id, interaction.user.id)
        await self._send_panel(interaction, table)

    @app_commands.command(name="move", description="Make any legal move by its notation")
    @app_commands.describe(action="Start typing: the list shows your legal moves")
    async def move(self, interaction: discord.Interaction, action: str) -> None:
        await self.play(interaction, action)

    async def play(
        self, interaction: discord.Interaction, text: str, *, version: int | None = None, from_panel: bool = False
    ) -> None:
        """Make a move given in notation for the user's table here (or their latest, in DMs).

        Game cogs call this from their own slash commands and components; errors propagate to the
        caller's error handler (`GameCog` routes them to `_fail`).
        """
        async with self.bot.busy:
            table = await self.service.table_for_user(interaction.channel_id, interaction.user.id)
            change = await self.service.act(table.id, interaction.user.id, text, version=version, text=True, bots=False)
            await self._after_move(interaction, change, text, from_panel=from_panel)

    @move.autocomplete("action")
    async def _move_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            table = await self.service.table_for_user(interaction.channel_id, interaction.user.id)
            legal = self.service.legal_for(table, interaction.user.id)
        except GameError:
            return []
        game = get_game(table.game)
        needle = current.lower().strip()
        out = []
        for action in legal:
            text, label = game.format_action(action), game.describe_action(action)
            if needle in text.lower() or needle in label.lower():
                out.append(app_commands.Choice(name=label[:100], value=text[:100]))
        return out[:25]

    @app_commands.command(name="log", description="What has happened at this table")
    async def log_(self, interaction: discord.Interaction) -> None:
        table = await self.service.table_for_user(interaction.channel_id, interaction.user.id)
        lines = await self.service.log(table.id, tail=25)
        text = "\n".join(f"`{seq:>3}` {what}" for seq, _who, what in lines[-25:]) or "Nothing yet."
        await interaction.response.send_message(text[-1900:], ephemeral=True)

    @app_commands.command(name="rules", description="The rules of a game, as this bot plays them")
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        g = get_game(self._game_key(game))
        doc = REPO_ROOT / (g.rules_doc or f"docs/rules/{g.key}.md")
        opts = "\n".join(
            f"• `{o.name}`: {', '.join(o.choices)} (default {o.default}) — {o.description}" for o in g.options
        )
        text = f"**{g.title}** — {g.min_players}–{g.max_players} players. {g.summary}"
        if opts:
            text += f"\nOptions for `/game new options:`\n{opts}"
        files = [discord.File(doc, filename=doc.name)] if doc.is_file() else []
        if files:
            text += "\nThe full rules as implemented are attached."
        await interaction.response.send_message(text[:1900], files=files, ephemeral=True)

    rules.autocomplete("game")(_game_choices)

    @app_commands.command(name="resign", description="Resign from your game here (a bot takes your seat)")
    async def resign(self, interaction: discord.Interaction) -> None:
        table = await self.service.table_for_user(interaction.channel_id, interaction.user.id)
        change = await self.service.resign(table.id, interaction.user.id)
        await interaction.response.send_message("You resigned.", ephemeral=True)
        await self.deliver(change)

    @app_commands.command(name="abandon", description="Close the table in this channel (host or Manage Channels)")
    async def abandon(self, interaction: discord.Interaction) -> None:
        table = await self.service.table_in_channel(self._channel(interaction))
        manage = bool(interaction.permissions.manage_channels) if interaction.guild_id else False
        table = await self.service.abandon(table.id, interaction.user.id, can_manage_channel=manage)
        await interaction.response.send_message(
            f"{interaction.user.mention} closed the {get_game(table.game).title} table.",
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(name="remind", description="How long the table waits before reminding (host only)")
    @app_commands.describe(
        hours="Quiet hours before the awaited players are pinged again",
        bot_after_hours="Quiet hours before a bot makes the awaited players' move for them (0 = never)",
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
        text = f"Reminders after {hours:g} quiet hours."
        if autopilot:
            text += f" After {bot_after_hours:g} quiet hours a bot moves for whoever is awaited."
        elif autopilot == 0:
            text += " No bot will move for anyone."
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(name="help", description="How to play on Spooky Table")
    async def help(self, interaction: discord.Interaction) -> None:
        embed = discord.Embed(title="👻 Spooky Table", colour=EMBED_COLOUR)
        embed.description = (
            "Asynchronous board games in this channel. `/game new` opens a table; others press **Join**; "
            "the host presses **Start**. Play with the buttons under the board, your **private panel** "
            "(sent by DM, or `/game hand`), or `/game move`."
        )
        games = "\n".join(
            f"**{g.title}** ({g.min_players}–{g.max_players}) — {g.summary}"
            for g in sorted(GAMES.values(), key=lambda g: g.title)
        )
        embed.add_field(name="Games", value=games[:1024] or "—", inline=False)
        embed.add_field(
            name="Commands",
            value=(
                "`/game new` `/game join` `/game leave` `/game start` `/game status` `/game hand` "
                "`/game move` `/game log` `/game rules` `/game resign` `/game abandon` `/game remind`"
            ),
            inline=False,
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    # ------------------------------------------------------------------ errors
    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        await self.fail(interaction, original)

    async def fail(self, interaction: discord.Interaction, error: BaseException, table: TableRow | None = None) -> None:
        if isinstance(error, GameError):
            text = error.message
            if isinstance(error, StaleAction) and table is not None and (link := board_link(table)):
                text += f" Current board: {link}"
        else:
            # no interaction data in the log: a custom_id or option can carry a secret move
            where = interaction.command.qualified_name if interaction.command else "a component"
            log.error("unexpected error in %s (table %s)", where, table.id if table else "?", exc_info=error)
            text = "Sorry — something went wrong on our side. Nothing was changed; please try again."
        with contextlib.suppress(discord.HTTPException):
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)

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
            table = await self.service.table(table_id)
            if verb in ("join", "leave", "addbot", "cancel", "opt", "start"):
                await self._lobby_click(interaction, table, verb, arg, values)
            elif verb == "panel":
                await self._send_panel(interaction, table)
            elif verb == "page":
                await self._send_panel(interaction, table, page=int(arg or 0), edit=True)
            elif verb == "do":
                text = values[0] if values else arg
                await self.play(interaction, text, version=version, from_panel=True)
            elif not await ui_for(table.game).on_component(self, interaction, table, verb, version, arg, values):
                raise InvalidInput("This button belongs to a feature that no longer exists.")
        except Exception as err:  # one place turns every failure into an answer
            await self.fail(interaction, err, table)

    async def _lobby_click(
        self, interaction: discord.Interaction, table: TableRow, verb: str, arg: str, values: Sequence[str]
    ) -> None:
        user = interaction.user
        change: Change | None = None
        if verb == "join":
            table = await self.service.join(table.id, user.id, user.display_name)
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
            change = await self.service.start(table.id, user.id, bots=False)
            table = change.table
        await interaction.response.edit_message(embed=lobby_embed(table), view=make_view(lobby_items(table)))
        if change is not None:
            await self.deliver(await self.service.continue_bots(change))

    # ------------------------------------------------------------------ panels
    async def build_panel(self, table: TableRow, seat: int, page: int = 0, private: Sequence[str] = ()) -> Panel:
        game = get_game(table.game)
        view = self.service.view_for(table, seat)
        lines = [f"**{game.title}** · table #{table.id} · {seat_label(table, seat)}"]
        lines += [f"🔒 {p}" for p in private]
        lines.append(game.status(view))
        items: list[discord.ui.Item[Any]] = []
        if table.status == "active" and seat in table.awaited:
            legal = game.legal_actions(self.service.state_of(table), seat)
            items = ui_for(table.game).panel_items(game, table, seat, legal, page)
            lines.append("**Your move** — choose below, or use `/game move`.")
        elif table.status == "active":
            waiting = ", ".join(table.seats[s].name for s in sorted(table.awaited)) or "nobody"
            lines.append(f"Nothing to choose right now (waiting for {waiting}).")
        file = None
        if game.has_private_info:
            file = await render_file(self.bot.render_slots, table.game, view, "panel.png")
        return Panel("\n".join(lines)[:2000], file, items)

    async def _send_panel(
        self, interaction: discord.Interaction, table: TableRow, page: int = 0, edit: bool = False
    ) -> None:
        seat = self.service.seat_of(table, interaction.user.id)
        if table.status == "lobby":
            raise GameError("The game has not started yet.")
        if edit:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
        panel = await self.build_panel(table, seat.seat, page)
        if edit:
            await interaction.edit_original_response(
                content=panel.content, attachments=[panel.file] if panel.file else [], view=make_view(panel.items)
            )
        else:
            await interaction.followup.send(
                panel.content,
                files=[panel.file] if panel.file else [],
                view=make_view(panel.items),
                ephemeral=True,
            )

    async def _after_move(
        self, interaction: discord.Interaction, change: Change, text: str, *, from_panel: bool
    ) -> None:
        """Answer the mover (their next panel, or a confirmation), then show everyone the new board."""
        table = change.table
        game = get_game(table.game)
        seat = table.seat_of(interaction.user.id)
        label = game.describe_action(game.parse_action(text))
        message = interaction.message
        on_board = message is not None and message.id in (table.board_message_id,) and not game.live_board
        private_surface = (
            from_panel
            and message is not None
            and not on_board
            and (message.flags.ephemeral or interaction.guild_id is None)
        )
        if private_surface:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=not from_panel)
        again = seat is not None and seat.seat in change.newly_awaited
        if again and seat is not None:
            panel = await self.build_panel(table, seat.seat, private=self._private_lines(change, seat.seat))
            content = f"✅ {label}\n{panel.content}"[:2000]
            if private_surface:
                await interaction.edit_original_response(
                    content=content, attachments=[panel.file] if panel.file else [], view=make_view(panel.items)
                )
            else:
                await interaction.followup.send(
                    content,
                    files=[panel.file] if panel.file else [],
                    view=make_view(panel.items),
                    ephemeral=True,
                )
        elif private_surface:
            await interaction.edit_original_response(content=f"✅ {label}", attachments=[], view=None)
        elif not from_panel:
            await interaction.followup.send(f"✅ {label}", ephemeral=True)
        change = await self.service.continue_bots(change)  # bots reply after the player was answered
        await self.deliver(
            change,
            skip_dm={seat.seat} if again and seat is not None else set(),
            actor=seat.seat if seat is not None else None,
        )

    @staticmethod
    def _private_lines(change: Change, seat: int) -> list[str]:
        return [line.event.private[seat] for line in change.lines if seat in line.event.private]

    # ------------------------------------------------------------------ delivery
    async def deliver(self, change: Change, skip_dm: set[int] | None = None, actor: int | None = None) -> None:
        """Show a change: the board (new or edited), pings for whoever must act, private panels by DM.

        `actor` is the seat whose move this was: it is not pinged about its own next decision.
        """
        lock = self._deliver_locks.setdefault(change.table.id, asyncio.Lock())
        async with self.bot.busy, lock:
            table = await self.post_board(change, actor=actor)
            game = get_game(table.game)
            if not game.has_private_info or table.status != "active":
                return
            for seat in table.seats:
                if seat.played_by_bot or seat.user_id is None or seat.seat in (skip_dm or set()):
                    continue
                private = self._private_lines(change, seat.seat)
                if seat.seat in change.newly_awaited:
                    await self._dm_panel(table, seat.seat, private)
                elif private and not seat.dm_closed:
                    await self._dm(table, seat.seat, content="\n".join(f"🔒 {p}" for p in private))

    async def _dm_panel(self, table: TableRow, seat: int, private: Sequence[str]) -> None:
        if table.seats[seat].dm_closed:
            return
        panel = await self.build_panel(table, seat, private=private)
        await self._dm(table, seat, content=panel.content, file=panel.file, view=make_view(panel.items))

    async def _dm(self, table: TableRow, seat: int, **kwargs: Any) -> None:
        s = table.seats[seat]
        assert s.user_id is not None
        kwargs = {k: v for k, v in kwargs.items() if v is not None}
        try:
            channel = await self.bot.create_dm(discord.Object(id=s.user_id))
            await channel.send(**kwargs)
        except discord.Forbidden as err:
            if err.code != DM_CLOSED:
                raise
            await self.service.mark_dm(table.id, seat, closed=True, told=True)
            if not s.dm_told:
                await self._channel_send(
                    table,
                    content=(
                        f"<@{s.user_id}>, I can't send you direct messages. Use **My panel** on the board or "
                        "`/game hand` to see your private panel here (only you will see it)."
                    ),
                    allowed_mentions=discord.AllowedMentions(users=[discord.Object(id=s.user_id)]),
                )

    async def _channel_send(self, table: TableRow, **kwargs: Any) -> discord.Message:
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        return await channel.send(**kwargs)

    async def post_board(self, change: Change, repost: bool = False, actor: int | None = None) -> TableRow:
        """Post (or, for live-board games, edit) the table's board; return the table as stored."""
        table = change.table
        game = get_game(table.game)
        view = self.service.view_for(table, None)
        names = [s.name for s in table.seats]
        pings = [
            table.seats[s].user_id
            for s in sorted(change.newly_awaited)
            if table.status == "active" and not table.seats[s].played_by_bot and s != actor
        ]
        users = [u for u in pings if u is not None]
        embed = discord.Embed(title=f"{game.title} · table #{table.id}", colour=EMBED_COLOUR)
        if game.live_board:  # this change's lines, reveals included: the board is the only record
            lines = [game.event_text(line.event.text, names) for line in change.lines][-LOG_LINES_ON_LIVE_BOARD:]
        else:  # the recent kept history, so an edit in place never drops a reveal or a round's scores
            lines = [
                text for _, _, text in (await self.service.log(table.id, tail=LOG_LINES_ON_BOARD))[-LOG_LINES_ON_BOARD:]
            ]
        lines = [f"• {line}" for line in lines]
        status = game.status(view)
        embed.description = "\n".join([*lines, "", f"**{status}**" if status else ""]).strip()[:4000]
        if table.status != "active":
            embed.add_field(name="Result", value=outcome_text(table, game)[:1024] or "—", inline=False)
        embed.set_image(url="attachment://board.png")
        embed.set_footer(text=f"v{table.version} · /game move · /game hand · /game log")
        file = await render_file(self.bot.render_slots, table.game, view)
        items: list[discord.ui.Item[Any]] = []
        if table.status == "active":
            panel_label = "My panel" if game.has_private_info else "Play"
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
            items += ui_for(table.game).board_items(table, view)
        pinged = " ".join(f"<@{u}>" for u in users) + " — your move."
        awaited = [names[s] for s in sorted(table.awaited)]
        waiting = f"Waiting for {', '.join(awaited)}." if awaited and table.status == "active" else ""
        mentions = discord.AllowedMentions(users=[discord.Object(id=u) for u in users])
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        # read under the delivery lock: an earlier delivery may just have posted a newer board
        old = (await self.service.table(table.id)).board_message_id
        # Edit in place when nobody new must act (e.g. one of several simultaneous picks came in):
        # a new message, and a notification, only when there is something new to do.
        in_place = game.live_board or (not users and table.status == "active")
        if in_place and old and not repost:
            try:
                await channel.get_partial_message(old).edit(
                    content=waiting or None, embed=embed, attachments=[file], view=make_view(items)
                )
                if users:  # an edit notifies nobody: the players who must act get a short ping
                    link = board_link(replace(table, board_message_id=old))
                    await channel.send(content=f"{pinged} {link}", allowed_mentions=mentions)
                return await self.service.table(table.id)
            except discord.NotFound:
                pass
        message = await channel.send(
            content=(pinged if users else waiting) or None,
            embed=embed,
            file=file,
            view=make_view(items),
            allowed_mentions=mentions,
        )
        await self.service.store.set_message(table.id, board=message.id)
        if old and old != message.id:
            with contextlib.suppress(discord.HTTPException):
                previous = channel.get_partial_message(old)
                if game.live_board:  # an old live board may show an open lid: blank it entirely
                    await previous.edit(
                        content=f"Board moved: {message.jump_url}", embed=None, attachments=[], view=None
                    )
                else:
                    await previous.edit(view=None)
        return await self.service.table(table.id)

    # ------------------------------------------------------------------ background
    async def _resume_tables(self) -> None:
        """After a restart: bots owe no move, and any chain a crash cut short is finished and shown."""
        await self.bot.wait_until_ready()
        for table in await self.service.store.active_tables():
            try:
                change = await self.service.resume_bots(table.id)
                if change.lines:
                    await self.deliver(change)
            except Exception:
                log.exception("could not resume table %s", table.id)

    async def _reminder_loop(self) -> None:
        await self.bot.wait_until_ready()
        while not self.bot.is_closed():
            try:
                await self.send_reminders()
                await self.run_autopilot()
            except Exception:
                log.exception("reminder pass failed")
            await asyncio.sleep(self.bot.settings.reminder_poll)

    async def send_reminders(self, now: float | None = None) -> int:
        now = time.time() if now is None else now
        due = await self.service.due_reminders(now)
        for table in due:
            users = [
                s.user_id
                for s in table.seats
                if s.seat in table.awaited and not s.played_by_bot and s.user_id is not None
            ]
            text = " ".join(f"<@{u}>" for u in users)
            await self._channel_send(
                table,
                content=f"⏰ {text} — {get_game(table.game).title} is waiting for your move. {board_link(table)}",
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(id=u) for u in users]),
            )
            await self.service.mark_reminded(table.id, now)
        return len(due)

    async def run_autopilot(self, now: float | None = None) -> int:
        """Let a bot move for players who stayed away longer than their table allows."""
        due = await self.service.due_autopilot(now)
        for table in due:
            async with self.bot.busy:
                await self.deliver(await self.service.autopilot(table.id))
        return len(due)

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def _channel(interaction: discord.Interaction) -> int:
        if interaction.channel_id is None or interaction.guild_id is None:
            raise UnknownTable("Run this in the server channel where the table is.")
        return interaction.channel_id

    @staticmethod
    def _game_key(text: str) -> str:
        needle = text.strip().lower()
        for g in GAMES.values():
            if needle in (g.key, g.title.lower()):
                return g.key
        known = ", ".join(sorted(g.title for g in GAMES.values()))
        raise InvalidInput(f"Unknown game {text!r}. Choose one of: {known}.")


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, SpookyBot)
    await bot.add_cog(TableCog(bot))


__all__ = ["TableCog", "parse_options"]
