"""`Game.undo_refusal` for every game: which steps may be taken back, and why the others may not.

Seeded random playouts collect, per verb, whether each step was undoable; every undoable step must
obey the contract (no chance used, nothing transient, no private line to another seat, the game
goes on), and each game must both allow and refuse the steps its rule names.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Mapping
from typing import Any

import pytest

from bot.rules import Event, Game, Rng, get_game
from tests.takeaway import GAME as TAKEAWAY


def verb_of(game: Game[Any, Any], action: Any) -> str:
    return game.format_action(action).split(" ", 1)[0]


def explore(
    game: Game[Any, Any], players: int, seeds: range, options: Mapping[str, str] | None = None, steps: int = 400
) -> tuple[Counter[str], Counter[tuple[str, str]]]:
    """(verbs allowed, (verb, reason) refused) over random playouts, checking every allowed step."""
    allowed: Counter[str] = Counter()
    refused: Counter[tuple[str, str]] = Counter()
    for seed in seeds:
        state = game.new(players, seed, options)
        pick = Rng.from_seed(seed * 31 + players)
        for _ in range(steps):
            if game.outcome(state) is not None:
                break
            seat = pick.choice(sorted(game.to_act(state)))
            action = pick.choice(game.legal_actions(state, seat))
            kept = copy.deepcopy(game.dump_state(state))
            after, events = game.apply(state, seat, action)
            why = game.undo_refusal(state, seat, action, after, events)
            assert game.dump_state(state) == kept, "undo_refusal must not mutate"
            assert game.undoable(state, seat, action, after, events) is (why is None)
            if why is None:
                _check_undoable(game, state, seat, after, events)
                allowed[verb_of(game, action)] += 1
            else:
                assert why and not why.endswith("."), "a reason completes a sentence"
                refused[verb_of(game, action), why] += 1
            state = after
    return allowed, refused


def _check_undoable(game: Game[Any, Any], before: Any, seat: int, after: Any, events: list[Event]) -> None:
    assert game.outcome(after) is None
    assert game.dump_state(before)["rng"] == game.dump_state(after)["rng"], "an undoable step used chance"
    assert not any(e.transient for e in events)
    assert all(s == seat for e in events for s in e.private)


def test_the_default_refuses() -> None:
    class Plain(type(TAKEAWAY)):  # type: ignore[misc]
        undo_refusal = Game.undo_refusal  # the contract's default

    game = Plain()
    state = game.new(2, 1)
    after, events = game.apply(state, 0, game.legal_actions(state, 0)[0])
    assert game.undo_refusal(state, 0, ("bid", 1), after, events) == "this game does not let moves be taken back"


def test_takeaway_bids_before_the_reveal_and_takes_that_draw_nothing() -> None:
    game = TAKEAWAY
    allowed, refused = explore(game, 2, range(30))
    assert allowed["bid"] and refused["bid", "it revealed the bids"]
    assert refused["take", "you drew a card"]
    state = game.new(2, 5)
    state = {**state, "phase": "play", "bids": [1, 1], "deck": [], "hands": [[1, 3], [2]], "pile": 5, "turn": 0}
    after, events = game.apply(state, 0, ("take", 1))
    assert game.undo_refusal(state, 0, ("take", 1), after, events) is None  # the deck is empty: nothing drawn
    after, events = game.apply(state, 0, ("take", 3))
    assert game.undo_refusal(state, 0, ("take", 3), after, events) is None
    won = {**state, "pile": 3}
    after, events = game.apply(won, 0, ("take", 3))
    assert game.undo_refusal(won, 0, ("take", 3), after, events) == "it ended the game"


def test_trick_or_treat_walking_is_undoable_and_rolling_is_not() -> None:
    allowed, refused = explore(get_game("trick_or_treat"), 3, range(4))
    assert allowed["move"] and allowed["mark"] and allowed["choose"]
    assert refused["reroll", "it rolled dice"]
    assert any(verb == "ring" for verb, _ in refused)
    assert "reroll" not in allowed and "ring" not in allowed and "buy" not in allowed


def test_ghost_stories_moving_before_acting_is_undoable_and_dice_are_not() -> None:
    allowed, refused = explore(get_game("ghost_stories"), 2, range(4))
    assert allowed["move"]
    assert refused["end", "it ended the turn"] or refused["end", "it drew a ghost"]
    assert any(verb == "exorcise" and "dice" in why for verb, why in refused)
    assert "exorcise" not in allowed and "end" not in allowed


def test_dawn_under_flips_are_never_undoable() -> None:
    allowed, refused = explore(get_game("dawn_under"), 3, range(6))
    assert refused["flip", "it showed what lies in a grave"]
    assert "flip" not in allowed and "sleep" not in allowed and "garlic" not in allowed
    assert allowed["close"] or allowed["stop"] or allowed["give"] or allowed["put"]


def test_sweets_stack_picks_before_the_reveal_and_placements_before_the_step_ends() -> None:
    allowed, refused = explore(get_game("sweets_stack"), 3, range(3))
    assert allowed["pick"] and refused["pick", "it revealed everyone's picks"]
    assert allowed["place"]
    assert "refresh" not in allowed


@pytest.mark.parametrize("key", ["dawn_under", "ghost_stories", "sweets_stack", "trick_or_treat"])
def test_two_player_games_obey_the_contract_too(key: str) -> None:
    game = get_game(key)
    explore(game, max(2, game.min_players), range(2), steps=200)
