"""The renderers' per-process caches: keyed on every input they are drawn from, never mutated, and
invisible in the result (a warm render equals a cold one, and equals drawing without the cache).

No timings here: bench/bench_render.py measures speed.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from PIL import Image, ImageChops, ImageDraw

from rendering import base, dawn_under, ghost_stories, sweets_stack, trick_or_treat
from tests.rendering import test_dawn_under as du_views
from tests.rendering import test_ghost_stories as gs_views
from tests.rendering import test_trick_or_treat as tot_views
from tests.rendering.test_sweets_stack import GOLDEN as SWEETS_GOLDEN


def same(a: Image.Image, b: Image.Image) -> bool:
    a, b = a.convert("RGB"), b.convert("RGB")
    return a.size == b.size and ImageChops.difference(a, b).getbbox() is None


def snapshot(image: Image.Image) -> tuple[str, tuple[int, int], bytes]:
    return image.mode, image.size, image.tobytes()


def clear_all() -> None:
    for fn in (
        base._text_mask,
        base._text_length,
        dawn_under._grid_layer,
        dawn_under._grave_tile,
        dawn_under._row_token,
        trick_or_treat._table_layer,
        trick_or_treat._building_tile,
        ghost_stories._frame_layer,
    ):
        fn.cache_clear()


def sweets_view(name: str) -> dict[str, Any]:
    view: dict[str, Any] = json.loads((SWEETS_GOLDEN / f"{name}.json").read_text())
    return view


# -- text -------------------------------------------------------------------------------------------


def test_cached_text_draws_the_same_pixels_as_pillow() -> None:
    rng = random.Random(7)
    plain = Image.new("RGB", (500, 300), base.BACKGROUND)
    cached = plain.copy()
    d_plain, d_cached = ImageDraw.Draw(plain), base.draw_on(cached)
    for _ in range(200):
        # fractional positions too: the anti-aliasing depends on the sub-pixel start
        xy = (rng.uniform(-10, 480), rng.uniform(-5, 290))
        text = rng.choice(["Seat 1", "RED · alice", "×3", "✓ placed", "?×4", "a\nb"])
        face = base.font(rng.choice([12, 18, 30]), rng.random() < 0.5)
        anchor = rng.choice([None, "mm", "la", "ra", "ld"])
        fill = (rng.randrange(256), rng.randrange(256), rng.randrange(256))
        if "\n" in text and anchor not in (None, "la"):
            anchor = None
        d_plain.text(xy, text, font=face, fill=fill, anchor=anchor)
        d_cached.text(xy, text, font=face, fill=fill, anchor=anchor)
        assert d_cached.textlength(text.split("\n")[0], font=face) == d_plain.textlength(
            text.split("\n")[0], font=face
        )
    assert same(plain, cached)


def test_text_mask_cache_is_keyed_on_text_font_anchor_and_subpixel_start() -> None:
    face = base.font(20)
    a, off_a = base._text_mask(face, "Seat 1", None, (0.0, 0.0))
    assert base._text_mask(face, "Seat 1", None, (0.0, 0.0))[0] is a  # a hit
    for other in (
        base._text_mask(face, "Seat 2", None, (0.0, 0.0)),
        base._text_mask(base.font(20, True), "Seat 1", None, (0.0, 0.0)),
        base._text_mask(base.font(21), "Seat 1", None, (0.0, 0.0)),
        base._text_mask(face, "Seat 1", "mm", (0.0, 0.0)),
        base._text_mask(face, "Seat 1", None, (0.5, 0.0)),
    ):
        mask, offset = other
        assert (mask.size, bytes(mask), offset) != (a.size, bytes(a), off_a)


def test_drawing_text_never_changes_a_cached_mask() -> None:
    face = base.font(24, True)
    mask, _ = base._text_mask(face, "WINNER", None, (0.0, 0.0))
    before = bytes(mask)
    img = Image.new("RGB", (200, 60), base.PANEL)
    base.draw_on(img).text((3, 4), "WINNER", font=face, fill=base.HIGHLIGHT)
    assert bytes(mask) == before


# -- palette ----------------------------------------------------------------------------------------


def test_to_palette_keeps_the_renderers_colours_exact_and_is_deterministic() -> None:
    img = Image.effect_noise((300, 200), 90).convert("RGB")
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, 1, 1), fill=(0, 158, 115))  # too small for the 1-in-16 sample
    first = base.to_palette(img, base.BASE_COLOURS)
    assert first.mode == "P"
    assert first.convert("RGB").getpixel((0, 0)) == (0, 158, 115)
    assert snapshot(base.to_palette(img, base.BASE_COLOURS)) == snapshot(first)


# -- Dawn Under ---------------------------------------------------------------------------------------


def test_dawn_under_grid_layer_is_keyed_on_the_stake_count_and_never_drawn_on() -> None:
    clear_all()
    view = du_views.plague_gift_public()
    layer = dawn_under._grid_layer(int(view["stakes_on_path"]))
    before = snapshot(layer)
    first = dawn_under.render(view)
    assert snapshot(layer) == before
    assert same(first, dawn_under.render(view))
    assert not same(dawn_under._grid_layer(0), dawn_under._grid_layer(5))
    more = copy.deepcopy(view)
    more["stakes_on_path"] = int(view["stakes_on_path"]) + 3
    assert not same(dawn_under.render(more), first)


def test_dawn_under_grave_tiles_are_keyed_on_the_grave_the_badges_and_the_stakes_under_them() -> None:
    clear_all()
    closed = json.dumps({"id": "D4", "state": "closed"}, sort_keys=True)
    tile = dawn_under._grave_tile(3, 3, 0, closed, False, None)
    before = snapshot(tile)
    assert dawn_under._grave_tile(3, 3, 0, closed, False, None) is tile
    others = [
        dawn_under._grave_tile(3, 3, 13, closed, False, None),  # two rows of stakes show in its corner
        dawn_under._grave_tile(3, 3, 0, json.dumps({"id": "D4", "state": "none"}, sort_keys=True), False, None),
        dawn_under._grave_tile(3, 3, 0, closed, False, 1),  # the viewer's garlic
        dawn_under._grave_tile(0, 0, None, closed, False, None),
    ]
    for other in others:
        assert not same(other, tile)
    view = du_views.plague_gift_seat1()
    dawn_under.render(view)
    assert snapshot(tile) == before
    assert dawn_under._near_plaza(3, 3) and not dawn_under._near_plaza(0, 0)


def test_dawn_under_renders_the_same_cold_and_warm_and_a_grave_change_shows() -> None:
    views = [f() for f in du_views.VIEWS.values()]
    clear_all()
    cold = [dawn_under.render(v) for v in views]
    warm = [dawn_under.render(v) for v in views]
    assert all(same(a, b) for a, b in zip(cold, warm, strict=True))
    view = du_views.opening_public()
    opened = copy.deepcopy(view)
    opened["graves"][0] = {"id": opened["graves"][0]["id"], "state": "none"}
    assert not same(dawn_under.render(opened), dawn_under.render(view))


def test_dawn_under_row_tokens_are_keyed_on_the_colour_and_never_drawn_on() -> None:
    clear_all()
    red, red_mask = dawn_under._row_token("R")
    before = snapshot(red), snapshot(red_mask)
    assert dawn_under._row_token("R")[0] is red
    assert not same(dawn_under._row_token("K")[0], red)
    for f in du_views.VIEWS.values():
        dawn_under.render(f())
    assert (snapshot(red), snapshot(red_mask)) == before


# -- Trick or Treat ---------------------------------------------------------------------------------


def test_trick_or_treat_layers_and_tiles_are_keyed_and_never_drawn_on() -> None:
    clear_all()
    view = tot_views.midgame_view()
    layer = trick_or_treat._table_layer()
    before = snapshot(layer)
    first = trick_or_treat.render(view)
    assert snapshot(layer) == before
    assert same(first, trick_or_treat.render(view))
    cell = view["city"][0]
    key = json.dumps(cell, sort_keys=True)
    tile = trick_or_treat._building_tile(0, key, False)
    tile_before = snapshot(tile)
    assert not same(trick_or_treat._building_tile(0, key, True), tile)  # rung: highlighted outline
    emptied = dict(cell, candy=[])
    assert not same(trick_or_treat._building_tile(0, json.dumps(emptied, sort_keys=True), False), tile)
    renamed = dict(cell, name="Z9")
    assert not same(trick_or_treat._building_tile(0, json.dumps(renamed, sort_keys=True), False), tile)
    trick_or_treat.render(view)
    assert snapshot(tile) == tile_before


def test_trick_or_treat_renders_the_same_cold_and_warm() -> None:
    views = [tot_views.opening_view(), tot_views.midgame_view(), tot_views.crowded_view()]
    clear_all()
    cold = [trick_or_treat.render(v) for v in views]
    warm = [trick_or_treat.render(v) for v in reversed(views)]
    assert all(same(a, b) for a, b in zip(cold, reversed(warm), strict=True))


# -- Ghost Stories ----------------------------------------------------------------------------------


def test_ghost_stories_frame_layer_is_never_drawn_on() -> None:
    clear_all()
    layer = ghost_stories._frame_layer()
    before = snapshot(layer)
    view = gs_views.GAME.view(gs_views.busy_state(), 0)
    first = ghost_stories.render(view)
    assert snapshot(layer) == before
    assert same(first, ghost_stories.render(view))


# -- Sweets Stack -----------------------------------------------------------------------------------


def test_sweets_stack_table_is_the_same_as_drawing_it_at_its_final_height() -> None:
    for name in ("table_2p_over", "table_3p_out", "table_4p", "table_round_ended"):
        view = sweets_view(name)
        fast = sweets_stack.render(view)
        slow, _, _ = sweets_stack._draw_table(view, fast.height)
        assert same(fast, slow), name


# -- two worker threads -----------------------------------------------------------------------------


def test_two_threads_rendering_at_once_get_the_sequential_pictures() -> None:
    jobs: list[tuple[Callable[[dict[str, Any]], Image.Image], dict[str, Any]]] = [
        (dawn_under.render, du_views.plague_gift_public()),
        (dawn_under.render, du_views.duel_public()),
        (trick_or_treat.render, tot_views.midgame_view()),
        (trick_or_treat.render, tot_views.crowded_view()),
        (ghost_stories.render, gs_views.GAME.view(gs_views.busy_state(), None)),
        (sweets_stack.render, sweets_view("table_3p_named")),
        (sweets_stack.render, sweets_view("panel_placing")),
    ]
    clear_all()
    expected = [render(view) for render, view in jobs]
    for _ in range(3):
        clear_all()
        with ThreadPoolExecutor(max_workers=2) as pool:
            got = list(pool.map(lambda job: job[0](job[1]), jobs * 2))
        assert all(same(a, b) for a, b in zip(expected * 2, got, strict=True))
