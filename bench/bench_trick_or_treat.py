"""Figures for Trick or Treat Halloween: apply / legal-action / render timings, PNG size, random
playouts per second and the bot's win rate against random-legal players (3-player games).

Run: python bench/bench_trick_or_treat.py [--games N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.rules import RandomPolicy, Rng
from bot.rules.trick_or_treat import GAME
from rendering.base import encode_png
from rendering.trick_or_treat import render


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def play(players: int, seed: int, bots: dict[int, Any], timings: dict[str, list[float]] | None = None) -> Any:
    """One game; seats in `bots` use that policy, the others play uniformly random legal moves."""
    state = GAME.new(players, seed)
    rng = Rng.from_seed(seed * 31 + 7)
    rand = RandomPolicy()
    memories: dict[int, dict[str, Any]] = {}
    while GAME.outcome(state) is None:
        seat = min(GAME.to_act(state))
        t0 = time.perf_counter()
        legal = GAME.legal_actions(state, seat)
        t1 = time.perf_counter()
        if seat in bots:
            view = GAME.view(state, seat)
            memories[seat] = bots[seat].observe(memories.get(seat, {}), view)
            action = bots[seat].choose(view, legal, memories[seat], rng)
        else:
            action = rand.choose({}, legal, {}, rng)
        t2 = time.perf_counter()
        state, _ = GAME.apply(state, seat, action)
        t3 = time.perf_counter()
        if timings is not None:
            timings["legal"].append(t1 - t0)
            timings["apply"].append(t3 - t2)
    return state


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=150, help="bot-vs-random games")
    args = ap.parse_args()

    timings: dict[str, list[float]] = {"legal": [], "apply": []}
    t0 = time.perf_counter()
    n_games = 20
    final = None
    for seed in range(n_games):
        final = play(4, seed, {}, timings)
    dt = time.perf_counter() - t0
    print(f"random 4-player playouts: {n_games / dt:.1f} games/s ({len(timings['apply'])} actions)")
    for key in ("apply", "legal"):
        xs = timings[key]
        print(f"{key:6s}: median {statistics.median(xs) * 1e6:.0f} µs, p99 {pct(xs, 0.99) * 1e6:.0f} µs")

    bot = GAME.bot_policy()
    mid = play(8, 3, {i: bot for i in range(8)})
    render_times, sizes = [], []
    for st in (final, mid):
        for seat in (None, 0):
            view = GAME.view(st, seat)
            t = time.perf_counter()
            img = render(view)
            data = encode_png(img)
            render_times.append(time.perf_counter() - t)
            sizes.append(len(data))
    print(
        f"render+encode: median {statistics.median(render_times) * 1e3:.1f} ms, "
        f"max PNG {max(sizes) / 1024:.0f} KiB"
    )

    wins = 0.0
    lengths = []
    t = time.perf_counter()
    for g in range(args.games):
        seat = g % 3
        st = play(3, 1000 + g, {seat: bot})
        out = GAME.outcome(st)
        assert out is not None
        if seat in out.winners:
            wins += 1 / len(out.winners)
        lengths.append(st["round"])
    print(
        f"bot vs 2 random players (3p, bot seat rotating): won {wins:.1f}/{args.games} "
        f"= {100 * wins / args.games:.1f}% (median {statistics.median(lengths)} rounds, "
        f"{time.perf_counter() - t:.1f} s)"
    )

    # bot-only games: how long a real game lasts
    rounds = [play(p, 50 + p, {i: bot for i in range(p)})["round"] for p in range(2, 9)]
    print(f"bot-only games, 2..8 players: rounds {rounds}")


if __name__ == "__main__":
    main()
