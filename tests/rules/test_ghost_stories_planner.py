"""The round planner (plan_round.py): rollouts built from the seat's view only, and a look-ahead that
changes the heuristic's decision where playing the round out shows why."""

from __future__ import annotations

from typing import Any

from bot.rules import Rng
from bot.rules.ghost_stories import GAME, core
from bot.rules.ghost_stories.bot import TaoistPolicy
from bot.rules.ghost_stories.plan_round import PlannerPolicy, determinize

State = dict[str, Any]


def _first_planned_decision(players: int, seed: int) -> State:
    """Play the heuristic from a fresh game to the first Yang decision the planner plans with a choice."""
    s = GAME.new(players, seed, {"difficulty": "initiation"})
    policy, planner, rng = TaoistPolicy(), PlannerPolicy(), Rng.from_seed(seed)
    for _ in range(400):
        seat = min(GAME.to_act(s))
        view, legal = GAME.view(s, seat), GAME.legal_actions(s, seat)
        a0 = policy.choose(view, legal, {}, rng)
        if s["pending"] is None and s["round"] > 2 and len(planner.candidates(view, legal, a0, rng)) > 2:
            return s
        s, _ = GAME.apply(s, seat, a0)
    raise AssertionError("no planned decision")


def test_the_determinized_state_is_the_engine_state_but_for_what_nobody_has_seen() -> None:
    s = _first_planned_decision(3, 1003)
    seat = min(GAME.to_act(s))
    d = determinize(GAME.view(s, seat), Rng.from_seed(5))
    hidden = ("deck", "removed", "rng")
    assert {k: v for k, v in d.items() if k not in hidden} == {k: v for k, v in s.items() if k not in hidden}
    assert sorted(d["deck"] + d["removed"]) == sorted(s["deck"] + s["removed"])
    assert d["deck"] != s["deck"]  # shuffled, not read


def test_the_planner_never_reads_the_deck_order_or_the_dice() -> None:
    s = _first_planned_decision(2, 1001)
    seat = min(GAME.to_act(s))
    other = core.copy_state(s)
    Rng.from_seed(99).shuffle(other["deck"])
    other["rng"] = Rng.from_seed(98).next64()
    assert other["deck"] != s["deck"] and GAME.view(other, seat) == GAME.view(s, seat)
    picks = {
        GAME.format_action(
            PlannerPolicy().choose(GAME.view(x, seat), GAME.legal_actions(x, seat), {}, Rng.from_seed(7))
        )
        for x in (s, other)
    }
    assert len(picks) == 1
