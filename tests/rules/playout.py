"""Seeded random playouts that check the rules contract for any game.

Each game's tests call `run_playouts(game, players, seeds)`; it asserts what every game must obey:
legal actions apply, apply is pure, views are JSON and round trip, states round trip, replay of the
action log equals the state, the game ends, and every step `undo_refusal` allows obeys the undo
contract. Games add their own invariants through `check`.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Mapping
from typing import Any

from bot.rules import Game, GameError, Rng

Check = Callable[[Any], None]


def play_one(
    game: Game[Any, Any],
    players: int,
    seed: int,
    options: Mapping[str, str] | None = None,
    check: Check | None = None,
    max_steps: int = 20000,
    leak_check: Callable[[Any, int | None, dict[str, Any]], None] | None = None,
) -> tuple[Any, list[tuple[int, Any]]]:
    """Play one random game to its end; return the final state and the (seat, action) log."""
    state = game.new(players, seed, options)
    pick = Rng.from_seed(seed * 7919 + players)
    log: list[tuple[int, Any]] = []
    for _ in range(max_steps):
        _check_state(game, state, players, leak_check)
        if check:
            check(state)
        if game.outcome(state) is not None:
            assert not game.to_act(state), "a finished game must await nobody"
            _check_replay(game, players, seed, options, log, state)
            return state, log
        waiting = sorted(game.to_act(state))
        assert waiting, "an unfinished game must await someone"
        seat = pick.choice(waiting)
        legal = game.legal_actions(state, seat)
        assert legal, f"seat {seat} is awaited but has no legal action"
        for other in range(players):
            if other not in waiting:
                assert not game.legal_actions(state, other), "only awaited seats have actions"
        action = pick.choice(legal)
        # notation and JSON round trips of the action
        assert game.load_action(json.loads(json.dumps(game.dump_action(action)))) == action
        assert game.parse_action(game.format_action(action)) == action
        before = json.dumps(game.dump_state(state), sort_keys=True)
        new_state, events = game.apply(state, seat, action)
        assert json.dumps(game.dump_state(state), sort_keys=True) == before, "apply mutated its input"
        for ev in events:
            assert isinstance(ev.text, str)
        if game.undo_refusal(state, seat, action, new_state, events) is None:
            _check_undoable(game, state, seat, new_state, events)
        log.append((seat, action))
        state = new_state
    raise AssertionError(f"game did not end within {max_steps} steps (seed {seed})")


def _check_undoable(game: Game[Any, Any], before: Any, seat: int, after: Any, events: list[Any]) -> None:
    """A step its author may take back used no chance, showed nothing for a moment, told no one else
    anything, and did not end the game (an undo restores `before` exactly)."""
    assert game.outcome(after) is None, "an undoable step ended the game"
    assert game.dump_state(before).get("rng") == game.dump_state(after).get("rng"), "an undoable step used chance"
    assert not any(e.transient for e in events), "an undoable step showed something for a moment"
    assert all(s == seat for e in events for s in e.private), "an undoable step told another seat something"


def _check_state(
    game: Game[Any, Any],
    state: Any,
    players: int,
    leak_check: Callable[[Any, int | None, dict[str, Any]], None] | None,
) -> None:
    dumped = game.dump_state(state)
    text = json.dumps(dumped, sort_keys=True)
    reloaded = game.load_state(json.loads(text))
    assert json.dumps(game.dump_state(reloaded), sort_keys=True) == text, "state JSON round trip"
    for seat in [None, *range(players)]:
        v = game.view(state, seat)
        assert json.loads(json.dumps(v)) == v, "views must be plain JSON"
        if leak_check:
            leak_check(state, seat, v)


def _check_replay(
    game: Game[Any, Any],
    players: int,
    seed: int,
    options: Mapping[str, str] | None,
    log: list[tuple[int, Any]],
    final: Any,
) -> None:
    state = game.new(players, seed, options)
    for seat, action in log:
        state, _ = game.apply(state, seat, action)
    assert game.dump_state(state) == game.dump_state(final), "replay of the log differs"


def assert_illegal(game: Game[Any, Any], state: Any, seat: int, action: Any) -> GameError:
    """Assert that applying raises a GameError and leaves the state untouched."""
    before = copy.deepcopy(game.dump_state(state))
    try:
        game.apply(state, seat, action)
    except GameError as err:
        assert game.dump_state(state) == before
        return err
    raise AssertionError(f"{game.format_action(action)!r} by seat {seat} was accepted")


def run_playouts(
    game: Game[Any, Any],
    players: int,
    seeds: range | list[int],
    options: Mapping[str, str] | None = None,
    check: Check | None = None,
    leak_check: Callable[[Any, int | None, dict[str, Any]], None] | None = None,
) -> int:
    """Play many games; return the total number of actions applied (for sanity, not timing)."""
    total = 0
    for seed in seeds:
        _, log = play_one(game, players, seed, options, check, leak_check=leak_check)
        total += len(log)
    return total
