"""Every benchmark in bench/ still starts: no test runs them, so a renamed import or a changed
signature would otherwise go unseen until someone needs the figures (two were found broken that way).
`--help` imports the whole script and parses its arguments without running anything long."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench"
# Not entry points: the floor bot is started by bench_load.py with its environment; harness and gs_games
# are modules the other scripts import.
NOT_SCRIPTS = {"floor_bot.py", "gs_games.py", "harness.py"}


def test_every_bench_script_answers_help() -> None:
    scripts = sorted(p for p in BENCH.glob("*.py") if p.name not in NOT_SCRIPTS)
    assert len(scripts) >= 15, scripts
    running = {
        p.name: subprocess.Popen(
            [sys.executable, str(p), "--help"],
            cwd=BENCH.parent,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for p in scripts
    }
    failed = {}
    for name, proc in running.items():
        out, err = proc.communicate(timeout=120)
        if proc.returncode != 0 or "usage:" not in out:
            failed[name] = (proc.returncode, err.strip().splitlines()[-1:] or out[:200])
    assert not failed, failed
