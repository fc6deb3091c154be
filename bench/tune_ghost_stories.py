"""Ghost Stories bot: where games are lost, and paired tuning of the bot's constants.

Run: python bench/tune_ghost_stories.py losses --seeds 20000:20100 --players 2,3,4
       per game: how it ended, the share of the deck drawn, and the team's state when the (last)
       incarnation arrived (Qi, full boards, haunted tiles, tokens of its colours); a summary by cause
     python bench/tune_ghost_stories.py pair --seeds 20000:20100 --players 2,3,4 --set 'bot.PREP=16;plan.GO=0.4'
       the incumbent and the variant on the same seeds (the same deck and dice streams): wins each,
       games won only by one or the other (a sign test's figures)
       (--base 'bot.X=...' sets the incumbent's constants first, e.g. what a search accepted)
     python bench/tune_ghost_stories.py search --seeds 20000:20100 --check 30000:30100 --players 2,3,4
       a coordinate search: each constant in SPACE stepped up and down in turn, a step taken when it
       wins the paired comparison on --seeds by at least --margin and then on --check too

One process, no multiprocessing (the machine is shared); run it with `nice`. Constants are set on the
bot modules (`bot.X`, `plan.X`) in this process, so no code changes between candidates.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gs_games import bot_game

from bot.rules.ghost_stories import GAME
from bot.rules.ghost_stories import bot as B
from bot.rules.ghost_stories import plan_wufeng as P

MODULES: dict[str, Any] = {"bot": B, "plan": P}


def cause(s: dict[str, Any]) -> str:
    if s["result"] == "win":
        return "win"
    r = s["reason"]
    for key in ("dead", "haunted", "deck"):
        if key in r:
            return key
    return str(r[:20])


def incarnation_snapshot(view: dict[str, Any]) -> dict[str, Any] | None:
    """The team's state with the incarnation in play (public view), or None if it is not."""
    for sp in view["spaces"]:
        g = sp["ghost"]
        if g is not None and g["incarnation"]:
            living = [b for b in view["boards"] if not b["neutral"] and b["alive"]]
            need = dict(g["resistance"])
            pool: Counter[str] = Counter()
            for b in living:
                pool.update(b["tao"])
            covered = sum(min(pool[c], n) for c, n in need.items() if c != "black") + min(
                pool["black"], need.get("black", 0)
            )
            full = sum(
                1
                for i, b in enumerate(view["boards"])
                if b["alive"] and not b["neutral"] and all(view["spaces"][i * 3 + j]["ghost"] for j in range(3))
            )
            return {
                "name": g["name"],
                "res": sum(need.values()),
                "covered": covered,
                "living": len(living),
                "qi": sum(b["qi"] for b in living),
                "min_qi": min((b["qi"] for b in living), default=0),
                "full": full,
                "haunted": view["haunted"],
                "deck": len(view["deck"]) if isinstance(view["deck"], list) else int(view["deck"]),
            }
    return None


def play(players: int, seed: int, level: str, watch: bool = False) -> dict[str, Any]:
    """One game, every seat the table bot (as bench_ghost_stories.play, the same streams)."""
    s = GAME.new(players, seed, {"difficulty": level})
    start = len(s["deck"])
    arrival: dict[str, Any] | None = None
    for step in bot_game(s, players, seed):
        if watch and arrival is None:
            arrival = incarnation_snapshot(step.view)
            if arrival is not None:
                arrival["drawn"] = 1 - arrival["deck"] / start
        s = step.after
    end_view = GAME.view(s, None)
    return {
        "seed": seed,
        "players": players,
        "cause": cause(s),
        "drawn": 1 - len(s["deck"]) / start,
        "arrival": arrival,
        "inc_alive": incarnation_snapshot(end_view) is not None,
    }


def losses(args: argparse.Namespace) -> None:
    lo, hi = (int(x) for x in args.seeds.split(":"))
    for players in [int(x) for x in args.players.split(",")]:
        games = [play(players, seed, args.level, watch=True) for seed in range(lo, hi)]
        n = len(games)
        print(f"== {players} players, {n} games, seeds {lo}-{hi - 1}")
        by = Counter(g["cause"] for g in games)
        print("  ends:", dict(by))
        arrived = [g for g in games if g["arrival"] is not None]
        print(f"  incarnation arrived in {len(arrived)}: won {sum(g['cause'] == 'win' for g in arrived)}")
        for c in ("dead", "haunted", "deck"):
            gs = [g for g in games if g["cause"] == c]
            if not gs:
                continue
            with_inc = [g for g in gs if g["arrival"] is not None]
            print(
                f"  lost {c}: {len(gs)}; deck drawn mean {statistics.mean(g['drawn'] for g in gs):.0%}; "
                f"after the incarnation arrived {len(with_inc)} "
                f"(still in play at the end {sum(g['inc_alive'] for g in gs)})"
            )
            hist = Counter(min(9, int(g["drawn"] * 10)) for g in gs if g["arrival"] is None)
            print("    before it, by tenth of the deck drawn:", dict(sorted(hist.items())))
        for label, sel in (("won", lambda g: g["cause"] == "win"), ("lost", lambda g: g["cause"] != "win")):
            arr = [g["arrival"] for g in arrived if sel(g)]
            if not arr:
                continue
            mean = {
                k: statistics.mean(a[k] for a in arr)
                for k in ("res", "covered", "living", "qi", "min_qi", "full", "haunted", "drawn")
            }
            print(f"  at arrival, {label} ({len(arr)}): " + ", ".join(f"{k} {v:.2f}" for k, v in mean.items()))
        # wins by tokens covering the incarnation's resistance at arrival
        cov: Counter[int] = Counter()
        wins: Counter[int] = Counter()
        for g in arrived:
            a = g["arrival"]
            key = min(3, a["covered"])
            cov[key] += 1
            wins[key] += g["cause"] == "win"
        print(
            "  by tokens covering it at arrival (0..3+): " + ", ".join(f"{k}: {wins[k]}/{cov[k]}" for k in sorted(cov))
        )
        names: Counter[str] = Counter()
        namewins: Counter[str] = Counter()
        for g in arrived:
            names[g["arrival"]["name"]] += 1
            namewins[g["arrival"]["name"]] += g["cause"] == "win"
        print("  by incarnation: " + ", ".join(f"{k} {namewins[k]}/{names[k]}" for k, _ in names.most_common()))


def apply_settings(text: str) -> dict[str, Any]:
    """Set 'bot.X=1.5;plan.Y=2' on the modules; return the old values."""
    old: dict[str, Any] = {}
    for item in filter(None, (t.strip() for t in text.split(";"))):
        name, value = item.split("=", 1)
        mod, attr = name.split(".")
        m = MODULES[mod]
        old[name] = getattr(m, attr)
        setattr(m, attr, eval(value, {}, {}))
    return old


def restore(old: dict[str, Any]) -> None:
    for name, value in old.items():
        mod, attr = name.split(".")
        setattr(MODULES[mod], attr, value)


def results(seeds: range, counts: list[int], level: str) -> dict[tuple[int, int], bool]:
    return {(p, x): play(p, x, level)["cause"] == "win" for p in counts for x in seeds}


def compare(base: dict[tuple[int, int], bool], var: dict[tuple[int, int], bool]) -> tuple[int, int, int, int]:
    """Wins of each, games won only by the variant, only by the incumbent."""
    only_v = sum(var[k] and not base[k] for k in base)
    only_b = sum(base[k] and not var[k] for k in base)
    return sum(base.values()), sum(var.values()), only_v, only_b


def pair(args: argparse.Namespace) -> None:
    lo, hi = (int(x) for x in args.seeds.split(":"))
    counts = [int(x) for x in args.players.split(",")]
    t = time.perf_counter()
    apply_settings(args.base)
    base = results(range(lo, hi), counts, args.level)
    old = apply_settings(args.set)
    var = results(range(lo, hi), counts, args.level)
    restore(old)
    b, v, ov, ob = compare(base, var)
    per = {p: (sum(base[(p, x)] for x in range(lo, hi)), sum(var[(p, x)] for x in range(lo, hi))) for p in counts}
    print(
        f"{args.set}: incumbent {b}, variant {v} (won only by the variant {ov}, only by the incumbent {ob}); "
        f"by players {per}; {time.perf_counter() - t:.0f} s",
        flush=True,
    )


# constant, candidate values (the search steps through them from the current value)
SPACE: dict[str, list[Any]] = {
    "bot.PREP": [4, 8, 12, 16],
    "bot.PREP_BLACK": [20.0, 40.0, 80.0],
    "bot.YY_USE": [1.5, 3.0, 6.0],
    "bot.PAV_W": [0.15, 0.3, 0.5],
    "bot.SORC_W": [0.4, 0.6, 0.8],
    "bot.SORC_OVR": [0.15, 0.3, 0.5],
    "bot.TOK_LOCK": [0.75, 1.5, 3.0],
    "bot.FUT_TOK": [0.5, 1.0, 1.5],
    "bot.BASE": [2.0, 3.0, 4.5],
    "bot.TEMPLE": [5.0, 8.0, 12.0],
    "bot.TORM": [6.0, 9.0, 13.0],
    "bot.TOKW": [0.3, 0.5, 0.8],
    "bot.TEA_GHOST": [1.0, 2.0, 3.5],
    "bot.CIRC_FUT": [5.0, 10.0, 15.0],
    "bot.WATCH": [0.2, 0.3, 0.45],
    "bot.SUPPORT": [1.5, 3.0, 5.0],
    "plan.GO": [0.4, 0.55, 0.7],
    "plan.FUT": [0.5, 0.8, 1.2],
    "plan.STEP": [0.02, 0.04, 0.08],
    "plan.ROUTE": [0.4, 0.6, 0.8],
    # added in the sixth pass: more of what gathers Tao tokens before the incarnation
    "bot.HERB": [[2.0, 1.0], [3.0, 1.5], [4.5, 2.25]],
    "bot.HERB_WUFENG": [3.0, 6.0, 10.0],
    "bot.TOKB": [0.75, 1.5, 3.0],
    "bot.FUT_HARD": [1, 2, 3],
    "bot.CIRC_BLACK": [0.0, 0.3, 0.6],
}


def search(args: argparse.Namespace) -> None:
    lo, hi = (int(x) for x in args.seeds.split(":"))
    clo, chi = (int(x) for x in args.check.split(":"))
    counts = [int(x) for x in args.players.split(",")]
    tune, check = range(lo, hi), range(clo, chi)
    names = args.only.split(",") if args.only else list(SPACE)  # in the order given
    t = time.perf_counter()
    base = results(tune, counts, args.level)
    base_check: dict[tuple[int, int], bool] | None = None
    print(f"incumbent: {sum(base.values())} of {len(base)} ({time.perf_counter() - t:.0f} s)", flush=True)
    accepted: list[str] = []
    for name in names:
        mod, attr = name.split(".")
        cur = getattr(MODULES[mod], attr)
        vals = SPACE[name]
        i = vals.index(cur) if cur in vals else 1
        for j in (i - 1, i + 1):
            if not 0 <= j < len(vals):
                continue
            setting = f"{name}={vals[j]!r}"
            old = apply_settings(setting)
            var = results(tune, counts, args.level)
            b, v, ov, ob = compare(base, var)
            line = f"{setting}: {v} vs {b} (+{ov} -{ob})"
            if v - b >= args.margin:
                if base_check is None:
                    restore(old)
                    base_check = results(check, counts, args.level)
                    apply_settings(setting)
                var_check = results(check, counts, args.level)
                cb, cv, cov, cob = compare(base_check, var_check)
                line += f"; check {cv} vs {cb} (+{cov} -{cob})"
                if cv > cb:
                    line += "  ACCEPTED"
                    accepted.append(setting)
                    base, base_check = var, var_check
                    print(line, flush=True)
                    break
            restore(old)
            print(line, flush=True)
    print("accepted:", ";".join(accepted) or "nothing", f"({time.perf_counter() - t:.0f} s)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=("losses", "pair", "search"))
    ap.add_argument("--seeds", default="20000:20100")
    ap.add_argument("--check", default="30000:30100")
    ap.add_argument("--players", default="2,3,4")
    ap.add_argument("--level", default="initiation")
    ap.add_argument("--set", default="", help="the variant: 'bot.X=1.5;plan.Y=2'")
    ap.add_argument("--base", default="", help="settings of the incumbent (pair), e.g. what a search accepted")
    ap.add_argument("--only", default="")
    ap.add_argument("--margin", type=int, default=4)
    args = ap.parse_args()
    {"losses": losses, "pair": pair, "search": search}[args.mode](args)


if __name__ == "__main__":
    main()
