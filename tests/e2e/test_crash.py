"""A short crash loop in the test run (the long one is bench/crash_soak.py, a CI step of its own)."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.crashloop import Crashloop
from tests.fakediscord import FakeDiscord


async def test_killed_at_random_moments_the_bot_loses_nothing_and_shows_every_table(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    loop = Crashloop(fake_discord, tmp_path, seed=7)
    try:
        report = await loop.run(kills=3)
    finally:
        await loop.stop()
    assert report.kills == 3 and report.moves_sent >= 3
    assert report.lost == 0 and report.stale == 0, report.problems
