"""Trick or Treat Halloween board: the city with streets and pawns, the dice, the score-card row and
every player's candy, cards and character — drawn only from a view.

Colours are never the only carrier of meaning: candies carry a letter, pawns a seat number, dice a
word under the picture, building types a caption.
"""

from __future__ import annotations

import json
import re
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
    drawable,
    font,
    new_canvas,
    player_colour,
    text_center,
    to_palette,
)

RGB = tuple[int, int, int]

WIDTH = 1320
TILE = 124
GAP = 58
MARGIN = 62
TOP = 64
BOARD = 2 * MARGIN + 4 * TILE + 3 * GAP  # 782
RIGHT_X = BOARD + 24

CANDY_COLOUR: dict[str, RGB] = {
    "corn": (250, 200, 40),
    "bonbon": (236, 120, 190),
    "waffle": (186, 130, 70),
    "donut": (90, 170, 240),
    "lolly": (90, 200, 110),
    "wild": (245, 245, 245),
}
CANDY_LETTER = {"corn": "C", "bonbon": "B", "waffle": "W", "donut": "D", "lolly": "L", "wild": "?"}
KIND_ORDER = ("corn", "bonbon", "waffle", "donut", "lolly", "wild")
TYPE_COLOUR: dict[str, RGB] = {
    "mansion": (120, 52, 48),
    "villa": (40, 96, 100),
    "castle": (84, 70, 130),
    "bikers": (150, 30, 30),
    "plant": (70, 84, 70),
}
TYPE_CAPTION = {
    "mansion": "MANSION",
    "villa": "VILLA",
    "castle": "CASTLE",
    "bikers": "BIKERS",
    "plant": "POWER",
}
FACE_WORD = {
    "feet2": "2 feet",
    "feet": "1 foot",
    "pumpkin": "pumpkin",
    "club": "club",
    "glass": "glass",
    "candy": "candy",
}
SYMBOL_WORD = {"reroll": "+reroll", "black": "+black die"}
SHORT_SYMBOL = {"reroll": "+roll", "black": "+die", "feet": "foot", "glass": "glass"}
CHAR_NAME = {
    "lion": "Lion",
    "witch": "Witch",
    "hero": "Hero",
    "princess": "Princess",
    "pumpkin": "Pumpkin",
    "cowboy": "Cowboy",
    "dinosaur": "Dinosaur",
    "pirate": "Pirate",
}
STREET_COLOUR = (58, 50, 70)
CARD_INK = (40, 32, 48)
# Flat colours kept exact by the palette (see rendering.base.to_palette).
KEEP: tuple[RGB, ...] = (
    *BASE_COLOURS,
    *CANDY_COLOUR.values(),
    *TYPE_COLOUR.values(),
    STREET_COLOUR,
    CARD_INK,
    (20, 16, 24),
    (10, 8, 14),
    (12, 10, 16),
    (70, 58, 96),
    (110, 96, 140),
    (130, 116, 166),
    (236, 224, 200),
    (60, 130, 60),
    (90, 80, 100),
    (120, 40, 40),
    (80, 64, 96),
    (220, 110, 20),
    (24, 20, 28),
    (60, 52, 80),
    (40, 90, 120),
    (150, 210, 250),
    (170, 110, 60),
    (120, 60, 0),
    (160, 80, 0),
    (60, 150, 60),
)


# -- geometry -------------------------------------------------------------------------------------
def tile_xy(idx: int) -> tuple[int, int]:
    r, c = divmod(idx, 4)
    return MARGIN + c * (TILE + GAP), TOP + MARGIN + r * (TILE + GAP)


def street_centre(name: str) -> tuple[float, float, bool]:
    """Centre of a street and whether it runs vertically."""
    a, b = int(name[1]), int(name[2])
    if name[0] == "V":
        x0, y0 = tile_xy((a - 1) * 4 + (b - 1))
        return x0 + TILE + GAP / 2, y0 + TILE / 2, True
    x0, y0 = tile_xy((a - 1) * 4 + (b - 1))
    return x0 + TILE / 2, y0 + TILE + GAP / 2, False


def entrance_centre(name: str) -> tuple[float, float]:
    side, k = name[0], int(name[1])
    if side in "NS":
        x, _, _ = street_centre(f"V1{k}")
        y = TOP + MARGIN / 2 if side == "N" else TOP + BOARD - MARGIN / 2
        return x, y
    _, y, _ = street_centre(f"H{k}1")
    x = MARGIN / 2 if side == "W" else BOARD - MARGIN / 2
    return x, y


# -- small pictures -------------------------------------------------------------------------------
def draw_candy(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, kind: str | None) -> None:
    if kind is None:
        d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=MUTED, width=2)
        return
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=CANDY_COLOUR[kind], outline=(20, 16, 24), width=2)
    text_center(d, (cx, cy + 1), CANDY_LETTER[kind], int(r * 1.15), fill=(20, 16, 24), bold=True)


def draw_face(d: ImageDraw.ImageDraw, x: float, y: float, s: float, face: str) -> None:
    """A die face picture inside the box (x, y, s×s)."""
    cx, cy = x + s / 2, y + s / 2
    if face in ("feet", "feet2"):
        offs = [0.0] if face == "feet" else [-s * 0.17, s * 0.17]
        for i, o in enumerate(offs):
            fx, fy = cx + o, cy + (s * 0.06 if i else -s * 0.02)
            d.ellipse((fx - s * 0.09, fy - s * 0.12, fx + s * 0.09, fy + s * 0.2), fill=INK)
            for t in (-1, 0, 1):
                tx = fx + t * s * 0.07
                d.ellipse((tx - s * 0.035, fy - s * 0.24, tx + s * 0.035, fy - s * 0.17), fill=INK)
    elif face == "pumpkin":
        d.ellipse(
            (cx - s * 0.3, cy - s * 0.2, cx + s * 0.3, cy + s * 0.25),
            fill=ACCENT,
            outline=(120, 60, 0),
            width=2,
        )
        d.line((cx, cy - s * 0.18, cx, cy + s * 0.23), fill=(160, 80, 0), width=2)
        d.rectangle((cx - s * 0.04, cy - s * 0.32, cx + s * 0.04, cy - s * 0.18), fill=(60, 150, 60))
    elif face == "club":
        d.line(
            (cx - s * 0.22, cy + s * 0.25, cx + s * 0.15, cy - s * 0.18),
            fill=(170, 110, 60),
            width=max(3, int(s * 0.1)),
        )
        d.ellipse((cx + s * 0.05, cy - s * 0.33, cx + s * 0.3, cy - s * 0.08), fill=(170, 110, 60))
    elif face == "glass":
        d.ellipse(
            (cx - s * 0.25, cy - s * 0.27, cx + s * 0.1, cy + s * 0.08),
            outline=(150, 210, 250),
            width=max(3, int(s * 0.07)),
        )
        d.line(
            (cx + s * 0.06, cy + s * 0.04, cx + s * 0.28, cy + s * 0.26),
            fill=(150, 210, 250),
            width=max(4, int(s * 0.1)),
        )
    elif face == "candy":
        pink = (236, 120, 190)
        d.polygon(
            [(cx - s * 0.35, cy - s * 0.14), (cx - s * 0.18, cy), (cx - s * 0.35, cy + s * 0.14)], fill=pink
        )
        d.polygon(
            [(cx + s * 0.35, cy - s * 0.14), (cx + s * 0.18, cy), (cx + s * 0.35, cy + s * 0.14)], fill=pink
        )
        d.ellipse((cx - s * 0.2, cy - s * 0.14, cx + s * 0.2, cy + s * 0.14), fill=pink, outline=INK, width=1)


def draw_pawn(d: ImageDraw.ImageDraw, cx: float, cy: float, seat: int, r: int = 15) -> None:
    colour = player_colour(seat)
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=(10, 8, 14), width=3)
    text_center(d, (cx, cy + 1), str(seat + 1), int(r * 1.2), fill=(10, 8, 14), bold=True)


# -- sections -------------------------------------------------------------------------------------
@lru_cache(maxsize=1)
def _table_layer() -> Image.Image:
    """What every Trick or Treat board shares: the title, the city's street block and the street
    and entrance names (pure rules data). Drawn once per process; never drawn on after caching
    (`render` draws on a copy)."""
    from bot.rules.trick_or_treat.data import ENTRANCES, STREETS  # pure data, no game state

    img = new_canvas(WIDTH, 1400, BACKGROUND)
    d = draw_on(img)
    d.text((16, 14), "Trick or Treat Halloween", font=font(26, True), fill=ACCENT)
    d.rounded_rectangle((8, TOP + 8, BOARD - 8, TOP + BOARD - 8), 18, fill=STREET_COLOUR)
    for st in STREETS:
        x, y, vert = street_centre(st)
        if vert:
            text_center(d, (x, y - TILE / 2 + 12), st, 14, fill=MUTED)
        else:
            text_center(d, (x - TILE / 2 + 20, y), st, 14, fill=MUTED)
    for ent in ENTRANCES:
        x, y = entrance_centre(ent)
        text_center(d, (x, y), ent, 15, fill=HIGHLIGHT, bold=True)
    return img


@lru_cache(maxsize=256)
def _building_tile(idx: int, cell: str, rang: bool) -> Image.Image:
    """One city tile (TILE+1 px square) on the street block, drawn once per distinct look.

    Keyed on the tile's position (what lies under its rounded corners), its view as JSON (name,
    face up or not, type, printed and remaining candy) and whether it was just rung. Shared:
    callers paste it and never draw on it.
    """
    x, y = tile_xy(idx)
    tile = _table_layer().crop((x, y, x + TILE + 1, y + TILE + 1))
    draw_building(draw_on(tile), idx, json.loads(cell), rang, origin=(x, y))
    return tile


def draw_city(img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    """Buildings (cached tiles pasted on the shared street block) and the pawns on top."""
    from bot.rules.trick_or_treat.data import ENTRANCES  # pure data, no game state

    rang = set(view.get("rang", []))
    for i, cell in enumerate(view["city"]):
        img.paste(_building_tile(i, json.dumps(cell, sort_keys=True), cell["name"] in rang), tile_xy(i))
    # pawns
    crowd: dict[str, list[int]] = {}
    for p in view["seats"]:
        if p["pos"]:
            crowd.setdefault(p["pos"], []).append(p["seat"])
    for place, seats in crowd.items():
        n = len(seats)
        r = 15 if n <= 4 else 11
        step = 2 * r - 3
        if place in ENTRANCES:
            # waiting pawns line up beside the entrance label, away from the tiles
            x, y = entrance_centre(place)
            for j, seat in enumerate(seats):
                if place[0] in "NS":
                    draw_pawn(d, x + 26 + j * step, y, seat, r)
                else:
                    draw_pawn(d, x, y + 24 + j * step, seat, r)
            continue
        x, y, vert = street_centre(place)
        for j, seat in enumerate(seats):
            o = (j - (n - 1) / 2) * step
            px, py = (x, y + o) if vert else (x + o, y)
            draw_pawn(d, px, py, seat, r)


def draw_building(
    d: ImageDraw.ImageDraw, idx: int, cell: dict[str, Any], rang: bool, origin: tuple[int, int] = (0, 0)
) -> None:
    """A city tile; `origin` is where `d`'s image sits on the board (a cached tile's corner)."""
    x, y = tile_xy(idx)
    x, y = x - origin[0], y - origin[1]
    box = (x, y, x + TILE, y + TILE)
    if not cell["up"]:
        d.rounded_rectangle(box, 12, fill=(70, 58, 96), outline=(110, 96, 140), width=3)
        text_center(d, (x + TILE / 2, y + TILE / 2 + 4), "?", 56, fill=(130, 116, 166), bold=True)
        text_center(d, (x + 20, y + 16), cell["name"], 16, fill=INK, bold=True)
        return
    kind = cell["type"]
    d.rounded_rectangle(
        box, 12, fill=TYPE_COLOUR[kind], outline=HIGHLIGHT if rang else (20, 16, 24), width=4 if rang else 2
    )
    text_center(d, (x + 20, y + 16), cell["name"], 16, fill=INK, bold=True)
    text_center(d, (x + TILE / 2 + 14, y + 17), TYPE_CAPTION[kind], 14, fill=INK, bold=True)
    printed: list[str] = cell["printed"]
    left: list[str] = cell["candy"]
    if not printed:
        note = "lose 1 candy" if kind == "bikers" else "nothing here"
        text_center(
            d, (x + TILE / 2, y + TILE / 2 + 10), "✕" if kind == "plant" else "!", 40, fill=INK, bold=True
        )
        text_center(d, (x + TILE / 2, y + TILE - 16), note, 13, fill=INK)
        return
    # remaining candies are the rightmost printed ones when taken from the left
    r = 17
    cy = y + TILE / 2 + 14
    gap = (TILE - 6 * r) / 4
    start = len(printed) - len(left)
    for j in range(len(printed)):
        cx = x + gap + r + j * (2 * r + gap)
        k = j - start
        draw_candy(d, cx, cy, r, left[k] if 0 <= k < len(left) else None)
    if len(left) > len(printed):  # not possible, but never hide candy
        text_center(d, (x + TILE / 2, y + TILE - 14), f"+{len(left) - len(printed)}", 13)


def draw_dice(d: ImageDraw.ImageDraw, view: dict[str, Any], x: int, y: int, w: int) -> int:
    d.text((x, y), "DICE", font=font(20, True), fill=ACCENT)
    phase = view["phase"]
    info = ""
    if phase == "roll":
        info = f"rolling — {view['rerolls']} reroll(s) left"
    elif phase in ("act", "trade"):
        bits = []
        if view.get("banked"):
            bits.append(f"{view['banked']} footprint banked")
        if view.get("discounts"):
            bits.append(f"{view['discounts']} discount(s)")
        info = ", ".join(bits)
    d.text((x + 70, y + 4), info, font=font(16), fill=INK)
    dice = list(view.get("dice", []))
    # while rolling, the permanent symbols are not in the pool yet: show them after the dice
    dice += [{"f": f, "src": "perm", "used": False} for f in view.get("perm", [])]
    if not dice:
        d.text((x, y + 36), "—", font=font(18), fill=MUTED)
        return y + 80
    size = 58 if len(dice) <= 7 else max(38, (w - 8 * len(dice)) // len(dice))
    size = min(size, (w - 6 * (len(dice) - 1)) // max(1, len(dice)))
    marked = view.get("marked", [])
    for i, die in enumerate(dice):
        dx = x + i * (size + 6)
        dy = y + 32
        src = die["src"]
        fill: RGB = {
            "orange": (220, 110, 20),
            "black": (24, 20, 28),
            "perm": (60, 52, 80),
            "set": (40, 90, 120),
        }[src]
        outline: RGB = HIGHLIGHT if i < len(marked) and marked[i] else (12, 10, 16)
        d.rounded_rectangle(
            (dx, dy, dx + size, dy + size),
            9,
            fill=fill,
            outline=outline,
            width=4 if outline == HIGHLIGHT else 2,
        )
        if src == "perm":
            d.rounded_rectangle((dx + 3, dy + 3, dx + size - 3, dy + size - 3), 7, outline=MUTED, width=1)
        draw_face(d, dx, dy, size, die["f"])
        if die["used"]:
            d.line((dx + 6, dy + 6, dx + size - 6, dy + size - 6), fill=DANGER, width=4)
            d.line((dx + size - 6, dy + 6, dx + 6, dy + size - 6), fill=DANGER, width=4)
        label = FACE_WORD[die["f"]] if size >= 50 else FACE_WORD[die["f"]].split()[-1][:4]
        text_center(d, (dx + size / 2, dy + size + 11), label, 12, fill=INK)
        tag = str(i + 1) if src in ("orange", "black") else ("card" if src == "perm" else "set")
        if i < len(marked) and marked[i]:
            tag += " reroll"  # marked for the next reroll: said in words, not only by the outline
        text_center(
            d, (dx + size / 2, dy + size + 25), tag, 12, fill=HIGHLIGHT if tag[0].isdigit() else MUTED, bold=True
        )
    return y + 32 + size + 36


def draw_cost(d: ImageDraw.ImageDraw, x: float, y: float, cost: dict[str, Any], r: int = 9) -> None:
    if "need" in cost:
        items = [k for k in KIND_ORDER if k in cost["need"] for _ in range(int(cost["need"][k]))]
        for j, k in enumerate(items):
            draw_candy(d, x + r + j * (2 * r + 2), y, r, k)
    elif "any" in cost:
        d.text((x, y - 10), f"any {cost['any']} candies", font=font(17, True), fill=CARD_INK)
    else:
        d.text((x, y - 10), f"{cost['same']} of one kind", font=font(17, True), fill=CARD_INK)


def draw_row(d: ImageDraw.ImageDraw, view: dict[str, Any], x: int, y: int, w: int) -> int:
    d.text((x, y), "SCORE CARDS", font=font(20, True), fill=ACCENT)
    d.text((x + 180, y + 4), f"deck: {view['deck_count']} cards", font=font(16), fill=INK)
    cw = (w - 2 * 10) // 3
    ch = 96
    for i, card in enumerate(view["row"]):
        cx = x + (i % 3) * (cw + 10)
        cy = y + 32 + (i // 3) * (ch + 10)
        d.rounded_rectangle(
            (cx, cy, cx + cw, cy + ch), 10, fill=(236, 224, 200), outline=(20, 16, 24), width=2
        )
        d.ellipse((cx + 8, cy + 8, cx + 44, cy + 44), fill=(60, 130, 60))
        text_center(d, (cx + 26, cy + 27), str(card["points"]), 22, fill=INK, bold=True)
        d.text((cx + 52, cy + 6), f"slot {i + 1}", font=font(15, True), fill=(40, 32, 48))
        d.text((cx + 52, cy + 24), f"#{card['id']}", font=font(13), fill=(90, 80, 100))
        draw_cost(d, cx + 8, cy + 62, card["cost"])
        sym = card["symbol"]
        if sym in ("reroll", "black"):
            d.text((cx + 8, cy + 76), SYMBOL_WORD[sym], font=font(14, True), fill=(120, 40, 40))
        elif sym:
            d.rounded_rectangle((cx + cw - 44, cy + 8, cx + cw - 8, cy + 44), 6, fill=(80, 64, 96))
            draw_face(d, cx + cw - 44, cy + 8, 36, sym)
    rows = (len(view["row"]) + 2) // 3
    return y + 32 + max(rows, 1) * (ch + 10)


def draw_supply(d: ImageDraw.ImageDraw, view: dict[str, Any], x: int, y: int) -> int:
    d.text((x, y), "SUPPLY", font=font(20, True), fill=ACCENT)
    for j, k in enumerate(KIND_ORDER):
        cx = x + 110 + j * 64
        draw_candy(d, cx, y + 13, 13, k)
        d.text((cx + 16, y + 2), str(view["supply"][k]), font=font(17, True), fill=INK)
    return y + 40


def draw_players(d: ImageDraw.ImageDraw, view: dict[str, Any], x: int, y: int, w: int) -> int:
    d.text((x, y), "PLAYERS", font=font(20, True), fill=ACCENT)
    if view.get("last_round"):  # issue #13: the board says when the round being played is the last
        d.text((x + 110, y + 2), "LAST ROUND: the game ends after it", font=font(17, True), fill=ACCENT)
    else:
        d.text((x + 110, y + 4), f"first to {view['target']} ends the round", font=font(15), fill=MUTED)
    y += 30
    n = len(view["seats"])
    rh = 62 if n <= 6 else 52
    waiting = set(view["to_act"])
    for p in view["seats"]:
        seat = p["seat"]
        top = y + seat * rh
        me = view.get("seat") == seat
        d.rounded_rectangle(
            (x, top, x + w, top + rh - 6),
            8,
            fill=PANEL,
            outline=HIGHLIGHT if seat in waiting else (20, 16, 24),
            width=3 if seat in waiting else 1,
        )
        draw_pawn(d, x + 22, top + (rh - 6) / 2, seat, 15)
        char = CHAR_NAME.get(p["char"] or "", "—")
        names = view.get("names") or []
        who = fit(d, clean_name(str(names[seat]), seat), 17, 150) if seat < len(names) else f"P{seat + 1}"
        label = f"{who}" + (" (you)" if me else "")
        d.text((x + 44, top + 3), label, font=font(17, True), fill=INK)
        d.text((x + 250, top + 6), f"{char} · at {p['pos'] or '—'}", font=font(14), fill=MUTED)
        text_center(d, (x + w - 30, top + (rh - 6) / 2 - 6), str(p["score"]), 24, fill=HIGHLIGHT, bold=True)
        text_center(d, (x + w - 30, top + (rh - 6) / 2 + 16), "pts", 12, fill=MUTED)
        # candy counts on the second line, then the score cards' symbols
        line2 = top + rh - 20
        for j, k in enumerate(KIND_ORDER):
            cx = x + 54 + j * 40
            cnt = p["candy"][k]
            draw_candy(d, cx, line2, 10, k if cnt else None)
            d.text((cx + 12, line2 - 9), str(cnt), font=font(14, True), fill=INK if cnt else MUTED)
        cards = p["cards"]
        syms = [card_symbol_word(c["symbol"]) for c in cards if c["symbol"]]
        text = f"{len(cards)} card{'' if len(cards) == 1 else 's'}" + (": " + ", ".join(syms) if syms else "")
        d.text((x + 292, line2 - 8), fit(d, text, 13, w - 292 - 56, bold=False), font=font(13), fill=MUTED)
    return y + n * rh


def card_symbol_word(sym: str) -> str:
    return SHORT_SYMBOL.get(sym, sym)


def fit(d: ImageDraw.ImageDraw, text: str, size: int, width: int, bold: bool = True) -> str:
    """`text` shortened with an ellipsis so that it fits `width` pixels."""
    f = font(size, bold)
    if d.textlength(text, font=f) <= width:
        return text
    while text and d.textlength(text + "…", font=f) > width:
        text = text[:-1]
    return text + "…"


def clean_name(name: str, seat: int) -> str:
    """A player's name as the image can draw it; P1…P8 when nothing of it is drawable."""
    kept = "".join(c for c in name if drawable(c)).strip()
    return kept or f"P{seat + 1}"


def named(text: str, view: dict[str, Any]) -> str:
    """Replace the seat tokens P1…P8 of a rules text by the players' names when the view has them."""
    names = [clean_name(str(n), i) for i, n in enumerate(view.get("names") or [])]
    if not names:
        return text
    return re.sub(r"\bP([1-8])\b", lambda m: names[int(m[1]) - 1] if int(m[1]) <= len(names) else m[0], text)


def render(view: dict[str, Any]) -> Image.Image:
    """The whole table; a seat's view additionally marks that seat's row as "(you)".

    The result is palette-quantised: the board has few colours, and an 8-bit PNG encodes in half the
    time and a third of the bytes of an RGB one (it is sent after every step of a turn).
    """
    img = _table_layer().copy()
    d = draw_on(img)
    d.text((380, 20), fit(d, named(str(view["status"]), view), 17, WIDTH - 396, bold=False), font=font(17), fill=INK)
    draw_city(img, d, view)
    x, w = RIGHT_X, WIDTH - RIGHT_X - 16
    y = TOP + 4
    y = draw_dice(d, view, x, y, w)
    y = draw_row(d, view, x, y + 4, w)
    y = draw_supply(d, view, x, y + 6)
    y = draw_players(d, view, x, y + 4, w)
    img = img.crop((0, 0, WIDTH, max(TOP + BOARD, y) + 12))
    return to_palette(img, KEEP)
