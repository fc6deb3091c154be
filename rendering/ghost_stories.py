"""Ghost Stories board: the 3×3 village, the ghost spaces around it, four Taoist panels and a footer.

Drawn only from a view dict. Every colour also carries a letter (R, Y, G, B, K for black, W for
white) so the board reads without colour vision; haunted tiles are hatched as well as darkened.
"""

from __future__ import annotations

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
    text_center,
    to_palette,
)

W, H = 1200, 1420
TILE = 180
VX, VY = (W - 3 * TILE) // 2, 260  # village top-left
CARD_D = 160  # card depth (away from the village)
COL: dict[str, tuple[int, int, int]] = {
    "red": (205, 62, 62),
    "yellow": (226, 196, 56),
    "green": (58, 168, 92),
    "blue": (72, 128, 222),
    "black": (24, 22, 28),
    "white": (240, 240, 240),
    "grey": (140, 140, 140),
}
LETTER = {"red": "R", "yellow": "Y", "green": "G", "blue": "B", "black": "K", "white": "W", "grey": "?"}
ICON = {
    "SUMMON": "+ghost",
    "HAUNTER": "haunt",
    "HAUNTER_FAST": "fast",
    "HAUNT_NOW": "haunt!",
    "CURSE": "curse",
    "LOSE_QI": "-Qi",
    "GROUP_LOSE_TAO": "-Tao all",
    "CAPTURE_DIE": "-die",
    "TAO_LOCK": "lock",
    "CLEAR_CIRCLE": "-circle",
    "BONE_CRACK": "-Tao",
    "DICE_IMMUNE": "no dice",
    "POWER_BLOCK": "seal",
    "ALL_POWERS_BLOCK": "seal all",
    "NO_WHITE": "no white",
    "OPPOSITE_EMPTY": "opp.empty",
    "NEEDS_BUDDHA": "buddha",
    "R_TAO1": "+1T",
    "R_TAO2": "+2T",
    "R_QI_OR_YY": "Qi/YY",
    "R_QI_AND_YY": "Qi+YY",
}
SIDE_OF = {"red": "S", "yellow": "W", "green": "N", "blue": "E"}
HAUNTED_BG = (70, 24, 30)
# Flat colours kept exact by the palette (see rendering.base.to_palette).
KEEP: tuple[tuple[int, int, int], ...] = (
    *BASE_COLOURS,
    *COL.values(),
    HAUNTED_BG,
    (95, 36, 44),
    (90, 80, 110),
    (120, 220, 160),
    (225, 220, 235),
    (205, 200, 215),
    (230, 170, 170),
    (250, 250, 250),
    (20, 20, 20),
    *((int(r * 0.45 + 30 * 0.55), int(g * 0.45 + 30 * 0.55), int(b * 0.45 + 30 * 0.55)) for r, g, b in COL.values()),
)


def _ink_for(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    return (20, 20, 20) if sum(rgb) > 420 else (245, 245, 245)


def _token(
    d: ImageDraw.ImageDraw, cx: float, cy: float, r: int, colour: str, label: str | None = None
) -> None:
    rgb = COL.get(colour, COL["grey"])
    d.ellipse(
        (cx - r, cy - r, cx + r, cy + r),
        fill=rgb,
        outline=INK if colour == "black" else (20, 20, 20),
        width=2,
    )
    text_center(
        d,
        (cx, cy),
        label if label is not None else LETTER.get(colour, "?"),
        max(10, int(r * 1.1)),
        _ink_for(rgb),
        True,
    )


def _space_rect(space: str) -> tuple[int, int, int, int]:
    colour, i = space[:-1], int(space[-1]) - 1
    side = SIDE_OF[colour]
    if side == "S":
        x = VX + i * TILE
        return (x + 4, VY + 3 * TILE + 8, x + TILE - 4, VY + 3 * TILE + 8 + CARD_D)
    if side == "N":
        x = VX + (2 - i) * TILE
        return (x + 4, VY - 8 - CARD_D, x + TILE - 4, VY - 8)
    if side == "W":
        y = VY + i * TILE
        return (VX - 8 - CARD_D, y + 4, VX - 8, y + TILE - 4)
    y = VY + (2 - i) * TILE
    return (VX + 3 * TILE + 8, y + 4, VX + 3 * TILE + 8 + CARD_D, y + TILE - 4)


def _figure_spot(space: str, rect: tuple[int, int, int, int], on_board: bool) -> tuple[float, float]:
    """Where the haunting figure stands: on the card (far corner) or on the board (village edge);
    its label says how many Yin phases are left before it haunts."""
    x0, y0, x1, y1 = rect
    side = SIDE_OF[space[:-1]]
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    if not on_board:
        return (x1 - 18, y1 - 18)
    return {"S": (cx, y0 - 2), "N": (cx, y1 + 2), "W": (x1 + 2, cy), "E": (x0 - 2, cy)}[side]


def _wrap(text: str, width: int) -> list[str]:
    words, lines, cur = text.split(), [], ""
    for w in words:
        if len(cur) + len(w) + (1 if cur else 0) > width:
            lines.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}" if cur else w
    if cur:
        lines.append(cur)
    return lines


def _draw_space(d: ImageDraw.ImageDraw, sp: dict[str, Any]) -> None:
    rect = _space_rect(sp["space"])
    x0, y0, x1, y1 = rect
    g = sp["ghost"]
    if g is None:
        d.rounded_rectangle(rect, 10, outline=MUTED, width=2)
        text_center(d, ((x0 + x1) / 2, (y0 + y1) / 2 - 10), sp["space"].upper(), 18, MUTED)
        if sp["buddha"]:
            _token(d, (x0 + x1) / 2, (y0 + y1) / 2 + 28, 20, "yellow", "BU")
            text_center(d, ((x0 + x1) / 2, y1 - 12), "Buddha", 14, HIGHLIGHT)
        return
    rgb = COL[g["colour"]]
    bg = tuple(int(c * 0.45 + 30 * 0.55) for c in rgb)
    outline = DANGER if g["incarnation"] else rgb
    d.rounded_rectangle(rect, 10, fill=bg, outline=outline, width=5 if g["incarnation"] else 3)
    _token(d, x0 + 20, y0 + 20, 14, g["colour"])
    res = g["resistance"]
    restext = " ".join(f"{n}{LETTER[c]}" for c, n in res.items())
    d.text((x0 + 40, y0 + 8), restext, font=font(22 if len(res) == 1 else 14, True), fill=INK)
    name_lines = _wrap(g["name"], 14)[:2]
    for j, line in enumerate(name_lines):
        d.text((x0 + 8, y0 + 40 + j * 19), line, font=font(16, True), fill=INK)
    ty = y0 + 42 + 19 * len(name_lines)
    parts = [
        ("in:", g["arrival"]),
        ("yin:", g["yin"] + [c for c in g["states"]]),
        ("out:", g["exit"]),
    ]
    for label, codes in parts:
        if codes:
            txt = label + " " + ", ".join(ICON.get(c, c) for c in codes)
            for line in _wrap(txt, 20)[:2]:
                if ty < y1 - 30:
                    d.text((x0 + 8, ty), line, font=font(13), fill=(225, 220, 235))
                    ty += 15
    # the space's name, as the menus and commands call it (e.g. "exorcise red2")
    d.text((x0 + 8, y1 - 20), sp["space"].upper(), font=font(12, True), fill=(205, 200, 215))
    if g["incarnation"]:
        text_center(d, ((x0 + x1) / 2 + 22, y1 - 13), "WU-FENG", 13, DANGER, True)
    if g["captured"]:
        d.rectangle((x1 - 34, y0 + 6, x1 - 8, y0 + 32), fill=(240, 240, 240), outline=(0, 0, 0))
        text_center(d, (x1 - 21, y0 + 19), "D", 14, (0, 0, 0), True)
    if sp["mantra"]:
        _token(d, x1 - 22, y0 + 52, 13, "grey", "M")
    if g["haunt"] is not None:
        # the figure says in how many of its board's Yin phases it haunts: H1 = at the next one
        soon = int(g.get("haunts_in") or 1)
        fx, fy = _figure_spot(sp["space"], rect, bool(g["haunt"]))
        d.ellipse((fx - 15, fy - 15, fx + 15, fy + 15), fill=(250, 250, 250), outline=DANGER, width=3)
        text_center(d, (fx, fy), f"H{soon}", 13, DANGER, True)


def _draw_tile(d: ImageDraw.ImageDraw, t: dict[str, Any], idx: int, view: dict[str, Any]) -> None:
    r, c = divmod(idx, 3)
    x0, y0 = VX + c * TILE, VY + r * TILE
    rect = (x0 + 3, y0 + 3, x0 + TILE - 3, y0 + TILE - 3)
    if t["haunted"]:
        d.rectangle(rect, fill=HAUNTED_BG, outline=DANGER, width=3)
        for k in range(-TILE, TILE, 22):
            d.line(
                (
                    x0 + 3 + max(0, k),
                    y0 + 3 + max(0, -k),
                    x0 + TILE - 3 - max(0, -k),
                    y0 + TILE - 3 - max(0, k),
                ),
                fill=(95, 36, 44),
                width=3,
            )
    else:
        d.rectangle(rect, fill=PANEL, outline=(90, 80, 110), width=2)
    d.text((x0 + 10, y0 + 8), t["tile"].upper(), font=font(16, True), fill=ACCENT)
    lines = _wrap(t["name"], 13)[:3]
    name_ink = INK if not t["haunted"] else (230, 170, 170)
    for j, line in enumerate(lines):
        text_center(d, (x0 + TILE / 2, y0 + 44 + j * 22), line, 18, name_ink, True)
    ny = y0 + 44 + len(lines) * 22 + 6
    if t["haunted"]:
        text_center(d, (x0 + TILE / 2, ny), "HAUNTED", 18, DANGER, True)
        ny += 22
    extra = ""
    if t["key"] == "temple":
        extra = f"Buddhas: {view['temple_buddhas']}"
    elif t["key"] == "circle" and view["circle"]:
        _token(d, x0 + TILE - 26, y0 + 22, 15, view["circle"])
    if idx == 4 and view["centre_power_tokens"]:
        extra = f"Power tokens: {view['centre_power_tokens']}"
    if extra:
        text_center(d, (x0 + TILE / 2, ny), extra, 15, HIGHLIGHT, True)
    dead = {b["colour"] for b in view["boards"] if b["seat"] is not None and not b["alive"]}
    tao = t["taoists"]
    for j, colour in enumerate(tao):
        cx = x0 + TILE / 2 + (j - (len(tao) - 1) / 2) * 38
        cy = y0 + TILE - 30
        _token(d, cx, cy, 17, colour)
        if colour in dead:
            d.line((cx - 15, cy - 15, cx + 15, cy + 15), fill=DANGER, width=4)
            d.line((cx - 15, cy + 15, cx + 15, cy - 15), fill=DANGER, width=4)
        if colour == view["turn"] and view["result"] is None:
            d.ellipse((cx - 22, cy - 22, cx + 22, cy + 22), outline=HIGHLIGHT, width=3)


def _draw_board_panel(
    d: ImageDraw.ImageDraw, b: dict[str, Any], x0: int, y0: int, w: int, h: int, view: dict[str, Any]
) -> None:
    rgb = COL[b["colour"]]
    active = view["turn"] == b["colour"] and view["result"] is None
    d.rounded_rectangle(
        (x0, y0, x0 + w, y0 + h),
        12,
        fill=PANEL,
        outline=HIGHLIGHT if active else rgb,
        width=5 if active else 3,
    )
    _token(d, x0 + 24, y0 + 26, 16, b["colour"])
    names = view.get("names") or []
    if b["neutral"]:
        who = "neutral"
    elif b["seat"] < len(names):
        who = str(names[b["seat"]])[:16]
    else:
        who = f"seat {b['seat'] + 1}"
    if view.get("seat") is not None and b["seat"] == view["seat"]:
        who = "you"
    d.text((x0 + 48, y0 + 12), f"{b['colour'].upper()} · {who}", font=font(19, True), fill=INK)
    state = "HAUNTED BOARD" if b["haunted"] else ("DEAD" if not b["alive"] and not b["neutral"] else "")
    y = y0 + 46
    d.text(
        (x0 + 12, y), f"Qi {b['qi']}", font=font(24, True), fill=(120, 220, 160) if b["qi"] > 1 else DANGER
    )
    for q in range(min(b["qi"], 6)):
        d.ellipse((x0 + 90 + q * 22, y + 6, x0 + 106 + q * 22, y + 22), fill=(120, 220, 160))
    y += 36
    if state:
        d.text((x0 + 12, y), state, font=font(18, True), fill=DANGER)
        y += 28
    if not b["neutral"]:
        tx = x0 + 22
        for colour, n in b["tao"].items():
            _token(d, tx, y + 14, 13, colour)
            d.text((tx + 16, y + 4), f"{n}", font=font(18, True), fill=INK if n else MUTED)
            tx += 50
        y += 34
        items = [f"Yin-Yang: {'yes' if b['yinyang'] else 'no'}", f"Buddhas: {b['buddhas']}"]
        if b["power_tokens"]:
            items.append(f"Power tok.: {b['power_tokens']}")
        d.text((x0 + 12, y), "  ".join(items[:2]), font=font(15), fill=INK)
        y += 20
        if len(items) > 2:
            d.text((x0 + 12, y), items[2], font=font(15), fill=INK)
            y += 20
        if b["pos"] and b["alive"]:
            d.text((x0 + 12, y), f"On {b['pos'].upper()}", font=font(15), fill=MUTED)
            y += 20
    p = b["power"]
    d.text((x0 + 12, y0 + h - 56), p["name"], font=font(16, True), fill=ACCENT if p["active"] else MUTED)
    text = p["text"] if p["active"] else "SEALED — " + p["text"]
    for j, line in enumerate(_wrap(text, 38)[:2]):
        d.text((x0 + 12, y0 + h - 36 + j * 16), line, font=font(13), fill=INK if p["active"] else MUTED)


def _draw_die(d: ImageDraw.ImageDraw, x: int, y: int, face: str, size: int = 40) -> None:
    colour = face if face in COL else "grey"
    rgb = COL[colour]
    d.rounded_rectangle((x, y, x + size, y + size), 7, fill=rgb, outline=INK, width=2)
    label = LETTER.get(
        face, {"blank": "-", "haunt": "H", "ghost": "+G", "tao": "-T", "qi": "-Q"}.get(face, "?")
    )
    text_center(d, (x + size / 2, y + size / 2), label, 18, _ink_for(rgb), True)


PANEL_Y = VY + 3 * TILE + CARD_D + 50  # the Taoist panels' top
PANEL_W, PANEL_H = (W - 50) // 4, 250
FOOTER_Y = PANEL_Y + PANEL_H + 12


@lru_cache(maxsize=1)
def _frame_layer() -> Image.Image:
    """What every Ghost Stories board shares: the title, the four boards' labels beside the card
    rows and the footer's panel. None of them overlaps anything a view draws, so drawing them first
    gives the same picture. Drawn once per process; `render` draws on a copy, never on this."""
    img = new_canvas(W, H, BACKGROUND)
    d = draw_on(img)
    d.text((20, 14), "GHOST STORIES", font=font(30, True), fill=ACCENT)
    text_center(d, (W / 2, VY + 3 * TILE + CARD_D + 28), "RED BOARD (south)", 16, COL["red"], True)
    text_center(d, (W / 2, VY - CARD_D - 26), "GREEN BOARD (north)", 16, COL["green"], True)
    d.text((14, VY - 30), "YELLOW (west)", font=font(16, True), fill=COL["yellow"])
    d.text((W - 150, VY - 30), "BLUE (east)", font=font(16, True), fill=COL["blue"])
    d.rounded_rectangle((10, FOOTER_Y, W - 10, H - 10), 12, fill=PANEL)
    return img


def render(view: dict[str, Any]) -> Image.Image:
    """The public board (seat=None) or a seat's board (same picture, 'you' marked)."""
    img = _frame_layer().copy()
    d = draw_on(img)
    inc = view["incarnations"]
    head = (
        f"{view['difficulty'].capitalize()}   Deck {view['deck']}   "
        f"Haunted {view['haunted']}/{view['haunt_limit']}   "
        f"Wu-Feng {inc['banished']}/{inc['total']}   Round {view['round']}"
    )
    d.text((330, 20), head, font=font(22, True), fill=INK)
    for idx, t in enumerate(view["tiles"]):
        _draw_tile(d, t, idx, view)
    for sp in view["spaces"]:
        _draw_space(d, sp)
    pending = view.get("pending") or {}
    if pending.get("kind") == "place":
        for name in pending.get("spaces", []):
            d.rounded_rectangle(_space_rect(name), 10, outline=HIGHLIGHT, width=4)
    # the four Taoist panels
    for i, b in enumerate(view["boards"]):
        _draw_board_panel(d, b, 10 + i * (PANEL_W + 10), PANEL_Y, PANEL_W, PANEL_H, view)
    # footer (its panel is in the frame layer)
    fy = FOOTER_Y
    roll = view["last_roll"]
    x = 24
    if roll:
        d.text((x, fy + 12), f"Last roll ({roll.get('why', '')}):", font=font(17, True), fill=INK)
        for j, face in enumerate(roll["faces"]):
            _draw_die(d, x + j * 48, fy + 40, face)
        if not roll["faces"]:
            d.text((x, fy + 48), "no dice", font=font(17), fill=MUTED)
    sx = 420
    d.text((sx, fy + 12), "Supply:", font=font(17, True), fill=INK)
    for j, (colour, n) in enumerate(view["supply"].items()):
        _token(d, sx + 16 + j * 56, fy + 58, 14, colour)
        d.text((sx + 33 + j * 56, fy + 48), str(n), font=font(18, True), fill=INK)
    d.text((sx + 290, fy + 48), f"Qi {view['qi_supply']}", font=font(18, True), fill=INK)
    notes = []
    if view["tao_locked"]:
        notes.append("TAO TOKENS LOCKED")
    if view["captured_dice"]:
        notes.append(f"{view['captured_dice']} die captured")
    if not view["whites_wild"]:
        notes.append("white faces blank")
    if view["mantra"] == "gone":
        notes.append("Mantra lost")
    d.text((sx + 380, fy + 12), "  ·  ".join(notes), font=font(16, True), fill=DANGER)
    if pending.get("kind") == "place":
        d.text(
            (sx + 380, fy + 40),
            f"Arriving: {pending.get('card_name', '?')}",
            font=font(17, True),
            fill=HIGHLIGHT,
        )
    status = view["status"]
    colour = HIGHLIGHT if view["result"] != "lose" else DANGER
    for j, line in enumerate(_wrap(status, 100)[:2]):
        d.text((24, fy + 92 + j * 24), line, font=font(19, True), fill=colour)
    return to_palette(img, KEEP)
