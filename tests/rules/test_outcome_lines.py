"""The end of a game in words (`Game.outcome_lines`): labelled, per player, never a Python repr."""

from __future__ import annotations

import re

import pytest

from bot.rules import Outcome, get_game
from tests.takeaway import GAME as TAKEAWAY

NAMES = ["alice", "bob", "carol"]
REPR = re.compile(r"[\[\]{}']")


def no_repr(lines: list[str]) -> str:
    text = "\n".join(lines)
    assert lines and not REPR.search(text), text
    assert "None" not in text and "True" not in text and "False" not in text, text
    return text


def test_default_formats_scalars_and_per_seat_lists_and_skips_the_rest() -> None:
    out = Outcome(
        scores=(1, 0),
        ranking=((0,), (1,)),
        winners=frozenset({0}),
        summary="Seat 1 took the last token.",
        details={"tokens_left": 0, "bids": [3, 1], "hands": [[1, 2], [3]], "extra": {"a": 1}, "fast": True},
    )
    text = no_repr(TAKEAWAY.outcome_lines(out, NAMES[:2]))
    assert text.splitlines()[:2] == ["🥇 alice — 1 point", "🥈 bob — 0 points"]
    assert "Tokens left: 0" in text and "Bids: alice 3 · bob 1" in text and "Fast: yes" in text
    assert "Hands" not in text and "Extra" not in text


def test_default_cooperative_says_the_team_won_or_lost_without_standings() -> None:
    lost = Outcome((5, 5), ((0, 1),), frozenset(), "Defeat.", {"turns": 9}, cooperative=True)
    text = no_repr(TAKEAWAY.outcome_lines(lost, NAMES[:2]))
    assert text.startswith("💀 The team lost.") and "alice" not in text and "Turns: 9" in text
    won = Outcome((5, 5), ((0, 1),), frozenset({0, 1}), "Victory.", cooperative=True)
    assert TAKEAWAY.outcome_lines(won, NAMES[:2])[0] == "🏆 The team won."


def test_a_resignation_outcome_has_standings_without_scores() -> None:
    out = Outcome((None, None), ((1,), (0,)), frozenset({1}), "alice resigned; bob wins.")
    for key in ("takeaway", "dawn_under", "sweets_stack", "trick_or_treat"):
        game = TAKEAWAY if key == "takeaway" else get_game(key)
        lines = game.outcome_lines(out, NAMES[:2])
        assert lines[:2] == ["🥇 bob", "🥈 alice"], (key, lines)


def test_dawn_under_vampires_left_and_stakes_per_player() -> None:
    game = get_game("dawn_under")
    out = Outcome(
        scores=(3, 0, 7),
        ranking=((1,), (0,), (2,)),
        winners=frozenset({1}),
        summary="Seat 2 got rid of every vampire.",
        details={"vampires_left": [3, 0, 7], "stakes": [2, 0, 1]},
    )
    text = no_repr(game.outcome_lines(out, NAMES))
    assert text.splitlines() == [
        "🥇 bob — no vampires left · 0 stakes in hand",
        "🥈 alice — 3 vampires left · 2 stakes in hand",
        "🥉 carol — 7 vampires left · 1 stake in hand",
    ]


SC = {"base": 12, "favourite": 10, "candle": 3, "goblin": 0, "total": 25}


def test_sweets_stack_rounds_are_labelled_and_the_tie_break_only_when_used() -> None:
    game = get_game("sweets_stack")
    low = {"base": 9, "favourite": 0, "candle": 1, "goblin": -4, "total": 6}
    out = Outcome((25, 6), ((0,), (1,)), frozenset({0}), "Seat 1 wins with 25 points.", {"rounds": [[SC, low]]})
    text = no_repr(game.outcome_lines(out, NAMES[:2]))
    assert text.splitlines() == [
        "🥇 alice — 25 points",
        "  Round 1: 12 candies + 10 favourite + 3 candles = 25",
        "🥈 bob — 6 points",
        "  Round 1: 9 candies + 0 favourite + 1 candle − 4 goblin = 6",
    ]
    assert "Tie-break" not in text
    tied = Outcome(
        (25, 25),
        ((1,), (0,)),
        frozenset({1}),
        "Seat 2 wins with 25 points.",
        {"rounds": [[SC, SC]], "tie_break": "the higher round 3 score"},
    )
    text = no_repr(game.outcome_lines(tied, NAMES[:2]))
    assert text.splitlines()[0] == "🥇 bob — 25 points"
    assert text.splitlines()[-1] == "Tie-break: equal totals were split by the higher round 3 score."


def test_sweets_stack_outcome_from_a_played_game_reads_well() -> None:
    game = get_game("sweets_stack")
    state = game.new(3, 5)
    for _ in range(5000):
        if game.outcome(state) is not None:
            break
        seat = min(game.to_act(state))
        state, _ = game.apply(state, seat, game.legal_actions(state, seat)[0])
    out = game.outcome(state)
    assert out is not None
    text = no_repr(game.outcome_lines(out, NAMES))
    assert text.count("Round 3: ") == 3 and "candies +" in text
    assert ("Tie-break" in text) == ("tie_break" in out.details)


def test_trick_or_treat_cards_character_and_candy_per_player() -> None:
    game = get_game("trick_or_treat")
    out = Outcome(
        scores=(12, 7),
        ranking=((0,), (1,)),
        winners=frozenset({0}),
        summary="P1 wins with 12 points.",
        details={
            "candy": [1, 3],
            "cards": [[18, 1], []],
            "characters": ["cowboy", "witch"],
            "character_points": [-2, 0],
            "tie_break": False,
        },
    )
    text = no_repr(game.outcome_lines(out, NAMES[:2]))
    first, second = text.splitlines()
    assert first.startswith("🥇 alice — 12 points: cards worth 3 + 3 · "), first  # worth, not the data ids
    assert first.endswith("Cowboy −2 · 1 candy left")
    assert second == "🥈 bob — 7 points: no cards · Witch · 3 candy left"
    assert "Tie-break" not in text


def test_trick_or_treat_tie_break_line_only_when_a_tie_was_split() -> None:
    game = get_game("trick_or_treat")
    details = {"candy": [1, 3], "cards": [[1], [2]], "characters": [None, None], "tie_break": True}
    out = Outcome((3, 3), ((1,), (0,)), frozenset({1}), "P2 wins (tie-break: most candy).", details)
    text = no_repr(game.outcome_lines(out, NAMES[:2]))
    assert text.splitlines()[-1] == "Tie-break: equal scores were split by the most candy left."


@pytest.mark.parametrize("won", [False, True])
def test_ghost_stories_says_the_team_won_or_lost_with_reason_and_score(won: bool) -> None:
    from tests.rules.test_ghost_stories_ghosts import blank

    game = get_game("ghost_stories")
    s = blank(diff="normal")
    s["tiles"][0]["haunted"] = True
    s["result"], s["reason"] = ("win", "Wu-Feng has been sent back.") if won else ("lose", "4 tiles are haunted.")
    out = game.outcome(s)
    assert out is not None and out.cooperative
    lines = game.outcome_lines(out, NAMES[:2])
    text = no_repr(lines)
    score = out.scores[0]
    assert isinstance(score, int)
    shown = f"−{-score}" if score < 0 else str(score)
    if won:
        assert lines[0] == f"🏆 The team won — Wu-Feng has been sent back; score {shown} (scored as in the rulebook)."
    else:
        assert lines[0] == f"💀 The team lost — 4 tiles are haunted; score {shown} (scored as in the rulebook)."
    assert "haunted tiles −4" in text and "ghost cards left in the deck" in text
    assert "🥇" not in text and "1." not in text  # no ranking of tied teammates
    assert "(4 tiles are haunted.)" not in out.summary  # no doubled punctuation
