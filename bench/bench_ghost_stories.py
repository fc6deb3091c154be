"""Ghost Stories benchmark: apply / legal-action / render timings, playout speed, bot vs random.

Run: python bench/bench_ghost_stories.py [games_per_count] [search_games_per_count]

For every level and player count it plays `games_per_count` games (default 40) with the table bot
(GAME.bot_policy(), the TaoistPolicy heuristic) and with random legal players, on the same seeds,
and prints wins, the share of the ghost deck drawn before the end (how long the team held out),
the mean team score and the bot's decision time. `search_games_per_count` (default 0) adds the
slower look-ahead SearchPolicy. The last lines are a Markdown table for docs/rules/ghost_stories.md.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.rules import RandomPolicy, Rng
from bot.rules.base import BotPolicy
from bot.rules.ghost_stories import GAME
from bot.rules.ghost_stories.search import SearchPolicy
from rendering.base import encode_png
from rendering.ghost_stories import render


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def play(players: int, seed: int, diff: str, policy: BotPolicy[Any]) -> tuple[dict[str, Any], int]:
    s = GAME.new(players, seed, {"difficulty": diff})
    rng = Rng.from_seed(seed * 31 + players)
    steps = 0
    while GAME.outcome(s) is None:
        seat = min(GAME.to_act(s))
        legal = GAME.legal_actions(s, seat)
        s, _ = GAME.apply(s, seat, policy.choose(GAME.view(s, seat), legal, {}, rng))
        steps += 1
    return s, steps


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
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
    search_games = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    table: list[str] = []
    for diff in ("initiation", "normal", "nightmare", "hell"):
        policies: list[tuple[str, BotPolicy[Any], int]] = [("bot", GAME.bot_policy(), games)]
        if search_games:
            policies.append(("search", SearchPolicy(), search_games))
        policies.append(("random", RandomPolicy(), games))
        for name, policy, n_games in policies:
            row, cells = [], []
            t_policy = time.perf_counter()
            n_decisions = 0
            for players in (1, 2, 3, 4):
                wins = 0
                scores = []
                drawn = []
                for seed in range(n_games):
                    start = len(GAME.new(players, 1000 + seed, {"difficulty": diff})["deck"])
                    s, steps = play(players, 1000 + seed, diff, policy)
                    n_decisions += steps
                    wins += s["result"] == "win"
                    out = GAME.outcome(s)
                    assert out is not None
                    scores.append(float(out.scores[0] or 0))
                    drawn.append(1 - len(s["deck"]) / start)
                mean_score, mean_drawn = statistics.mean(scores), statistics.mean(drawn)
                row.append(f"{players}p {wins}/{n_games} (score {mean_score:.0f}, deck {mean_drawn:.0%} drawn)")
                cells.append(f"{wins}/{n_games} ({mean_drawn:.0%})")
            per = (time.perf_counter() - t_policy) / max(1, n_decisions) * 1e3
            print(f"{diff:10s} {name:7s} wins: " + ", ".join(row) + f" [{per:.2f} ms/decision]", flush=True)
            table.append(f"| {diff.capitalize()} | {name} | " + " | ".join(cells) + " |")
    print("\n| Level | Players | 1 | 2 | 3 | 4 |\n|---|---|---|---|---|---|")
    print("\n".join(table))

if __name__ == "__main__":
    main()
