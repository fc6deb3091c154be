"""/game replay figures: the time to rebuild every frame of a long game from the seed and the log
(`TableService.replay_frames`), to render one step, and to build the animated GIF, and the GIF's size.

The game: Dawn Under with 3 seats (glimpse on), played to the end by the bot policy (the host's seat
too), on a sqlite store in a temporary directory.

Run: python bench/bench_replay.py [--seed N] [--game dawn_under] [--players 3]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.rules import Rng, get_game
from bot.store import Store
from bot.tables import TableService
from bot.tables import service as service_module
from cogs.common.replay import GIF_MAX_BYTES, build_gif, gif_steps
from cogs.common.ui import render_png


async def main(game: str, players: int, seed: int) -> None:
    service_module.secrets.randbits = lambda _bits: seed  # type: ignore[attr-defined]  # a reproducible game
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "bench.sqlite3")
        service = TableService(store)
        options = {"glimpse": "15"} if game == "dawn_under" else {}
        table = await service.new_table(
            game_key=game, guild_id=1, channel_id=2, host_id=10, host_name="host", options=options
        )
        for _ in range(players - 1):
            await service.add_bot(table.id, 10)
        await service.start(table.id, 10)
        t0 = time.perf_counter()
        rules = get_game(game)
        policy, rng = rules.bot_policy(), Rng.from_seed(seed)
        row = await service.table(table.id)
        memory = policy.observe({}, service.view_for(row, 0))
        while row.status == "active":  # the host's seat plays by the bot policy too; bots answer
            legal = service.legal_for(row, 10)
            view = service.view_for(row, 0)
            memory = policy.observe(memory, view)
            await service.act(table.id, 10, policy.choose(view, legal, memory, rng))
            row = await service.table(table.id)
        play = time.perf_counter() - t0
        t0 = time.perf_counter()
        _, frames = await service.replay_frames(table.id)
        rebuild = time.perf_counter() - t0
        t0 = time.perf_counter()
        png = render_png(game, frames[len(frames) // 2].view)
        one = time.perf_counter() - t0
        steps = gif_steps(len(frames))
        t0 = time.perf_counter()
        gif = build_gif(game, [frames[k].view for k in steps])
        anim = time.perf_counter() - t0
        await store.close()
    print(f"{game}, {players} seats, seed {seed}: {row.status}, {len(frames) - 1} steps (played in {play:.1f} s)")
    print(f"replay_frames (all {len(frames)} public views from seed + log): {rebuild * 1000:.0f} ms")
    print(f"one step: render {one * 1000:.0f} ms, PNG {len(png) / 1024:.0f} KiB")
    print(
        f"GIF: {len(steps)} frames, built in {anim:.1f} s, {len(gif) / 1024:.0f} KiB "
        f"(limit {GIF_MAX_BYTES // 1024 // 1024} MiB)"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", default="dawn_under")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    asyncio.run(main(args.game, args.players, args.seed))
