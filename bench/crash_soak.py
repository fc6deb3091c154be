"""Crash soak: kill `python -m bot` with SIGKILL at random moments of games (after an answer, while a bot
thinks, while a board or a DM panel is being delivered), restart it, and check after every restart that
the board and every awaited player's panel show the stored version and that no move answered ✅ is lost.

Run: python bench/crash_soak.py [--kills 24] [--seed 1]. Exits 1 if anything was lost or stale. CI runs it
as a step of its own (it takes about a minute); tests/e2e/test_crash.py runs a short version.
Everything runs on 127.0.0.1: a local Discord (tests/fakediscord) and the bot as a subprocess.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.e2e.crashloop import Crashloop
from tests.fakediscord import FakeDiscord


async def soak(kills: int, seed: int) -> int:
    started = time.monotonic()
    total = None
    games = 0
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord(fail_fast=False) as server:
            while total is None or total.kills < kills:
                games += 1
                game_dir = Path(tmp) / f"game{games}"
                game_dir.mkdir()
                loop = Crashloop(server, game_dir, seed=seed + games)
                try:
                    report = await loop.run(kills=kills - (total.kills if total else 0))
                finally:
                    await loop.stop()
                if total is None:
                    total = report
                else:
                    total.kills += report.kills
                    total.moves_sent += report.moves_sent
                    total.acknowledged += report.acknowledged
                    total.lost += report.lost
                    total.stale += report.stale
                    total.versions += report.versions
                    total.boot_seconds += report.boot_seconds
                    total.problems += report.problems
                if report.kills == 0:
                    break
    assert total is not None
    print(
        f"crash soak: {total.kills} kills over {games} game(s), {total.moves_sent} moves sent, "
        f"{total.acknowledged} answered ✅"
    )
    print(f"  lost acknowledged moves: {total.lost}")
    print(f"  restarts showing a stale board or panel: {total.stale}")
    print(f"  table versions at the restarts: {total.versions}")
    print(
        f"  boot to synced: median {statistics.median(total.boot_seconds):.2f} s, max {max(total.boot_seconds):.2f} s"
    )
    print(f"  {time.monotonic() - started:.0f} s in all")
    for problem in total.problems:
        print(f"  PROBLEM: {problem}")
    return 1 if total.lost or total.stale else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=24)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    return asyncio.run(soak(args.kills, args.seed))


if __name__ == "__main__":
    sys.exit(main())
