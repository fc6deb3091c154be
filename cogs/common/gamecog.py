"""The base of every per-game cog: its slash commands become moves through the table cog."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.rules import GameError, InvalidInput, get_game
from bot.store import TableRow

if TYPE_CHECKING:
    from bot.app import SpookyBot
    from cogs.table import TableCog


class GameCog(commands.GroupCog):
    """Subclass with `group_name=...` and set `game_key`; use `await self.play(interaction, "flip C4")`."""

    game_key: str = ""

    def __init__(self, bot: SpookyBot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def tables(self) -> TableCog:
        cog = self.bot.get_cog("TableCog")
        assert cog is not None, "the table cog must be loaded first"
        return cog  # type: ignore[return-value]

    async def table_here(self, interaction: discord.Interaction) -> TableRow:
        """This channel's table (or the user's latest, in DMs), which must be of this cog's game."""
        table = await self.bot.service.table_for_user(interaction.channel_id, interaction.user.id)
        if table.game != self.game_key:
            raise InvalidInput(
                f"The table here plays {get_game(table.game).title}; "
                f"/{self.__cog_group_name__} commands are for {get_game(self.game_key).title}."
            )
        return table

    async def play(self, interaction: discord.Interaction, text: str) -> None:
        await self.table_here(interaction)
        await self.tables.play(interaction, text)

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        await self.tables.fail(interaction, original)


__all__ = ["GameCog", "GameError"]
