"""Fit the Ghost Stories position value (`bot/rules/ghost_stories/value.py`) on the bot's own games.

    python bench/value_ghost_stories.py gen --players 2,3,4 --seeds 200000:203000 --out v.jsonl
    python bench/value_ghost_stories.py fit v.jsonl          # needs numpy (pip install numpy)

`gen` plays the heuristic (`TaoistPolicy(planning=False)`) at every seat, Initiation, and writes the
features of every living Taoist's Yang-phase start with the game's outcome. `fit` fits a logistic model
per player count (L2, Newton's method) on the even seeds, reports log loss and calibration on the odd
ones against a constant, and prints `WEIGHTS` to paste into value.py. Seeds 200000 and up are kept for
this (not in the bench's fresh ranges).
"""

from __future__ import annotations

import argparse
import json
import sys
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.rules import Rng
from bot.rules.ghost_stories import GAME
from bot.rules.ghost_stories.bot import TaoistPolicy
from bot.rules.ghost_stories.plan_endgame import yang_start
from bot.rules.ghost_stories.value import FEATURES, features


def game_rows(job: tuple[int, int]) -> list[dict[str, Any]]:
    players, seed = job
    s = GAME.new(players, seed, {"difficulty": "initiation"})
    policy, r = TaoistPolicy(planning=False), Rng.from_seed(seed * 31 + players)
    rows: list[dict[str, Any]] = []
    while s["result"] is None:
        seat = min(GAME.to_act(s))
        v = GAME.bot_view(s, seat)
        if yang_start(s):
            me = s["boards"][s["turn"]]
            if me["alive"] and me["seat"] is not None:
                rows.append({"p": players, "seed": seed, "f": features(v)})
        GAME.play_in_place(s, policy.choose(v, GAME.legal_actions(s, seat), {}, r))
    for row in rows:
        row["y"] = 1 if s["result"] == "win" else 0
    return rows


def gen(args: argparse.Namespace) -> None:
    lo, hi = (int(x) for x in args.seeds.split(":"))
    jobs = [(p, seed) for p in (int(x) for x in args.players.split(",")) for seed in range(lo, hi)]
    n = 0
    with open(args.out, "w") as out, Pool(args.procs) as pool:
        for rows in pool.imap_unordered(game_rows, jobs, chunksize=8):
            for row in rows:
                out.write(json.dumps(row) + "\n")
            n += 1
            if n % 500 == 0:
                print(f"{n}/{len(jobs)} games", file=sys.stderr)


def fit(args: argparse.Namespace) -> None:
    import numpy as np

    with open(args.data) as fh:
        rows = [json.loads(line) for line in fh]
    out: dict[int, list[float]] = {}
    for p in sorted({r["p"] for r in rows}):
        mine = [r for r in rows if r["p"] == p]
        x = np.array([r["f"] for r in mine], dtype=float)
        y = np.array([r["y"] for r in mine], dtype=float)
        train = np.array([r["seed"] % 2 == 0 for r in mine])
        w = np.zeros(x.shape[1])
        lam = args.l2 * train.sum()
        for _ in range(50):
            z = x[train] @ w
            q = 1 / (1 + np.exp(-z))
            g = x[train].T @ (q - y[train]) + lam * np.r_[0, w[1:]]
            h = (x[train] * (q * (1 - q))[:, None]).T @ x[train] + lam * np.diag(np.r_[0, np.ones(len(w) - 1)])
            step = np.linalg.solve(h, g)
            w -= step
            if np.abs(step).max() < 1e-8:
                break
        test = ~train
        q = np.clip(1 / (1 + np.exp(-(x[test] @ w))), 1e-6, 1 - 1e-6)
        base = np.clip(y[train].mean(), 1e-6, 1 - 1e-6)
        ll = -np.mean(y[test] * np.log(q) + (1 - y[test]) * np.log(1 - q))
        ll0 = -np.mean(y[test] * np.log(base) + (1 - y[test]) * np.log(1 - base))
        games = len({r["seed"] for r in mine})
        print(f"{p} players: {games} games, {len(mine)} positions ({train.sum()} fit), "
              f"held-out log loss {ll:.4f} against {ll0:.4f} for the constant {base:.3f}")
        bins = np.minimum((q * 10).astype(int), 9)
        print("  calibration (predicted -> won, positions): " + ", ".join(
            f"{q[bins == b].mean():.2f}->{y[test][bins == b].mean():.2f} ({(bins == b).sum()})"
            for b in range(10) if (bins == b).any()))
        print("  " + ", ".join(f"{n} {v:+.3f}" for n, v in zip(FEATURES, w, strict=True)))
        out[p] = [round(float(v), 4) for v in w]
    print("WEIGHTS: dict[int, tuple[float, ...]] = {")
    for p, w in out.items():
        print(f"    {p}: ({', '.join(str(v) for v in w)}),")
    print("}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("gen")
    g.add_argument("--players", default="2,3,4")
    g.add_argument("--seeds", default="200000:203000")
    g.add_argument("--procs", type=int, default=2)
    g.add_argument("--out", required=True)
    f = sub.add_parser("fit")
    f.add_argument("data")
    f.add_argument("--l2", type=float, default=1e-4)
    args = ap.parse_args()
    gen(args) if args.cmd == "gen" else fit(args)


if __name__ == "__main__":
    main()
