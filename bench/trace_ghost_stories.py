"""A readable trace of one bot game of Ghost Stories, to find the bot's mistakes by reading lost games.

Run: python bench/trace_ghost_stories.py SEED [--players 3] [--level initiation] [--options k=v,...]
     python bench/trace_ghost_stories.py --lost 1000:1020 --players 3   (only the seeds the team lost,
                                                                          with the cause: pick one to read)
     python bench/trace_ghost_stories.py --scan 1000:1100 --players 3   (counts of decision patterns a
                                                                          reader questioned, per game)

For every Yang phase of a living Taoist it prints the board as that Taoist sees it (each board's Qi,
tokens, Yin-Yang and ghosts with their resistance, haunting progress and danger; haunted tiles;
where each Taoist stands; the deck), then each decision with its best alternatives and their values
(a tile's exorcism and help values, so a move can be checked against what else was reachable), and
the game's own event lines. Pending choices (placement, rewards, team decisions) print the choice only.
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
from bot.rules.ghost_stories.data import ADJ, FACES, space_index, tile_index

OPTIONS: dict[str, str] = {}


def ghost_line(view: dict[str, Any], k: int) -> str:
    sp = view["spaces"][k]
    g = sp["ghost"]
    if g is None:
        return "(buddha)" if sp["buddha"] else "-"
    res = "+".join(f"{n}{c[0].upper() if c != 'black' else 'K'}" for c, n in g["resistance"].items())
    tags = []
    if "HAUNTER" in g["yin"]:
        tags.append(f"H{g['haunts_in']}")
    if "CURSE" in g["yin"]:
        tags.append("torm")
    if g["incarnation"]:
        tags.append("WUFENG")
    if g["captured"]:
        tags.append("cap")
    if B.is_blocker(view, k):
        tags.append("blk")
    return f"{g['name'][:14]}[{res}{' ' + ' '.join(tags) if tags else ''}] d={B.danger(view, k):.1f}"


def board_summary(view: dict[str, Any]) -> list[str]:
    out = []
    for i, b in enumerate(view["boards"]):
        who = "neutral" if b["neutral"] else ("DEAD" if not b["alive"] else f"@{b['pos']}")
        tao = ",".join(f"{c[0] if c != 'black' else 'K'}{n}" for c, n in b["tao"].items() if n) or "-"
        extra = f" yy={int(b['yinyang'])} bud={b['buddhas']} pt={b['power_tokens']}" if not b["neutral"] else ""
        ghosts = " | ".join(ghost_line(view, i * 3 + j) for j in range(3))
        out.append(f"  {b['colour']:6s} {who:8s} qi={b['qi']} tao={tao:10s}{extra} {b['power']['key']:11s}: {ghosts}")
    haunted = [t["tile"] + ":" + t["key"] for t in view["tiles"] if t["haunted"]]
    out.append(
        f"  deck={view['deck']} haunted={view['haunted']}/{view['haunt_limit']} {haunted} circle={view['circle']} "
        f"temple={view['temple_buddhas']} to_wufeng={B.draws_to_wufeng(view)} need={_need(view)}"
    )
    return out


def _need(view: dict[str, Any]) -> str:
    n = B.wufeng_need(view)
    return ",".join(f"{c[0] if c != 'black' else 'K'}{v:.1f}" for c, v in n.items() if v)


def alternatives(view: dict[str, Any]) -> str:
    """Reachable tiles by value, with their exorcism and help parts."""
    me = B._me(view)
    here = tile_index(me["pos"]) or 0
    tiles = [here, *ADJ[here]] if not B.has_power(view, me, "peaks") else list(range(9))
    rows = []
    for x in tiles:
        m = {**me, "pos": B._tname(x)}
        ex, hv = B.exorcise_value(view, m, x), B.help_value(view, m, x)
        rows.append((B.tile_value(view, m, x), x, ex, hv))
    rows.sort(reverse=True)
    return "; ".join(
        f"{B._tname(x)}{'*' if x == here else ''} {view['tiles'][x]['key'][:6]} v={v:.1f} (ex {ex:.1f} help {hv:.1f})"
        for v, x, ex, hv in rows[:5]
    )


def trace(players: int, seed: int, level: str, quiet: bool = False, scan: Counter[str] | None = None) -> dict[str, Any]:
    s = GAME.new(players, seed, {"difficulty": level, **OPTIONS})
    last_turn = None
    acted = True  # the Yang phase being played took an action (help, exorcism, Yin-Yang, Buddha)
    for step in bot_game(s, players, seed):
        seat, view, legal, act, s = step.seat, step.view, step.legal, step.act, step.after
        if scan is not None and view["pending"] is None and view["phase"] == "yang":
            new_turn = (view["round"], view["turn"]) != last_turn
            acted = acted and not new_turn
            _scan(view, act, new_turn, acted, scan)
            acted = acted or act.parts[0] in ("help", "exorcise", "yinyang", "buddha")
            last_turn = (view["round"], view["turn"]) if quiet else last_turn
        if not quiet:
            key = (view["round"], view["turn"])
            if view["pending"] is None and view["phase"] == "yang":
                if key != last_turn:
                    last_turn = key
                    print(f"\n=== round {view['round']} {view['turn']} (seat {seat}) yang")
                    print("\n".join(board_summary(view)))
                    me = B._me(view)
                    faces = [view["spaces"][k]["space"] for k in FACES[tile_index(me["pos"]) or 0]]
                    print(f"  here {me['pos']} faces {faces}")
                if act.parts[0] in ("move", "help", "exorcise", "end", "yinyang", "power") and not view["yang"]["acts"]:
                    print(f"  alts: {alternatives(view)}")
                print(f"  > {' '.join(act.parts)}   [{len(legal)} legal]")
            else:
                kind = view["pending"]["kind"] if view["pending"] else view["phase"]
                if len(legal) > 1:
                    print(f"  ? {kind}: {' '.join(act.parts)}  (of {', '.join(' '.join(a.parts) for a in legal[:6])})")
        if not quiet:
            for ev in step.events:
                print(f"    . {ev.text}")
    return s


def _scan(view: dict[str, Any], act: Any, new_turn: bool, acted_before: bool, scan: Counter[str]) -> None:
    """Tally decision patterns a competent player would question (see --scan)."""
    me = B._me(view)
    if new_turn:
        scan["yang turns"] += 1
        if view["tao_locked"] and sum(sum(b["tao"].values()) for b in view["boards"] if b["alive"]) >= 2:
            scan["turns with tokens locked (team holds 2+)"] += 1
        k0 = me["colour"]
        for b in range(4):
            owner = view["boards"][b]
            full = all(sp["ghost"] is not None for sp in view["spaces"][b * 3 : b * 3 + 3])
            if full and not owner["neutral"] and owner["alive"] and owner["qi"] <= 1 and B.chances(view, b) == 1:
                scan["last chance: full board, its Taoist at 1 Qi"] += 1
                if owner["colour"] == k0:
                    scan["... it is my own board"] += 1
    if act.parts[0] == "end" and not acted_before and not view["yang"]["acts"]:
        scan["turns ended with no action"] += 1
    if act.parts[0] == "help":
        key = view["tiles"][tile_index(me["pos"]) or 0]["key"]
        scan["help " + key] += 1
        if key == "sorcerer":
            k = int(space_index(act.parts[1]) or 0)
            g = view["spaces"][k]["ghost"]
            scan[
                "sorcerer on "
                + ("haunter" if "HAUNTER" in g["yin"] else "tormentor" if "CURSE" in g["yin"] else "other")
            ] += 1
            scan["sorcerer on a neutral/dead board" if B.on_sink(view, k) else "sorcerer on a living board"] += 1


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("seed", nargs="?", type=int, default=1000)
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--level", default="initiation")
    ap.add_argument("--lost", default="", help="lo:hi: list the lost seeds of this range with the cause")
    ap.add_argument("--scan", default="", help="lo:hi: tally questionable decision patterns over these seeds")
    ap.add_argument("--options", default="")
    args = ap.parse_args()
    OPTIONS.update(dict(kv.split("=", 1) for kv in args.options.split(",") if kv))
    if args.scan:
        lo, hi = (int(x) for x in args.scan.split(":"))
        scan: Counter[str] = Counter()
        for seed in range(lo, hi):
            s = trace(args.players, seed, args.level, quiet=True, scan=scan)
            scan["end: " + str(s["result"]) + " " + str(s.get("reason", ""))[:24]] += 1
        for k, v in sorted(scan.items()):
            print(f"{k}: {v} ({v / (hi - lo):.2f} a game)")
        return
    if args.lost:
        lo, hi = (int(x) for x in args.lost.split(":"))
        for seed in range(lo, hi):
            s = trace(args.players, seed, args.level, quiet=True)
            print(seed, s["result"], s.get("reason", ""), f"deck {len(s['deck'])}")
        return
    s = trace(args.players, args.seed, args.level)
    print(f"\nRESULT {s['result']}: {s.get('reason', '')}")


if __name__ == "__main__":
    main()
