"""Clicks per human turn in Trick or Treat Halloween, with the old panels and with the new ones (issue #11).

Method. Seeded 3-player games are played by the game's own bot policy in every seat, choosing "like a
player" (the same policy the UX review and the end-to-end tests use for humans), with the turn that
ends by itself switched off (`auto_end = False`), so that both panels are measured on the very same
moves. Each turn (from the roll to the pass; a steal victim's answer is the victim's, not counted) is
then priced twice from the legal-action structure of the states it went through:

* **old panels**: every move is one interaction — a die toggle or Reroll button, the dice
  multi-select (one interaction for a whole reroll: the cheapest way the old panel offered), Done, one
  street per `move`, each action, buy and candy answer, and End.
* **new panels**: the same, except that
  - *End* costs nothing when it was the only legal move (the turn now ends by itself), and one more
    click ("Yes") when `GAME.confirm` asks (dice or discounts unused while something could use them);
  - a run of consecutive `move`s is one choice when the walk menu offers its destination
    (`walks(state, seat)`, computed on the state where the run starts); otherwise the run is split
    where a walk is offered;
  - *Done* costs nothing when the next move is a walk or a dice action, which the roll panel offers
    ("…or keep these dice and walk/act…": one click plays `done` and the move).

Interactions count component uses, as the UX review did (9.8 per human turn, up to 17, with its own
harness). Taps count a button as 1 and a select as 2 (open, choose); a multi-select of k dice as 1 + k.

Run: python bench/bench_trick_clicks.py [--games 40]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.rules import Rng
from bot.rules.trick_or_treat import GAME
from bot.rules.trick_or_treat.game import Action, walks

SELECTS = {"move", "ring", "grab", "steal", "reveal", "discount", "supply", "set", "buy", "choose", "start"}
ACT_NOW = {"move", "ring", "grab", "steal", "reveal", "discount", "supply"}  # what the roll panel offers


@dataclass
class Turn:
    steps: list[tuple[Any, Action]] = field(default_factory=list)  # (state before, action)


def play(seed: int, players: int = 3) -> list[Turn]:
    """One bot-only game without the auto-end; the moves of each turn with the state before each."""
    state = GAME.new(players, seed)
    state["auto_end"] = False
    policy = GAME.bot_policy()
    rng = Rng.from_seed(f"clicks:{seed}")
    memories: dict[int, Any] = {}
    turns: list[Turn] = []
    current: Turn | None = None
    owner = -1
    while GAME.outcome(state) is None:
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        view = GAME.view(state, seat)
        memories[seat] = policy.observe(memories.get(seat, {}), view)
        action = policy.choose(view, legal, memories[seat], rng)
        if state["phase"] in ("roll", "act", "trade"):
            if current is None or owner != state["turn"] or (state["phase"] == "roll" and not current_is_roll(current)):
                current = Turn()
                owner = state["turn"]
                turns.append(current)
            if action.verb != "give":
                current.steps.append((state, action))
        state, _ = GAME.apply(state, seat, action)
        if action.verb == "end":
            current = None
    return turns


def current_is_roll(turn: Turn) -> bool:
    return all(s["phase"] == "roll" for s, _ in turn.steps)


def price(turn: Turn) -> tuple[tuple[int, int], tuple[int, int], bool | None, int]:
    """((old interactions, old taps), (new interactions, new taps), was End forced, dice toggled) of
    one turn. Toggling the k dice of a reroll one by one and pressing Reroll is k + 1 interactions
    instead of the multi-select's one (the same taps): add the last figure to both for that style."""
    steps = turn.steps
    old = [0, 0]
    new = [0, 0]
    forced: bool | None = None
    toggled = 0

    def add(cost: list[int], verb: str, k: int = 1) -> None:
        cost[0] += 1
        cost[1] += (1 + k) if verb == "multi" else 2 if verb in SELECTS else 1

    i = 0
    while i < len(steps):
        state, action = steps[i]
        seat = state["turn"]
        v = action.verb
        if v == "mark":  # a reroll batch: marks then reroll, one multi-select for both panels
            j = i
            while j < len(steps) and steps[j][1].verb == "mark":
                j += 1
            k = j - i
            toggled += k
            add(old, "multi", k)
            add(new, "multi", k)
            i = j + 1 if j < len(steps) and steps[j][1].verb == "reroll" else j
            continue
        if v == "reroll":
            add(old, "reroll")
            add(new, "reroll")
        elif v == "done":
            add(old, "done")
            nxt = steps[i + 1][1] if i + 1 < len(steps) else None
            if nxt is None or nxt.verb not in ACT_NOW:
                add(new, "done")
        elif v == "move":
            j = i
            while j < len(steps) and steps[j][1].verb == "move":
                j += 1
            for _ in range(j - i):
                add(old, "move")
            k = i
            while k < j:  # the new walk menu: the farthest destination of the run it offers from here
                here = steps[k][0]
                offered = {w.path[-1] for w in walks(here, seat)}
                reach = k
                for m in range(k + 1, j):
                    if steps[m][1].arg.upper() in offered:
                        reach = m
                add(new, "move")
                k = reach + 1
            i = j
            continue
        elif v == "end":
            add(old, "end")
            forced = GAME.legal_actions(state, seat) == [Action("end")]
            if not forced:
                add(new, "end")
                if GAME.confirm(state, seat, action) is not None:
                    add(new, "yes")
        else:
            add(old, v)
            add(new, v)
        i += 1
    return (old[0], old[1]), (new[0], new[1]), forced, toggled


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=40)
    args = ap.parse_args()
    olds: list[int] = []
    news: list[int] = []
    old_taps: list[int] = []
    new_taps: list[int] = []
    toggles: list[int] = []
    ends = forced = asked = 0
    for seed in range(args.games):
        for turn in play(seed):
            (o, ot), (n, nt), f, k = price(turn)
            toggles.append(k)
            olds.append(o)
            news.append(n)
            old_taps.append(ot)
            new_taps.append(nt)
            if f is not None:
                ends += 1
                forced += f
                last_state, last = turn.steps[-1]
                asked += (not f) and GAME.confirm(last_state, last_state["turn"], last) is not None
    print(f"{args.games} bot-only 3-player games, {len(olds)} turns")
    print(f"End clicks: {ends}, forced (End the only move): {forced} ({100 * forced / max(1, ends):.0f} %)")
    print(f"  asked to confirm under the new panels: {asked} ({100 * asked / max(1, ends):.0f} %)")
    for name, xs, taps in (("old panels", olds, old_taps), ("new panels", news, new_taps)):
        by_die = [x + k for x, k in zip(xs, toggles, strict=True)]
        print(
            f"{name}: interactions per turn mean {statistics.mean(xs):.1f}, median {statistics.median(xs):g}, "
            f"max {max(xs)} (dice toggled one by one: mean {statistics.mean(by_die):.1f}, max {max(by_die)}); "
            f"taps mean {statistics.mean(taps):.1f}, max {max(taps)}"
        )


if __name__ == "__main__":
    main()
