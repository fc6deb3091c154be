"""The position value (value.py) and the planner before the endgame that scores one-round rollouts with
it (plan_endgame.choose_by_value): public inputs only, a round's horizon, a choice the hidden deck
cannot change."""

from __future__ import annotations

from typing import Any

from bot.rules import Rng
from bot.rules.ghost_stories import GAME
from bot.rules.ghost_stories import plan_endgame as P
from bot.rules.ghost_stories.bot import TaoistPolicy
from bot.rules.ghost_stories.core import copy_state
from bot.rules.ghost_stories.data import INCARNATION_IDS
from bot.rules.ghost_stories.value import FEATURES, WEIGHTS, features, value

State = dict[str, Any]
HEURISTIC = TaoistPolicy(planning=False)


def _yang_starts(players: int, seed: int) -> list[tuple[State, int]]:
    """Every living Taoist's Yang-phase start before the endgame in a heuristic game (state, seat)."""
    s = GAME.new(players, seed, {"difficulty": "initiation"})
    rng = Rng.from_seed(seed)
    out = []
    while GAME.outcome(s) is None:
        seat = min(GAME.to_act(s))
        view = GAME.view(s, seat)
        y = s["yang"]
        if s["pending"] is None and y is not None and not y["acts"] and not y["moved"] and not P.in_endgame(view):
            out.append((copy_state(s), seat))
        s, _ = GAME.apply(s, seat, HEURISTIC.choose(view, GAME.legal_actions(s, seat), {}, rng))
    return out


def _reshuffled(s: State, i: int) -> State:
    """The same public board with the unseen ghosts in another order (incarnations keep their depth)."""
    h = copy_state(s)
    cards = h["deck"] + h["removed"]
    ghosts = Rng.from_seed(i).shuffled([c for c in cards if c not in INCARNATION_IDS])
    deck = [c if c in INCARNATION_IDS else ghosts.pop() for c in h["deck"]]
    h["deck"], h["removed"] = deck, ghosts + [c for c in h["removed"] if c in INCARNATION_IDS]
    return h


def test_the_value_reads_the_public_board_only() -> None:
    for players in (1, 2, 3, 4):
        assert len(WEIGHTS[players]) == len(FEATURES)
        starts = _yang_starts(players, 25900 + players)
        assert len(starts) > 10
        for s, _ in starts[::5]:
            f = features(GAME.bot_view(s, None))
            assert all(features(GAME.bot_view(s, seat)) == f for seat in range(players))
            assert features(GAME.bot_view(_reshuffled(s, 1), None)) == f
            assert 0.0 < value(GAME.bot_view(s, 0)) < 1.0


def test_a_finished_game_is_worth_its_result() -> None:
    s, seat = _yang_starts(2, 25910)[0]
    view = GAME.bot_view(s, seat)
    assert value({**view, "result": "win"}) == 1.0
    assert value({**view, "result": "loss"}) == 0.0


def test_a_round_out_stops_at_the_movers_next_yang_phase_solo_too() -> None:
    # solo, the three neutral boards' turns often need no decision: the turn comes back to Red unseen,
    # and a round counted by seen turn changes ran on to the end of the game (fixed: 0 of 8 solo round
    # outs stopped after one round before)
    for players, seed, at in ((1, 25921, 6), (1, 25922, 12), (3, 25920, 6)):
        s, seat = _yang_starts(players, seed)[at]
        w = P.world_from_view(GAME.view(s, seat), Rng.from_seed(0))
        board, rnd = w["turn"], w["round"]
        v = P.round_out(copy_state(w), HEURISTIC, Rng.from_seed(1))
        # replayed by hand: the same steps, until this board's Yang phase of the next round begins
        t, r = copy_state(w), Rng.from_seed(1)
        while t["result"] is None:
            y = t["yang"]
            if t["round"] == rnd + 1 and t["turn"] == board and t["phase"] == "yang" and t["pending"] is None:
                assert y is not None and not y["acts"] and not y["moved"]
                break
            assert t["round"] <= rnd + 1
            seat2 = min(GAME.to_act(t))
            GAME.play_in_place(t, HEURISTIC.choose(GAME.bot_view(t, seat2), GAME.legal_actions(t, seat2), {}, r))
        assert t["result"] is None, "pick a start whose round does not end the game"
        assert v == value(GAME.bot_view(t, min(GAME.to_act(t))))


def test_the_choice_before_the_endgame_does_not_depend_on_the_hidden_deck() -> None:
    bot = TaoistPolicy(mid_k=4, mid_alts=3, margin=0.03)
    changed = 0
    for s, seat in _yang_starts(3, 25932)[1:40:3]:
        legal = GAME.legal_actions(s, seat)
        picks = {bot.choose(GAME.view(_reshuffled(s, i), seat), legal, {}, Rng.from_seed(5)).parts for i in range(3)}
        assert len(picks) == 1
        heuristic = HEURISTIC.choose(GAME.view(s, seat), legal, {}, Rng.from_seed(5)).parts
        changed += picks != {heuristic}
    assert changed >= 1  # the rollouts do overrule the heuristic somewhere in these decisions
