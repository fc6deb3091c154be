"""Where Taoists die with teammates, and who could have saved them: a tally over bot games.

Run: python bench/deaths_ghost_stories.py --seeds 98000:98100 --players 2 [-v]

For each game's first death it looks at the dying Taoist's last Yang phase and at the teammates'
Yang phases after it (before the death): the Qi of each, how full the table was, what each did, and
whether a teammate had a rescue in reach (the Pavilion blowing a ghost off the dying Taoist's full
board, the Sorcerer's Hut with 2 Qi or more, an exorcism of one of its ghosts at odds 0.5 or more).
Then what became of the team after the first death (a lone survivor, its Qi, the Cemetery). Used for
issue #14's tenth pass (docs/rules/ghost_stories.md, "Win rates").
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gs_games import bot_game

from bot.rules.ghost_stories import GAME
from bot.rules.ghost_stories import bot as B
from bot.rules.ghost_stories.data import ADJ, FACES, tile_index

COLOURS = ("red", "yellow", "green", "blue")


def crowd(view: dict[str, Any], b: int) -> int:
    return sum(1 for sp in view["spaces"][b * 3 : b * 3 + 3] if sp["ghost"] is not None)


def rescues(view: dict[str, Any], me: dict[str, Any], i: int) -> set[str]:
    """What I could do this turn for board i (a living Taoist at 1 Qi with a full board)."""
    here = tile_index(me["pos"]) or 0
    out: set[str] = set()
    for x in list(range(9)) if B.has_power(view, me, "peaks") else [here, *ADJ[here]]:
        t = view["tiles"][x]
        if t["haunted"]:
            continue
        m = {**me, "pos": B._tname(x)}
        if t["key"] == "pavilion" and any(k // 3 == i for k, _ in B.blow_gains(view)):
            out.add("pavilion")
        if t["key"] == "sorcerer" and me["qi"] >= 2:
            out.add("sorcerer")
        pool = B._pool_at(view, m, B._tname(x))
        for k in FACES[x]:
            sp = view["spaces"][k]
            if k // 3 == i and sp["ghost"] is not None and sp["ghost"]["exorcisable"]:
                need, flex, ok = B._requirement(view, sp)
                p = B.success_chance(need, flex, B._dice(view, m), pool, view["whites_wild"], ok)
                out.add("exorcism >= 0.5" if p >= 0.5 else "exorcism < 0.5" if p > 0 else "")
    out.discard("")
    return out


def play(players: int, seed: int, level: str) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """One bot game: its Yang phases (start snapshot, rescues in reach, actions) and its deaths."""
    s = GAME.new(players, seed, {"difficulty": level})
    turns: list[dict[str, Any]] = []
    deaths: list[dict[str, Any]] = []
    prev: dict[str, bool] | None = None
    for step in bot_game(s, players, seed):
        view, act = step.view, step.act
        if view["pending"] is None and view["phase"] == "yang":
            me = B._me(view)
            if not turns or turns[-1]["key"] != (view["round"], view["turn"]):
                doomed = {
                    b["colour"]: rescues(view, me, i)
                    for i, b in enumerate(view["boards"])
                    if b["alive"] and not b["neutral"] and b["qi"] <= 1 and crowd(view, i) == 3
                }
                turns.append({
                    "key": (view["round"], view["turn"]), "colour": view["turn"], "doomed": doomed, "acts": [],
                    "qi": {b["colour"]: b["qi"] for b in view["boards"] if not b["neutral"]},
                    "crowd": [crowd(view, i) for i in range(4)],
                })  # fmt: skip
            kind = act.parts[0]
            if kind == "help":
                kind = "help " + view["tiles"][tile_index(me["pos"]) or 0]["key"]
            if kind not in ("move", "end"):
                turns[-1]["acts"].append(kind)
        s = step.after
        alive = {b["colour"]: b["alive"] for b in GAME.view(s, 0)["boards"] if not b["neutral"]}
        for c, a in alive.items():
            if prev is not None and prev.get(c) and not a:
                deaths.append({"colour": c, "turn": len(turns), "left": sum(alive.values())})
        prev = alive
    return s, turns, deaths


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", default="98000:98100")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--level", default="initiation")
    ap.add_argument("-v", action="store_true", help="print every turn a teammate had a rescue in reach")
    args = ap.parse_args()
    lo, hi = (int(x) for x in args.seeds.split(":"))
    c: Counter[str] = Counter()
    for seed in range(lo, hi):
        s, turns, deaths = play(args.players, seed, args.level)
        c["games"] += 1
        c["result " + str(s["result"]) + ": " + str(s.get("reason", ""))[:30]] += 1
        if not deaths:
            continue
        d = deaths[0]
        c["games with a death"] += 1
        c["... then " + str(s["result"]) + ": " + str(s.get("reason", ""))[:30]] += 1
        c[f"... Taoists left alive by the step of the first death: {d['left']}"] += 1
        before = turns[: d["turn"]]
        mine = [t for t in before if t["colour"] == d["colour"]]
        if not mine:
            continue
        last = mine[-1]
        c[f"dying Taoist's last Yang phase: {last['qi'][d['colour']]} Qi"] += 1
        c[f"... its board {last['crowd'][COLOURS.index(d['colour'])]} ghosts"] += 1
        c["... 11 or 12 of the 12 spaces full"] += sum(last["crowd"]) >= 11
        c["... a teammate at 1 Qi"] += any(q <= 1 for k, q in last["qi"].items() if k != d["colour"])
        c["... it did: " + (",".join(last["acts"]) or "nothing")] += 1
        sure = {"pavilion", "sorcerer", "exorcism >= 0.5"}
        could = False
        for t in before[before.index(last) + 1 :]:
            opts = t["doomed"].get(d["colour"])
            if opts is None:
                continue
            c["teammate turns after it, the dying Taoist at 1 Qi with a full board"] += 1
            if opts & sure:
                could = True
                c["... with a rescue in reach (Pavilion, Sorcerer, odds >= 0.5): did " + ",".join(t["acts"])] += 1
                if args.v:
                    print(seed, t["key"], sorted(opts), t["acts"], t["qi"], t["crowd"])
        c["games where a teammate could have rescued the first to die"] += could
        lone = turns[d["turn"] :]
        if d["left"] == 1 and lone:
            c["lone survivor: games"] += 1
            c["lone survivor: its Yang phases"] += len(lone)
            c[f"lone survivor: {lone[0]['qi'][lone[0]['colour']]} Qi at its first"] += 1
            c["lone survivor: Cemetery visits"] += sum(a == "help cemetery" for t in lone for a in t["acts"])
    for k, v in sorted(c.items()):
        print(f"{v:5d}  {k}")


if __name__ == "__main__":
    main()
