"""`rendering.base.drawn_once` (issue #18, session 9): a patch laid in from the cache gives the very
PNG bytes drawing it gives (palette order included), cold or warm, in both languages; it never paints
outside its box; the cache stays within its bound.

No timings here: bench/bench_worker_jobs.py measures the CPU per move.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image

from bot.rules import RandomPolicy, Rng, get_game
from rendering import base, sweets_stack
from rendering.base import drawn_once, encode_png

NAMES = {"en-US": ["alice", "bob", "carol"], "zh-TW": ["小明", "阿華", "卡羅爾"]}


@pytest.fixture(autouse=True)
def checked(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every patch drawn here is checked to paint only inside its box; a cold cache to start."""
    monkeypatch.setattr(base, "CHECK_PATCHES", True)
    base.clear_patches()
    yield
    base.clear_patches()


def views(players: int, seed: int, every: int = 3, limit: int = 40) -> list[dict[str, Any]]:
    """Public views and each awaited seat's private view along a seeded random game, in play order."""
    game = get_game("sweets_stack")
    state = game.new(players, seed, game.check_options({}))
    rng, rand = Rng.from_seed(seed), RandomPolicy()
    out: list[dict[str, Any]] = []
    step = 0
    while game.outcome(state) is None and len(out) < limit:
        if step % every == 0:
            out.append(json.loads(json.dumps(game.view(state, None))))
            for seat in sorted(game.to_act(state)):
                out.append(json.loads(json.dumps(game.view(state, seat))))
        seat = min(game.to_act(state))
        state, _ = game.apply(state, seat, rand.choose({}, game.legal_actions(state, seat), {}, rng))
        step += 1
    return out


def png(view: dict[str, Any], lang: str) -> bytes:
    view = {**view, "names": NAMES[lang][: len(view["seats"])], "players": len(view["seats"])}
    return encode_png(sweets_stack.render(view, lang))


@pytest.mark.parametrize("lang", ["en-US", "zh-TW"])
@pytest.mark.parametrize(("players", "seed"), [(2, 11), (3, 12), (4, 13)])
def test_warm_and_cold_patches_give_the_drawn_bytes(
    monkeypatch: pytest.MonkeyPatch, lang: str, players: int, seed: int
) -> None:
    sample = views(players, seed)
    warm = [png(v, lang) for v in sample]  # one process drawing a game's versions in turn
    cold = []
    for v in sample:
        base.clear_patches()
        cold.append(png(v, lang))
    monkeypatch.setattr(sweets_stack, "drawn_once", lambda canvas, d, box, key, draw: draw(d, canvas))
    drawn = [png(v, lang) for v in sample]
    assert warm == drawn
    assert cold == drawn
    assert base.patch_counts["hit"] > 0


def test_patches_are_shared_across_tables_and_languages_without_mixing() -> None:
    a, b = views(2, 21), views(3, 22)
    interleaved = [(v, lang) for pair in zip(a, b, strict=False) for v in pair for lang in ("en-US", "zh-TW")]
    first = [png(v, lang) for v, lang in interleaved]
    again = [png(v, lang) for v, lang in reversed(interleaved)][::-1]
    assert first == again


def test_the_cache_stays_within_its_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(base, "PATCH_BYTES", 40_000)
    for v in views(3, 31, every=1, limit=30):
        png(v, "en-US")
        held, size = base.patches_held()
        assert size <= 40_000 or held == 1


def test_a_patch_laid_into_another_palette_order_is_the_drawn_image() -> None:
    """Text (anti-aliasing steps) and flat colours in a patch drawn first on a canvas whose palette was
    filled in one order, then laid into one filled in another: the same bytes as drawing there."""

    def canvas(order: list[tuple[int, int, int]]) -> tuple[Image.Image, Any]:
        img = base.new_canvas(300, 120)
        d = base.draw_on(img)
        for k, rgb in enumerate(order):
            d.rectangle((k * 10, 0, k * 10 + 8, 8), fill=rgb)
        return img, d

    def patch(d: Any, img: Image.Image) -> int:
        d.rectangle((20, 40, 120, 100), fill=base.PANEL, outline=base.ACCENT)
        d.text((30, 50), "Boo 42", font=base.font(22, True), fill=base.INK)
        d.text((150, 60), "·", font=base.font(22), fill=base.HIGHLIGHT)
        return 7

    orders = [[base.INK, base.PANEL], [base.MUTED, base.ACCENT, base.PANEL, base.INK], []]
    for first in orders:
        for second in orders:
            base.clear_patches()
            img, d = canvas(first)
            assert drawn_once(img, d, (10, 30, 200, 110), ("test",), patch) == 7
            img2, d2 = canvas(second)
            assert drawn_once(img2, d2, (10, 30, 200, 110), ("test",), patch) == 7
            ref, dref = canvas(second)
            patch(dref, ref)
            assert encode_png(img2) == encode_png(ref)
    assert base.patch_counts["hit"] >= len(orders) ** 2


def test_a_box_not_of_one_colour_is_drawn_in_place() -> None:
    img = base.new_canvas(100, 100)
    d = base.draw_on(img)
    d.rectangle((0, 0, 10, 10), fill=base.INK)
    before = dict(base.patch_counts)
    drawn_once(img, d, (5, 5, 50, 50), ("x",), lambda d, _: d.rectangle((20, 20, 30, 30), fill=base.ACCENT))
    assert base.patch_counts["direct"] == before["direct"] + 1
    assert base.patches_held() == (0, 0)


def test_a_patch_painting_outside_its_box_is_caught() -> None:
    img = base.new_canvas(100, 100)
    with pytest.raises(AssertionError, match="outside its box"):
        drawn_once(img, base.draw_on(img), (10, 10, 40, 40), ("y",),
                   lambda d, _: d.rectangle((30, 30, 60, 60), fill=base.ACCENT))
