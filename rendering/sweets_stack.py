"""Sweets Stack images, drawn only from a view.

Both images are 1200 px wide and landscape (0.5–0.85 as tall) for Discord's ~550 px preview:
no text under 22 px (10 px there; measured by tests/rendering/test_legibility.py). What each is
for at that size:

* the **public board** (public view): every bucket side by side, one column per player, so an
  async player sees at a glance whose move it is (the awaited seats' frames lit, "… placing" /
  "… choosing" under their names), what changed (the candy each player placed last outlined in
  white in their bucket, the candy each receiver is placing and from whom, the newest scoring
  card lit), the round and step, pumpkins, candles, scores so far and what is left in each hand
  and deck. A finished board says who won. Row and column numbers, card ids in the scoring piles
  and the score breakdown are not drawn (they are in the embed and in `/game status text:true`).
* the **private panel** (a seat's view): the player's own bucket, large and numbered (the
  notation of `/game move`), with the selected resting place previewed in it; the candy to place
  and whether it fits; the hand; a few resting places as small previews, the free (upright) ones
  apart from the rotated, paid ones — the rest are in the panel's menus.

Candy colours are never told by hue alone: each colour has its own mark, drawn in every cell,
box and card (● blue, ◆ yellow, ▲ green, ♥ red; `MARK`), and the same marks lead the legend.
Every player-visible word is in `LABELS` (one place, translated by `label` into the `lang` the image
is drawn in); advanced cards' names and texts come from the game's glossary.
"""

from __future__ import annotations

import re
from functools import lru_cache, partial
from typing import Any

from PIL import Image, ImageChops, ImageDraw

from bot.i18n import N_, SOURCE, Lang, Msg, term, tr
from rendering.base import (
    ACCENT,
    BASE_COLOURS,
    DANGER,
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    draw_on,
    drawable,
    drawing_in,
    drawing_lang,
    drawn_once,
    font,
    new_canvas,
    paste,
    player_colour,
    shade,
    text_center,
    text_width,
    wrap,
)

RGB = tuple[int, int, int]
WIDTH = 1200
MIN_FONT = 22  # 10 px at the 550 px preview of a 1200 px wide image
CANDY: dict[str, RGB] = {  # Okabe-Ito colours, each drawn with its mark
    "B": (0, 114, 178),
    "Y": (240, 228, 66),
    "G": (0, 158, 115),
    "R": (213, 94, 0),
}
EMPTY_CELL: RGB = (60, 52, 76)
PREFILL: RGB = (120, 112, 130)
GRID_LINE: RGB = (34, 29, 44)
GOOD: RGB = (90, 200, 120)
DARK: RGB = (20, 16, 28)
WOOD: RGB = (90, 70, 50)
WOOD_EDGE: RGB = (160, 120, 80)

# Every word a player reads on these images: English msgids, translated by `label` in the language
# of the image being drawn (`locales/<ll_CC>/LC_MESSAGES/rendering.po`).
LABELS: dict[str, Msg] = {
    "title": N_("Sweets Stack"),
    "round": N_("Round {round}/3 · step {step} · passing {direction} {arrow}"),
    "over": N_("Game over"),
    "wins": N_("{names} wins with {points} points"),
    "share": N_("{names} share the win with {points} points"),
    "and": N_(" and "),
    "waiting_pick": N_("Waiting for {names} to choose a card"),
    "waiting_place": N_("Waiting for {names} to place their candy"),
    "choosing": N_("… choosing"),
    "chosen": N_("✓ card chosen"),
    "placing": N_("… placing"),
    "placed": N_("✓ placed"),
    "out": N_("OUT this round"),
    "out_big": N_("OUT"),
    "total": N_("total {total}"),
    "winner": N_("★ winner · {total}"),
    "from": N_("From {name}:"),
    "swapped": N_("Swapped in a hand card"),
    "norot": N_("no rotation now"),
    # no-break spaces: a number stays with its word
    "pile": N_("Scored\u00a0{n} · hand\u00a0{hand} · deck\u00a0{deck}"),
    "rounds": N_("Rounds {parts} = {total}"),
    "ended": N_("Round {round}: {total} points"),
    "ended_parts": N_("{base} candy + {fav} fav + {candle} candles"),
    "goblin": N_("{goblin} goblin"),
    "you_title": N_("Your panel · {name}"),
    "your_bucket": N_("Your bucket"),
    "to_place": N_("Candy to place"),
    "you_chose": N_("You chose"),
    "waiting_others": N_("Waiting for the others…"),
    "choose": N_("Choose a card to pass {direction} (your neighbour drops it into their bucket)."),
    "you_out": N_("You are out of this round."),
    "hand": N_("Your hand ({n}) · deck {deck}"),
    "goes_to": N_("Your card goes to {name}"),
    "preview": N_("Preview: {where}"),
    "free": N_("Free resting places ({n})"),
    "rotated": N_("Rotated, 2 pumpkins each ({n})"),
    "more": N_("+{n} more in the menu"),
    "where": N_("row {row}, col {col}"),
    "turned": N_("turned {degrees}°"),
    "legend_B": N_("blue"),
    "legend_Y": N_("yellow"),
    "legend_G": N_("green"),
    "legend_R": N_("red"),
    "seat": N_("Seat {n}"),
    "advanced": N_("★ {name}: {text}"),
    "left": N_("left"),
    "right": N_("right"),
    "comma": N_(", "),
}
MARK = {"B": "circle", "Y": "diamond", "G": "triangle", "R": "heart"}


def label(key: str) -> str:
    """A word of `LABELS` in the language of the image being drawn."""
    return tr(drawing_lang(), LABELS[key])


# The renderer's flat colours: the first entries of its images' palettes (`new_canvas(colours=)`).
KEEP: tuple[RGB, ...] = (
    *BASE_COLOURS,
    *CANDY.values(),
    *((int(r * 0.45) + 20, int(g * 0.45) + 20, int(b * 0.45) + 20) for r, g, b in CANDY.values()),
    *((r // 2 + 128, g // 2 + 128, b // 2 + 128) for r, g, b in CANDY.values()),
    EMPTY_CELL,
    PREFILL,
    GRID_LINE,
    GOOD,
    WOOD,
    WOOD_EDGE,
    (90, 84, 100),
    (120, 230, 120),
    DARK,
    (120, 60, 0),
    (60, 150, 60),
    (240, 240, 250),
    (120, 90, 0),
    (30, 26, 40),
    (235, 225, 200),
)


def _ink_on(rgb: RGB) -> RGB:
    return DARK if sum(rgb) > 420 else INK


def _name(view: dict[str, Any], seat: int) -> str:
    """The player's display name (what the image can draw of it), else "Seat N"."""
    names = view.get("names") or []
    if seat < len(names) and names[seat]:
        kept = "".join(c for c in str(names[seat]) if drawable(c)).strip()
        if kept:
            return kept
    return label("seat").format(n=seat + 1)


def _names(view: dict[str, Any], seats: list[int]) -> str:
    return label("and").join(_name(view, s) for s in seats) if len(seats) < 3 else label("comma").join(
        _name(view, s) for s in seats
    )


# -- icons (no text: legible at any size) -----------------------------------------------------------


def draw_mark(d: ImageDraw.ImageDraw, x: float, y: float, r: float, colour: str, fill: RGB) -> None:
    """The colour's own mark centred on (x, y), radius `r` (so colour is never the only clue)."""
    shape = MARK[colour]
    if shape == "circle":
        d.ellipse((x - r * 0.8, y - r * 0.8, x + r * 0.8, y + r * 0.8), fill=fill)
    elif shape == "diamond":
        d.polygon([(x, y - r), (x + r * 0.8, y), (x, y + r), (x - r * 0.8, y)], fill=fill)
    elif shape == "triangle":
        d.polygon([(x, y - r * 0.9), (x + r * 0.9, y + r * 0.7), (x - r * 0.9, y + r * 0.7)], fill=fill)
    else:  # heart
        k = r * 0.48
        d.ellipse((x - 2 * k, y - 1.5 * k, x, y + 0.5 * k), fill=fill)
        d.ellipse((x, y - 1.5 * k, x + 2 * k, y + 0.5 * k), fill=fill)
        d.polygon([(x - 1.95 * k, y - 0.2 * k), (x + 1.95 * k, y - 0.2 * k), (x, y + 2 * k)], fill=fill)


def _pumpkin(d: ImageDraw.ImageDraw, x: float, y: float, r: float) -> None:
    d.ellipse((x - r, y - r * 0.8, x + r, y + r * 0.8), fill=ACCENT, outline=(120, 60, 0))
    d.line((x, y - r * 0.8, x, y - r * 0.2), fill=(120, 60, 0), width=max(1, int(r / 5)))
    d.rectangle((x - r * 0.15, y - r * 1.15, x + r * 0.15, y - r * 0.75), fill=(60, 150, 60))


def _candle(d: ImageDraw.ImageDraw, x: float, y: float, r: float) -> None:
    d.rectangle((x - r * 0.35, y - r * 0.5, x + r * 0.35, y + r), fill=(235, 225, 200))
    d.polygon([(x, y - r * 1.2), (x - r * 0.3, y - r * 0.6), (x + r * 0.3, y - r * 0.6)], fill=HIGHLIGHT)


def _ghost(d: ImageDraw.ImageDraw, x: float, y: float, r: float) -> None:
    d.pieslice((x - r * 0.8, y - r, x + r * 0.8, y + r * 0.6), 180, 360, fill=(240, 240, 250))
    d.rectangle((x - r * 0.8, y - r * 0.2, x + r * 0.8, y + r * 0.7), fill=(240, 240, 250))
    e = max(1.0, r * 0.18)
    d.ellipse((x - r * 0.4 - e, y - r * 0.3 - e, x - r * 0.4 + e, y - r * 0.3 + e), fill=DARK)
    d.ellipse((x + r * 0.4 - e, y - r * 0.3 - e, x + r * 0.4 + e, y - r * 0.3 + e), fill=DARK)


def _norot(d: ImageDraw.ImageDraw, x: float, y: float, r: float) -> None:
    w = max(2, int(r / 4))
    d.arc((x - r * 0.6, y - r * 0.6, x + r * 0.6, y + r * 0.6), 40, 320, fill=INK, width=max(1, w - 1))
    d.ellipse((x - r, y - r, x + r, y + r), outline=DANGER, width=w)
    d.line((x - r * 0.7, y + r * 0.7, x + r * 0.7, y - r * 0.7), fill=DANGER, width=w)


def _arrow_pumpkin(d: ImageDraw.ImageDraw, x: float, y: float, r: float) -> None:
    _pumpkin(d, x - r * 0.3, y + r * 0.1, r * 0.8)
    ax = x + r * 0.75
    d.polygon([(ax, y - r), (ax - r * 0.45, y - r * 0.3), (ax + r * 0.45, y - r * 0.3)], fill=HIGHLIGHT)
    d.rectangle((ax - r * 0.15, y - r * 0.35, ax + r * 0.15, y + r * 0.7), fill=HIGHLIGHT)


def _crown(d: ImageDraw.ImageDraw, x: float, y: float, r: float) -> None:
    pts = [(x - r, y + r * 0.6), (x - r, y - r * 0.5), (x - r * 0.5, y), (x, y - r * 0.8),
           (x + r * 0.5, y), (x + r, y - r * 0.5), (x + r, y + r * 0.6)]
    d.polygon(pts, fill=HIGHLIGHT, outline=(120, 90, 0))


ICONS = {"pumpkin": _pumpkin, "ghost": _ghost, "norot": _norot, "arrow": _arrow_pumpkin, "crown": _crown}


def _symbols(d: ImageDraw.ImageDraw, x: float, y: float, r: float, symbols: list[str]) -> float:
    """Draw symbol icons left to right from (x, y) centre line; return the x after the last one."""
    for sym in symbols:
        ICONS[sym](d, x + r, y, r)
        x += 2.4 * r
    return x


# -- text helpers -----------------------------------------------------------------------------------


def _fit(text: str, size: int, room: float, bold: bool = True) -> str:
    """One line within `room` px: whole, else cut at the last word that fits with "…" (a name may be
    cut inside itself, it has no other place to go)."""
    if text_width(text, size, bold) <= room:
        return text
    words = text.split(" ")
    while len(words) > 1:
        words.pop()
        trial = " ".join(words).rstrip(",·:;") + "…"
        if text_width(trial, size, bold) <= room:
            return trial
    while len(text) > 1 and text_width(text + "…", size, bold) > room:
        text = text[:-1]
    return text + "…"


def _lines(d: ImageDraw.ImageDraw, x: float, y: float, room: float, text: str, size: int, fill: RGB,
           bold: bool = True, max_lines: int = 3) -> float:
    """`text` wrapped to `room` px (rendering.base.wrap); returns the y under the last line."""
    lines = wrap(text, size, room, bold)
    if len(lines) > max_lines:
        lines = [*lines[:max_lines - 1], _fit(" ".join(lines[max_lines - 1:]), size, room, bold)]
    for line in lines:
        d.text((x, y), _fit(line, size, room, bold), font=font(size, bold), fill=fill)
        y += size + 8
    return y


# -- buckets ----------------------------------------------------------------------------------------


def _cell_box(x0: int, y0: int, cell: int, col: int, row: int, h: int) -> tuple[int, int, int, int]:
    x = x0 + (col - 1) * cell
    y = y0 + (h - row) * cell
    return (x, y, x + cell, y + cell)


def bucket_size(cell: int, labels: bool) -> tuple[int, int]:
    """The (width, height) `draw_bucket` uses for a 7×8 bucket of `cell` px."""
    gutter = MIN_FONT + 12 if labels else 0
    return gutter + 7 * cell + 8 + cell, 8 * cell + (MIN_FONT + 16 if labels else 6)


def draw_bucket(
    d: ImageDraw.ImageDraw,
    x0: int,
    y0: int,
    cell: int,
    seat: dict[str, Any],
    bucket: dict[str, Any],
    *,
    highlight: list[list[int]] | None = None,
    highlight_colour: str | None = None,
    python_cells: list[list[int]] | None = None,
    labels: bool = True,
    last: list[list[int]] | None = None,
) -> tuple[int, int]:
    """A bucket with its favourite-colour boxes on the right; returns its (width, height) in pixels.

    Cells carry their colour's mark (no text); `labels` adds row and column numbers at 22 px; `last`
    (the candy placed last, as (column, row) cells) is outlined: what changed since the last board."""
    canvas = d._image
    gutter = MIN_FONT + 12 if labels else 0
    w, h = bucket["width"], bucket["height"]
    bx, bottom = x0 + gutter, y0 + h * cell
    # the cells change with every candy placed (half a board's buckets are new: drawn, not cached,
    # `drawn_once` did not pay for them); the favourite-colour boxes and the numbers hardly ever
    _bucket_cells(d, x0, y0, cell, seat, bucket, python_cells, labels, last)
    if highlight:
        _bucket_highlight(d, bx, y0, cell, bucket, highlight, highlight_colour)
    fx = bx + w * cell + 8
    drawn_once(canvas, d, (fx - 2, y0 - 2, fx + cell, bottom + 2),
               ("rows", cell, labels, tuple(seat["ticks"]), tuple(bucket["row_colours"]), w, h),
               partial(_bucket_boxes, x0=x0, y0=y0, cell=cell, seat=seat, bucket=bucket, labels=labels))
    if labels:
        drawn_once(canvas, d, (x0, y0 - 4, bx - 7, bottom + 4), ("row numbers", cell, h),
                   partial(_bucket_numbers, x0=x0, y0=y0, cell=cell, bucket=bucket, rows=True))
        drawn_once(canvas, d, (bx - 7, bottom + 10, bx + w * cell + 8, bottom + MIN_FONT + 16),
                   ("column numbers", cell, w, h),
                   partial(_bucket_numbers, x0=x0, y0=y0, cell=cell, bucket=bucket, rows=False))
    return bucket_size(cell, labels)


def _bucket_cells(d: ImageDraw.ImageDraw, x0: int, y0: int, cell: int, seat: dict[str, Any], bucket: dict[str, Any],
                  python_cells: list[list[int]] | None, labels: bool, last: list[list[int]] | None) -> None:
    """`draw_bucket`'s wooden frame and cells, the last candy's outline and the python's cells."""
    w, h = bucket["width"], bucket["height"]
    grid: list[str] = seat["grid"]
    gutter = MIN_FONT + 12 if labels else 0
    bx = x0 + gutter
    r = cell * 0.28
    d.rounded_rectangle((bx - 4, y0 - 4, bx + w * cell + 4, y0 + h * cell + 6), radius=max(3, cell // 5),
                        fill=WOOD, outline=WOOD_EDGE, width=2)
    for y in range(h):
        row = h - y
        for x in range(w):
            box = _cell_box(bx, y0, cell, x + 1, row, h)
            ch = grid[y][x]
            if ch == ".":
                d.rectangle(box, fill=EMPTY_CELL, outline=GRID_LINE)
            elif ch == "#":
                d.rectangle(box, fill=PREFILL, outline=GRID_LINE)
                d.line((box[0] + 3, box[3] - 3, box[2] - 3, box[1] + 3), fill=(90, 84, 100), width=max(1, cell // 8))
            else:
                rgb = CANDY[ch]
                d.rectangle(box, fill=rgb, outline=GRID_LINE)
                if cell >= 12:
                    draw_mark(d, (box[0] + box[2]) / 2, (box[1] + box[3]) / 2, r, ch, _ink_on(rgb))
    if last:
        filled = [(c, r) for c, r in last if 1 <= r <= h and 1 <= c <= w and grid[h - r][c - 1] in CANDY]
        cells = set(filled)
        k = max(3, cell // 8)
        for col, row in filled:  # the outline of the piece: each cell side not shared with another of its cells
            x0c, y0c, x1c, y1c = _cell_box(bx, y0, cell, col, row, h)
            if (col, row + 1) not in cells:
                d.line((x0c, y0c, x1c, y0c), fill=INK, width=k)
            if (col, row - 1) not in cells:
                d.line((x0c, y1c, x1c, y1c), fill=INK, width=k)
            if (col - 1, row) not in cells:
                d.line((x0c, y0c, x0c, y1c), fill=INK, width=k)
            if (col + 1, row) not in cells:
                d.line((x1c, y0c, x1c, y1c), fill=INK, width=k)
    if python_cells:
        for col, row in python_cells:
            box = _cell_box(bx, y0, cell, col, row, h)
            d.rectangle(box, outline=(120, 230, 120), width=max(2, cell // 10))


def _bucket_highlight(d: ImageDraw.ImageDraw, bx: int, y0: int, cell: int, bucket: dict[str, Any],
                      highlight: list[list[int]], highlight_colour: str | None) -> None:
    """`draw_bucket`'s previewed candy: inside the cells (`bx` is their left edge), so it may be drawn
    over a stamp of the rest (`_stamp`)."""
    h = bucket["height"]
    r = cell * 0.28
    base_rgb = CANDY.get(highlight_colour or "", HIGHLIGHT)
    rgb = (base_rgb[0] // 2 + 128, base_rgb[1] // 2 + 128, base_rgb[2] // 2 + 128)
    for col, row in highlight:
        box = _cell_box(bx, y0, cell, col, row, h)
        d.rectangle(box, fill=rgb, outline=HIGHLIGHT, width=max(2, cell // 8))
        if highlight_colour in CANDY and cell >= 12:
            draw_mark(d, (box[0] + box[2]) / 2, (box[1] + box[3]) / 2, r, highlight_colour, _ink_on(rgb))


def _bucket_rows(d: ImageDraw.ImageDraw, x0: int, y0: int, cell: int, seat: dict[str, Any], bucket: dict[str, Any],
                 labels: bool) -> None:
    """`draw_bucket`'s favourite-colour boxes right of the cells (they meet no cell), and its numbers."""
    _bucket_boxes(d, x0=x0, y0=y0, cell=cell, seat=seat, bucket=bucket, labels=labels)
    if labels:
        _bucket_numbers(d, x0=x0, y0=y0, cell=cell, bucket=bucket, rows=True)
        _bucket_numbers(d, x0=x0, y0=y0, cell=cell, bucket=bucket, rows=False)


def _bucket_boxes(d: ImageDraw.ImageDraw, _canvas: Image.Image | None = None, *, x0: int, y0: int, cell: int,
                  seat: dict[str, Any], bucket: dict[str, Any], labels: bool) -> None:
    """The favourite-colour boxes, ticked or marked."""
    w, h = bucket["width"], bucket["height"]
    gutter = MIN_FONT + 12 if labels else 0
    bx = x0 + gutter
    fx = bx + w * cell + 8
    for y in range(h):
        row = h - y
        colour = bucket["row_colours"][row - 1]
        box = (fx, y0 + y * cell + 2, fx + cell - 4, y0 + (y + 1) * cell - 2)
        ticked = seat["ticks"][row - 1]
        d.rounded_rectangle(box, radius=max(2, cell // 6), fill=CANDY[colour] if ticked else PANEL,
                            outline=CANDY[colour], width=max(2, cell // 10))
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        if ticked:
            s = (box[2] - box[0]) * 0.32
            d.line((cx - s, cy, cx - s * 0.2, cy + s * 0.8, cx + s, cy - s * 0.8), fill=_ink_on(CANDY[colour]),
                   width=max(2, cell // 8))
        else:
            draw_mark(d, cx, cy, (box[2] - box[0]) * 0.3, colour, CANDY[colour])


def _bucket_numbers(d: ImageDraw.ImageDraw, _canvas: Image.Image | None = None, *, x0: int, y0: int, cell: int,
                    bucket: dict[str, Any], rows: bool) -> None:
    """The row numbers left of the cells (`rows`), or the column numbers under them."""
    w, h = bucket["width"], bucket["height"]
    gutter = MIN_FONT + 12
    bx = x0 + gutter
    if rows:
        for y in range(h):
            text_center(d, (x0 + gutter / 2 - 2, y0 + y * cell + cell / 2), str(h - y), MIN_FONT, MUTED)
    else:
        for x in range(w):
            text_center(d, (bx + x * cell + cell / 2, y0 + h * cell + 10 + MIN_FONT / 2), str(x + 1), MIN_FONT, MUTED)


STAMP_MARGIN = 8  # even: Pillow's rounding moves with the shapes only under an even shift
STAMPS = 32  # thumbnail stamps kept per process: a panel's previews, and the same panel re-rendered


def _thumb_stamp(seat: dict[str, Any], bucket: dict[str, Any], python: list[list[int]] | None,
                 parity: tuple[int, int]) -> tuple[Image.Image, Image.Image]:
    """A small bucket without its preview, as a tile and the mask of the pixels it paints: a panel's
    thumbnails differ only in their preview, so the rest is drawn once, not four to eight times."""
    key = (tuple(seat["grid"]), tuple(seat["ticks"]), tuple(bucket["row_colours"]), bucket["width"],
           bucket["height"], tuple(map(tuple, python or ())), parity)
    return _stamp(key)


@lru_cache(maxsize=STAMPS)
def _stamp(key: tuple[Any, ...]) -> tuple[Image.Image, Image.Image]:
    grid, ticks, row_colours, w, h, python, parity = key
    seat = {"grid": list(grid), "ticks": list(ticks)}
    bucket = {"width": w, "height": h, "row_colours": list(row_colours)}
    tw, th = bucket_size(THUMB_CELL, False)
    size = (tw + 2 * STAMP_MARGIN + 2, th + 2 * STAMP_MARGIN + 2)
    tiles = []
    # drawn on two grounds (the frame's wood, which the panel has, so `paste` adds no colour; and one
    # no bucket paints): where the two agree, the bucket painted
    for ground in (WOOD, OFF_GROUND):
        tile = new_canvas(*size, ground, colours=(WOOD, OFF_GROUND))
        d = draw_on(tile)
        x0, y0 = STAMP_MARGIN + parity[0], STAMP_MARGIN + parity[1]
        _bucket_cells(d, x0, y0, THUMB_CELL, seat, bucket, [list(c) for c in python] or None, False, None)
        _bucket_rows(d, x0, y0, THUMB_CELL, seat, bucket, False)
        tiles.append(tile)
    a, b = (Image.frombytes("L", size, t.tobytes()) for t in tiles)
    mask = ImageChops.difference(a, b).point(_PAINTED)
    return tiles[0], mask


OFF_GROUND = (1, 2, 3)
_PAINTED = [255] + [0] * 255  # the difference of the two grounds' tiles -> where the bucket painted


def _draw_thumb(d: ImageDraw.ImageDraw, img: Image.Image, x0: int, y0: int, seat: dict[str, Any],
                bucket: dict[str, Any], highlight: list[list[int]], candy: str | None,
                python: list[list[int]] | None) -> None:
    """`draw_bucket(..., THUMB_CELL, labels=False)` with its frame and cells from `_thumb_stamp`."""
    tile, mask = _thumb_stamp(seat, bucket, python, (x0 % 2, y0 % 2))
    paste(img, tile, (x0 - x0 % 2 - STAMP_MARGIN, y0 - y0 % 2 - STAMP_MARGIN), mask)
    if highlight:
        _bucket_highlight(d, x0, y0, THUMB_CELL, bucket, highlight, candy)


# -- cards ------------------------------------------------------------------------------------------


def draw_card(d: ImageDraw.ImageDraw, x0: int, y0: int, cid: str, card: dict[str, Any], w: int, h: int,
              *, lit: bool = False) -> None:
    """A candy card: its colour, mark and id on top, the shape, the symbols at the bottom."""
    rgb = CANDY[card["colour"]]
    dark = tuple(int(c * 0.45) + 20 for c in rgb)
    d.rounded_rectangle((x0, y0, x0 + w, y0 + h), radius=10, fill=dark, outline=HIGHLIGHT if lit else rgb, width=3)
    d.text((x0 + 8, y0 + 6), cid, font=font(MIN_FONT, True), fill=INK)
    draw_mark(d, x0 + w - 18, y0 + 18, 11, card["colour"], rgb)
    cells = card["cells"]
    cw = max(x for x, _ in cells) + 1
    ch = max(y for _, y in cells) + 1
    area_top = y0 + MIN_FONT + 14
    area_h = h - (MIN_FONT + 14) - 30
    size = max(6, min((w - 24) // max(cw, 3), area_h // max(ch, 3)))
    sx = x0 + (w - cw * size) // 2
    sy = area_top + (area_h - ch * size) // 2
    for x, y in cells:
        d.rectangle((sx + x * size, sy + y * size, sx + (x + 1) * size - 1, sy + (y + 1) * size - 1),
                    fill=rgb, outline=DARK, width=max(1, size // 10))
    syms = card["symbols"]
    if syms:
        r = 11
        total = len(syms) * 2.4 * r
        _symbols(d, x0 + (w - total) / 2, y0 + h - r - 6, r, syms)


def _pile_strip(d: ImageDraw.ImageDraw, x0: int, y0: int, width: int, pile: list[str], down: list[str],
                cards: dict[str, Any]) -> int:
    """Scoring cards as chips (colour, mark, symbols; no text), the newest lit; returns the height."""
    chip_w, chip_h, gap = 60, 30, 5
    per_row = max(1, (width + gap) // (chip_w + gap))
    items = [(c, True) for c in pile] + [(c, False) for c in down]
    for i, (cid, up) in enumerate(items):
        r, k = divmod(i, per_row)
        x = x0 + k * (chip_w + gap)
        y = y0 + r * (chip_h + gap)
        if not up:  # a card turned face down (it scores nothing): a red cross
            d.rounded_rectangle((x, y, x + chip_w, y + chip_h), radius=5, fill=(30, 26, 40), outline=DANGER, width=2)
            d.line((x + 20, y + 6, x + 40, y + chip_h - 6), fill=DANGER, width=3)
            d.line((x + 40, y + 6, x + 20, y + chip_h - 6), fill=DANGER, width=3)
            continue
        card = cards[cid]
        rgb = CANDY[card["colour"]]
        top = i == len(pile) - 1
        d.rounded_rectangle((x, y, x + chip_w, y + chip_h), radius=5, fill=rgb,
                            outline=HIGHLIGHT if top else GRID_LINE, width=3 if top else 1)
        draw_mark(d, x + 13, y + chip_h / 2, 8, card["colour"], _ink_on(rgb))
        if card["symbols"]:
            _symbols(d, x + 24, y + chip_h / 2, 8, card["symbols"][:2])
    rows = (len(items) + per_row - 1) // per_row
    return rows * (chip_h + gap)


def _tokens(d: ImageDraw.ImageDraw, x: float, y: float, seat: dict[str, Any]) -> float:
    """Pumpkins and candles as icon × count at `y` (centre line); returns the x after them."""
    _pumpkin(d, x + 12, y, 12)
    d.text((x + 28, y), f"×{seat['pumpkins']}", font=font(MIN_FONT, True), fill=ACCENT, anchor="lm")
    x += 28 + text_width(f"×{seat['pumpkins']}", MIN_FONT, True) + 14
    _candle(d, x + 8, y, 12)
    d.text((x + 22, y), f"×{seat['candles']}", font=font(MIN_FONT, True), fill=(235, 225, 200), anchor="lm")
    return x + 22 + text_width(f"×{seat['candles']}", MIN_FONT, True)


# -- the shared top ---------------------------------------------------------------------------------


def _ranking(view: dict[str, Any]) -> list[int]:
    """The winners of a finished game (highest total, then the higher round 3 score, as the rules)."""
    def key(s: dict[str, Any]) -> tuple[int, int]:
        rs = s["round_scores"]
        return (int(s["total"]), int(rs[2]["total"]) if len(rs) > 2 else 0)

    best = max(key(s) for s in view["seats"])
    return [s["seat"] for s in view["seats"] if key(s) == best]


def _headline(view: dict[str, Any]) -> tuple[str, RGB]:
    """Who won (a finished game) or whom the table waits for: the line an async player reads first."""
    if view["phase"] == "over":
        winners = _ranking(view)
        points = view["seats"][winners[0]]["total"]
        which = "wins" if len(winners) == 1 else "share"
        return label(which).format(names=_names(view, winners), points=points), HIGHLIGHT
    waiting = [s["seat"] for s in view["seats"] if s["awaiting"]]
    which = "waiting_pick" if view["phase"] == "pick" else "waiting_place"
    return label(which).format(names=_names(view, waiting)), INK


def _header(d: ImageDraw.ImageDraw, view: dict[str, Any], title: str, public: bool) -> int:
    d.rectangle((0, 0, WIDTH, 60), fill=PANEL)
    if view["phase"] == "over":
        info = label("over")
    else:
        arrow = "←" if view["direction"] == "left" else "→"
        direction = label("left") if view["direction"] == "left" else label("right")
        info = label("round").format(round=view["round"], step=view["step"], direction=direction, arrow=arrow)
    d.text((WIDTH - 20, 30), info, font=font(26, True), fill=INK, anchor="rm")
    d.text((20, 30), _fit(title, 32, WIDTH - 60 - text_width(info, 26, True)), font=font(32, True), fill=ACCENT,
           anchor="lm")
    y = 70
    if public:
        text, colour = _headline(view)
        y = int(_lines(d, 20, y, WIDTH - 40, text, 26, colour, max_lines=2))
    adv = view.get("advanced_now")
    if adv:
        lang = drawing_lang()
        name = term(lang, f"sweets_stack.{adv['id']}", tr(lang, adv["name"]))
        text = term(lang, f"sweets_stack.{adv['id']}.text", tr(lang, adv["text"]))
        y = int(_lines(d, 20, y, WIDTH - 40, label("advanced").format(name=name, text=text), MIN_FONT, HIGHLIGHT)) + 2
    return y


def _legend(d: ImageDraw.ImageDraw, y: int) -> None:
    """The colours' marks, named (the key to every bucket): the same on every board, drawn once."""
    canvas = d._image
    drawn_once(canvas, d, (0, y - 20, canvas.width, y + 20), ("legend",), partial(_legend_drawn, y=y))


def _legend_drawn(d: ImageDraw.ImageDraw, _canvas: Image.Image, *, y: int) -> None:
    x = 20.0
    for c in "BYGR":
        d.rounded_rectangle((x, y - 14, x + 28, y + 14), radius=5, fill=CANDY[c])
        draw_mark(d, x + 14, y, 9, c, _ink_on(CANDY[c]))
        word = label(f"legend_{c}")
        d.text((x + 36, y), word, font=font(MIN_FONT), fill=MUTED, anchor="lm")
        x += 36 + text_width(word, MIN_FONT) + 26


# -- public board -----------------------------------------------------------------------------------


TABLE_SCRATCH = 1140  # the tall canvas the table is drawn on before it is cut to its content
TABLE_FOOT = 60  # rows at the bottom that depend on the final height (panel ends, legend)
MIN_HEIGHT = 560


def render_table(view: dict[str, Any], lang: Lang = SOURCE) -> Image.Image:
    """The public board, its words in `lang`."""
    with drawing_in(lang):
        return _render_table(view)


def _render_table(view: dict[str, Any]) -> Image.Image:
    """Draw once on a tall canvas, cut it to the content's height and redraw only the foot.

    Only the panels' rounded bottom ends and the legend depend on the final height, and they lie
    below all content, so the foot strip is drawn on its own and pasted: the same picture as drawing
    at the final height, for half the cost of drawing the table twice.
    """
    img, bottom, top = _draw_table(view, TABLE_SCRATCH)
    height = max(bottom + TABLE_FOOT + 4, MIN_HEIGHT)
    if height > TABLE_SCRATCH:
        img, _, _ = _draw_table(view, height)
        return img
    img = img.crop((0, 0, img.width, height))
    foot = new_canvas(img.width, TABLE_FOOT, colours=KEEP)
    _table_frames(draw_on(foot), view, top - (height - TABLE_FOOT), TABLE_FOOT)
    paste(img, foot, (0, height - TABLE_FOOT))
    return img


def _columns(n: int) -> tuple[int, int]:
    """(column width, bucket cell) for `n` players side by side."""
    col = (WIDTH - 20) // n
    return col, min(40, (col - 40) // 9)


def _table_frames(d: ImageDraw.ImageDraw, view: dict[str, Any], top: int, height: int) -> None:
    """The seats' panel frames (from `top` to 48 px above `height`) and the legend under them."""
    col, _ = _columns(view["players"])
    for seat in view["seats"]:
        _seat_frame(d, view, 10 + seat["seat"] * col, top, height, col, seat)
    _legend(d, height - 24)


def _seat_frame(d: ImageDraw.ImageDraw, view: dict[str, Any], x0: int, top: int, height: int, col: int,
                seat: dict[str, Any]) -> None:
    lit = seat["awaiting"] and view["phase"] != "over"
    d.rounded_rectangle((x0 + 4, top, x0 + col - 4, height - 50), radius=12, fill=PANEL,
                        outline=HIGHLIGHT if lit else player_colour(seat["seat"]), width=5 if lit else 2)


def _seat_state(view: dict[str, Any], seat: dict[str, Any], winners: list[int]) -> tuple[str, RGB]:
    if view["phase"] == "over":
        if seat["seat"] in winners:
            return label("winner").format(total=seat["total"]), HIGHLIGHT
        return label("total").format(total=seat["total"]), INK
    if not seat["active"]:
        return label("out"), DANGER
    if view["phase"] == "pick":
        return (label("chosen"), GOOD) if seat["picked"] else (label("choosing"), HIGHLIGHT)
    return (label("placing"), HIGHLIGHT) if seat["awaiting"] else (label("placed"), GOOD)


def _draw_table(view: dict[str, Any], height: int) -> tuple[Image.Image, int, int]:
    """The table on a canvas of `height`; returns it, the content's bottom and the panels' top."""
    n = view["players"]
    col, cell = _columns(n)
    img = new_canvas(WIDTH, height, colours=KEEP)
    d = draw_on(img)
    y = _header(d, view, label("title"), public=True)
    cards = view["cards"]
    bucket = view["bucket"]
    adv = view.get("advanced_now")
    winners = _ranking(view) if view["phase"] == "over" else []
    last = _just_ended(view)
    top = y + 4
    bottom = top
    for seat in view["seats"]:
        i = seat["seat"]
        x0 = 10 + i * col
        room = col - 32
        _seat_frame(d, view, x0, top, height, col, seat)  # seat by seat: a long line of one seat runs under the next
        lx = x0 + 16
        state, colour = _seat_state(view, seat, winners)
        name = _fit(_name(view, i), 26, room - 42)
        state = _fit(state, MIN_FONT, room)
        drawn_once(img, d, (x0 + 13, top + 9, x0 + col - 13, top + 12 + 44 + MIN_FONT + 12 + 30),
                   ("seat top", i, name, state, colour, seat["pumpkins"], seat["candles"]),
                   partial(_seat_top, lx=lx, yy=top + 12, i=i, name=name, state=state, colour=colour, seat=seat))
        yy = top + 12 + 44 + MIN_FONT + 12 + 36
        bx = x0 + (col - bucket_size(cell, False)[0]) // 2
        python = adv["python_cells"] if adv and seat["python"] and adv.get("python_cells") else None
        _, bh = draw_bucket(d, bx, yy, cell, seat, bucket, python_cells=python, labels=False, last=seat.get("last"))
        if not seat["active"] and view["phase"] != "over":
            shade(img, (x0 + 8, yy, x0 + 8 + col - 16, yy + bh), (20, 10, 20), 110)
            text_center(d, (x0 + col / 2, yy + bh / 2), label("out_big"), 48, DANGER, True)
        yy += bh + 10
        inc = seat.get("incoming")
        if inc:
            giver = seat.get("giver")
            who = _name(view, giver) if giver is not None else "?"
            d.text((lx, yy), _fit(label("from").format(name=who), MIN_FONT, room), font=font(MIN_FONT, True),
                   fill=HIGHLIGHT)
            draw_card(d, lx, yy + MIN_FONT + 8, inc, cards[inc], min(170, room), 118, lit=True)
            yy += MIN_FONT + 8 + 118 + 10
        elif seat.get("swapped"):
            yy = int(_lines(d, lx, yy, room, label("swapped"), MIN_FONT, HIGHLIGHT, max_lines=2))
        if seat["no_rotation"] and view["phase"] != "over":
            _norot(d, lx + 12, yy + 13, 12)
            d.text((lx + 30, yy + 13), _fit(label("norot"), MIN_FONT, room - 30), font=font(MIN_FONT, True),
                   fill=DANGER, anchor="lm")
            yy += 34
        pile_text = label("pile").format(n=len(seat["pile"]), hand=seat["hand_count"], deck=seat["deck_count"])
        yy = int(_lines(d, lx, yy, room, pile_text, MIN_FONT, MUTED, bold=False, max_lines=2))
        yy += _pile_strip(d, lx, yy, room, seat["pile"], seat["down"], cards) + 6
        if len(seat["round_scores"]) > 1 or (seat["round_scores"] and view["phase"] == "over"):
            parts = " + ".join(str(r["total"]) for r in seat["round_scores"])
            text = label("rounds").format(parts=parts, total=seat["total"])
            yy = int(_lines(d, lx, yy, room, text, MIN_FONT, INK, max_lines=2))
        if last is not None:  # a round has just ended: its final bucket, before the new one fills up
            yy += _ended_round(d, lx, yy + 4, room, last, i, bucket) + 8
        bottom = max(bottom, yy)
    _legend(d, height - 24)
    return img, bottom, top


def _seat_top(d: ImageDraw.ImageDraw, _canvas: Image.Image, *, lx: int, yy: int, i: int, name: str, state: str,
              colour: RGB, seat: dict[str, Any]) -> None:
    """A board seat's top: its number, name, state line and tokens."""
    d.ellipse((lx, yy, lx + 34, yy + 34), fill=player_colour(i))
    text_center(d, (lx + 17, yy + 17), str(i + 1), MIN_FONT, DARK, True)
    d.text((lx + 42, yy + 17), name, font=font(26, True), fill=INK, anchor="lm")
    yy += 44
    d.text((lx, yy), state, font=font(MIN_FONT, True), fill=colour)
    yy += MIN_FONT + 12
    _tokens(d, lx, yy + 12, seat)


def _just_ended(view: dict[str, Any]) -> dict[str, Any] | None:
    """The previous round's record while the first cards of the next round are being chosen."""
    history = view.get("history") or []
    if view["phase"] == "pick" and view["step"] == 1 and history:
        last: dict[str, Any] = history[-1]
        return last
    return None


def _ended_round(d: ImageDraw.ImageDraw, x: int, y: int, room: int, record: dict[str, Any], i: int,
                 bucket: dict[str, Any]) -> int:
    """The round that just ended: its score, its parts and a small final bucket; returns the height."""
    sc = record["scores"][i]
    y0 = y
    y = int(_lines(d, x, y, room, label("ended").format(round=record["round"], total=sc["total"]), MIN_FONT,
                   HIGHLIGHT, max_lines=2))
    parts = label("ended_parts").format(base=sc["base"], fav=sc["favourite"], candle=sc["candle"])
    if sc.get("goblin"):
        parts += " " + label("goblin").format(goblin=f"{sc['goblin']:+d}")
    y = int(_lines(d, x, y, room, parts, MIN_FONT, INK, bold=False, max_lines=3))
    seat = {"grid": record["grids"][i], "ticks": record["ticks"][i]}
    _, h = draw_bucket(d, x, y + 4, 12, seat, bucket, labels=False)
    return y + 4 + h - y0


# -- private panel ----------------------------------------------------------------------------------

PANEL_CELL = 46
THUMB_CELL = 13
THUMBS = 4  # previews per group (free, rotated): a handful, the rest in the panel's menus


def render_panel(view: dict[str, Any], lang: Lang = SOURCE) -> Image.Image:
    """A seat's panel, its words in `lang`."""
    with drawing_in(lang):
        return _render_panel(view)


def _render_panel(view: dict[str, Any]) -> Image.Image:
    """The seat's panel: own bucket (numbered, the selected place previewed), the candy to place,
    the hand, and a few resting places, free ones apart from the rotated ones."""
    seat_no = view["seat"]
    me = view["seats"][seat_no]
    you = view["you"]
    cards = view["cards"]
    bucket = view["bucket"]
    options = you.get("options") or []
    previews = sorted((o for o in options if "cells" in o), key=_place_key)
    img = new_canvas(WIDTH, 1140)
    d = draw_on(img)
    y = _header(d, view, label("you_title").format(name=_name(view, seat_no)), public=False)
    adv = view.get("advanced_now")
    python = adv["python_cells"] if adv and me["python"] and adv.get("python_cells") else None
    chosen = _selected(you, previews)
    inc = you.get("incoming")
    inc_colour: str | None = cards[inc]["colour"] if inc else None
    # left: own bucket, with the selected resting place previewed in it
    d.text((20, y + 6), label("your_bucket"), font=font(26, True), fill=INK)
    _tokens(d, 36 + text_width(label("your_bucket"), 26, True), y + 22, me)
    bw, bh = draw_bucket(d, 16, y + 48, PANEL_CELL, me, bucket, python_cells=python,
                         highlight=chosen["cells"] if chosen else None, highlight_colour=inc_colour,
                         last=me.get("last"))
    left_bottom = y + 48 + bh
    if chosen:
        caption = label("preview").format(where=_where(chosen, turned=True))
        left_bottom = int(_lines(d, 20, left_bottom + 4, bw, caption, MIN_FONT,
                                 ACCENT if chosen.get("turns") else HIGHLIGHT, max_lines=2))
    # right column: the candy to place or the pick, the hand, the receiver or the previews
    rx = 16 + bw + 34
    room = WIDTH - rx - 20
    ry = y + 6
    if inc:
        d.text((rx, ry), label("to_place"), font=font(26, True), fill=INK)
        draw_card(d, rx, ry + 38, inc, cards[inc], 190, 140, lit=True)
        fit = you.get("fit", {})
        end = _lines(d, rx + 206, ry + 44, room - 206, tr(drawing_lang(), fit.get("message", "")), MIN_FONT,
                     GOOD if fit.get("fits") else DANGER, max_lines=5)
        ry = max(ry + 38 + 140 + 16, int(end) + 8)
    elif view["phase"] == "pick" and me["active"]:
        if you.get("pick"):
            d.text((rx, ry), label("you_chose"), font=font(26, True), fill=INK)
            draw_card(d, rx, ry + 38, you["pick"], cards[you["pick"]], 190, 140, lit=True)
            _lines(d, rx + 206, ry + 60, room - 206, label("waiting_others"), MIN_FONT, MUTED, bold=False)
            ry += 38 + 140 + 16
        else:
            direction = label("left") if view["direction"] == "left" else label("right")
            ry = int(_lines(d, rx, ry, room, label("choose").format(direction=direction), MIN_FONT, HIGHLIGHT)) + 8
    elif not me["active"] and view["phase"] != "over":
        ry = int(_lines(d, rx, ry, room, label("you_out"), 26, DANGER)) + 8
    hand = you["hand"]
    if hand or view["phase"] != "over":
        d.text((rx, ry), label("hand").format(n=len(hand), deck=me["deck_count"]), font=font(MIN_FONT, True),
               fill=INK)
        ry += MIN_FONT + 12
        cw, chh = 160, 112
        per_row = max(1, (room + 12) // (cw + 12))
        for k, cid in enumerate(hand):
            r, c = divmod(k, per_row)
            draw_card(d, rx + c * (cw + 12), ry + r * (chh + 12), cid, cards[cid], cw, chh)
        ry += ((len(hand) + per_row - 1) // per_row) * (chh + 12) + 6
    if view["phase"] == "pick" and me["active"]:
        to = _receiver(view, seat_no)
        if to != seat_no:
            ry = int(_lines(d, rx, ry, room, label("goes_to").format(name=_name(view, to)), MIN_FONT, INK,
                            max_lines=1)) + 4
            other = view["seats"][to]
            python_o = adv["python_cells"] if adv and other["python"] and adv.get("python_cells") else None
            _, oh = draw_bucket(d, rx, ry + 4, 24, other, bucket, python_cells=python_o, labels=False)
            ry += oh + 10
    if previews:
        free = [o for o in previews if not o.get("turns")]
        paid = [o for o in previews if o.get("turns")]
        for group, key, colour in ((free, "free", HIGHLIGHT), (paid, "rotated", ACCENT)):
            if not group:
                continue
            ry = _thumbs(d, img, rx, ry, room, group, label(key).format(n=len(group)), colour, chosen, me, bucket,
                         inc_colour, python)
    bottom = max(left_bottom, ry) + 16
    return img.crop((0, 0, WIDTH, max(bottom, MIN_HEIGHT)))


def _thumbs(d: ImageDraw.ImageDraw, img: Image.Image, x: int, y: int, room: int, group: list[dict[str, Any]],
            title: str, colour: RGB, chosen: dict[str, Any] | None, me: dict[str, Any], bucket: dict[str, Any],
            candy: str | None, python: list[list[int]] | None) -> int:
    """A titled row of at most THUMBS resting-place previews (the selected one among them, lit),
    captioned in words; "+N more" when the menu holds others. Returns the y under it."""
    d.text((x, y), _fit(title, MIN_FONT, room), font=font(MIN_FONT, True), fill=colour)
    y += MIN_FONT + 10
    shown = group[:THUMBS]
    if chosen in group and chosen not in shown:
        shown = [*group[: THUMBS - 1], chosen]
    slot = room // THUMBS
    tw, th = bucket_size(THUMB_CELL, False)
    for k, opt in enumerate(shown):
        px = x + k * slot
        if opt is chosen:
            lines = 2 if opt.get("turns") else 1
            d.rounded_rectangle((px - 4, y - 4, px + slot - 8, y + th + lines * (MIN_FONT + 8) + 8), radius=8,
                                outline=HIGHLIGHT, width=3)
        _draw_thumb(d, img, px + (slot - 12 - tw) // 2, y + 2, me, bucket, opt["cells"], candy, python)
        text_center(d, (px + (slot - 12) / 2, y + th + 6 + MIN_FONT / 2), _fit(_where(opt), MIN_FONT, slot - 16),
                    MIN_FONT, colour, True)
        if opt.get("turns"):
            turned = label("turned").format(degrees=90 * int(opt["turns"]))
            text_center(d, (px + (slot - 12) / 2, y + th + 14 + MIN_FONT * 1.5), turned, MIN_FONT, colour)
    y += th + MIN_FONT + 22 + (MIN_FONT + 8 if any(o.get("turns") for o in shown) else 0)
    if len(group) > len(shown):
        d.text((x, y), label("more").format(n=len(group) - len(shown)), font=font(MIN_FONT), fill=MUTED)
        y += MIN_FONT + 12
    return y + 4


def _where(opt: dict[str, Any], turned: bool = False) -> str:
    """"row 5, col 4": the resting place in words (its lowest row, leftmost column), as the menus say;
    `turned` puts the paid rotation first ("turned 90°, row 5, col 4")."""
    m = re.search(r"r(\d+) c(\d+)", str(opt.get("action", "")))
    if m is None:
        return str(opt.get("action", ""))
    where = label("where").format(row=m[1], col=m[2])
    if turned and opt.get("turns"):
        return label("turned").format(degrees=90 * int(opt["turns"])) + label("comma") + where
    return where


def _receiver(view: dict[str, Any], seat: int) -> int:
    """The next seat still in the round in the passing direction (public information)."""
    n: int = view["players"]
    step = 1 if view["direction"] == "left" else -1
    nxt: int = (seat + step) % n
    while not view["seats"][nxt]["active"] and nxt != seat:
        nxt = (nxt + step) % n
    return nxt


def _selected(you: dict[str, Any], previews: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The previewed resting place: the one the panel selected, else the leftmost upright one."""
    if not previews:
        return None
    for opt in previews:
        if opt["action"] == you.get("selected"):
            return opt
    return min(previews, key=_place_key)


def _place_key(o: dict[str, Any]) -> tuple[int, int, int]:
    """Upright first, then by rotation, left to right, low to high (the panel's ◀ ▶ order)."""
    return (int(o.get("turns", 0)), min(c for c, _ in o["cells"]), min(r for _, r in o["cells"]))


def render(view: dict[str, Any], lang: Lang = SOURCE) -> Image.Image:
    """The channel board for the public view, the private panel for a seat's view, in `lang` (the
    table's language for the board, the reader's for a panel)."""
    if view.get("seat") is None or "you" not in view:
        return render_table(view, lang)
    return render_panel(view, lang)
