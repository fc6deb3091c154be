"""Sweets Stack images, drawn only from a view.

Public view -> every bucket side by side (favourite colours, ticks, pumpkins, candles, scoring cards,
the revealed candy each receiver is placing). A seat's view -> that player's panel: hand, own bucket,
the incoming candy with the fit message and a preview of every resting place it can reach.
Colours always carry their letter (B/Y/G/R) for colour-blind players.
"""

from __future__ import annotations

import re
from typing import Any

from PIL import Image, ImageDraw

from rendering.base import (
    ACCENT,
    BASE_COLOURS,
    DANGER,
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    draw_on,
    font,
    new_canvas,
    player_colour,
    text_center,
    to_palette,
)

RGB = tuple[int, int, int]
CANDY: dict[str, RGB] = {  # Okabe-Ito colours, each drawn with its letter
    "B": (0, 114, 178),
    "Y": (240, 228, 66),
    "G": (0, 158, 115),
    "R": (213, 94, 0),
}
CANDY_NAME = {"B": "blue", "Y": "yellow", "G": "green", "R": "red"}
EMPTY_CELL: RGB = (60, 52, 76)
PREFILL: RGB = (120, 112, 130)
GRID_LINE: RGB = (34, 29, 44)
GOOD: RGB = (90, 200, 120)
# Flat colours kept exact by the palette (see rendering.base.to_palette).
KEEP: tuple[RGB, ...] = (
    *BASE_COLOURS,
    *CANDY.values(),
    *((int(r * 0.45) + 20, int(g * 0.45) + 20, int(b * 0.45) + 20) for r, g, b in CANDY.values()),
    *((r // 2 + 128, g // 2 + 128, b // 2 + 128) for r, g, b in CANDY.values()),
    EMPTY_CELL,
    PREFILL,
    GRID_LINE,
    GOOD,
    (90, 70, 50),
    (160, 120, 80),
    (90, 84, 100),
    (120, 230, 120),
    (20, 16, 28),
    (120, 60, 0),
    (60, 150, 60),
    (240, 240, 250),
    (120, 90, 0),
    (30, 26, 40),
    (235, 225, 200),
)


def _ink_on(rgb: RGB) -> RGB:
    return (20, 16, 28) if sum(rgb) > 420 else INK


# -- icons ------------------------------------------------------------------------------------------


def _pumpkin(d: ImageDraw.ImageDraw, x: float, y: float, r: float) -> None:
    d.ellipse((x - r, y - r * 0.8, x + r, y + r * 0.8), fill=ACCENT, outline=(120, 60, 0))
    d.line((x, y - r * 0.8, x, y - r * 0.2), fill=(120, 60, 0), width=max(1, int(r / 5)))
    d.rectangle((x - r * 0.15, y - r * 1.15, x + r * 0.15, y - r * 0.75), fill=(60, 150, 60))


def _ghost(d: ImageDraw.ImageDraw, x: float, y: float, r: float) -> None:
    d.pieslice((x - r * 0.8, y - r, x + r * 0.8, y + r * 0.6), 180, 360, fill=(240, 240, 250))
    d.rectangle((x - r * 0.8, y - r * 0.2, x + r * 0.8, y + r * 0.7), fill=(240, 240, 250))
    e = max(1.0, r * 0.18)
    d.ellipse((x - r * 0.4 - e, y - r * 0.3 - e, x - r * 0.4 + e, y - r * 0.3 + e), fill=(20, 16, 28))
    d.ellipse((x + r * 0.4 - e, y - r * 0.3 - e, x + r * 0.4 + e, y - r * 0.3 + e), fill=(20, 16, 28))


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


# -- buckets ----------------------------------------------------------------------------------------


def _cell_box(x0: int, y0: int, cell: int, col: int, row: int, h: int) -> tuple[int, int, int, int]:
    x = x0 + (col - 1) * cell
    y = y0 + (h - row) * cell
    return (x, y, x + cell, y + cell)


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
) -> tuple[int, int]:
    """A bucket with favourite boxes on the right; returns its (width, height) in pixels."""
    w, h = bucket["width"], bucket["height"]
    grid: list[str] = seat["grid"]
    small = cell < 24
    fsize = max(9, int(cell * 0.42))
    gutter = 0 if not labels else int(cell * 0.6)
    bx = x0 + gutter
    # bucket body
    d.rounded_rectangle((bx - 4, y0 - 4, bx + w * cell + 4, y0 + h * cell + 6), radius=max(3, cell // 5),
                        fill=(90, 70, 50), outline=(160, 120, 80), width=2)
    for y in range(h):
        row = h - y
        for x in range(w):
            box = _cell_box(bx, y0, cell, x + 1, row, h)
            ch = grid[y][x]
            if ch == ".":
                d.rectangle(box, fill=EMPTY_CELL, outline=GRID_LINE)
            elif ch == "#":
                d.rectangle(box, fill=PREFILL, outline=GRID_LINE)
                if not small:
                    for k in range(0, cell, max(4, cell // 4)):
                        d.line((box[0] + k, box[1], box[0], box[1] + k), fill=(90, 84, 100), width=1)
                        d.line((box[2], box[1] + k, box[0] + k, box[3]), fill=(90, 84, 100), width=1)
            else:
                rgb = CANDY[ch]
                d.rectangle(box, fill=rgb, outline=GRID_LINE)
                if not small:
                    d.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), ch, font=font(fsize, True),
                           fill=_ink_on(rgb), anchor="mm")
    if python_cells:
        for col, row in python_cells:
            box = _cell_box(bx, y0, cell, col, row, h)
            d.rectangle(box, outline=(120, 230, 120), width=max(1, cell // 10))
            if not small:
                centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
                text_center(d, centre, "~", fsize, (120, 230, 120), True)
    if highlight:
        base = CANDY.get(highlight_colour or "", HIGHLIGHT)
        rgb = (base[0] // 2 + 128, base[1] // 2 + 128, base[2] // 2 + 128)
        for col, row in highlight:
            box = _cell_box(bx, y0, cell, col, row, h)
            d.rectangle(box, fill=rgb, outline=HIGHLIGHT, width=max(2, cell // 8))
            if not small:
                d.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), highlight_colour or "?",
                       font=font(fsize, True), fill=_ink_on(rgb), anchor="mm")
    # favourite boxes
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
            s = (box[2] - box[0]) * 0.3
            ink = _ink_on(CANDY[colour])
            d.line((cx - s, cy, cx - s * 0.2, cy + s * 0.8, cx + s, cy - s * 0.8), fill=ink,
                   width=max(2, cell // 9))
            if not small:
                d.text((box[0] + 3, box[1] + 1), colour, font=font(max(8, fsize // 2 + 2), True), fill=ink)
        elif not small:
            text_center(d, (cx, cy), colour, fsize, CANDY[colour], True)
    if labels:
        lsize = max(10, int(cell * 0.34))
        for y in range(h):
            text_center(d, (x0 + gutter / 2 - 2, y0 + y * cell + cell / 2), str(h - y), lsize, MUTED)
        for x in range(w):
            below = y0 + h * cell + 8 + lsize / 2 + 2
            text_center(d, (bx + x * cell + cell / 2, below), str(x + 1), lsize, MUTED)
    total_h = h * cell + (int(cell * 0.34) + 14 if labels else 6)
    return gutter + w * cell + 8 + cell, total_h


# -- cards ------------------------------------------------------------------------------------------


def draw_card(d: ImageDraw.ImageDraw, x0: int, y0: int, cid: str, card: dict[str, Any], w: int, h: int,
              *, caption: str | None = None) -> None:
    """A candy card: colour background with its letter, the shape, the symbols and the card name."""
    rgb = CANDY[card["colour"]]
    dark = tuple(int(c * 0.45) + 20 for c in rgb)
    d.rounded_rectangle((x0, y0, x0 + w, y0 + h), radius=10, fill=dark, outline=rgb, width=3)
    name_size = max(11, w // 8)
    d.text((x0 + 8, y0 + 6), cid, font=font(name_size, True), fill=INK)
    letter = card["colour"]
    d.text((x0 + w - 8, y0 + 6), letter, font=font(name_size + 2, True), fill=rgb, anchor="ra")
    cells = card["cells"]
    cw = max(x for x, _ in cells) + 1
    ch = max(y for _, y in cells) + 1
    area_top = y0 + name_size + 14
    area_h = h - (name_size + 14) - (name_size + 16)
    size = max(6, min((w - 24) // max(cw, 3), area_h // max(ch, 3)))
    sx = x0 + (w - cw * size) // 2
    sy = area_top + (area_h - ch * size) // 2
    for x, y in cells:
        d.rectangle((sx + x * size, sy + y * size, sx + (x + 1) * size - 1, sy + (y + 1) * size - 1),
                    fill=rgb, outline=(20, 16, 28), width=max(1, size // 10))
    r = max(6, name_size // 2 + 2)
    syms = card["symbols"]
    if syms:
        total = len(syms) * 2.4 * r
        _symbols(d, x0 + (w - total) / 2, y0 + h - r - 8, r, syms)
    if caption:
        text_center(d, (x0 + w / 2, y0 + h + 14), caption, max(12, name_size), INK, True)


def _pile_strip(d: ImageDraw.ImageDraw, x0: int, y0: int, width: int, pile: list[str], down: list[str],
                cards: dict[str, Any]) -> int:
    """Scoring cards as small chips (colour letter + symbols), newest last; returns the height used."""
    chip_w, chip_h, gap = 56, 30, 4
    per_row = max(1, (width + gap) // (chip_w + gap))
    items = [(c, True) for c in pile] + [(c, False) for c in down]
    for i, (cid, up) in enumerate(items):
        r, k = divmod(i, per_row)
        x = x0 + k * (chip_w + gap)
        y = y0 + r * (chip_h + gap)
        if not up:
            d.rounded_rectangle((x, y, x + chip_w, y + chip_h), radius=5, fill=(30, 26, 40), outline=DANGER,
                                width=2)
            text_center(d, (x + chip_w / 2, y + chip_h / 2), "✗ down", 12, DANGER, True)
            continue
        card = cards[cid]
        rgb = CANDY[card["colour"]]
        top = i == len(pile) - 1
        d.rounded_rectangle((x, y, x + chip_w, y + chip_h), radius=5, fill=rgb,
                            outline=HIGHLIGHT if top else GRID_LINE, width=3 if top else 1)
        d.text((x + 5, y + chip_h / 2), card["colour"], font=font(14, True), fill=_ink_on(rgb), anchor="lm")
        syms = card["symbols"]
        if syms:
            _symbols(d, x + 17, y + chip_h / 2, 7, syms[:2])
    rows = (len(items) + per_row - 1) // per_row
    return rows * (chip_h + gap)


def _tokens(d: ImageDraw.ImageDraw, x: int, y: int, seat: dict[str, Any]) -> None:
    _pumpkin(d, x + 12, y + 12, 11)
    d.text((x + 28, y + 12), f"×{seat['pumpkins']}", font=font(20, True), fill=ACCENT, anchor="lm")
    cx = x + 90
    d.rectangle((cx + 6, y + 6, cx + 16, y + 26), fill=(235, 225, 200))
    d.polygon([(cx + 11, y - 2), (cx + 7, y + 5), (cx + 15, y + 5)], fill=HIGHLIGHT)
    d.text((cx + 24, y + 12), f"×{seat['candles']}", font=font(20, True), fill=(235, 225, 200), anchor="lm")


def _seat_state(view: dict[str, Any], seat: dict[str, Any]) -> tuple[str, RGB]:
    if view["phase"] == "over":
        return f"total {seat['total']}", INK
    if not seat["active"]:
        return "OUT this round", DANGER
    if view["phase"] == "pick":
        return ("✓ card chosen", GOOD) if seat["picked"] else ("… choosing a card", HIGHLIGHT)
    if seat["awaiting"]:
        return "… placing a candy", HIGHLIGHT
    return "✓ placed", GOOD


def _header(d: ImageDraw.ImageDraw, view: dict[str, Any], width: int, title: str) -> int:
    d.rectangle((0, 0, width, 64), fill=PANEL)
    d.text((20, 14), title, font=font(30, True), fill=ACCENT)
    arrow = "←" if view["direction"] == "left" else "→"
    if view["phase"] == "over":
        info = "Game over"
    else:
        info = f"Round {view['round']}/3 · step {view['step']} · passing {view['direction']} {arrow}"
    d.text((width - 20, 20), info, font=font(22, True), fill=INK, anchor="ra")
    y = 72
    adv = view.get("advanced_now")
    if adv:
        y = _wrap(d, 20, y, width - 40, f"★ {adv['name']}: {adv['text']}", 18, HIGHLIGHT) + 2
    return y


# -- public board -----------------------------------------------------------------------------------


TABLE_SCRATCH = 1400  # the tall canvas the table is drawn on before it is cut to its content
TABLE_FOOT = 52  # rows at the bottom that depend on the final height (panel ends, status line)


def render_table(view: dict[str, Any]) -> Image.Image:
    """Draw once on a tall canvas, cut it to the content's height and redraw only the foot.

    Only the panels' rounded bottom ends (36 px above the bottom) and the status line depend on
    the final height, and they lie below all content (which ends 56 px above it), so the foot
    strip is drawn on its own and pasted: the same picture as drawing at the final height, for
    half the cost of drawing the table twice.
    """
    img, bottom, top = _draw_table(view, TABLE_SCRATCH)
    height = max(bottom + 56, 640)
    if height > TABLE_SCRATCH:
        img, _, _ = _draw_table(view, height)
        return to_palette(img, KEEP)
    img = img.crop((0, 0, img.width, height))
    foot = new_canvas(img.width, TABLE_FOOT)
    _table_frames(draw_on(foot), view, img.width, top - (height - TABLE_FOOT), TABLE_FOOT)
    img.paste(foot, (0, height - TABLE_FOOT))
    return to_palette(img, KEEP)


def _table_frames(d: ImageDraw.ImageDraw, view: dict[str, Any], width: int, top: int, height: int) -> None:
    """The seats' panel frames (from `top` to 36 px above `height`) and the bottom status line."""
    n = view["players"]
    x_off = (width - n * TABLE_COL) // 2
    for seat in view["seats"]:
        _seat_frame(d, x_off + seat["seat"] * TABLE_COL + 6, top, height, seat["seat"])
    _fit_line(d, 20, height - 8, width - 40, _named(view, view.get("status_line", view.get("status", ""))), 16,
              MUTED)


TABLE_COL = 330


def _seat_frame(d: ImageDraw.ImageDraw, x0: int, top: int, height: int, seat: int) -> None:
    d.rounded_rectangle((x0, top, x0 + TABLE_COL - 12, height - 36), radius=12, fill=PANEL,
                        outline=player_colour(seat), width=3)


def _draw_table(view: dict[str, Any], height: int) -> tuple[Image.Image, int, int]:
    """The table on a canvas of `height`; returns it, the content's bottom and the panels' top."""
    n = view["players"]
    cell = 34
    col_w = TABLE_COL
    width = max(900, n * col_w + 40)
    img = new_canvas(width, height)
    d = draw_on(img)
    y = _header(d, view, width, "Sweets Stack")
    cards = view["cards"]
    bucket = view["bucket"]
    adv = view.get("advanced_now")
    x_off = (width - n * col_w) // 2
    bottom = y
    for seat in view["seats"]:
        i = seat["seat"]
        x0 = x_off + i * col_w + 6
        top = y + 6
        pc = player_colour(i)
        _seat_frame(d, x0, top, height, i)  # seat by seat: a long line of one seat runs under the next
        d.ellipse((x0 + 12, top + 12, x0 + 44, top + 44), fill=pc)
        text_center(d, (x0 + 28, top + 28), str(i + 1), 20, (20, 16, 28), True)
        _fit_text(d, x0 + 54, top + 12, 100, _name(view, i), 22, INK)
        label, colour = _seat_state(view, seat)
        d.text((x0 + 54, top + 38), label, font=font(16, True), fill=colour)
        _tokens(d, x0 + 160, top + 14, seat)
        by = top + 70
        python = adv["python_cells"] if adv and seat["python"] and adv.get("python_cells") else None
        _, bh = draw_bucket(d, x0 + 8, by, cell, seat, bucket, python_cells=python)
        if not seat["active"] and view["phase"] != "over":
            overlay = Image.new("RGBA", (col_w - 12, bh), (0, 0, 0, 0))
            od = ImageDraw.Draw(overlay)
            od.rectangle((0, 0, col_w - 12, bh), fill=(20, 10, 20, 110))
            img.paste(overlay, (x0, by), overlay)
            text_center(d, (x0 + (col_w - 12) / 2, by + bh / 2), "OUT", 48, DANGER, True)
        yy = by + bh + 8
        inc = seat.get("incoming")
        if inc:
            giver = seat.get("giver")
            _fit_text(d, x0 + 12, yy, col_w - 36,
                      f"Placing (from {_name(view, giver) if giver is not None else '?'}):", 16, HIGHLIGHT)
            draw_card(d, x0 + 12, yy + 24, inc, cards[inc], 150, 110)
            yy += 140
        elif seat.get("swapped"):
            _fit_text(d, x0 + 12, yy, col_w - 36, "Swapped for a hand card (3 pumpkins)", 16, HIGHLIGHT)
            yy += 28
        if seat["no_rotation"]:
            _norot(d, x0 + 22, yy + 10, 9)
            d.text((x0 + 38, yy + 10), "no rotation now", font=font(15, True), fill=DANGER, anchor="lm")
            yy += 26
        d.text((x0 + 12, yy), f"Scoring cards ({len(seat['pile'])}) · hand {seat['hand_count']} · deck "
               f"{seat['deck_count']}", font=font(15), fill=MUTED)
        yy += 22
        yy += _pile_strip(d, x0 + 12, yy, col_w - 36, seat["pile"], seat["down"], cards) + 6
        if seat["round_scores"]:
            parts = " + ".join(str(r["total"]) for r in seat["round_scores"])
            d.text((x0 + 12, yy), f"Rounds: {parts} = {seat['total']}", font=font(17, True), fill=INK)
            yy += 26
        last = _just_ended(view)
        if last is not None:  # a round has just ended: its final bucket, before the new one fills up
            yy += _ended_round(d, x0 + 12, yy + 4, last, i, bucket) + 8
        bottom = max(bottom, yy)
    _fit_line(d, 20, height - 8, width - 40, _named(view, view.get("status_line", view.get("status", ""))), 16,
              MUTED)
    return img, bottom, y + 6


def _just_ended(view: dict[str, Any]) -> dict[str, Any] | None:
    """The previous round's record while the first cards of the next round are being chosen."""
    history = view.get("history") or []
    if view["phase"] == "pick" and view["step"] == 1 and history:
        last: dict[str, Any] = history[-1]
        return last
    return None


def _ended_round(d: ImageDraw.ImageDraw, x: int, y: int, record: dict[str, Any], i: int,
                 bucket: dict[str, Any]) -> int:
    """A small final bucket of the round that just ended with its score breakdown; returns the height."""
    seat = {"grid": record["grids"][i], "ticks": record["ticks"][i]}
    d.text((x, y), f"Round {record['round']} final bucket", font=font(15, True), fill=MUTED)
    _, h = draw_bucket(d, x, y + 24, 16, seat, bucket, labels=False)
    sc = record["scores"][i]
    tx = x + 150
    lines = [(f"{sc['base']} candies", INK), (f"+ {sc['favourite']} favourite", INK),
             (f"+ {sc['candle']} candles", INK)]
    if sc.get("goblin"):
        lines.append((f"{sc['goblin']:+d} goblin", DANGER))
    lines.append((f"= {sc['total']} points", HIGHLIGHT))
    for k, (text, colour) in enumerate(lines):
        d.text((tx, y + 30 + k * 22), text, font=font(16, True), fill=colour)
    return 24 + max(h, 30 + len(lines) * 22)


# -- private panel ----------------------------------------------------------------------------------


def render_panel(view: dict[str, Any]) -> Image.Image:
    seat_no = view["seat"]
    me = view["seats"][seat_no]
    you = view["you"]
    cards = view["cards"]
    bucket = view["bucket"]
    options = you.get("options") or []
    previews = sorted((o for o in options if "cells" in o), key=_place_key)
    width = 1280
    cols = 6
    pv_cell = 16
    pv_h = 8 * pv_cell + 44
    rows_pv = (min(len(previews), 30) + cols - 1) // cols
    height = 800 + rows_pv * pv_h
    img = new_canvas(width, height)
    d = draw_on(img)
    y = _header(d, view, width, f"Your candy · {_name(view, seat_no)}")
    adv = view.get("advanced_now")
    python = adv["python_cells"] if adv and me["python"] and adv.get("python_cells") else None
    chosen = _selected(you, previews)
    inc_colour: str | None = cards[you["incoming"]]["colour"] if you.get("incoming") else None
    # own bucket (left), with the selected resting place previewed in it
    d.text((20, y + 6), "Your bucket", font=font(22, True), fill=INK)
    _tokens(d, 200, y + 6, me)
    bw, bh = draw_bucket(d, 20, y + 44, 44, me, bucket, python_cells=python,
                         highlight=chosen["cells"] if chosen else None, highlight_colour=inc_colour)
    if chosen:
        caption = f"Preview {previews.index(chosen) + 1}/{len(previews)}: {chosen['action']}"
        text_center(d, (20 + bw / 2, y + 44 + bh + 14), caption, 20, ACCENT if chosen.get("turns") else HIGHLIGHT,
                    True)
        bh += 30
    # right column: incoming / hand
    rx = 20 + bw + 40
    ry = y + 6
    inc = you.get("incoming")
    if inc:
        d.text((rx, ry), "Candy to place", font=font(22, True), fill=INK)
        draw_card(d, rx, ry + 34, inc, cards[inc], 190, 150)
        fit = you.get("fit", {})
        msg = fit.get("message", "")
        colour = GOOD if fit.get("fits") else DANGER
        _wrap(d, rx + 210, ry + 40, width - rx - 230, msg, 19, colour)
        ry += 210
    elif view["phase"] == "pick" and me["active"]:
        if you.get("pick"):
            d.text((rx, ry), "You chose:", font=font(22, True), fill=INK)
            draw_card(d, rx, ry + 34, you["pick"], cards[you["pick"]], 190, 150)
            d.text((rx + 210, ry + 60), "Waiting for the others…", font=font(20), fill=MUTED)
            ry += 210
        else:
            _wrap(d, rx, ry, width - rx - 20, "Choose a card to pass "
                  f"{view['direction']} (your neighbour drops it into their bucket).", 20, HIGHLIGHT)
            ry += 60
    elif not me["active"] and view["phase"] != "over":
        d.text((rx, ry), "You are out of this round.", font=font(22, True), fill=DANGER)
        ry += 40
    d.text((rx, ry), f"Your hand ({len(you['hand'])}) · deck {me['deck_count']}", font=font(22, True),
           fill=INK)
    ry += 34
    cw, chh = 150, 118
    per_row = max(1, (width - rx - 10) // (cw + 12))
    for k, cid in enumerate(you["hand"]):
        r, c = divmod(k, per_row)
        draw_card(d, rx + c * (cw + 12), ry + r * (chh + 14), cid, cards[cid], cw, chh)
    ry += ((len(you["hand"]) + per_row - 1) // per_row) * (chh + 14)
    if view["phase"] == "pick" and me["active"]:
        to = _receiver(view, seat_no)
        if to != seat_no:
            d.text((rx, ry + 4), f"Your card goes to {_name(view, to)}:", font=font(20, True), fill=INK)
            other = view["seats"][to]
            python_o = adv["python_cells"] if adv and other["python"] and adv.get("python_cells") else None
            _, oh = draw_bucket(d, rx, ry + 38, 22, other, bucket, python_cells=python_o)
            ry += 38 + oh
    top_pv = max(y + 44 + bh + 16, ry + 10)
    if previews:
        d.text((20, top_pv), "Resting places (notation under each; rotated ones cost 2 pumpkins)",
               font=font(20, True), fill=INK)
        candy: str | None = cards[inc]["colour"] if inc else None
        py0 = top_pv + 34
        for k, opt in enumerate(previews[:30]):
            r, c = divmod(k, cols)
            px = 20 + c * 208
            pyy = py0 + r * pv_h
            if opt is chosen:
                d.rounded_rectangle((px - 6, pyy - 8, px + 196, pyy + pv_h - 10), radius=8, outline=HIGHLIGHT,
                                    width=3)
            draw_bucket(d, px, pyy, pv_cell, me, bucket, highlight=opt["cells"], highlight_colour=candy,
                        python_cells=python, labels=False)
            text_center(d, (px + 68, pyy + 8 * pv_cell + 20), opt["action"], 16,
                        ACCENT if opt.get("turns") else INK, True)
        if len(previews) > 30:
            d.text((20, py0 + rows_pv * pv_h), f"+{len(previews) - 30} more (see the menu)", font=font(16),
                   fill=MUTED)
        bottom = py0 + rows_pv * pv_h + 30
    else:
        bottom = top_pv + 10
    final_h = max(bottom, 560)
    return to_palette(img.crop((0, 0, width, min(height, final_h))), KEEP)


def _fit_line(d: ImageDraw.ImageDraw, x: int, y: int, width: int, text: str, size: int, fill: RGB) -> None:
    """One bottom-anchored line: shrink the font down to 12 px, then cut with an ellipsis."""
    while size > 12 and d.textlength(text, font=font(size)) > width:
        size -= 1
    while text and d.textlength(text, font=font(size)) > width:
        text = text[:-2] + "…"
    d.text((x, y), text, font=font(size), fill=fill, anchor="ld")


def _receiver(view: dict[str, Any], seat: int) -> int:
    """The next seat still in the round in the passing direction (public information)."""
    n: int = view["players"]
    step = 1 if view["direction"] == "left" else -1
    nxt: int = (seat + step) % n
    while not view["seats"][nxt]["active"] and nxt != seat:
        nxt = (nxt + step) % n
    return nxt


def _name(view: dict[str, Any], seat: int) -> str:
    """The player's name when the platform put names in the view, else 'Seat N'."""
    names = view.get("names") or []
    return str(names[seat]) if seat < len(names) and names[seat] else f"Seat {seat + 1}"


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


def _named(view: dict[str, Any], text: str) -> str:
    """'seat 2' / 'S2 14' -> the player's name, when the view carries names."""
    names = view.get("names") or []
    if not names:
        return text

    def sub(m: re.Match[str]) -> str:
        k = int(m.group(2) or m.group(3)) - 1
        return str(names[k]) if 0 <= k < len(names) else m.group(0)

    return re.sub(r"\b([Ss])eat (\d)\b|\bS(\d)\b(?= -?\d)", sub, text)


def _fit_text(d: ImageDraw.ImageDraw, x: int, y: int, width: int, text: str, size: int, fill: RGB) -> None:
    """One top-anchored bold line, shrunk (down to 12 px) and then cut to fit `width`."""
    while size > 12 and d.textlength(text, font=font(size, True)) > width:
        size -= 1
    while len(text) > 1 and d.textlength(text, font=font(size, True)) > width:
        text = text[:-2] + "…"
    d.text((x, y), text, font=font(size, True), fill=fill)


def _wrap(d: ImageDraw.ImageDraw, x: int, y: int, width: int, text: str, size: int, fill: RGB) -> int:
    f = font(size, True)
    words = text.split()
    line = ""
    for w in words:
        trial = f"{line} {w}".strip()
        if d.textlength(trial, font=f) > width and line:
            d.text((x, y), line, font=f, fill=fill)
            y += size + 6
            line = w
        else:
            line = trial
    if line:
        d.text((x, y), line, font=f, fill=fill)
        y += size + 6
    return y


def render(view: dict[str, Any]) -> Image.Image:
    """The channel board for the public view, the private panel for a seat's view."""
    if view.get("seat") is None or "you" not in view:
        return render_table(view)
    return render_panel(view)
