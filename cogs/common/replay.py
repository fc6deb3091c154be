"""`/game replay`: a step-through of a table's public boards (◀ ▶ and a select of steps) and an
animated GIF of the whole game, rebuilt from the seed and the action log (`TableService.replay_frames`).

Every frame is the lasting public view of its moment, so a replay shows nothing that was hidden then:
no closed lid, hand, deck order or transient reveal. A running table may be replayed too (public view
only). The components carry the table and the step (`st:rp:<table>:<step>:<prev|next|gif>`,
`ss:rp:<table>:0:pick`), so they work after a restart and on finished tables.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from PIL import Image

from bot.rules import InvalidInput, get_game
from bot.store import TableRow
from bot.tables import Frame, NotAllowed
from bot.tables.text import CONTENT_MAX, clip
from cogs.common.ui import SELECT_SIZE, TableButton, TableSelect, make_view, render_file, renderer_module

if TYPE_CHECKING:
    from cogs.table import TableCog

REPLAY = "rp"
MAX_GIF_FRAMES = 120  # a long game is shown every k-th step (the last one always)
GIF_WIDTH = 560  # boards are downscaled to this width at the most
GIF_MAX_BYTES = 8 * 1024 * 1024  # well under Discord's 10 MB upload limit
FRAME_MS = 700
LAST_FRAME_MS = 3000


def check_may_see(table: TableRow, interaction: discord.Interaction) -> None:
    """A table of another server is replayed only for one of its players."""
    if table.guild_id != interaction.guild_id and table.seat_of(interaction.user.id) is None:
        raise NotAllowed("That table is in another server; ask there, or a player of it.")


def step_options(count: int, current: int) -> list[int]:
    """At most 25 steps for the select, evenly spaced from the first to the last, the current one in."""
    if count <= SELECT_SIZE:
        return list(range(count))
    picks = {round(i * (count - 1) / (SELECT_SIZE - 2)) for i in range(SELECT_SIZE - 1)}
    picks.add(current)  # 24 evenly spaced and the current one: 25 at the most
    return sorted(picks)


def items(table: TableRow, frames: Sequence[Frame], step: int) -> list[discord.ui.Item[Any]]:
    last = len(frames) - 1
    options = [
        discord.SelectOption(
            label=f"Step {k}/{last}" + (" (start)" if k == 0 else " (end)" if k == last else ""),
            value=str(k),
            description=clip(" ".join(frames[k].lines), 100) or None,
            default=k == step,
        )
        for k in step_options(len(frames), step)
    ]
    return [
        TableButton(REPLAY, table.id, max(step - 1, 0), "prev", label="◀", disabled=step == 0, row=0),
        TableButton(REPLAY, table.id, min(step + 1, last), "next", label="▶", disabled=step >= last, row=0),
        TableButton(REPLAY, table.id, step, "gif", label="Animation", emoji="🎞", row=0),
        TableSelect(REPLAY, table.id, 0, "pick", options=options, placeholder="Go to a step…", row=1),
    ]


def content(table: TableRow, frames: Sequence[Frame], step: int) -> str:
    game = get_game(table.game)
    head = f"🎞 **{game.title}** #{table.id}, replay — step {step}/{len(frames) - 1}"
    if table.status == "active":
        head += " (still being played: the public board only)"
    lines = "\n".join(f"• {line}" for line in frames[step].lines) or "• (nothing public to tell)"
    return clip(f"{head}\n{lines}", CONTENT_MAX)


async def show(cog: TableCog, interaction: discord.Interaction, table_id: int, step: int, *, edit: bool) -> None:
    """Step `step` of the replay: a new ephemeral (the command) or the same one edited (a click)."""
    check_may_see(await cog.service.table(table_id), interaction)
    if not await cog.ack(interaction, update=edit):  # before the log is replayed: a long game takes a while
        return
    table, frames = await cog.service.replay_frames(table_id)
    if step >= len(frames):
        raise InvalidInput("That replay step does not exist; start again with /game replay.")
    file = await render_file(cog.bot.renderer, table.game, frames[step].view, "replay.png")
    view = make_view(items(table, frames, step))
    if edit:
        await interaction.edit_original_response(content=content(table, frames, step), attachments=[file], view=view)
    else:
        await interaction.followup.send(content(table, frames, step), file=file, view=view, ephemeral=True)


def gif_steps(count: int, limit: int = MAX_GIF_FRAMES) -> list[int]:
    """Every step, or every k-th one of a long game (the first and the last always)."""
    if count <= limit:
        return list(range(count))
    every = -(-(count - 1) // (limit - 1))
    return sorted({*range(0, count, every), count - 1})


def build_gif(game_key: str, views: Sequence[dict[str, Any]], width: int = GIF_WIDTH) -> bytes:
    """An animated GIF of the boards (pure Pillow; run it in a worker thread): downscaled to `width`,
    256 colours a frame, halved again while it is over GIF_MAX_BYTES."""
    module = renderer_module(game_key)
    boards = [module.render(v).convert("RGB") for v in views]
    while True:
        small = []
        for board in boards:
            w, h = board.size
            scale = min(1.0, width / w)
            small.append(board.resize((max(1, round(w * scale)), max(1, round(h * scale))), Image.Resampling.LANCZOS))
        # one palette for the whole game (from the last board, which shows the most), no dithering: the
        # boards are flat drawings, and a frame then differs from the one before only where the move did
        palette = small[-1].quantize(colors=256, method=Image.Quantize.MEDIANCUT)
        frames = [im.quantize(palette=palette, dither=Image.Dither.NONE) for im in small]
        out = io.BytesIO()
        durations = [FRAME_MS] * (len(frames) - 1) + [LAST_FRAME_MS]
        frames[0].save(out, format="GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0)
        data = out.getvalue()
        if len(data) <= GIF_MAX_BYTES or width <= 120:
            return data
        width //= 2


async def animation(cog: TableCog, interaction: discord.Interaction, table_id: int) -> None:
    check_may_see(await cog.service.table(table_id), interaction)
    if not await cog.ack(interaction):
        return
    table, frames = await cog.service.replay_frames(table_id)
    steps = gif_steps(len(frames))
    async with cog.bot.renderer.slots:
        data = await asyncio.to_thread(build_gif, table.game, [frames[k].view for k in steps])
    every = "" if len(steps) == len(frames) else f", one every {steps[1]} steps"
    text = f"🎞 **{get_game(table.game).title}** #{table.id}: {len(steps)} frames{every}, public boards only."
    file = discord.File(io.BytesIO(data), filename=f"table-{table.id}.gif", description=f"Replay of table {table.id}")
    await interaction.followup.send(text, file=file, ephemeral=True)


async def on_click(
    cog: TableCog, interaction: discord.Interaction, table_id: int, step: int, arg: str, values: Sequence[str]
) -> None:
    if arg == "gif":
        await animation(cog, interaction, table_id)
        return
    if arg == "pick":
        value = values[0] if values else ""
        if not value.isdigit() or len(value) > 6:
            raise InvalidInput("That replay step is damaged; start again with /game replay.")
        step = int(value)
    elif arg not in ("prev", "next"):
        raise InvalidInput("That replay button is damaged; start again with /game replay.")
    await show(cog, interaction, table_id, step, edit=True)
