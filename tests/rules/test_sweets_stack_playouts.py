"""Seeded random playouts of Sweets Stack for 2-4 players and every option, with invariants and leaks."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.rules import Rng
from bot.rules.sweets_stack import GAME
from bot.rules.sweets_stack import data as D
from bot.rules.sweets_stack.game import grid_mask
from tests.rules.playout import run_playouts


def conservation(s: dict[str, Any]) -> None:
    """Every player's 16 cards (+ a dealt crown) are accounted for; pumpkins and candles add up."""
    seen: list[str] = []
    for p in s["players"]:
        mine = p["deck"] + p["hand"] + p["pile"] + p["down"]
        mine += [c for c in (p["pick"], p["incoming"]) if c is not None]
        assert len(mine) == 16 + p["crowns"], "a player's card count changed"
        seen += mine
        assert p["pumpkins"] >= 0 and len(p["down"]) <= 1
        # the sheet holds exactly the recorded candies (plus the pre-filled cells)
        cells = sum(len(D.CARDS[c].cells) for c in p["pile"])
        filled = bin(grid_mask(p["grid"])).count("1") - sum(line.count("#") for line in p["grid"])
        assert filled == cells
        for r, ticked in enumerate(p["ticks"]):
            assert ticked == ("." not in p["grid"][D.H - 1 - r])
    assert len(seen) == len(set(seen)), "a card is in two places"
    if s["phase"] != "over":
        assert sum(p["candles"] for p in s["players"]) == sum(len(p["down"]) for p in s["players"])


def no_leak(s: dict[str, Any], seat: int | None, view: dict[str, Any]) -> None:
    text = json.dumps(view)
    if seat is None:
        assert "you" not in view
    for q, p in enumerate(s["players"]):
        if q == seat:
            for cid in p["deck"]:  # not even your own deck order is shown
                assert f'"{cid}"' not in text, f"seat {seat} can see its own deck card {cid}"
            continue
        secret = p["hand"] + p["deck"] + ([p["pick"]] if p["pick"] else [])
        if p["swapped"] and not p["done"]:
            secret.append(p["incoming"])
        for cid in secret:
            assert f'"{cid}"' not in text, f"seat {seat} can see {cid} of seat {q}"


ADVANCED_SETS: list[dict[str, str]] = [
    {},
    {"advanced_r2": "candy_corn", "advanced_r3": "random"},
    {"advanced_r1": "dragons_fireball", "advanced_r2": "gummy_python", "advanced_r3": "rare_candy"},
    {"advanced": "every"},  # the option of tables made before the per-round options
]


@pytest.mark.parametrize("options", ADVANCED_SETS)
@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_playouts_keep_the_contract_and_invariants(n: int, options: dict[str, str]) -> None:
    seeds = range(2) if n == 4 else range(3)
    assert run_playouts(GAME, n, seeds, options, check=conservation, leak_check=no_leak) > 0


def test_random_playouts_with_the_draw_one_refill() -> None:
    assert run_playouts(GAME, 3, range(2), {"refill": "draw-1"}, check=conservation, leak_check=no_leak) > 0


@pytest.mark.parametrize("n", [2, 3, 4])
def test_bot_plays_whole_games_from_its_own_view(n: int) -> None:
    policy = GAME.bot_policy()
    s = GAME.new(n, 11, {"advanced": "every"})
    rng = Rng.from_seed(3)
    memory: dict[str, Any] = {}
    for _ in range(3000):
        if GAME.outcome(s) is not None:
            break
        seat = min(GAME.to_act(s))
        view = GAME.view(s, seat)
        action = policy.choose(view, GAME.legal_actions(s, seat), memory, rng)
        s, _ = GAME.apply(s, seat, action)
    assert GAME.outcome(s) is not None
