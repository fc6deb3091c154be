"""Board image timings: draw (`render(view)`) and PNG encoding (`encode_png`) measured separately.

Plays seeded games of every game with random legal moves, keeps mid-game views (public boards, and
the private panels of Sweets Stack and Trick or Treat), renders them in game order in one process —
as the bot does, so per-process caches warm up on a table's first board — and prints median / p99 ms
and the PNG size per game; the process's first board (fonts loading, caches cold) is shown apart.
p99 is the 99th percentile of the other views (with 100 views, their maximum).
`--profile GAME` prints the top of a cProfile of draw + encode instead. `--lang zh-TW` renders the
same views in Traditional Chinese (issue #16) with Chinese player names, for the renderers that take
a language (the others draw English, with the Chinese names).

`--compare zh-TW` renders every view in English and in that language alternately, in one process,
and prints both medians (wall clock and process CPU time) and their ratios (the machine is shared:
the ratio, and the CPU time, are what to read).

`--against DIR` loads another checkout's renderers (e.g. a `git archive` of main, before a change)
into the same process and draws every view with both, alternately, timing each with the process's
CPU clock: the medians of draw + encode before and after, their ratio, and both PNG sizes. On a
shared machine this is the fair comparison (the same views, the same minutes, CPU time not wall).

Run: python bench/bench_render.py [--views N] [--lang zh-TW] [--compare zh-TW | --against DIR]
     [--profile dawn_under]
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import inspect
import pstats
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image

from bot.rules import RandomPolicy, Rng
from rendering import dawn_under, ghost_stories, sweets_stack, trick_or_treat
from rendering.base import encode_png

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"]
ZH_NAMES = ["小明", "阿華", "卡羅爾", "志明", "春嬌", "淑芬", "家豪", "怡君"]
Render = Callable[[dict[str, Any]], Image.Image]


def _game(key: str) -> Any:
    module = __import__(f"bot.rules.{key}", fromlist=["GAME"])
    return module.GAME


# game key -> (renderer, player counts, options, every k-th action kept)
GAMES: dict[str, tuple[Render, tuple[int, ...], dict[str, str], int]] = {
    "dawn_under": (dawn_under.render, (3, 4, 2), {}, 3),
    "sweets_stack": (sweets_stack.render, (3, 4), {"advanced": "every"}, 5),
    "trick_or_treat": (trick_or_treat.render, (3, 4, 6), {}, 4),
    "ghost_stories": (ghost_stories.render, (2, 3, 4), {"difficulty": "initiation"}, 3),
}
PANELS = {"sweets_stack", "trick_or_treat"}


def sample_views(key: str, wanted: int, names: list[str] = NAMES) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(public views, private-panel views) from seeded random-legal games, in play order."""
    _, counts, options, every = GAMES[key]
    game = _game(key)
    public: list[dict[str, Any]] = []
    private: list[dict[str, Any]] = []
    rand = RandomPolicy()
    seed = 0
    while len(public) < wanted and seed < 200:
        n = counts[seed % len(counts)]
        state = game.new(n, 100 + seed, options)
        rng = Rng.from_seed(seed)
        step = 0
        while game.outcome(state) is None and len(public) < wanted:
            seat = min(game.to_act(state))
            legal = game.legal_actions(state, seat)
            if step >= 4 and step % every == 0:
                view = game.view(state, None)
                view["names"] = names[:n]
                public.append(view)
                if key in PANELS:
                    mine = game.view(state, seat)
                    mine["names"] = names[:n]
                    if key != "sweets_stack" or "you" in mine:
                        private.append(mine)
            state, _ = game.apply(state, seat, rand.choose({}, legal, {}, rng))
            step += 1
        seed += 1
    return public, private


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def measure(render: Render, views: list[dict[str, Any]]) -> dict[str, float]:
    """Times over `views` in order; the first one (fonts loaded, caches cold) is reported apart."""
    t0 = time.perf_counter()
    encode_png(render(views[0]))
    first = (time.perf_counter() - t0) * 1e3
    views = views[1:]
    draw: list[float] = []
    enc: list[float] = []
    total: list[float] = []
    sizes: list[int] = []
    for view in views:
        t0 = time.perf_counter()
        img = render(view)
        t1 = time.perf_counter()
        data = encode_png(img)
        t2 = time.perf_counter()
        draw.append((t1 - t0) * 1e3)
        enc.append((t2 - t1) * 1e3)
        total.append((t2 - t0) * 1e3)
        sizes.append(len(data))
    return {
        "draw_med": statistics.median(draw),
        "draw_p99": pct(draw, 0.99),
        "enc_med": statistics.median(enc),
        "enc_p99": pct(enc, 0.99),
        "tot_med": statistics.median(total),
        "tot_p99": pct(total, 0.99),
        "kib_med": statistics.median(sizes) / 1024,
        "kib_max": max(sizes) / 1024,
        "n": len(views),
        "first": first,
    }


def in_lang(render: Render, lang: str) -> Render:
    """`render` drawing in `lang` when it takes a language (`render(view, lang=...)`), else as is."""
    if lang == "en-US" or "lang" not in inspect.signature(render).parameters:
        return render
    return lambda view: render(view, lang=lang)  # type: ignore[call-arg]


def compare(key: str, lang: str, views: int) -> None:
    """English and `lang` boards of the same views, drawn alternately: medians and their ratio."""
    public, _ = sample_views(key, views, ZH_NAMES)
    english, other = GAMES[key][0], in_lang(GAMES[key][0], lang)
    for render in (english, other):  # fonts and caches warm, as on a running bot
        encode_png(render(public[0]))
    wall: dict[str, list[float]] = {"en": [], lang: []}
    cpu: dict[str, list[float]] = {"en": [], lang: []}
    for view in public[1:]:
        for label, render in (("en", english), (lang, other)):
            t0, c0 = time.perf_counter(), time.process_time()
            encode_png(render(view))
            wall[label].append((time.perf_counter() - t0) * 1e3)
            cpu[label].append((time.process_time() - c0) * 1e3)
    w_en, w_zh = statistics.median(wall["en"]), statistics.median(wall[lang])
    c_en, c_zh = statistics.median(cpu["en"]), statistics.median(cpu[lang])
    print(
        f"| {key} | {len(public) - 1} | {w_en:.1f} / {c_en:.1f} ms | {w_zh:.1f} / {c_zh:.1f} ms "
        f"| {w_zh / w_en:.2f} / {c_zh / c_en:.2f} |",
        flush=True,
    )


def load_renderers(root: str) -> dict[str, tuple[Render, Callable[[Image.Image], bytes]]]:
    """Another checkout's `rendering` package imported beside this one: game key -> (its render, its
    encode_png). Its modules are imported under their own names with `root` first on the path, kept,
    then this checkout's modules are put back (the rules, `bot`, stay this checkout's)."""
    def ours(name: str) -> bool:
        return name == "rendering" or name.startswith("rendering.")

    saved = {k: v for k, v in sys.modules.items() if ours(k)}
    for k in saved:
        del sys.modules[k]
    sys.path.insert(0, str(Path(root).resolve()))
    try:
        base = importlib.import_module("rendering.base")
        found = {key: (importlib.import_module(f"rendering.{key}").render, base.encode_png) for key in GAMES}
    finally:
        sys.path.pop(0)
        for k in [k for k in sys.modules if ours(k)]:
            del sys.modules[k]
        sys.modules.update(saved)
    return found


def against(
    key: str, root_renderers: dict[str, tuple[Render, Callable[[Image.Image], bytes]]], views: int, lang: str
) -> None:
    """Each view drawn and encoded by the other checkout's renderer and by this one, alternately, in
    `lang`: CPU medians (and p90), their ratio, the PNG sizes."""
    public, private = sample_views(key, views, NAMES if lang == "en-US" else ZH_NAMES)
    old_render, old_encode = root_renderers[key]
    old_render, new_render = in_lang(old_render, lang), in_lang(GAMES[key][0], lang)
    for label, sample in (("board", public), ("panel", private)):
        if not sample:
            continue
        cpu: dict[str, list[float]] = {"before": [], "after": []}
        draw: list[float] = []
        size: dict[str, list[int]] = {"before": [], "after": []}
        for k, view in enumerate(sample):
            for name, render, encode in (("before", old_render, old_encode), ("after", new_render, encode_png)):
                c0 = time.process_time()
                img = render(view)
                c1 = time.process_time()
                data = encode(img)
                c2 = time.process_time()
                if k:  # the first view warms fonts and caches
                    cpu[name].append((c2 - c0) * 1e3)
                    size[name].append(len(data))
                    if name == "after":
                        draw.append((c1 - c0) * 1e3)
        b, a = statistics.median(cpu["before"]), statistics.median(cpu["after"])
        suffix = "" if lang == "en-US" else f" {lang}"
        print(
            f"| {key} {label}{suffix} | {len(cpu['after'])} | {b:.1f} / {pct(cpu['before'], 0.9):.1f} ms "
            f"| {a:.1f} / {pct(cpu['after'], 0.9):.1f} ms (draw {statistics.median(draw):.1f}) | {a / b:.2f} "
            f"| {statistics.median(size['before']) / 1024:.0f} / {max(size['before']) / 1024:.0f} KiB "
            f"| {statistics.median(size['after']) / 1024:.0f} / {max(size['after']) / 1024:.0f} KiB |",
            flush=True,
        )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--views", type=int, default=60, help="public views per game")
    ap.add_argument("--profile", choices=sorted(GAMES), help="cProfile one game's public boards")
    ap.add_argument("--games", nargs="*", default=sorted(GAMES), help="which games")
    ap.add_argument("--lang", default="en-US", help="en-US (default) or zh-TW: the boards' language")
    ap.add_argument("--compare", metavar="LANG", help="English and LANG boards alternately, and the ratio")
    ap.add_argument("--against", metavar="DIR", help="another checkout: its renderers and these, alternately (CPU)")
    args = ap.parse_args()

    if args.against:
        other = load_renderers(args.against)
        print(
            "| view | views | before: CPU median / p90 | after: CPU median / p90 | after / before "
            "| PNG before median / max | PNG after median / max |"
        )
        print("| --- | --- | --- | --- | --- | --- | --- |")
        for key in args.games:
            against(key, other, args.views, args.lang)
        return

    if args.compare:
        print(f"| game | views | draw + encode median wall / CPU, en-US | {args.compare} | ratio wall / CPU |")
        print("| --- | --- | --- | --- | --- |")
        for key in args.games:
            compare(key, args.compare, args.views)
        return

    if args.profile:
        public, _ = sample_views(args.profile, args.views, NAMES if args.lang == "en-US" else ZH_NAMES)
        render = in_lang(GAMES[args.profile][0], args.lang)
        prof = cProfile.Profile()
        prof.enable()
        for view in public:
            encode_png(render(view))
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)
        return

    header = (
        "| game | views | draw median / p99 | encode median / p99 | draw + encode median / p99 "
        "| PNG median / max | first board |"
    )
    print(header)
    print("| --- | --- | --- | --- | --- | --- | --- |")
    suffix = "" if args.lang == "en-US" else f" {args.lang}"
    for key in args.games:
        public, private = sample_views(key, args.views, NAMES if args.lang == "en-US" else ZH_NAMES)
        render = in_lang(GAMES[key][0], args.lang)
        for label, views in (("board", public), ("panel", private)):
            if not views:
                continue
            m = measure(render, views)
            print(
                f"| {key} {label}{suffix} | {int(m['n'])} | {m['draw_med']:.1f} / {m['draw_p99']:.1f} ms "
                f"| {m['enc_med']:.1f} / {m['enc_p99']:.1f} ms | {m['tot_med']:.1f} / {m['tot_p99']:.1f} ms "
                f"| {m['kib_med']:.0f} / {m['kib_max']:.0f} KiB | {m['first']:.0f} ms |",
                flush=True,
            )


if __name__ == "__main__":
    main()
