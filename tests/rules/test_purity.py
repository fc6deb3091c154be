"""Every rules package stays pure: importing them pulls in no discord, PIL, sqlite or asyncio."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_rules_packages_import_no_io_libraries() -> None:
    code = (
        "import sys, bot.rules as r\n"
        "bad = [m for m in ('discord', 'PIL', 'aiosqlite', 'sqlite3', 'asyncio', 'aiohttp') if m in sys.modules]\n"
        "print(sorted(r.GAMES), bad)\n"
        "assert not bad, bad\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
