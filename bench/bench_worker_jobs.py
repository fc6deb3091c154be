"""A render worker's CPU per move, as the pool sees it: real games' versions through
`rendering.panels.make_board` / `make_panel`, consecutive versions of many tables interleaved.

Issue #18, session 9: the load bench's tables are Sweets Stack with one human seat and a bot seat; each
version a move makes sends its board and the mover's next private panel to the render pool, whose two
workers take whichever request comes next. This replays that: `--tables` seeded two-seat games played
by random legal moves, one version of each table in turn (round robin, like 50 movers), each version's
board job and seat 0's panel job (in the table's language, `--lang`) dealt to `--workers` simulated
workers at random (seeded), each worker a fresh process that gets its jobs in order. A worker warms up
on the first `--warm` versions of every table (uncounted), then its process CPU time over the rest is
summed over the workers and divided by the versions counted: CPU per move (board + panel).

`--against DIR` runs the same jobs with another checkout's code (e.g. `git archive` of main in DIR),
alternating with this checkout `--runs` times each, and prints both medians and their ratio; every PNG
is hashed and the two checkouts' hashes compared (byte-identical images, the same parts otherwise).
`--profile FILE` writes a cProfile of one worker's counted jobs (this checkout).

Run: python bench/bench_worker_jobs.py [--tables 50] [--versions 40] [--workers 2] [--lang en-US]
     [--against DIR --runs 5] [--profile out.prof]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import pickle
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
NAMES = ["alice", "bob", "carol", "dave"]
ZH_NAMES = ["小明", "阿華", "卡羅爾", "志明"]


def jobs(tables: int, versions: int, lang: str, game_key: str = "sweets_stack") -> list[tuple[int, Any, Any]]:
    """(version index, board job, panel job) for `versions` versions of each of `tables` games,
    interleaved table by table as the load bench's movers make them."""
    from bot.rules import RandomPolicy, Rng, get_game
    from rendering.panels import BoardJob, PanelJob

    game = get_game(game_key)
    names = tuple((ZH_NAMES if lang == "zh-TW" else NAMES)[:2])
    per_table: list[list[tuple[Any, Any]]] = []
    rand = RandomPolicy()
    for table in range(tables):
        state = game.new(2, 1000 + table, game.check_options({}))
        rng = Rng.from_seed(table)
        out: list[tuple[Any, Any]] = []
        version = 1
        while len(out) < versions and game.outcome(state) is None:
            awaited = game.to_act(state)
            text = json.dumps(game.dump_state(state), separators=(",", ":"))
            board = BoardJob(game_key, table, version, text, names, names, lang, {}, ("**alice** moved.",), 1024)
            panel = PanelJob(game_key, table, version, text, 0, names, names, lang, 0 in awaited, True, 1024)
            out.append((board, panel))
            seat = min(awaited)
            state, _ = game.apply(state, seat, rand.choose({}, game.legal_actions(state, seat), {}, rng))
            version += 1
        per_table.append(out)
    dealt: list[tuple[int, Any, Any]] = []
    for k in range(versions):
        for out in per_table:
            if k < len(out):
                dealt.append((k, *out[k]))
    return dealt


def worker(args: argparse.Namespace, index: int) -> dict[str, Any]:
    """One simulated worker: its share of the jobs, warm-up apart; CPU seconds and the PNGs' hashes."""
    from rendering.panels import make_board, make_panel

    deal = random.Random(args.seed)
    mine: list[tuple[int, str, Any]] = []
    for k, board, panel in jobs(args.tables, args.versions, args.lang):
        for kind, job in (("board", board), ("panel", panel)):
            if deal.randrange(args.workers) == index:
                mine.append((k, kind, job))
    digests: dict[str, str] = {}
    cpu = 0.0
    counted = 0
    prof = None
    if args.profile and index == 0:
        import cProfile

        prof = cProfile.Profile()
    for k, kind, job in mine:
        counting = k >= args.warm
        if counting and prof is not None:
            prof.enable()
        c0 = time.process_time()
        parts, png = (make_board if kind == "board" else make_panel)(job)
        c1 = time.process_time()
        if prof is not None:
            prof.disable()
        if counting:
            cpu += c1 - c0
            counted += 1
        h = hashlib.sha1(png)
        h.update(pickle.dumps(parts))
        digests[f"{kind} {job.table_id} {job.version}"] = h.hexdigest()
    if prof is not None:
        prof.dump_stats(args.profile)
    return {"cpu": cpu, "jobs": counted, "digests": digests}


def run_tree(tree: Path, args: argparse.Namespace) -> tuple[float, dict[str, str]]:
    """CPU ms per move with the checkout `tree` (a fresh process per worker), and every job's hash."""
    cpu = 0.0
    digests: dict[str, str] = {}
    for index in range(args.workers):
        cmd = [sys.executable, str(Path(__file__).resolve()), "--child", str(index), *child_args(args)]
        env = {**os.environ, "PYTHONPATH": str(tree)}
        out = subprocess.run(cmd, env=env, cwd=tree, check=True, capture_output=True).stdout
        got = pickle.loads(out)
        cpu += got["cpu"]
        digests.update(got["digests"])
    moves = args.tables * max(0, args.versions - args.warm)
    return cpu * 1e3 / moves, digests


def child_args(args: argparse.Namespace) -> list[str]:
    out = ["--tables", str(args.tables), "--versions", str(args.versions), "--warm", str(args.warm),
           "--workers", str(args.workers), "--lang", args.lang, "--seed", str(args.seed)]
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--versions", type=int, default=40, help="versions of each table (its first ones)")
    ap.add_argument("--warm", type=int, default=5, help="first versions of each table not counted")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--lang", default="en-US")
    ap.add_argument("--seed", type=int, default=1, help="how jobs are dealt to the workers")
    ap.add_argument("--against", metavar="DIR", help="another checkout, alternately: medians and ratio")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--profile", metavar="FILE", help="cProfile one worker's counted jobs (this checkout)")
    ap.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child is not None:
        sys.stdout.buffer.write(pickle.dumps(worker(args, args.child)))
        return
    if args.profile:
        got = worker(args, 0)
        print(f"profiled {got['jobs']} jobs ({got['cpu'] * 1e3 / max(1, got['jobs']):.2f} ms CPU each): {args.profile}")
        return
    trees = [("after", ROOT)] + ([("before", Path(args.against).resolve())] if args.against else [])
    cpu: dict[str, list[float]] = {name: [] for name, _ in trees}
    seen: dict[str, dict[str, str]] = {}
    for run in range(args.runs):
        for name, tree in trees if run % 2 == 0 else trees[::-1]:
            ms, digests = run_tree(tree, args)
            cpu[name].append(ms)
            seen.setdefault(name, digests)
            print(f"run {run + 1} {name}: {ms:.2f} ms CPU a move", flush=True)
    moves = args.tables * max(0, args.versions - args.warm)
    line = f"{args.tables} tables, {moves} moves counted, {args.workers} workers, {args.lang}:"
    for name in cpu:
        line += f" {name} {statistics.median(cpu[name]):.2f} ms"
    if args.against:
        a, b = statistics.median(cpu["after"]), statistics.median(cpu["before"])
        same = seen["after"] == seen["before"]
        differ = sum(seen["after"].get(k) != v for k, v in seen["before"].items())
        line += f" (after/before {a / b:.3f}); outputs identical: {same} ({differ} of {len(seen['before'])} differ)"
    print(line)


if __name__ == "__main__":
    main()
