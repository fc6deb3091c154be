"""Data validation and seeded random playouts for every player count and difficulty."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from bot.rules.ghost_stories import GAME, core
from bot.rules.ghost_stories.data import CARDS, GHOST_IDS, INCARNATION_IDS, TILE_KEYS
from tests.rules.playout import play_one

# ----------------------------------------------------------------------------- data


def test_55_ghosts_11_per_colour_and_10_incarnations() -> None:
    assert len(GHOST_IDS) == 55 and len(INCARNATION_IDS) == 10
    per = Counter(CARDS[i]["colour"] for i in GHOST_IDS)
    assert per == {"red": 11, "yellow": 11, "green": 11, "blue": 11, "black": 11}
    for i in GHOST_IDS:
        c = CARDS[i]
        if c["colour"] != "black":
            assert c["resistance"] == {c["colour"]: c["resistance"][c["colour"]]}
    names = {CARDS[i]["name"] for i in INCARNATION_IDS}
    assert names == {
        "Howling Nightmare", "Uncatchable", "Hope Killer", "Death Army", "Forgotten Ones",
        "Bone Cracker", "Dark Mistress", "Creeping Horror", "Vampire Lord", "Nameless",
    }  # fmt: skip
    assert all("R_QI_AND_YY" in CARDS[i]["exit"] for i in INCARNATION_IDS)


def test_suit_pattern_per_colour() -> None:
    for colour in ("red", "yellow", "green", "blue"):
        res = sorted(CARDS[i]["resistance"][colour] for i in GHOST_IDS if CARDS[i]["colour"] == colour)
        assert res == [1, 1, 1, 1, 2, 2, 2, 3, 3, 4, 4]
        blockers = [i for i in GHOST_IDS if CARDS[i]["colour"] == colour and "POWER_BLOCK" in CARDS[i]["states"]]
        assert len(blockers) == 1


def test_known_effect_codes_only() -> None:
    known = {
        "arrival": {"SUMMON", "HAUNTER_FAST", "HAUNT_NOW", "CURSE", "LOSE_QI", "GROUP_LOSE_TAO",
                    "CAPTURE_DIE", "TAO_LOCK", "CLEAR_CIRCLE"},
        "yin": {"HAUNTER", "CURSE", "BONE_CRACK"},
        "states": {"DICE_IMMUNE", "POWER_BLOCK", "TAO_LOCK", "ALL_POWERS_BLOCK", "NO_WHITE",
                   "OPPOSITE_EMPTY", "NEEDS_BUDDHA"},
        "exit": {"CURSE", "R_TAO1", "R_TAO2", "R_QI_OR_YY", "R_QI_AND_YY"},
    }  # fmt: skip
    for c in CARDS.values():
        for field, codes in known.items():
            assert set(c[field]) <= codes, (c["name"], field)


def test_nine_tiles_and_eight_powers() -> None:
    assert len(TILE_KEYS) == 9
    from bot.rules.ghost_stories.data import POWERS

    assert sum(len(v) for v in POWERS.values()) == 8


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("diff", core.DIFFICULTIES)
def test_exact_deck_composition(players: int, diff: str) -> None:
    s = GAME.new(players, 11, {"difficulty": diff})
    deck = list(s["deck"])
    for g in s["spaces"]:
        if g is not None:
            deck.append(g["id"])
    if s["pending"] and s["pending"]["kind"] == "place":
        deck.append(s["pending"]["card"])
    deck += s["discard"]
    incs = [i for i in deck if CARDS[i]["incarnation"]]
    ghosts = [i for i in deck if not CARDS[i]["incarnation"]]
    if diff in ("initiation", "normal"):
        assert len(incs) == 1
        assert len(ghosts) == 55 - {1: 15, 2: 10, 3: 5, 4: 0}[players]
        assert s["deck"].index(incs[0]) == 10  # the 11th card from the bottom
    else:
        n = 4 if players >= 3 else 3
        assert len(incs) == n and len(ghosts) == 55
        assert [s["deck"].index(i) for i in incs] == [10 + 11 * j for j in range(n)]
    assert len(set(deck + s["removed"])) == 65


# ----------------------------------------------------------------------------- invariants


def conservation(state: dict[str, Any]) -> None:
    s = state
    assert sum(bd["qi"] for bd in s["boards"]) + s["qi_supply"] == core.TOTAL_QI
    assert all(bd["qi"] >= 0 for bd in s["boards"]) and s["qi_supply"] >= 0
    for c in core.TAO_COLOURS:
        held = sum(bd["tao"][c] for bd in s["boards"])
        assert held + s["supply"][c] + (1 if s["circle"] == c else 0) == core.TAO_PER_COLOUR, c
        assert s["supply"][c] >= 0
    assert s["temple"] + sum(bd["buddhas"] for bd in s["boards"]) + sum(s["buddha_on"]) == 2
    n = s["players"]
    assert sum(bd["tokens"] for bd in s["boards"]) + s["centre_tokens"] == {1: 3, 2: 2, 3: 3, 4: 0}[n]
    ids = list(s["deck"]) + s["discard"] + s["removed"] + [g["id"] for g in s["spaces"] if g is not None]
    if s["pending"] and s["pending"]["kind"] == "place":
        ids.append(s["pending"]["card"])
    assert sorted(ids) == list(range(1, 66))
    for k, g in enumerate(s["spaces"]):
        assert not (g is not None and s["buddha_on"][k])


def leak_check(state: dict[str, Any], seat: int | None, view: dict[str, Any]) -> None:
    text = json.dumps(view)
    hidden = [i for i in list(state["deck"]) + state["removed"] if CARDS[i]["incarnation"]]
    for i in hidden:
        assert CARDS[i]["name"] not in text, "a hidden incarnation leaks"
    assert isinstance(view["deck"], int)
    assert "rng" not in view and "removed" not in text and str(state["rng"]) not in text
    assert view["players"] == state["players"] and isinstance(view["status"], str)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("diff", core.DIFFICULTIES)
def test_random_playouts_end_without_error(players: int, diff: str) -> None:
    for seed in range(2):
        final, log = play_one(GAME, players, seed, {"difficulty": diff}, check=conservation, leak_check=leak_check)
        assert GAME.outcome(final) is not None and log


@pytest.mark.parametrize("opts", [{"power_sides": "first"}, {"power_sides": "second", "bone_cracker": "board"}])
def test_random_playouts_with_options(opts: dict[str, str]) -> None:
    for players in (1, 2, 4):
        play_one(GAME, players, 40 + players, opts, check=conservation, leak_check=leak_check)


def test_same_seed_same_game() -> None:
    a = GAME.new(3, 99, {"difficulty": "nightmare"})
    b = GAME.new(3, 99, {"difficulty": "nightmare"})
    assert GAME.dump_state(a) == GAME.dump_state(b)
    c = GAME.new(3, 100, {"difficulty": "nightmare"})
    assert GAME.dump_state(a) != GAME.dump_state(c)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_bot_taoists_play_whole_games_from_their_views(players: int) -> None:
    from bot.rules import Rng
    from bot.rules.ghost_stories.bot import TaoistPolicy

    policy = TaoistPolicy()
    s = GAME.new(players, 77 + players, {"difficulty": "initiation"})
    rng = Rng.from_seed(players)
    memory: dict[str, Any] = {}
    for _ in range(3000):
        if GAME.outcome(s) is not None:
            break
        seat = min(GAME.to_act(s))
        view = GAME.view(s, seat)
        memory = policy.observe(memory, view)
        legal = GAME.legal_actions(s, seat)
        action = policy.choose(view, legal, memory, rng)
        assert action in legal
        s, _ = GAME.apply(s, seat, action)
    assert GAME.outcome(s) is not None


def test_table_bot_is_the_heuristic() -> None:
    from bot.rules.ghost_stories.bot import TaoistPolicy

    assert isinstance(GAME.bot_policy(), TaoistPolicy)
