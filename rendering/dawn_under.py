"""Dawn Under board renderer: the cemetery, the path with its stakes, and every player's vampire row.

Pure: draws only from a view (public -> channel board; a seat's view -> that player's panel, which
also marks where their own garlic lies, with the option list_garlic=yes). Every colour also
carries its letter, so nothing depends on telling hues apart.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from rendering.base import (
    ACCENT,
    BACKGROUND,
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
    text_width,
    to_palette,
)

RGB = tuple[int, int, int]

VAMPIRE_RGB: dict[str, RGB] = {
    "R": (214, 48, 49),
    "Y": (240, 200, 40),
    "W": (236, 236, 236),
    "B": (52, 120, 220),
    "G": (40, 170, 80),
    "K": (20, 20, 24),
}
NAMES = {"R": "red", "Y": "yellow", "W": "white", "B": "blue", "G": "green", "K": "black"}
LID = (74, 70, 84)
LID_EDGE = (104, 98, 118)
GROUND = (36, 44, 34)
PATH = (120, 98, 70)
STAKE = (92, 58, 30)
GRAVE_HOLE = (18, 14, 20)

# Flat colours kept exact by the palette (see rendering.base.to_palette).
KEEP: tuple[RGB, ...] = (
    *BASE_COLOURS,
    *VAMPIRE_RGB.values(),
    LID,
    LID_EDGE,
    GROUND,
    PATH,
    STAKE,
    GRAVE_HOLE,
    (200, 190, 215),
    (54, 66, 50),
    (44, 40, 52),
    (60, 52, 74),
    (240, 236, 220),
    (128, 118, 110),
    (70, 62, 58),
    (90, 72, 50),
    (40, 24, 10),
    (16, 16, 16),
    (245, 245, 245),
    (30, 30, 30),
)

WIDTH = 1120
CELL = 112
GAP = 8
PATH_W = 72
MARGIN_X = (WIDTH - (8 * CELL + 6 * GAP + PATH_W)) // 2


def _ink_on(rgb: RGB) -> RGB:
    """Black or white text, whichever reads better on `rgb`."""
    r, g, b = rgb
    return (16, 16, 16) if (0.299 * r + 0.587 * g + 0.114 * b) > 140 else (245, 245, 245)


def _seat(seat: int, names: list[str] | None = None) -> str:
    """The player's name when the platform put names in the view, else "Seat N"."""
    if names and 0 <= seat < len(names):
        return str(names[seat])
    return f"Seat {seat + 1}"


def _named(text: str, names: list[str] | None) -> str:
    """Replace "Seat N" in a status line with the players' names, when known."""
    for i, name in enumerate(names or []):
        text = text.replace(f"Seat {i + 1}", str(name))
    return text


def _wrap(text: str, size: int, width: int, bold: bool = False) -> list[str]:
    lines: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if text_width(trial, size, bold) <= width or not line:
            line = trial
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines


def _cell_origin(col: int, row: int, top: int) -> tuple[int, int]:
    x = MARGIN_X + col * (CELL + GAP) + (PATH_W - GAP if col >= 4 else 0)
    y = top + row * (CELL + GAP) + (PATH_W - GAP if row >= 4 else 0)
    return x, y


def _bat(draw: ImageDraw.ImageDraw, cx: float, cy: float, w: float, fill: RGB) -> None:
    """The bat crest on a closed lid (a simple polygon)."""
    h = w * 0.45
    pts = [
        (cx - w / 2, cy - h * 0.2),
        (cx - w * 0.3, cy - h / 2),
        (cx - w * 0.12, cy - h * 0.1),
        (cx - w * 0.06, cy - h * 0.45),
        (cx, cy - h * 0.25),
        (cx + w * 0.06, cy - h * 0.45),
        (cx + w * 0.12, cy - h * 0.1),
        (cx + w * 0.3, cy - h / 2),
        (cx + w / 2, cy - h * 0.2),
        (cx + w * 0.3, cy + h * 0.05),
        (cx + w * 0.15, cy + h * 0.4),
        (cx, cy + h * 0.15),
        (cx - w * 0.15, cy + h * 0.4),
        (cx - w * 0.3, cy + h * 0.05),
    ]
    draw.polygon(pts, fill=fill)


def _vampire_token(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], code: str) -> None:
    """A vampire tile: colour, an outline that shows even for black or white, and its letter."""
    rgb = VAMPIRE_RGB.get(code, MUTED)
    draw.rounded_rectangle(box, radius=8, fill=rgb, outline=(200, 190, 215), width=2)
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    ink = _ink_on(rgb)
    size = int(min(x1 - x0, y1 - y0) * 0.55)
    text_center(draw, (cx, cy - size * 0.1), code, size, fill=ink, bold=True)
    # fangs, so a vampire never reads as a plain lid
    fy = y1 - (y1 - y0) * 0.16
    for dx in (-0.12, 0.12):
        fx = cx + (x1 - x0) * dx
        draw.polygon([(fx - 4, fy - 5), (fx + 4, fy - 5), (fx, fy + 5)], fill=ink)


def _garlic(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, seat: int) -> None:
    """A garlic bulb in its owner's colour, with the seat number on it."""
    rgb = player_colour(seat)
    draw.ellipse((cx - r, cy - r * 0.85, cx + r, cy + r), fill=(240, 236, 220), outline=rgb, width=5)
    draw.polygon(
        [(cx - r * 0.25, cy - r * 0.8), (cx + r * 0.25, cy - r * 0.8), (cx, cy - r * 1.35)], fill=rgb
    )
    text_center(draw, (cx, cy + r * 0.1), f"P{seat + 1}", int(r * 0.8), fill=(30, 30, 30), bold=True)


def _rat(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    draw.rounded_rectangle(
        (x, y, x + CELL, y + CELL), radius=12, fill=(128, 118, 110), outline=DANGER, width=5
    )
    cx, cy = x + CELL / 2, y + CELL / 2
    draw.ellipse((cx - 30, cy - 16, cx + 22, cy + 18), fill=(70, 62, 58))
    draw.ellipse((cx + 12, cy - 24, cx + 26, cy - 10), fill=(70, 62, 58))
    draw.line((cx - 30, cy + 6, cx - 46, cy + 20), fill=(70, 62, 58), width=4)
    text_center(draw, (cx, y + CELL - 16), "RAT", 20, fill=INK, bold=True)


def _grave_inside(
    draw: ImageDraw.ImageDraw, cell: dict[str, Any], x: int, y: int, blocked: bool, mine: int | None
) -> None:
    """Everything of a grave that lies inside its box (x..x+CELL): the lid or open grave and badges."""
    gid = str(cell["id"])
    state = cell["state"]
    box = (x, y, x + CELL, y + CELL)
    if state == "none":
        draw.rounded_rectangle(box, radius=12, fill=GROUND)
        for k in range(0, CELL, 16):
            draw.line((x + k, y + CELL - 4, x + k + 8, y + CELL - 12), fill=(54, 66, 50), width=2)
        return
    if state == "closed":
        draw.rounded_rectangle(box, radius=12, fill=LID, outline=LID_EDGE, width=3)
        _bat(draw, x + CELL / 2, y + 36, 58, (44, 40, 52))
        text_center(draw, (x + CELL / 2, y + CELL - 30), gid, 32, fill=INK, bold=True)
    else:
        lid = str(cell.get("lid"))
        if lid == "rat":
            _rat(draw, x, y)
        else:
            rgb = VAMPIRE_RGB.get(lid, MUTED)
            # an open grave: the lid's colour as a thick frame (with a light edge so black shows),
            # and as a corner tab carrying its letter
            draw.rounded_rectangle(box, radius=12, fill=GRAVE_HOLE, outline=(200, 190, 215), width=2)
            draw.rounded_rectangle(
                (x + 2, y + 2, x + CELL - 2, y + CELL - 2), radius=11, outline=rgb, width=9
            )
            draw.rounded_rectangle(
                (x + 11, y + 11, x + CELL - 11, y + CELL - 11), radius=6, outline=(200, 190, 215)
            )
            draw.rounded_rectangle(
                (x, y, x + 38, y + 34), radius=10, fill=rgb, outline=(200, 190, 215), width=2
            )
            text_center(draw, (x + 19, y + 17), lid, 22, fill=_ink_on(rgb), bold=True)
            holds = cell.get("holds")
            inner = (x + 30, y + 26, x + CELL - 30, y + CELL - 26)
            if isinstance(holds, dict) and "vampire" in holds:
                _vampire_token(draw, inner, str(holds["vampire"]))
            elif isinstance(holds, dict) and "garlic" in holds:
                _garlic(draw, x + CELL / 2, y + CELL / 2 + 4, 24, int(holds["garlic"]))
            else:
                found = cell.get("found")
                if isinstance(found, dict) and "garlic" in found:
                    _garlic(draw, x + CELL / 2, y + CELL / 2 + 2, 18, int(found["garlic"]))
                    text_center(draw, (x + CELL / 2, y + CELL - 22), "found", 16, fill=HIGHLIGHT, bold=True)
                else:
                    text_center(draw, (x + CELL / 2, y + CELL / 2 + 4), "empty", 20, fill=MUTED, bold=True)
            text_center(draw, (x + CELL - 22, y + 16), gid, 18, fill=INK, bold=True)
    if blocked:
        # a no-entry badge: the opponent opened this grave on their last turn
        bx, by = x + 6, y + CELL - 38
        draw.ellipse((bx, by, bx + 32, by + 32), fill=DANGER, outline=INK, width=2)
        draw.rectangle((bx + 7, by + 13, bx + 25, by + 19), fill=INK)
    if mine is not None and state == "closed":
        _garlic(draw, x + CELL - 20, y + 20, 14, mine)


def _grave_outside(
    draw: ImageDraw.ImageDraw, cell: dict[str, Any], x: int, y: int, marks: dict[str, set[str]]
) -> None:
    """What a grave draws outside its box: frames (ajar, plague surroundings, pending choice).

    They reach at most 7 px out, into the 8 px gap, and are drawn after every box: no frame
    touches another grave's box, so the picture is the same as drawing grave by grave.
    """
    gid = str(cell["id"])
    state = cell["state"]
    if state == "none":
        # the first furrow is 2 px wide and spills one pixel left of the box: draw it again here
        draw.line((x, y + CELL - 4, x + 8, y + CELL - 12), fill=(54, 66, 50), width=2)
        return
    if state == "ajar":
        # shown for this moment only: a dashed amber frame
        for k in range(0, CELL, 18):
            draw.line((x + k, y - 5, x + min(k + 10, CELL), y - 5), fill=ACCENT, width=4)
            draw.line((x + k, y + CELL + 4, x + min(k + 10, CELL), y + CELL + 4), fill=ACCENT, width=4)
    if gid in marks["around"] and state == "closed":
        draw.rounded_rectangle((x - 3, y - 3, x + CELL + 3, y + CELL + 3), radius=14, outline=DANGER, width=4)
    if gid in marks["pending"]:
        draw.rounded_rectangle(
            (x - 5, y - 5, x + CELL + 5, y + CELL + 5), radius=15, outline=HIGHLIGHT, width=5
        )


def _key(cell: dict[str, Any]) -> str:
    """A grave's view as canonical JSON: hashable, and every field the tile is drawn from."""
    return json.dumps(cell, sort_keys=True)


GRID_H = 8 * CELL + 6 * GAP + PATH_W
PATH_X = MARGIN_X + 4 * (CELL + GAP) - GAP  # the vertical path's left edge
PLAZA = 2 * CELL - 2 * PATH_W // 3


@lru_cache(maxsize=4)
def _grid_layer(stakes: int) -> Image.Image:
    """The cemetery without graves: the cross-shaped path, its plaza and the stakes lying there.

    Rows top-8 .. top+GRID_H+8 of a board, with the grid's top at y=8. It depends only on the
    stake count (a handful of values per game). Never drawn on after caching (renderers paste it).
    """
    top = 8
    img = new_canvas(WIDTH, GRID_H + 17, BACKGROUND)
    draw = draw_on(img)
    py = top + 4 * (CELL + GAP) - GAP
    draw.rectangle((PATH_X, top - 8, PATH_X + PATH_W, top + GRID_H + 8), fill=PATH)
    draw.rectangle((MARGIN_X - 8, py, MARGIN_X + 8 * CELL + 6 * GAP + PATH_W + 8, py + PATH_W), fill=PATH)
    pcx, pcy = PATH_X + PATH_W / 2, py + PATH_W / 2
    draw.ellipse(
        (pcx - PLAZA / 2, pcy - PLAZA / 2, pcx + PLAZA / 2, pcy + PLAZA / 2),
        fill=PATH,
        outline=(90, 72, 50),
        width=3,
    )
    _stakes(draw, pcx, pcy - 6, stakes)
    text_center(draw, (pcx, pcy + PLAZA / 2 - 22), f"{stakes} stakes", 18, fill=INK, bold=True)
    return img


def _near_plaza(col: int, row: int) -> bool:
    """Whether a grave's box overlaps the plaza, where the stakes and their count are drawn."""
    x, y = _cell_origin(col, row, 8)
    pcx, pcy = PATH_X + PATH_W / 2, 8 + 4 * (CELL + GAP) - GAP + PATH_W / 2
    r = PLAZA / 2 + 4
    return x <= pcx + r and x + CELL >= pcx - r and y <= pcy + r and y + CELL >= pcy - r


@lru_cache(maxsize=320)
def _grave_tile(
    col: int, row: int, stakes: int | None, cell: str, blocked: bool, mine: int | None
) -> Image.Image:
    """One grave's box (CELL+1 px square) with what lies under it, drawn once per distinct look.

    Keyed on everything drawn in the box: the position (the path and plaza under the corners),
    the stake count for the graves that overlap the plaza (None elsewhere, where it cannot show),
    the grave's view as JSON (id, state, lid, holds, found), the blocked badge and the viewer's own
    garlic. The returned image is shared: callers paste it and never draw on it.
    """
    x, y = _cell_origin(col, row, 8)
    tile = _grid_layer(stakes or 0).crop((x, y, x + CELL + 1, y + CELL + 1))
    _grave_inside(draw_on(tile), json.loads(cell), 0, 0, blocked, mine)
    return tile


def _stakes(draw: ImageDraw.ImageDraw, cx: float, cy: float, count: int) -> None:
    """The stakes lying on the plaza where the paths cross."""
    w = 7
    per_row = 7
    for i in range(count):
        r, c = divmod(i, per_row)
        x = cx - (per_row * (w + 5)) / 2 + c * (w + 5)
        y = cy - 40 + r * 42
        draw.rectangle((x, y, x + w, y + 30), fill=STAKE, outline=(40, 24, 10))
        draw.polygon([(x, y + 30), (x + w, y + 30), (x + w / 2, y + 40)], fill=STAKE)


ROW_TILE = 54


@lru_cache(maxsize=32)
def _row_token(code: str) -> tuple[Image.Image, Image.Image]:
    """A face-up vampire of a player's row (ROW_TILE+1 px square) and the mask of its footprint.

    Keyed on the colour letter, the only input; rows show up to 8 per player on every board. The
    mask (the rounded tile's own pixels) keeps whatever lies under its corners, as drawing would
    (the seat tag can reach under the last token). Shared: callers paste them, never draw on them.
    """
    tile = new_canvas(ROW_TILE + 1, ROW_TILE + 1, PANEL)
    _vampire_token(draw_on(tile), (0, 0, ROW_TILE, ROW_TILE), code)
    mask = Image.new("L", tile.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, ROW_TILE, ROW_TILE), radius=8, fill=255, outline=255, width=2)
    return tile, mask


def _row_band(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: dict[str, Any],
    seat: int,
    x: int,
    y: int,
    w: int,
    h: int,
) -> None:
    """A player's band: name, tags, counters and their row (face-up ends, hidden middle)."""
    n_to_act = set(view.get("to_act", []))
    turn = view.get("turn")
    me = view.get("seat")
    colour = player_colour(seat)
    active = seat in n_to_act
    draw.rounded_rectangle(
        (x, y, x + w, y + h), radius=14, fill=PANEL, outline=HIGHLIGHT if active else PANEL, width=4
    )
    draw.rectangle((x + 6, y + 10, x + 18, y + h - 10), fill=colour)
    suffix = " (you)" if seat == me else ""
    tags = []
    if seat == turn and not view.get("winners"):  # a finished game has no turn
        tags.append("TURN")
    if active:
        tags.append("TO ACT")
    if seat in view.get("winners", []):
        tags.append("WINNER")
    gift = view.get("gift")
    if gift and seat in gift.get("decided", []):
        tags.append("decided")
    tag_text = " · ".join(tags)
    room = 370 - (int(text_width(tag_text, 20, True)) + 12 if tags else 0)
    name = _seat(seat, view.get("names"))
    label = name + suffix
    while len(name) > 1 and text_width(label, 28, True) > room:
        name = name[:-1]
        label = name.rstrip() + "…" + suffix
    draw.text((x + 30, y + 12), label, font=font(28, True), fill=INK)
    if tags:
        name_w = int(text_width(label, 28, True))
        draw.text((x + 42 + name_w, y + 18), tag_text, font=font(20, True), fill=HIGHLIGHT)
    # counters
    stats = (
        f"vampires {view['vampires_left'][seat]} · garlic {view['garlic_in_hand'][seat]} · "
        f"stakes {view['stakes'][seat]}/3"
    )
    draw.text((x + 30, y + h - 40), stats, font=font(20), fill=MUTED)
    # the seat number, which the game's event lines use ("Seat 2 flips C4"), in the top-right corner
    seat_tag = f"seat {seat + 1}"
    draw.text((x + w - 16 - text_width(seat_tag, 20), y + 10), seat_tag, font=font(20), fill=MUTED)
    # the row: face-up ends, hidden middle as one counted block
    cells = view["rows"][seat]
    tile = ROW_TILE
    left: list[str] = []
    right: list[str] = []
    hidden = 0
    for c in cells:
        if c is None:
            hidden += 1
        elif hidden == 0 and not right:
            left.append(str(c))
        else:
            right.append(str(c))
    # cap very long face-up runs (many gifts) so the row always fits left of the seat tag
    def row_width(cap: int) -> int:
        ends = sum(min(len(side), cap) * (tile + 6) + (42 if len(side) > cap else 0) for side in (left, right))
        return ends + (92 if hidden else 0)

    limit = w - 410 - int(text_width(seat_tag, 20)) - 28
    cap = next((c for c in (4, 3, 2) if row_width(c) <= limit), 1)
    rx = x + 410
    ry = y + (h - tile) // 2
    for c in left[:cap]:
        token, mask = _row_token(c)
        image.paste(token, (rx, ry), mask)
        rx += tile + 6
    if len(left) > cap:
        text_center(draw, (rx + 18, ry + tile / 2), f"+{len(left) - cap}", 20, fill=MUTED, bold=True)
        rx += 42
    if hidden:
        draw.rounded_rectangle(
            (rx, ry, rx + 86, ry + tile), radius=8, fill=(60, 52, 74), outline=MUTED, width=2
        )
        text_center(draw, (rx + 43, ry + tile / 2), f"?×{hidden}", 24, fill=INK, bold=True)
        rx += 92
    if len(right) > cap:
        text_center(draw, (rx + 18, ry + tile / 2), f"+{len(right) - cap}", 20, fill=MUTED, bold=True)
        rx += 42
    for c in right[-cap:]:
        token, mask = _row_token(c)
        image.paste(token, (rx, ry), mask)
        rx += tile + 6


def render(view: dict[str, Any]) -> Image.Image:
    """The board (public view) or a player's panel (seat view) as one image."""
    n = int(view["players"])
    names = view.get("names")
    status_lines = _wrap(_named(str(view.get("status", "")), names), 30, WIDTH - 60, bold=True)
    header = 30 + 40 * len(status_lines) + 16
    grid_h = 8 * CELL + 6 * GAP + PATH_W
    band_h = 100
    gift = view.get("gift")
    extra = 0
    me = view.get("seat")
    if me is not None:
        extra += 60
    if gift:
        extra += 60
    legend_h = 96
    height = header + grid_h + 30 + legend_h + n * (band_h + 12) + extra + 20
    img = new_canvas(WIDTH, height, BACKGROUND)
    draw = draw_on(img)
    y = 24
    for line in status_lines:
        draw.text((30, y), line, font=font(30, True), fill=INK)
        y += 40
    top = header
    # the path, plaza and stakes (cached per stake count), then every grave as a cached tile; the
    # frames around graves come last, as they reach into the gaps between boxes
    stakes = int(view.get("stakes_on_path", 0))
    img.paste(_grid_layer(stakes), (0, top - 8))
    plague = view.get("plague")
    marks: dict[str, set[str]] = {
        "blocked": set(view.get("blocked", [])),
        "around": set(plague["surrounding"]) if plague else set(),
        "pending": {view["pending_grave"]} if view.get("pending_grave") else set(),
        "mine": set(view.get("my_garlic", [])),
        "me": {str(me)} if me is not None else set(),
    }
    placed: list[tuple[dict[str, Any], int, int]] = []
    for cell in view["graves"]:
        gid = str(cell["id"])
        col = ord(gid[0]) - ord("A")
        row = int(gid[1:]) - 1
        x, gy = _cell_origin(col, row, top)
        blocked = gid in marks["blocked"] and cell["state"] != "none"
        own = int(me) if me is not None and gid in marks["mine"] else None
        tile = _grave_tile(col, row, stakes if _near_plaza(col, row) else None, _key(cell), blocked, own)
        img.paste(tile, (x, gy))
        placed.append((cell, x, gy))
    for cell, x, gy in placed:
        _grave_outside(draw, cell, x, gy, marks)
    y = top + grid_h + 24
    # legend: rats and reserve, colour key
    draw.text(
        (30, y),
        f"Rats found {view.get('rats_found', 0)}/{view.get('rats_total', 0)}   "
        f"reserve lids {view.get('reserve_lids', 0)}",
        font=font(22),
        fill=MUTED,
    )
    if view.get("blocked") and not plague:
        draw.text((520, y), "red badge: opened by the opponent last turn", font=font(20), fill=DANGER)
    if plague:
        draw.text(
            (520, y),
            f"Plague around {plague['center']} (found by {_seat(int(plague['finder']), names)})",
            font=font(22, True),
            fill=DANGER,
        )
    kx = 30
    ky = y + 44
    for code in view.get("colours", []):
        rgb = VAMPIRE_RGB.get(code, MUTED)
        draw.rounded_rectangle(
            (kx, ky - 4, kx + 32, ky + 28), radius=6, fill=rgb, outline=(200, 190, 215), width=2
        )
        text_center(draw, (kx + 16, ky + 12), code, 18, fill=_ink_on(rgb), bold=True)
        draw.text((kx + 40, ky + 1), NAMES.get(code, code), font=font(20), fill=MUTED)
        kx += 150
    y += legend_h
    if gift:
        got = ", ".join(f"{NAMES.get(c, c)} ({c})" for c in gift.get("received", []))
        owed = [f"{_seat(p, names)} owes {k}" for p, k in enumerate(gift.get("owed", [])) if k]
        line = f"Gift to {_seat(int(gift['to']), names)}: " + ", ".join(owed)
        if got:
            line += f"   received: {got}"
        draw.text((30, y), line, font=font(24, True), fill=ACCENT)
        y += 60
    for seat in range(n):
        _row_band(img, draw, view, seat, 20, y, WIDTH - 40, band_h)
        y += band_h + 12
    if me is not None:
        # where your garlic lies is listed only with the table option list_garlic=yes (the view then
        # carries my_garlic); otherwise you remember it, as the seed asks (「要牢記」)
        parts = []
        if "my_garlic" in view:
            parts.append(f"Your garlic lies in: {', '.join(view['my_garlic']) or 'none'}")
        choice = view.get("my_choice")
        if choice:
            parts.append(f"you give your {choice}-end vampire")
        if parts:
            draw.text((30, y + 10), "   ·   ".join(parts), font=font(26, True), fill=player_colour(int(me)))
    return to_palette(img, KEEP)
