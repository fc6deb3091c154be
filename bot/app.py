"""The discord.py client: wiring settings, store, table service and cogs together.

`create_bot` is what both `python -m bot` and the end-to-end tests call, so the tests run the very
bot an admin runs, only pointed at a local Discord-compatible server.
"""

from __future__ import annotations

import asyncio
import logging
import pkgutil
from pathlib import Path
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot.config import Settings
from bot.i18n.commands import CatalogueTranslator, payload_digest, translated_payload
from bot.rules import Event, Game
from bot.rules.thinking import BotJob, shipped
from bot.store import Store, TableRow
from bot.tables import TableService
from bot.tables.service import think_in_thread
from rendering.pool import Renderer, shared_pool

log = logging.getLogger(__name__)

COGS_DIR = Path(__file__).resolve().parents[1] / "cogs"


def point_at(api_base: str | None, gateway_url: str | None) -> None:
    """Route REST and the gateway through another server (a proxy, or the tests' local Discord)."""
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


def cog_modules() -> list[str]:
    """Every module in cogs/ (the table cog first): a game's cog plugs in by existing.

    Packages (like cogs/common) hold shared code, not cogs, and are skipped.
    """
    names = [m.name for m in pkgutil.iter_modules([str(COGS_DIR)]) if not m.ispkg and not m.name.startswith("_")]
    names.sort(key=lambda n: (n != "table", n))
    return [f"cogs.{n}" for n in names]


STRING_OPTION_MAX = 100  # longer than any move, name or option list a command takes


def cap_string_options(tree: app_commands.CommandTree[Any], limit: int = STRING_OPTION_MAX) -> int:
    """Give every string option without a `max_length` one, so Discord refuses oversized input itself
    (it allows 6,000 characters otherwise, which an echo could turn into a reply Discord rejects).
    Returns how many options were capped."""
    capped = 0
    stack: list[Any] = list(tree.get_commands())
    while stack:
        cmd = stack.pop()
        if isinstance(cmd, app_commands.Group):
            stack.extend(cmd.commands)
            continue
        for param in getattr(cmd, "_params", {}).values():
            if param.type is discord.AppCommandOptionType.string and param.max_value is None:
                param.max_value = limit
                capped += 1
    return capped


class Busy:
    """Counts work in flight (a click being handled, a board being delivered).

    `close()` waits for it, so a shutdown never cuts a move's messages in half.
    """

    def __init__(self) -> None:
        self._count = 0
        self._changed = asyncio.Condition()

    async def __aenter__(self) -> None:
        self._count += 1

    async def __aexit__(self, *exc: object) -> None:
        self._count -= 1
        async with self._changed:
            self._changed.notify_all()

    async def idle(self) -> None:
        async with self._changed:
            await self._changed.wait_for(lambda: self._count == 0)


class BusyTree(app_commands.CommandTree[Any]):
    """Counts every slash command and autocomplete as work in flight (see `Busy`)."""

    async def _call(self, interaction: discord.Interaction[Any]) -> None:
        busy: Busy | None = getattr(self.client, "busy", None)
        if busy is None:
            await super()._call(interaction)
            return
        async with busy:
            await super()._call(interaction)


class SpookyBot(commands.Bot):
    def __init__(self, settings: Settings, **options: Any) -> None:
        # The bot acts on interactions only: it needs the servers and their channels (guilds), not
        # message, typing or reaction events. Without them Discord sends no MESSAGE_CREATE for every
        # board and notice posted (nor for the players' chat), and discord.py keeps no message cache
        # (`max_messages=None`): every message the bot edits or deletes is addressed by id.
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            max_messages=None,
            help_command=None,
            tree_cls=BusyTree,
            allowed_mentions=discord.AllowedMentions.none(),
            **options,
        )
        self.settings = settings
        self.store: Store | None = None
        self._service: TableService | None = None
        slots = max(settings.render_concurrency, settings.render_processes)  # at least one image per worker
        self.renderer = Renderer(shared_pool(settings.render_processes), slots)
        self.busy = Busy()
        self.sync_at_start = True  # `python -m bot sync` turns it off and syncs by itself

    @property
    def service(self) -> TableService:
        assert self._service is not None, "setup_hook has not run"
        return self._service

    async def setup_hook(self) -> None:
        point_at(self.settings.api_base, self.settings.gateway_url)
        self.store = await Store.open(self.settings.database)
        self._service = TableService(self.store, default_reminder=self.settings.reminder_after, thinker=self._think)
        for name in cog_modules():
            await self.load_extension(name)
        cap_string_options(self.tree)
        await self.tree.set_translator(CatalogueTranslator())
        if self.sync_at_start and self.settings.runs_shard_zero:
            await self.sync_commands()
        else:  # N processes share one application: the one holding shard 0 syncs (or `python -m bot sync`)
            log.info("commands not synced here: the process holding shard 0 syncs them")

    async def _think(
        self, game: Game[Any, Any], table: TableRow, seat: int, memory: dict[str, Any], seed: str
    ) -> tuple[Any, Any, list[Event]]:
        """A bot step in a render worker (`bot.rules.thinking`: a long think holds no GIL of ours), or
        in a thread for a game a worker does not know, a row not read from the store, or no workers."""
        if self.renderer.pool.processes > 0 and table.state_text is not None and shipped(game):
            job = BotJob(game.key, table.id, table.version, table.state_text, seat, memory, seed)
            made, _ = await self.renderer.think("bot.rules.thinking", "think", job)
            action, new_state, events = made
            return action, new_state, list(events)
        return await think_in_thread(game, table, seat, memory, seed)

    async def sync_commands(self, *, force: bool = False) -> None:
        """Guild sync in development (instant); global sync only when the definitions changed (or
        `force`: `python -m bot sync`, which a deploy step may run once instead of every process)."""
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
            log.info("commands synced to guild %s", self.settings.dev_guild_id)
            return
        assert self.store is not None
        # The payload `sync()` sends, translations included: a change of a translation alone re-syncs.
        digest = payload_digest(await translated_payload(self.tree))
        if force or await self.store.get_meta("commands_hash") != digest:
            await self.tree.sync()
            await self.store.set_meta("commands_hash", digest)
            log.info("global commands synced (definitions changed)")
        else:
            log.info("global commands unchanged; not syncing")

    async def close(self) -> None:
        try:
            await asyncio.wait_for(self.busy.idle(), timeout=10)
        except TimeoutError:
            log.warning("closing with work still in flight")
        await super().close()
        store, self.store = self.store, None  # close() can run twice at once (discord.py calls it too)
        if store is not None:
            await store.close()


class ShardedSpookyBot(SpookyBot, commands.AutoShardedBot):
    """The same bot on some of a sharded application's shards (`SHARD_COUNT`, `SHARD_IDS`): one
    process runs those shards only, so N processes share the load and restart one at a time."""


def create_bot(settings: Settings, **options: Any) -> SpookyBot:
    point_at(settings.api_base, settings.gateway_url)
    # The bot never joins voice: discord.py's start-up warnings about missing voice libraries are noise.
    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
    if settings.shard_count is None:
        return SpookyBot(settings, **options)
    # With shard_count given, discord.py connects to the configured gateway without asking /gateway/bot.
    shard_ids = list(settings.shard_ids) if settings.shard_ids is not None else None
    return ShardedSpookyBot(settings, shard_count=settings.shard_count, shard_ids=shard_ids, **options)
