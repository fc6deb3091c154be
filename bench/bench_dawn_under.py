"""Dawn Under figures: apply and legal-action latency, render time and PNG size, random playouts per
second, and the memory bot's win rate against a random-legal player.

Run: python bench/bench_dawn_under.py [--games N] [--bot-only] [--options list_garlic=yes,...]
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
from bot.rules.dawn_under import GAME
from rendering.base import encode_png
from rendering.dawn_under import render

OPTIONS: dict[str, str] = {}  # --options: table options for the bot-vs-random games


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def random_game(n: int, seed: int, timings: dict[str, list[float]] | None = None) -> tuple[Any, int]:
    s = GAME.new(n, seed)
    rng = Rng.from_seed(seed + 17)
    steps = 0
    while GAME.outcome(s) is None:
        seat = rng.choice(sorted(GAME.to_act(s)))
        t0 = time.perf_counter()
        legal = GAME.legal_actions(s, seat)
        t1 = time.perf_counter()
        action = rng.choice(legal)
        s, _ = GAME.apply(s, seat, action)
        t2 = time.perf_counter()
        if timings is not None:
            timings["legal"].append(t1 - t0)
            timings["apply"].append(t2 - t1)
        steps += 1
    return s, steps


def bot_vs_random(players: int, games: int, seed0: int = 5000) -> tuple[float, float]:
    """Seat the memory bot at one seat (rotating) against random players; return (win rate, ties)."""
    bot = GAME.bot_policy()
    rand = RandomPolicy()
    wins = 0.0
    shared = 0
    for k in range(games):
        seed = seed0 + k
        bot_seat = k % players
        s = GAME.new(players, seed, OPTIONS or None)
        rng = Rng.from_seed(seed * 3 + 1)
        memory: dict[str, Any] = bot.observe({}, GAME.view(s, bot_seat))
        while GAME.outcome(s) is None:
            seat = rng.choice(sorted(GAME.to_act(s)))
            legal = GAME.legal_actions(s, seat)
            if seat == bot_seat:
                action = bot.choose(GAME.view(s, seat), legal, memory, rng)
            else:
                action = rand.choose(GAME.view(s, seat), legal, {}, rng)
            s, _ = GAME.apply(s, seat, action)
            memory = bot.observe(memory, GAME.view(s, bot_seat))
        out = GAME.outcome(s)
        assert out is not None
        if bot_seat in out.winners:
            wins += 1.0 / len(out.winners)
            shared += len(out.winners) > 1
    return wins / games, shared / games


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200, help="bot-vs-random games per player count")
    parser.add_argument("--bot-only", action="store_true", help="only the bot-vs-random games")
    parser.add_argument("--options", default="", help="table options for the bot games, e.g. list_garlic=yes")
    args = parser.parse_args()
    OPTIONS.update(dict(kv.split("=", 1) for kv in args.options.split(",") if kv))
    if not args.bot_only:
        engine_figures()
    bot_figures(args.games)


def engine_figures() -> None:
    timings: dict[str, list[float]] = {"legal": [], "apply": []}
    for n in range(2, 7):
        for seed in range(20):
            random_game(n, seed, timings)
    for key in ("apply", "legal"):
        vals = timings[key]
        print(
            f"{key:6s}: median {statistics.median(vals) * 1e6:7.1f} us   p99 {pct(vals, 0.99) * 1e6:7.1f} us"
            f"   ({len(vals)} calls)"
        )

    views = {}
    s, _ = random_game(4, 3)
    views["final 4p"] = GAME.view(s, None)
    s = GAME.new(6, 2)
    views["opening 6p"] = GAME.view(s, None)
    s = GAME.new(2, 2)
    views["opening 2p seat"] = GAME.view(s, 0)
    for name, view in views.items():
        times = []
        size = 0
        for _ in range(5):
            t0 = time.perf_counter()
            img = render(view)
            data = encode_png(img)
            times.append(time.perf_counter() - t0)
            size = len(data)
        print(
            f"render {name:16s}: median {statistics.median(times) * 1000:6.1f} ms  png {size / 1024:6.1f} KiB"
        )

    for n in range(2, 7):
        t0 = time.perf_counter()
        steps = 0
        count = 30
        for seed in range(100, 100 + count):
            steps += random_game(n, seed)[1]
        dt = time.perf_counter() - t0
        print(f"random playouts {n}p: {count / dt:6.1f} games/s  ({steps / count:.0f} actions/game)")


def bot_figures(games_2p: int) -> None:
    for n in (2, 3, 4):
        games = games_2p if n == 2 else max(30, games_2p // 4)
        t0 = time.perf_counter()
        rate, ties = bot_vs_random(n, games)
        dt = time.perf_counter() - t0
        chance = 1 / n
        print(
            f"bot vs random {n}p: bot wins {rate * 100:5.1f}% of {games} games (chance {chance * 100:.0f}%, "
            f"shared wins {ties * 100:.1f}%)  [{dt:.1f} s]"
        )


if __name__ == "__main__":
    main()
