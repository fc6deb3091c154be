"""Measured regret of the Ghost Stories bot's Yang-phase choices, by paired rollouts to the end of the game.

Run: python bench/regret_ghost_stories.py --seeds 104000:104030 --players 2,3 --k 24 --every 3 --out r.jsonl
     python bench/regret_ghost_stories.py --seeds 104050:104070 --players 2 --every 1 --close 2 --k 48
                                                 (only the near ties: the bot's top alternative within 2)
     python bench/regret_ghost_stories.py --load r.jsonl        (the report again, from a saved run)
     python bench/regret_ghost_stories.py --any 0.05 --seeds 105000:105040 --players 2,3,4 --k 16 --out a.jsonl
                                                 (every kind of decision, random alternatives)

In bot games (every seat the table bot, the loop of gs_games.py), at every `--every`-th Yang phase of a
living Taoist (its first decision, before it has moved or acted), the tool takes the bot's own choice of
action (what the bot goes on to do first this turn: an exorcism, a village help, a Yin-Yang help from
afar, or nothing) and up to `--alts` alternatives **of a different kind**: for every tile reachable by a
plain move, the bot's own values (`exorcise_value`, `help_value`, as trace_ghost_stories.py lists them)
give an exorcism kind and a help kind (`help:<tile>`); the best of each kind other than the chosen one,
highest first. Each is played as "move there (if needed), take that action (its target by the bot's own
rule), then the bot at every seat to the end of the game", in `--k` determinized worlds: from a copy of
the engine state with the cards nobody has seen (the deck and the removed ghosts; the incarnation slots
keep their depth and get an unseen incarnation) reshuffled and the dice reseeded, the same K worlds for
the choice and every alternative (common random numbers). Offline analysis: it uses the engine state,
and the determinization keeps the labels to what a seat could know.

`--any P` reads every kind of decision instead (a ghost's space, a Buddha's, a token's colour, a
blow, a reward, the Yin-Yang, a move, ...): each decision with two or more legal actions is read with
probability P, against up to `--alts` of its other legal actions drawn at random (not the bot's next
best), each applied as it stands in the same K worlds and then played out by the bot at every seat. Its
kinds are `<pending>:<verb>` (`yang:move`, `place:place`, ...). Seeds are read in the outer loop and the
player counts in the inner one. A random alternative is a weaker test than the bot's next best: a mean
near 0 says the choice was no better than chance, a clearly negative one that it was.

The report: per decision kind (chosen kind -> alternative kind) how often the alternative won more games
than the choice by more than 2 standard errors of the paired difference, and the mean win probability it
adds (negative: the choice was better); then the same by situation (the mover's Qi, free spaces on its
board, haunted tiles, draws left, player count). One process; run it with `nice`. "The bot" here is the
heuristic (`TaoistPolicy(planning=False)`, main's bot before the twelfth pass): with the endgame planner
every play-out would itself be a search.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gs_games import bot_game

from bot.rules import Rng
from bot.rules.ghost_stories import GAME
from bot.rules.ghost_stories import bot as B
from bot.rules.ghost_stories.core import copy_state
from bot.rules.ghost_stories.data import INCARNATION_IDS, tile_index

INCS = set(INCARNATION_IDS)


def determinize(s: dict[str, Any], r: Rng) -> dict[str, Any]:
    """A copy of `s` in which the unseen cards are reshuffled (an incarnation slot of the deck keeps its
    depth, which the rules make public, and gets one of the unseen incarnations) and the dice reseeded."""
    w = copy_state(s)
    unseen = list(w["deck"]) + list(w["removed"])
    ghosts = r.shuffled([i for i in unseen if i not in INCS])
    incs = r.shuffled([i for i in unseen if i in INCS])
    deck = [incs.pop() if i in INCS else ghosts.pop() for i in w["deck"]]
    w["deck"], w["removed"] = deck, ghosts + incs
    w["rng"] = Rng.from_seed(r.next64()).state
    return w


def _find(legal: list[Any], parts: tuple[str, ...]) -> Any:
    return next((a for a in legal if a.parts == parts), None)


def forced(s: dict[str, Any], seat: int, tile: int | None, kind: str, policy: Any) -> dict[str, Any] | None:
    """Play an alternative's first steps: move to `tile` (if it is not here), then its action; None if
    that is not legal from this state."""
    view = GAME.view(s, seat)
    me = B._me(view)
    if tile is not None and tile_index(me["pos"]) != tile:
        a = _find(GAME.legal_actions(s, seat), ("move", B._tname(tile)))
        if a is None:
            return None
        s, _ = GAME.apply(s, seat, a)
        if GAME.outcome(s) is not None or s["pending"] is not None:
            return None
        view = GAME.view(s, seat)
        me = B._me(view)
    legal = GAME.legal_actions(s, seat)
    verb = "exorcise" if kind == "exorcise" else "help"
    acts = [a for a in legal if a.parts[0] == verb]
    if not acts:
        return None
    if verb == "exorcise":
        act = max(acts, key=lambda a: (len(a.parts), 0))
    else:
        act = B.TaoistPolicy._help_choice(view, me, acts)
    s, _ = GAME.apply(s, seat, act)
    return s


def play_out(s: dict[str, Any], policy: Any, r: Rng) -> bool:
    """The bot at every seat from `s` to the end, its choices drawing on `r`: won?"""
    for step in bot_game(s, 0, 0, policy, r):
        s = step.after
    return s["result"] == "win"


def first_action(s: dict[str, Any], seat: int, policy: Any) -> tuple[str, int | None]:
    """What the bot does first in this Yang phase (its kind, and the tile it does it on): played on a
    copy until the mover's first help, exorcism or Yin-Yang help, or the end of its turn."""
    turn = s["turn"]
    r = Rng.from_seed(1)
    for _ in range(40):
        if GAME.outcome(s) is not None or s["turn"] != turn or s["phase"] != "yang":
            break
        who = min(GAME.to_act(s))
        view = GAME.view(s, who)
        act = policy.choose(view, GAME.legal_actions(s, who), {}, r)
        if who == seat and view["pending"] is None:
            me = B._me(view)
            here = tile_index(me["pos"])
            if act.parts[0] == "exorcise":
                return "exorcise", here
            if act.parts[0] == "help":
                return "help:" + view["tiles"][here or 0]["key"], here
            if act.parts[0] == "yinyang":
                x = tile_index(act.parts[1]) if act.parts[1] != "restore" else None
                return ("yy:" + (view["tiles"][x]["key"] if x is not None else "restore")), x
            if act.parts[0] == "end":
                return "end", here
        s, _ = GAME.apply(s, who, act)
    return "end", None


def candidates(view: dict[str, Any], legal: list[Any]) -> dict[str, tuple[float, int]]:
    """For each kind reachable by a plain move this turn, its best tile by the bot's own values."""
    me = B._me(view)
    here = tile_index(me["pos"]) or 0
    tiles = [here] + [tile_index(a.parts[1]) or 0 for a in legal if a.parts[0] == "move"]
    best: dict[str, tuple[float, int]] = {}
    for x in tiles:
        m = {**me, "pos": B._tname(x)}
        ex = B.exorcise_value(view, m, x)
        if ex > 0.0:
            best["exorcise"] = max(best.get("exorcise", (-1e9, x)), (ex, x))
        if not view["tiles"][x]["haunted"]:
            hv = B.help_value(view, m, x)
            key = "help:" + view["tiles"][x]["key"]
            if hv > 0.0:
                best[key] = max(best.get(key, (-1e9, x)), (hv, x))
    return best


def situation(view: dict[str, Any], players: int) -> dict[str, Any]:
    me = B._me(view)
    b = next(i for i, x in enumerate(view["boards"]) if x["colour"] == me["colour"])
    free = sum(1 for sp in view["spaces"][b * 3 : b * 3 + 3] if sp["ghost"] is None)
    inc = any(sp["ghost"] is not None and sp["ghost"]["incarnation"] for sp in view["spaces"])
    return {
        "players": players,
        "qi": me["qi"],
        "free": free,
        "haunted": view["haunted"],
        "deck": int(view["deck"]),
        "inc": inc,
        "all_free": sum(1 for sp in view["spaces"] if sp["ghost"] is None),
    }


def read_game(players: int, seed: int, args: argparse.Namespace, out: Any) -> list[dict[str, Any]]:
    policy = B.TaoistPolicy(planning=False)  # the heuristic, without the endgame planner
    s = GAME.new(players, seed, {"difficulty": args.level})
    recs = []
    last = None
    n_turn = 0
    prev = s
    for step in bot_game(s, players, seed, policy):
        view = step.view
        key = (view["round"], view["turn"])
        state_before = prev
        prev = step.after
        if view["pending"] is not None or view["phase"] != "yang" or key == last:
            continue
        last = key
        if view["yang"]["moved"] or view["yang"]["acts"]:
            continue
        n_turn += 1
        if n_turn % args.every:
            continue
        seat = step.seat
        r = Rng.from_seed(seed * 1009 + n_turn * 7 + players)
        worlds = [determinize(state_before, r) for _ in range(args.k)]
        chosen, ctile = first_action(copy_state(worlds[0]), seat, policy)
        cands = candidates(view, step.legal)
        alts = sorted(((v, k, x) for k, (v, x) in cands.items() if k != chosen), reverse=True)[: args.alts]
        if not alts:
            continue
        if args.close is not None and (chosen not in cands or cands[chosen][0] - alts[0][0] > args.close):
            continue  # only near ties by the bot's own values (its top alternative within --close)
        rec: dict[str, Any] = {
            "seed": seed,
            "turn": n_turn,
            "chosen": chosen,
            "ctile": ctile,
            "cvalue": cands.get(chosen, (None, None))[0],
            **situation(view, players),
            "wins": {},
            "alts": [],
        }
        base = [play_out(w, policy, Rng.from_seed(i)) for i, w in enumerate(worlds)]
        rec["wins"]["chosen"] = base
        for v, k, x in alts:
            res = []
            for i, w in enumerate(worlds):
                f = forced(w, seat, x, k, policy)
                if f is None:
                    res = []
                    break
                res.append(play_out(f, policy, Rng.from_seed(i)))
            if res:
                rec["alts"].append({"kind": k, "tile": x, "value": round(v, 2), "wins": res})
        recs.append(rec)
        out.write(json.dumps(rec) + "\n")
        out.flush()
    return recs


def read_any(seed: int, players: int, args: argparse.Namespace, out: Any) -> list[dict[str, Any]]:
    """`--any`: decisions of every kind, each read with probability `args.any`, against up to `args.alts`
    of its other legal actions drawn at random, in `args.k` worlds shared by all its arms."""
    pick = random.Random(seed * 7 + players)
    policy = B.TaoistPolicy(planning=False)  # the heuristic, without the endgame planner
    s = GAME.new(players, seed, {"difficulty": args.level})
    recs = []
    before = s
    for n, step in enumerate(bot_game(s, players, seed, policy), 1):
        if len(step.legal) >= 2 and pick.random() < args.any:
            others = [a for a in step.legal if a != step.act]
            arms = [step.act, *pick.sample(others, min(args.alts, len(others)))]
            wins: list[list[bool]] = [[] for _ in arms]
            for k in range(args.k):
                w = determinize(before, Rng.from_seed(seed * 1000003 + n * 101 + k))
                for i, a in enumerate(arms):
                    after, _ = GAME.apply(copy_state(w), step.seat, a)
                    wins[i].append(play_out(after, policy, Rng.from_seed((seed * 977 + k) * 31 + players)))
            p = before["pending"]
            kind = (p["kind"] if p else "yang") + ":"
            rec: dict[str, Any] = {
                "seed": seed,
                "turn": n,
                "chosen": kind + step.act.parts[0],
                "arms": [" ".join(a.parts) for a in arms],
                **situation(step.view, players),
                "wins": {"chosen": wins[0]},
                "alts": [{"kind": kind + a.parts[0], "wins": w_} for a, w_ in zip(arms[1:], wins[1:], strict=True)],
            }
            recs.append(rec)
            out.write(json.dumps(rec) + "\n")
            out.flush()
        before = step.after
    return recs


def diff_stats(a: list[bool], b: list[bool]) -> tuple[float, float]:
    """Mean and standard error of the paired difference a - b (win = 1)."""
    d = [int(x) - int(y) for x, y in zip(a, b, strict=True)]
    m = statistics.mean(d)
    se = statistics.stdev(d) / math.sqrt(len(d)) if len(d) > 1 else 0.0
    return m, se


def _bucket(rec: dict[str, Any]) -> dict[str, str]:
    d = rec["deck"]
    draws = "deck > 20" if d > 20 else "deck 11-20" if d > 10 else "deck <= 10"
    draws = "incarnation in play" if rec["inc"] else draws
    return {
        "players": str(rec["players"]),
        "mover's Qi": str(min(rec["qi"], 4)) + ("+" if rec["qi"] >= 4 else ""),
        "free spaces on its board": str(rec["free"]),
        "haunted tiles": str(min(rec["haunted"], 3)) + ("+" if rec["haunted"] >= 3 else ""),
        "draws left": draws,
    }


def _mean_se(xs: list[float]) -> tuple[float, float]:
    m = statistics.mean(xs)
    return m, (statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0)


def report(recs: list[dict[str, Any]], least: int = 5) -> None:
    """The tables: by chosen kind (`any`: every alternative played against it), by (chosen kind,
    alternative kind), by situation. `mean ± SE` is over the alternatives played (each one's paired mean
    over its K worlds); `> 2 SE` counts those whose paired gain was more than 2 standard errors of
    its own K worlds. The situation table's best gain is each decision's best alternative, clipped at 0."""
    pairs: dict[tuple[str, str], list[tuple[float, bool]]] = defaultdict(list)
    per_dec = []
    better = worse = tests = 0
    for rec in recs:
        base = rec["wins"]["chosen"]
        best = 0.0
        sig_any = None
        for alt in rec["alts"]:
            m, se = diff_stats(alt["wins"], base)
            sig = m > 2 * se and se > 0
            tests += 1
            better += sig
            worse += m < -2 * se and se > 0
            pairs[(rec["chosen"], alt["kind"])].append((m, sig))
            pairs[(rec["chosen"], "any")].append((m, sig))
            best = max(best, m)
            if sig and (sig_any is None or m > sig_any[1]):
                sig_any = (alt["kind"], m)
        per_dec.append((rec, best, sig_any))
    # by chance alone: each alternative's paired mean drawn as normal(0, its own SE), the best of them
    # clipped at 0 (so the "mean best gain" column has a floor to be read against)
    rnd = random.Random(0)
    floor = []
    for rec in recs:
        ses = [diff_stats(alt["wins"], rec["wins"]["chosen"])[1] for alt in rec["alts"]]
        floor.append(statistics.mean(max([0.0] + [rnd.gauss(0.0, se) for se in ses]) for _ in range(200)))
    n = len(recs)
    k = len(recs[0]["wins"]["chosen"]) if recs else 0
    won = sum(statistics.mean(r["wins"]["chosen"]) for r in recs) / max(1, n)
    print(f"{n} decisions, K = {k} worlds each; the choice's mean win probability {won:.3f}")
    print(
        f"{tests} alternatives played: better than the choice by > 2 SE {better} ({better / max(1, tests):.1%}), "
        f"worse by > 2 SE {worse} ({worse / max(1, tests):.1%}) (2.3% each way by chance); the mean best gain "
        f"{statistics.mean(b for _, b, _ in per_dec):+.3f}, by chance alone {statistics.mean(floor):+.3f}"
    )
    print(
        "\n| chosen kind | alternative kind | alternatives played | better by > 2 SE | win prob. it adds, mean ± SE |"
    )
    print("|---|---|---|---|---|")

    def z(v: list[tuple[float, bool]]) -> float:
        m, se = _mean_se([x for x, _ in v])
        return m / se if se else 0.0

    rows = sorted(((c, a), v) for (c, a), v in pairs.items() if len(v) >= least)
    rows.sort(key=lambda kv: (kv[0][1] != "any", -z(kv[1])))
    for (c, a), v in rows:
        sig = sum(s for _, s in v)
        m, se = _mean_se([x for x, _ in v])
        print(f"| {c} | {a} | {len(v)} | {sig} ({sig / len(v):.0%}) | {m:+.3f} ± {se:.3f} |")
    print("\n| situation | value | decisions | an alternative better by > 2 SE | mean best gain | most often better |")
    print("|---|---|---|---|---|---|")
    for dim in ("players", "mover's Qi", "free spaces on its board", "haunted tiles", "draws left"):
        groups: dict[str, list[Any]] = defaultdict(list)
        for rec, best, sig in per_dec:
            groups[_bucket(rec)[dim]].append((rec, best, sig))
        for val in sorted(groups):
            g = groups[val]
            sigs = [s for _, _, s in g if s is not None]
            top: dict[str, int] = defaultdict(int)
            for rec, _, s in g:
                if s is not None:
                    top[f"{rec['chosen']} -> {s[0]}"] += 1
            common = ", ".join(f"{p} {c}" for p, c in sorted(top.items(), key=lambda kv: -kv[1])[:2])
            print(
                f"| {dim} | {val} | {len(g)} | {len(sigs)} ({len(sigs) / len(g):.0%}) | "
                f"{statistics.mean(b for _, b, _ in g):+.3f} | {common} |"
            )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="104000:104030")
    ap.add_argument("--players", default="2,3", help="player counts (with --load: only these)")
    ap.add_argument("--level", default="initiation")
    ap.add_argument("--k", type=int, default=24, help="determinized worlds per decision (the same for every arm)")
    ap.add_argument("--every", type=int, default=3, help="read every n-th Yang phase")
    ap.add_argument("--alts", type=int, default=3, help="alternatives of another kind per decision")
    ap.add_argument(
        "--close", type=float, default=None, help="only decisions whose best alternative's value is within this"
    )
    ap.add_argument("--any", type=float, default=None, help="every kind of decision, each read with this probability")
    ap.add_argument("--out", default="", help="append each decision's record (JSON lines) here")
    ap.add_argument("--load", default="", help="only the report, from a saved --out file")
    args = ap.parse_args()
    if args.load:
        recs = [json.loads(line) for line in Path(args.load).read_text().splitlines() if line.strip()]
        counts = {int(x) for x in args.players.split(",")}
        report([r for r in recs if r["players"] in counts])
        return
    lo, hi = (int(x) for x in args.seeds.split(":"))
    t0 = time.perf_counter()
    recs: list[dict[str, Any]] = []
    with open(args.out or "/dev/null", "a") as out:
        if args.any is not None:
            for seed in range(lo, hi):
                for players in [int(x) for x in args.players.split(",")]:
                    recs += read_any(seed, players, args, out)
                    print(f"# {players} players seed {seed}: {len(recs)} decisions, {time.perf_counter() - t0:.0f} s",
                          file=sys.stderr, flush=True)
            report(recs)
            return
        for players in [int(x) for x in args.players.split(",")]:
            for seed in range(lo, hi):
                recs += read_game(players, seed, args, out)
                print(
                    f"# {players} players seed {seed}: {len(recs)} decisions, {time.perf_counter() - t0:.0f} s",
                    file=sys.stderr,
                    flush=True,
                )
    report(recs)


if __name__ == "__main__":
    main()
