"""The floor: the least a discord.py bot can do for a move, run as its own process like the real bot.

`/game move action:` answers autocomplete with one choice and a move with the same three requests the
real bot makes at the least: defer, follow up with "✅", post a board (an embed and a PNG read once at
start-up). bench/bench_load.py measures it interleaved with `python -m bot` in the same minutes.
Run by the bench: python bench/floor_bot.py PNG_PATH (DISCORD_* settings as for the bot).
"""

from __future__ import annotations

import asyncio
import io
import os
import sys
from typing import Any

import discord
import yarl
from discord import app_commands


class Floor(discord.Client):
    def __init__(self, png: bytes, guild_id: int) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.png = png
        self.guild_id = guild_id
        self.tree = app_commands.CommandTree(self)
        group = app_commands.Group(name="game", description="floor")

        @group.command(name="move", description="floor move")
        async def move(interaction: discord.Interaction[Any], action: str) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await interaction.followup.send(f"✅ {action}", ephemeral=True)
            channel = interaction.channel
            assert isinstance(channel, discord.abc.Messageable)
            embed = discord.Embed(title="Floor · table #1", description=action)
            embed.set_image(url="attachment://board.png")
            await channel.send(embed=embed, file=discord.File(io.BytesIO(self.png), filename="board.png"))

        @move.autocomplete("action")
        async def choices(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
            return [app_commands.Choice(name="take 1", value="take 1")]

        self.tree.add_command(group)

    async def setup_hook(self) -> None:
        guild = discord.Object(id=self.guild_id)
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)


async def main(png_path: str) -> None:
    discord.http.Route.BASE = os.environ["DISCORD_API_BASE"].rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["DISCORD_GATEWAY_URL"])
    with open(png_path, "rb") as f:
        png = f.read()
    client = Floor(png, int(os.environ["DEV_GUILD_ID"]))
    async with client:
        await client.start(os.environ["DISCORD_TOKEN"])


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
