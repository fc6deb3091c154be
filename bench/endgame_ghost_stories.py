"""Issue #14, twelfth pass: would a rollout planner in the endgame win more games than the heuristic?

Run: python bench/endgame_ghost_stories.py --seeds 23000:23100 --players 2,3,4 --k 8 --out e8.jsonl
     python bench/endgame_ghost_stories.py --load e8.jsonl            (the report again)

Paired bot games on the same seeds: main's bot at every seat (the loop of gs_games.py, the dice stream
of bench_ghost_stories.play), and the same game in which, at the first decision of every Yang phase of a
living Taoist once the last incarnation is in play, the choice is made by rollouts: the heuristic's own
first action (what regret_ghost_stories's `first_action` reads) against up to `--alts` others, the best
tile of each other kind (or of the same kind on another tile) by the bot's values (regret's
`candidates`), each played as "move there, take that action, then the bot at every seat to the end of
the game" (regret's `forced`) in `--k` determinized worlds (regret's `determinize`: the unseen cards
reshuffled, the incarnation's depth kept, the dice reseeded), the same worlds and bot dice for every arm
(common random numbers). The arm with most wins is played (ties: the heuristic's); the rest of the turn
is the heuristic's. The worlds are drawn from a seed made of the game's seed and the decision's number,
and the rollouts are a fixed number, so a run is reproducible. Until the first such decision both games
are the same game.

Offline experiment: it reads the engine state (the determinization keeps to what a seat could know).
The planner's decision time is the process time of the whole choice (worlds, first action, rollouts).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from regret_ghost_stories import candidates, determinize, first_action, forced, play_out

from bot.rules import Rng
from bot.rules.ghost_stories import GAME
from bot.rules.ghost_stories import bot as B
from bot.rules.ghost_stories.core import copy_state
from bot.rules.ghost_stories.plan_endgame import in_endgame

MAX_STEPS = 20000


def plan(
    s: dict[str, Any], seat: int, view: dict[str, Any], legal: list[Any], policy: Any, k: int, alts: int, r: Rng
) -> tuple[str, int | None, str, dict[str, int]]:
    """The arm to play: (kind, tile, the heuristic's kind, wins by arm)."""
    worlds = [determinize(s, r) for _ in range(k)]
    chosen, ctile = first_action(copy_state(worlds[0]), seat, policy)
    cands = candidates(view, legal)
    others = sorted(((v, kd, x) for kd, (v, x) in cands.items() if (kd, x) != (chosen, ctile)), reverse=True)[:alts]
    wins = {f"{chosen}@{ctile}": sum(play_out(copy_state(w), policy, Rng.from_seed(i)) for i, w in enumerate(worlds))}
    best = (wins[f"{chosen}@{ctile}"], chosen, ctile, True)
    for _, kd, x in others:
        n = 0
        for i, w in enumerate(worlds):
            f = forced(copy_state(w), seat, x, kd, policy)
            if f is None:
                n = -1
                break
            n += play_out(f, policy, Rng.from_seed(i))
        if n < 0:
            continue
        wins[f"{kd}@{x}"] = n
        if n > best[0]:
            best = (n, kd, x, False)
    if best[3]:
        return chosen, None, chosen, wins
    return best[1], best[2], chosen, wins


def game(players: int, seed: int, args: argparse.Namespace, planner: bool) -> dict[str, Any]:
    """One game; with `planner`, the endgame's first Yang decisions by rollouts."""
    s = GAME.new(players, seed, {"difficulty": args.level})
    rng = Rng.from_seed(seed * 31 + players)
    policy = B.TaoistPolicy(planning=False)  # the heuristic, without the endgame planner
    last = None
    n_dec = 0
    rec: dict[str, Any] = {"seed": seed, "players": players, "decisions": [], "endgame": False}
    for _ in range(MAX_STEPS):
        if GAME.outcome(s) is not None:
            break
        seat = min(GAME.to_act(s))
        legal = GAME.legal_actions(s, seat)
        view = GAME.view(s, seat)
        key = (view["round"], view["turn"])
        if (
            view["pending"] is None
            and view["phase"] == "yang"
            and key != last
            and not view["yang"]["moved"]
            and not view["yang"]["acts"]
            and B._me(view)["alive"]
            and in_endgame(view)
        ):
            last = key
            rec["endgame"] = True
            n_dec += 1
            if planner:
                t0 = time.process_time()
                kind, tile, heur, wins = plan(
                    s, seat, view, legal, policy, args.k, args.alts, Rng.from_seed(seed * 1009 + n_dec * 7 + players)
                )
                dt = time.process_time() - t0
                rec["decisions"].append(
                    {
                        "heur": heur,
                        "played": kind,
                        "tile": tile,
                        "wins": wins,
                        "s": round(dt, 4),
                        "deck": int(view["deck"]),
                    }
                )
                if tile is not None:
                    f = forced(s, seat, tile, kind, policy)
                    if f is not None:
                        s = f
                        continue
        act = policy.choose(view, legal, {}, rng)
        s, _ = GAME.apply(s, seat, act)
    rec["win"] = s["result"] == "win"
    return rec


def report(recs: list[dict[str, Any]]) -> None:
    by: dict[int, list[tuple[bool, bool, bool]]] = {}
    times: list[float] = []
    dev = total = 0
    for r in recs:
        by.setdefault(r["players"], []).append((r["base"], r["win"], r["endgame"]))
        for d in r["decisions"]:
            times.append(d["s"])
            total += 1
            dev += d["tile"] is not None
    allp = []
    print("| players | games | reached the endgame | main's bot won | planner won | + (planner only) | − (main only) |")
    print("|---|---|---|---|---|---|---|")
    for p in sorted(by):
        v = by[p]
        allp += v
        print(
            f"| {p} | {len(v)} | {sum(e for _, _, e in v)} | {sum(b for b, _, _ in v)} | {sum(w for _, w, _ in v)} | "
            f"{sum(w and not b for b, w, _ in v)} | {sum(b and not w for b, w, _ in v)} |"
        )
    v = allp
    print(
        f"| all | {len(v)} | {sum(e for _, _, e in v)} | {sum(b for b, _, _ in v)} | {sum(w for _, w, _ in v)} | "
        f"{sum(w and not b for b, w, _ in v)} | {sum(b and not w for b, w, _ in v)} |"
    )
    if times:
        ts = sorted(times)
        p99 = ts[min(len(ts) - 1, int(0.99 * len(ts)))]
        print(
            f"\n{total} planner decisions, {dev} not the heuristic's ({dev / total:.0%}); process time per decision "
            f"median {statistics.median(ts) * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, max {ts[-1] * 1000:.0f} ms"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="23000:23100")
    ap.add_argument("--players", default="2,3,4")
    ap.add_argument("--level", default="initiation")
    ap.add_argument("--k", type=int, default=8, help="determinized worlds per decision (the same for every arm)")
    ap.add_argument("--alts", type=int, default=3, help="alternatives to the heuristic's first action")
    ap.add_argument("--out", default="")
    ap.add_argument("--load", default="")
    args = ap.parse_args()
    if args.load:
        report([json.loads(x) for x in Path(args.load).read_text().splitlines() if x.strip()])
        return
    lo, hi = (int(x) for x in args.seeds.split(":"))
    recs = []
    t0 = time.perf_counter()
    with open(args.out or "/dev/null", "a") as out:
        for seed in range(lo, hi):
            for players in [int(x) for x in args.players.split(",")]:
                base = game(players, seed, args, False)
                rec = game(players, seed, args, True) if base["endgame"] else {**base, "decisions": []}
                rec["base"] = base["win"]
                recs.append(rec)
                out.write(json.dumps(rec) + "\n")
                out.flush()
                print(
                    f"# {players}p {seed}: main {base['win']} planner {rec['win']} "
                    f"({len(rec['decisions'])} decisions) {time.perf_counter() - t0:.0f} s",
                    file=sys.stderr,
                    flush=True,
                )
    report(recs)


if __name__ == "__main__":
    main()
