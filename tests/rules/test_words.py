"""Issue #12 in the rules contract: each shipped game's How to play and first tip are data, and its
alt text is built from the view it is given, so a board's never tells what only a seat may know."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.rules import GAMES, Rng, get_game
from bot.rules.base import REPO_ROOT, one_line
from bot.tables.text import ALT_TEXT_MAX

SHIPPED = {"dawn_under": "dawn", "sweets_stack": "sweets", "trick_or_treat": "trick", "ghost_stories": "ghost"}
NAMES = ["alice", "bob", "carol"]


def playout(key: str, n: int, steps: int, seed: int = 3, **options: str) -> list[Any]:
    game = get_game(key)
    state = game.new(n, seed, options or None)
    rng = Rng.from_seed(f"words:{key}:{seed}")
    states = [state]
    for _ in range(steps):
        if game.outcome(state) is not None:
            break
        seat = min(game.to_act(state))
        state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        states.append(state)
    return states


def named(view: dict[str, Any], n: int) -> dict[str, Any]:
    return {**view, "names": NAMES[:n]}


@pytest.mark.parametrize("key", sorted(SHIPPED))
def test_how_to_play_and_tip_are_data_and_name_the_games_commands(key: str) -> None:
    game = GAMES[key]
    text = game.how_to_play()
    assert (REPO_ROOT / "data" / key / "howto.md").read_text(encoding="utf-8").strip() == text
    assert 300 <= len(text) <= 4000
    assert f"/{SHIPPED[key]} " in text and "/game move" in text
    tip = game.first_tip(game.view(game.new(2, 1), None))
    assert tip == (REPO_ROOT / "data" / key / "tip.md").read_text(encoding="utf-8").strip()
    assert "\n" not in tip and len(tip) < 300


@pytest.mark.parametrize("key", sorted(SHIPPED))
def test_alt_text_is_plain_words_that_fit(key: str) -> None:
    game = GAMES[key]
    n = 2 if key == "ghost_stories" else 3
    for state in playout(key, n, 80):
        view = named(game.view(state, None), n)
        alt = game.alt_text(view, view["names"])
        assert alt.startswith(game.title) and "\n" not in alt and "**" not in alt and "`" not in alt
        assert len(alt) <= 2 * ALT_TEXT_MAX  # the platform cuts at 1,024; the essentials come first
        assert not re.search(r"\b[Ss]eat \d", alt), alt


def test_a_sweets_stack_board_never_tells_a_hand_or_a_pick_and_a_panel_tells_its_own() -> None:
    game = GAMES["sweets_stack"]
    for state in playout("sweets_stack", 3, 150):
        public = game.alt_text(named(game.view(state, None), 3), NAMES)
        for seat in range(3):
            own = game.view(state, seat)
            secret = [*own["you"]["hand"], *([own["you"]["pick"]] if own["you"]["pick"] else [])]
            assert not [c for c in secret if c in public], (seat, secret, public)
            if own["you"]["hand"]:
                assert own["you"]["hand"][0] in game.alt_text(named(own, 3), NAMES)


def test_a_dawn_under_board_names_only_the_lids_that_are_open() -> None:
    game = GAMES["dawn_under"]
    for state in playout("dawn_under", 3, 200, list_garlic="yes"):
        view = game.view(state, None)
        shown = {g["id"] for g in view["graves"] if g["state"] in ("open", "ajar")}
        words = game.board_words(view, NAMES)
        named_graves = set(re.findall(r"\b([A-H][1-8]) ", words.split("Open graves:", 1)[1]))
        assert named_graves <= shown
        for seat in range(3):
            mine = set(game.view(state, seat).get("my_garlic") or [])
            assert not (mine - shown) & named_graves


def test_one_line_makes_sentences() -> None:
    assert one_line("**Round 2** · alice\n🎲 `1` 👣\nScores: 3") == "Round 2 · alice. 🎲 1 👣. Scores: 3."
