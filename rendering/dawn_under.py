"""Dawn Under board renderer: the cemetery, the path with its stakes, and every player's vampire row.

Landscape (1200 px wide, 0.74–0.88 as tall) for Discord's ~550 px preview: the 8×8 cemetery on the
left, the players' rows to its right, no text under 22 px (10 px at 550 px wide; measured for every
renderer by tests/rendering/test_legibility.py). Players appear by their display names; a seat
chip (colour and number) ties each row to the garlic bulbs, which carry the same number.

Pure: draws only from a view (public -> channel board; a seat's view -> that player's panel, which
also marks where their own garlic lies, with the option list_garlic=yes). Every colour also
carries its letter, so nothing depends on telling hues apart.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.i18n import SOURCE, Lang, t, term, tr
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
    paste,
    player_colour,
    text_center,
    text_steps,
    text_width,
    wrap,
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


def colour_name(lang: Lang, code: str) -> str:
    """A vampire colour's name ("red", 「紅」) from the game's glossary (`data/dawn_under/glossary.tsv`)."""
    return term(lang, f"dawn_under.{code}", code)


LID = (74, 70, 84)
LID_EDGE = (104, 98, 118)
GROUND = (36, 44, 34)
PATH = (120, 98, 70)
STAKE = (92, 58, 30)
GRAVE_HOLE = (18, 14, 20)

# The renderer's flat colours: the first entries of its images' palettes (`new_canvas(colours=)`).
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

# Landscape, for Discord's ~550 px preview (issue #12): the 8×8 cemetery on the left, the players'
# rows to its right. 22 px is the smallest font: 10 px once the 1200 px image is shown 550 px wide.
WIDTH = 1200
MIN_FONT = 22
CELL = 80
GAP = 6
PATH_W = 40
MARGIN_X = 20
GRID_W = 8 * CELL + 6 * GAP + PATH_W  # the cemetery is square
RIGHT_X = MARGIN_X + GRID_W + 20  # the players' column
RIGHT_W = WIDTH - RIGHT_X - 16


def _ink_on(rgb: RGB) -> RGB:
    """Black or white text, whichever reads better on `rgb`."""
    r, g, b = rgb
    return (16, 16, 16) if (0.299 * r + 0.587 * g + 0.114 * b) > 140 else (245, 245, 245)


# The first entries of every palette of this renderer's images (`new_canvas(colours=)`): its flat
# colours, then the anti-aliasing steps of its tiles' commonest text (grave names on lids and in open
# graves, the letters of vampire tiles), so that most cached tiles paste as they are.
SEED: tuple[RGB, ...] = (
    *KEEP,
    *text_steps(LID, INK),
    *text_steps(GRAVE_HOLE, INK),
    *(c for rgb in VAMPIRE_RGB.values() for c in text_steps(rgb, _ink_on(rgb))),
)


def _seat(seat: int, names: list[str] | None = None, lang: Lang = SOURCE) -> str:
    """The player's name when the platform put names in the view, else "Seat N"."""
    if names and 0 <= seat < len(names):
        return str(names[seat])
    return t(lang, "Seat {n}", n=seat + 1)


def _named(text: str, names: list[str] | None, lang: Lang = SOURCE) -> str:
    """Replace "Seat N" (in English or in `lang`) in a status line with the players' names, when known."""
    for i, name in enumerate(names or []):
        text = text.replace(f"Seat {i + 1}", str(name)).replace(t(lang, "Seat {n}", n=i + 1), str(name))
    return text


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
    draw.rounded_rectangle(box, radius=7, fill=rgb, outline=(200, 190, 215), width=2)
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    ink = _ink_on(rgb)
    size = max(MIN_FONT, int(min(x1 - x0, y1 - y0) * 0.5))
    text_center(draw, (cx, cy - size * 0.12), code, size, fill=ink, bold=True)
    # fangs, so a vampire never reads as a plain lid
    fy = y1 - (y1 - y0) * 0.15
    for dx in (-0.13, 0.13):
        fx = cx + (x1 - x0) * dx
        draw.polygon([(fx - 3, fy - 4), (fx + 3, fy - 4), (fx, fy + 4)], fill=ink)


def _bulb(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, rgb: RGB) -> None:
    """A garlic bulb outlined in its owner's colour."""
    draw.ellipse((cx - r, cy - r * 0.85, cx + r, cy + r), fill=(240, 236, 220), outline=rgb, width=4)
    draw.polygon([(cx - r * 0.25, cy - r * 0.8), (cx + r * 0.25, cy - r * 0.8), (cx, cy - r * 1.3)], fill=rgb)


def _garlic(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, seat: int) -> None:
    """A garlic bulb in its owner's colour with their seat number (as on their row's chip)."""
    _bulb(draw, cx, cy, r, player_colour(seat))
    text_center(draw, (cx, cy + r * 0.12), str(seat + 1), MIN_FONT, fill=(30, 30, 30), bold=True)


def _rat(draw: ImageDraw.ImageDraw, x: int, y: int, lang: Lang) -> None:
    draw.rounded_rectangle((x, y, x + CELL, y + CELL), radius=10, fill=(128, 118, 110), outline=DANGER, width=4)
    cx, cy = x + CELL / 2 - 4, y + 38
    draw.ellipse((cx - 20, cy - 10, cx + 14, cy + 11), fill=(70, 62, 58))
    draw.ellipse((cx + 6, cy - 15, cx + 16, cy - 6), fill=(70, 62, 58))
    draw.line((cx - 20, cy + 4, cx - 30, cy + 13), fill=(70, 62, 58), width=3)
    text_center(draw, (cx, y + CELL - 15), t(lang, "RAT"), MIN_FONT, fill=INK, bold=True)


def _grave_inside(
    draw: ImageDraw.ImageDraw, cell: dict[str, Any], x: int, y: int, blocked: bool, mine: int | None, lang: Lang
) -> None:
    """Everything of a grave that lies inside its box (x..x+CELL): the lid or open grave and badges."""
    gid = str(cell["id"])
    state = cell["state"]
    box = (x, y, x + CELL, y + CELL)
    cx = x + CELL / 2
    if state == "none":
        draw.rounded_rectangle(box, radius=10, fill=GROUND)
        for k in range(0, CELL, 16):
            draw.line((x + k, y + CELL - 4, x + k + 8, y + CELL - 12), fill=(54, 66, 50), width=2)
        return
    if state == "closed":
        draw.rounded_rectangle(box, radius=10, fill=LID, outline=LID_EDGE, width=3)
        _bat(draw, cx, y + 25, 44, (44, 40, 52))
        text_center(draw, (cx, y + CELL - 23), gid, 28, fill=INK, bold=True)
    else:
        lid = str(cell.get("lid"))
        if lid == "rat":
            _rat(draw, x, y, lang)
            text_center(draw, (x + CELL - 18, y + 13), gid, MIN_FONT, fill=INK, bold=True)
        else:
            rgb = VAMPIRE_RGB.get(lid, MUTED)
            # an open grave: the lid's colour as a frame (with a light edge so black shows), and as
            # a corner tab carrying its letter; the grave's name in the other corner
            draw.rounded_rectangle(box, radius=10, fill=GRAVE_HOLE, outline=(200, 190, 215), width=2)
            draw.rounded_rectangle((x + 2, y + 2, x + CELL - 2, y + CELL - 2), radius=9, outline=rgb, width=5)
            draw.rounded_rectangle((x, y, x + 30, y + 28), radius=8, fill=rgb, outline=(200, 190, 215), width=2)
            text_center(draw, (x + 15, y + 14), lid, MIN_FONT, fill=_ink_on(rgb), bold=True)
            text_center(draw, (x + CELL - 20, y + 15), gid, MIN_FONT, fill=INK, bold=True)
            holds = cell.get("holds")
            if isinstance(holds, dict) and "vampire" in holds:
                _vampire_token(draw, (cx - 21, y + 31, cx + 21, y + CELL - 7), str(holds["vampire"]))
            elif isinstance(holds, dict) and "garlic" in holds:
                _garlic(draw, cx, y + 53, 19, int(holds["garlic"]))
            else:
                found = cell.get("found")
                if isinstance(found, dict) and "garlic" in found:
                    _garlic(draw, cx, y + 41, 14, int(found["garlic"]))
                    text_center(draw, (cx, y + CELL - 17), t(lang, "found"), MIN_FONT, fill=HIGHLIGHT)
                else:  # empty: nothing inside but the bare bottom of the grave
                    draw.line((cx - 14, y + 52, cx + 14, y + 52), fill=MUTED, width=3)
    if blocked:
        # a no-entry badge: the opponent opened this grave on their last turn
        bx, by = x + 5, y + CELL - 29
        draw.ellipse((bx, by, bx + 24, by + 24), fill=DANGER, outline=INK, width=2)
        draw.rectangle((bx + 5, by + 10, bx + 19, by + 14), fill=INK)
    if mine is not None and state == "closed":
        _bulb(draw, x + CELL - 15, y + 16, 10, player_colour(mine))


def _grave_outside(draw: ImageDraw.ImageDraw, cell: dict[str, Any], x: int, y: int, marks: dict[str, set[str]]) -> None:
    """What a grave draws outside its box: frames (ajar, plague surroundings, pending choice).

    They reach at most 5 px out, into the 6 px gap, and are drawn after every box: no frame
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
        for k in range(0, CELL, 16):
            draw.line((x + k, y - 3, x + min(k + 9, CELL), y - 3), fill=ACCENT, width=3)
            draw.line((x + k, y + CELL + 3, x + min(k + 9, CELL), y + CELL + 3), fill=ACCENT, width=3)
    if gid in marks["around"] and state == "closed":
        draw.rounded_rectangle((x - 2, y - 2, x + CELL + 2, y + CELL + 2), radius=12, outline=DANGER, width=4)
    if gid in marks["pending"]:
        draw.rounded_rectangle((x - 4, y - 4, x + CELL + 4, y + CELL + 4), radius=13, outline=HIGHLIGHT, width=5)


def _key(cell: dict[str, Any]) -> str:
    """A grave's view as canonical JSON: hashable, and every field the tile is drawn from."""
    return json.dumps(cell, sort_keys=True)


GRID_H = GRID_W
PATH_X = MARGIN_X + 4 * (CELL + GAP) - GAP  # the vertical path's left edge
PLAZA = 2 * CELL - 2 * PATH_W // 3
LAYER_W = RIGHT_X - 8  # the cemetery layer's width (the players' column is drawn beside it)


@lru_cache(maxsize=4)
def _grid_layer(stakes: int) -> Image.Image:
    """The cemetery without graves: the cross-shaped path, its plaza and the stakes lying there.

    Rows top-8 .. top+GRID_H+8 of a board, with the grid's top at y=8, and the board's left
    LAYER_W px. It depends only on the stake count (a handful of values per game). Never drawn on
    after caching (renderers paste it). The count itself is written under the cemetery.
    """
    top = 8
    img = new_canvas(LAYER_W, GRID_H + 17, BACKGROUND, colours=SEED)
    draw = draw_on(img)
    py = top + 4 * (CELL + GAP) - GAP
    draw.rectangle((PATH_X, top - 8, PATH_X + PATH_W, top + GRID_H + 8), fill=PATH)
    draw.rectangle((MARGIN_X - 8, py, MARGIN_X + GRID_W + 8, py + PATH_W), fill=PATH)
    pcx, pcy = PATH_X + PATH_W / 2, py + PATH_W / 2
    draw.ellipse(
        (pcx - PLAZA / 2, pcy - PLAZA / 2, pcx + PLAZA / 2, pcy + PLAZA / 2),
        fill=PATH,
        outline=(90, 72, 50),
        width=3,
    )
    _stakes(draw, pcx, pcy, stakes)
    return img


def _near_plaza(col: int, row: int) -> bool:
    """Whether a grave's box overlaps the plaza, where the stakes are drawn."""
    x, y = _cell_origin(col, row, 8)
    pcx, pcy = PATH_X + PATH_W / 2, 8 + 4 * (CELL + GAP) - GAP + PATH_W / 2
    r = PLAZA / 2 + 4
    return x <= pcx + r and x + CELL >= pcx - r and y <= pcy + r and y + CELL >= pcy - r


@lru_cache(maxsize=320)
def _grave_tile(
    col: int, row: int, stakes: int | None, cell: str, blocked: bool, mine: int | None, lang: Lang = SOURCE
) -> Image.Image:
    """One grave's box (CELL+1 px square) with what lies under it, drawn once per distinct look.

    Keyed on everything drawn in the box: the position (the path and plaza under the corners),
    the stake count for the graves that overlap the plaza (None elsewhere, where it cannot show),
    the grave's view as JSON (id, state, lid, holds, found), the blocked badge and the viewer's own
    garlic, and the language (a rat and a found garlic carry a word). The returned image is shared:
    callers paste it and never draw on it.
    """
    x, y = _cell_origin(col, row, 8)
    tile = _grid_layer(stakes or 0).crop((x, y, x + CELL + 1, y + CELL + 1))
    _grave_inside(draw_on(tile), json.loads(cell), 0, 0, blocked, mine, lang)
    return tile


def _stakes(draw: ImageDraw.ImageDraw, cx: float, cy: float, count: int) -> None:
    """The stakes lying on the plaza where the paths cross (two rows of up to 7)."""
    w = 6
    per_row = 7
    rows = max(1, -(-count // per_row))
    for i in range(count):
        r, c = divmod(i, per_row)
        x = cx - (per_row * (w + 4)) / 2 + c * (w + 4)
        y = cy - rows * 16 + r * 32
        draw.rectangle((x, y, x + w, y + 22), fill=STAKE, outline=(40, 24, 10))
        draw.polygon([(x, y + 22), (x + w, y + 22), (x + w / 2, y + 29)], fill=STAKE)


ROW_TILE = 44
BAND_H = 132


@lru_cache(maxsize=32)
def _row_token(code: str) -> tuple[Image.Image, Image.Image]:
    """A face-up vampire of a player's row (ROW_TILE+1 px square) and the mask of its footprint.

    Keyed on the colour letter, the only input; rows show up to 8 per player on every board. The
    mask (the rounded tile's own pixels) keeps whatever lies under its corners, as drawing would.
    Shared: callers paste them, never draw on them.
    """
    tile = new_canvas(ROW_TILE + 1, ROW_TILE + 1, PANEL, colours=SEED)
    _vampire_token(draw_on(tile), (0, 0, ROW_TILE, ROW_TILE), code)
    mask = Image.new("L", tile.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, ROW_TILE, ROW_TILE), radius=7, fill=255, outline=255, width=2)
    return tile, mask


def _fit(text: str, size: int, room: float, bold: bool = False, suffix: str = "") -> str:
    """`text` + `suffix`, the text shortened with "…" (in pixels) until it fits `room`: whole words
    go first; a single word too long for the room is cut."""
    label = text + suffix
    words = text.split()
    while len(words) > 1 and text_width(label, size, bold) > room:
        words.pop()
        label = " ".join(words) + "…" + suffix
    if text_width(label, size, bold) <= room:
        return label
    text = words[0] if words else text
    while len(text) > 1 and text_width(label, size, bold) > room:
        text = text[:-1]
        label = text.rstrip() + "…" + suffix
    return label


def _name_label(name: str, suffix: str, room: float) -> tuple[str, int]:
    """The name at the largest of 28, 24, 22 px that fits whole, else shortened at 22 px."""
    for size in (28, 24, MIN_FONT):
        if text_width(name + suffix, size, True) <= room:
            return name + suffix, size
    return _fit(name, MIN_FONT, room, True, suffix), MIN_FONT


def _row_band(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: dict[str, Any],
    seat: int,
    x: int,
    y: int,
    w: int,
    lang: Lang,
) -> None:
    """A player's band: seat chip, name and tags; their row (face-up ends, hidden middle); counters."""
    h = BAND_H
    n_to_act = set(view.get("to_act", []))
    over = bool(view.get("winners"))
    active = seat in n_to_act and not over
    won = seat in view.get("winners", [])
    colour = player_colour(seat)
    draw.rounded_rectangle(
        (x, y, x + w, y + h), radius=12, fill=PANEL, outline=HIGHLIGHT if active or won else PANEL, width=4
    )
    # the seat chip: the player's colour and number, as on their garlic
    draw.rounded_rectangle((x + 10, y + 10, x + 40, y + 42), radius=7, fill=colour)
    text_center(draw, (x + 25, y + 26), str(seat + 1), MIN_FONT, fill=_ink_on(colour), bold=True)
    tags = []
    if won:
        tags.append(t(lang, "WINNER"))
    elif not over:  # a finished game has no turn
        if active:
            tags.append(t(lang, "TO ACT"))
        elif seat == view.get("turn"):  # whose turn it is, while others act (a gift)
            tags.append(t(lang, "TURN"))
        gift = view.get("gift")
        if gift and seat in gift.get("decided", []):
            tags.append(t(lang, "decided"))
    tag_text = " · ".join(tags)
    tag_w = int(text_width(tag_text, MIN_FONT, True)) + 12 if tags else 0
    suffix = t(lang, " (you)") if seat == view.get("seat") else ""
    label, size = _name_label(_seat(seat, view.get("names"), lang), suffix, w - 50 - 12 - tag_w)
    draw.text((x + 50, y + 26), label, font=font(size, True), fill=INK, anchor="lm")
    if tags:
        tx = x + 62 + text_width(label, size, True)
        draw.text((tx, y + 26), tag_text, font=font(MIN_FONT, True), fill=HIGHLIGHT, anchor="lm")
    # the row: face-up ends, hidden middle as one counted block
    tile = ROW_TILE
    left: list[str] = []
    right: list[str] = []
    hidden = 0
    for c in view["rows"][seat]:
        if c is None:
            hidden += 1
        elif hidden == 0 and not right:
            left.append(str(c))
        else:
            right.append(str(c))

    # cap very long face-up runs (many gifts) so the row always fits the band
    def row_width(cap: int) -> int:
        ends = sum(min(len(side), cap) * (tile + 5) + (40 if len(side) > cap else 0) for side in (left, right))
        return ends + (82 if hidden else 0)

    cap = next((c for c in (6, 5, 4, 3, 2) if row_width(c) <= w - 28), 1)
    rx = x + 14
    ry = y + 48
    for c in left[:cap]:
        token, mask = _row_token(c)
        paste(image, token, (rx, ry), mask)
        rx += tile + 5
    if len(left) > cap:
        text_center(draw, (rx + 17, ry + tile / 2), f"+{len(left) - cap}", MIN_FONT, fill=MUTED, bold=True)
        rx += 40
    if hidden:
        draw.rounded_rectangle((rx, ry, rx + 76, ry + tile), radius=7, fill=(60, 52, 74), outline=MUTED, width=2)
        text_center(draw, (rx + 38, ry + tile / 2), f"?×{hidden}", MIN_FONT, fill=INK, bold=True)
        rx += 82
    if len(right) > cap:
        text_center(draw, (rx + 17, ry + tile / 2), f"+{len(right) - cap}", MIN_FONT, fill=MUTED, bold=True)
        rx += 40
    for c in right[-cap:]:
        token, mask = _row_token(c)
        paste(image, token, (rx, ry), mask)
        rx += tile + 5
    if not view["rows"][seat]:
        no_left = t(lang, "no vampires left")
        draw.text((x + 14, ry + 9), no_left, font=font(MIN_FONT, True), fill=HIGHLIGHT if won else MUTED)
    stats = t(
        lang,
        "vampires {vampires} · garlic {garlic} · stakes {stakes}/3",
        vampires=view["vampires_left"][seat],
        garlic=view["garlic_in_hand"][seat],
        stakes=view["stakes"][seat],
    )
    draw.text((x + 14, y + h - 36), _fit(stats, MIN_FONT, w - 24), font=font(MIN_FONT), fill=MUTED)


Line = tuple[str, int, bool, RGB]  # text, size, bold, colour


def _lines(texts: list[tuple[str, int, bool, RGB]], width: int) -> list[Line]:
    """Each text wrapped (in pixels) to `width`."""
    out: list[Line] = []
    for text, size, bold, rgb in texts:
        out += [(line, size, bold, rgb) for line in wrap(text, size, width, bold)]
    return out


def _draw_lines(draw: ImageDraw.ImageDraw, lines: list[Line], x: int, y: int) -> int:
    for text, size, bold, rgb in lines:
        draw.text((x, y), text, font=font(size, bold), fill=rgb)
        y += size + 10
    return y


def _lines_h(lines: list[Line]) -> int:
    return sum(size + 10 for _, size, _, _ in lines)


def _colour_key(codes: list[str], lang: Lang) -> list[list[tuple[str, float]]]:
    """The colour key laid out in rows that fit under the cemetery: [(code, width)] per row."""
    rows: list[list[tuple[str, float]]] = [[]]
    used = 0.0
    for code in codes:
        w = 30 + 8 + text_width(colour_name(lang, code), MIN_FONT) + 22
        if rows[-1] and used + w > GRID_W:
            rows.append([])
            used = 0.0
        rows[-1].append((code, w))
        used += w
    return rows


def render(view: dict[str, Any], lang: Lang = SOURCE) -> Image.Image:
    """The board (public view) or a player's panel (seat view) as one landscape image, its words in
    `lang` (the table's language for the board, the reader's for a panel; `locales/*/rendering.po`).

    What it is for at Discord's ~550 px preview: finding a grave's name to flip (every closed lid
    carries it, 12 px tall at 550 px), seeing what this moment revealed (open lids: the lid's colour
    and letter, what lies inside), the plague and the stakes left, and for each player, by name,
    whether they are awaited or won, their face-up end vampires and how many are left. Every text is
    at least 22 px on the 1200 px image (10 px at 550 px). The move log and the menus' wording live
    in the message text, not here. Drawn only from the view: a lid the view shows closed is closed.
    """
    n = int(view["players"])
    names = view.get("names")
    me = view.get("seat")
    plague = view.get("plague")
    gift = view.get("gift")
    status_lines = wrap(_named(tr(lang, view.get("status", "")), names, lang), 30, WIDTH - 40, bold=True)
    header = 16 + 40 * len(status_lines) + 12
    # under the cemetery: counts, the plague, the blocked badge, the colour key
    stakes = int(view.get("stakes_on_path", 0))
    notes: list[tuple[str, int, bool, RGB]] = [
        (
            t(
                lang,
                "Rats found {found}/{total} · reserve lids {reserve} · {stakes} stakes on the path",
                found=view.get("rats_found", 0),
                total=view.get("rats_total", 0),
                reserve=view.get("reserve_lids", 0),
                stakes=stakes,
            ),
            MIN_FONT,
            False,
            MUTED,
        )
    ]
    if plague:
        finder = _seat(int(plague["finder"]), names, lang)
        text = t(lang, "Plague around {grave} (found by {name})", grave=plague["center"], name=finder)
        notes.append((text, MIN_FONT, True, DANGER))
    elif view.get("blocked"):
        notes.append((t(lang, "Red badge: opened by the opponent last turn"), MIN_FONT, False, DANGER))
    left_lines = _lines(notes, GRID_W)
    key_rows = _colour_key([str(c) for c in view.get("colours", [])], lang)
    left_h = GRID_H + 18 + _lines_h(left_lines) + 40 * len(key_rows)
    # the players' column: the gift, every player's band, what only this seat may see
    above: list[tuple[str, int, bool, RGB]] = []
    if gift:
        sep = t(lang, ", ")
        got = sep.join(f"{colour_name(lang, c)} ({c})" for c in gift.get("received", []))
        owed = [
            t(lang, "{name} owes {n}", name=_seat(p, names, lang), n=k) for p, k in enumerate(gift.get("owed", [])) if k
        ]
        text = t(lang, "Gift to {name}: ", name=_seat(int(gift["to"]), names, lang)) + sep.join(owed)
        if got:
            text += (t(lang, "; ") if owed else "") + t(lang, "received {vampires}", vampires=got)
        above.append((text, 24, True, ACCENT))
    below: list[tuple[str, int, bool, RGB]] = []
    if me is not None:
        # where your garlic lies is listed only with the table option list_garlic=yes (the view then
        # carries my_garlic); otherwise you remember it, as the seed asks (「要牢記」)
        mine = player_colour(int(me))
        if "my_garlic" in view:
            graves = t(lang, ", ").join(view["my_garlic"]) or t(lang, "none")
            below.append((t(lang, "Your garlic lies in: {graves}", graves=graves), 24, True, mine))
        if view.get("my_choice"):
            side = view["my_choice"]
            text = (
                t(lang, "You give your left-end vampire")
                if side == "left"
                else t(lang, "You give your right-end vampire")
            )
            below.append((text, 24, True, mine))
    above_lines = _lines(above, RIGHT_W)
    below_lines = _lines(below, RIGHT_W)
    right_h = _lines_h(above_lines) + n * (BAND_H + 8) + (8 + _lines_h(below_lines) if below_lines else 0)
    height = header + max(left_h, right_h) + 12
    img = new_canvas(WIDTH, height, BACKGROUND, colours=SEED)
    draw = draw_on(img)
    _draw_lines(draw, [(line, 30, True, INK) for line in status_lines], 20, 16)
    top = header
    # the path, plaza and stakes (cached per stake count), then every grave as a cached tile; the
    # frames around graves come last, as they reach into the gaps between boxes
    paste(img, _grid_layer(stakes), (0, top - 8))
    marks: dict[str, set[str]] = {
        "blocked": set(view.get("blocked", [])),
        "around": set(plague["surrounding"]) if plague else set(),
        "pending": {view["pending_grave"]} if view.get("pending_grave") else set(),
        "mine": set(view.get("my_garlic", [])),
    }
    placed: list[tuple[dict[str, Any], int, int]] = []
    for cell in view["graves"]:
        gid = str(cell["id"])
        col = ord(gid[0]) - ord("A")
        row = int(gid[1:]) - 1
        x, gy = _cell_origin(col, row, top)
        blocked = gid in marks["blocked"] and cell["state"] != "none"
        own = int(me) if me is not None and gid in marks["mine"] else None
        tile = _grave_tile(col, row, stakes if _near_plaza(col, row) else None, _key(cell), blocked, own, lang)
        paste(img, tile, (x, gy))
        placed.append((cell, x, gy))
    for cell, x, gy in placed:
        _grave_outside(draw, cell, x, gy, marks)
    y = _draw_lines(draw, left_lines, MARGIN_X, top + GRID_H + 18)
    for key_row in key_rows:
        kx = float(MARGIN_X)
        for code, w in key_row:
            rgb = VAMPIRE_RGB.get(code, MUTED)
            draw.rounded_rectangle((kx, y, kx + 30, y + 30), radius=6, fill=rgb, outline=(200, 190, 215), width=2)
            text_center(draw, (kx + 15, y + 15), code, MIN_FONT, fill=_ink_on(rgb), bold=True)
            draw.text((kx + 38, y + 2), colour_name(lang, code), font=font(MIN_FONT), fill=MUTED)
            kx += w
        y += 40
    y = _draw_lines(draw, above_lines, RIGHT_X, top)
    for seat in range(n):
        _row_band(img, draw, view, seat, RIGHT_X, y, RIGHT_W, lang)
        y += BAND_H + 8
    _draw_lines(draw, below_lines, RIGHT_X, y + 8)
    return img
