"""Drawing in palette indices (`rendering.base.new_canvas`, issue #18): what a board drawn on a palette
canvas looks like against the same drawing in RGB, which is what the boards were before.

Flat shapes must be the same pixels exactly; text may differ only inside its anti-aliasing (in
`ALPHA_LEVELS` steps instead of 256); pasting, shading and the cached rounded rectangles must give
exactly what Pillow gives on RGB. No timings here: bench/bench_render.py measures speed.
"""

from __future__ import annotations

import io
import random

from PIL import Image, ImageChops, ImageDraw

from rendering import base

# the largest gap between two neighbouring anti-aliasing steps, in one channel, plus rounding
STEP_ERROR = 255 // (2 * (base.ALPHA_LEVELS - 1)) + 2


def rgb_pair(size: tuple[int, int], colour: base.RGB) -> tuple[Image.Image, Image.Image]:
    return Image.new("RGB", size, colour), base.new_canvas(*size, colour)


def max_diff(a: Image.Image, b: Image.Image) -> int:
    extrema = ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getextrema()
    return max(hi for _, hi in extrema)  # type: ignore[misc]


def colour(rng: random.Random) -> base.RGB:
    return (rng.randrange(256), rng.randrange(256), rng.randrange(256))


def test_shapes_on_a_palette_canvas_are_the_rgb_pixels_exactly() -> None:
    rng = random.Random(18)
    rgb, pal = rgb_pair((400, 300), base.BACKGROUND)
    inks = [colour(rng) for _ in range(40)]
    for d in (base.draw_on(rgb), base.draw_on(pal)):
        r = random.Random(3)
        for _ in range(300):
            x0, y0 = r.uniform(-20, 380), r.uniform(-20, 280)
            box = (x0, y0, x0 + r.uniform(0, 120), y0 + r.uniform(0, 90))
            fill, outline = r.choice(inks), r.choice([None, *inks])
            shape = r.randrange(5)
            if shape == 0:
                d.rectangle(box, fill=fill, outline=outline, width=r.randrange(1, 4))
            elif shape == 1:
                d.ellipse(box, fill=fill, outline=outline, width=r.randrange(1, 4))
            elif shape == 2:
                d.polygon([(box[0], box[1]), (box[2], box[1] + 5), (box[0] + 7, box[3])], fill=fill, outline=outline)
            elif shape == 3:
                d.line(box, fill=fill, width=r.randrange(1, 6))
            else:
                d.rounded_rectangle(box, r.uniform(0, 30), fill=fill, outline=outline, width=r.randrange(0, 5))
    assert max_diff(rgb, pal) == 0


def test_cached_rounded_rectangles_are_pillows_pixels() -> None:
    rng = random.Random(5)
    for mode in ("RGB", "P"):
        mine = base.new_canvas(300, 200, base.PANEL) if mode == "P" else Image.new("RGB", (300, 200), base.PANEL)
        pillow = mine.copy()
        ours, theirs = base.draw_on(mine), ImageDraw.Draw(pillow)
        for _ in range(400):
            # halves and odd offsets: Python rounds halves to even, the cache must move shapes by even steps
            x0 = rng.choice([rng.uniform(-30, 290), rng.randrange(-30, 290) + 0.5])
            y0 = rng.choice([rng.uniform(-30, 190), rng.randrange(-30, 190) + 0.5])
            box = (x0, y0, x0 + rng.choice([rng.uniform(0, 140), 35.0, 1.0]), y0 + rng.uniform(0, 100))
            radius = rng.choice([0, 3, 6, 7.5, rng.uniform(0, 80)])
            fill = rng.choice([None, (10, 200, 30), base.INK])
            outline = rng.choice([None, (200, 10, 30), base.INK])
            width = rng.randrange(0, 5)
            corners = rng.choice([None, (True, False, True, False), (False, False, False, False)])
            refused = []
            for d in (ours, theirs):
                try:
                    d.rounded_rectangle(box, radius, fill=fill, outline=outline, width=width, corners=corners)
                except ValueError:  # Pillow refuses some tiny boxes with partial corners (half drawn)
                    refused.append(d)
            assert len(refused) in (0, 2)
        if mode == "P":  # Pillow's own drawing on a palette image is exact too (no blending)
            pillow = pillow.convert("RGB")
        assert max_diff(mine, pillow) == 0, mode


def test_text_on_a_palette_canvas_differs_only_inside_its_anti_aliasing() -> None:
    rng = random.Random(12)
    rgb, pal = rgb_pair((500, 320), base.PANEL)
    grounds = [colour(rng) for _ in range(6)]
    for d in (base.draw_on(rgb), base.draw_on(pal)):
        r = random.Random(9)
        for k in range(12):  # grounds of several colours, so texts sit across their edges
            d.rectangle((k * 40, r.randrange(0, 200), k * 40 + 60, 320), fill=grounds[k % len(grounds)])
        for k in range(25):  # side by side (not over each other), across the grounds' edges
            xy = ((k % 5) * 100 + r.uniform(-10, 5), (k // 5) * 64 + r.uniform(-5, 3))
            text = r.choice(["Seat 1", "×3", "鬼故事", "?×4", "A\nb"])
            face = base.font(r.choice([22, 26]), r.random() < 0.5)
            d.text(xy, text, font=face, fill=r.choice([base.INK, base.ACCENT, (20, 16, 24)]))
    assert len(pal.palette.palette) // 3 < base.RAMP_ROOM  # type: ignore[union-attr]  # (no step was approximated)
    assert max_diff(rgb, pal) <= STEP_ERROR
    diff = ImageChops.difference(rgb, pal.convert("RGB")).convert("L")
    assert sum(v * n for v, n in enumerate(diff.histogram())) / (500 * 320) < 0.5  # mean per pixel


def test_pasting_tiles_of_other_palettes_and_shading_match_rgb() -> None:
    tiles = []
    for k, ground in enumerate(((120, 60, 0), base.PANEL, (0, 158, 115))):
        tile = base.new_canvas(60, 40, ground, colours=((9, 9, 9),) * k)
        d = base.draw_on(tile)
        d.ellipse((5, 5, 35, 35), fill=base.PLAYER_COLOURS[k])
        d.text((40, 20), str(k), font=base.font(22, True), fill=base.INK, anchor="mm")
        tiles.append(tile)
    mask = Image.new("L", (60, 40), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, 59, 39), 9, fill=255)
    rgb, pal = rgb_pair((300, 120), base.BACKGROUND)
    for k, tile in enumerate(tiles):
        for j in range(3):  # the same tile twice (its colours looked up once) and through a mask
            at = (k * 90 + j * 7, j * 40)
            rgb.paste(tile.convert("RGB"), at, mask if j == 2 else None)
            base.paste(pal, tile, at, mask if j == 2 else None)
    assert max_diff(rgb, pal) == 0
    overlay = Image.new("RGBA", (150, 70), (20, 10, 20, 110))
    rgb.paste(overlay, (40, 30), overlay)
    base.shade(pal, (40, 30, 190, 100), (20, 10, 20), 110)
    assert max_diff(rgb, pal) == 0


def test_flat_colours_stay_exact_once_text_has_filled_the_palette() -> None:
    rng = random.Random(1)
    rgb, pal = rgb_pair((600, 400), base.BACKGROUND)
    inks = [colour(rng) for _ in range(8)]
    for d in (base.draw_on(rgb), base.draw_on(pal)):
        r = random.Random(2)
        for k in range(24):  # 24 grounds × 8 inks: more steps (6 a pair) than the palette holds
            x, y = (k % 10) * 60, (k // 10) * 60
            d.rectangle((x, y, x + 59, y + 59), fill=colour(r))
            for line in range(3):
                d.text((x + 2, y + 2 + 19 * line), "Ag", font=base.font(22), fill=r.choice(inks))
    size = len(pal.palette.palette) // 3  # type: ignore[union-attr]
    assert base.RAMP_ROOM <= size <= 256 - 16  # the steps stopped short, leaving room for flat colours
    flat = [colour(rng) for _ in range(256 - size)]
    for d in (base.draw_on(rgb), base.draw_on(pal)):
        for k, c in enumerate(flat):
            d.rectangle((k * 9, 380, k * 9 + 8, 399), fill=c)
    assert max_diff(rgb.crop((0, 380, 600, 400)), pal.crop((0, 380, 600, 400))) == 0
    assert max_diff(rgb, pal) < 128  # the approximated steps are still near their colour
    assert base.encode_png(pal)[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_palette_canvas_encodes_to_a_png_of_the_same_pixels() -> None:
    img = base.new_canvas(333, 121, base.BACKGROUND, colours=base.BASE_COLOURS)
    d = base.draw_on(img)
    d.rounded_rectangle((10, 10, 200, 100), 12, fill=base.PANEL, outline=base.ACCENT, width=3)
    d.text((20, 30), "Seat 1 · 鬼", font=base.font(26, True), fill=base.INK)
    data = base.encode_png(img)
    Image.open(io.BytesIO(data)).verify()  # chunks, CRCs, the zlib stream
    back = Image.open(io.BytesIO(data))
    assert (back.mode, back.size) == ("P", img.size)
    assert max_diff(back, img) == 0
    assert back.tobytes() == img.tobytes()  # the indices too: the same palette, in order
    transparent = img.copy()
    transparent.info["transparency"] = 0  # (not what boards do: written by Pillow, which keeps it)
    assert Image.open(io.BytesIO(base.encode_png(transparent))).info.get("transparency") == 0
