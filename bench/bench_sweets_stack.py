"""Sweets Stack benchmark: apply / legal-action / render timings, playout rate, bot vs random.

Run: python bench/bench_sweets_stack.py [games]   (from the repo root or anywhere)
     python bench/bench_sweets_stack.py --panel   (only a private panel's parts)
     python bench/bench_sweets_stack.py --panel --against DIR   (DIR: e.g. `git archive main rendering`)
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
from bot.rules.sweets_stack import GAME
from rendering.base import encode_png
from rendering.sweets_stack import _stamp, render


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def timings(games: int = 20) -> None:
    apply_t: list[float] = []
    legal_pick: list[float] = []
    legal_place: list[float] = []
    actions = 0
    t0 = time.perf_counter()
    for seed in range(games):
        s = GAME.new(3, seed, {"advanced": "every" if seed % 2 else "off"})
        rng = Rng.from_seed(seed)
        while GAME.outcome(s) is None:
            seat = rng.choice(sorted(GAME.to_act(s)))
            a = time.perf_counter()
            legal = GAME.legal_actions(s, seat)
            (legal_pick if s["phase"] == "pick" else legal_place).append(time.perf_counter() - a)
            act = rng.choice(legal)
            a = time.perf_counter()
            s, _ = GAME.apply(s, seat, act)
            apply_t.append(time.perf_counter() - a)
            actions += 1
    total = time.perf_counter() - t0
    us = 1e6
    print(f"apply: median {statistics.median(apply_t) * us:.0f} µs, p99 {pct(apply_t, 0.99) * us:.0f} µs "
          f"({len(apply_t)} actions)")
    print(f"legal actions (pick): median {statistics.median(legal_pick) * us:.0f} µs, "
          f"p99 {pct(legal_pick, 0.99) * us:.0f} µs")
    print(f"legal actions (placement): median {statistics.median(legal_place) * us:.0f} µs, "
          f"p99 {pct(legal_place, 0.99) * us:.0f} µs")
    print(f"random 3-player playouts: {games / total:.1f} games/s ({actions / total:.0f} actions/s)")


def render_timings() -> None:
    s = GAME.new(4, 3, {"advanced": "every"})
    bot = GAME.bot_policy()
    rng = Rng(5)
    for _ in range(30):
        seat = min(GAME.to_act(s))
        s, _ = GAME.apply(s, seat, bot.choose(GAME.view(s, seat), GAME.legal_actions(s, seat), {}, rng))
    while s["phase"] != "place":
        seat = min(GAME.to_act(s))
        s, _ = GAME.apply(s, seat, bot.choose(GAME.view(s, seat), GAME.legal_actions(s, seat), {}, rng))
    for label, seat_view in (("public board (4 players)", None), ("private panel", min(GAME.to_act(s)))):
        view = GAME.view(s, seat_view)
        times = []
        size = 0
        for _ in range(8):
            a = time.perf_counter()
            size = len(encode_png(render(view)))
            times.append(time.perf_counter() - a)
        med = statistics.median(times) * 1000
        print(f"render+encode {label}: median {med:.0f} ms, PNG {size / 1024:.0f} KiB")


def panel_positions(games: int = 4) -> list[tuple[Any, int]]:
    """(state, seat to act) along bot games of 3 and 4 players: the panels a table really sends."""
    out: list[tuple[Any, int]] = []
    for seed in range(games):
        s = GAME.new(3 + seed % 2, seed, {"advanced": "every" if seed % 2 else "off"})
        bot = GAME.bot_policy()
        rng = Rng(seed)
        while GAME.outcome(s) is None and len(out) < 10 * (seed + 1):
            seat = min(GAME.to_act(s))
            out.append((s, seat))
            s, _ = GAME.apply(s, seat, bot.choose(GAME.view(s, seat), GAME.legal_actions(s, seat), {}, rng))
    return out


def panel_timings(repeats: int = 9) -> None:
    """One private panel's parts (issue #18): the seat's view, its legal moves, the image and its PNG;
    the median over `repeats` passes of the mean per panel over 40 positions, in this process's CPU
    time (the machine is shared). The thumbnails' stamps are cleared before each pass: a move's next
    panel shows a bucket no panel showed before."""
    positions = panel_positions()
    views = [GAME.view(s, seat) for s, seat in positions]
    parts = {
        "view": lambda: [GAME.view(s, seat) for s, seat in positions],
        "legal actions": lambda: [GAME.legal_actions(s, seat) for s, seat in positions],
        "render": lambda: [render(v) for v in views],
        "render+PNG": lambda: [encode_png(render(v)) for v in views],
    }
    for name, job in parts.items():
        times = []
        for _ in range(repeats):
            _stamp.cache_clear()
            a = time.process_time()
            job()
            times.append((time.process_time() - a) / len(positions))
        print(f"panel {name}: median {statistics.median(times) * 1000:.2f} ms ({len(positions)} positions)")


def panel_against(root: str, repeats: int = 5) -> None:
    """Each panel (`bench_render`'s sampled panels and `panel_positions`') drawn and encoded by another
    checkout's renderer (e.g. a `git archive` of main) and by this one, alternately, in this process's
    CPU time: the mean per panel of the medians, placing panels (with previews) apart from picking ones."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import bench_render

    old_render, old_encode = bench_render.load_renderers(root)["sweets_stack"]
    views = bench_render.sample_views("sweets_stack", 60)[1] + [GAME.view(s, seat) for s, seat in panel_positions()]
    cpu: dict[str, list[list[float]]] = {"before": [[] for _ in views], "after": [[] for _ in views]}
    for _ in range(repeats):
        _stamp.cache_clear()
        for k, view in enumerate(views):
            for name, draw, encode in (("before", old_render, old_encode), ("after", render, encode_png)):
                a = time.process_time()
                encode(draw(view))
                cpu[name][k].append(time.process_time() - a)
    groups = {"placing": lambda v: bool(v["you"].get("options")), "picking": lambda v: not v["you"].get("options")}
    for label, keep in groups.items():
        ks = [k for k, v in enumerate(views) if k and keep(v)]  # the first view warms fonts and caches
        b = statistics.mean(statistics.median(cpu["before"][k]) for k in ks) * 1000
        a = statistics.mean(statistics.median(cpu["after"][k]) for k in ks) * 1000
        print(f"{label} panels ({len(ks)}): before {b:.2f} ms, after {a:.2f} ms, after / before {a / b:.2f}")


def play(seed: int, bot_seat: int, n: int = 3) -> tuple[bool, bool]:
    """One game: the bot at `bot_seat`, random-legal players elsewhere; (bot won, bot won alone)."""
    s = GAME.new(n, seed)
    bot = GAME.bot_policy()
    rand = RandomPolicy()
    rng = Rng.from_seed(seed * 31 + 7)
    memory: dict[str, Any] = {}
    while GAME.outcome(s) is None:
        seat = min(GAME.to_act(s))
        legal = GAME.legal_actions(s, seat)
        pol = bot if seat == bot_seat else rand
        view = GAME.view(s, seat) if seat == bot_seat else {}
        s, _ = GAME.apply(s, seat, pol.choose(view, legal, memory, rng))
    o = GAME.outcome(s)
    assert o is not None
    return bot_seat in o.winners, o.winners == {bot_seat}


def bot_vs_random(games: int) -> None:
    wins = alone = 0
    t0 = time.perf_counter()
    for g in range(games):
        w, a = play(1000 + g, g % 3)
        wins += w
        alone += a
    dt = time.perf_counter() - t0
    print(f"bot vs 2 random-legal players (3-player games): won {wins}/{games} = {100 * wins / games:.0f}% "
          f"(alone {100 * alone / games:.0f}%), {dt / games:.2f} s/game")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", type=int, nargs="?", default=100, help="bot-vs-random games (default 100)")
    parser.add_argument("--panel", action="store_true", help="only the private panel's timings")
    parser.add_argument("--against", metavar="DIR", help="with --panel: another checkout's renderer, alternately")
    args = parser.parse_args()
    if args.panel and args.against:
        panel_against(args.against)
        sys.exit()
    if args.panel:
        panel_timings()
        sys.exit()
    n_games = args.games
    timings()
    render_timings()
    bot_vs_random(n_games)
