"""Interaction round trip through the local Discord server: /game move -> callback -> board re-rendered.

Run: python bench/bench_roundtrip.py [moves-per-game]. For each game, one human seat (alice) plays
against bot seats with /game move (first legal move offered by autocomplete). Prints median and p99 of
(a) the time until the bot's interaction callback arrived and (b) until the new board image was posted
or edited into the channel (bots' replies included). Everything runs on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness import started_table

from bot.rules import GAMES, register
from tests.takeaway import GAME as TAKEAWAY


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


async def bench_game(key: str, moves: int, seats: int) -> tuple[list[float], list[float], int]:
    async with started_table(key, seats) as (server, bot, alice, chan):
        callback_ms: list[float] = []
        board_ms: list[float] = []
        png_bytes = 0
        while len(callback_ms) < moves:
            await bot.busy.idle()
            table = await bot.service.store.open_table_in_channel(chan.id)
            if table is None or table.status != "active":
                break
            choices = await server.autocomplete(alice, chan, "game move", "action", partial="")
            if not choices:
                await asyncio.sleep(0.01)
                continue
            signature = [(m.id, m.edits) for m in server.messages(chan)]
            t0 = time.perf_counter()
            await server.slash(alice, chan, "game move", action=choices[0]["value"], timeout=30)
            t1 = time.perf_counter()
            await server.wait_for_message(
                chan, lambda m, seen=signature: (m.id, m.edits) not in seen and bool(m.attachments), timeout=30
            )
            t2 = time.perf_counter()
            callback_ms.append((t1 - t0) * 1000)
            board_ms.append((t2 - t0) * 1000)
            png_bytes = max(png_bytes, max(len(a.data) for m in server.messages(chan) for a in m.attachments))
    return callback_ms, board_ms, png_bytes


async def main(moves: int) -> None:
    register(TAKEAWAY)
    plan = [("takeaway", 2), ("dawn_under", 3), ("sweets_stack", 3), ("trick_or_treat", 3), ("ghost_stories", 2)]
    print(f"{'game':<16}{'moves':>6}{'callback med':>14}{'p99':>9}{'board med':>12}{'p99':>9}{'max PNG':>10}")
    for key, seats in plan:
        if key not in GAMES:
            continue
        cb, board, png = await bench_game(key, moves, seats)
        if not cb:
            continue
        print(
            f"{key:<16}{len(cb):>6}{statistics.median(cb):>12.1f}ms{pct(cb, 0.99):>7.1f}ms"
            f"{statistics.median(board):>10.1f}ms{pct(board, 0.99):>7.1f}ms{png / 1024:>8.0f}KiB"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("moves", type=int, nargs="?", default=60, help="moves per game (default 60)")
    asyncio.run(main(parser.parse_args().moves))
