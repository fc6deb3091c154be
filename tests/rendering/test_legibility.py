"""Issue #12: every board and panel image is landscape or square (height ≤ 1.15 × width) and
legible at Discord's ~550 px preview: the smallest text at least 10 px once the image is shown
550 px wide (size × 550 / width), and no text runs off the image.

Measured, not eyeballed: `rendering.base.record_text` notes every font size `draw_on` draws with
and every line whose ink leaves its canvas. Seeded games of every game and player count are played
with random legal moves (the rules cores' `new` + `legal_actions` + `apply`), and at a few moments
the public board (`view(state, None)`) and every seat's panel (`view(state, seat)`) are rendered,
with `view["names"]` set as the platform does (bot/tables/service.py `view_for`), including a long
name and a CJK one. A renderer's caches are cleared before its pass, so text in cached tiles counts.

The targets are asserted for all four games, boards and panels (the figures are printed with
`pytest -s`). Before the rework (2026-12-01) Sweets Stack's smallest text was 3.6 px at 550 px (board)
and 4.2 px (panel, 1280 × 1320), Trick or Treat's 4.1 px.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from types import ModuleType
from typing import Any

import pytest

from bot.rules import RandomPolicy, Rng, get_game
from rendering import base, dawn_under, ghost_stories, sweets_stack, trick_or_treat

PREVIEW = 550  # px: the width Discord shows a board at on desktop
MAX_ASPECT = 1.15  # height / width
MIN_TEXT = 10.0  # px at PREVIEW
NAMES = ["alice", "Bartholomew the Unready of Yore!", "卡羅爾", "dave", "erin", "frank", "grace", "heidi"]

MODULES: dict[str, ModuleType] = {
    "dawn_under": dawn_under,
    "ghost_stories": ghost_stories,
    "sweets_stack": sweets_stack,
    "trick_or_treat": trick_or_treat,
}
OPTIONS: dict[str, dict[str, str]] = {
    "sweets_stack": {"advanced": "every"},
    "ghost_stories": {"difficulty": "initiation"},
}
CHECKPOINTS = (0, 9, 35)  # random legal moves before a view is taken; the last views are at the end
MAX_MOVES = 600


@dataclass
class Figures:
    """One renderer's measurement over all its views (boards or panels) of one game."""

    views: int = 0
    aspect: float = 0.0  # the largest height / width
    tallest: str = ""
    smallest: int = 10**6  # px, in the image's own pixels
    at_preview: float = 10.0**6  # the smallest text at PREVIEW px wide
    sample: str = ""  # a text drawn at the smallest size
    width: int = 0  # of the image with the smallest text at preview
    off_canvas: list[str] = field(default_factory=list)


def _clear_caches(module: ModuleType) -> None:
    """Every lru_cache the renderer module defines (tiles and layers hold text drawn once)."""
    for obj in vars(module).values():
        if callable(obj) and hasattr(obj, "cache_clear") and getattr(obj, "__module__", "") == module.__name__:
            obj.cache_clear()


def _take(game: Any, state: Any, n: int, label: str) -> list[tuple[str, dict[str, Any]]]:
    """The public view and every seat's view of `state`, named as the platform names them."""
    out = []
    for seat in (None, *range(n)):
        view = game.view(state, seat)
        view.setdefault("players", n)
        view.setdefault("title", game.title)
        view["names"] = NAMES[:n]
        out.append((f"{label} {'public' if seat is None else f'seat {seat}'}", view))
    return out


def _views(key: str, n: int) -> list[tuple[str, dict[str, Any]]]:
    """(label, view) pairs from two seeded random-legal games with `n` players."""
    game = get_game(key)
    out: list[tuple[str, dict[str, Any]]] = []
    for seed in (1, 2):
        state = game.new(n, 1000 * n + seed, OPTIONS.get(key))
        rng = Rng.from_seed(seed)
        policy = RandomPolicy()
        moves = 0
        while True:
            if moves in CHECKPOINTS:
                out += _take(game, state, n, f"{n}p seed {seed} move {moves}")
            if game.outcome(state) is not None or moves >= MAX_MOVES:
                out += _take(game, state, n, f"{n}p seed {seed} end ({moves} moves)")
                break
            seat = min(game.to_act(state))
            legal = game.legal_actions(state, seat)
            state, _ = game.apply(state, seat, policy.choose({}, legal, {}, rng))
            moves += 1
    return out


def _measure(
    render: Callable[[dict[str, Any]], Any], module: ModuleType, views: list[tuple[str, dict[str, Any]]]
) -> Figures:
    figures = Figures()
    _clear_caches(module)
    for label, view in views:
        with base.record_text() as record:
            image = render(view)
        figures.views += 1
        aspect = image.height / image.width
        if aspect > figures.aspect:
            figures.aspect, figures.tallest = aspect, f"{label}: {image.width}×{image.height}"
        small = record.smallest
        if small is not None:
            at = small * PREVIEW / image.width
            if at < figures.at_preview:
                figures.at_preview, figures.smallest, figures.width = at, small, image.width
                figures.sample = f"{label}: {record.sizes[small]!r}"
        figures.off_canvas += [f"{label}: {o}" for o in record.off_canvas]
    return figures


@cache
def measured() -> dict[tuple[str, str], Figures]:
    """(game, "board" | "panel") -> figures; printed once (run with -s to see them)."""
    result: dict[tuple[str, str], Figures] = {}
    for key, module in MODULES.items():
        game = get_game(key)
        views = [v for n in range(game.min_players, game.max_players + 1) for v in _views(key, n)]
        for kind, suffix in (("board", "public"), ("panel", "seat")):
            chosen = [v for v in views if v[0].split()[-1 if suffix == "public" else -2] == suffix]
            result[(key, kind)] = _measure(module.render, module, chosen)
    print("\n| renderer | views | height / width (tallest) | smallest font (image width) | at 550 px | off the image |")
    for (key, kind), f in result.items():
        print(
            f"| {key} {kind} | {f.views} | {f.aspect:.2f} ({f.tallest}) | {f.smallest} px ({f.width} px) "
            f"| {f.at_preview:.1f} px — {f.sample} | {len(f.off_canvas)} |"
        )
    return result


# -- the targets, for every renderer ----------------------------------------------------------


@pytest.mark.parametrize("game", sorted(MODULES))
@pytest.mark.parametrize("kind", ["board", "panel"])
def test_boards_and_panels_are_landscape_legible_at_550_px_and_keep_their_text_inside(game: str, kind: str) -> None:
    f = measured()[(game, kind)]
    assert f.views >= 20  # boards of several seeded games, at every player count
    assert f.aspect <= MAX_ASPECT, f.tallest
    assert f.at_preview >= MIN_TEXT, f.sample
    assert not f.off_canvas, f.off_canvas[:5]


# -- the recorder itself ----------------------------------------------------------------------------


def test_the_recorder_notes_sizes_and_text_off_the_canvas_and_is_off_outside_its_context() -> None:
    from concurrent.futures import ThreadPoolExecutor

    from PIL import Image

    img = Image.new("RGB", (200, 60))
    draw = base.draw_on(img)
    with base.record_text() as record:
        draw.text((4, 4), "inside", font=base.font(14), fill=base.INK)
        base.text_center(draw, (100, 40), "卡羅爾 ok", 20)  # runs of fallback fonts, same size
        draw.text((150, 30), "runs off the right", font=base.font(18), fill=base.INK)
        # another thread (as the bot's render workers) is not recorded here
        ThreadPoolExecutor(1).submit(lambda: draw.text((0, 0), "x", font=base.font(9), fill=base.INK)).result()
    assert record.smallest == 14 and set(record.sizes) == {14, 18, 20}
    assert record.at_width(200) == 14 * 550 / 200
    assert len(record.off_canvas) == 1 and "runs off the right" in record.off_canvas[0]
    draw.text((4, 4), "unrecorded", font=base.font(8), fill=base.INK)
    assert 8 not in record.sizes


def test_every_golden_image_is_landscape_or_square() -> None:
    """The goldens are what the renderers draw for hand-made views (tests/rendering/golden/*)."""
    from pathlib import Path

    from PIL import Image

    pngs = [p for p in (Path(__file__).parent / "golden").glob("*/*.png") if p.suffixes == [".png"]]
    assert len({p.parent.name for p in pngs}) >= 5  # every renderer, the generic one included
    tall = [f"{p.parent.name}/{p.name}: {w}×{h}" for p in pngs for w, h in [Image.open(p).size] if h > MAX_ASPECT * w]
    assert not tall, tall
