"""Every move's label reaches a reader in their language: the labels of every legal action along
random games, in the pseudo-locale, leave no English outside the catalogue's markers. A label cut
with a plain slice (`label[:80]`) loses its translation and shows English to every reader; it must be
cut after translating (`bot.rules.base.cut`). Such labels appear only in some states (a long ghost
name facing a long tile name), which the e2e games reach by chance only."""

from __future__ import annotations

import pytest

from bot.i18n import PSEUDO, tr
from bot.rules import Rng, get_game
from cogs.common.ui import fit_label
from tests.e2e.test_i18n import unmarked_words

NAMES = [f"Player{i}" for i in range(6)]


@pytest.mark.parametrize("key", ["dawn_under", "ghost_stories", "sweets_stack", "trick_or_treat"])
def test_every_action_label_is_translated_whole(key: str) -> None:
    game = get_game(key)
    untranslated: dict[str, list[str]] = {}
    for seed in range(6):
        n = game.min_players + seed % (game.max_players - game.min_players + 1)
        state = game.new(n, seed, game.check_options({}))
        rng = Rng(seed)
        for _ in range(250):
            to_act = game.to_act(state)
            if not to_act:
                break
            seat = min(to_act)
            legal = game.legal_actions(state, seat)
            for action in legal:
                label = fit_label(game.event_text(game.describe_action(action), NAMES[:n]))
                words = unmarked_words(tr(PSEUDO, label), set(NAMES))
                if words:
                    untranslated.setdefault(str(label), words)
            state, _ = game.apply(state, seat, rng.choice(legal))
    assert not untranslated, list(untranslated.items())[:5]
