"""Ghost Stories benchmark: apply / legal-action / render timings, playout speed, bot vs random.

Run: python bench/bench_ghost_stories.py [games_per_count] [flags]

For every level and player count it plays `games_per_count` games (default 20) with the table bot
(GAME.bot_policy(), the team TaoistPolicy) and with random legal players, on the same seeds
(1000, 1001, ...), and prints wins, the share of the ghost deck drawn before the end (how long the
team held out), the mean team score and the bot's decision time. It says whether the seeds overlap
TUNING_SEEDS, the ranges the bot's weights were tuned on: report figures from a range that does not
(e.g. --seeds 28000:28200, not used yet; 5000–19399 were the fresh ranges of earlier passes). The last
lines are a Markdown table for docs/rules/ghost_stories.md.

Flags, so one cell can be measured quickly while tuning:
  --level initiation[,normal...]   only these levels
  --players 2[,3...]               only these player counts
  --seeds 1000:1060                this seed range (overrides games_per_count)
  --no-random                      skip the random players
  --no-engine                      skip the engine/render timings
  --diag                           per cell: causes of loss, where the Taoists' Qi went (and what
                                   took a dying Taoist's last Qi), how tiles got haunted, how often
                                   Wu-Feng showed, which helps the Yin-Yang bought, teammates moved
                                   (act push: Twin Winds; act pavilion move)
  --timing                         per-decision times of the bot: median / p99 / max
  --options power_sides=first,...  table options for every game (default: the game's defaults)
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

from bot.rules import RandomPolicy, Rng
from bot.rules.base import BotPolicy, Event
from bot.rules.ghost_stories import GAME
from bot.rules.ghost_stories.bot import TaoistPolicy
from bot.rules.ghost_stories.data import tile_index

MAX_STEPS = 20000  # a guard for diagnostic patches (e.g. no Qi loss) that can stall a game
OPTIONS: dict[str, str] = {}  # --options: table options for every game (besides the level)
# the seeds the bot's weights were tuned on (issue #13: 3000-3059; issue #14: 1000-1399, 2000-2399;
# its fifth pass: 20000-20199, 30000-30099, 40000-40199)
TUNING_SEEDS = (
    range(1000, 1400),
    range(2000, 2400),
    range(3000, 3060),
    range(20000, 20200),
    range(30000, 30100),
    range(40000, 40200),
    range(50000, 50150),
    range(60000, 60100),
    range(70000, 70200),
    range(80000, 80400),
    range(81000, 81400),
    range(90000, 90200),  # issue #14, seventh pass (2-4 players)
    range(91000, 91200),
    range(92000, 92400),  # issue #14, eighth pass (middle game; 2-4 players on 92000-92099)
    range(93000, 93400),  # ... its second range (2-4 players on 93000-93099)
    range(94000, 94400),  # issue #14, ninth pass (deaths; 2-4 players on 94000-94099)
    range(95000, 95400),  # ... its second range (2-4 players on 95000-95099)
    range(96000, 96400),  # issue #14, ninth pass (hauntings; solo 96000-96399, 2-4 players 96000-96099)
    range(97000, 97100),  # ... its second range (2-4 players)
    range(98000, 98400),  # issue #14, tenth pass (deaths with 2 players; 2-4 players on 98000-98099)
    range(99000, 99100),  # ... its second range (2-4 players)
    range(100000, 100400),  # issue #14, tenth pass (curse dice; solo 100000-100399, 2-4 players 100000-100099)
    range(101000, 101100),  # ... its second range (2-4 players)
    range(19000, 19400),  # ... its fresh figure (looked at once: no longer fresh)
    range(102000, 102400),  # issue #14, eleventh pass (measured regret; solo 102000-102399, 2-4 players 102000-102099)
    range(103000, 103100),  # ... its second range (2-4 players)
    range(104000, 104200),  # ... the regret reading's own games
    range(22000, 22400),  # ... its fresh figure (looked at once: no longer fresh)
    range(23000, 23800),  # issue #14, twelfth pass (the endgame planner's K; then its fresh figures)
    range(24000, 24600),  # issue #14, thirteenth pass (its fresh figures; looked at: no longer fresh)
    range(200000, 202500),  # issue #14, fifteenth pass: the games value.py was fitted on
    range(25000, 25400),  # ... its fresh figures (looked at: no longer fresh)
    range(26000, 26200),  # ... its second fresh figures, sessions 14-15 (Initiation 2-4 players, Normal 1-4)
    range(27000, 27200),  # ... its third fresh figures, sessions 15-16 (every level; looked at: next fresh 28000)
)
TUNING_TEXT = ", ".join(f"{r.start}–{r.stop - 1}" for r in TUNING_SEEDS)


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def loss_cause(s: dict[str, Any]) -> str:
    """A short name for why the game ended."""
    if s["result"] == "win":
        return "win"
    r = s["reason"]
    if "dead" in r:
        return "dead"
    if "haunted" in r:
        return "haunted"
    if "deck" in r:
        return "deck out"
    return r[:30]


def death_cause(t: str) -> str:
    """What took a dying Taoist's last Qi (the event just before the death)."""
    if "overrun" in t:
        return "overrun"
    if "curse die" in t:
        return "curse"
    if "All 12 ghost spaces are full" in t:
        return "full"
    if "Sorcerer" in t:
        return "sorcerer"
    return "other"


def classify(ev: Event, s_before: dict[str, Any], diag: Counter[str]) -> None:
    """Count Qi losses/gains of Taoists and haunting sources from the event text."""
    t = ev.text
    player_colours = {bd["colour"].capitalize() for bd in s_before["boards"] if bd["seat"] is not None}
    if t.startswith("The Sorcerer removes"):
        diag["qi- sorcerer"] += 1
    elif "is overrun by ghosts: -1 Qi" in t:
        colour = t.split()[1]
        diag["qi- overrun" if colour in player_colours else "neutral overrun"] += 1
    elif "rolls the curse die: 1 Qi lost" in t:
        diag["qi- curse"] += 1
    elif "Taoist loses 1 Qi." in t and ": the" in t:
        diag["qi- arrival"] += 1
    elif "All 12 ghost spaces are full" in t:
        diag["qi- full"] += 1
    elif "gains 1 Qi" in t:
        diag["qi+"] += 1
    elif "comes back to life" in t:
        diag["revived"] += 1
    elif "haunting figure enters the village" in t:
        colour = t.split(") on ")[-1].split()[0] if ") on " in t else "?"
        diag["haunt-walk " + ("player" if colour in player_colours else "neutral/dead")] += 1
    elif "rolls the curse die: a tile is haunted" in t:
        diag["haunt-curse"] += 1
    elif "is haunted!" in t:
        diag["tile haunted"] += 1
    elif "Wu-Feng incarnation arrives" in t:
        diag["wufeng shown"] += 1
    elif "is restored" in t or "to restore" in t:
        diag["restored"] += 1
    elif "is exorcised from" in t:
        diag["exorcised"] += 1
    elif "dies!" in t:
        diag["deaths"] += 1


def play(
    players: int,
    seed: int,
    diff: str,
    policy: BotPolicy[Any],
    diag: Counter[str] | None = None,
    times: list[float] | None = None,
) -> tuple[dict[str, Any], int]:
    s = GAME.new(players, seed, {"difficulty": diff, **OPTIONS})
    rng = Rng.from_seed(seed * 31 + players)
    memories: dict[int, Any] = {}
    steps = 0
    while GAME.outcome(s) is None and steps < MAX_STEPS:
        seat = min(GAME.to_act(s))
        legal = GAME.legal_actions(s, seat)
        view = GAME.view(s, seat)
        a0 = time.perf_counter()
        memories[seat] = policy.observe(memories.get(seat, {}), view)
        act = policy.choose(view, legal, memories[seat], rng)
        if times is not None:
            times.append(time.perf_counter() - a0)
        s2, evs = GAME.apply(s, seat, act)
        if diag is not None:
            verb = act.parts[0]
            if verb == "help" and s["pending"] is None:
                me = s["boards"][s["turn"]]
                verb = "help " + s["tiles"][me["pos"]]["key"]
            if verb == "yinyang":
                far = act.parts[1] != "restore"
                verb = "yinyang " + (s["tiles"][tile_index(act.parts[1]) or 0]["key"] if far else "restore")
            if verb == "pavilion":
                verb = "pavilion " + ("skip" if act.parts[1] == "skip" else "move")
            if verb in ("exorcise", "power", "buddha", "push") or verb.startswith(("help", "yinyang", "pavilion")):
                diag["act " + verb + (" x2" if len(act.parts) == 3 and verb == "exorcise" else "")] += 1
            for i, ev in enumerate(evs):
                classify(ev, s, diag)
                if "dies!" in ev.text and i > 0:
                    diag["death by " + death_cause(evs[i - 1].text)] += 1
        s = s2
        steps += 1
    return s, steps


def engine_timings() -> None:
    from rendering.base import encode_png
    from rendering.ghost_stories import render

    apply_t: list[float] = []
    legal_t: list[float] = []
    states: list[dict[str, Any]] = []
    t0 = time.perf_counter()
    n_games = n_steps = 0
    for seed in range(40):
        players = 1 + seed % 4
        s = GAME.new(players, seed, {"difficulty": ("initiation", "normal", "nightmare", "hell")[seed % 4]})
        pick = Rng.from_seed(seed)
        while GAME.outcome(s) is None:
            seat = min(GAME.to_act(s))
            a = time.perf_counter()
            legal = GAME.legal_actions(s, seat)
            legal_t.append(time.perf_counter() - a)
            act = pick.choice(legal)
            a = time.perf_counter()
            s, _ = GAME.apply(s, seat, act)
            apply_t.append(time.perf_counter() - a)
            n_steps += 1
            if n_steps % 25 == 0:
                states.append(s)
        n_games += 1
    elapsed = time.perf_counter() - t0
    for label, xs in (("apply", apply_t), ("legal_actions", legal_t)):
        med, p99 = statistics.median(xs) * 1e3, pct(xs, 0.99) * 1e3
        print(f"{label}: median {med:.3f} ms, p99 {p99:.3f} ms")
    print(f"random playouts: {n_games / elapsed:.1f} games/s ({n_steps / elapsed:.0f} actions/s)")
    render_t: list[float] = []
    sizes: list[int] = []
    for s in states[:30]:
        a = time.perf_counter()
        png = encode_png(render(GAME.view(s, None)))
        render_t.append(time.perf_counter() - a)
        sizes.append(len(png))
    med, p99 = statistics.median(render_t) * 1e3, pct(render_t, 0.99) * 1e3
    print(f"render+encode: median {med:.1f} ms, p99 {p99:.1f} ms")
    print(f"PNG size: median {statistics.median(sizes) / 1024:.0f} KiB, max {max(sizes) / 1024:.0f} KiB")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("games", nargs="?", type=int, default=20)
    ap.add_argument("--level", default="initiation,normal,nightmare,hell")
    ap.add_argument("--players", default="1,2,3,4")
    ap.add_argument("--seeds", default="")
    ap.add_argument("--no-random", action="store_true")
    ap.add_argument("--no-engine", action="store_true")
    ap.add_argument("--diag", action="store_true")
    ap.add_argument("--timing", action="store_true")
    ap.add_argument("--options", default="", help="table options for every game, e.g. power_sides=first,haunting=two")
    ap.add_argument("--plan", default="", help="the bot's planner settings, e.g. k=16,alts=3 (TaoistPolicy)")
    args = ap.parse_args()
    plan = {k: float(v) if "." in v else int(v) for k, v in (kv.split("=", 1) for kv in args.plan.split(",") if kv)}
    OPTIONS.update(dict(kv.split("=", 1) for kv in args.options.split(",") if kv))
    if not args.no_engine:
        engine_timings()
    if args.seeds:
        lo, hi = (int(x) for x in args.seeds.split(":"))
        seeds = list(range(lo, hi))
    else:
        seeds = list(range(1000, 1000 + args.games))
    counts = [int(x) for x in args.players.split(",")]
    table: list[str] = []
    all_times: list[float] = []
    for diff in args.level.split(","):
        bot = TaoistPolicy(**plan) if plan else GAME.bot_policy()
        policies: list[tuple[str, BotPolicy[Any], list[int]]] = [("bot", bot, seeds)]
        if not args.no_random:
            policies.append(("random", RandomPolicy(), seeds))
        for name, policy, sds in policies:
            row, cells = [], []
            t_policy = time.perf_counter()
            n_decisions = 0
            for players in counts:
                wins = 0
                scores = []
                drawn = []
                causes: Counter[str] = Counter()
                diag: Counter[str] = Counter()
                for seed in sds:
                    start = len(GAME.new(players, seed, {"difficulty": diff, **OPTIONS})["deck"])
                    times = all_times if (args.timing and name == "bot") else None
                    s, steps = play(players, seed, diff, policy, diag if args.diag else None, times)
                    n_decisions += steps
                    wins += s["result"] == "win"
                    causes[loss_cause(s)] += 1
                    out = GAME.outcome(s)
                    if out is None:
                        continue
                    scores.append(float(out.scores[0] or 0))
                    drawn.append(1 - len(s["deck"]) / start)
                mean_score, mean_drawn = statistics.mean(scores), statistics.mean(drawn)
                n = len(sds)
                row.append(f"{players}p {wins}/{n} (score {mean_score:.0f}, deck {mean_drawn:.0%} drawn)")
                cells.append(f"{wins}/{n} won ({wins / n:.1%}; deck {mean_drawn:.0%} drawn)")
                if args.diag:
                    per_game = ", ".join(f"{k} {v / n:.2f}" for k, v in sorted(diag.items()))
                    print(f"  {diff} {name} {players}p ends: {dict(causes)}; per game: {per_game}", flush=True)
            per = (time.perf_counter() - t_policy) / max(1, n_decisions) * 1e3
            print(f"{diff:10s} {name:7s} wins: " + ", ".join(row) + f" [{per:.2f} ms/decision]", flush=True)
            table.append(f"| {diff.capitalize()} | {name} | " + " | ".join(cells) + " |")
    if all_times:
        ms = [x * 1e3 for x in all_times]
        print(
            f"bot decision time: median {statistics.median(ms):.2f} ms, p99 {pct(ms, 0.99):.1f} ms, "
            f"max {max(ms):.1f} ms over {len(ms)} decisions"
        )
    head = " | ".join(str(p) for p in counts)
    tuned = [x for x in seeds if any(x in r for r in TUNING_SEEDS)]
    note = (
        f"{len(tuned)} of these seeds were used for tuning ({TUNING_TEXT})"
        if tuned
        else f"none used for tuning (tuning: {TUNING_TEXT})"
    )
    print(f"\nSeeds {seeds[0]}–{seeds[-1]}, {note}.\n| Level | Players | {head} |\n|---|---|" + "---|" * len(counts))
    print("\n".join(table))


if __name__ == "__main__":
    main()
