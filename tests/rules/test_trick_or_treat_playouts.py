"""Seeded random playouts for 2–8 players: the shared contract checks, conservation of the 78 candy
tiles, 24 score cards and 21 buildings, and views that never show a face-down building or the deck."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.rules import Rng
from bot.rules.trick_or_treat import GAME
from bot.rules.trick_or_treat import game as G
from bot.rules.trick_or_treat.data import KINDS
from tests.rules.playout import run_playouts


def conserved(s: dict[str, Any]) -> None:
    for k in KINDS:
        total = s["supply"][k]
        total += sum(c["candy"].count(k) for c in s["city"])
        total += sum(p["candy"][k] for p in s["players"])
        assert total == 13, f"{k}: {total}"
        assert s["supply"][k] >= 0 and all(p["candy"][k] >= 0 for p in s["players"])
    cards = s["row"] + s["deck"] + [c for p in s["players"] for c in p["cards"]]
    assert sorted(cards) == list(range(1, 25))
    assert len(s["row"]) <= 6 and (len(s["row"]) == 6 or not s["deck"])
    assert sorted([c["b"] for c in s["city"]] + s["removed"]) == list(range(21))
    for c in s["city"]:
        assert c["up"] or not c["candy"]


def no_leak(s: dict[str, Any], seat: int | None, view: dict[str, Any]) -> None:
    assert "deck" not in view and "removed" not in view and "rng" not in view
    for cell, shown in zip(s["city"], view["city"], strict=True):
        if not cell["up"]:
            assert set(shown) == {"name", "up"} and shown["up"] is False
    text = json.dumps(view)
    assert '"b":' not in text.replace(" ", "")
    assert view["players"] == s["n"] and isinstance(view["status"], str)


@pytest.fixture
def short_games(monkeypatch: pytest.MonkeyPatch) -> None:
    # random players rarely reach 12 points; a short round cap keeps the playouts fast
    monkeypatch.setattr(G, "MAX_ROUNDS", 4)


@pytest.mark.parametrize("players", range(2, 9))
def test_random_playouts_keep_every_piece_and_hide_what_is_hidden(players: int, short_games: None) -> None:
    seeds = range(4) if players <= 4 else range(2)
    assert run_playouts(GAME, players, seeds, check=conserved, leak_check=no_leak) > 0


@pytest.mark.parametrize("opts", [{"ring_face_down": "take"}, {"cowboy": "-2"}])
def test_random_playouts_with_each_option(opts: dict[str, str], short_games: None) -> None:
    run_playouts(GAME, 3, range(2), options=opts, check=conserved, leak_check=no_leak)


def test_a_full_length_random_game_ends_by_the_round_cap() -> None:
    s = GAME.new(2, 5)
    rng = Rng.from_seed(5)
    steps = 0
    while GAME.outcome(s) is None:
        seat = min(GAME.to_act(s))
        s, _ = GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat)))
        steps += 1
        if steps % 50 == 0:
            conserved(s)
    assert s["round"] <= G.MAX_ROUNDS


def test_bot_games_obey_the_contract_and_finish_by_reaching_12_points() -> None:
    policy = GAME.bot_policy()
    for players, seed in [(2, 1), (4, 2), (8, 3)]:
        s = GAME.new(players, seed)
        rng = Rng.from_seed(seed)
        memories: list[dict[str, Any]] = [{} for _ in range(players)]
        while GAME.outcome(s) is None:
            seat = min(GAME.to_act(s))
            view = GAME.view(s, seat)
            memories[seat] = policy.observe(memories[seat], view)
            legal = GAME.legal_actions(s, seat)
            action = policy.choose(view, legal, memories[seat], rng)
            assert action in legal
            assert GAME.parse_action(GAME.format_action(action)) == action
            before = json.dumps(GAME.dump_state(s), sort_keys=True)
            s2, _ = GAME.apply(s, seat, action)
            assert json.dumps(GAME.dump_state(s), sort_keys=True) == before, "apply mutated its input"
            s = GAME.load_state(json.loads(json.dumps(GAME.dump_state(s2))))
            assert GAME.dump_state(s) == GAME.dump_state(s2)
            conserved(s)
            no_leak(s, seat, view)
        out = GAME.outcome(s)
        assert out is not None and max(x for x in out.scores if x is not None) >= 12


def test_the_bot_beats_random_players() -> None:
    from bot.rules import RandomPolicy

    bot, rand = GAME.bot_policy(), RandomPolicy()
    wins = 0
    for g in range(6):
        me = g % 3
        s = GAME.new(3, 500 + g)
        rng = Rng.from_seed(g)
        while GAME.outcome(s) is None:
            seat = min(GAME.to_act(s))
            legal = GAME.legal_actions(s, seat)
            pol = bot if seat == me else rand
            s, _ = GAME.apply(s, seat, pol.choose(GAME.view(s, seat), legal, {}, rng))
        out = GAME.outcome(s)
        assert out is not None
        wins += me in out.winners
    assert wins >= 5
