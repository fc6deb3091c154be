"""How village tiles get haunted in bot games of Ghost Stories, and what the team did meanwhile.

Run: python bench/haunts_ghost_stories.py --seeds 96000:96100 --players 4 [--level initiation]
     ... -v          every haunting by a haunter's figure, with the Yang phases it was in play
     ... --losing    only the game-losing ones, with the last round before them

For every haunted tile: its source (a haunter's figure entering the village, a curse die, a ghost's
arrival: Shapeless Evil), and for a haunter's walk its board (a living Taoist's, neutral, dead), its
resistance and the Yang phases of living Taoists while it was in play: whether its tile was in reach
(here or a step away at the start of the turn, any tile with Dance of the Peaks), the odds there (own
tokens and those of teammates on that tile), and in the last round before the haunting which
Taoists had a means to stop it ("ex": odds 0.5 or more, "sorc": the Sorcerer's Hut in reach with
2 Qi or more, "watch": the Night Watchman's Beat in reach, "yy": a Yin-Yang token with either
unhaunted) and what the last of them did instead (issue #14, ninth pass).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gs_games import bot_game

from bot.rules.ghost_stories import GAME
from bot.rules.ghost_stories import bot as B
from bot.rules.ghost_stories.core import ghost_label
from bot.rules.ghost_stories.data import ADJ, CARDS, FRONT, tile_index


@dataclass
class Phase:
    """One living Taoist's Yang phase while a haunter was in play."""

    colour: str
    haunts_in: int
    in_reach: bool
    odds: float
    means: list[str]
    did: list[str] = field(default_factory=list)  # shared with the phase's other haunters


def odds_at_front(view: dict[str, Any], me: dict[str, Any], k: int) -> float:
    sp = view["spaces"][k]
    if sp["ghost"] is None or not sp["ghost"]["exorcisable"]:
        return 0.0
    need, flex, dice_ok = B._requirement(view, sp)
    pool = B._pool_at(view, {**me, "pos": B._tname(FRONT[k])}, B._tname(FRONT[k]))
    return B.success_chance(need, flex, B._dice(view, me), pool, view["whites_wild"], dice_ok)


def phases_of_turn(view: dict[str, Any], did: list[str]) -> dict[int, Phase]:
    """Each haunter in play (by card id) at the start of this Yang phase, as the acting Taoist sees it."""
    me = B._me(view)
    here = tile_index(me["pos"]) or 0
    reach = list(range(9)) if B.has_power(view, me, "peaks") else [here, *ADJ[here]]
    near = {view["tiles"][x]["key"] for x in reach if not view["tiles"][x]["haunted"]}
    alive = {tl["key"] for tl in view["tiles"] if not tl["haunted"]}
    out = {}
    for k, sp in enumerate(view["spaces"]):
        g = sp["ghost"]
        if g is None or "HAUNTER" not in g["yin"]:
            continue
        r = FRONT[k] in reach
        p = odds_at_front(view, me, k) if r else 0.0
        means = [m for m, ok in (
            ("ex", p >= 0.5),
            ("sorc", "sorcerer" in near and me["qi"] >= 2),
            ("watch", "watchman" in near),
            ("yy", bool(me["yinyang"]) and bool({"sorcerer", "watchman"} & alive)),
        ) if ok]  # fmt: skip
        out[int(g["id"])] = Phase(me["colour"], B.haunts_in(g) or 0, r, p, means, did)
    return out


def first_action(did: list[str]) -> str:
    acts = ("exorcise", "buddha", "yinyang")
    word = next((w for w in did if w.split()[0] in acts or w.startswith("help")), "nothing")
    return word.split(" ")[0]


def walk(stats: Counter[str], seed: int, seen: list[Phase], k: int, s2: dict[str, Any], text: str, show: bool) -> None:
    """Tally one haunting by a haunter's figure (ghost on space k after the event)."""
    g = s2["spaces"][k]
    owner = s2["boards"][k // 3]
    kind = "neutral" if owner["seat"] is None else ("dead" if not owner["alive"] else "player")
    res = sum(CARDS[int(g["id"])]["resistance"].values())
    best = max((x.odds for x in seen), default=0.0)
    stats["walk from a " + kind + " board"] += 1
    stats[f"walk: resistance {res}"] += 1
    stats[f"walk: Yang phases in play {min(len(seen), 8)}{'+' if len(seen) >= 8 else ''}"] += 1
    band = "0" if best == 0 else "<.34" if best < 0.34 else "<.67" if best < 0.67 else ">=.67"
    stats["walk: best odds " + band] += 1
    last = [x for x in seen if x.haunts_in == 1]
    able = [x for x in last if x.means]
    if not last:
        tag = "no phase"
    elif not able:
        tag = "nobody had a means"
    else:
        tag = f"{len(able)} of {len(last)} had a means"
        for x in able:
            for m in x.means:
                stats["walk: last round, means " + m] += 1
        did = able[-1].did
        word = first_action(did)
        target = ("red", "yellow", "green", "blue")[k // 3] + str(k % 3 + 1)
        exo = next((w for w in did if w.startswith("exorcise")), "")
        if word == "exorcise":
            word += " it" if target in exo.split() else " another ghost"
        stats["walk: the last able did " + word] += 1
    stats["walk: last round, " + tag] += 1
    lost = s2["result"] is not None
    if lost:
        stats["losing walk: " + (tag if not able else "the last able did " + first_action(able[-1].did))] += 1
    if show or (LOSING and lost):
        print(f"{seed}: {text} [{kind} board, resistance {res}]{' LOST' if lost else ''}")
        for x in last if (LOSING and not show) else seen:
            line = f"    {x.colour:6s} in {x.haunts_in} reach={int(x.in_reach)} p={x.odds:.2f} means={x.means}"
            print(line, "did:", " / ".join(x.did))


LOSING = False


def play(players: int, seed: int, level: str, stats: Counter[str], show: bool) -> None:
    s = GAME.new(players, seed, {"difficulty": level})
    seen: dict[int, list[Phase]] = {}  # haunter card id -> the Yang phases since its last haunting
    last = None
    did: list[str] = []
    for step in bot_game(s, players, seed):
        view, act = step.view, step.act
        if view["pending"] is None and view["phase"] == "yang":
            if (view["round"], view["turn"]) != last:
                last = (view["round"], view["turn"])
                did = []
                for i, ph in phases_of_turn(view, did).items():
                    seen.setdefault(i, []).append(ph)
            word = " ".join(act.parts)
            if act.parts[0] == "help":
                word = "help:" + view["tiles"][tile_index(B._me(view)["pos"]) or 0]["key"]
            did.append(word)
        s2, evs = step.after, step.events
        for i, ev in enumerate(evs):
            if "is haunted!" not in ev.text:
                continue
            prev = evs[i - 1].text if i > 0 else ""
            src = "walk" if "enters the village" in prev else ("curse die" if "curse die" in prev else "arrival")
            stats["haunted tiles"] += 1
            stats["source: " + src] += 1
            if s2["result"] is not None:
                stats["the losing haunting: " + src] += 1
            if src != "walk":
                if show:
                    print(f"{seed}: {src}: {prev} / {ev.text}")
                continue
            k = next((j for j, g in enumerate(s2["spaces"]) if g is not None and str(ghost_label(s2, j)) in prev), None)
            if k is None:
                stats["walk: ghost not found"] += 1
                continue
            walk(stats, seed, seen.pop(int(s2["spaces"][k]["id"]), []), k, s2, prev, show)
        s = s2
    stats["games"] += 1
    reason = str(s.get("reason", ""))
    end = "win" if s["result"] == "win" else next((w for w in ("dead", "haunted", "deck") if w in reason), reason[:20])
    stats["end: " + end] += 1


def main() -> None:
    global LOSING
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", default="96000:96100")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--level", default="initiation")
    ap.add_argument("-v", action="store_true", help="print every haunting")
    ap.add_argument("--losing", action="store_true", help="print the last round before each game-losing haunting")
    args = ap.parse_args()
    LOSING = args.losing
    lo, hi = (int(x) for x in args.seeds.split(":"))
    stats: Counter[str] = Counter()
    for seed in range(lo, hi):
        play(args.players, seed, args.level, stats, args.v)
    for k, v in sorted(stats.items()):
        print(f"{k}: {v}")


if __name__ == "__main__":
    main()
