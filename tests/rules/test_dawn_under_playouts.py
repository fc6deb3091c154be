"""Seeded random playouts for Dawn Under: contract, conservation of pieces, and the memory leak check.

The leak check is an indistinguishability test: shuffle everything a seat cannot know (what lies
under closed lids, the reserve, face-down vampires, other players' garlic) and the seat's view must
not change at all.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import pytest

from bot.rules import Rng
from bot.rules.dawn_under import GAME
from bot.rules.dawn_under.data import COMPONENTS
from tests.rules.playout import play_one

GRAVE_ID = re.compile(r"\b[A-H][1-8]\b")


def conservation(s: dict[str, Any]) -> None:
    n = s["n"]
    colours = s["colours"]
    # vampires: rows + graves + gifts in flight
    vamps = Counter(c.upper() for r in s["rows"] for c in r)
    vamps.update(v[2:] for v in s["content"].values() if v and v.startswith("v:"))
    if s["gift"] is not None:
        vamps.update(s["gift"]["pending"])
    assert vamps == {c: COMPONENTS.vampires_per_colour for c in colours}
    # lids: board + reserve hold every coloured lid; rats on the board + discarded = rats in play
    lids = Counter(s["lid"].values())
    rats = lids.pop("rat", 0)
    lids.update(s["reserve"])
    assert lids == {c: COMPONENTS.lids_per_colour for c in colours}
    assert rats + s["rats_out"] == s["rats_total"]
    assert len(s["reserve"]) + s["rats_out"] == (4 if n == 2 else 6)
    # garlic: hand + graves = 3 each
    placed = Counter(int(v[2:]) for v in s["content"].values() if v and v.startswith("g:"))
    assert all(s["garlic"][p] + placed[p] == COMPONENTS.garlic_per_player for p in range(n))
    # stakes: nobody rests on three; the path never runs dry
    assert all(0 <= k < 3 for k in s["stakes"]) and sum(s["stakes"]) <= COMPONENTS.stakes
    # face-up ends, hidden middle
    for r in s["rows"]:
        up = [c.isupper() for c in r]
        assert all(up[:2]) and all(up[-2:])
        hidden = [i for i, u in enumerate(up) if not u]
        assert hidden == list(range(hidden[0], hidden[-1] + 1)) if hidden else True
    # open lids only during a plague or a pending decision on that grave
    if s["plague"] is None:
        assert s["open"] == ([s["pending"]] if s["pending"] else [])
    if not s["winners"]:
        assert all(len(r) > 0 for r in s["rows"])


def shuffle_hidden(s: dict[str, Any], seat: int | None, rng: Rng) -> dict[str, Any]:
    """A state the seat cannot tell apart from `s`."""
    t = GAME.load_state(GAME.dump_state(s))
    shown = set(t["open"]) | set(t["ajar"])
    own = f"g:{seat}"
    closed = [g for g in t["lid"] if g not in shown and (seat is None or t["content"][g] != own)]
    pairs = rng.shuffled([(t["lid"][g], t["content"][g]) for g in closed])
    for g, (lid, content) in zip(closed, pairs, strict=True):
        t["lid"][g], t["content"][g] = lid, content
    t["reserve"] = rng.shuffled(t["reserve"])
    spots = [(p, i) for p, r in enumerate(t["rows"]) for i, c in enumerate(r) if c.islower()]
    faces = rng.shuffled([t["rows"][p][i] for p, i in spots])
    for (p, i), c in zip(spots, faces, strict=True):
        t["rows"][p][i] = c
    return t


def leak_check(s: dict[str, Any], seat: int | None, view: dict[str, Any], rng: Rng) -> None:
    other = shuffle_hidden(s, seat, rng)
    assert GAME.view(other, seat) == view, f"seat {seat}'s view depends on hidden information"
    assert GAME.legal_actions(other, seat) == GAME.legal_actions(s, seat) if seat is not None else True


def fast_playout(n: int, seed: int, options: dict[str, str] | None = None, leak_every: int = 0) -> int:
    """One random game with invariants after every step; returns the number of actions."""
    s = GAME.new(n, seed, options)
    pick = Rng.from_seed(seed * 31 + n)
    steps = 0
    while GAME.outcome(s) is None:
        conservation(s)
        if leak_every and steps % leak_every == 0:
            for seat in [None, *range(n)]:
                leak_check(s, seat, GAME.view(s, seat), pick)
        seat = pick.choice(sorted(GAME.to_act(s)))
        s, events = GAME.apply(s, seat, pick.choice(GAME.legal_actions(s, seat)))
        for e in events:
            if not e.transient:
                assert not GRAVE_ID.search(e.text), f"kept log line names a grave: {e.text!r}"
        steps += 1
        assert steps < 20000
    conservation(s)
    return steps


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_random_playouts_keep_every_piece_and_never_name_a_grave_in_the_kept_log(n: int) -> None:
    games = {2: 80, 3: 40, 4: 50, 5: 60, 6: 70}[n]
    for seed in range(games):
        options = {"chain": "must_continue"} if seed % 4 == 3 else None
        if n == 2 and seed % 3 == 1:
            options = {**(options or {}), "duel_rule_1": "vampire"}
        fast_playout(n, seed, options, leak_every=25 if seed % 5 == 0 else 0)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_full_contract_playouts_with_the_leak_check_on_every_view(n: int) -> None:
    rng = Rng.from_seed(n)

    def check_leaks(state: Any, seat: int | None, view: dict[str, Any]) -> None:
        leak_check(state, seat, view, rng)

    seeds = [1000 + n] if n != 2 else [1002, 1003]
    for seed in seeds:
        options = {"duel_rule_1": "vampire"} if seed == 1003 else None
        play_one(GAME, n, seed, options, check=conservation, leak_check=check_leaks)


# -- the bot ---------------------------------------------------------------------------------------
def _bot_game(n: int, seed: int, bots: set[int], cap: int = 5000) -> tuple[dict[str, Any], int]:
    """Bots in `bots` play from their own view + memory (observe after every change); others random."""
    policy = GAME.bot_policy()
    s = GAME.new(n, seed)
    rng = Rng.from_seed(seed * 5 + n)
    memory = {p: policy.observe({}, GAME.view(s, p)) for p in bots}
    steps = 0
    while GAME.outcome(s) is None and steps < cap:
        seat = rng.choice(sorted(GAME.to_act(s)))
        legal = GAME.legal_actions(s, seat)
        if seat in bots:
            action = policy.choose(GAME.view(s, seat), legal, memory[seat], rng)
            assert action in legal
        else:
            action = rng.choice(legal)
        s, _ = GAME.apply(s, seat, action)
        for p in bots:
            memory[p] = policy.observe(memory[p], GAME.view(s, p))
            assert json.loads(json.dumps(memory[p])) == memory[p]
        steps += 1
    return s, steps


def test_memory_bot_beats_a_random_player_in_at_least_80_percent_of_two_player_games() -> None:
    wins = 0
    games = 40
    for k in range(games):
        s, _ = _bot_game(2, 700 + k, {k % 2})
        out = GAME.outcome(s)
        assert out is not None
        wins += (k % 2) in out.winners
    assert wins / games >= 0.8


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_bots_against_each_other_finish_their_games(n: int) -> None:
    for seed in range(6):
        s, _ = _bot_game(n, 900 + seed, set(range(n)))
        assert GAME.outcome(s) is not None


def test_bot_flips_a_grave_it_remembers_as_a_match() -> None:
    policy = GAME.bot_policy()
    s = GAME.new(3, 1)
    s["turn"] = s["actor"] = 1
    for g in s["lid"]:
        s["lid"][g], s["content"][g] = "W", None
    s["lid"]["C3"] = "R"
    s["rows"][1] = list("YKrrGB")
    s["garlic"] = [0, 0, 0]
    s, _ = GAME.apply(s, 1, GAME.parse_action("flip C3"))  # seat 2 sees a red lid, no match
    memory = policy.observe({}, GAME.view(s, 0))
    s, _ = GAME.apply(s, 2, GAME.parse_action("flip A1"))  # C3 is closed again
    memory = policy.observe(memory, GAME.view(s, 0))
    assert s["phase"] == "flip" and "C3" not in s["open"] + s["ajar"]
    s["turn"] = s["actor"] = 0
    s["rows"][0] = list("RGyyBW")
    choice = policy.choose(GAME.view(s, 0), GAME.legal_actions(s, 0), memory, Rng(3))
    assert GAME.format_action(choice) == "flip C3"


def test_bot_never_springs_a_remembered_trap_while_unexplored_graves_remain() -> None:
    policy = GAME.bot_policy()
    s = GAME.new(3, 1)
    s["turn"] = s["actor"] = 0
    s["content"]["C3"] = "g:1"
    s["open"].append("C3")  # shown to everyone for a moment
    memory = policy.observe({}, GAME.view(s, 0))
    s["open"].remove("C3")
    for seed in range(30):
        choice = policy.choose(GAME.view(s, 0), GAME.legal_actions(s, 0), memory, Rng(seed))
        assert choice.grave != "C3"


def test_bot_remembers_its_own_garlic_from_what_it_was_shown() -> None:
    """With the default list_garlic=no the view never lists where the bot's garlic lies: the bot
    remembers it from the moment it hid it (the lid stays shown until the next move)."""
    policy = GAME.bot_policy()
    s = GAME.new(3, 1)
    s["turn"] = s["actor"] = 0
    for g in s["lid"]:
        s["lid"][g], s["content"][g] = "W", None
    s["lid"]["C3"] = "R"
    s["rows"][0] = list("YKrrGB")
    memory = policy.observe({}, GAME.view(s, 0))
    s, _ = GAME.apply(s, 0, GAME.parse_action("flip C3"))
    s, _ = GAME.apply(s, 0, GAME.parse_action("garlic C3"))
    memory = policy.observe(memory, GAME.view(s, 0))
    s, _ = GAME.apply(s, 1, GAME.parse_action("flip A1"))  # C3 is closed for good
    memory = policy.observe(memory, GAME.view(s, 0))
    assert "my_garlic" not in GAME.view(s, 0)
    assert memory["graves"]["C3"] == ["R", "g:0"]
    s["turn"] = s["actor"] = 0
    s["open"] = []
    for seed in range(30):
        choice = policy.choose(GAME.view(s, 0), GAME.legal_actions(s, 0), memory, Rng(seed))
        assert choice.grave != "C3"
