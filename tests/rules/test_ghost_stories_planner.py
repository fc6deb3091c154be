"""The round planner (plan_round.py): rollouts built from the seat's view only, and a look-ahead that
changes the heuristic's decision where playing the round out shows why."""

from __future__ import annotations

from typing import Any

import pytest

from bot.rules import Rng
from bot.rules.ghost_stories import GAME, core, plan_round
from bot.rules.ghost_stories.bot import TaoistPolicy
from bot.rules.ghost_stories.data import FRONT, tile_name
from bot.rules.ghost_stories.plan_round import PlannerPolicy, determinize
from tests.rules.test_ghost_stories_helpers import blank, gid, put, tile

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


def test_the_planner_never_reads_the_deck_order_or_the_dice(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plan_round, "DEADLINE", 60.0)  # the step budget alone ends the plan: no load effect
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


def test_the_lookahead_restores_a_tile_rather_than_gamble_the_game_on_two_dice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Three tiles haunted at Initiation (the 4th loses). A Ghoul's figure enters the village at the
    # Yellow board's Yin phase, right after Red's turn, and Repellent Beauty holds a Tao die: the
    # heuristic walks up and rolls two dice against the Ghoul (5 in 9 to exorcise it; its values
    # weigh the Altar less), while the rollouts see the game lost at once in the other 4 of 9 and go
    # to the Altar (or the Night Watchman), which make the haunting harmless for sure.
    monkeypatch.setattr(plan_round, "DEADLINE", 60.0)
    s = blank(players=2, diff="initiation")
    s["deck"] = [gid("Walking Corpse")] * 20
    k = put(s, "yellow2", "Ghoul", haunt=2)  # three steps: the figure enters at its board's next Yin
    put(s, "blue1", "Repellent Beauty")  # captures a die
    s["boards"][0]["yy"] = False  # no restore from afar ...
    s["boards"][0]["tokens"] = 0  # ... and no borrowed power
    keep = {FRONT[k], tile(s, "altar"), tile(s, "watchman"), 4}
    for x in [x for x in range(9) if x not in keep][:3]:
        s["tiles"][x]["haunted"] = True
    view, legal = GAME.view(s, 0), GAME.legal_actions(s, 0)
    assert view["spaces"][k]["ghost"]["haunts_in"] == 1 and view["haunted"] == 3
    heuristic = TaoistPolicy().choose(view, legal, {}, Rng.from_seed(1))
    assert heuristic.parts == ("move", tile_name(FRONT[k]))
    safe = {("move", tile_name(tile(s, "altar"))), ("move", tile_name(tile(s, "watchman")))}
    picks = [PlannerPolicy().choose(view, legal, {}, Rng.from_seed(i)).parts for i in range(9)]
    assert sum(p in safe for p in picks) >= 6, picks  # most: the samples are few for a 4-in-9 risk
